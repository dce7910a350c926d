"""The records forge keeps of its plugins: what each entry point is, and what its hooks gave.

:class:`PluginInfo` is a line of ``forge plugins``; :class:`Returned` is one
plugin's answer to one hook call, checked (:func:`checked`); a
:class:`PluginProblem` is something a plugin provides that could not be used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import Field

from forge.errors import clip
from forge.models import WireModel

ENTRY_POINT_GROUP = "forge"
BUILTIN_DISTRIBUTION = "forge-validate"


class PluginInfo(WireModel):
    """What ``forge plugins`` shows for one entry point of group ``forge``."""

    name: str
    distribution: str
    version: str
    module: str
    hooks: list[str] = Field(
        default_factory=list, description="Every hook it implements, declarations included."
    )
    declares: list[str] = Field(
        default_factory=list, description="Check and plan-rule ids it declares."
    )
    status: Literal["loaded", "disabled", "failed"]
    error: str | None = None
    tools: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Programs it runs for the project (forge_tools): language, name, version.",
    )


def record(**fields: Any) -> PluginInfo:
    """A :class:`PluginInfo` of forge's own making, not validated: building the model's
    validator would cost every command milliseconds, and only ``forge plugins``
    serialises these records."""
    # Every field given: a default_factory would cost pydantic an inspect.signature call.
    return PluginInfo.model_construct(
        **{"hooks": [], "declares": [], "error": None, "tools": [], **fields}
    )


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


def checked(plugin: str, values: list[object], returns: type[T]) -> Returned[T]:
    """``plugin``'s answer from what pluggy's call of its implementation gave (its non-None
    return values): their items when each is a list (or tuple) of ``returns``."""
    items: list[T] = []
    for value in values:
        if not isinstance(value, list | tuple) or not all(isinstance(i, returns) for i in value):
            return Returned(
                plugin, failure=f"returned something other than a list of {returns.__name__}"
            )
        items.extend(value)
    return Returned(plugin, items=items)


def describe_exception(exc: BaseException) -> str:
    """``TypeName: message`` on one line, short enough to show in a result."""
    text = clip(" ".join(str(exc).split()), 300)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
