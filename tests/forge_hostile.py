"""Hostile input through the real MCP server over stdio: the arena, the server, the strategies.

The tests are in ``tests/tools/test_hostile_*.py`` (arguments drawn by hypothesis, huge
inputs, special paths and ids); this module is what they share (issue "Reliability and
security", 5).

One installed ``forge serve`` process per test module answers every call there. Its
seven tools are fed random and malformed arguments drawn by hypothesis: wrong
types, missing and extra fields, NUL bytes, astral, right-to-left and
combining characters, JSON nested 50-150 deep, ids such as ``../../x`` or
``/etc/passwd``, paths through symlinks that leave the project, dangle or
point at a directory, a FIFO, a socket or ``/dev/zero``, and working dirs that
escape, are files or do not exist. Fixed cases send 10 MB strings (too slow
to let hypothesis draw them every example) and lists of 100,000 items, and
targeted tests pin each special file, bad command and bad id on its own.

Every reply must hold these properties (:meth:`HostileServer.call`):

- it is a successful result whose structured content equals the JSON of its
  first text content, and which is not wildly larger than the request; or an
  error result (``isError``) whose message is one line of at most
  :data:`MAX_ERROR_CHARS` characters without a traceback. forge's "internal
  error" message means forge crashed on the input: that fails the property;
- ``validate`` never shows a built-in check that raised (a ``plugin_error``):
  one strange path must fail alone, not take down its check;
- nothing is created, changed or removed outside the project's ``.forge/``
  folder and ``FORGE_HOME`` (the whole temp tree around the project, a
  sibling "outside" folder, ``/`` and ``/etc`` are compared after each call).

After each test the server must answer a well-formed call correctly, and
everything under ``.forge/`` and ``FORGE_HOME`` must still parse, with no
file moved aside as ``*.corrupt-*`` (:meth:`HostileServer.check_survived`).

``validate`` runs its commands through the shell, and these tests may run as
root: commands are only ever drawn from :data:`VETTED_COMMANDS`, plus strings
that must be refused before anything runs (oversized, NUL bytes). Hypothesis
never writes command text.

The total number of hostile calls is printed at the end of the module
("hostile inputs tried").
"""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from forge_testing import forge_executable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CallToolResult, TextContent

from forge.memory import Category
from forge.state.event_log import Phase
from forge.store.ids import ID_PATTERN
from forge.tools.descriptions import TEXT_REPLIES

# --- limits and sizes -------------------------------------------------------------------------

#: Longest error message accepted: an agent that sent 10 MB must not get 10 MB back.
MAX_ERROR_CHARS = 1_000
#: A successful reply may be at most this much larger than 4x its request: results
#: echo paths and ids, and 2,000 files give 2,000 results (about 500 KB), but a
#: small request must never produce a huge reply.
REPLY_SLACK_CHARS = 1024 * 1024
#: The fixed huge strings.
HUGE = 10 * 1024 * 1024
#: Seconds one call may take before the test calls it a hang.
CALL_TIMEOUT = 60.0
#: Examples per hypothesis test (one call each); sized so the module runs in well under 60 s.
EXAMPLES = {
    "validate": 120,
    "validate_plan": 100,
    "memory_save": 80,
    "memory_recall": 80,
    "iteration_state": 100,
    "forge_logs": 80,
    "session_state": 100,
    "merge_check": 60,
}

HYPOTHESIS_SETTINGS: dict[str, Any] = {
    "deadline": None,
    # Strategies build big nested values on purpose.
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}

# --- the only command text a validate call ever carries ------------------------------------------

#: Harmless commands: they create, change and delete nothing, wherever they run.
VETTED_COMMANDS = ("true", "false", "exit 3", "echo hi", "printf '%s' x")
#: Command strings the server must refuse before running anything.
REFUSED_COMMANDS = ("", "true\x00", "\x00", "echo hi\x00; false", "true #" + "x" * 10_001)

# --- hostile building blocks -----------------------------------------------------------------------

#: Strings that have broken software before: control characters, bidi overrides,
#: combining marks, astral characters, shell and format syntax, JSON look-alikes.
WEIRD_TEXT = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x1b[31mred\x1b[0m",
    "\u202eevil.py\u202c",
    "\u200f\u05e9\u05dc\u05d5\u05dd",
    "e\u0301\u0302\u0303\u0304\u0305\u0306",
    "Z\u0351\u0352\u0353\u0354" * 20,
    "\U0001f600\U00010348\U0010fffd",
    "\ufeffbom",
    "\u200b",
    "\ufffe\uffff",
    "line\nbreak",
    "cr\rreturn",
    "\r\n",
    "\u2028\u2029",
    "\x85next",
    "\t",
    "\\",
    "%s%n%x",
    "{}",
    "[]",
    "null",
    "NaN",
    "-1",
    "1e999",
    "${HOME}",
    "$(id)",
    "`id`",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "C:\\Windows\\System32",
    "x" * 1_025,
)

#: Ids that must be refused, or that are valid but unusual; all must stay inside .forge/.
HOSTILE_IDS = (
    "../../x",
    "../x",
    "/etc/passwd",
    "..",
    ".",
    "a/b",
    "a\\b",
    "",
    " ",
    "x" * 129,
    "a\x00b",
    "~",
    "~root",
    "x ",
    "\u202ex",
    "\U0001f600",
    "é",
    "a:b",
    "*",
    "%2e%2e",
    "con",
    # Valid, but odd: they become file names inside .forge/.
    "...",
    ".hidden",
    "-rf",
    "x" * 128,
)

CATEGORIES = get_args(Category)
PHASES = get_args(Phase)

texts: SearchStrategy[str] = st.one_of(
    st.sampled_from(WEIRD_TEXT),
    # codec="utf-8" leaves out lone surrogates: the SDK client cannot send them at all.
    st.text(st.characters(codec="utf-8"), max_size=200),
)
good_ids: SearchStrategy[str] = st.one_of(
    st.sampled_from(("m1", "api", "run-1", "x" * 128, ".hidden", "...", "-rf")),
    st.from_regex(ID_PATTERN, fullmatch=True),
)
hostile_ids: SearchStrategy[str] = st.one_of(st.sampled_from(HOSTILE_IDS), texts)
scalars: SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from((2**63, -(2**63) - 1, 10**30, -0.0, 5e-324, 1.7976931348623157e308)),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values: SearchStrategy[Any] = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def deep_json(draw: st.DrawFn, min_depth: int = 50, max_depth: int = 150) -> Any:
    """A value nested ``min_depth``-``max_depth`` levels deep in objects and arrays."""
    depth = draw(st.integers(min_depth, max_depth))
    value: Any = draw(scalars)
    for in_list in draw(st.lists(st.booleans(), min_size=depth, max_size=depth)):
        value = [value] if in_list else {draw(st.sampled_from(("a", "", "\x00", "é"))): value}
    return value


#: Anything JSON can hold, nested deep or not: the wrong-type pool for every argument.
hostile_values: SearchStrategy[Any] = st.one_of(json_values, deep_json())


@st.composite
def arguments(
    draw: st.DrawFn,
    good: dict[str, SearchStrategy[Any]],
    bad: dict[str, SearchStrategy[Any]],
) -> dict[str, Any]:
    """Arguments for one tool: each known argument omitted, well-formed or hostile, plus extras.

    ``bad[name]`` replaces the generic wrong-type pool for arguments whose hostile
    values must be restricted (``commands``). Extra argument names never repeat a
    known one, so an extra can never smuggle command text into ``commands``.
    """
    chosen: dict[str, Any] = {}
    for name, strategy in good.items():
        kind = draw(st.sampled_from(("omit", "good", "good", "bad")))
        if kind == "good":
            chosen[name] = draw(strategy)
        elif kind == "bad":
            chosen[name] = draw(bad.get(name, st.one_of(hostile_values, texts)))
    extra_names = texts.filter(lambda name: name not in good)
    chosen.update(draw(st.dictionaries(extra_names, hostile_values, max_size=2)))
    return chosen


# --- the arena: a project, its surroundings, and the special files ---------------------------------


@dataclass
class Arena:
    """The temp tree one server works in; everything outside ``.forge`` and ``home`` is watched."""

    top: Path  # compared before and after: nothing may appear here
    project: Path  # the server's project root (its working dir)
    outside: Path  # a sibling of the project, reached by ../ and symlinks
    home: Path  # FORGE_HOME: global memory may be written here

    @property
    def forge(self) -> Path:
        """The project's ``.forge`` folder."""
        return self.project / ".forge"


def plan_module(module_id: str, **fields: Any) -> dict[str, Any]:
    """A valid plan module whose verify command is the builtin ``true``."""
    return {
        "id": module_id,
        "title": f"Module {module_id}",
        "objective": "Build it.",
        "files": [f"src/{module_id}.py"],
        "verify": ["true"],
        "doneWhen": "It works.",
        **fields,
    }


GOOD_PLAN = {"modules": [plan_module("a"), plan_module("b", dependsOn=["a"])]}


def build_arena(top: Path) -> Arena:
    """Create the project, the outside folder and every special file the tests point at."""
    arena = Arena(
        top=top,
        project=top / "arena" / "project",
        outside=top / "arena" / "outside",
        home=top / "arena" / "home",
    )
    for folder in (arena.project / "src", arena.project / "plans", arena.outside, arena.home):
        folder.mkdir(parents=True)
    p = arena.project
    (arena.outside / "secret.py").write_text("SECRET = 1\n", encoding="utf-8")
    (p / "src/ok.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (p / "src/broken.py").write_text("def f(:\n", encoding="utf-8")
    (p / "src/use.py").write_text("from .ok import f, g\n", encoding="utf-8")
    (p / "src/lib.ts").write_text("export const a = 1;\n", encoding="utf-8")
    (p / "src/app.ts").write_text("import { a, b } from './lib';\n", encoding="utf-8")
    (p / "src/ünï😀.py").write_text("x = 1\n", encoding="utf-8")
    (p / "binary.py").write_bytes(bytes(range(256)) * 40)
    (p / "latin1.py").write_bytes(b"x = '\xe9'\n")
    (p / "dir.py").mkdir()
    (p / "dir.json").mkdir()
    os.mkfifo(p / "fifo.py")
    os.mkfifo(p / "fifo.json")
    bind_socket(p, "sock.json")
    links = {
        "link-out.py": arena.outside / "secret.py",
        "link-dir": Path("../outside"),
        "link-dangling.py": Path("../nowhere/missing.py"),
        "link-loop.py": Path("link-loop.py"),
        "link-zero.py": Path("/dev/zero"),
        "link-zero.json": Path("/dev/zero"),
        "link-stdin.py": Path("/proc/self/fd/0"),  # the server's own protocol stream
        "link-stdin.json": Path("/proc/self/fd/0"),
        "link-mem.py": Path("/proc/self/mem"),
        "link-etc": Path("/etc"),
    }
    for name, target in links.items():
        (p / name).symlink_to(target)
    build_special_imports(p / "mods")
    plans = p / "plans"
    (plans / "good.json").write_text(json.dumps(GOOD_PLAN), encoding="utf-8")
    (plans / "binary.json").write_bytes(b"\x00\xff\xfe" + bytes(range(256)) * 100)
    (plans / "latin1.json").write_bytes(b'{"modules": "\xe9"}')
    (plans / "empty.json").write_bytes(b"")
    (plans / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (plans / "notjson.json").write_text('{"modules": [1, 2,]}', encoding="utf-8")
    with (plans / "huge.json").open("wb") as handle:  # sparse: over the 16 MiB limit, no disk
        handle.truncate(17 * 1024 * 1024)
    big = {"objective": "x" * (12 * 1024 * 1024), "modules": [plan_module("a")]}
    (plans / "big.json").write_text(json.dumps(big), encoding="utf-8")
    forge_plans = arena.forge / "plans"
    forge_plans.mkdir(parents=True)
    (forge_plans / "newest.json").write_text(json.dumps(GOOD_PLAN), encoding="utf-8")
    return arena


def bind_socket(folder: Path, name: str) -> None:
    """Leave a Unix socket file ``folder/name`` (the file stays after the socket closes)."""
    here = Path.cwd()
    os.chdir(folder)  # a relative address: socket paths are limited to about 100 bytes
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(name)
    finally:
        os.chdir(here)


SPECIAL_IMPORTS_PY = """\
from .fifo_mod import a
from .loop_mod import b
from .zero_mod import c
from .stdin_mod import d
from .out_mod import SECRET, nope
from .dangling_mod import e
from .dir_mod import f
from . import fifo_mod, zero_mod
import mods.stdin_mod
from ................................................................ import g
"""

SPECIAL_IMPORTS_TS = """\
import { a } from './fifo_ts';
import { b } from './zero_ts';
import { c } from './stdin_ts';
import { d } from './loop_ts';
import e from '/dev/zero';
export * from './fifo_ts';
export { x } from './stdin_ts';
const f = require('./zero_ts');
"""


def build_special_imports(folder: Path) -> None:
    """``mods/specials.py`` and ``.ts``: source files whose imports resolve to special files,
    so automatic contract checks meet FIFOs, devices, loops and links on their own."""
    folder.mkdir()
    (folder / "specials.py").write_text(SPECIAL_IMPORTS_PY, encoding="utf-8")
    (folder / "specials.ts").write_text(SPECIAL_IMPORTS_TS, encoding="utf-8")
    for fifo in ("fifo_mod.py", "fifo_ts.ts"):
        os.mkfifo(folder / fifo)
    (folder / "dir_mod.py").mkdir()
    links = {
        "loop_mod.py": "loop_mod.py",
        "loop_ts.ts": "loop_ts.ts",
        "zero_mod.py": "/dev/zero",
        "zero_ts.ts": "/dev/zero",
        "stdin_mod.py": "/proc/self/fd/0",
        "stdin_ts.ts": "/proc/self/fd/0",
        "out_mod.py": "../../outside/secret.py",
        "dangling_mod.py": "../../nowhere.py",
    }
    for name, target in links.items():
        (folder / name).symlink_to(target)


# --- the server and its properties ---------------------------------------------------------------


Snapshot = dict[str, tuple[int, int, int]]


def snapshot(arena: Arena) -> Snapshot:
    """Kind, size and mtime of every path under the arena's top outside ``.forge`` and home,
    plus the entries of ``/`` and ``/etc`` (which a ``/etc/passwd`` id must never reach)."""
    seen: Snapshot = {}
    for folder, dirs, files in os.walk(arena.top):
        here = Path(folder)
        dirs[:] = [name for name in dirs if here / name not in (arena.forge, arena.home)]
        for name in [*dirs, *files]:
            status = (here / name).lstat()
            seen[str(here / name)] = (
                stat.S_IFMT(status.st_mode),
                status.st_size,
                status.st_mtime_ns,
            )
        status = here.lstat()
        seen[folder] = (stat.S_IFMT(status.st_mode), 0, status.st_mtime_ns)
    for system in (Path("/"), Path("/etc")):
        for entry in system.iterdir():
            seen[str(entry)] = (0, 0, 0)  # only presence: the system may touch its files
    passwd = Path("/etc/passwd").lstat()
    seen["/etc/passwd"] = (stat.S_IFMT(passwd.st_mode), passwd.st_size, passwd.st_mtime_ns)
    return seen


def state_files(arena: Arena) -> Iterator[Path]:
    """Every path under ``.forge`` and ``FORGE_HOME``."""
    for root in (arena.forge, arena.home):
        yield from root.rglob("*")


@dataclass
class HostileServer:
    """One real ``forge serve`` over stdio, driven from sync tests through a blocking portal."""

    portal: BlockingPortal
    client: Client
    arena: Arena
    stderr: Path
    baseline: Snapshot = field(default_factory=dict)
    #: Hostile calls made, and how many of them hypothesis drew.
    calls: int = 0
    drawn: int = 0

    async def _call(self, tool: str, arguments: dict[str, Any], timeout: float) -> CallToolResult:
        return await self.client.call_tool(tool, arguments, read_timeout_seconds=timeout)

    def raw_call(
        self,
        tool: str,
        arguments: dict[str, Any],
        timeout: float = CALL_TIMEOUT,
        *,
        hostile: bool = True,
    ) -> CallToolResult:
        """The call and nothing else: no property is checked. ``hostile=False`` for the
        well-formed calls that check an outcome, which are not counted."""
        self.calls += hostile
        return self.portal.call(self._call, tool, arguments, timeout)

    def call(self, tool: str, arguments: dict[str, Any], *, hostile: bool = True) -> CallToolResult:
        """Call ``tool`` and assert every per-call property; return the result."""
        result = self.raw_call(tool, arguments, hostile=hostile)
        check_reply(tool, arguments, result)
        self.check_outside_unchanged(tool, arguments)
        return result

    def ok(self, tool: str, arguments: dict[str, Any], *, hostile: bool = True) -> dict[str, Any]:
        """Call ``tool``; the result must be a success. Returns its structured content."""
        result = self.call(tool, arguments, hostile=hostile)
        assert not result.is_error, text_of(result)
        assert result.structured_content is not None
        return result.structured_content

    def error(self, tool: str, arguments: dict[str, Any]) -> str:
        """Call ``tool``; the result must be an error. Returns its message."""
        result = self.call(tool, arguments)
        assert result.is_error, text_of(result)[:2_000]
        return text_of(result)

    def check_outside_unchanged(self, tool: str = "", arguments: Any = None) -> None:
        """Nothing outside ``.forge`` and ``FORGE_HOME`` was created, changed or removed."""
        now = snapshot(self.arena)
        if now != self.baseline:
            added = sorted(now.keys() - self.baseline.keys())
            removed = sorted(self.baseline.keys() - now.keys())
            changed = sorted(
                k for k in now.keys() & self.baseline.keys() if now[k] != self.baseline[k]
            )
            self.baseline = now  # one report per offending call, not one per later call
            raise AssertionError(
                f"{tool} changed the tree outside .forge: added {added[:5]}, removed "
                f"{removed[:5]}, changed {changed[:5]}; arguments {shorten(arguments)}"
            )

    def check_survived(self) -> None:
        """The server answers a well-formed call correctly, and no state file is corrupt."""
        report = self.ok(
            "validate",
            {
                "moduleId": "survivor",
                "runId": "final",
                "files": ["src/ok.py"],
                "commands": ["true"],
            },
            hostile=False,
        )
        assert report["passed"] is True and report["recommendation"] == "PROCEED", report
        saved = self.ok(
            "session_state",
            {"action": "save", "runId": "final", "state": {"n": 1}},
            hostile=False,
        )
        assert saved["saved"] is True
        loaded = self.ok("session_state", {"action": "load", "runId": "final"}, hostile=False)
        assert loaded["found"] is True and loaded["n"] == 1
        for path in state_files(self.arena):
            assert ".corrupt-" not in path.name, f"forge quarantined its own state: {path}"
            assert not path.name.endswith(".tmp"), f"an atomic write was left half done: {path}"
            if not path.is_file():
                continue
            if path.suffix == ".json":
                json.loads(path.read_bytes())
            elif path.suffix == ".jsonl":
                for line in path.read_bytes().splitlines():
                    record = json.loads(line)
                    assert isinstance(record, dict), f"{path}: {line[:200]!r}"
        # A tool that raised logs its traceback to stderr before answering "internal error".
        log = self.stderr.read_text(encoding="utf-8", errors="replace")
        assert "Traceback" not in log, log[-5_000:]


def text_of(result: CallToolResult) -> str:
    """The first text content of a result."""
    assert result.content, "a result without content"
    first = result.content[0]
    assert isinstance(first, TextContent), first
    return first.text


def shorten(value: Any) -> str:
    """``value`` as JSON, cut for an assertion message."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 500 else text[:497] + "..."


def check_reply(tool: str, arguments: dict[str, Any], result: CallToolResult) -> None:
    """The per-reply property: a well-formed success, or a short one-line error."""
    text = text_of(result)
    where = f"{tool} {shorten(arguments)}"
    if result.is_error:
        assert len(text.splitlines()) == 1, f"multi-line error {text[:1_000]!r} for {where}"
        assert len(text) <= MAX_ERROR_CHARS, f"{len(text)}-char error {text[:300]!r} for {where}"
        assert "Traceback" not in text, f"{text!r} for {where}"
        assert "internal error" not in text, f"forge crashed: {text!r} for {where}"
        return
    assert result.structured_content is not None, f"no structured content for {where}"
    if tool in TEXT_REPLIES:  # the memory tools' text is their reply sentence
        expected = result.structured_content[TEXT_REPLIES[tool]]
        assert text == expected, f"text and structure differ for {where}"
    else:
        assert json.loads(text) == result.structured_content, (
            f"text and structure differ for {where}"
        )
    request_size = len(json.dumps(arguments, ensure_ascii=False))
    assert len(text) <= REPLY_SLACK_CHARS + 4 * request_size, (
        f"{len(text)}-char reply to a {request_size}-char request: {where}"
    )
    if tool == "validate":
        crashed = [r for r in result.structured_content["results"] if r["type"] == "plugin_error"]
        assert not crashed, f"a check raised: {crashed[0]['message'][:300]!r} for {where}"


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[HostileServer]:
    """The installed ``forge serve`` in a fresh arena, shared by every test of a module.

    forge-stubs is left enabled, so hostile ``pluginOptions`` reach a third-party
    plugin's option parsing too; forge-types is not (it would run a type checker
    on every call, and judge the arena's modules as a checker does). The server's
    stderr goes to a file outside the watched tree.
    """
    arena = build_arena(tmp_path_factory.mktemp("hostile"))
    stderr = tmp_path_factory.mktemp("hostile-stderr") / "server.stderr"
    # FORGE_DAEMON=0: served in its own process, it starts no daemon that would outlive the module.
    env = {"FORGE_HOME": str(arena.home), "FORGE_DISABLE_PLUGINS": "types", "FORGE_DAEMON": "0"}
    if "PYTHONDONTWRITEBYTECODE" in os.environ:
        env["PYTHONDONTWRITEBYTECODE"] = os.environ["PYTHONDONTWRITEBYTECODE"]
    params = StdioServerParameters(
        command=forge_executable(), args=["serve"], env=env, cwd=str(arena.project)
    )
    with (
        stderr.open("w", encoding="utf-8") as errlog,
        start_blocking_portal(backend="asyncio") as portal,
        portal.wrap_async_context_manager(Client(stdio_client(params, errlog=errlog))) as client,
    ):
        server = HostileServer(portal, client, arena, stderr)
        # .forge/ exists once the server answers.
        started = server.raw_call("forge_logs", {"limit": 1}, hostile=False)
        assert not started.is_error, text_of(started)
        server.baseline = snapshot(arena)
        yield server
    # The module's fixtures are torn down while output is captured: say it past the capture.
    plugins = request.config.pluginmanager
    reporter, capture = plugins.getplugin("terminalreporter"), plugins.getplugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write(
                f"\n{request.module.__name__}: {server.calls} hostile inputs tried "
                f"({server.drawn} drawn by hypothesis)\n"
            )


def run_examples(
    hostile: HostileServer, tool: str, strategy: SearchStrategy[dict[str, Any]]
) -> None:
    """Call ``tool`` with ``EXAMPLES[tool]`` argument sets drawn from ``strategy``, then check
    that the server survived. The @given function is built here so that each test's
    examples are checked against the module's one server (no fixture inside hypothesis)."""

    @settings(max_examples=EXAMPLES[tool], **HYPOTHESIS_SETTINGS)
    @given(args=strategy)
    def one(args: dict[str, Any]) -> None:
        hostile.drawn += 1
        hostile.call(tool, args)

    one()
    hostile.check_survived()


# --- strategies per tool -----------------------------------------------------------------------------

#: Paths in ``files`` and contract pairs: inside, outside, through symlinks, special files.
FILE_POOL = (
    "src/ok.py",
    "src/broken.py",
    "src/use.py",
    "src/lib.ts",
    "src/app.ts",
    "src/ünï😀.py",
    "mods/specials.py",
    "mods/specials.ts",
    "mods/fifo_ts.ts",
    "mods/stdin_mod.py",
    "binary.py",
    "latin1.py",
    "dir.py",
    "fifo.py",
    "sock.json",
    "link-out.py",
    "link-dir",
    "link-dir/secret.py",
    "link-dangling.py",
    "link-loop.py",
    "link-zero.py",
    "link-stdin.py",
    "link-mem.py",
    "link-etc/passwd",
    "../outside/secret.py",
    "../../x",
    "..",
    ".",
    "/",
    "/etc/passwd",
    "/dev/zero",
    "/dev/null",
    "/dev/stdin",
    "/proc/self/fd/0",
    "~",
    "~/nonexistent-forge-file.py",
    "src/../src/ok.py",
    "./src//ok.py",
    "src/ok.py/",
    "src/ok.py/x",
    " src/ok.py",
    "\u202esrc/ok.py",
    "e\u0301.py",
    "a" * 251 + ".py",
    "a" * 300,
    "a" * 300 + ".py",
    "x/" * 2_000,
)

#: ``cwd`` values: escapes, absolute paths, a file, a FIFO, symlinks, nothing.
CWD_POOL = (
    ".",
    "src",
    "..",
    "../outside",
    "link-dir",
    "link-etc",
    "link-dangling.py",
    "link-loop.py",
    "src/ok.py",
    "fifo.py",
    "dir.py",
    "/",
    "/etc",
    "/dev/null",
    "/nonexistent/forge",
    "~",
    "c" * 300,
    "x/" * 2_000,
)

#: ``planPath`` values: every kind of file that is not a good plan, and a good one.
PLAN_POOL = (
    "plans/good.json",
    ".forge/plans/newest.json",
    "plans/binary.json",
    "plans/latin1.json",
    "plans/empty.json",
    "plans/deep.json",
    "plans/notjson.json",
    "plans/huge.json",
    "plans",
    "dir.json",
    "fifo.json",
    "sock.json",
    "link-zero.json",
    "link-stdin.json",
    "link-dangling.py",
    "link-loop.py",
    "/dev/zero",
    "/dev/stdin",
    "/proc/self/fd/0",
    "/etc/passwd",
    "/",
    "../outside/secret.py",
    "nonexistent.json",
    "~",
    "p" * 300,
)

paths = st.one_of(st.sampled_from(FILE_POOL), texts.filter(bool))
contract_pairs = st.fixed_dictionaries({"exporter": paths, "importer": paths})

#: Hostile values for ``commands``: never a list holding a string that is not vetted.
bad_commands = st.one_of(
    scalars,
    st.dictionaries(texts, hostile_values, max_size=3),
    deep_json().filter(lambda value: isinstance(value, dict)),
    st.lists(
        st.one_of(
            st.sampled_from(VETTED_COMMANDS + REFUSED_COMMANDS),
            st.integers(),
            st.none(),
            st.booleans(),
            st.dictionaries(texts, scalars, max_size=2),
        ),
        min_size=1,
        max_size=4,
    ).filter(
        # Each list must be refused as a whole: it holds a refused string or a non-string.
        lambda items: any(item not in VETTED_COMMANDS for item in items)
    ),
    st.lists(st.sampled_from(VETTED_COMMANDS), min_size=51, max_size=60),  # over MAX_COMMANDS
)

stubs_options = st.fixed_dictionaries(
    {},
    optional={
        "markers": st.one_of(st.lists(texts, max_size=3), hostile_values),
        "markerScope": st.one_of(st.sampled_from(("implementation", "all")), hostile_values),
        "intentional": st.one_of(st.lists(texts, max_size=3), hostile_values),
        "ignore": st.one_of(st.lists(texts, max_size=3), hostile_values),
    },
)

validate_args = arguments(
    good={
        "moduleId": good_ids,
        "runId": good_ids,
        "commands": st.lists(st.sampled_from(VETTED_COMMANDS), max_size=3),
        "files": st.lists(paths, max_size=6),
        "contractChecks": st.lists(contract_pairs, max_size=3),
        "cwd": st.sampled_from(CWD_POOL),
        "timeout": st.sampled_from((0.5, 1, 5.0)),
        "autoContracts": st.booleans(),
        "maxAttempts": st.integers(1, 1_000),
        "pluginOptions": st.one_of(
            st.fixed_dictionaries({"stubs": stubs_options}),
            st.dictionaries(texts, st.dictionaries(texts, hostile_values, max_size=3), max_size=3),
        ),
    },
    bad={
        "moduleId": hostile_ids,
        "runId": hostile_ids,
        "commands": bad_commands,
        "files": st.one_of(hostile_values, st.lists(st.one_of(paths, scalars), max_size=4)),
        "cwd": st.one_of(hostile_values, texts),
        "timeout": st.one_of(
            st.sampled_from((0, -1, 3_601, 1e308, float("inf"), float("nan"), "1", True)),
            hostile_values,
        ),
    },
)

plan_modules = st.one_of(
    st.builds(plan_module, good_ids),
    st.dictionaries(
        st.sampled_from(("id", "title", "objective", "files", "verify", "doneWhen", "dependsOn")),
        hostile_values,
        max_size=7,
    ),
    hostile_values,
)
plans = st.one_of(
    st.fixed_dictionaries({"modules": st.lists(plan_modules, max_size=5)}),
    st.fixed_dictionaries(
        {"modules": st.lists(plan_modules, max_size=3)},
        optional={"techStack": hostile_values, "objective": hostile_values, "created": texts},
    ),
    deep_json().filter(lambda value: isinstance(value, dict)),
)

validate_plan_args = arguments(
    good={"planPath": st.sampled_from(PLAN_POOL), "plan": plans},
    bad={},
)

memory_save_args = arguments(
    good={
        "pattern": st.one_of(texts.filter(lambda text: 0 < len(text) <= 1_024), texts),
        "category": st.sampled_from(CATEGORIES),
        "confidence": st.floats(0, 1),
        "scope": st.sampled_from(("project", "global")),
        "tags": st.lists(texts, max_size=4),
    },
    bad={
        "confidence": st.one_of(
            st.sampled_from((-0.01, 1.01, float("nan"), float("inf"), "0.5")), hostile_values
        ),
    },
)

memory_recall_args = arguments(
    good={
        "query": texts,
        "scope": st.sampled_from(("project", "global", "all")),
        "limit": st.integers(1, 200),
        "category": st.sampled_from(CATEGORIES),
    },
    bad={"limit": st.one_of(st.sampled_from((0, -1, 201, 2**63)), hostile_values)},
)

iteration_updates = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "status": st.sampled_from(
                ("running", "passed", "failed", "stagnant", "escalated", "blocked")
            ),
            "issues": st.lists(texts, max_size=4),
            "score": st.floats(0, 1),
            "rootCause": texts,
        },
    ),
    st.dictionaries(
        st.sampled_from(("status", "issues", "score", "rootCause", "extra")),
        hostile_values,
        max_size=4,
    ),
)

iteration_state_args = arguments(
    good={
        "moduleId": good_ids,
        "action": st.sampled_from(("get", "update", "reset")),
        "runId": good_ids,
        "update": iteration_updates,
    },
    bad={"moduleId": hostile_ids, "runId": hostile_ids},
)

forge_logs_args = arguments(
    good={
        "runId": good_ids,
        "moduleId": st.one_of(good_ids, texts),
        "phase": st.sampled_from(PHASES),
        "severity": st.sampled_from(("info", "warn", "error")),
        "limit": st.integers(1, 1_000),
    },
    bad={"runId": hostile_ids, "limit": st.one_of(st.sampled_from((0, 1_001)), hostile_values)},
)

session_states = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "runId": hostile_ids,
            "planPath": texts,
            "currentPhase": st.one_of(texts, hostile_values),
            "moduleStatuses": st.one_of(st.dictionaries(texts, texts, max_size=4), hostile_values),
            "retryCounts": hostile_values,
            "completedModules": st.one_of(st.lists(texts, max_size=4), hostile_values),
            "startedAt": texts,
            "lastUpdatedAt": hostile_values,
            "found": hostile_values,
        },
    ),
    deep_json().filter(lambda value: isinstance(value, dict)),
    st.dictionaries(texts, hostile_values, max_size=4),
)

session_state_args = arguments(
    good={
        "action": st.sampled_from(("save", "load", "list")),
        "runId": good_ids,
        "state": session_states,
    },
    bad={"runId": hostile_ids},
)


merge_check_args = arguments(
    good={
        "planPath": st.sampled_from(PLAN_POOL),
        "modules": st.lists(good_ids, max_size=4),
        "layer": st.integers(1, 20),
        "branches": st.dictionaries(
            good_ids, st.sampled_from((*CWD_POOL, "main", "HEAD", "-x", "HEAD~99")), max_size=3
        ),
        "baseRef": st.one_of(texts, st.sampled_from(("main", "--output=/tmp/x", "HEAD~99"))),
        "runId": good_ids,
        "checks": st.booleans(),
    },
    bad={"runId": hostile_ids, "modules": st.lists(hostile_ids, max_size=3)},
)


# --- the property-based tests ------------------------------------------------------------------------
