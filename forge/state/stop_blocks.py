"""What forge remembers between a worker's stops: ``.forge/hook/[<runId>/]<moduleId>.json``.

When ``forge hook`` blocks a module's stop (or lets it through because the
module escalated), it records the fingerprint of the module's work then
(:func:`forge.git.fingerprint.work_fingerprint`) and why. A later stop whose
work has the same fingerprint changed nothing forge can see: it is let through
with the reason instead of looping. A stop that passes forgets the record, and
so does a reset of the module's history (``iteration_state`` ``reset``).

The record is read without side effects (a corrupt one counts as none, and the
stop is judged afresh), replaced atomically, and removed under its lock.
"""

from __future__ import annotations

from forge.models import WireModel
from forge.store.forge_dir import ForgeDir, utc_now
from forge.store.json_files import peek_model, write_json
from forge.store.locks import remove


class StopBlock(WireModel):
    """The record of a module's last blocked (or escalated) stop."""

    #: The module's work when forge blocked (its files, and the git state of its working dir).
    fingerprint: str
    #: What the block said: the verdict and the failures.
    summary: str = ""
    #: When, in UTC (ISO 8601).
    blocked_at: str
    #: Whether the module had escalated: forge stopped retrying and a person must look.
    escalated: bool = False


def last_block(forge_dir: ForgeDir, module_id: str, run_id: str | None) -> StopBlock | None:
    """The record of ``module_id``'s last blocked stop in run ``run_id``; ``None`` when there is
    none, or it cannot be used."""
    return peek_model(forge_dir.stop_record(module_id, run_id), StopBlock)


def remember_block(
    forge_dir: ForgeDir,
    module_id: str,
    run_id: str | None,
    *,
    fingerprint: str,
    summary: str,
    escalated: bool = False,
) -> None:
    """Record a block (or an escalation) of ``module_id``'s stop, with its work's fingerprint."""
    block = StopBlock(
        fingerprint=fingerprint, summary=summary, blocked_at=utc_now(), escalated=escalated
    )
    write_json(forge_dir.stop_record(module_id, run_id), block.to_wire())


def forget_block(forge_dir: ForgeDir, module_id: str, run_id: str | None) -> None:
    """The module passed, or was reset: its next stop starts afresh."""
    remove(forge_dir.stop_record(module_id, run_id))
