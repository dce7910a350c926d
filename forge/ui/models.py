"""Every JSON answer of ``forge ui``: the single source of what the page receives.

``GET /api/schema`` serves these models' JSON Schemas; the page reads the
camelCase fields they define.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from forge.memory import RecalledMemory
from forge.models import Location, TestCounts, WireModel
from forge.state.event_log import LogEntry
from forge.state.sessions import SessionSummary

#: How the page colours a module.
ModuleState = Literal["pending", "running", "passed", "failed", "escalated", "skipped"]
MODULE_STATES: tuple[ModuleState, ...] = (
    "pending",
    "running",
    "passed",
    "failed",
    "escalated",
    "skipped",
)

#: The ``run`` of attempts recorded without a run id (``.forge/modules/``).
NO_RUN = ""


class RunInfo(WireModel):
    """One run the page can show."""

    id: str = Field(description="The run id; empty for attempts recorded without one.")
    label: str
    updated_at: str | None = Field(description="When anything of the run last changed.")


class RunsView(WireModel):
    """The project and its runs, for the page's header."""

    project: str
    runs: list[RunInfo] = Field(description="Every run, newest first.")
    newest: str | None = Field(
        description="The run shown when none is picked (the one with the latest plan "
        "results, else the newest); null: none."
    )
    chosen_because: str = Field(
        description="Why that run: 'latest plan results' or 'newest'; the header says it."
    )
    notices: list[str]


class GraphNode(WireModel):
    """One module in the graph, where it is drawn and how it stands."""

    id: str
    title: str
    state: ModuleState
    status: str | None = Field(description="The last status reported (passed, escalated, ...).")
    attempts: int
    score: float | None
    updated_at: str | None
    layer: int | None = Field(description="Execution layer; null when on or behind a cycle.")
    column: int = Field(description="Column drawn in: the layer, or after the last one.")
    row: int = Field(description="Position in its column, top first.")
    critical: bool = Field(description="On the critical path (the longest dependency chain).")


class FailingModule(WireModel):
    """A failed or escalated module in the list under the graph: what failed first."""

    id: str
    title: str
    state: ModuleState
    reason: str = Field(
        description="The first failure of its latest attempt (check:target), else its issue "
        "or root cause; empty when unknown."
    )


class GraphView(WireModel):
    """The plan of a run as its dependency graph, each module in its state."""

    project: str
    run: str = Field(description="The run shown (empty: attempts recorded without a run id).")
    runs: list[RunInfo] = Field(description="Every run, newest first.")
    plan_path: str | None
    objective: str | None
    hint: str | None = Field(description="What to do when there is nothing to show yet.")
    layers: int
    critical_path: list[str]
    nodes: list[GraphNode]
    failing: list[FailingModule] = Field(description="The failed and escalated modules.")
    edges: list[tuple[str, str]] = Field(description="(dependency, dependent) pairs.")
    counts: dict[str, int] = Field(description="Modules in each state.")
    notices: list[str] = Field(description="Files that could not be read, and why.")


class AttemptView(WireModel):
    """One attempt at a module, with what forge recommended after it."""

    attempt: int
    timestamp: str
    source: str
    status: str | None
    passed: bool | None
    score: float | None
    recommendation: str | None
    reason: str | None
    failures: list[str] = Field(description="Failure identities, check type:target.")


class CheckView(WireModel):
    """A failing check of the latest recorded validation, with its places."""

    type: str
    target: str
    message: str
    locations: list[Location]
    output: str | None = Field(description="A failing command's last output.")


class CommandView(WireModel):
    """A verify command of the module and, once run, how it went."""

    command: str
    ran: bool
    passed: bool | None
    exit_code: int | None
    timed_out: bool
    duration_ms: int | None
    tests: TestCounts | None


class ModuleView(WireModel):
    """Everything about one module of a run."""

    run: str
    id: str
    title: str
    in_plan: bool
    objective: str | None
    files: list[str]
    done_when: list[str]
    depends_on: list[str]
    dependents: list[str]
    state: ModuleState
    status: str | None
    attempts: list[AttemptView]
    failures: list[CheckView] = Field(description="Failing checks of the latest validation.")
    failures_at: str | None = Field(description="When that validation ran.")
    commands: list[CommandView]
    events: list[LogEntry] = Field(description="The module's latest events, oldest first.")
    notices: list[str]


class LogView(WireModel):
    """The run's event log, filtered, and what the filters can take."""

    run: str
    log: str | None = Field(description="The log file's run id (cli for attempts of no run).")
    entries: list[LogEntry]
    total: int
    phases: list[str]
    severities: list[str]
    notices: list[str]


class SessionsView(WireModel):
    """Every saved session, most recent first, and the one asked for."""

    sessions: list[SessionSummary]
    selected: str | None
    state: dict[str, Any] | None = Field(description="The selected snapshot as saved.")
    notices: list[str]


class MemoryView(WireModel):
    """Memory: the latest entries, or the best matches of a search."""

    query: str
    items: list[RecalledMemory] = Field(description="Relevance 0 when listed, not searched.")
    searched: int
    categories: list[str]
    notices: list[str]


class Problem(WireModel):
    """Any answer that is not the one asked for: one line saying what was wrong."""

    error: str


#: What ``GET /api/schema`` describes, by endpoint.
ENDPOINT_MODELS: dict[str, type[WireModel]] = {
    "/api/runs": RunsView,
    "/api/graph": GraphView,
    "/api/module": ModuleView,
    "/api/log": LogView,
    "/api/sessions": SessionsView,
    "/api/memory": MemoryView,
}
