"""The graph view: a run's plan drawn by execution layers, each module in its state.

A module's state comes from ``forge status``'s reader
(:func:`forge.state.status_file.build_status`: attempt history, else the session's
word, else pending), sharpened for the eye: a failed module whose history
says ESCALATE is *escalated*, and one a plan run skipped (``status.json``
says so, and no attempt came since) is *skipped*.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from forge.errors import ForgeError
from forge.state.status_file import Status, build_status, read_status
from forge.state.status_lines import ModuleStatus, module_line
from forge.ui.models import MODULE_STATES, FailingModule, GraphNode, GraphView, ModuleState
from forge.ui.reading import (
    display_path,
    history_of,
    list_runs,
    pick_run,
    plan_path_of,
    read_plan,
    run_id_of,
)
from forge.validate.history import assess, recommend

if TYPE_CHECKING:
    from forge.plan.graph import DependencyGraph
    from forge.store.forge_dir import ForgeDir

NO_PLAN_HINT = (
    "No plan yet. A planner writes one to .forge/plans/<name>.json (forge plan schema prints "
    "its format; examples/plans/ has examples); then validate its modules with forge validate "
    "--plan .forge/plans/<name>.json --all --run-id <run>, or let an orchestrator call forge's "
    "MCP tools. This page follows along."
)


def graph_view(forge_dir: ForgeDir, wanted: str | None, max_attempts: int) -> GraphView:
    """The graph of run ``wanted`` (``None``: the newest run)."""
    runs, notices = list_runs(forge_dir)
    run = pick_run(forge_dir, runs, wanted)
    on_disk = read_status(forge_dir)
    plan_path = plan_path_of(forge_dir, run, on_disk)
    plan, problems = read_plan(plan_path) if plan_path is not None else (None, [])
    notices.extend(problems)
    try:
        # A folder is no plan file: build_status then reads the newest plan (there
        # is none) rather than the newest session's, which is another run's.
        status = build_status(
            forge_dir, run_id=run_id_of(run), plan_path=plan_path or forge_dir.plans
        )
        modules = _unique(status.modules)
        if plan is not None:
            modules += _planless(forge_dir, run, {m.id for m in modules})
    except ForgeError as exc:
        notices.append(str(exc))
        modules = []
    skipped = _skipped(on_disk, run, plan_path, forge_dir)
    graph = plan.graph if plan is not None else None
    places, layers, critical = _layout(graph, [m.id for m in modules])
    on_path = set(critical)
    nodes = []
    for module in modules:
        column, row, layer = places[module.id]
        # The module's status line, its state refined (escalated, skipped), its place drawn.
        line = module.model_dump() | {
            "state": _state(forge_dir, run, module, skipped, max_attempts),
            "layer": layer,
            "column": column,
            "row": row,
            "critical": module.id in on_path,
        }
        nodes.append(GraphNode(**line))
    edges = (
        [(dep, node) for node in graph.order for dep in graph.deps[node] if node in places]
        if graph is not None
        else []
    )
    found = Counter(node.state for node in nodes)
    return GraphView(
        project=str(forge_dir.project_root),
        run=run,
        runs=runs,
        plan_path=display_path(forge_dir, plan_path) if plan_path is not None else None,
        objective=plan.objective if plan is not None else None,
        hint=_hint(plan_path, plan, nodes, problems),
        layers=layers,
        critical_path=critical,
        nodes=nodes,
        failing=_failing(forge_dir, run, nodes),
        edges=edges,
        counts={state: found[state] for state in MODULE_STATES},
        notices=notices,
    )


def _planless(forge_dir: ForgeDir, run: str, planned: set[str]) -> list[ModuleStatus]:
    """The modules of ``run`` with attempts and no entry in its plan (they get a last column)."""
    return [
        module_line(forge_dir, run_id_of(run), module_id, module_id, None)
        for module_id in forge_dir.module_ids(run_id_of(run))
        if module_id not in planned
    ]


def _failing(forge_dir: ForgeDir, run: str, nodes: list[GraphNode]) -> list[FailingModule]:
    """The failed and escalated modules, each with the first reason of its latest attempt."""
    failing = []
    for node in nodes:
        if node.state not in ("failed", "escalated"):
            continue
        attempts = history_of(forge_dir, run, node.id)[0].attempts
        latest = attempts[-1] if attempts else None
        reasons = [*latest.failures, *latest.issues] if latest is not None else []
        reason = reasons[0] if reasons else (latest.root_cause if latest else None)
        failing.append(
            FailingModule(id=node.id, title=node.title, state=node.state, reason=reason or "")
        )
    return failing


def _unique(modules: list[ModuleStatus]) -> list[ModuleStatus]:
    """One line per id (a plan with a duplicate id lists it twice; the first stands)."""
    seen: set[str] = set()
    kept = []
    for module in modules:
        if module.id not in seen:
            seen.add(module.id)
            kept.append(module)
    return kept


def _skipped(
    on_disk: Status | None, run: str, plan_path: Path | None, forge_dir: ForgeDir
) -> dict[str, int]:
    """Modules ``status.json`` says a plan run of this run and plan skipped, by attempt count."""
    if on_disk is None or (on_disk.run_id or "") != run or plan_path is None:
        return {}
    if on_disk.plan_path != display_path(forge_dir, plan_path) and on_disk.plan_path != str(
        plan_path
    ):
        return {}
    return {m.id: m.attempts for m in on_disk.modules if m.status == "skipped"}


def _state(
    forge_dir: ForgeDir,
    run: str,
    module: ModuleStatus,
    skipped: dict[str, int],
    max_attempts: int,
) -> ModuleState:
    if skipped.get(module.id) == module.attempts:  # no attempt since the run skipped it
        return "skipped"
    if module.state == "done":
        return "passed"
    if module.state == "running":
        return "running"
    if module.state in ("pending", "skipped"):
        return "skipped" if module.status == "skipped" else "pending"
    if (module.status or "").lower() in {"escalated", "stagnant"}:
        return "escalated"
    attempts = history_of(forge_dir, run, module.id)[0].attempts
    if attempts and recommend(passed=False, trend=assess(attempts), max_attempts=max_attempts) == (
        "ESCALATE"
    ):
        return "escalated"
    return "failed"


def _layout(
    graph: DependencyGraph | None, ids: list[str]
) -> tuple[dict[str, tuple[int, int, int | None]], int, list[str]]:
    """Where each module is drawn: ``id -> (column, row, layer)``; the layer count; the
    critical path.

    Columns are the execution layers; within one, modules sit near the mean row
    of their dependencies (one barycentre pass, ties in plan order), which
    keeps most edges short. Modules on or behind a cycle, and modules no
    usable plan entry describes, get a last column of their own.
    """
    places: dict[str, tuple[int, int, int | None]] = {}
    layers = graph.layers() if graph is not None else []
    for column, layer in enumerate(layers):
        assert graph is not None
        deps = graph.deps

        def centre(node: str, deps: dict[str, tuple[str, ...]] = deps) -> float:
            rows = [places[dep][1] for dep in deps[node]]
            return sum(rows) / len(rows) if rows else -1.0

        ordered = layer if column == 0 else sorted(layer, key=centre)  # sorted() is stable
        for row, node in enumerate(ordered):
            places[node] = (column, row, column)
    rest = [node for node in ids if node not in places]
    for row, node in enumerate(rest):
        places[node] = (len(layers), row, None)
    critical = graph.critical_path() if graph is not None else []
    return places, len(layers), critical


def _hint(
    plan_path: Path | None, plan: object, nodes: list[GraphNode], problems: list[str]
) -> str | None:
    if plan_path is None:
        if not nodes:
            return NO_PLAN_HINT
        return (
            "No plan found: these modules have attempts, but no plan says how they depend on "
            "each other. A planner writes one to .forge/plans/<name>.json."
        )
    if plan is None or not nodes:
        return (
            f"The plan {plan_path} cannot be shown: "
            f"{problems[0] if problems else 'it lists no module'}. "
            f"forge plan check {plan_path} says what to fix."
        )
    return None
