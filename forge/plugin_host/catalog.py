"""What checks and plan rules exist, as their plugins declare them.

Each check plugin returns :class:`forge.models.CheckDescriptor` from
``forge_checks`` (each plan-rule plugin :class:`forge.models.PlanRuleDescriptor`
from ``forge_plan_rules``), beside the check's code. Everything forge shows
about a check derives from its descriptor: the order results are listed in,
whether a failure halts the rest, whether its target is a file, SARIF rule
descriptions, ``forge plugins``. Ids are unique: a second plugin declaring a
taken id is a problem naming both plugins, and its declaration is not used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Set
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Generic, TypeVar

from forge.models import CheckDescriptor, PlanRuleDescriptor
from forge.plugin_host.records import PluginProblem

if TYPE_CHECKING:
    from forge.plugin_host.host import PluginHost

#: The owner shown for what the core itself reports (plugin failures, plan schema).
CORE = "forge"
#: Where results of a type nobody declared are shown: after every declared one.
UNDECLARED_ORDER = 1_000_000


def core_checks() -> tuple[CheckDescriptor, ...]:
    """Results the core produces itself: a plugin that failed to load, raised, or conflicts,
    and the plan module's acceptance criteria (judged after every check has run)."""
    # Functions, not constants: a descriptor built at import would build its
    # model's validator in every command, ``forge plan check`` included.
    return (
        CheckDescriptor(
            id="plugin_error", summary="A plugin loaded and ran without raising.", order=10
        ),
        CheckDescriptor(
            id="acceptance",
            summary="An acceptance criterion of the plan module holds: its command gives the "
            "expected exit code, or every result of the forge check it names passed.",
            order=60,
        ),
    )


def core_plan_rules() -> tuple[PlanRuleDescriptor, ...]:
    """Findings the core produces itself, before any rule runs."""
    return (
        PlanRuleDescriptor(
            id="schema", summary="The plan is readable JSON with every required field.", order=0
        ),
        PlanRuleDescriptor(
            id="plugin_error",
            summary="A plan-rule plugin loaded and ran without raising.",
            order=1,
        ),
    )


D = TypeVar("D", CheckDescriptor, PlanRuleDescriptor)


@dataclass
class Catalog(Generic[D]):
    """Every declared id, its descriptor and the plugin that declared it."""

    descriptors: dict[str, D] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)

    def get(self, type_: str) -> D | None:
        """The descriptor of ``type_``, or ``None`` when no plugin declared it."""
        return self.descriptors.get(type_)

    def rank(self, type_: str) -> int:
        """The display rank of ``type_``: its declared order, undeclared ones last."""
        found = self.descriptors.get(type_)
        return found.order if found is not None else UNDECLARED_ORDER

    def summary(self, type_: str) -> str:
        """One sentence on what a passing ``type_`` means."""
        found = self.descriptors.get(type_)
        return found.summary if found is not None else f"Check {type_} passes."

    def by_plugin(self) -> dict[str, list[str]]:
        """The ids each plugin declared, sorted."""
        grouped: dict[str, list[str]] = {}
        for type_, owner in sorted(self.owners.items()):
            grouped.setdefault(owner, []).append(type_)
        return grouped


def build_catalog(
    host: PluginHost,
    hook_name: str,
    returns: type[D],
    core: tuple[D, ...],
    *,
    runs: str | None = None,
) -> Catalog[D]:
    """The catalog of ``hook_name``'s declarations, the core's first, then in registration order.

    :param runs: the hook that does the declared work (``forge_run_checks``): a
        loaded plugin that implements it but declares nothing is a problem
        (convention 8: every check id is declared by its plugin).
    """
    catalog: Catalog[D] = Catalog()
    offered = [(CORE, descriptor) for descriptor in core]
    for returned in reversed(list(host.call(hook_name, returns))):
        if returned.failure is not None:
            catalog.problems.append(
                PluginProblem(returned.plugin, f"{hook_name} {returned.failure}")
            )
        else:
            host.learn_declared(hook_name, returned.plugin, [item.id for item in returned.items])
        offered.extend((returned.plugin, descriptor) for descriptor in returned.items)
    for plugin, descriptor in offered:
        owner = catalog.owners.get(descriptor.id)
        if owner is not None:
            catalog.problems.append(
                PluginProblem(
                    plugin,
                    f"{hook_name}: id {descriptor.id!r} is already declared by {owner}; "
                    f"{plugin}'s declaration is not used (rename one of them)",
                )
            )
            continue
        catalog.descriptors[descriptor.id] = descriptor
        catalog.owners[descriptor.id] = plugin
    if runs is not None:
        declaring = set(catalog.owners.values()) | {problem.plugin for problem in catalog.problems}
        catalog.problems.extend(
            PluginProblem(
                info.name,
                f"implements {runs} but declares no check id: return a CheckDescriptor for "
                f"each result type it gives from {hook_name}",
            )
            for info in host.plugins
            if info.status == "loaded" and runs in info.hooks and info.name not in declaring
        )
    return catalog


class KnownChecks(Set[str]):
    """The ids of the checks validate would judge here, as plan rules receive them.

    A set read lazily: the ids are found the first time it is read (which may
    import the check plugins), so a rule that has nothing to look up costs
    nothing. The core's ``acceptance`` is no criterion's check (validate runs a
    criterion so named as a command), so it is left out.
    """

    def __init__(self, load: Callable[[], frozenset[str]], disabled: Iterable[str] = ()) -> None:
        self._load = load
        #: Plugins disabled here (``FORGE_DISABLE_PLUGINS``, ``[tool.forge] disable``):
        #: the checks they would declare are unknown, and a message may say why.
        self.disabled = tuple(disabled)

    @cached_property
    def _ids(self) -> frozenset[str]:
        return self._load() - {"acceptance"}

    def __contains__(self, item: object) -> bool:
        return item in self._ids

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._ids))

    def __len__(self) -> int:
        return len(self._ids)
