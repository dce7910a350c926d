"""The request stage: where a validate request runs and the workspace its checks share.

The request itself is :class:`forge.models.ValidateRequest` (check plugins
receive it, so it lives with the plugin API's models); the MCP tool and the CLI
build it, and this module turns it into a working dir and a workspace.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forge.errors import UsageError, clip, unknown_name
from forge.models import ValidateRequest
from forge.workspace import ProgressCallback, Workspace

if TYPE_CHECKING:
    from forge.git import Base
    from forge.plan.locate import PlanModuleRef
    from forge.plugin_host.host import PluginHost
    from forge.validate.context import StageContext


class NothingToCheck(UsageError):
    """No check had anything to check: a verdict on nothing would be a false pass."""

    def __init__(self) -> None:
        super().__init__(
            "nothing to check: give files, commands or contractChecks (a validation that "
            "checks nothing cannot pass)"
        )


def refuse_unknown_plugin_options(request: ValidateRequest, plugins: PluginHost) -> None:
    """:class:`UsageError` for ``pluginOptions`` that name no loaded plugin.

    Options for a plugin that will not run would be lost without a word: they
    are refused before anything runs or is recorded.
    """
    if not request.plugin_options:
        return
    status = {info.name: info for info in plugins.plugins}
    for name in request.plugin_options:
        info = status.get(name)
        if info is not None and info.status == "loaded":
            continue
        if info is None:
            loaded = [known for known, found in status.items() if found.status == "loaded"]
            problem = unknown_name(name, loaded, kind="loaded plugin")
        elif info.status == "disabled":
            problem = (
                f"plugin {name!r} is disabled (FORGE_DISABLE_PLUGINS or [tool.forge] disable): "
                "drop its options or enable it"
            )
        else:
            problem = f"plugin {name!r} failed to load: {clip(info.error or 'unknown error', 200)}"
        raise UsageError(f"pluginOptions: {problem}")


def working_dir(home: Path, request: ValidateRequest) -> Path:
    """The request's ``cwd`` (relative to ``home``), else ``home``.

    :param home: the working dir of the engine's place (``Engine.place``): the
        project root, or the worktree of it the process was started in.
    """
    if request.cwd is None:
        return home
    folder = (home / Path(request.cwd).expanduser()).absolute()
    # ``../wt-cart`` from the project: one spelling of the folder, or paths under it
    # would not read as inside it.
    return folder.resolve() if ".." in folder.parts else folder


def workspace_for(
    context: StageContext,
    request: ValidateRequest,
    progress: ProgressCallback | None = None,
    *,
    base: Base | None = None,
    plan: PlanModuleRef | None = None,
) -> Workspace:
    """The workspace of one validate call: its working dir, options, languages and parse cache.

    :param base: the resolved base revision (lanes and the baseline need it).
    :param plan: the plan module being validated; default: the module of the
        request's id in its run's plan, looked up when a check first asks.
    """

    def plan_module() -> PlanModuleRef | None:
        if plan is not None:
            return plan
        if context.forge_dir.run_plan(request.run_id) is None:
            return None  # no plan at all: the plan models need not even be imported
        from forge.plan.locate import find_plan_module  # deferred: only a plan module reads a plan

        return find_plan_module(context.root, request.module_id, request.run_id)

    return Workspace(
        working_dir(context.place.working_dir, request),
        config=context.config,
        plugin_options=request.plugin_options,
        languages=context.languages,
        parse_cache=context.parse_cache,
        progress=progress,
        base=base,
        plan_module=plan_module,
    )
