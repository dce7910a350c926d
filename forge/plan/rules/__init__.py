"""forge's built-in plan rules, one module each.

Each module ends in its ``forge_check_plan`` implementation and is registered
through the ``forge`` entry-point group in forge's ``pyproject.toml``, exactly
like a third-party rule; the entry-point name is what users write to disable
it (``FORGE_DISABLE_PLUGINS=file_overlap``). The structural ``schema`` step is
not a rule: it runs before them (:mod:`forge.plan.loader`).
"""

from __future__ import annotations

from collections.abc import Sequence


def module_label(module_id: str) -> str:
    """How findings name a module: ``module "api"``."""
    return f'module "{module_id}"'


def modules_label(module_ids: Sequence[str], shown: int = 3) -> str:
    """How one finding about several modules names them: ``modules "a", "b" and 7 more``.

    A single module reads as :func:`module_label` does; the finding's ``modules``
    lists every id, so the message names only the first ``shown``.
    """
    if len(module_ids) == 1:
        return module_label(module_ids[0])
    quoted = [f'"{module_id}"' for module_id in module_ids[:shown]]
    if len(module_ids) > shown:
        return f"modules {', '.join(quoted)} and {len(module_ids) - shown} more"
    return f"modules {', '.join(quoted[:-1])} and {quoted[-1]}"
