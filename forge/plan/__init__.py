"""Plans: the format (:class:`Plan`), its validation (:func:`check_plan`), its execution order.

A plan is what a planner agent writes to ``.forge/plans/<name>.json``: the
modules of an objective, each with its files, verify commands and
dependencies. :func:`check_plan` runs forge's ``schema`` step and then every
plan-rule plugin (hook ``forge_check_plan``), and returns a
:class:`PlanReport`. :func:`execution_layers` gives the modules in the waves
they can run in. :mod:`~forge.plan.lanes`: the files a module may change (its
``files``, ``mayChange`` globs, minus ``disallowed_changes``) against what its
working dir changed since the base; the ``lane_check`` check reports the rest.
"""

from __future__ import annotations

from forge.plan.check import PlanReport, check_plan
from forge.plan.graph import DependencyGraph, execution_layers
from forge.plan.model import Plan, PlanModule, TechStack, plan_json_schema

__all__ = [
    "DependencyGraph",
    "Plan",
    "PlanModule",
    "PlanReport",
    "TechStack",
    "check_plan",
    "execution_layers",
    "plan_json_schema",
]
