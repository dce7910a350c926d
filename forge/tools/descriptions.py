"""What each tool says about itself: its description and its behaviour hints.

The descriptions are what an agent reads to choose and call a tool; the hints
are MCP's tool annotations (read-only, destructive, idempotent, open world).
The arguments are not here: they come from :mod:`forge.service.arguments`.
"""

from __future__ import annotations

from typing import Any

DESCRIPTIONS: dict[str, str] = {
    "validate": """\
Check that a plan module really landed: its files exist, parse (syntax_check), \
honour their import/export contracts (contract_check), and its verify commands \
exit 0 (command; a test runner's summary in the output is read too: its counts come \
back as "tests", and a run that ran no test fails). Call it after a worker reports a module done, and again after \
each fix. Records the attempt for (runId, moduleId), so it is not read-only: \
attempt N+1 follows attempt N, and the commands you pass run through the shell \
in the working dir and may change files there.

Returns {passed, score, results[], attempt, stagnant, sameAsPrev, oscillating, \
velocity, recommendation, reason}; each result keeps target and also names \
it as the reference server does (command, file, exporter/importer). Follow \
recommendation: PROCEED (all passed), RETRY (fix the failing results and call \
again), ESCALATE (stuck: the same failures again, A-B-A oscillation, no \
progress, or the attempt limit reached; reason says which; change approach or \
ask a person). With a progress token, progress is notified per check and per \
command. A cwd that does not exist escalates at once and \
records no attempt. A call with nothing to check (no files, commands or \
contractChecks) is an error, never a pass. To check a plan rather than a module use validate_plan; to \
record an attempt you judged yourself use iteration_state.

Example: {"moduleId": "m2", "runId": "run-7", "files": ["src/auth.ts"], \
"commands": ["npm test -- auth"]}""",
    "validate_plan": """\
Check a plan before executing it: schema (required fields per module), duplicate \
and unknown ids, dependency cycles (named in order), verify commands whose \
executable is not on PATH, and files two parallel modules both touch (warning). \
Read-only: nothing is executed and only forge's own log is written. Never fails \
for plan problems: they are entries of errors[] and warnings[].

Returns {valid, errors[], warnings[], planPath, layers, criticalPathLength}; \
each entry has type, message, severity, modules, files, field. Call it after \
writing a plan to .forge/plans/ and after editing one; use validate for a \
module's delivered work.

Example: {"planPath": ".forge/plans/auth.json"}""",
    "memory_save": """\
Remember a learning for later runs: a convention, a failure or success pattern, \
the project's test command, an architecture fact, a dependency quirk, a tool \
usage tip. Appends to project memory (.forge/memory/project.jsonl) or global \
memory (shared by all your projects). Idempotent: the same text in the same \
category and scope (case and whitespace ignored) is not saved twice.

The text reply is the sentence "Saved to <scope> memory [<category>]: \
<pattern>" or "Duplicate pattern already in <scope> memory, skipped."; the \
structured content is {saved, duplicate, scope, category, id, message}. Use \
memory_recall to read memory back.

Example: {"pattern": "Run tests with pnpm vitest --run", "category": \
"test_command", "confidence": 0.9}""",
    "memory_recall": """\
Find what earlier runs learned about a topic: ranks project and global memory by \
relevance of your words to each entry's pattern, category and tags (BM25), keeps \
the best `limit`, and groups them by scope (project first), by confidence within \
each group. Read-only. Call it before planning or before retrying a failing \
module. No match is a normal reply, not an error.

The text reply has one line per entry: "[test_command] 0.9 — pnpm vitest \
--run"; the structured content is {query, memories[], searched, text}. Use \
memory_save to add entries.

Example: {"query": "how to run the tests", "scope": "all", "limit": 5}""",
    "iteration_state": """\
Read or change the attempt history of one module in one run, the same history \
validate writes. action "get" is read-only and returns {attempts, scores, \
stagnant, lastStatus, lastRootCause, ...} (an unknown module has no attempts). \
action "update" appends an attempt you judged yourself (status, issues, score, \
rootCause) and returns {updated, attempt, stagnant, sameAsPrev, oscillating, \
velocity}, stagnation computed by validate's rules with issues as the failure \
identity. action "reset" deletes the history (destructive: attempt counting \
starts again at 1) and returns a confirmation message.

Use validate instead when forge can run the checks itself.

Example: {"moduleId": "m2", "runId": "run-7", "action": "update", "update": \
{"status": "failed", "issues": ["login test times out"], "score": 0.5}}""",
    "forge_logs": """\
Read the event log of a run: every tool call, validation, plan check, memory \
save and session save, with timestamp, phase, moduleId, event, severity and \
data. Read-only. Filters combine; the latest `limit` matching entries are \
returned, oldest first. Default run: the agents' most recently written run \
(not a server's own serve-* log); a runId with no log gives no entries and \
says so. Use it to \
see what happened before a failure or to audit a run; use iteration_state for \
one module's attempts.

Returns {runId, entries[], total} (total counts matches before the limit).

Example: {"runId": "run-7", "moduleId": "m2", "severity": "error", "limit": 20}""",
    "session_state": """\
Save and restore the orchestrator's own progress so a run can resume after a \
crash or a new conversation. action "save" replaces the run's snapshot \
(.forge/state/<runId>.json) with your state object plus lastUpdatedAt and \
returns {saved, runId, lastUpdatedAt}. "load" returns {found: true, \
...state} or {found: false, runId}. "list" returns {sessions: [{runId, \
lastUpdatedAt, currentPhase, completedCount, totalCount}]}, most recent first. \
load and list are read-only.

Example: {"action": "save", "runId": "run-7", "state": {"currentPhase": \
"execution", "moduleStatuses": {"m1": "passed", "m2": "running"}, \
"completedModules": ["m1"]}}""",
    "merge_check": """forge's own tool (not in the reference server): preview merging modules' branches back before doing it. The modules (a layer, a list, or the plan's) are merged into the base in dependency order with git merge-tree in git's object store: no working tree, index or ref changes. Reports textual conflicts with their files and the modules whose changes meet there; then runs the file checks (syntax, contracts, stubs, types where installed) on the merged tree for the changed files and their importers, and reports each finding no single branch has as an integration break naming the modules (e.g. one renames an export the other starts using). A module whose commits changed a file outside its lane (another module's file) fails it, naming the file and its owner; each module's latest recorded validation is reported, and one that did not pass fails it. Also lists work forked from an older base (stale) and uncommitted worktree changes, which are not merged. Each module's work: branches, else the plan's branch field, the run's session worktrees, a worktree or branch named after it. Call it after a layer's modules PROCEED and before merging them back; merge only when passed is true.

Returns {passed, baseRef, baseCommit, order, modules[], conflicts[], integrationBreaks[], stale[], mergedCommit, checkedFiles, notices}.

Example: {"layer": 1, "runId": "run-7", "baseRef": "main"}""",
}


def _hints(title: str, *, read_only: bool, destructive: bool, idempotent: bool) -> dict[str, Any]:
    """MCP tool annotations, camelCase as on the wire; no tool reaches beyond the project."""
    return {
        "title": title,
        "readOnlyHint": read_only,
        "destructiveHint": destructive,
        "idempotentHint": idempotent,
        "openWorldHint": False,
    }


#: Tools whose first text content is a sentence, the named field of the result,
#: rather than the result as JSON (the Node reference server's replies; clients
#: test them as text). The whole result is still the structured content.
TEXT_REPLIES: dict[str, str] = {"memory_save": "message", "memory_recall": "text"}

#: Which run each tool's events go to, and whether a call can start a run:
#: a read-only call naming a run that does not exist never creates it.
RUNS: dict[str, str] = {
    "validate": "the runId given, which the call starts if new; without one, the "
    "server's own log and the run-less history `iterations/<moduleId>.json` (a runId "
    "ending in .json is refused: it would stand where that history stands)",
    "validate_plan": "no run: the server's own log; never creates a run",
    "memory_save": "no run: the server's own log; never creates a run",
    "memory_recall": "no run: the server's own log; never creates a run",
    "iteration_state": "the runId given: update and reset start it if new; get never "
    "creates a run (a runId that does not exist is logged to the server's own log)",
    "forge_logs": "reads the runId given, else the agents' newest run; never creates a "
    "run (an unknown runId is logged to the server's own log)",
    "session_state": "the runId given: save starts it if new; load and list never create a run",
    "merge_check": "no run: the server's own log; never creates a run (runId only names the "
    "session whose worktrees and plan it reads)",
}

HINTS: dict[str, dict[str, Any]] = {
    # The verify commands are the caller's shell commands: forge cannot promise
    # they leave the working dir alone, so validate says it may be destructive.
    "validate": _hints("Validate a module", read_only=False, destructive=True, idempotent=False),
    "validate_plan": _hints("Check a plan", read_only=True, destructive=False, idempotent=True),
    "memory_save": _hints("Save to memory", read_only=False, destructive=False, idempotent=True),
    "memory_recall": _hints(
        "Recall from memory", read_only=True, destructive=False, idempotent=True
    ),
    "iteration_state": _hints(
        "Module attempt history", read_only=False, destructive=True, idempotent=False
    ),
    "forge_logs": _hints("Read the event log", read_only=True, destructive=False, idempotent=True),
    "session_state": _hints(
        "Session snapshots", read_only=False, destructive=True, idempotent=True
    ),
    # It writes only unreferenced objects to git's store, as git merge-tree does:
    # no file, index or ref anyone sees changes, and the same call gives the same ids.
    "merge_check": _hints(
        "Preview a merge-back", read_only=True, destructive=False, idempotent=True
    ),
}
