"""A one-line live progress display on stderr: what is running and for how long.

Shown only when stderr is a terminal (and ``TERM`` is not ``dumb``): in CI and
in pipes nothing is written, so machine-readable output stays clean.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

from forge.reporting.terminal import format_duration, printable

#: Seconds between redraws.
TICK = 0.1
_SPINNER = "|/-\\"


def progress_enabled(stream: TextIO = sys.stderr) -> bool:
    """Whether a live display may be drawn on ``stream``."""
    return stream.isatty() and os.environ.get("TERM") != "dumb"


class Progress:
    """``with Progress() as p: p.update("validating auth")``: a spinner, the text, the time.

    The time shown is how long the current text has been shown (the current
    module or command). Does nothing when the stream is not a terminal.
    """

    def __init__(self, stream: TextIO = sys.stderr, *, enabled: bool | None = None) -> None:
        self.stream = stream
        self.enabled = progress_enabled(stream) if enabled is None else enabled
        self._text = ""
        self._since = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if self.enabled:
            self._thread = threading.Thread(target=self._loop, name="forge-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self.clear()

    def update(self, text: str) -> None:
        """Show ``text`` from now on; its clock starts at zero."""
        with self._lock:
            # One line redrawn in place: a plan title's newline or escape sequence must
            # neither break it nor drive the terminal.
            self._text = printable(text)
            self._since = time.monotonic()
        self._draw()

    def clear(self) -> None:
        """Erase the line, so ordinary output can be printed."""
        if self.enabled:
            with self._lock:
                self.stream.write("\r\033[K")
                self.stream.flush()

    def _loop(self) -> None:
        while not self._stop.wait(TICK):
            self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            if not self._text:
                return
            elapsed = time.monotonic() - self._since
            spin = _SPINNER[int(elapsed / TICK) % len(_SPINNER)]
            line = f"{spin} {self._text} {format_duration(elapsed)}"
            width = _columns() - 1
            self.stream.write("\r\033[K" + line[:width])
            self.stream.flush()


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        return 80
