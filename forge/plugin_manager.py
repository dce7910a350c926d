"""Loading plugins from the ``forge`` entry-point group, and calling them safely.

forge owns its loader instead of ``pm.load_setuptools_entrypoints``: every
entry point is loaded and registered inside its own ``try``, so one broken
third-party package cannot stop forge, and forge keeps its own record of what
loaded, what was disabled and what failed (``forge plugins`` shows it).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import pluggy
from pydantic import Field

from forge import hookspecs
from forge.config import forge_home
from forge.entry_point_cache import FoundEntryPoint, cached_entry_points, describe
from forge.errors import clip
from forge.models import WireModel

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from forge.catalog import Catalog
    from forge.models import CheckDescriptor, PlanRuleDescriptor

ENTRY_POINT_GROUP = "forge"
#: Hooks that only declare what a plugin provides: ``forge plugins`` lists their
#: ids under ``declares``, and ``hooks`` lists the hooks that do the work.
DECLARATION_HOOKS = frozenset({"forge_checks", "forge_plan_rules"})
BUILTIN_DISTRIBUTION = "forge-validate"

logger = logging.getLogger("forge.plugins")


class PluginInfo(WireModel):
    """What ``forge plugins`` shows for one entry point of group ``forge``."""

    name: str
    distribution: str
    version: str
    module: str
    hooks: list[str] = Field(
        default_factory=list, description="Hooks it implements, declarations aside."
    )
    declares: list[str] = Field(
        default_factory=list, description="Check and plan-rule ids it declares."
    )
    status: Literal["loaded", "disabled", "failed"]
    error: str | None = None


T = TypeVar("T")


@dataclass(frozen=True)
class PluginProblem:
    """What a plugin provides that could not be used, and why (one line): a conflict, a raise."""

    plugin: str
    message: str


@dataclass(frozen=True)
class Returned(Generic[T]):
    """What one plugin's implementation of a hook gave, checked: its items, or its failure.

    ``failure`` completes the sentence "plugin <name> ...": ``raised
    ValueError: ...`` or ``returned something other than a list of CheckResult``.
    """

    plugin: str
    items: list[T] = field(default_factory=list)
    failure: str | None = None


@dataclass
class PluginHost:
    """A pluggy plugin manager plus forge's record of every entry point it saw."""

    pm: pluggy.PluginManager
    plugins: list[PluginInfo] = field(default_factory=list)
    trace: bool = False

    @property
    def failed(self) -> list[PluginInfo]:
        """Plugins whose import or registration failed."""
        return [info for info in self.plugins if info.status == "failed"]

    @cached_property
    def checks(self) -> Catalog[CheckDescriptor]:
        """Every check declared through ``forge_checks`` (built on first use, then kept)."""
        from forge.catalog import CORE_CHECKS, build_catalog
        from forge.models import CheckDescriptor

        return build_catalog(self, "forge_checks", CheckDescriptor, CORE_CHECKS)

    @cached_property
    def plan_rules(self) -> Catalog[PlanRuleDescriptor]:
        """Every plan rule declared through ``forge_plan_rules`` (built on first use)."""
        from forge.catalog import CORE_PLAN_RULES, build_catalog
        from forge.models import PlanRuleDescriptor

        return build_catalog(self, "forge_plan_rules", PlanRuleDescriptor, CORE_PLAN_RULES)

    def call(self, hook_name: str, returns: type[T], **kwargs: Any) -> Iterator[Returned[T]]:
        """Call every implementation of ``hook_name`` on its own, in pluggy's call order.

        Each implementation's return value is checked: ``None`` is no items, a
        list (or tuple) of ``returns`` is its items, anything else is its
        failure, and so is an exception, which never stops the others
        (pluggy's own hook call would stop at the first one). Every call is
        traced to stderr when ``FORGE_TRACE_PLUGINS`` is set.
        """
        caller = getattr(self.pm.hook, hook_name)
        # pluggy calls implementations last-registered first, tryfirst before
        # the rest; keep that order so tryfirst means the same here.
        for impl in reversed(caller.get_hookimpls()):
            name = impl.plugin_name
            started = time.perf_counter()
            try:
                value = impl.function(*(kwargs[arg] for arg in impl.argnames))
            except Exception as exc:  # a plugin's bug must not take forge down
                logger.debug("plugin %s raised in %s", name, hook_name, exc_info=True)
                outcome: Returned[T] = Returned(name, failure=f"raised {describe_exception(exc)}")
            else:
                outcome = _checked(name, value, returns)
            if self.trace:
                elapsed = (time.perf_counter() - started) * 1000
                print(
                    f"[forge trace] {hook_name} {name}: {outcome.failure or 'ok'} "
                    f"({elapsed:.1f} ms)",
                    file=sys.stderr,
                )
            yield outcome


def _checked(plugin: str, value: object, returns: type[T]) -> Returned[T]:
    if value is None:
        return Returned(plugin)
    if isinstance(value, list | tuple) and all(isinstance(item, returns) for item in value):
        return Returned(plugin, items=list(value))
    return Returned(plugin, failure=f"returned something other than a list of {returns.__name__}")


def describe_exception(exc: BaseException) -> str:
    """``TypeName: message`` on one line, short enough to show in a result."""
    text = clip(" ".join(str(exc).split()), 300)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


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
        installed distributions stay the same: :mod:`forge.entry_point_cache`).
    :param extra_plugins: ``(name, plugin)`` pairs registered after the entry
        points, for embedding forge (they are recorded like the rest).

    Never raises because of a plugin: import errors, registration errors and
    hook-signature errors are recorded as ``failed`` with a one-line reason.
    """
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    host = PluginHost(pm=pm, trace=os.environ.get("FORGE_TRACE_PLUGINS", "") not in {"", "0"})
    blocked = set(disabled)
    if entry_points_ is None:
        found = cached_entry_points(ENTRY_POINT_GROUP, forge_home())
    else:
        found = describe(entry_points_)
    for entry_point in _in_order(found):
        info = {
            "name": entry_point.name,
            "distribution": entry_point.distribution,
            "version": entry_point.version,
            "module": entry_point.value,
        }
        if entry_point.name in blocked:
            host.plugins.append(PluginInfo(**info, status="disabled"))
            continue
        try:
            plugin = entry_point.load()
        except Exception as exc:  # an uninstallable plugin must not stop forge
            host.plugins.append(
                PluginInfo(
                    **info, status="failed", error=f"import failed: {describe_exception(exc)}"
                )
            )
            continue
        host.plugins.append(_register(pm, entry_point.name, plugin, info))
    for name, plugin in extra_plugins:
        module = getattr(plugin, "__name__", type(plugin).__name__)
        info = {"name": name, "distribution": "(embedded)", "version": "", "module": module}
        host.plugins.append(_register(pm, name, plugin, info))
    return host


def _register(
    pm: pluggy.PluginManager, name: str, plugin: object, info: dict[str, str]
) -> PluginInfo:
    if pm.has_plugin(name):
        owner = pm.get_plugin(name)
        return PluginInfo(
            **info,
            status="failed",
            error=f"name {name!r} is already taken by {getattr(owner, '__name__', owner)!r}",
        )
    try:
        pm.register(plugin, name=name)
    except Exception as exc:  # e.g. PluginValidationError: a hook argument not in the spec
        return PluginInfo(**info, status="failed", error=f"rejected: {describe_exception(exc)}")
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
        return PluginInfo(
            **info,
            status="failed",
            error=f"rejected: {', '.join(wrappers)} is a hook wrapper, which forge does not "
            "support (drop wrapper=True/hookwrapper=True)",
        )
    hooks = sorted(caller.name for caller in callers if caller.name not in DECLARATION_HOOKS)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        pm.unregister(plugin)
        return PluginInfo(**info, status="failed", error=f"rejected: {describe_exception(exc)}")
    return PluginInfo(**info, hooks=hooks, status="loaded")
