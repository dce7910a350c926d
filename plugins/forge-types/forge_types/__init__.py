"""forge-types: a forge plugin that runs real type checkers and fails what a change broke.

The check ``type_check`` runs the project's type checker (Python: pyrefly,
pinned, or the checker the project configures; TypeScript: the project's own
``tsc`` from ``node_modules``) over a module's files and the files that import
them, with the project's configuration and environment. With a base revision
only the diagnostics the change introduced fail; without one, only the rules
that mean the code cannot run as written do. The hook implementations are in
:mod:`forge_types.plugin`.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
