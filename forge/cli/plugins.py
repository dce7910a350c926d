"""``forge plugins``: what was found under the ``forge`` entry-point group, and its state."""

from __future__ import annotations

import argparse
import json
from typing import Any

from forge.cli.output import table


def register(subparsers: Any) -> None:
    """Add ``forge plugins`` to the parser."""
    parser = subparsers.add_parser(
        "plugins",
        help="list plugins: name, distribution, version, hooks, status",
        description="List every plugin of the 'forge' entry-point group and whether it loaded.",
        epilog="examples:\n  forge plugins\n  FORGE_DISABLE_PLUGINS=command forge plugins --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the plugin table; exit 1 when any plugin failed to load."""
    from forge.config import disabled_plugins, load_config, project_root
    from forge.plugin_manager import build_plugin_host

    host = build_plugin_host(disabled_plugins(load_config(project_root())))
    if args.json:
        print(json.dumps([info.to_wire() for info in host.plugins], indent=2))
    else:
        rows = [
            [
                info.name,
                info.distribution,
                info.version,
                ", ".join(info.hooks) or "-",
                info.status if info.error is None else f"{info.status}: {info.error}",
            ]
            for info in host.plugins
        ]
        print(table(["NAME", "DISTRIBUTION", "VERSION", "HOOKS", "STATUS"], rows))
    return 1 if host.failed else 0
