"""The warm TypeScript checker: the project's own ``tsserver``, kept in step with the disk.

The warm server (:mod:`forge_types.warm`) holds one for a project's tsconfig.
tsserver answers ``semanticDiagnosticsSync`` from the program as it stands
when asked: never from before a change it was told of. So, before every
answer, each source file of the project whose disk stamp changed since it
was last seen (the asked files, and every file of the program: an importer's
answer depends on what it imports) is sent to tsserver with its text as a
document of its own; a file deleted is closed, so tsserver reads the disk.
Nothing depends on tsserver's own file watching, which lags behind the disk.
A file outside the tsconfig's program (tsserver would check it in an
inferred project of its own) is not answered: the command line would not
report it either.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import threading
import time
from itertools import islice
from pathlib import Path
from typing import Any

from forge.contracts.importers import source_files
from forge_types.diagnostics import Raw
from forge_types.lsp import read_message
from forge_types.processes import reap
from forge_types.scope import EXTENSIONS, MAX_SCANNED, Stamp, stamp

#: Seconds a request may take (the first loads the whole project).
REQUEST_TIMEOUT = 300.0


class TsServerError(Exception):
    """tsserver died, answered with an error, or did not answer in time."""


class TsServer:
    """One tsserver process for ``tsconfig``, and the documents it holds for forge."""

    def __init__(self, root: Path, tsserver: Path, tsconfig: Path) -> None:
        self.root = root
        self.tsconfig = tsconfig
        self._process = subprocess.Popen(
            [str(tsserver), "--disableAutomaticTypingAcquisition", "--suppressDiagnosticEvents",
             "--noGetErrOnBackgroundUpdate"],
            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        self._answers: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._seq = 0
        threading.Thread(target=self._read_loop, daemon=True).start()
        #: Texts of the documents forge opened, by path, with the stamp they were read at.
        self.opened: dict[Path, tuple[Stamp, str]] = {}
        #: The program's own source files (no node_modules, no lib), by their last stamp.
        self.program: dict[Path, Stamp | None] = {}
        self._before: dict[Path, Stamp | None] = {}

    @property
    def alive(self) -> bool:
        """Whether tsserver still runs."""
        return self._process.poll() is None

    def load(self) -> None:
        """Load the project through a file of its folder: the next answers are warm.

        Whatever stops it (an error, SIGTERM's ``SystemExit``) closes tsserver first.
        """
        try:
            # Stamps from before tsserver read anything: a file changed since is sent again.
            found = islice(source_files(self.root, EXTENSIONS["typescript"]), MAX_SCANNED)
            self._before = {path: stamp(path) for path in found}
            self._request("configure", {"hostInfo": "forge-types", "preferences": {}})
            folder = self.tsconfig.parent
            first = next((path for path in self._before if path.is_relative_to(folder)), None)
            if first is not None:
                self.diagnostics([first])
        except BaseException:
            self.close()
            raise

    def diagnostics(self, files: list[Path]) -> list[Raw]:
        """Errors in ``files`` as the program on disk has them now, in the command line's shape."""
        self._sync(files)
        found: list[Raw] = []
        for path in files:
            if path not in self.program:
                continue
            for command in ("syntacticDiagnosticsSync", "semanticDiagnosticsSync"):
                for item in self._request(command, {"file": str(path)}) or []:
                    if item.get("category", "error") != "error":
                        continue  # suggestions and warnings: the command line prints none
                    start = item["start"]
                    code = f"TS{item.get('code', '')}"
                    found.append((path, start["line"], start["offset"], code, item["text"]))
        return found

    def close(self) -> None:
        """Ask tsserver to exit, then make sure it has."""
        with contextlib.suppress(TsServerError):
            self._send("exit", None)
        reap(self._process)

    def _sync(self, files: list[Path]) -> None:
        """Send tsserver every asked or program file changed on disk since it was last seen."""
        opening: list[dict[str, Any]] = []
        changing: list[dict[str, Any]] = []
        closing: list[str] = []
        for path in dict.fromkeys([*files, *self.program, *self.opened]):
            now = stamp(path)
            held = self.opened.get(path)
            # What tsserver holds: forge's document, else the disk as it was last seen.
            if (held[0] if held else self.program.get(path, ())) == now:
                continue
            if now is None:
                if held is not None:
                    del self.opened[path]
                    closing.append(str(path))
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if held is not None:
                changing.append({"fileName": str(path), "textChanges": [_whole(held[1], text)]})
            else:
                opening.append({"file": str(path), "fileContent": text, "projectRootPath": str(self.root)})  # fmt: skip
            self.opened[path] = (now, text)
        if opening or changing or closing:
            self._request(
                "updateOpen",
                {"openFiles": opening, "changedFiles": changing, "closedFiles": closing},
            )
        if opening or closing or not self.program:
            self._refresh_program(files)

    def _refresh_program(self, files: list[Path]) -> None:
        """The program's source files, asked of tsserver through a file of the tsconfig's."""
        for path in files or list(self.program):
            if path not in self.opened and path not in self.program:
                continue
            info = self._request("projectInfo", {"file": str(path), "needFileNameList": True})
            if not info or Path(info.get("configFileName", "")) != self.tsconfig:
                continue
            names = [Path(name) for name in info.get("fileNames", [])]
            inside = [n for n in names if n.is_relative_to(self.root) and "node_modules" not in n.parts]  # fmt: skip
            self.program = {
                path: self.program.get(path, self._before.get(path) or stamp(path))
                for path in inside
            }
            for path, (held, _) in self.opened.items():
                if path in self.program:
                    self.program[path] = held
            return

    def _request(self, command: str, arguments: Any) -> Any:
        seq = self._send(command, arguments)
        deadline = time.monotonic() + REQUEST_TIMEOUT
        while True:
            try:
                message = self._answers.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise TsServerError(f"{command}: no answer within {REQUEST_TIMEOUT:g} s") from None
            if message is None:
                raise TsServerError(f"{command}: tsserver is gone")
            if message.get("request_seq") != seq:
                continue  # the answer to a request given up on
            if not message.get("success", False):
                raise TsServerError(f"{command}: {message.get('message', 'failed')}")
            return message.get("body")

    def _send(self, command: str, arguments: Any) -> int:
        self._seq += 1
        request = {"seq": self._seq, "type": "request", "command": command}
        if arguments is not None:
            request["arguments"] = arguments
        stdin = self._process.stdin
        try:
            assert stdin is not None
            stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            stdin.flush()
        except (OSError, ValueError) as exc:
            raise TsServerError(f"tsserver is gone: {exc}") from None
        return self._seq

    def _read_loop(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        while (message := read_message(stdout)) is not None:
            if message.get("type") == "response":
                self._answers.put(message)
        self._answers.put(None)


def _whole(old: str, new: str) -> dict[str, Any]:
    """A text change replacing all of ``old`` (tsserver counts lines and columns from 1)."""
    lines = old.split("\n")
    end = {"line": len(lines), "offset": len(lines[-1]) + 1}
    return {"start": {"line": 1, "offset": 1}, "end": end, "newText": new}
