"""10 MB strings and 100,000-item lists through the real server: answered briefly, or refused."""

from __future__ import annotations

from typing import Any

import pytest
from forge_hostile import (
    HUGE,
    HostileServer,
    plan_module,
    text_of,
)

# --- fixed huge inputs ----------------------------------------------------------------------------------

HUGE_TEXT = "x" * HUGE

HUGE_CASES = {
    "validate moduleId": ("validate", {"moduleId": HUGE_TEXT}),
    "validate command": ("validate", {"moduleId": "huge", "commands": ["true #" + HUGE_TEXT]}),
    "validate files": ("validate", {"moduleId": "huge", "files": [HUGE_TEXT]}),
    "validate cwd": ("validate", {"moduleId": "huge", "cwd": HUGE_TEXT}),
    "validate pluginOptions key": (
        "validate",
        {"moduleId": "huge", "pluginOptions": {HUGE_TEXT: 5}},
    ),
    "validate stubs option key": (
        "validate",
        {"moduleId": "huge", "pluginOptions": {"stubs": {HUGE_TEXT: 1}}},
    ),
    "validate_plan planPath": ("validate_plan", {"planPath": HUGE_TEXT}),
    "validate_plan module id": ("validate_plan", {"plan": {"modules": [{"id": HUGE_TEXT}]}}),
    "validate_plan objective": (
        "validate_plan",
        {"plan": {"objective": HUGE_TEXT, "modules": [plan_module("a")]}},
    ),
    "memory_save pattern": ("memory_save", {"pattern": HUGE_TEXT, "category": "convention"}),
    "memory_recall query": ("memory_recall", {"query": HUGE_TEXT}),
    "iteration_state issue": (
        "iteration_state",
        {"moduleId": "huge", "action": "update", "update": {"issues": [HUGE_TEXT]}},
    ),
    "forge_logs moduleId": ("forge_logs", {"moduleId": HUGE_TEXT}),
    "session_state state": (
        "session_state",
        {"action": "save", "runId": "huge", "state": {"k": HUGE_TEXT}},
    ),
    "session_state extra": ("session_state", {"action": "list", HUGE_TEXT: HUGE_TEXT}),
}


def _cycle(size: int) -> dict[str, Any]:
    """A plan whose ``size`` modules form one dependency cycle."""
    return {
        "modules": [plan_module(f"m{i}", dependsOn=[f"m{(i + 1) % size}"]) for i in range(size)]
    }


#: Many items rather than long ones: within the limits (answered) or past them (refused).
MASS_CASES = {
    "validate 2,000 files": (
        "validate",
        {"moduleId": "mass", "files": [f"nope/{i}.py" for i in range(2_000)]},
    ),
    "validate 100,000 files": ("validate", {"moduleId": "mass", "files": ["a.py"] * 100_000}),
    "validate 100,000 pairs": (
        "validate",
        {"moduleId": "mass", "contractChecks": [{"exporter": "a", "importer": "b"}] * 100_000},
    ),
    "validate 10,000 plugins": (
        "validate",
        {"moduleId": "mass", "pluginOptions": {f"p{i}": {} for i in range(10_000)}},
    ),
    "validate_plan 20,000 broken modules": (
        "validate_plan",
        {"plan": {"modules": [{"id": f"m{i}"} for i in range(20_000)]}},
    ),
    "validate_plan 20,000 non-objects": ("validate_plan", {"plan": {"modules": [1] * 20_000}}),
    "validate_plan 1,000-module cycle": ("validate_plan", {"plan": _cycle(1_000)}),
    "memory_save 100,000 tags": (
        "memory_save",
        {"pattern": "p", "category": "convention", "tags": ["t"] * 100_000},
    ),
    "memory_recall 100,000 words": ("memory_recall", {"query": "a " * 100_000}),
    "iteration_state 100,000 issues": (
        "iteration_state",
        {"moduleId": "mass", "action": "update", "update": {"issues": ["i"] * 100_000}},
    ),
    "session_state 40,000 keys": (
        "session_state",
        {"action": "save", "runId": "mass", "state": {f"k{i}": i for i in range(40_000)}},
    ),
    "session_state 100,000 keys": (
        "session_state",
        {"action": "save", "runId": "mass", "state": {f"k{i}": i for i in range(100_000)}},
    ),
}


@pytest.mark.parametrize("case", [*HUGE_CASES, *MASS_CASES])
def test_a_huge_argument_is_answered_briefly(hostile: HostileServer, case: str) -> None:
    tool, arguments = HUGE_CASES[case] if case in HUGE_CASES else MASS_CASES[case]
    result = hostile.call(tool, arguments)
    # An error is short (checked by call); a success must not echo megabytes back.
    assert len(text_of(result)) < 1_000_000, case
