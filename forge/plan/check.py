"""Plan validation: plan file -> ``schema`` step -> plan-rule plugins -> :class:`PlanReport`.

Both adapters (the MCP ``validate_plan`` tool and ``forge plan check``) call
:func:`check_plan`; neither holds plan logic of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, WithJsonSchema

from forge.errors import clip
from forge.models import MAX_FINDING_NAME, PlanFinding, Severity, WireModel
from forge.plan.loader import (
    PlanReadError,
    build_plan,
    parse_plan_json,
    read_plan_json,
    schema_error,
)
from forge.plan.model import Plan
from forge.plugin_host.host import PluginHost
from forge.store.forge_dir import ForgeDir

#: Errors (and warnings) listed in a report; one more entry counts the rest. A
#: plan with 300,000 broken modules gets a report of a few hundred KB, not 300 MB.
MAX_FINDINGS = 200


class PlanReport(WireModel):
    """What ``validate_plan`` returns: the verdict on one plan, and how it would run."""

    valid: bool = Field(description="True when there are no errors (warnings allowed).")
    plan_path: str | None = Field(
        description="The plan file checked (relative to the project root when inside it); null for an inline plan."
    )
    errors: list[PlanFinding] = Field(description="Problems that make the plan invalid.")
    warnings: list[PlanFinding] = Field(description="Risks worth a look; the plan stays valid.")
    # The schema names the waves' shape only: an MCP client re-checks every result
    # against it, and 1,000 ids checked one by one as strings cost it more than
    # the server's whole answer.
    layers: Annotated[
        list[list[str]],
        WithJsonSchema({"type": "array", "items": {"type": "array"}}),
    ] = Field(
        default_factory=list,
        description="Execution waves in order, each a list of module ids: the modules of a "
        "layer can run in parallel. Modules on or behind a dependency cycle are not scheduled.",
    )
    critical_path: list[str] = Field(
        default_factory=list,
        description="The longest dependency chain, in the order it must run.",
    )
    critical_path_length: int = Field(
        default=0, description="Modules on the critical path: the fewest waves the plan needs."
    )
    module_count: int = Field(default=0, description="Modules the rules could check.")


def check_plan(
    *,
    plan_path: str | None,
    plan: object | None,
    project_root: Path,
    plugins: PluginHost,
) -> PlanReport:
    """Validate a plan with forge's ``schema`` step and every plan-rule plugin.

    :param plan_path: the plan file, relative to ``project_root`` or absolute.
    :param plan: an inline plan: decoded JSON (or JSON text). When both are
        ``None``, the most recently modified ``.forge/plans/*.json`` is checked.
    :param project_root: resolves ``plan_path`` and the paths rules look at.
    :param plugins: the plugin host whose ``forge_check_plan`` rules run.

    Never raises because of the plan: an unreadable file, a directory, a FIFO,
    invalid JSON and wrong types are all entries of ``errors``. Each rule is
    called on its own; a rule that raises, or returns something other than a
    list of :class:`PlanFinding`, and a plugin that failed to load, become
    ``plugin_error`` errors naming the plugin, and the other rules still run.
    """
    shown_path: str | None = None
    if plan_path is not None and plan is not None:
        return _report(None, [schema_error("give a plan path or an inline plan, not both")])
    if plan is None:
        if plan_path is None:
            newest = ForgeDir(project_root).newest_plan()
            if newest is None:
                message = f"no plan given and no .forge/plans/*.json in {project_root}"
                return _report(None, [schema_error(message)])
            path = newest
        else:
            path = project_root / Path(plan_path).expanduser()
        shown_path = _display(path, project_root)
        try:
            plan = read_plan_json(path)
        except PlanReadError as exc:
            return _report(shown_path, [schema_error(str(exc))])
    elif isinstance(plan, str):  # a client that sent the plan as JSON text
        try:
            plan = parse_plan_json(plan)
        except PlanReadError as exc:
            return _report(None, [schema_error(str(exc))])
    loaded = build_plan(plan)
    findings = list(loaded.findings)
    if loaded.plan is not None:
        findings.extend(run_rules(loaded.plan, project_root, plugins))
    findings.sort(key=lambda finding: plugins.plan_rules.rank(finding.type))
    return _report(shown_path, findings, loaded.plan)


def run_rules(plan: Plan, project_root: Path, plugins: PluginHost) -> list[PlanFinding]:
    """Every plan rule's findings, plugin failures included, each rule called on its own."""
    # Plugins are imported when their hooks are first needed: import the plan
    # rules now, so one that fails to import is reported below.
    plugins.require("forge_plan_rules", "forge_check_plan")
    findings = [
        PlanFinding(
            type="plugin_error",
            message=f"plugin {info.name} ({info.distribution}) failed to load, so its plan "
            f"rules did not run: {info.error}",
        )
        for info in plugins.failed
    ]
    findings.extend(
        PlanFinding(type="plugin_error", message=f"plan rule plugin {p.plugin}: {p.message}")
        for p in plugins.plan_rules.problems
    )
    checks = plugins.known_checks()
    for returned in plugins.call(
        "forge_check_plan", PlanFinding, plan=plan, project_root=project_root, checks=checks
    ):
        if returned.failure is None:
            findings.extend(returned.items)
            continue
        message = f"plan rule plugin {returned.plugin} {returned.failure}"
        findings.append(PlanFinding(type="plugin_error", message=message))
    return findings


def _report(
    plan_path: str | None, findings: list[PlanFinding], plan: Plan | None = None
) -> PlanReport:
    errors = [finding for finding in findings if finding.severity == "error"]
    warnings = [finding for finding in findings if finding.severity == "warning"]
    layers: list[list[str]] = []
    critical: list[str] = []
    if plan is not None:
        # Ids as long as a finding may show them: an overlong id is invalid anyway.
        layers = [[clip(i, MAX_FINDING_NAME) for i in layer] for layer in plan.graph.layers()]
        critical = [clip(i, MAX_FINDING_NAME) for i in plan.graph.critical_path()]
    return PlanReport(
        valid=not errors,
        plan_path=plan_path,
        errors=_capped(errors, "error"),
        warnings=_capped(warnings, "warning"),
        layers=layers,
        critical_path=critical,
        critical_path_length=len(critical),
        module_count=len(plan.modules) if plan is not None else 0,
    )


def _capped(findings: list[PlanFinding], severity: Severity) -> list[PlanFinding]:
    """The first :data:`MAX_FINDINGS` findings, and one that counts the others."""
    if len(findings) <= MAX_FINDINGS:
        return findings
    more = len(findings) - MAX_FINDINGS
    noun = "error" if severity == "error" else "warning"
    summary = PlanFinding(
        type="truncated",
        severity=severity,
        message=f"and {more} more {noun}{'' if more == 1 else 's'} not listed: "
        "fix the ones above and check again",
    )
    return [*findings[:MAX_FINDINGS], summary]


def _display(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
