"""A daemon's warm-up and its freshness: what it loads once, and when it must start anew.

The warm-up imports and builds what commands need (pydantic models, grammars,
plugins) by running a validation of small files. Freshness: the daemon notes
the files of every module it loaded and the folders on ``sys.path``; when any
of them changes, it hands over to a fresh daemon.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forge.validate.run import Engine

#: Files that warm every grammar and check a ``forge validate --files`` uses.
WARM_UP_FILES = {
    "warm.py": "import os\n\n\ndef f(x: int) -> int:\n    return x + len(os.sep)\n",
    "warm.js": "import { f } from './warm.ts';\nexport const g = (x) => f(x) + 1;\n",
    "warm.ts": "export function f(x: number): number {\n  return x * 2;\n}\n",
    "warm.tsx": "export const View = () => <div>{1}</div>;\n",
}


def serving_engine() -> Engine | None:
    """The engine of the project the daemon was started in, its plugins told it is served.

    Plugins start what they keep warm (``forge_engine_started``) here, before the
    first fork: a resource a forked command can use is one it reaches by socket.
    The project's plan is read here too, once for every child.
    None when the daemon was started outside a usable project.
    """
    from forge.errors import ConfigError
    from forge.plan.locate import read_followed_plan
    from forge.validate.run import Engine

    try:
        engine = Engine.for_project()
    except ConfigError:
        return None
    engine.start_serving()
    read_followed_plan(engine.root)
    return engine


def warm_up() -> None:
    """Run a real ``forge validate`` of one file per language, with its output thrown away.

    A real run, rather than a list of imports, warms exactly what commands use:
    modules, model schemas, grammars, queries and plugins.
    """
    from forge.cli.app import run_here

    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="forge-daemon-") as scratch, _quiet():
        for name, text in WARM_UP_FILES.items():
            Path(scratch, name).write_text(text, encoding="utf-8")
        os.environ["FORGE_HOME"] = str(Path(scratch, "home"))
        os.environ["FORGE_CWD"] = scratch
        try:
            os.chdir(scratch)
            run_here(["validate", "--files", *WARM_UP_FILES])
            # The MCP server too, so that ``forge serve`` children start warm: half a
            # second of the daemon's start, once, in place of as much in every session's.
            from forge.cli.serve import prepare

            prepare(Path(scratch))
        finally:
            # Fork copies only the calling thread: leave no other behind.
            from forge.languages import oxc, v8

            oxc.release_parser()
            v8.release()
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class Freshness:
    """What the running code depends on, noted at start, checked before every command.

    - the file of every module loaded outside the standard library (forge, its
      dependencies, plugins): an upgrade or an edit of an editable install;
    - every ``sys.path`` folder: installing or removing a distribution adds or
      removes its ``.dist-info`` folder there, which changes the folder.

    A few hundred ``stat`` calls, well under a millisecond: cheaper than the
    entry-point cache's full fingerprint, which also lists each folder.
    """

    def __init__(self) -> None:
        stdlib = sysconfig.get_paths()["stdlib"]
        self.files = {
            file: _mark(file)
            for file in [
                *(entry or "." for entry in sys.path),
                *(getattr(module, "__file__", None) for module in list(sys.modules.values())),
            ]
            if isinstance(file, str) and not file.startswith(stdlib)
        }

    def changed(self) -> str | None:
        """What changed since the daemon started, if anything."""
        for file, mark in self.files.items():
            if _mark(file) != mark:
                return f"{file} changed"
        return None


def _mark(file: str) -> tuple[int, int, int] | None:
    try:
        status = os.stat(file)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino
