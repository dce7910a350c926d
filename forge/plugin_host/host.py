"""Loading plugins from the ``forge`` entry-point group, and calling them safely.

forge owns its loader instead of ``pm.load_setuptools_entrypoints``: every
entry point is loaded and registered inside its own ``try``, so one broken
third-party package cannot stop forge, and forge keeps its own record of what
loaded, what was disabled and what failed (``forge plugins`` shows it).

A plugin whose hooks are known from :mod:`forge.plugin_host.entry_points` is imported
and registered only when one of those hooks is first called: ``forge plan
check`` never imports the checks, and ``forge validate`` never imports the plan
rules. Plugins stay registered in the order eager loading gives, so pluggy's own
calling loop and order serve (:meth:`PluginHost.call`).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

import pluggy

from forge import hookspecs
from forge.models import CheckDescriptor, PlanRuleDescriptor
from forge.plugin_host.catalog import KnownChecks, build_catalog, core_checks, core_plan_rules
from forge.plugin_host.entry_points import (
    EntryPointCache,
    FoundEntryPoint,
    definitions,
    describe,
    open_cache,
)
from forge.plugin_host.manager import ModulePluginManager
from forge.plugin_host.records import (
    BUILTIN_DISTRIBUTION,
    ENTRY_POINT_GROUP,
    PluginInfo,
    Returned,
    checked,
    describe_exception,
    hook_meant,
    raised_by,
    raised_in,
    record,
)
from forge.store.home import forge_home

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from forge.plugin_host.catalog import Catalog

logger = logging.getLogger("forge.plugins")


T = TypeVar("T")


@dataclass
class _Pending:
    """An entry point whose hooks are known from the cache, not imported yet."""

    entry_point: FoundEntryPoint
    info: dict[str, str]
    index: int
    hooks: frozenset[str]


class PluginHost:
    """A pluggy plugin manager plus forge's record of every entry point it saw.

    ``plugins`` lists every entry point in registration order. A plugin whose
    hooks the entry-point cache knows is listed as ``loaded`` from the start
    but imported only when one of its hooks is called (or :attr:`pm` is
    asked for); if that import fails after all, its line becomes ``failed``
    then, and :attr:`failed` says so from that call on.
    """

    def __init__(self, pm: pluggy.PluginManager, *, trace: bool = False) -> None:
        self._pm = pm
        self.plugins: list[PluginInfo] = []
        self.trace = trace
        #: Registration rank of each plugin name: the order eager loading gives.
        self._rank: dict[str, int] = {}
        self._pending: dict[str, _Pending] = {}
        self._cache: EntryPointCache | None = None
        #: Each (hook, plugin)'s subset caller, made once while registrations stay as they are.
        self._subsets: dict[tuple[str, str], Callable[..., list[object]]] = {}

    @property
    def pm(self) -> pluggy.PluginManager:
        """The pluggy manager, with every plugin imported and registered."""
        self.load_all()
        return self._pm

    @property
    def failed(self) -> list[PluginInfo]:
        """Plugins whose import or registration failed (so far: see the class docstring)."""
        return [info for info in self.plugins if info.status == "failed"]

    @cached_property
    def checks(self) -> Catalog[CheckDescriptor]:
        """Every check declared through ``forge_checks`` (built on first use, then kept)."""
        catalog = build_catalog(
            self, "forge_checks", CheckDescriptor, core_checks(), runs="forge_run_checks"
        )
        self._save_cache()  # what each plugin declared: plan check reads it (known_checks)
        return catalog

    @cached_property
    def plan_rules(self) -> Catalog[PlanRuleDescriptor]:
        """Every plan rule declared through ``forge_plan_rules`` (built on first use)."""
        return build_catalog(self, "forge_plan_rules", PlanRuleDescriptor, core_plan_rules())

    def known_checks(self) -> KnownChecks:
        """The check ids validate would judge here, read only when a plan rule asks.

        From the entry-point cache when it knows what every check plugin
        declares (``forge plan check`` then imports no check), else from
        :attr:`checks`, which imports them and teaches the cache.
        """
        disabled = [info.name for info in self.plugins if info.status == "disabled"]
        return KnownChecks(self._check_ids, disabled)

    def _check_ids(self) -> frozenset[str]:

        if "checks" not in self.__dict__ and self._cache is not None:
            ids = {descriptor.id for descriptor in core_checks()}
            for info in self.plugins:
                if info.status != "loaded" or "forge_checks" not in info.hooks:
                    continue
                declared = self._cache.declared(info.module, "forge_checks")
                if declared is None:
                    break
                ids.update(declared)
            else:
                return frozenset(ids)
        return frozenset(self.checks.descriptors)

    def learn_declared(self, hook_name: str, plugin: str, ids: Iterable[str]) -> None:
        """Remember in the entry-point cache the ids ``plugin`` declared from ``hook_name``."""
        at = self._rank.get(plugin)
        if self._cache is None or at is None or self.plugins[at].status != "loaded":
            return
        self._cache.learn_declared(self.plugins[at].module, hook_name, ids)

    def require(self, *hook_names: str, only: Collection[str] | None = None) -> None:
        """Import and register every plugin not imported yet that implements one of ``hook_names``.

        Call it before reading :attr:`failed` for a step that calls those hooks,
        so a plugin that fails to import now is reported with that step.

        :param only: these plugins alone (default: every plugin).
        """
        wanted = set(hook_names)
        for name, pending in list(self._pending.items()):
            if pending.hooks & wanted and (only is None or name in only):
                self._load_pending(name)
        self._save_cache()

    def load_all(self) -> None:
        """Import and register every plugin not imported yet (``forge plugins`` shows them all)."""
        for name in list(self._pending):
            self._load_pending(name)
        self._save_cache()

    def call(
        self,
        hook_name: str,
        returns: type[T],
        *,
        only: Collection[str] | None = None,
        **kwargs: Any,
    ) -> Iterator[Returned[T]]:
        """Call every implementation of ``hook_name`` on its own, in pluggy's call order.

        Each plugin is called through pluggy's own calling loop (a subset hook caller
        of that plugin alone): forge only keeps one plugin's exception from stopping
        the others, as pluggy's call of the whole hook would. What each returns is
        checked (:func:`checked`); an exception is its failure, with where it was
        raised. Every call is traced to stderr when ``FORGE_TRACE_PLUGINS`` is set.

        :param only: call these plugins' implementations alone (default: every plugin's).
        :param kwargs: the hook's arguments.
        """
        for name in self.call_order(hook_name, only=only):
            started = time.perf_counter()
            try:
                values = self._alone(hook_name, name)(**kwargs)
            except Exception as exc:  # a plugin's bug must not take forge down
                logger.debug("plugin %s raised in %s", name, hook_name, exc_info=True)
                outcome: Returned[T] = raised_by(name, self._pm.get_plugin(name), exc)
            else:
                outcome = checked(name, values, returns)
            if self.trace:
                elapsed = (time.perf_counter() - started) * 1000
                print(
                    f"[forge trace] {hook_name} {name}: {outcome.failure or 'ok'} "
                    f"({elapsed:.1f} ms)",
                    *(f"  {frame}" for frame in outcome.frames),
                    sep="\n",
                    file=sys.stderr,
                )
            yield outcome

    def call_order(self, hook_name: str, *, only: Collection[str] | None = None) -> list[str]:
        """The plugins :meth:`call` would call for ``hook_name`` (``only`` these), in pluggy's
        order, which is eager loading's: plugins imported late are registered again in rank
        order (:meth:`_after_in_rank`)."""
        self.require(hook_name, only=only)
        # pluggy calls a hook's implementations from the last get_hookimpls() lists to
        # the first (tryfirst/trylast already applied): that order, each plugin once.
        impls = reversed(getattr(self._pm.hook, hook_name).get_hookimpls())
        order = dict.fromkeys(impl.plugin_name for impl in impls)
        return [name for name in order if only is None or name in only]

    def _alone(self, hook_name: str, name: str) -> Callable[..., list[object]]:
        """``hook_name``'s caller with ``name``'s implementations alone: pluggy's loop."""
        if (hook_name, name) not in self._subsets:
            plugin = self._pm.get_plugin(name)
            others = [other for other in self._pm.get_plugins() if other is not plugin]
            caller = self._pm.subset_hook_caller(hook_name, remove_plugins=others)
            self._subsets[hook_name, name] = caller
        return self._subsets[hook_name, name]

    def _add(self, info: PluginInfo) -> int:
        self._rank.setdefault(info.name, len(self.plugins))
        self.plugins.append(info)
        return len(self.plugins) - 1

    def _defer(
        self, entry_point: FoundEntryPoint, info: dict[str, str], hooks: frozenset[str]
    ) -> None:
        index = self._add(record(**info, hooks=sorted(hooks), status="loaded"))
        self._pending[entry_point.name] = _Pending(entry_point, info, index, hooks)

    def _load_pending(self, name: str) -> None:
        pending = self._pending.pop(name)
        entry_point = pending.entry_point
        self.plugins[pending.index] = self._load(entry_point, pending.info)

    def _load(self, entry_point: FoundEntryPoint, info: dict[str, str]) -> PluginInfo:
        """Import and register one entry point; what it implements goes to the cache."""
        try:
            plugin = entry_point.load()
        except Exception as exc:  # an uninstallable plugin must not stop forge
            at, frames = raised_in(exc, entry_point.value)
            where = f" (at {at})" if at else ""
            return record(
                **info,
                status="failed",
                error=f"import failed: {describe_exception(exc)}{where}",
                raised_at=at,
                traceback=list(frames),
            )
        loaded = self._register(entry_point.name, plugin, info)
        if loaded.status == "loaded" and self._cache is not None:
            learnt = definitions(self._pm, plugin)
            if learnt is not None:
                self._cache.learn(entry_point.value, *learnt)
        return loaded

    def _register(self, name: str, plugin: object, info: dict[str, str]) -> PluginInfo:
        self._subsets.clear()  # a subset leaves out the plugins registered when it was made
        if name in self._pending:  # taken by a plugin not imported yet: as if it had been
            self._load_pending(name)
        pm = self._pm
        if pm.has_plugin(name):
            owner = pm.get_plugin(name)
            return record(
                **info,
                status="failed",
                error=f"name {name!r} is already taken by {getattr(owner, '__name__', owner)!r}",
            )
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # e.g. PluginValidationError: a hook argument not in the spec
            return record(**info, status="failed", error=f"rejected: {describe_exception(exc)}")
        callers = pm.get_hookcallers(plugin) or []
        wrappers = sorted(
            caller.name
            for caller in callers
            for impl in caller.get_hookimpls()
            if impl.plugin is plugin and (impl.hookwrapper or impl.wrapper)
        )
        if wrappers:
            # forge calls each implementation on its own: a wrapper has nothing to wrap.
            pm.unregister(plugin)
            return record(
                **info,
                status="failed",
                error=f"rejected: {', '.join(wrappers)} is a hook wrapper, which forge does not "
                "support (drop wrapper=True/hookwrapper=True)",
            )
        hooks = sorted(caller.name for caller in callers)
        try:
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            pm.unregister(plugin)
            error = f"rejected: {describe_exception(exc)}{hook_meant(exc, hookspecs)}"
            return record(**info, status="failed", error=error)
        self._after_in_rank(name)
        return record(**info, hooks=hooks, status="loaded")

    def _after_in_rank(self, name: str) -> None:
        """Register again, in rank order, the plugins registered before ``name`` that rank
        after it (imported earlier for another hook): pluggy calls the most recently
        registered first, and so calls them in the order eager loading gives."""
        rank = self._rank.get(name)
        if rank is None:  # being loaded eagerly: the last so far
            return
        later = sorted(
            (self._rank[other], other, plugin)
            for other, plugin in self._pm.list_name_plugin()
            if plugin is not None and self._rank.get(other, -1) > rank
        )
        for _, other, plugin in later:
            self._pm.unregister(plugin, name=other)
        for _, other, plugin in later:
            self._pm.register(plugin, name=other)

    def _save_cache(self) -> None:
        if self._cache is not None:
            self._cache.save()


def _in_order(found: Iterable[FoundEntryPoint]) -> list[FoundEntryPoint]:
    """The entry points in registration order.

    forge's own plugins register first so a third party's tryfirst/trylast
    and its results sort after the built-ins deterministically.
    """
    return sorted(found, key=lambda entry: (entry.distribution != BUILTIN_DISTRIBUTION, entry.name))


def build_plugin_host(
    disabled: Iterable[str] = (),
    *,
    entry_points_: Iterable[EntryPoint] | None = None,
    extra_plugins: Iterable[tuple[str, object]] = (),
) -> PluginHost:
    """Build a fresh plugin manager with every ``forge`` entry point loaded.

    :param disabled: plugin (entry-point) names to leave unloaded; they are
        listed with status ``disabled`` and never imported.
    :param entry_points_: the entry points to load; default: every installed
        entry point of group ``forge`` (remembered between processes while the
        installed distributions stay the same: :mod:`forge.plugin_host.entry_points`).
    :param extra_plugins: ``(name, plugin)`` pairs registered after the entry
        points, for embedding forge (they are recorded like the rest).

    Never raises because of a plugin: import errors, registration errors and
    hook-signature errors are recorded as ``failed`` with a one-line reason.
    """
    pm = ModulePluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    host = PluginHost(pm, trace=os.environ.get("FORGE_TRACE_PLUGINS", "") not in {"", "0"})
    blocked = set(disabled)
    if entry_points_ is None:
        host._cache = open_cache(forge_home())
        found = host._cache.entry_points(ENTRY_POINT_GROUP)
    else:
        found = describe(entry_points_)
    ordered = _in_order(found)
    # Two entry points of one name: the first registered wins, so both load now.
    names = Counter(entry.name for entry in ordered if entry.name not in blocked)
    for entry_point in ordered:
        info = {
            "name": entry_point.name,
            "distribution": entry_point.distribution,
            "version": entry_point.version,
            "module": entry_point.value,
        }
        if entry_point.name in blocked:
            host._add(record(**info, status="disabled"))
            continue
        hooks = host._cache.hooks(entry_point.value) if host._cache is not None else None
        if hooks is not None and names[entry_point.name] == 1:
            host._defer(entry_point, info, hooks)
        else:
            host._add(host._load(entry_point, info))
    for name, plugin in extra_plugins:
        module = getattr(plugin, "__name__", type(plugin).__name__)
        info = {"name": name, "distribution": "(embedded)", "version": "", "module": module}
        host._add(host._register(name, plugin, info))
    host._save_cache()
    return host
