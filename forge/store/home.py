"""Where user-wide state lives (global memory, caches, the daemon's folder): ``FORGE_HOME``."""

from __future__ import annotations

import os
from pathlib import Path


def forge_home() -> Path:
    """Where user-wide state lives: ``FORGE_HOME``, else ``$XDG_DATA_HOME/forge``."""
    if home := os.environ.get("FORGE_HOME"):
        return Path(home).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "forge"


def global_memory_file() -> Path:
    """``$FORGE_HOME/memory/global.jsonl``: memory shared by every project of the user."""
    return forge_home() / "memory" / "global.jsonl"
