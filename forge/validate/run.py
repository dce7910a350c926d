"""The checks stage, and the pipeline that runs the stages in order.

request (:mod:`.preparation`) -> checks (here) -> baseline (:mod:`.baseline`) ->
acceptance criteria (:mod:`.acceptance`) -> verdict (:mod:`.verdict`) ->
attempt history (:mod:`.history`) -> report (:mod:`.outcome`). Both adapters
(the MCP server and the CLI) call :meth:`Engine.validate`; neither holds
validation logic of its own.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import threading
from collections.abc import Collection, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from forge.config import ForgeConfig, disabled_plugins, load_config, project_place
from forge.errors import close_names, did_you_mean
from forge.languages import LanguageRegistry, ParseCache
from forge.models import CheckDescriptor, CheckResult, ValidateRequest
from forge.models.results import plugin_failure
from forge.plugin_host.catalog import CORE, Catalog
from forge.plugin_host.host import PluginHost, build_plugin_host
from forge.plugin_host.records import Returned
from forge.runtime.cancellation import (
    Cancelled,
    cancellable,
    cancelled,
    stopped_on_error,
    waited,
)
from forge.store.forge_dir import ForgeDir
from forge.store.project import ProjectPlace
from forge.store.writes import ensure_writable
from forge.validate.acceptance import judge_criteria
from forge.validate.baseline import Outcome, apply_baseline, resolve_request_base
from forge.validate.history import record_attempt
from forge.validate.outcome import ValidateReport
from forge.validate.preparation import (
    NothingToCheck,
    refuse_unknown_plugin_options,
    working_dir,
    workspace_for,
)
from forge.validate.verdict import Score, counts_as_failure, judged, not_judged, unjudged
from forge.workspace import ProgressCallback, Workspace

if TYPE_CHECKING:
    from forge.parallel.merge_preview import MergeAsk
    from forge.parallel.models import MergeCheckReport
    from forge.plan.locate import PlanModuleRef
    from forge.validate.edit import Edit, EditJudgement

logger = logging.getLogger(__name__)


class Engine:
    """One project's validation engine: its plugins, its config, its ``.forge/`` folder.

    Long-lived in the MCP server (caches survive between calls), built once
    per run by the CLI.
    """

    def __init__(
        self,
        root: Path,
        config: ForgeConfig,
        plugins: PluginHost,
        *,
        home: Path | None = None,
    ) -> None:
        self.root = root
        #: The project and the working dir of a request that names none (what a relative
        #: ``cwd`` is relative to): the root itself, or the worktree the process started in.
        self.place = ProjectPlace(root=root, working_dir=home or root)
        self.config = config
        self.plugins = plugins
        self.forge_dir = ForgeDir(root)
        #: Trees kept between validate calls; unchanged files are not parsed again.
        self.parse_cache = ParseCache()
        self._languages: LanguageRegistry | None = None
        self._languages_lock = threading.Lock()
        #: The last call's results as attributed to their plugins, by id of the result a
        #: check returned: checks return the very same result again for an unchanged
        #: file (kept with its tree), and it gets the same copy. Entries live one call;
        #: each holds the original, so its id cannot be reused meanwhile.
        self._attributed: dict[int, tuple[CheckResult, CheckResult]] = {}

    @property
    def languages(self) -> LanguageRegistry:
        """The language registry, built from ``forge_languages`` on first use."""
        with self._languages_lock:
            if self._languages is None:
                self._languages = LanguageRegistry.from_plugins(self.plugins)
            return self._languages

    @classmethod
    def for_project(cls, root: Path | None = None) -> Engine:
        """The engine for ``root`` (default: the project of ``FORGE_CWD`` or the working dir,
        :func:`forge.config.project_place`), plugins loaded."""
        home = None
        if root is None:
            place = project_place()
            root, home = place.root, place.working_dir
        config = load_config(root)
        return cls(root, config, build_plugin_host(disabled_plugins(config)), home=home)

    def start_serving(self) -> None:
        """Tell the plugins a long-lived process serves this project (``forge_engine_started``).

        Called by the MCP server and ``forge daemon``, never by one-shot commands:
        plugins keep warm resources (a type checker's server) from here until
        :meth:`stop_serving`. A plugin that raises is logged, never fatal.
        """
        self._lifecycle("forge_engine_started")

    def stop_serving(self) -> None:
        """Tell the plugins the long-lived process is done (``forge_engine_stopped``)."""
        self._lifecycle("forge_engine_stopped")

    def _lifecycle(self, hook: str) -> None:
        for returned in self.plugins.call(hook, object, project_root=self.root):
            if returned.failure is not None and returned.failure.startswith("raised"):
                logger.warning("plugin %s %s in %s", returned.plugin, returned.failure, hook)

    def working_dir(self, request: ValidateRequest) -> Path:
        """The request's ``cwd`` (relative to the place's working dir), else that dir."""
        return working_dir(self.place.working_dir, request)

    def can_judge(self, request: ValidateRequest) -> bool:
        """Whether the working dir is a usable folder: else cwd_check fails, nothing is kept."""
        try:
            return self.working_dir(request).is_dir()
        except OSError:  # a path the OS refuses (a name too long) is no folder
            return False

    def judge_edit(self, edit: Edit) -> EditJudgement:
        """What ``forge hook`` asks after a tool wrote files: :func:`forge.validate.edit.judge_edit`."""
        from forge.validate.edit import judge_edit  # deferred: an entry imports its stage

        return judge_edit(self, edit)

    def merge_preview(self, ask: MergeAsk) -> MergeCheckReport:
        """``forge merge check`` and the ``merge_check`` tool: :func:`forge.parallel.merge_preview.merge_check`."""

        from forge.parallel.merge_preview import merge_check  # deferred: an entry imports its stage

        return merge_check(self, ask)

    def run_checks(
        self,
        request: ValidateRequest,
        workspace: Workspace,
        *,
        plugins: Collection[str] | None = None,
    ) -> list[CheckResult]:
        """Every check of every plugin, plugin failures included, in declared order.

        :param plugins: run these plugins' checks alone (``forge hook`` runs those
            that judge edits); default: every plugin's.
        """
        catalog = self.plugins.checks
        # Plugins are imported when their hooks are first needed: import this
        # step's now, so one that fails to import is reported below.
        self.plugins.require("forge_languages")
        self.plugins.require("forge_run_checks", only=plugins)
        results = [
            plugin_failure(
                info.name,
                f"plugin {info.name} ({info.distribution}) failed to load: {info.error}",
                raised_at=info.raised_at,
                traceback=info.traceback,
            )
            for info in self.plugins.failed
        ]
        results.extend(
            plugin_failure(problem.plugin, f"plugin {problem.plugin}: {problem.message}")
            for problem in [*catalog.problems, *self.languages.problems]
        )
        previous, attributed = self._attributed, {}
        undeclared: dict[tuple[str, str], None] = {}

        def take(called: list[Returned[CheckResult]]) -> bool:
            """Keep each plugin's results, in turn; True when one of them halts the rest."""
            for returned in called:
                workspace.report_progress(f"{returned.plugin}: checked")
                if returned.failure is not None:
                    message = f"plugin {returned.plugin} {returned.failure}"
                    results.append(
                        plugin_failure(
                            returned.plugin,
                            message,
                            raised_at=returned.raised_at,
                            traceback=list(returned.frames),
                        )
                    )
                    continue
                for result in returned.items:
                    if catalog.owners.get(result.type) not in (returned.plugin, CORE):
                        # A plugin's results are of the ids it declares (docs/architecture.md);
                        # anything else (a typo, another plugin's id) counts for nothing.
                        undeclared[(returned.plugin, result.type)] = None
                        continue
                    if result.plugin == returned.plugin:
                        results.append(result)
                        continue
                    kept = previous.get(id(result))
                    if kept is None or kept[0] is not result or kept[1].plugin != returned.plugin:
                        kept = (result, result.model_copy(update={"plugin": returned.plugin}))
                    attributed[id(result)] = kept
                    results.append(kept[1])
                if self.halted(returned.items):
                    return True
            return False

        def call(names: Collection[str]) -> list[Returned[CheckResult]]:
            called = self.plugins.call(
                "forge_run_checks", CheckResult, only=names, request=request, workspace=workspace
            )
            return list(called)

        def call_apart(name: str) -> list[Returned[CheckResult]]:
            with cancellable(abandoned):
                return call((name,))

        def collect(started: list[Future[list[Returned[CheckResult]]]], halted: bool) -> bool:
            """Wait for the concurrent plugins started, in turn; keep their results until one
            halts the rest: then those not begun never are, and the one running is told to
            stop and waited for all the same (a checker must not outlive the call)."""
            for at, future in enumerate(started):
                if halted:
                    abandoned.set()
                    for waiting in started[at:]:
                        waiting.cancel()  # not begun yet: it never will be
                if future.cancelled():
                    continue
                finished = waited(future)
                if not halted:
                    halted = take(finished)
            return halted

        order = self.plugins.call_order("forge_run_checks", only=plugins)
        apart = _concurrent_plugins(catalog) & set(order)
        # Set when this call ends early (Ctrl-C, a halting check): the concurrent
        # checks stop rather than keep the call waiting for results nobody reads.
        with ThreadPoolExecutor(max_workers=1) as pool, stopped_on_error(pool) as abandoned:
            # Each concurrent plugin starts where its turn comes (after cwd_check, which
            # runs first), one after the other in the pool's thread, and runs beside the
            # read-only checks that follow it.
            running: list[Future[list[Returned[CheckResult]]]] = []
            halted = False
            for name in order:
                if name in apart:
                    # In this call's context: a cancelled call stops its checker too.
                    running.append(pool.submit(contextvars.copy_context().run, call_apart, name))
                    continue
                if running and not _reads_only(catalog, name):
                    # A check that runs the module's programs may write what the
                    # concurrent checks read: they finish first.
                    halted, running = collect(running, halted), []
                if halted or take(call((name,))):
                    halted = True
                    break
            collect(running, halted)
        self._attributed = attributed
        results.extend(_undeclared(catalog, undeclared))
        results.sort(key=lambda result: catalog.rank(result.type))
        return [workspace.relative_places(result) for result in results]

    def halted(self, results: list[CheckResult]) -> bool:
        """Whether one of ``results`` is a failure of a check that halts the rest."""
        catalog = self.plugins.checks
        for result in results:
            declared = catalog.get(result.type)
            if not result.passed and declared is not None and declared.halts_on_failure:
                return True
        return False

    def validate(
        self,
        request: ValidateRequest,
        progress: ProgressCallback | None = None,
        *,
        plan: PlanModuleRef | None = None,
    ) -> ValidateReport:
        """Run the request's checks, record the attempt, and say what to do next.

        :param progress: told of each step (each plugin's checks, each command).
        :param plan: the plan module validated (``forge validate --plan``); default:
            the module of the request's id in its run's plan, if any.
        """
        refuse_unknown_plugin_options(request, self.plugins)
        max_attempts = request.max_attempts or self.config.max_attempts
        history = self.forge_dir.iteration(request.module_id, request.run_id)
        cwd = self.working_dir(request)
        baseline = Outcome()
        if self.can_judge(request):
            # Fail before any command runs, not after, when the attempt could not be kept.
            ensure_writable(history)
            baseline = resolve_request_base(self, request, cwd)
        workspace = workspace_for(self, request, progress, base=baseline.base, plan=plan)
        results = self.run_checks(request, workspace)
        if cancelled():
            raise Cancelled("validate was cancelled; no attempt recorded")
        if self.halted(results):
            return unjudged(request, results, max_attempts)
        if not results:  # a verdict on nothing would be a false PROCEED
            raise NothingToCheck
        results = apply_baseline(self, request, workspace, results, baseline.base)
        results = judge_criteria(self, request, workspace, results)
        if cancelled():
            raise Cancelled("validate was cancelled; no attempt recorded")
        score = Score.of(results)
        _, trend, notices = record_attempt(
            history,
            module_id=request.module_id,
            run_id=request.run_id,
            source="validate",
            score=score.score,
            passed=score.passed,
            failures=[result.failure_key for result in results if counts_as_failure(result)],
            unjudged=not_judged(results) is not None,
        )
        return judged(
            request,
            results,
            trend,
            max_attempts=max_attempts,
            notices=[*baseline.notices, *notices],
            base_commit=baseline.commit,
        )


@contextlib.contextmanager
def serving(engine: Engine | None) -> Iterator[None]:
    """While a long-lived process serves ``engine``'s project, its plugins keep warm resources.

    :meth:`Engine.start_serving` on entry, :meth:`Engine.stop_serving` on the way out
    however it is left; nothing without an engine (a server whose project is unusable).
    """
    if engine is None:
        yield
        return
    engine.start_serving()
    try:
        yield
    finally:
        engine.stop_serving()


def _concurrent_plugins(catalog: Catalog[CheckDescriptor]) -> set[str]:
    """The plugins with a ``concurrent`` check: their checks run in a thread of their own."""
    return {
        catalog.owners[type_]
        for type_, descriptor in catalog.descriptors.items()
        if descriptor.concurrent and catalog.owners[type_] != CORE
    }


def _reads_only(catalog: Catalog[CheckDescriptor], plugin: str) -> bool:
    """Whether every check ``plugin`` declared is ``read_only`` (False when it declared none)."""
    declared = [
        catalog.descriptors[id_] for id_, owner in catalog.owners.items() if owner == plugin
    ]
    return bool(declared) and all(descriptor.read_only for descriptor in declared)


def _undeclared(
    catalog: Catalog[CheckDescriptor], returned: dict[tuple[str, str], None]
) -> list[CheckResult]:
    """A failing ``plugin_error`` per check id a plugin returned without declaring it.

    A plugin that declares nothing at all is already a problem of the catalog's.
    """
    declaring = set(catalog.owners.values())
    failures = []
    for plugin, type_ in returned:
        if plugin not in declaring:
            continue
        owner = catalog.owners.get(type_)
        if owner is not None:
            why = f"is declared by {owner}, not by {plugin}"
        else:
            own = [id_ for id_, by in catalog.owners.items() if by == plugin]
            why = f"is declared by no plugin{did_you_mean(close_names(type_, own))}"
        failures.append(
            plugin_failure(
                plugin,
                f"plugin {plugin} returned results of check {type_!r}, which {why}: they count "
                "for nothing; declare every check id in forge_checks",
            )
        )
    return failures
