"""A plugin's options: ``[tool.forge.<name>]`` overlaid by the request's ``pluginOptions.<name>``.

A plugin subclasses :class:`PluginOptions` with its fields and reads them with
:meth:`forge.workspace.Workspace.plugin_options`: keys may be written
kebab-case, snake_case or camelCase, and an unknown key is an error that names
where it came from, as for forge's own plugins.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import AliasChoices, AliasGenerator, BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel, to_snake

from forge.validation_errors import describe_validation_error


def _spellings(name: str) -> AliasChoices:
    return AliasChoices(name, name.replace("_", "-"), to_camel(name))


class PluginOptions(BaseModel):
    """Base of a plugin's options model: any spelling of a key, no unknown key, frozen."""

    model_config = ConfigDict(
        alias_generator=AliasGenerator(validation_alias=_spellings),
        extra="forbid",
        frozen=True,
        defer_build=True,
    )


class PluginOptionsError(ValueError):
    """Options that do not validate: the message says where they came from and what is wrong."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        #: ``[tool.forge.<name>]`` or ``pluginOptions.<name>``: where the bad key is.
        self.source = source


Options = TypeVar("Options", bound=PluginOptions)


def parse_plugin_options(model: type[Options], raw: dict[str, Any], source: str) -> Options:
    """``raw`` validated as ``model``; :class:`PluginOptionsError` names ``source`` and each bad key.

    The message is one line of bounded length whatever the options hold.
    """
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise PluginOptionsError(
            source, describe_validation_error(exc, subject="options")
        ) from None


def overlay(
    model: type[PluginOptions], table: dict[str, Any], per_call: dict[str, Any]
) -> dict[str, Any]:
    """``per_call`` over ``table``, a key of ``model`` matched whatever its spelling.

    ``max-level`` in the table and ``maxLevel`` in the call are one option: the
    call's wins, rather than both reaching the model (which refuses a key given
    twice). Keys keep their spelling, so an error names the key as written.
    """

    def field(key: str) -> str:
        name = to_snake(key.replace("-", "_"))
        return name if name in model.model_fields else key

    overridden = {field(key) for key in per_call}
    return {**{k: v for k, v in table.items() if field(k) not in overridden}, **per_call}
