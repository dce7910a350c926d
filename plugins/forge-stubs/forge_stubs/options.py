"""The plugin's options: ``[tool.forge.stubs]`` overlaid by per-call ``pluginOptions.stubs``.

Keys may be written in kebab-case (TOML's habit: ``marker-scope``),
snake_case or camelCase (JSON's: ``markerScope``). Unknown keys are errors,
so a typo is reported instead of silently ignored.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import Field, field_validator

from forge.models import PluginOptions
from forge_stubs.models import Kind

#: The plugin's name: its entry-point name, its config table, its pluginOptions key.
PLUGIN_NAME = "stubs"

#: Decorators that always exempt a Python function: the body is a declaration
#: (abstract members, overloads, hook specifications), or the decorator gives
#: an empty body its meaning (CLI groups and callbacks, pytest fixtures, pytest-bdd
#: scenarios, whose steps are the test, event
#: handlers and signal receivers). Matched by last name: ``@click.group()``.
EXEMPT_DECORATORS = (
    "abstractmethod",
    "abstractproperty",
    "abstractclassmethod",
    "abstractstaticmethod",
    "overload",
    "type_check_only",
    "hookspec",
    "group",
    "callback",
    "fixture",
    "scenario",
    "event",
    "on",
    "on_event",
    "receiver",
    "listens_for",
)


class StubOptions(PluginOptions):
    """What ``stub_check`` looks for and what it leaves alone."""

    markers: tuple[str, ...] = Field(
        default=("TODO", "FIXME", "XXX"),
        description="Comment markers (case-sensitive, whole words) that can flag a comment.",
    )
    marker_scope: Literal["implementation", "all"] = Field(
        default="implementation",
        description=(
            "'implementation': a marker comment is a finding when it asks for an "
            "implementation ('TODO: implement', a bare 'TODO'); 'all': every marker comment."
        ),
    )
    intentional: tuple[str, ...] = Field(
        default=(
            "intentionally empty",
            "intentionally left empty",
            "intentionally blank",
            "no-op",
            "noop",
            "no operation",
            "pragma: no cover",
            "does nothing",
            "do nothing",
            "nothing happens by default",
            "by default nothing happens",
            "by default, nothing happens",
            "nothing to do",
            "override",
            "overridden",
        ),
        description=(
            "Comment or docstring text (case-insensitive) that marks a function's placeholder "
            "body as deliberate, inside the function or on the line above it, and a module "
            "without code as empty on purpose."
        ),
    )
    ignore: tuple[str, ...] = Field(
        default=(),
        description=(
            "fnmatch patterns of files not to check, matched against the path as listed and "
            "relative to the working dir ('*' also matches '/')."
        ),
    )
    ignore_kinds: tuple[Kind, ...] = Field(default=(), description="Kinds not to report.")
    ignore_decorators: tuple[str, ...] = Field(
        default=(),
        description=(
            "More decorators that exempt a Python function, by name or dotted name; "
            f"{', '.join(EXEMPT_DECORATORS)} always do."
        ),
    )

    @field_validator("markers", "intentional", "ignore", "ignore_decorators")
    @classmethod
    def _no_blank_entries(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        for value in values:
            if not value.strip():
                raise ValueError("entries must not be blank")
        return values

    @cached_property
    def identity(self) -> str:
        """The options as one string, for keys: cheaper to hash and compare than the model."""
        return self.model_dump_json()

    @property
    def exempt_decorators(self) -> frozenset[str]:
        """Every decorator name that exempts a function, built-in ones included."""
        return frozenset(EXEMPT_DECORATORS) | frozenset(self.ignore_decorators)
