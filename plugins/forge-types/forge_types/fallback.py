"""Check what can be checked: a run again without the configuration that stopped the checker.

tsc stops at ``TS2688 Cannot find type definition file for 'vitest'`` when a
``types`` entry (or a folder of its type roots) is not installed, and checks
nothing. A partial ``npm install`` or a CI job that installs only what it
builds is common, and the rest of the program can still be checked: tsc runs
again with a scratch tsconfig that ``extends`` the project's and leaves those
entries out, and the result says so (``checked without types vitest: not
installed``). The scratch file lives in a private temporary folder, never in
the user's tree; beside it, links to the project's ``node_modules`` folders
(at the same depths) let tsc resolve type packages as it would from the
project's own tsconfig.

mypy stops (exit 2) at a ``python_executable`` it cannot find: it runs again
with the interpreter mypy runs on. pyrefly goes on by itself without an
interpreter it cannot query; the result says so too.

Base and work go through the same function, so both are judged alike.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from forge_types.checkers import Checker, Invocation
from forge_types.stopped import NotChecked

_MISSING_TYPES = re.compile(r"^Cannot find type definition file for '(?P<name>[^']+)'")
_BAD_PYTHON = re.compile(r"Invalid python executable '(?P<path>[^']+)'")


@contextlib.contextmanager
def retried(checker: Checker, failure: NotChecked | str, invocation: Invocation) -> Iterator[
    tuple[Invocation, str] | None
]:  # fmt: skip
    """The invocation to run again with, and what it leaves out; None when nothing helps.

    ``failure``: the run's :class:`NotChecked`, or the message of a run that exited
    with an error (mypy).
    """
    if checker.kind.name == "tsc" and isinstance(failure, NotChecked):
        missing = _missing_type_packages(failure)
        if missing and invocation.project_file is not None:
            with tempfile.TemporaryDirectory(prefix="forge-types-tsconfig-") as folder:
                scratch = _scratch_tsconfig(invocation.project_file, missing, Path(folder))
                note = f"checked without types {', '.join(missing)}: not installed"
                # Its build info goes with the scratch folder: none of its runs is like another.
                own = Path(folder) if invocation.cache_dir is not None else None
                moved = dataclasses.replace(invocation, project_file=scratch, cache_dir=own)
                yield moved, note
                return
    if checker.kind.name == "mypy":
        found = _BAD_PYTHON.search(str(failure))
        if found is not None and invocation.interpreter is None:
            own = checker.executable.parent / "python"
            python = own if own.exists() else Path(sys.executable)
            note = f"checked without python_executable {found['path']}: not found"
            yield dataclasses.replace(invocation, interpreter=python), note
            return
    yield None


def _missing_type_packages(failure: NotChecked) -> list[str]:
    """The type packages whose absence alone stopped tsc; [] when anything else did too."""
    stoppers = [
        item for item in failure.raw if item[0].is_dir() or item[0].suffix.lower() == ".json"
    ]
    names = []
    for *_, code, message in stoppers:
        found = _MISSING_TYPES.match(message) if code == "TS2688" else None
        if found is None:
            return []
        names.append(found["name"])
    return sorted(set(names))


def _scratch_tsconfig(tsconfig: Path, missing: list[str], folder: Path) -> Path:
    """A tsconfig in ``folder`` that extends ``tsconfig`` with the ``missing`` types left out.

    Type packages resolve from a tsconfig's folder upwards: the scratch file sits as
    deep in ``folder`` as ``tsconfig`` does below the outermost ``node_modules`` above
    it, with a link to each of those ``node_modules`` at the same depth.
    """
    from forge.contracts.ecmascript.tsconfig import compiler_option, sets_inputs

    here = tsconfig.parent
    levels = [here, *here.parents]
    with_modules = [level for level in levels if (level / "node_modules").is_dir()]
    top = with_modules[-1] if with_modules else here
    place = folder.joinpath(*here.relative_to(top).parts)
    place.mkdir(parents=True, exist_ok=True)
    for level in with_modules:
        link = folder.joinpath(*level.relative_to(top).parts, "node_modules")
        link.symlink_to(level / "node_modules", target_is_directory=True)
    types = compiler_option(tsconfig, "types")
    if isinstance(types, list):
        kept = [name for name in types if isinstance(name, str) and name not in missing]
    else:  # every folder of the type roots is included: name the ones there, less the missing
        kept = [name for name in _type_roots_packages(with_modules) if name not in missing]
    config: dict[str, object] = {"extends": str(tsconfig), "compilerOptions": {"types": kept}}
    if not sets_inputs(tsconfig):
        # Without files or include, tsc takes every file below the tsconfig: below the
        # project's, not the scratch one's.
        config["include"] = [f"{here}/**/*"]
    scratch = place / "tsconfig.json"
    scratch.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return scratch


def _type_roots_packages(with_modules: list[Path]) -> list[str]:
    names: list[str] = []
    for level in with_modules:
        with contextlib.suppress(OSError):
            names += [p.name for p in (level / "node_modules" / "@types").iterdir() if p.is_dir()]
    return sorted(set(names))


def name_groups(files: list[Path]) -> list[list[Path]]:
    """``files`` in groups none of which holds two modules of one name (two ``conftest.py``).

    mypy refuses a run with two (``Duplicate module named "conftest"``, exit 2): run
    once per group instead, the n-th file of each name in the n-th group.
    """
    groups: list[list[Path]] = []
    seen: dict[str, int] = {}
    for path in files:
        name = _module_name(path)
        index = seen.get(name, 0)
        seen[name] = index + 1
        if index == len(groups):
            groups.append([])
        groups[index].append(path)
    return groups


def _module_name(path: Path) -> str:
    """The module name mypy gives ``path``: its packages (folders with ``__init__``) above it."""
    parts = [] if path.stem == "__init__" else [path.stem]
    folder = path.parent
    while any((folder / init).is_file() for init in ("__init__.py", "__init__.pyi")):
        parts.insert(0, folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(parts)
