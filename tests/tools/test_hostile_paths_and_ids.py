"""Special files, outside paths, bad working dirs, commands and ids, pinned one by one."""

from __future__ import annotations

from typing import Any

import pytest
from forge_hostile import (
    HOSTILE_IDS,
    REFUSED_COMMANDS,
    HostileServer,
    check_reply,
    text_of,
)

from forge.store.ids import ID_PATTERN

# --- special files, pinned one by one ----------------------------------------------------------------

#: planPath -> what the one schema error says. None of these is read as a plan, and
#: none may block the server: a FIFO has no writer, /dev/stdin is the protocol stream.
PLAN_FILE_CASES = {
    "fifo.json": "not a regular file",
    "sock.json": "not a regular file",
    "link-zero.json": "not a regular file",
    "/dev/zero": "not a regular file",
    "link-stdin.json": "not a regular file",
    "/dev/stdin": "not a regular file",
    "/proc/self/fd/0": "not a regular file",
    "dir.json": "it is a directory",
    "plans": "it is a directory",
    "nonexistent.json": "no such file",
    "link-dangling.py": "no such file",
    "link-loop.py": "Too many levels of symbolic links",
    "p" * 300: "File name too long",
    "plans/huge.json": "larger than 16 MiB",
    "plans/binary.json": "not UTF-8 text",
    "plans/latin1.json": "not UTF-8 text",
    "plans/deep.json": "nested too deeply",
    "plans/empty.json": "the plan is empty",
    "/etc/passwd": "invalid JSON",
}


@pytest.mark.parametrize("plan_path", PLAN_FILE_CASES, ids=lambda path: path[:20])
def test_a_plan_path_that_is_no_plan_file_is_one_schema_error(
    hostile: HostileServer, plan_path: str
) -> None:
    report = hostile.ok("validate_plan", {"planPath": plan_path})
    assert report["valid"] is False
    assert [error["type"] for error in report["errors"]] == ["schema"], report["errors"]
    assert PLAN_FILE_CASES[plan_path] in report["errors"][0]["message"]
    # The server is not stuck on the file: the next call is answered.
    assert hostile.ok("forge_logs", {"limit": 1}, hostile=False)["total"] >= 1


def test_a_12_mb_plan_file_is_checked_and_not_echoed(hostile: HostileServer) -> None:
    result = hostile.call("validate_plan", {"planPath": "plans/big.json"})
    assert not result.is_error and result.structured_content is not None
    assert result.structured_content["valid"] is True
    assert len(text_of(result)) < 10_000


#: A listed file -> (file_check passed, what its message says).
FILE_CASES = {
    "fifo.py": (False, "is not a regular file"),
    "sock.json": (False, "is not a regular file"),
    "link-zero.py": (False, "is not a regular file"),
    "/dev/zero": (False, "is not a regular file"),
    "link-stdin.py": (False, "is not a regular file"),
    "/dev/stdin": (False, "is not a regular file"),
    "dir.py": (False, "is a directory"),
    "link-dir": (False, "is a directory"),
    "link-dangling.py": (False, "does not exist"),
    "link-loop.py": (False, "Too many levels of symbolic links"),
    "a" * 300 + ".py": (False, "File name too long"),
    # Leaving the project through a symlink or ../ is allowed: read, never written.
    "link-out.py": (True, "exists"),
    "link-dir/secret.py": (True, "exists"),
    "../outside/secret.py": (True, "exists"),
}


@pytest.mark.parametrize("file", FILE_CASES, ids=lambda path: path[:20])
def test_a_special_file_fails_alone_in_file_check(hostile: HostileServer, file: str) -> None:
    report = hostile.ok(
        "validate", {"moduleId": "special-file", "runId": "files", "files": [file, "src/ok.py"]}
    )
    by_target = {(r["type"], r["target"]): r for r in report["results"]}
    passed, says = FILE_CASES[file]
    assert by_target["file_check", file]["passed"] is passed
    assert says in by_target["file_check", file]["message"]
    # The good file next to it keeps its own results.
    assert by_target["file_check", "src/ok.py"]["passed"] is True
    assert by_target["syntax_check", "src/ok.py"]["passed"] is True
    if passed:
        assert by_target["syntax_check", file]["passed"] is True  # read through the link


def test_an_absolute_path_outside_the_project_is_checked(hostile: HostileServer) -> None:
    secret = str(hostile.arena.outside / "secret.py")
    report = hostile.ok("validate", {"moduleId": "absolute", "files": [secret]})
    assert report["passed"] is True, report["results"]


#: A cwd that cannot be used -> what the one cwd_check failure says.
CWD_CASES = {
    "src/ok.py": "is not a directory",
    "fifo.py": "is not a directory",
    "/dev/null": "is not a directory",
    "/nonexistent/forge": "does not exist",
    "link-dangling.py": "does not exist",
    "link-loop.py": "cannot be used",
    "c" * 300: "cannot be used",
}


@pytest.mark.parametrize("cwd", CWD_CASES, ids=lambda path: path[:20])
def test_an_unusable_cwd_escalates_and_records_nothing(hostile: HostileServer, cwd: str) -> None:
    module = f"cwd-{len(cwd)}-{abs(hash(cwd)) % 10_000}"
    report = hostile.ok(
        "validate", {"moduleId": module, "runId": "cwd", "cwd": cwd, "commands": ["true"]}
    )
    assert [r["type"] for r in report["results"]] == ["cwd_check"]
    assert CWD_CASES[cwd] in report["results"][0]["message"]
    assert (report["score"], report["attempt"], report["recommendation"]) == (0, 0, "ESCALATE")
    state = hostile.ok(
        "iteration_state", {"moduleId": module, "runId": "cwd", "action": "get"}, hostile=False
    )
    assert state["attempts"] == []


@pytest.mark.parametrize("cwd", ["../outside", "link-dir", "OUTSIDE"])
def test_a_cwd_outside_the_project_is_used_as_named(hostile: HostileServer, cwd: str) -> None:
    if cwd == "OUTSIDE":
        cwd = str(hostile.arena.outside)
    report = hostile.ok(
        "validate",
        {"moduleId": "outside", "cwd": cwd, "files": ["secret.py"], "commands": ["true"]},
    )
    assert report["passed"] is True, report["results"]


@pytest.mark.parametrize("command", REFUSED_COMMANDS, ids=lambda text: repr(text[:12]))
def test_a_bad_command_is_refused_before_anything_runs(
    hostile: HostileServer, command: str
) -> None:
    message = hostile.error(
        "validate", {"moduleId": "refused", "runId": "refused", "commands": ["true", command]}
    )
    assert "commands.1" in message, message
    state = hostile.ok(
        "iteration_state",
        {"moduleId": "refused", "runId": "refused", "action": "get"},
        hostile=False,
    )
    assert state["attempts"] == []


INVALID_IDS = [bad for bad in HOSTILE_IDS if not ID_PATTERN.fullmatch(bad) or bad in {".", ".."}]


@pytest.mark.parametrize("bad", INVALID_IDS, ids=repr)
def test_an_invalid_id_is_refused_by_every_tool_that_takes_one(
    hostile: HostileServer, bad: str
) -> None:
    calls = [
        ("validate", {"moduleId": bad}, "moduleId"),
        ("validate", {"moduleId": "m", "runId": bad}, "runId"),
        ("iteration_state", {"moduleId": bad, "action": "update", "update": {}}, "moduleId"),
        ("iteration_state", {"moduleId": "m", "runId": bad, "action": "reset"}, "runId"),
        ("session_state", {"action": "save", "runId": bad, "state": {}}, "runId"),
        ("session_state", {"action": "load", "runId": bad}, "runId"),
        ("forge_logs", {"runId": bad}, "runId"),
    ]
    for tool, arguments, name in calls:
        assert name in hostile.error(tool, arguments)


@pytest.mark.parametrize("odd", ["...", ".hidden", "-rf", "x" * 128])
def test_an_odd_but_valid_id_stays_inside_forge(hostile: HostileServer, odd: str) -> None:
    hostile.ok("session_state", {"action": "save", "runId": odd, "state": {"odd": True}})
    assert (hostile.arena.forge / "state" / f"{odd}.json").is_file()
    hostile.ok("iteration_state", {"moduleId": odd, "runId": odd, "action": "update", "update": {}})
    assert (hostile.arena.forge / "iterations" / odd / f"{odd}.json").is_file()


def test_json_nested_past_the_protocol_parser_limit_gets_an_error_result(
    hostile: HostileServer,
) -> None:
    """Nesting deeper than the SDK's JSON parser allows (about 200 levels; the client
    refuses to send past about 250) cannot be parsed; forge still answers the request
    by its id, with a one-line error, and keeps answering."""
    deep: Any = {}
    for _ in range(240):
        deep = {"a": deep}
    result = hostile.raw_call(
        "session_state", {"action": "save", "runId": "deep", "state": deep}, timeout=10
    )
    check_reply("session_state", {"state": "<240 levels>"}, result)
    assert result.is_error and "nested at most 200 levels" in text_of(result)
    hostile.check_survived()


def test_an_unknown_tool_with_a_huge_name_gets_a_short_error(hostile: HostileServer) -> None:
    assert "Unknown tool" in hostile.error("x" * 100_000, {})


def test_imports_of_special_files_are_skipped_and_pairs_with_them_fail_alone(
    hostile: HostileServer,
) -> None:
    report = hostile.ok(
        "validate",
        {
            "moduleId": "special-imports",
            "files": ["mods/specials.py", "mods/specials.ts"],
            "contractChecks": [
                {"exporter": "mods/fifo_ts.ts", "importer": "mods/specials.ts"},
                {"exporter": "mods/dir_mod.py", "importer": "mods/specials.py"},
                {"exporter": "mods/out_mod.py", "importer": "mods/specials.py"},
            ],
        },
    )
    by_target = {(r["type"], r["target"]): r for r in report["results"]}
    for file in ("mods/specials.py", "mods/specials.ts"):
        assert by_target["syntax_check", file]["passed"] is True
    fifo = by_target["contract_check", "mods/fifo_ts.ts -> mods/specials.ts"]
    assert (fifo["passed"], fifo["message"]) == (
        False,
        "exporter mods/fifo_ts.ts is not a regular file",
    )
    folder = by_target["contract_check", "mods/dir_mod.py -> mods/specials.py"]
    assert (folder["passed"], folder["message"]) == (
        False,
        "exporter mods/dir_mod.py is a directory",
    )
    # Through a symlink that leaves the project: read like any file.
    outside = by_target["contract_check", "mods/out_mod.py -> mods/specials.py"]
    assert (outside["passed"], outside["missing"]) == (False, ["nope"])
    # No automatic pair was made with a FIFO, a device, a loop or the server's stdin.
    automatic = [r["target"] for r in report["results"] if r.get("automatic")]
    assert not [t for t in automatic if any(s in t for s in ("fifo", "zero", "stdin", "loop"))]
