"""The plugin's options: ``[tool.forge.types]`` overlaid by per-call ``pluginOptions.types``.

Keys may be kebab-case, snake_case or camelCase; unknown keys are errors.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from forge.models import PluginOptions

#: The plugin's name: its entry-point name, its config table, its pluginOptions key.
PLUGIN_NAME = "types"


class TypesOptions(PluginOptions):
    """Which checkers run, on what, for how long."""

    languages: tuple[Literal["python", "typescript"], ...] = Field(
        default=("python", "typescript"), description="Languages to type-check ([] turns it off)."
    )
    python_checker: Literal["pyrefly", "mypy", "ty", "basedpyright", "pyright"] | None = Field(
        default=None,
        description="The Python checker to run; default: the one the project configures when "
        "it is installed, else pyrefly (pinned).",
    )
    python: str | None = Field(
        default=None,
        description="The project's Python interpreter; default: .venv, venv or env in the "
        "working dir, else what the checker finds.",
    )
    max_importers: int = Field(
        default=50, ge=0, le=2000, description="Importers of the listed files checked, at most."
    )
    timeout: float = Field(default=300.0, gt=0, le=3600, description="Seconds per checker run.")
