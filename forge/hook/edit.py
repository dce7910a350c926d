"""``PostToolUse``: block an edit that left its file, its contracts with its neighbours, or
the project's files that import it, broken (naming the module that owns such a file).

The checks an edit answers to are those declared to judge edits
(``CheckDescriptor.judges_edits``); verify commands and work-in-progress checks
wait for the stop. A Python file that imports only the standard library and
compiles is allowed without loading any check (:func:`_clean_python`).

A file over ``[tool.forge] max-parse-bytes`` is not judged, and the answer says
so: no check reads it, its importers are not searched, and the edit is allowed
with a message (:mod:`forge.validate.edit`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.hook.answers import MAX_FINDINGS, allow, block
from forge.paths import absolute, shown

if TYPE_CHECKING:
    from collections.abc import Iterator

    from forge.hook.target import Where


#: Tools that write one file, and the field of ``tool_input`` that names it.
FILE_TOOLS = {
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}


#: Codex's edit tool: ``tool_input.command`` holds the patch text.
PATCH_TOOLS = frozenset({"apply_patch"})


_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Move to: ")


def edited_files(tool: object, tool_input: object) -> list[str]:
    """The files a tool call wrote, as the event names them; ``[]`` for any other tool."""
    if not isinstance(tool_input, dict):
        return []
    if isinstance(tool, str) and tool in FILE_TOOLS:
        path = tool_input.get(FILE_TOOLS[tool])
        return [path] if isinstance(path, str) and path else []
    if tool in PATCH_TOOLS:
        patch = tool_input.get("command") or tool_input.get("input") or ""
        if isinstance(patch, list):  # ["apply_patch", "<patch>"]
            patch = "\n".join(part for part in patch if isinstance(part, str))
        if not isinstance(patch, str):
            return []
        found = [
            line[len(header) :].strip()
            for line in patch.splitlines()
            for header in _PATCH_HEADERS
            if line.startswith(header)
        ]
        return list(dict.fromkeys(path for path in found if path))
    return []


def after_edit(event: dict[str, Any]) -> dict[str, str] | None:
    """Block an edit that left its file, its contracts with its neighbours, or its
    importers anywhere in the project, broken."""
    from forge.hook.target import locate

    written = edited_files(event.get("tool_name"), event.get("tool_input"))
    if written:
        here = locate(event)
    else:  # a shell command names no file: what it changed is found by snapshot
        from forge.hook.shell import SHELL_TOOLS, shell_changes

        if event.get("tool_name") not in SHELL_TOOLS:
            return None
        here = locate(event)
        written = shell_changes(here, event)
    files = [path for path in (absolute(here.cwd, name) for name in written) if path.is_file()]
    if not files:
        return None
    from forge.contracts.importers import MAX_READ, find_importers

    # Paths are the module's: from its working dir (its worktree's top). In a forge
    # project, an edit answers to the files that import it, whichever module owns
    # them: found by their text, with the standard library alone.
    cwd = here.ref.working_dir if here.ref is not None else here.cwd
    search = cwd if here.root is not None else None
    if any(_size(path) > MAX_READ for path in files):
        # A large file goes straight to the checks' side, which knows [tool.forge]
        # max-parse-bytes: compiled here in full, a 20 MB file took the hook 5 to 40 s
        # (its budget is 2). Its importers are searched there, if it is judged at all.
        importers = None
    else:
        found, complete = find_importers(search, files) if search else ([], True)
        if (
            here.ref is None
            and not found
            and complete
            and all(_clean_python(p, cwd) for p in files)
        ):
            return None  # nothing forge could find: no need to load it
        importers = found
    from forge.plugin_host.pydantic_lookup import fresh_command

    with fresh_command():
        return _check_edit(here, cwd, files, importers, search)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # gone since: the checks say so


def _check_edit(
    here: Where, cwd: Path, files: list[Path], importers: list[Path] | None, search: Path | None
) -> dict[str, str] | None:
    """The engine's judgement of the edit of ``files`` (existing, under ``cwd``): a block on a
    finding, naming the other plan module whose importer it breaks."""
    from forge.hook.target import edit_plan
    from forge.reporting.text import result_findings
    from forge.validate.edit import Edit
    from forge.validate.run import Engine

    # What the event says of who edited is read first (the plan once); the engine is then asked once.
    target, owners = edit_plan(here, cwd)
    edit = Edit(
        cwd=cwd, files=files, importers=importers, search=search, target=target, owners=owners
    )
    engine = Engine.for_project(here.root or cwd)
    judgement = engine.judge_edit(edit)
    note = "\n".join(judgement.notes)
    findings = [
        line + (f" (in module {finding.other_module})" if finding.other_module else "")
        for finding in judgement.findings
        for line in result_findings(finding.result, cwd)
    ]
    if not findings:
        return allow(note) if note else None
    names = ", ".join(shown(path, cwd) for path in judgement.files)
    return block(
        f"forge: {names} has problems; fix them before going on:",
        findings,
        limit=MAX_FINDINGS,
        notes=judgement.notes,
    )


def _clean_python(path: Path, cwd: Path) -> bool:
    """True when forge's checks cannot fail on ``path``, known without loading them.

    A Python file that CPython compiles (the authority forge's syntax check
    defers to) and that imports nothing but the standard library, none of it
    shadowed by a file or folder of the project, has no syntax error and no
    contract to break. Anything else, or any doubt, is left to the checks: this
    only ever allows, so it can never disagree with them about a block. Asked only
    of files of at most ``importers.MAX_READ`` bytes (:func:`after_edit`).
    """
    if path.suffix.lower() not in {".py", ".pyi"}:
        return False
    import ast
    import warnings

    try:
        source = path.read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes warn; the checks judge those
            tree = ast.parse(source, str(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    top_names: set[str] = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                return False
            top_names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            top_names.update(alias.name.split(".")[0] for alias in node.names)
    if not top_names <= {*sys.stdlib_module_names, "__future__"}:
        return False
    folder = path.resolve().parent
    folders = [folder, *folder.parents]
    inside = cwd.resolve()
    folders = folders[: folders.index(inside) + 1] if inside in folders else folders[:1]
    return not any(
        (where / name).exists() or (where / f"{name}.py").exists()
        for where in [*folders, inside / "src"]
        for name in top_names
    )


def _statements(body: list[Any]) -> Iterator[Any]:
    """Every statement of ``body``, nested ones too, without visiting expressions (imports are
    statements, and a file has ten times more expression nodes than statements)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, name, None)
            if isinstance(children, list):
                stack.extend(reversed(children))
