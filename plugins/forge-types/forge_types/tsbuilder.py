"""The warm TypeScript checker: the project's own TypeScript, its program kept incremental.

The warm server (:mod:`forge_types.warm`) holds one per project tsconfig:
``node tsbuilder.js`` (beside this module) loads the project's
``lib/typescript.js`` and keeps the tsconfig's program as a builder program,
the bookkeeping of ``tsc --incremental`` kept in memory: each file's
diagnostics and the shape of its declarations. Before every answer it builds
the program again from the disk (the config re-read, every file's stamp
compared; an unchanged file's parsed tree reused), and only what the changes
affect is checked again: a changed file, and, when its declarations changed,
the files importing it (every file when it changes the global scope), as
``tsc --incremental`` decides. A file whose code and imports' declarations did
not change is answered with the diagnostics it had. The answer is the command
line's, never stale, with nothing waiting on file watching. A file outside the
tsconfig's program is not answered: the command line would not report it.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from forge_types.diagnostics import Raw
from forge_types.processes import reap

#: Seconds a request may take (the first checks the whole project).
REQUEST_TIMEOUT = 300.0
#: The node program that holds the builder.
SCRIPT = Path(__file__).with_name("tsbuilder.js")
#: Longest answer line read, in bytes.
MAX_ANSWER = 64 * 1024 * 1024


class TsBuilderError(Exception):
    """The builder died, answered with an error, or did not answer in time."""


def typescript_library(tsc: Path) -> Path | None:
    """The ``lib/typescript.js`` of the TypeScript whose ``tsc`` this is, when node can run it.

    None for TypeScript 7's native ``tsgo`` (no JavaScript API), or without ``node``.
    """
    if tsc.name != "tsc" or shutil.which("node") is None:
        return None
    library = tsc.resolve().parent.parent / "lib" / "typescript.js"
    return library if library.is_file() else None


class TsBuilder:
    """One builder process for ``tsconfig``, run by the TypeScript at ``typescript``."""

    def __init__(self, root: Path, typescript: Path, tsconfig: Path) -> None:
        self.root = root
        self.tsconfig = tsconfig
        node = shutil.which("node") or "node"
        self._process = subprocess.Popen(
            [node, str(SCRIPT), str(typescript), str(tsconfig)],
            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        self._answers: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._lock = threading.Lock()
        threading.Thread(target=self._read_loop, daemon=True).start()
        #: The files the last answer checked afresh (the rest came from the builder's memory).
        self.checked: list[Path] = []

    @property
    def alive(self) -> bool:
        """Whether the builder still runs."""
        return self._process.poll() is None

    def load(self) -> None:
        """Check the whole program once: the next answers are incremental from it.

        Whatever stops it (an error, SIGTERM's ``SystemExit``) stops the builder first.
        """
        try:
            self._request(None)
        except BaseException:
            self.close()
            raise

    def diagnostics(self, files: list[Path]) -> list[Raw]:
        """Errors in ``files`` as the program on disk has them now, in the command line's shape."""
        body = self._request([str(path) for path in files])
        return [
            (Path(name), int(line), int(column), str(code), " ".join(str(text).split()))
            for name, line, column, code, text in body.get("diagnostics", [])
        ]

    def close(self) -> None:
        """Close the builder's input (it exits at its end), then make sure it has exited."""
        with contextlib.suppress(OSError, ValueError):
            if self._process.stdin is not None:
                self._process.stdin.close()
        reap(self._process)

    def _request(self, files: list[str] | None) -> dict[str, Any]:
        with self._lock:
            stdin = self._process.stdin
            try:
                assert stdin is not None
                stdin.write(json.dumps({"files": files}).encode("utf-8") + b"\n")
                stdin.flush()
            except (OSError, ValueError) as exc:
                raise TsBuilderError(f"the TypeScript builder is gone: {exc}") from None
            try:
                answer = self._answers.get(timeout=REQUEST_TIMEOUT)
            except queue.Empty:
                # Its late answer would be taken for the next request's: it goes.
                self.close()
                raise TsBuilderError(f"no answer within {REQUEST_TIMEOUT:g} s") from None
        if answer is None:
            raise TsBuilderError("the TypeScript builder is gone")
        if "error" in answer:
            raise TsBuilderError(str(answer["error"]))
        self.checked = [Path(name) for name in answer.get("checked", [])]
        return answer

    def _read_loop(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        with contextlib.suppress(OSError, ValueError):
            while line := stdout.readline(MAX_ANSWER):
                try:
                    answer = json.loads(line) if line.endswith(b"\n") else None
                except ValueError:
                    answer = None
                if not isinstance(answer, dict):  # the rest of the line would be misread
                    self._process.kill()
                    break
                self._answers.put(answer)
        self._answers.put(None)
