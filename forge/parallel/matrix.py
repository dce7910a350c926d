"""A plan's execution layers as CI matrices: CI runs the modules of a layer side by side.

forge has no scheduler of its own past one machine: CI is the engine. A
workflow asks ``forge plan matrix`` for the layers, runs one job per module of
the first layer, then of the next (its ``needs``), each job validating its
module (``forge validate --plan PLAN --module ID --json``), and merges the
per-job reports at the end (``forge report merge``).

Two shapes: plain JSON (``{"plan", "layers": [[ids]], "modules": {id: ...}}``)
for any CI, and GitHub Actions' ``strategy.matrix`` objects
(``{"count": N, "layers": [{"include": [{"module", "title", "layer"}]}]}``)
to read with ``fromJSON``. Layers are numbered from 1, as people count them.
"""

from __future__ import annotations

from typing import Any

from forge.plan.model import Plan, PlanModule


def plain_matrix(plan: Plan, plan_path: str | None) -> dict[str, Any]:
    """The layers as id lists, and each scheduled module's title, dependencies and layer."""
    layers = plan.graph.layers()
    by_id: dict[str, PlanModule] = {}
    for module in plan.modules:
        by_id.setdefault(module.id, module)
    return {
        "plan": plan_path,
        "count": len(layers),
        "layers": layers,
        "modules": {
            module_id: {
                "title": by_id[module_id].title,
                "dependsOn": list(by_id[module_id].depends_on),
                "layer": number,
            }
            for number, layer in enumerate(layers, start=1)
            for module_id in layer
        },
    }


def github_matrix(plan: Plan) -> dict[str, Any]:
    """Each layer as a GitHub Actions matrix (``include`` entries), and how many layers there are.

    A job of layer N reads ``fromJSON(needs.plan.outputs.matrix).layers[N - 1]``
    and runs only when ``count >= N``: a matrix with no entry is an error in
    GitHub Actions, so a plan with fewer layers than the workflow skips the rest.
    """
    titles: dict[str, str] = {}
    for module in plan.modules:
        titles.setdefault(module.id, module.title)
    layers = plan.graph.layers()
    return {
        "count": len(layers),
        "layers": [
            {
                "include": [
                    {"module": module_id, "title": titles[module_id], "layer": number}
                    for module_id in layer
                ]
            }
            for number, layer in enumerate(layers, start=1)
        ],
    }
