"""node's own verdict on a JavaScript file: V8 compiles it, nothing runs it.

oxc-python 0.1.1 has no semantic pass, so the early errors node reports
(``Identifier 'a' has already been declared``, strict-mode violations,
duplicate parameters, ``yield``/``await`` misuse, invalid regular
expressions, undefined labels, module-only errors) were forge's blind spot.
The engine that decides for node is node's: one ``node`` process per forge
process, started on the first JavaScript file and kept warm, compiles each
file with the goals node would load it with and answers with V8's message
and place. It compiles only: ``vm.compileFunction`` (CommonJS, as node wraps
it) and ``new vm.SourceTextModule`` (ESM) build a function or a module
record, neither is called, linked or evaluated; no file is read by node
(the text comes through a pipe), and ``NODE_OPTIONS`` is dropped so no
preload runs either.

The goals are node 20's for the file: ``.mjs`` a module, ``.cjs`` CommonJS,
``.js`` by the nearest ``package.json``'s ``"type"`` (``"module"``: a module;
otherwise CommonJS, then a module, as node's detection runs a ``.js`` with
``import``/``export``). ``.jsx`` is not node's (it has no JSX): oxc decides.

Which ``node``: the first on ``PATH``, the one the project runs. Without it
(or when it fails, hangs past :data:`TIMEOUT_SECONDS`, or runs out of stack
on a deeply nested file) there is no verdict and oxc decides as before.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from forge.languages import oxc
from forge.models import SyntaxAuthority, SyntaxVerdict

#: One request: the goals and the source.
_Key = tuple[tuple[str, ...], str]
#: Seconds one file may take to compile, plus one per MB of source.
TIMEOUT_SECONDS = 10.0
#: V8's place of an error: ``f:LINE`` heading its stack, then the line, then `^`.
_PLACE = re.compile(r"\Af:(\d+)\n[^\n]*\n([ \t]*)\^")

#: The worker: one JSON request a line in, one JSON verdict a line out.
WORKER = r"""
"use strict";
const vm = require("vm");
let decorate = null;  // puts the arrow into a module's error stack, as node --check does
try { decorate = require("internal/util").decorateErrorStack; } catch {}
const PARAMS = ["exports", "require", "module", "__filename", "__dirname"];
const compile = {
  module: (src) => new vm.SourceTextModule(src, {identifier: "f"}),
  // node strips a hashbang before wrapping; same length, so places hold
  commonjs: (src) => vm.compileFunction(src.startsWith("#!") ? "//" + src.slice(2) : src,
                                        PARAMS, {filename: "f"}),
};
// node retries a .js as ESM when CommonJS refuses it for one of these
const ESM_SIGNS = /import statement outside a module|Unexpected token 'export'|import\.meta|await is only valid/;
function judge(src, goals) {
  let first = null;
  for (const goal of goals) {
    try { compile[goal](src); return {ok: true}; } catch (error) {
      if (!(error instanceof SyntaxError)) return {ok: null, message: String(error)};
      if (decorate) { try { decorate(error); } catch {} }
      const found = {ok: false, goal, message: error.message, stack: String(error.stack)};
      if (first === null || ESM_SIGNS.test(first.message)) first = found;
    }
  }
  return first;
}
require("readline").createInterface({input: process.stdin}).on("line", (line) => {
  let answer;
  try { const request = JSON.parse(line); answer = judge(request.source, request.goals); }
  catch (error) { answer = {ok: null, message: String(error)}; }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
"""


class _Worker:
    """One warm ``node`` compiling what it is sent; restarted after a failure."""

    def __init__(self, node: str) -> None:
        self.node = node
        self._process: subprocess.Popen[bytes] | None = None
        self._answers: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        #: Requests written and not yet answered, in order (node answers in order).
        self._sent: collections.deque[_Key] = collections.deque()
        self._pending: collections.Counter[_Key] = collections.Counter()
        #: Answers read for requests sent ahead (prepare), not yet asked for.
        self._ready: dict[_Key, dict[str, Any] | None] = {}
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen[bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NODE_")}
        process = subprocess.Popen(
            [
                self.node,
                "--expose-internals",
                "--experimental-vm-modules",
                "--no-warnings",
                "-e",
                WORKER,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        # A reader thread, so a wait can time out on every platform (no select on pipes).
        answers: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._answers = answers
        reader = threading.Thread(
            target=_read_answers, args=(process, answers), name="forge-node", daemon=True
        )
        reader.start()
        return process

    def start(self) -> None:
        """Start node now (it boots while forge parses), if it is not running."""
        with self._lock:
            if self._process is None:
                self._process = self._start()

    def prepare(self, requests: list[_Key]) -> None:
        """Send every request now: node compiles them back to back, answers wait."""
        with self._lock:
            self._ready.clear()  # a previous batch's answers nobody asked for
            try:
                for key in requests:
                    if not self._pending[key]:
                        self._send(key)
                if self._process is not None and self._process.stdin is not None:
                    self._process.stdin.flush()
            except (OSError, ValueError):
                self._stop()

    def judge(self, source: str, goals: tuple[str, ...]) -> dict[str, Any] | None:
        """node's answer for ``source`` compiled with ``goals``; None when it gave none."""
        key = (goals, source)
        with self._lock:
            if key in self._ready:
                return self._ready.pop(key)
            try:
                if not self._pending[key]:
                    self._send(key)
                    assert self._process is not None and self._process.stdin is not None
                    self._process.stdin.flush()
                return self._answer_to(key)
            except (OSError, ValueError, queue.Empty):
                self._stop()  # hung, or ended: no verdict, and a new node next time
                return None

    def _send(self, key: _Key) -> None:
        if self._process is None:
            self._process = self._start()
        goals, source = key
        assert self._process.stdin is not None
        self._process.stdin.write(
            json.dumps({"source": source, "goals": goals}).encode("ascii") + b"\n"
        )
        self._sent.append(key)
        self._pending[key] += 1

    def _answer_to(self, key: _Key) -> dict[str, Any] | None:
        """Read answers in order until ``key``'s, keeping the others for their askers."""
        while True:
            head = self._sent[0]
            timeout = TIMEOUT_SECONDS + len(head[1]) / 1e6
            line = self._answers.get(timeout=timeout)
            if line is None:
                raise ValueError("node ended")
            self._sent.popleft()
            self._pending[head] -= 1
            answer = json.loads(line)
            answer = answer if isinstance(answer, dict) else None
            if head == key:
                return answer
            self._ready[head] = answer

    def _stop(self) -> None:
        self._sent.clear()
        self._pending.clear()
        self._ready.clear()
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        process.wait()
        if process.stdin is not None:
            process.stdin.close()

    def stop(self) -> None:
        """End node (its stdin closing would end it too)."""
        with self._lock:
            self._stop()


def _read_answers(
    process: subprocess.Popen[bytes], answers: queue.SimpleQueue[bytes | None]
) -> None:
    """Hand each line node writes to the waiting check; None once node has ended."""
    assert process.stdout is not None
    with process.stdout:
        for line in process.stdout:
            answers.put(line)
    answers.put(None)


_worker: _Worker | None = None
_worker_lock = threading.Lock()


def worker() -> _Worker | None:
    """The process-wide warm node, started; None when no ``node`` is on ``PATH``."""
    global _worker
    with _worker_lock:
        if _worker is None:
            node = shutil.which("node")
            if node is None:
                return None
            _worker = _Worker(node)
        _worker.start()
        return _worker


def release() -> None:
    """End the warm node; the next check starts another (a daemon does before it forks)."""
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.stop()
        _worker = None


def _forget_in_child() -> None:
    # A forked child shares the parent's pipes: it must start its own node.
    global _worker, _worker_lock
    _worker = None
    _worker_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


def verdict(judge: _Worker, text: str, goals: tuple[str, ...]) -> SyntaxVerdict | None:
    """node's verdict on ``text`` loaded with ``goals``; None when it has none."""
    answer = judge.judge(text, goals)
    if answer is None or answer.get("ok") is None:
        return None
    if answer["ok"]:
        return SyntaxVerdict(valid=True)
    place = _PLACE.match(str(answer.get("stack", "")))
    line, column = (int(place.group(1)), len(place.group(2)) + 1) if place else (1, 1)
    return SyntaxVerdict(valid=False, line=line, column=column, message=str(answer["message"]))


def load_authority() -> SyntaxAuthority:
    """JavaScript's authority: node's V8 where ``node`` is on ``PATH``, oxc otherwise.

    oxc also decides ``.jsx`` files and a ``.js`` node refuses only for its JSX
    (bundlers take JSX in ``.js``; node has none). ``ImportError`` as oxc's.
    """
    parser = oxc.load_authority()
    if shutil.which("node") is None:
        return parser
    return SyntaxAuthority(
        name=f"V8 (node, compiling only) and {parser.name}",
        check=lambda path, source: check(parser, path, source),
        context=parser.context,
        prepare=prepare,
    )


def prepare(files: list[tuple[Path, bytes]]) -> None:
    """Send node every file it will be asked about, in one go (no round trip each)."""
    requests: list[_Key] = []
    for path, source in files:
        goals = node_goals(path)
        if goals:
            requests.append((goals, source.decode("utf-8", errors="replace")))
    judge = worker() if requests else None
    if judge is not None:
        judge.prepare(requests)


def check(parser: SyntaxAuthority, path: Path, source: bytes) -> SyntaxVerdict | None:
    """node's verdict on ``path`` where node has one, else oxc's (``parser``)."""
    goals = node_goals(path)
    judge = worker() if goals else None
    if judge is None:
        return parser.check(path, source)
    text = source.decode("utf-8", errors="replace")
    found = verdict(judge, text, goals)
    if found is None:
        return parser.check(path, source)
    if not found.valid and "<" in text and oxc.uses_jsx(text):
        return parser.check(path, source)  # JSX in a .js: a bundler's, not node's
    return found


def node_goals(path: Path) -> tuple[str, ...]:
    """The goals node 20 loads ``path`` with; () for a file node does not load (``.jsx``)."""
    suffix = path.suffix.lower()
    if suffix == ".mjs":
        return ("module",)
    if suffix == ".cjs":
        return ("commonjs",)
    if suffix != ".js":
        return ()
    if oxc.package_type(path.parent) == "module":
        return ("module",)
    return ("commonjs", "module")
