"""``forge plugins``: what was found under the ``forge`` entry-point group, and its state."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from forge.cli.subcommand import add_command, add_json_flag, out, print_json
from forge.reporting.terminal import table

if TYPE_CHECKING:
    from pathlib import Path

    from forge.languages import LanguageRegistry
    from forge.plugin_host.host import PluginHost


USAGE = """\
list plugins: name, distribution, version, hooks, declared checks, status

List every plugin of the 'forge' entry-point group and whether it loaded.

examples:
  forge plugins
  FORGE_DISABLE_PLUGINS=command forge plugins --json
"""


def register(subparsers: Any) -> None:
    """Add ``forge plugins`` to the parser."""
    parser = add_command(subparsers, "plugins", USAGE, run=run)
    add_json_flag(parser, "the plugins")


def run(args: argparse.Namespace) -> int:
    """Print the plugin table and the languages; exit 1 when any plugin failed."""
    from forge.config import disabled_plugins, load_config, project_root
    from forge.languages import LanguageRegistry
    from forge.plugin_host.host import build_plugin_host

    host = build_plugin_host(disabled_plugins(load_config(project_root())))
    host.load_all()  # every plugin imported, whichever hooks it implements
    registry = LanguageRegistry.from_plugins(host)
    errors: dict[str, list[str]] = {}
    declared: dict[str, list[str]] = {}
    for catalog in (host.checks, host.plan_rules):
        for plugin, ids in catalog.by_plugin().items():
            declared.setdefault(plugin, []).extend(ids)
    problems = [*host.checks.problems, *host.plan_rules.problems, *registry.problems]
    for problem in problems:
        errors.setdefault(problem.plugin, []).append(problem.message)
    tools = _tools(host, project_root(), errors)
    infos = [
        info.model_copy(
            update={
                "tools": tools.get(info.name, []),
                "declares": sorted(declared.get(info.name, [])),
                "error": "; ".join(errors[info.name])
                if info.name in errors and info.error is None
                else info.error,
            }
        )
        for info in host.plugins
    ]
    if args.json:
        print_json([info.to_wire() for info in infos])
    else:
        rows = [
            [
                info.name,
                info.distribution,
                info.version,
                ", ".join(info.hooks) or "-",
                info.status if info.error is None else f"{info.status}: {info.error}",
            ]
            for info in infos
        ]
        out(table(["NAME", "DISTRIBUTION", "VERSION", "HOOKS", "STATUS"], rows))
        out(f"checks: {', '.join(sorted(host.checks.descriptors))}")
        out(f"plan rules: {', '.join(sorted(host.plan_rules.descriptors))}")
        out(_languages_line(registry))
        out(_deciders(registry))
        if tools:
            out("tools:")
            for plugin, found in sorted(tools.items()):
                for tool in found:
                    what = f"{tool['name']} {tool['version']}" if tool["found"] else "not found"
                    note = f": {tool['note']}" if tool["note"] else ""
                    out(f"  {tool['language']}: {what} ({plugin}{note})")
    return 1 if host.failed or problems else 0


def _tools(host: PluginHost, root: Path, errors: dict[str, list[str]]) -> dict[str, list[Any]]:
    """What each plugin's ``forge_tools`` names for the project; a failure joins its errors."""
    from forge.models import ExternalTool

    found: dict[str, list[Any]] = {}
    for returned in host.call("forge_tools", ExternalTool, project_root=root):
        if returned.failure is not None:
            errors.setdefault(returned.plugin, []).append(f"forge_tools {returned.failure}")
        elif returned.items:
            found[returned.plugin] = [tool.to_wire() for tool in returned.items]
    return found


def _languages_line(registry: LanguageRegistry) -> str:
    """``languages: 4 (python, ...); 60 more from language_pack`` for the table's foot."""
    groups: dict[str, list[str]] = registry.by_plugin()
    extra = groups.pop("language_pack", [])
    named = [name for names in groups.values() for name in names]
    line = f"languages: {len(named)} ({', '.join(sorted(named)) or 'none'})"
    if extra:
        line += f"; {len(extra)} extra from language_pack"
    else:
        line += (
            "; no extra languages (the 'languages' extra adds them: pip install "
            "'forge-validate[languages] @ git+https://github.com/forge-validate/forge')"
        )
    return line


def _deciders(registry: LanguageRegistry) -> str:
    """Which parser decides whether a file parses, per language (the pack's: tree-sitter)."""
    groups: dict[str, list[str]] = registry.by_plugin()
    extra = groups.pop("language_pack", [])
    lines = ["syntax decided by:"]
    for name in sorted(name for names in groups.values() for name in names):
        lines.append(f"  {name}: {registry.decider(name)}")
    if extra:
        lines.append(f"  {len(extra)} language_pack languages: tree-sitter only")
    return "\n".join(lines)
