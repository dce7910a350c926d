"""The warm checker: pyrefly's language server kept running for a project, reachable by socket.

A long-lived forge process (the MCP server, ``forge daemon``) starts one per
project through the ``forge_engine_started`` hook (:mod:`forge_types.plugin`);
any forge process of the same user then asks it over a Unix socket in a
private folder of the temp dir, so a command forked by the daemon, or a
``forge hook``, gets a warm answer too. A request names files; the server
brings the language server's copies of them (and of every file it opened
before) up to date with the disk, pulls their diagnostics
(``textDocument/diagnostic``) and answers in the shape the cold command line
gives (:data:`forge_types.checkers.Raw`). TypeScript's warm checker is the
project's TypeScript holding its program incrementally
(:mod:`forge_types.tsbuilder`), asked the same way. It exits when asked, when
its checker dies, and after :data:`IDLE_SECONDS` without a request.

Nothing is written in the project: the socket lives in the temp dir.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Protocol

from forge.daemon.address import private_dir_ok
from forge_types.checkers import socket_path
from forge_types.diagnostics import Raw
from forge_types.files import Stamp, python_stamps, stamp
from forge_types.lsp import LspClient, LspError
from forge_types.tsbuilder import TsBuilderError

#: A warm checker with no request for this long exits.
IDLE_SECONDS = 1800.0
#: Seconds a client waits for the warm checker before running the checker cold.
ASK_TIMEOUT = 60.0
#: Seconds the language server has to ask for its settings once initialized (it asks at
#: once: the client says it answers ``workspace/configuration``).
CONFIGURED_TIMEOUT = 10.0
#: Seconds a change has to start a recheck; one that starts none needed none.
SETTLE_GRACE = 1.0
#: Seconds without news a recheck must leave before the answer: rechecks come in waves.
SETTLE_QUIET = 0.05
#: Largest request or answer, in bytes.
MAX_MESSAGE = 64 * 1024 * 1024


def ask(key: str, files: list[Path], timeout: float = ASK_TIMEOUT) -> list[Raw] | None:
    """The warm checker's diagnostics over ``files``; None when there is none to ask."""
    path = socket_path(key)
    if not path.exists() or not private_dir_ok(str(path.parent)):
        return None  # an answer from a folder others could write in could be anyone's
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(timeout)
            connection.connect(str(path))
            connection.sendall(json.dumps({"files": [str(f) for f in files]}).encode() + b"\n")
            answer = json.loads(_read_line(connection))
    except (OSError, ValueError):
        return None
    if not isinstance(answer, dict) or "diagnostics" not in answer:
        return None
    return [
        (Path(p), int(line), int(column), str(rule), str(message))
        for p, line, column, rule, message in answer["diagnostics"]
    ]


def start(
    kind: str, key: str, root: Path, exe: Path, extra: Path | None, configured: bool
) -> subprocess.Popen[bytes] | None:
    """Start the warm checker for ``key`` in the background; None when one already answers.

    ``kind``: ``pyrefly`` (``extra``: the interpreter) or ``tsc`` (``exe``: the
    project's ``lib/typescript.js``, ``extra``: its tsconfig; :mod:`forge_types.tsbuilder`).
    """
    path = socket_path(key)
    if _answers(path):
        return None
    argv = [
        sys.executable,
        "-m",
        "forge_types.warm",
        kind,
        key,
        str(root),
        str(exe),
        str(extra or ""),
        "1" if configured else "0",
        str(os.getpid()),
    ]
    return subprocess.Popen(
        argv,
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a warm checker this process started, and reap it (unless the kernel does)."""
    with contextlib.suppress(OSError):
        process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(ChildProcessError, subprocess.TimeoutExpired):
            process.wait(timeout=5)
    except ChildProcessError:  # forge daemon reaps its children itself (SIGCHLD ignored)
        pass


def _answers(path: Path) -> bool:
    if not path.exists():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def _read_line(connection: socket.socket) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = connection.recv(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if chunk.endswith(b"\n") or size > MAX_MESSAGE:
            break
    return b"".join(chunks)


class _Server(Protocol):
    """A warm checker: diagnostics of files as they are on disk now."""

    @property
    def alive(self) -> bool: ...

    def load(self) -> None: ...

    def diagnostics(self, files: list[Path]) -> list[Raw]: ...

    def close(self) -> None: ...


class _Pyrefly:
    """pyrefly's language server and the documents it holds, in sync with the disk."""

    def __init__(self, root: Path, exe: Path, interpreter: Path | None, configured: bool) -> None:
        self.root = root
        self.interpreter = interpreter
        self.configured = configured
        self.client = LspClient([str(exe), "lsp", "--indexing-mode", "none"], root, self._settings)
        #: Documents the language server holds, by the disk stamp they were sent at.
        self.opened: dict[Path, Stamp] = {}
        self.version = 0
        #: Each document's errors as pulled since the last change of any document: asked
        #: again with nothing changed (a validate of the same files), they are answered
        #: from here instead of a pull per file.
        self.pulled: dict[Path, list[Raw]] = {}
        #: The project's sources and configuration by their stamps when last looked at: a
        #: file nobody asked about (a module an asked file imports, the configuration)
        #: changes the answers too, and reaches the language server as a file event.
        self.project: dict[Path, Stamp] = {}

    def load(self) -> None:
        """Initialize the language server; whatever stops it (SIGTERM too) stops the server."""
        root = self.root
        self.project = python_stamps(root)  # before the language server reads any of them
        folder = {"uri": root.as_uri(), "name": root.name or "project"}
        try:
            self._initialize(root, folder)
        except BaseException:
            self.close()
            raise

    def _initialize(self, root: Path, folder: dict[str, str]) -> None:
        self.client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [folder],
                "capabilities": {
                    "workspace": {"configuration": True, "didChangeWatchedFiles": {}},
                    "window": {"workDoneProgress": True},
                    "textDocument": {"diagnostic": {}, "publishDiagnostics": {}},
                },
            },
            timeout=60,
        )
        self.client.notify("initialized", {})
        # Its settings (errors shown, the command line's preset) before any document: a
        # document checked before them is checked with errors hidden, and a pull answered
        # from that check finds nothing wrong in a file that has a type error.
        self.client.wait_configured(timeout=CONFIGURED_TIMEOUT)

    @property
    def alive(self) -> bool:
        """Whether the language server still runs."""
        return self.client.alive

    def close(self) -> None:
        """Stop the language server."""
        self.client.close()

    def _settings(self, section: str | None) -> Any:
        # The command line's settings: pyrefly's default preset where the project
        # configures nothing (its language server would pick "basic"), its interpreter.
        pyrefly: dict[str, Any] = {"displayTypeErrors": "force-on"}
        if not self.configured:
            pyrefly["typeCheckingMode"] = "default"
        python: dict[str, Any] = {"pyrefly": pyrefly}
        if self.interpreter is not None:
            python["pythonPath"] = str(self.interpreter)
        if section == "python.pyrefly":
            return pyrefly
        return python

    def diagnostics(self, files: list[Path]) -> list[Raw]:
        if self._sync(files):
            self.pulled.clear()
        found: list[Raw] = []
        for path in files:
            if path not in self.pulled:
                self.pulled[path] = self._pull(path)
            found += self.pulled[path]
        return found

    def _pull(self, path: Path) -> list[Raw]:
        """The language server's errors in one document."""
        result = self.client.request(
            "textDocument/diagnostic", {"textDocument": {"uri": path.as_uri()}}, timeout=ASK_TIMEOUT
        )
        found: list[Raw] = []
        for item in (result or {}).get("items", []):
            if item.get("severity", 1) != 1:  # errors only, as the command line (checkers.py)
                continue
            start = item["range"]["start"]
            code = str(item.get("code", ""))
            found.append((path, start["line"] + 1, start["character"] + 1, code, item["message"]))
        return found

    def _sync(self, files: list[Path]) -> bool:
        """Send the language server every change on disk, and wait for the recheck it starts.

        Whether anything changed (a document new to it counts).
        """
        changed = []
        since = self.client.begun
        for path in dict.fromkeys([*files, *self.opened]):
            now = stamp(path)
            if now is None or self.opened.get(path) == now:
                continue
            self._send(path, opened=path in self.opened)
            self.opened[path] = now
            changed.append(path)
        events = [{"uri": path.as_uri(), "type": 2} for path in changed]
        events += self._project_events(set(changed))
        if events:
            # Edits reach the language server as file events too: those, not the
            # document changes, make it recheck the files that depend on them.
            self.client.notify("workspace/didChangeWatchedFiles", {"changes": events})
            # The dependents of a change are rechecked in the background: answer once
            # the recheck the change started has ended, never from before it.
            self.client.settle(since, grace=SETTLE_GRACE, quiet=SETTLE_QUIET, timeout=ASK_TIMEOUT)
            # A recheck may not have reached every dependent yet (the language server
            # batches file events): the asked files the change did not touch are
            # opened afresh, and a fresh document is checked before its pull is answered.
            for path in files:
                if path in self.opened and path not in changed:
                    self.client.notify(
                        "textDocument/didClose", {"textDocument": {"uri": path.as_uri()}}
                    )
                    self._send(path, opened=False)
        return bool(events)

    def _project_events(self, sent: set[Path]) -> list[dict[str, Any]]:
        """File events for the project's files that changed since the last look, but those
        in ``sent``: created (1), changed (2) or deleted (3)."""
        before, now = self.project, python_stamps(self.root)
        self.project = now
        return [
            {"uri": path.as_uri(), "type": 1 if path not in before else 3 if path not in now else 2}
            for path in sorted(before.keys() | now.keys())
            if before.get(path) != now.get(path) and path not in sent
        ]

    def _send(self, path: Path, *, opened: bool) -> None:
        text = path.read_text(encoding="utf-8", errors="replace")
        self.version += 1
        document = {"uri": path.as_uri(), "version": self.version}
        if opened:
            change = {"textDocument": document, "contentChanges": [{"text": text}]}
            self.client.notify("textDocument/didChange", change)
        else:
            document.update(languageId="python", text=text)
            self.client.notify("textDocument/didOpen", {"textDocument": document})


def main(argv: list[str]) -> int:
    """``python -m forge_types.warm KIND KEY ROOT EXE EXTRA CONFIGURED OWNER``: serve.

    Until asked to stop (SIGTERM), idle for :data:`IDLE_SECONDS`, or the process
    that started it (OWNER, a pid) is gone: a warm checker never outlives its engine.
    """
    kind, key, root, exe, extra, configured, owner = argv
    path = socket_path(key)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    if not private_dir_ok(str(path.parent)):
        return 2  # a folder someone else could write in is no place for the socket
    # Asked to stop while the checker loads, it stops the checker too (load's own cleanup).
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(SystemExit(0)))
    server = _server(kind, Path(root), Path(exe), Path(extra) if extra else None, configured)
    server.load()  # the project is read once, now, not on the first request
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    last = time.monotonic()
    try:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        listener.bind(str(path))
        listener.listen(8)
        listener.settimeout(1)
        while server.alive and time.monotonic() - last < IDLE_SECONDS and _alive(int(owner)):
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            last = time.monotonic()
            with connection:
                _serve(server, connection)
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        listener.close()
        server.close()
    return 0


def _server(kind: str, root: Path, exe: Path, extra: Path | None, configured: str) -> _Server:
    if kind == "tsc" and extra is not None:
        from forge_types.tsbuilder import TsBuilder

        return TsBuilder(root, exe, extra)
    return _Pyrefly(root, exe, extra, configured == "1")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _serve(server: _Server, connection: socket.socket) -> None:
    connection.settimeout(ASK_TIMEOUT)
    try:
        request = json.loads(_read_line(connection))
        files = [Path(name) for name in request["files"]]
        answer: dict[str, Any] = {
            "diagnostics": [
                [str(p), line, column, rule, message]
                for p, line, column, rule, message in server.diagnostics(files)
            ]
        }
    except (LspError, TsBuilderError, ValueError, KeyError, TypeError, OSError) as exc:
        answer = {"error": str(exc)}
    with contextlib.suppress(OSError):
        connection.sendall(json.dumps(answer).encode() + b"\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
