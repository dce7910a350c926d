"""Plans: the format (:class:`Plan`), its validation (:func:`check_plan`), its execution order.

A plan is what a planner agent writes to ``.forge/plans/<name>.json``: the
modules of an objective, each with its files, verify commands and
dependencies. :func:`forge.plan.check.check_plan` runs forge's ``schema`` step and then every
plan-rule plugin (hook ``forge_check_plan``), and returns a
:class:`PlanReport`. :func:`execution_layers` gives the modules in the waves
they can run in. :mod:`~forge.plan.lanes`: the files a module may change (its
``files``, ``mayChange`` globs, minus ``disallowed_changes``) against what its
working dir changed since the base; the ``lane_check`` check reports the rest.

The package gives the plan's format (what a plan rule receives): :class:`Plan`,
:class:`PlanModule`, the dependency graph. The plan check is imported from
:mod:`forge.plan.check`, so reading a plan's globs or lanes loads no plan check.
"""

from __future__ import annotations

from forge.plan.graph import DependencyGraph, execution_layers
from forge.plan.model import Plan, PlanModule, TechStack, plan_json_schema

__all__ = [
    "DependencyGraph",
    "Plan",
    "PlanModule",
    "TechStack",
    "execution_layers",
    "plan_json_schema",
]
