"""The records forge keeps of its plugins: what each entry point is, and what its hooks gave.

:class:`PluginInfo` is a line of ``forge plugins``; :class:`Returned` is one
plugin's answer to one hook call, checked (:func:`checked`); a
:class:`PluginProblem` is something a plugin provides that could not be used.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, Literal, TypeVar

import pluggy
from pydantic import Field

from forge.errors import clip, close_names, did_you_mean
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
    raised_at: str | None = Field(
        default=None, description="Failed on import: the plugin's file:line that raised."
    )
    traceback: list[str] = Field(
        default_factory=list, description="Failed on import: the traceback's last frames."
    )
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
        **{
            "hooks": [],
            "declares": [],
            "error": None,
            "raised_at": None,
            "traceback": [],
            "tools": [],
            **fields,
        }
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
    ValueError: ... (at /site/x.py:12)`` or ``returned something other than a list of
    CheckResult (got dict: {...})``. A raise also keeps where (``raised_at``) and the
    traceback's last frames (``frames``).
    """

    plugin: str
    items: list[T] = field(default_factory=list)
    failure: str | None = None
    raised_at: str | None = None
    frames: tuple[str, ...] = ()


def checked(plugin: str, values: list[object], returns: type[T]) -> Returned[T]:
    """``plugin``'s answer from what pluggy's call of its implementation gave (its non-None
    return values): their items when each is a list (or tuple) of ``returns``."""
    items: list[T] = []
    for value in values:
        if not isinstance(value, list | tuple) or not all(isinstance(i, returns) for i in value):
            return Returned(
                plugin,
                failure=f"returned something other than a list of {returns.__name__} "
                f"(got {_shape(value, returns)})",
            )
        items.extend(value)
    return Returned(plugin, items=items)


def _shape(value: object, returns: type) -> str:
    """What came back instead, in short: its type and a clipped repr (the first wrong item
    of a list)."""
    if isinstance(value, list | tuple):
        wrong = next(item for item in value if not isinstance(item, returns))
        return f"a {type(value).__name__} holding {_shape(wrong, returns)}"
    return f"{type(value).__name__}: {clip(repr(value), 120)}"


#: Frames of a plugin's traceback kept: its last ones.
MAX_FRAMES = 6


def raised_by(name: str, plugin: object, exc: Exception) -> Returned[Any]:
    """Plugin ``name``'s failure by ``exc``: what, where in the plugin, and the last frames."""
    module = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
    at, frames = raised_in(exc, module)
    where = f" (at {at})" if at else ""
    return Returned(
        name, failure=f"raised {describe_exception(exc)}{where}", raised_at=at, frames=frames
    )


def hook_meant(exc: Exception, specs: ModuleType) -> str:
    """`` (did you mean 'forge_run_checks'?)`` when ``exc`` (pluggy's) names an unknown hook
    spelt like one of the hooks ``specs`` declares."""
    unknown = re.search(r"unknown hook '([^']+)'", str(exc))
    if unknown is None:
        return ""
    names = [name for name in vars(specs) if name.startswith("forge_")]
    return did_you_mean(close_names(unknown.group(1), names))


def raised_in(exc: BaseException, module: str) -> tuple[str | None, tuple[str, ...]]:
    """Where in the plugin of module ``module`` ``exc`` was raised (``file:line`` of the
    innermost frame in the plugin's own files, else the innermost frame), and the
    traceback's last frames (``file:line in function: source``) below forge's machinery."""
    # The machinery between forge and a plugin: forge's host, pluggy, the import system.
    folders = (Path(pluggy.__file__ or ""), Path(importlib.__file__ or ""), Path(__file__))
    machinery = (*(f"{folder.parent}/" for folder in folders), "<frozen importlib")
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if not frame.filename.startswith(machinery)
    ]
    if not frames:
        return None, ()
    own = _files_of(module)
    inside = [f for f in frames if any(f.filename == o or f.filename.startswith(o) for o in own)]
    at = (inside or frames)[-1]
    shown = tuple(
        f"{f.filename}:{f.lineno} in {f.name}" + (f": {f.line.strip()}" if f.line else "")
        for f in frames[-MAX_FRAMES:]
    )
    return f"{at.filename}:{at.lineno}", shown


def _files_of(module: str) -> list[str]:
    """The file of the top-level module ``module`` belongs to, or its package's folders."""
    top = module.split(":", 1)[0].split(".", 1)[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [str(Path(folder)) + "/" for folder in spec.submodule_search_locations]
    return [spec.origin] if spec.origin else []


def describe_exception(exc: BaseException) -> str:
    """``TypeName: message`` on one line, short enough to show in a result."""
    text = clip(" ".join(str(exc).split()), 300)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
