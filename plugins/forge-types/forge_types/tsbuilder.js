"use strict";
// forge-types' warm TypeScript checker (forge_types/tsbuilder.py starts it):
//
//     node tsbuilder.js TYPESCRIPT_JS TSCONFIG
//
// The project's own TypeScript (its lib/typescript.js) builds the tsconfig's program
// as a SemanticDiagnosticsBuilderProgram, tsc --incremental's bookkeeping kept in
// memory: each file's diagnostics, and each file's declaration shape. Before every
// answer the program is built again from the disk (the config re-read, every source
// file re-stated; an unchanged file's parsed tree is reused), and the builder marks
// what the changes affect: a changed file, and, when its declarations changed, the
// files that import it (all files when it changes the global scope). Only those lose
// their diagnostics; every other file's are the ones the unchanged program had.
//
// A request is one JSON line on stdin: {"files": [absolute paths]} for those files'
// errors, {"files": null} to check the whole program (load). The answer is one JSON
// line on stdout: {"diagnostics": [[path, line, column, "TS<code>", message]],
// "checked": [paths checked afresh]}, or {"error": "..."}.
const fs = require("fs");
const readline = require("readline");
const ts = require(process.argv[2]);
const configPath = process.argv[3];

// Parsed files by name and parse settings, with the disk stamp they were read at.
let parsed = new Map();
let builder;

function stampOf(name) {
  try {
    const status = fs.statSync(name, { bigint: true });
    return `${status.mtimeNs}:${status.size}:${status.ino}`;
  } catch {
    return null;
  }
}

function settingsOf(languageVersionOrOptions) {
  if (typeof languageVersionOrOptions !== "object" || languageVersionOrOptions === null) {
    return String(languageVersionOrOptions);
  }
  const { languageVersion, impliedNodeFormat, jsDocParsingMode } = languageVersionOrOptions;
  return JSON.stringify([languageVersion, impliedNodeFormat, jsDocParsingMode]);
}

function build() {
  const config = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, " "));
    },
  });
  // Its getSourceFile versions each file by a hash of its text: what the builder compares.
  const host = ts.createIncrementalCompilerHost(config.options);
  const read = host.getSourceFile;
  const kept = new Map();
  host.getSourceFile = (name, settings, onError, create) => {
    const key = `${name}\0${settingsOf(settings)}`;
    const stamp = stampOf(name);
    const held = parsed.get(key);
    if (held && stamp !== null && held.stamp === stamp) {
      kept.set(key, held);
      return held.file;
    }
    const file = read.call(host, name, settings, onError, create);
    if (file && stamp !== null) kept.set(key, { stamp, file });
    return file;
  };
  builder = ts.createSemanticDiagnosticsBuilderProgram(
    config.fileNames,
    config.options,
    host,
    builder,
    ts.getConfigFileParsingDiagnostics(config),
    config.projectReferences,
  );
  parsed = kept; // files no longer in the program are let go
  return { program: builder, host };
}

// A first program's files are versioned, not shaped (tsc --incremental's first build
// too): the first edit of each file would take all its importers along, whatever it
// changed. Each file's declaration shape is computed once, at load, the way the builder
// computes a changed file's (TypeScript's own BuilderState; a TypeScript without it
// keeps the versions).
function shapeAll(program, host) {
  const state = program.state;
  const shapes = ts.BuilderState;
  if (!state || !state.fileInfos || !shapes || typeof shapes.computeDtsSignature !== "function") {
    return;
  }
  const inner = program.getProgram();
  for (const file of inner.getSourceFiles()) {
    const info = state.fileInfos.get(file.resolvedPath);
    if (!info || file.isDeclarationFile) continue;
    shapes.computeDtsSignature(inner, file, undefined, host, (signature) => {
      info.signature = signature;
    });
  }
}

function shaped(diagnostic) {
  const file = diagnostic.file;
  const at =
    file && diagnostic.start !== undefined
      ? file.getLineAndCharacterOfPosition(diagnostic.start)
      : { line: 0, character: 0 };
  return [
    file ? file.fileName : "",
    at.line + 1,
    at.character + 1,
    `TS${diagnostic.code}`,
    ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
  ];
}

function answer(files) {
  const { program, host } = build();
  const asked = files === null ? null : files.map((name) => program.getSourceFile(name));
  const wanted = new Set((asked || []).filter(Boolean));
  // The files checked afresh (not answered from the builder's diagnostics), for the
  // answer to say: the builder asks the program for each such file's diagnostics.
  const checked = new Set();
  const inner = program.getProgram();
  const check = inner.getBindAndCheckDiagnostics;
  if (typeof check === "function") {
    inner.getBindAndCheckDiagnostics = (file, token) => {
      checked.add(file.fileName);
      return check.call(inner, file, token);
    };
  }
  // The affected files: the asked ones are checked now; the others only lose their
  // diagnostics (checked when asked).
  const skip = asked === null ? undefined : (file) => !wanted.has(file);
  while (program.getSemanticDiagnosticsOfNextAffectedFile(undefined, skip)) {
    // each call handles one affected file
  }
  if (asked === null) {
    shapeAll(program, host);
    return { diagnostics: [], checked: [...checked] };
  }
  const found = [];
  for (const file of wanted) {
    const all = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    for (const diagnostic of all) {
      if (diagnostic.category === ts.DiagnosticCategory.Error) found.push(shaped(diagnostic));
    }
  }
  return { diagnostics: found, checked: [...checked] };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let reply;
  try {
    const request = JSON.parse(line);
    reply = answer(Array.isArray(request.files) ? request.files.map(String) : null);
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
});
lines.on("close", () => process.exit(0));
