"""What a merge preview says of each module beside git: its lane, and its latest verdict.

git merges a branch that changed another module's file as readily as any
other; the lane says it should not have (:mod:`forge.plan.lanes`), and
the preview fails it, naming the file and its owner. A module whose latest
recorded validation failed (RETRY, ESCALATE) is not ready to merge either:
the preview reports each module's latest verdict and fails on a failed one.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from forge.git.changes import Changes
from forge.git.runner import run_git, split_z
from forge.parallel.models import OutOfLane, RecordedVerdict
from forge.plan.lanes import lane_violations
from forge.store.ids import is_valid_run_id
from forge.store.safe_open import state_folders
from forge.validate.history import assess, read_history, recommend

if TYPE_CHECKING:
    from forge.config import ForgeConfig
    from forge.plan.model import Plan, PlanModule
    from forge.store.forge_dir import ForgeDir
    from forge.validate.history import History


def out_of_lane(
    plan: Plan,
    module: PlanModule,
    *,
    top: Path,
    root: Path,
    prefix: str,
    fork_point: str,
    committed: tuple[str, ...],
    config: ForgeConfig,
) -> list[OutOfLane]:
    """The files ``module``'s commits changed outside its lane, in path order.

    :param committed: the repository paths its commits changed since ``fork_point``.
    """
    changes = Changes(top, fork_point, committed, ())
    violations = lane_violations(
        changes, module, plan, prefix=prefix, root=root, generated=config.generated
    )
    return [
        OutOfLane(
            module_id=module.id,
            file=violation.path,
            owners=list(violation.owners),
            message=violation.message(module.id),
        )
        for violation in violations
    ]


def own_changes(top: Path, since: str, commit: str, others: set[str]) -> frozenset[str] | None:
    """Files touched by the commits from ``since`` to ``commit`` that are in none of
    ``others`` (other modules' work), even if a later commit undid the change; None when
    git cannot say, or when there are no others (every commit is the module's own)."""
    if not others:
        return None
    args = ["log", "--no-renames", "--name-only", "-z", "--format=", commit, f"^{since}"]
    try:
        out = run_git(top, [*args, *(f"^{other}" for other in sorted(others)), "--"])
    except (OSError, subprocess.SubprocessError):
        return None
    return frozenset(split_z(out))


def conflict_advice(path: str, mine: str, others: list[str], strays: list[OutOfLane]) -> str | None:
    """What to do about a conflict on ``path`` when a module changed it outside its lane."""
    stray = next(
        (item for item in strays if item.file == path and item.module_id in [*others, mine]),
        None,
    )
    if stray is None:
        return None
    rest = [module for module in [*others, mine] if module != stray.module_id]
    owner = (
        f"it belongs to module {', '.join(stray.owners)}" if stray.owners else "no module lists it"
    )
    also = f", and {', '.join(rest)} change{'s' if len(rest) == 1 else ''} it too" if rest else ""
    return (
        f"{path}: {stray.module_id} changed it outside its lane ({owner}){also}: "
        f"revert {stray.module_id}'s change to {path}, then preview again"
    )


def latest_verdict(
    forge_dir: ForgeDir, module_id: str, run_id: str | None, max_attempts: int
) -> RecordedVerdict | None:
    """The module's latest recorded validation: in ``run_id``'s history when a run is named,
    else the latest of its run-less history and every run's; None when it has none."""
    runs: list[str | None] = [run_id]
    if run_id is None:
        folders = state_folders(forge_dir.iterations(None))
        runs += [name for name, _ in folders if is_valid_run_id(name)]
    found: RecordedVerdict | None = None
    for run in runs:
        history, _problem = read_history(forge_dir, module_id, run)
        verdict = _verdict(history, max_attempts)
        if verdict is not None and (found is None or verdict.timestamp > found.timestamp):
            found = verdict
    return found


def _verdict(history: History, max_attempts: int) -> RecordedVerdict | None:
    """What forge said of the latest validate attempt of ``history``."""
    attempts = [attempt for attempt in history.attempts if attempt.source == "validate"]
    if not attempts:
        return None
    latest = attempts[-1]
    passed = bool(latest.passed)
    return RecordedVerdict(
        recommendation=recommend(passed=passed, trend=assess(attempts), max_attempts=max_attempts),
        passed=passed,
        attempt=latest.attempt,
        score=latest.score,
        run_id=history.run_id,
        timestamp=latest.timestamp,
    )
