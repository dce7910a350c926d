"""``forge hook``: enforcement for coding agents. One hook event in, one decision out.

Claude Code (and Codex CLI, which shares the format) runs ``forge hook`` with
one event as JSON on stdin. The answer on stdout is nothing (allow) or
``{"decision": "block", "reason": ...}``; the exit code is always 0, and when
forge itself fails the event is allowed with one line on stderr: an agent is
never blocked because forge broke.

- ``PostToolUse`` of Write, Edit, MultiEdit, NotebookEdit (Claude Code) or
  apply_patch (Codex) on a file of a known language: syntax and contract
  checks on that file, and on the module's listed files that import it or
  that it imports. A finding blocks, with the findings as the reason.
- ``SessionStart``: start the forge daemon in the background (see
  :mod:`forge.daemon`) unless one runs or ``FORGE_DAEMON=0``, so the
  session's later hooks answer from a warm process. Prints nothing.
- ``Stop`` / ``SubagentStop``: validate the module this agent owns (found by
  :mod:`forge.cli.hook_target`) with its verify commands; block while it fails
  and attempts remain. ESCALATE, or a repeated stop with nothing changed
  since the last block, allows, with the reason shown to the person.

This is an adapter: the checks, the verdict and the attempt history are the
engine's. Imports are taken per event, so an edit pays only for parsing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.cli.hook_target import HookError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from forge.cli.hook_target import Target
    from forge.models import CheckResult
    from forge.validate.report import ValidateReport

EXAMPLES = """\
examples (Claude Code runs it; these feed it by hand):
  echo '{"hook_event_name": "PostToolUse", "tool_name": "Write", "cwd": ".",
         "tool_input": {"file_path": "src/app.py"}}' | forge hook
  echo '{"hook_event_name": "SubagentStop", "cwd": ".", "stop_hook_active": false}' \\
    | FORGE_MODULE_ID=api FORGE_RUN_ID=run-42 forge hook

events: PostToolUse (Write, Edit, MultiEdit, NotebookEdit, apply_patch), Stop,
SubagentStop; SessionStart starts the forge daemon (FORGE_DAEMON=0: not); any
other event or tool is allowed silently.

the module of a Stop: FORGE_MODULE_ID (+ FORGE_RUN_ID) with the plan FORGE_PLAN
or the newest .forge/plans/*.json, else the session state whose "worktrees"
maps a module to the hook's cwd (see docs/clients.md)

output: nothing (allow) or {"decision": "block", "reason": ...}; exit 0 always
"""

#: Tools that write one file, and the field of ``tool_input`` that names it.
FILE_TOOLS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
#: Codex's edit tool: ``tool_input.command`` holds the patch text.
PATCH_TOOLS = frozenset({"apply_patch"})
STOP_EVENTS = frozenset({"Stop", "SubagentStop"})
SESSION_START = "SessionStart"
#: Finding lines in a block reason: enough to act on, short enough to read.
MAX_FINDINGS = 6
#: Longest reason given to the model.
MAX_REASON = 2_000
#: Largest event read from stdin (a Write event carries the whole file).
MAX_EVENT_BYTES = 64 * 1024 * 1024
#: Where events of a stop that names no run go: ``.forge/logs/hook.jsonl``.
HOOK_RUN_ID = "hook"
_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Move to: ")


def register(subparsers: Any) -> None:
    """Add ``forge hook`` to the parser."""
    parser = subparsers.add_parser(
        "hook",
        help="answer one agent hook event (Claude Code, Codex) read from stdin",
        description="Read one hook event as JSON on stdin; block a broken edit or a stop "
        "on a failing module. Always exits 0; forge's own failure allows.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Decide on the event on stdin; print the decision (if any); exit 0 whatever happens."""
    from forge.cli.output import startup_without_gc

    try:
        with startup_without_gc():  # one event: start-up and a bounded unit of work
            decision = decide(read_event(sys.stdin.buffer))
    except Exception as exc:  # forge broke or was misused: never block the agent for it
        print(f"forge hook: allowed without checking: {_one_line(exc)}", file=sys.stderr)
        return 0
    if decision is not None:
        # ASCII JSON: whatever the locale's encoding, the answer can be written.
        with contextlib.suppress(OSError):  # the agent stopped listening: nothing to tell
            print(json.dumps(decision), flush=True)
    return 0


def read_event(stream: Any) -> dict[str, Any]:
    """The hook event on ``stream``: a JSON object; :class:`HookError` otherwise."""
    data = stream.read(MAX_EVENT_BYTES + 1)
    if len(data) > MAX_EVENT_BYTES:
        raise HookError(f"the event is larger than {MAX_EVENT_BYTES // (1024 * 1024)} MiB")
    try:
        event = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise HookError(f"stdin is not a JSON hook event ({type(exc).__name__})") from None
    if not isinstance(event, dict):
        raise HookError("stdin is not a JSON object (expected one hook event)")
    return event


def decide(event: dict[str, Any]) -> dict[str, str] | None:
    """The decision for one event: a block, an allow with a message, or ``None`` (allow)."""
    name = event.get("hook_event_name")
    if name == "PostToolUse":
        return after_edit(event)
    if name in STOP_EVENTS:
        return on_stop(event)
    if name == SESSION_START:
        start_daemon()
    return None


def start_daemon() -> None:
    """Start the forge daemon in the background unless one runs, it is off, or not Linux.

    Does not wait for it: the session goes on, and its hooks turn fast once
    the daemon has warmed up (about a second).
    """
    from forge.daemon import address, server

    if address.enabled() and server.ask("status") is None:
        server.start_background(address.DEFAULT_IDLE_S)


# --- PostToolUse ---------------------------------------------------------------------


def edited_files(tool: object, tool_input: object) -> list[str]:
    """The files a tool call wrote, as the event names them; ``[]`` for any other tool."""
    if not isinstance(tool_input, dict):
        return []
    if isinstance(tool, str) and tool in FILE_TOOLS:
        path = tool_input.get(FILE_TOOLS[tool])
        return [path] if isinstance(path, str) and path else []
    if tool in PATCH_TOOLS:
        patch = tool_input.get("command") or tool_input.get("input") or ""
        if isinstance(patch, list):  # ["apply_patch", "<patch>"]
            patch = "\n".join(part for part in patch if isinstance(part, str))
        if not isinstance(patch, str):
            return []
        found = [
            line[len(header) :].strip()
            for line in patch.splitlines()
            for header in _PATCH_HEADERS
            if line.startswith(header)
        ]
        return list(dict.fromkeys(path for path in found if path))
    return []


def after_edit(event: dict[str, Any]) -> dict[str, str] | None:
    """Block an edit that left its file, or its contracts with its neighbours, broken."""
    from forge.cli.hook_target import event_cwd, find_module_ref

    written = edited_files(event.get("tool_name"), event.get("tool_input"))
    if not written:
        return None
    cwd = event_cwd(event)
    files = [path for path in (_absolute(cwd, name) for name in written) if path.is_file()]
    if not files:
        return None
    if find_module_ref(cwd) is None and all(_clean_python(path, cwd) for path in files):
        return None  # nothing forge could find: no need to load it
    from forge.cli.output import fresh_command

    with fresh_command():
        return _check_edit(cwd, files)


def _check_edit(cwd: Path, files: list[Path]) -> dict[str, str] | None:
    """The edit checks of ``files`` (existing, under ``cwd``): a block on a finding."""
    from forge.cli.hook_target import find_project_root, module_files
    from forge.models import ValidateRequest
    from forge.validate.request import workspace_for
    from forge.validate.run import Engine

    engine = Engine.for_project(find_project_root(cwd) or cwd)
    files = [path for path in files if engine.languages.for_path(path) is not None]
    if not files:
        return None  # no language forge knows: not forge's business
    edited = {_key(path) for path in files}
    neighbours = [
        path
        for path in (_absolute(cwd, name) for name in module_files(cwd))
        if _key(path) not in edited and engine.languages.for_path(path) is not None
    ]
    request = ValidateRequest(
        module_id="hook", cwd=str(cwd), files=[str(path) for path in [*files, *neighbours]]
    )
    # The checks an edit answers to are those declared to judge edits; the rest
    # (commands, work-in-progress checks such as placeholders) wait for the stop,
    # and their plugins are not even run (nor imported). Halting checks run too:
    # their failure stops the others, as in a validate.
    checks = engine.plugins.checks
    judging = {
        checks.owners[check_id]
        for check_id, declared in checks.descriptors.items()
        if declared.judges_edits or declared.halts_on_failure
    }
    findings: list[str] = []
    for result in engine.run_checks(request, workspace_for(engine, request), plugins=judging):
        declared = checks.get(result.type)
        if result.passed or declared is None or not declared.judges_edits:
            continue
        if _concerns(result, edited, cwd):
            findings.extend(result_findings(result, cwd))
    if not findings:
        return None
    names = ", ".join(_shown(path, cwd) for path in files)
    return block(
        f"forge: {names} has problems; fix them before going on:", findings, limit=MAX_FINDINGS
    )


def _clean_python(path: Path, cwd: Path) -> bool:
    """True when forge's checks cannot fail on ``path``, known without loading them.

    A Python file that CPython compiles (the authority forge's syntax check
    defers to) and that imports nothing but the standard library, none of it
    shadowed by a file or folder of the project, has no syntax error and no
    contract to break. Anything else, or any doubt, is left to the checks: this
    only ever allows, so it can never disagree with them about a block.
    """
    if path.suffix.lower() not in {".py", ".pyi"}:
        return False
    import ast
    import warnings

    try:
        source = path.read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes warn; the checks judge those
            tree = ast.parse(source, str(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    top_names: set[str] = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                return False
            top_names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            top_names.update(alias.name.split(".")[0] for alias in node.names)
    if not top_names <= {*sys.stdlib_module_names, "__future__"}:
        return False
    folder = path.resolve().parent
    folders = [folder, *folder.parents]
    inside = cwd.resolve()
    folders = folders[: folders.index(inside) + 1] if inside in folders else folders[:1]
    return not any(
        (where / name).exists() or (where / f"{name}.py").exists()
        for where in [*folders, inside / "src"]
        for name in top_names
    )


def _statements(body: list[Any]) -> Iterator[Any]:
    """Every statement of ``body``, nested ones too, without visiting expressions (imports are
    statements, and a file has ten times more expression nodes than statements)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, name, None)
            if isinstance(children, list):
                stack.extend(reversed(children))


def _concerns(result: CheckResult, edited: set[str], cwd: Path) -> bool:
    """Whether a result is about an edited file: its syntax, or a pair it is one side of."""
    sides = [getattr(result, "exporter", None), getattr(result, "importer", None)]
    if not any(sides):
        sides = [result.target]
    return any(isinstance(side, str) and _key(_absolute(cwd, side)) in edited for side in sides)


def result_findings(result: CheckResult, cwd: Path) -> list[str]:
    """``path:line:column: message`` for each place a failed result points at.

    Read from the ``locations`` channel alone, whatever the check: a place
    without a path is in the result's target.
    """
    lines = [
        f"{_display(location.path or result.target, cwd)}:{location.line}:{location.column}: "
        f"{location.message}"
        for location in result.locations
    ]
    return lines or [f"{_display(result.target, cwd)}: {result.message}"]


# --- Stop / SubagentStop -------------------------------------------------------------


def on_stop(event: dict[str, Any]) -> dict[str, str] | None:
    """Validate the agent's module; block while it fails and attempts remain."""
    from forge.cli.hook_target import event_cwd, find_module_ref

    cwd = event_cwd(event)
    if find_module_ref(cwd) is None:
        return None  # not a forge worker: nothing to enforce
    from forge.cli.output import fresh_command

    with fresh_command():
        return _judge_stop(event, cwd)


def _judge_stop(event: dict[str, Any], cwd: Path) -> dict[str, str] | None:
    """The stop of a forge worker: allowed when its module passes or must escalate."""
    from forge.cli.hook_target import find_target

    target = find_target(cwd)
    if target is None:
        return None
    from forge.cli.hook_target import fingerprint, forget_block, last_block, remember_block

    if event.get("stop_hook_active") is True:
        previous = last_block(target)
        if previous is not None and previous.get("fingerprint") == fingerprint(target):
            return allow(
                f"forge: module {target.module.id} still fails and nothing changed since forge "
                f"blocked the last stop; a person must look. {previous.get('summary', '')}"
            )
    report = _validate(target)
    if report.passed:
        forget_block(target)
        return None
    summary = summarize(report, target.working_dir)
    if report.recommendation == "ESCALATE":
        forget_block(target)
        return allow(f"forge: {summary}\nforge stops retrying: a person must look.")
    remember_block(target, summary)
    return block(f"forge: {summary}", ["Fix these, then finish again: forge re-validates."])


def _validate(target: Target) -> ValidateReport:
    """The module's validate call, recorded like ``forge validate --plan`` records it."""
    from forge.cli.plan_run import RunOptions, request_for
    from forge.tools.service import ToolService

    service = ToolService.for_project(
        target.root, run_id=target.run_id or HOOK_RUN_ID, active_run=target.run_id
    )
    options = RunOptions(cwd=str(target.working_dir), run_id=target.run_id)
    report = service.validate(request_for(target.module, options))
    if target.run_id is not None:
        service.call_finished("validate", report)  # status.json follows the run
    return report


def summarize(report: ValidateReport, cwd: Path) -> str:
    """A few lines an agent can act on: the verdict, then each failure and where."""
    failures = [result for result in report.results if not result.passed]
    passed = len(report.results) - len(failures)
    lines = [
        f"module {report.module_id} fails: {passed}/{len(report.results)} checks passed, "
        f"attempt {report.attempt} of {report.max_attempts} -> {report.recommendation}"
    ]
    for result in failures[:MAX_FINDINGS]:
        lines.append(f"FAIL {result.type} {result.target}: {result.message}")
        if result.locations:
            lines.extend(f"  {place}" for place in result_findings(result, cwd)[:3])
        tail = (getattr(result, "stderr", "") or getattr(result, "stdout", "") or "").strip()
        lines.extend(f"  | {line}" for line in tail.splitlines()[-3:])
    if len(failures) > MAX_FINDINGS:
        lines.append(f"... and {len(failures) - MAX_FINDINGS} more failures")
    return _clip("\n".join(lines))


# --- answers ---------------------------------------------------------------------------


def block(heading: str, lines: list[str], *, limit: int | None = None) -> dict[str, str]:
    """``{"decision": "block", "reason": ...}``: the reason is what the model reads next."""
    shown = lines if limit is None else lines[:limit]
    more = len(lines) - len(shown)
    tail = [f"... and {more} more"] if more > 0 else []
    return {"decision": "block", "reason": _clip("\n".join([heading, *shown, *tail]))}


def allow(message: str) -> dict[str, str]:
    """Allow, with a message for the person (Claude Code shows ``systemMessage``)."""
    return {"systemMessage": _clip(message)}


def _clip(text: str) -> str:
    from forge.errors import clip

    return clip(text, MAX_REASON)


def _one_line(exc: Exception) -> str:
    """What went wrong, on one line: forge's own messages as they are, others with their type."""
    from forge.errors import ForgeError, clip

    if isinstance(exc, HookError | ForgeError):
        return clip(" ".join(str(exc).split()), 300)
    from forge.plugin_manager import describe_exception

    return describe_exception(exc)


def _absolute(cwd: Path, name: str) -> Path:
    path = Path(name).expanduser()
    return path if path.is_absolute() else cwd / path


def _key(path: Path) -> str:
    """One spelling per file (symlinks and ``..`` resolved), to compare paths."""
    return str(path.resolve())


def _shown(path: Path, cwd: Path) -> str:
    try:
        return path.resolve().relative_to(cwd.resolve()).as_posix()
    except ValueError:
        return str(path)


def _display(name: str, cwd: Path) -> str:
    return _shown(_absolute(cwd, name), cwd)
