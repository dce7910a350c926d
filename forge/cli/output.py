"""Small helpers shared by the subcommands: request models built from their flags."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel


M = TypeVar("M", bound="BaseModel")


def build_request(
    model: type[M],
    args: argparse.Namespace,
    *,
    flags: Mapping[str, str] | None = None,
    **overrides: Any,
) -> M:
    """A tool's request model from the parsed flags named like its fields (and ``overrides``).

    The CLI builds the same request models as the MCP tools, so every limit is
    checked in one place; a bad value is a usage error (exit 2) naming the flag
    the user typed: ``max_attempts`` is ``--max-attempts``, and ``flags`` names
    the others (``{"commands": "--command"}``).
    """
    from pydantic import ValidationError

    from forge.errors import UsageError
    from forge.validation_errors import describe_validation_error

    values = {name: getattr(args, name) for name in model.model_fields if hasattr(args, name)}
    try:
        return model(**values | overrides)
    except ValidationError as exc:
        raise UsageError(describe_validation_error(exc, names=flag_names(model, flags))) from None


def flag_names(model: type[BaseModel], flags: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each field of ``model`` as the CLI spells its flag: ``--`` and dashes, unless ``flags``
    says otherwise."""
    return {name: "--" + name.replace("_", "-") for name in model.model_fields} | dict(flags or {})
