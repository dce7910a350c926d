"""forge's built-in plan rules, one module each.

Each module ends in its ``forge_check_plan`` implementation and is registered
through the ``forge`` entry-point group in forge's ``pyproject.toml``, exactly
like a third-party rule; the entry-point name is what users write to disable
it (``FORGE_DISABLE_PLUGINS=file_overlap``). The structural ``schema`` step is
not a rule: it runs before them (:mod:`forge.plan.loader`).
"""

from __future__ import annotations


def module_label(module_id: str) -> str:
    """How findings name a module: ``module "api"``."""
    return f'module "{module_id}"'
