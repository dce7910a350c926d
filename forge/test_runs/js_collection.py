"""The spec tests by id of a JavaScript verify command: mocha's, node's and vitest's own listing.

What :mod:`forge.test_runs.collection` does with pytest's ``--collect-only``,
done for the JavaScript runners that can list their tests without running
them, each with a small reporter of forge's written to a private folder:

- mocha: ``--dry-run`` (mocha 9 and later) with forge's reporter; the
  project's ``.mocharc`` (``spec``, ``grep``, ``require``...) applies as in
  the real run, so narrowing it narrows the listing.
- ``node --test``: node has no listing mode, but a test whose name matches
  no ``--test-name-pattern`` is reported, skipped, without its body running;
  forge's pattern ``(?!)`` matches nothing, and its reporter keeps every
  test's file, line and titles. The command's own name patterns are applied
  to the listing afterwards (node ORs patterns: passed on, they would run
  the matching bodies and list everything).
- vitest: ``vitest list --json=FILE`` (its config's ``include``, ``-t``
  applied); it leaves skipped tests out, so a test newly skipped is listed
  as gone too.

The command is read with :func:`forge.test_runs.spec_scope.runs_of` (its
``package.json`` scripts followed in the tree listed), so a narrowed test
script lists fewer tests. A test's id is ``file::title > title`` (its
``describe`` titles first, as :mod:`forge.test_runs.spec_js` names tests).
Only top-level code and ``describe`` bodies run, under the caller's runner
(a timeout, a process group); jest is not listed (``--listTests`` names
files only).
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import shlex
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from forge.test_runs.collection import MAX_IDS_BYTES, Collected, CollectionFailed, Runner, Shape
from forge.test_runs.spec_js import js_tests
from forge.test_runs.spec_scope import BaseReader, Run, runs_of

#: The JavaScript runners whose tests forge lists.
LISTED = frozenset({"mocha", "node", "vitest"})
#: Bytes of a package.json or config read to follow a script.
MAX_SCRIPT_BYTES = 256 * 1024
#: forge's mocha reporter: each test mocha's dry run reaches (grep, only applied), as JSON.
MOCHA_REPORTER = """\
'use strict';
// forge's spec-test listing: every test a dry run reaches, with its file and titles.
const fs = require('fs');
function ForgeSpecIds(runner) {
  const seen = new Map();
  const keep = (test) => {
    const titles = test.titlePath();
    seen.set(JSON.stringify([test.file || '', titles]), { file: test.file || '', line: 0, titles });
  };
  runner.on('test end', keep);
  runner.on('pending', keep);
  runner.once('end', () => {
    fs.writeFileSync(process.env.FORGE_SPEC_IDS, JSON.stringify([...seen.values()]));
  });
}
module.exports = ForgeSpecIds;
"""
#: forge's node:test reporter: every test reported (suites left out), written at the end.
NODE_REPORTER = """\
// forge's spec-test listing: every test node reports, with its file, line and titles.
export default async function* forgeSpecIds(source) {
  const titles = [];
  const found = [];
  for await (const event of source) {
    const data = event.data || {};
    if (event.type === 'test:start') titles[data.nesting] = data.name;
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    titles[data.nesting] = data.name;
    if (data.details && data.details.type === 'suite') continue;
    found.push({ file: data.file || '', line: data.line || 0,
                 titles: titles.slice(0, data.nesting + 1) });
  }
  yield JSON.stringify(found);
}
"""
#: A name pattern no test name matches: node lists every test, skipped, bodies not run.
_NOTHING = "(?!)"
#: node options forge replaces (its reporter, its pattern) or that would never end.
_NODE_DROPPED = {"--test-reporter": True, "--test-reporter-destination": True, "--watch": False}
_NODE_PATTERNS = ("--test-name-pattern", "--test-skip-pattern")
#: vitest options that would replace forge's JSON file or never end.
_VITEST_DROPPED = {"--reporter": True, "--outputFile": True, "--json": False, "--watch": False}


def js_runs(command: str, read: BaseReader) -> list[Run]:
    """The mocha, vitest and ``node --test`` runs ``command`` starts, scripts read with ``read``."""
    return [run for run in runs_of(command, "", read, {}) if run.runner in LISTED]


def tree_reader(tree: Path) -> BaseReader:
    """Reads a file of ``tree`` (relative path) for :func:`js_runs`; None if absent or a link."""

    def read(relative: str) -> str | None:
        path = tree / relative
        try:
            if path.is_symlink() or not path.is_file():
                return None
            with path.open("rb") as handle:
                return handle.read(MAX_SCRIPT_BYTES).decode("utf-8", errors="replace")
        except OSError:
            return None

    return read


def collect_js(
    command: str, where: Path, real_cwd: Path, timeout: float, run: Runner
) -> list[Collected]:
    """The tests ``command``'s mocha, vitest and node runs list in folder ``where``; [] if none.

    ``real_cwd`` is the folder the command was written for: mocha and vitest
    are taken from its ``node_modules/.bin`` (the base tree has none). Raises
    :class:`~forge.test_runs.collection.CollectionFailed`.
    """
    found: list[Collected] = []
    for each in js_runs(command, tree_reader(where)):
        found.extend(_collect_run(each, where, real_cwd, timeout, run))
    return found


def _collect_run(
    each: Run, where: Path, real_cwd: Path, timeout: float, run: Runner
) -> list[Collected]:
    with tempfile.TemporaryDirectory(prefix="forge-spec-ids-") as folder:
        private = Path(folder)
        out = private / "ids.json"
        patterns: list[tuple[str, str]] = []
        if each.runner == "mocha":
            reporter = private / "forge-spec-ids.js"
            reporter.write_text(MOCHA_REPORTER, encoding="utf-8")
            words = [_binary(real_cwd / each.cwd, "mocha")]
            words += _without(each.args, {"--watch": False, "-w": False})
            words += ["--dry-run", "--no-parallel", "--reporter", str(reporter)]
        elif each.runner == "vitest":
            # vitest's own listing: its include globs, -t and config applied; skipped tests left out.
            words = [_binary(real_cwd / each.cwd, "vitest"), "list", f"--json={out}"]
            words += _without(each.args, _VITEST_DROPPED)
        else:
            reporter = private / "forge-spec-ids.mjs"
            reporter.write_text(NODE_REPORTER, encoding="utf-8")
            args, patterns = _node_arguments(each.args)
            # node takes whatever follows a file for a file: forge's options go first.
            words = ["node", "--test", "--test-reporter", str(reporter)]
            words += ["--test-reporter-destination", str(out), "--test-name-pattern", _NOTHING]
            words += args
        command = shlex.join(["env", f"FORGE_SPEC_IDS={out}", *words])
        exit_code, message = run(command, where / each.cwd, timeout)
        if exit_code != 0 or not out.is_file():
            raise CollectionFailed(f"{each.runner} could not list its tests: {message}")
        with out.open("rb") as handle:
            data = handle.read(MAX_IDS_BYTES + 1)
    if len(data) > MAX_IDS_BYTES:
        raise CollectionFailed(f"over {MAX_IDS_BYTES} bytes of test ids")
    try:
        records = [_record(item) for item in json.loads(data)]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CollectionFailed(f"unreadable listing: {exc}") from None
    if each.runner == "node":
        # node reports a file that declares no test as one test named by its path.
        records = [record for record in records if record[2] != [record[0]]]
    if each.runner == "node" and not records:
        # Never a vacuous "all 0 still listed": a node that leaves the tests its name
        # pattern filters out of the report lists nothing, and proves nothing.
        raise CollectionFailed("node listed no test (it reports none its name pattern filters)")
    compiled = [(option, _regex(value)) for option, value in patterns]
    items = []
    for file, line, titles in records:
        if compiled and not _kept([file, *titles], compiled):
            continue
        relative = _relative(file, where)
        items.append(Collected(f"{relative}::{' > '.join(titles)}", relative, max(line, 1)))
    return items


def _record(item: dict[str, object]) -> tuple[str, int, list[str]]:
    """(file, line, titles) of one listed test: forge's reporters', or vitest's ``name``."""
    if "titles" not in item:
        return str(item["file"]), 0, str(item["name"]).split(" > ")
    titles = item["titles"]
    if not isinstance(titles, list):
        raise TypeError(f"titles {titles!r} is not a list")
    return str(item["file"]), int(str(item["line"])), [str(title) for title in titles]


def _binary(folder: Path, name: str) -> str:
    """The project's ``name`` (``node_modules/.bin`` of the folder or one above), else PATH's."""
    for parent in (folder, *folder.parents):
        candidate = parent / "node_modules" / ".bin" / name
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise CollectionFailed(f"{name} is not installed (no node_modules/.bin/{name})")
    return found


def _without(args: tuple[str, ...], dropped: dict[str, bool]) -> list[str]:
    """``args`` less the options ``dropped`` names (True: with the value that follows)."""
    kept: list[str] = []
    skip = False
    for arg in args:
        option = arg.split("=", 1)[0]
        if skip:
            skip = False
        elif option in dropped:
            skip = dropped[option] and "=" not in arg
        else:
            kept.append(arg)
    return kept


def _node_arguments(args: tuple[str, ...]) -> tuple[list[str], list[tuple[str, str]]]:
    """node's arguments for the listing, and the command's name patterns to apply after it."""
    patterns: list[tuple[str, str]] = []
    rest: list[str] = []
    words = _without(args, _NODE_DROPPED)
    index = 0
    while index < len(words):
        word = words[index]
        option, equals, value = word.partition("=")
        if option in _NODE_PATTERNS:
            if not equals:
                index += 1
                value = words[index] if index < len(words) else ""
            patterns.append((option, value))
        else:
            rest.append(word)
        index += 1
    return rest, patterns


def _kept(titles: list[str], compiled: list[tuple[str, re.Pattern[str]]]) -> bool:
    """Whether node would run a test of these titles under the command's name patterns.

    ``titles`` starts with the test's file: node runs each file as a test named by
    its path, and a test whose ancestor matches runs.
    """
    names = [" ".join(titles[: depth + 1]) for depth in range(len(titles))] + titles
    wanted = [regex for option, regex in compiled if option == "--test-name-pattern"]
    skipped = [regex for option, regex in compiled if option == "--test-skip-pattern"]
    if any(regex.search(name) for regex in skipped for name in names):
        return False
    return not wanted or any(regex.search(name) for regex in wanted for name in names)


def _regex(value: str) -> re.Pattern[str]:
    """A node name pattern (``text`` or ``/text/flags``) as a Python regular expression."""
    match = re.fullmatch(r"/(.*)/([a-z]*)", value, re.S)
    source, flags = (match[1], match[2]) if match else (value, "")
    try:
        return re.compile(source, re.I if "i" in flags else 0)
    except re.error:
        raise CollectionFailed(f"cannot read the name pattern {value!r}") from None


def _relative(file: str, where: Path) -> str:
    if not Path(file).is_absolute():
        return file.replace(os.sep, "/")
    for root in (where, where.resolve()):
        try:
            return Path(file).relative_to(root).as_posix()
        except ValueError:
            continue
    return file


def js_body_shape(text: str, item: Collected) -> Shape | None:
    """The body of the JavaScript test ``item`` in its file's ``text``, as a digest, or None."""
    tests = js_tests(item.file, text)
    test = (tests or {}).get(item.id.partition("::")[2])
    if test is None:
        return None
    digest = hashlib.sha1(test.body.encode(), usedforsecurity=False).hexdigest()
    # No constants: a JavaScript test is never taken as folded into a table-driven one.
    return Shape(digest=digest, constants=Counter(), calls=frozenset(), equalities=0)


def js_line(text: str, test_id: str, line: int) -> int:
    """The line of test ``test_id``'s body in its file's ``text`` (mocha lists none), else ``line``."""
    file, _, name = test_id.partition("::")
    test = (js_tests(file, text) or {}).get(name)
    if test is None or test.node is None:
        return line
    return int(test.node.start_point[0]) + 1


def is_js_test(file: str) -> bool:
    """Whether a collected file is JavaScript or TypeScript (its body read by :func:`js_body_shape`)."""
    return re.search(r"\.[cm]?[jt]sx?$", posixpath.basename(file)) is not None
