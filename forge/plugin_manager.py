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
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from forge import hookspecs
from forge.errors import clip
from forge.models import PluginInfo

ENTRY_POINT_GROUP = "forge"
BUILTIN_DISTRIBUTION = "forge-validate"

logger = logging.getLogger("forge.plugins")


@dataclass(frozen=True)
class HookOutcome:
    """What one plugin's implementation of a hook gave: a value, or the error it raised."""

    plugin: str
    value: Any = None
    error: str | None = None


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

    def call_each(self, hook_name: str, **kwargs: Any) -> Iterator[HookOutcome]:
        """Call every implementation of ``hook_name`` on its own, in pluggy's call order.

        An implementation that raises yields a :class:`HookOutcome` with the
        error text instead of stopping the others (pluggy's own hook call
        would stop at the first exception).
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
                outcome = HookOutcome(plugin=name, error=describe_exception(exc))
            else:
                outcome = HookOutcome(plugin=name, value=value)
            if self.trace:
                elapsed = (time.perf_counter() - started) * 1000
                status = f"raised {outcome.error}" if outcome.error else "ok"
                print(
                    f"[forge trace] {hook_name} {name}: {status} ({elapsed:.1f} ms)",
                    file=sys.stderr,
                )
            yield outcome


def describe_exception(exc: BaseException) -> str:
    """``TypeName: message`` on one line, short enough to show in a result."""
    text = clip(" ".join(str(exc).split()), 300)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _described(found: Iterable[EntryPoint]) -> list[tuple[EntryPoint, str, str]]:
    """Each entry point with its distribution's name and version, in registration order.

    forge's own plugins register first so a third party's tryfirst/trylast
    and its results sort after the built-ins deterministically. A
    distribution's metadata is parsed once, however many entry points it has
    (parsing it is most of the cost of loading plugins).
    """
    metadata: dict[object, tuple[str, str]] = {}
    described: list[tuple[EntryPoint, str, str]] = []
    for entry_point in found:
        dist = entry_point.dist
        if dist is None:
            name, version = "?", "?"
        else:
            if dist not in metadata:
                fields = dist.metadata
                metadata[dist] = (fields["Name"], fields["Version"])
            name, version = metadata[dist]
        described.append((entry_point, name, version))
    described.sort(key=lambda item: (item[1] != BUILTIN_DISTRIBUTION, item[0].name))
    return described


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
        entry point of group ``forge``.
    :param extra_plugins: ``(name, plugin)`` pairs registered after the entry
        points, for embedding forge (they are recorded like the rest).

    Never raises because of a plugin: import errors, registration errors and
    hook-signature errors are recorded as ``failed`` with a one-line reason.
    """
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    host = PluginHost(pm=pm, trace=os.environ.get("FORGE_TRACE_PLUGINS", "") not in {"", "0"})
    blocked = set(disabled)
    found = entry_points(group=ENTRY_POINT_GROUP) if entry_points_ is None else entry_points_
    for entry_point, distribution, version in _described(found):
        info = {
            "name": entry_point.name,
            "distribution": distribution,
            "version": version,
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
    hooks = sorted(caller.name for caller in pm.get_hookcallers(plugin) or ())
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        pm.unregister(plugin)
        return PluginInfo(**info, status="failed", error=f"rejected: {describe_exception(exc)}")
    return PluginInfo(**info, hooks=hooks, status="loaded")
