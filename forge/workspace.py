"""The workspace one validate call shares between all checks.

It resolves paths against the working dir, hands each plugin its options,
and (with the syntax issue) holds the parse cache, so a file is read and
parsed at most once per call whichever checks look at it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from forge.config import ForgeConfig


class Workspace:
    """Working dir, project config and shared caches for one validate call."""

    def __init__(
        self,
        cwd: Path,
        *,
        config: ForgeConfig,
        plugin_options: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.cwd = cwd
        self.config = config
        self._plugin_options = plugin_options or {}

    def resolve(self, file: str) -> Path:
        """``file`` as an absolute path: relative paths are taken from the working dir."""
        path = Path(file).expanduser()
        return path if path.is_absolute() else self.cwd / path

    def display(self, path: Path) -> str:
        """``path`` relative to the working dir when inside it, for messages."""
        try:
            return path.relative_to(self.cwd).as_posix()
        except ValueError:
            return str(path)

    def options(self, plugin: str) -> dict[str, Any]:
        """Settings for ``plugin``: ``[tool.forge.<plugin>]`` overlaid with per-call options."""
        merged = self.config.plugin_config(plugin)
        merged.update(self._plugin_options.get(plugin, {}))
        return merged
