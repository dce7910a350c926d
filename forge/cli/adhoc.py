"""An ad-hoc module: one validated from flags rather than from a plan.

What it checks and where (``--files``, ``--command``, ``--contract``, ``--cwd``,
``--base``), shared by ``forge validate`` and ``forge reset``, and the id its
attempt history is kept under when it names none (:func:`adhoc_id`).
"""

from __future__ import annotations

import argparse
import json
import re

from forge.cli.subcommand import add_base_flag, add_list_flag


def add_ad_hoc_flags(parser: argparse.ArgumentParser) -> None:
    """What an ad-hoc validation checks, and where: ``--files``, ``--command``, ``--contract``,
    ``--cwd``, ``--base``. Its attempt history is keyed by them (:func:`adhoc_id`)."""
    parser.add_argument(
        "--files",
        nargs="+",
        action="extend",
        default=[],
        metavar="FILE",
        help="files that must exist (relative to --cwd)",
    )
    add_list_flag(
        parser,
        "--command",
        dest="commands",
        metavar="CMD",
        help="a verify command, run with sh in --cwd (repeatable)",
    )
    add_list_flag(
        parser,
        "--contract",
        dest="contracts",
        metavar="EXPORTER:IMPORTER",
        help="check that what IMPORTER imports from EXPORTER is exported (repeatable)",
    )
    parser.add_argument("--cwd", help="working dir of the module (default: the project root)")
    add_base_flag(
        parser,
        "git revision to judge against: findings already there are shown as pre-existing "
        "and do not fail ('auto': merge-base with the default branch; default: "
        "[tool.forge] base-ref)",
    )


def adhoc_id(args: argparse.Namespace) -> str:
    """The module id of a validation that names none: ``adhoc-`` and a hash of what it checks.

    Running the same checks again continues their attempt history (so a stuck
    fix still escalates); different checks start their own, and never inherit
    the attempts of an unrelated file or command, nor those judged against
    another base (``--base``).
    """
    import hashlib

    asked = {
        "files": sorted(set(args.files)),
        "commands": args.commands,
        "contracts": args.contracts,
        "cwd": args.cwd,
    }
    if args.base_ref is not None:  # absent otherwise: ids of runs without --base are unchanged
        asked["base"] = args.base_ref
    digest = hashlib.sha256(json.dumps(asked, sort_keys=True).encode("utf-8")).hexdigest()
    return f"adhoc-{digest[:12]}"


#: EXPORTER:IMPORTER, each side allowed a Windows drive letter (C:\\src\\a.ts).
_PAIR = r"^((?:[A-Za-z]:[\\/])?[^:]+):((?:[A-Za-z]:[\\/])?[^:]+)$"  # compiled on first use


def contract_pair(text: str) -> dict[str, str]:
    """``EXPORTER:IMPORTER`` as a contract pair; a usage error when malformed."""
    from forge.errors import UsageError

    match = re.match(_PAIR, text)
    if match is None:
        raise UsageError(
            f"--contract {text!r}: expected EXPORTER:IMPORTER, e.g. src/api.ts:src/app.ts"
        )
    return {"exporter": match.group(1), "importer": match.group(2)}
