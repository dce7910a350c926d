"""``PostToolUse``: block an edit that left its file, its contracts with its neighbours, or
the project's files that import it, broken (naming the module that owns such a file).

The checks an edit answers to are those declared to judge edits
(``CheckDescriptor.judges_edits``); verify commands and work-in-progress checks
wait for the stop. A Python file that imports only the standard library and
compiles is allowed without loading any check (:func:`_clean_python`).

A file over ``[tool.forge] max-parse-bytes`` is not judged, and the answer says
so: no check reads it, its importers are not searched, and the edit is allowed
with a message (:func:`_not_judged`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.hook.answers import MAX_FINDINGS, absolute, allow, block, display, path_key, shown

if TYPE_CHECKING:
    from collections.abc import Iterator

    from forge.git import Base
    from forge.hook.target import Target
    from forge.models import CheckResult, Location
    from forge.plan.locate import PlanModuleRef
    from forge.validate.run import Engine

#: Seconds the checks of one edit may take (``Workspace.budget``): a check that cannot
#: answer in time, a cold type checker, skips rather than keep the agent waiting.
EDIT_BUDGET_SECONDS = 2.0
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
    from forge.hook.target import event_cwd, find_module_ref, find_project_root

    written = edited_files(event.get("tool_name"), event.get("tool_input"))
    if not written:
        return None
    cwd = event_cwd(event)
    files = [path for path in (absolute(cwd, name) for name in written) if path.is_file()]
    if not files:
        return None
    from forge.cli.output import fresh_command
    from forge.hook.importers import MAX_READ, find_importers

    ref = find_module_ref(cwd)
    # A forge project: an edit answers to the files that import it, whichever
    # module owns them. Found by their text, with the standard library alone.
    search = (ref.working_dir if ref else cwd) if ref or find_project_root(cwd) else None
    if any(_size(path) > MAX_READ for path in files):
        # A large file goes straight to the checks' side, which knows [tool.forge]
        # max-parse-bytes: compiled here in full, a 20 MB file took the hook 5 to 40 s
        # (its budget is 2). Its importers are searched there, if it is judged at all.
        with fresh_command():
            return _check_edit(cwd, files, None, search)
    importers, complete = find_importers(search, files) if search else ([], True)
    if ref is None and not importers and complete and all(_clean_python(p, cwd) for p in files):
        return None  # nothing forge could find: no need to load it
    with fresh_command():
        return _check_edit(cwd, files, importers, search)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # gone since: the checks say so


def _check_edit(
    cwd: Path, files: list[Path], importers: list[Path] | None, search: Path | None
) -> dict[str, str] | None:
    """The edit checks of ``files`` (existing, under ``cwd``): a block on a finding.

    ``importers``: project files whose text names an edited file; with the
    files of the plan's modules that do, they are checked against the edit,
    and a finding in another module's file names that module. None: not searched
    yet; they are searched under ``search`` (a forge project's folder) for the
    files within the parse limit.
    """
    from forge.checks.lane_check import CHECK_ID as LANE_CHECK
    from forge.hook.importers import find_importers, mentioning
    from forge.hook.target import edit_target, file_owners, find_project_root
    from forge.models import ValidateRequest
    from forge.validate.request import workspace_for
    from forge.validate.run import Engine

    engine = Engine.for_project(find_project_root(cwd) or cwd)
    target = edit_target(cwd)
    base, plan = _lane_of(engine, target, files)
    files = [path for path in files if engine.languages.for_path(path) is not None or base]
    files, over, note = _not_judged(files, engine.config.max_parse_bytes, cwd)
    # A file too large to parse still leaves its lane: the lane check reads git, not it.
    lane_only = {path_key(path) for path in over} if base is not None else set()
    if not files and not lane_only:
        # No language forge knows: not forge's business; too large: said so.
        return allow(note) if note else None
    if importers is None:
        importers = find_importers(search, files)[0] if search else []
    edited = {path_key(path) for path in files}
    owners = file_owners(cwd)
    own_module = target.module.id if target is not None else None
    planned = [Path(key) for key in owners if key not in edited]
    listed: dict[str, Path] = {}
    for path in [
        *(absolute(cwd, name) for name in (target.module.files if target else [])),
        *importers,
        *mentioning(planned, files),  # the plan's importers, should the search have stopped
    ]:
        key = path_key(path)
        if key not in edited and engine.languages.for_path(path) is not None:
            listed.setdefault(key, path)
    request = ValidateRequest(
        module_id="hook", cwd=str(cwd), files=[str(path) for path in [*files, *listed.values()]]
    )
    # The checks an edit answers to are those declared to judge edits; the rest
    # (commands, work-in-progress checks such as placeholders) wait for the stop,
    # and their plugins are not even run (nor imported). Halting checks run too:
    # their failure stops the others, as in a validate.
    checks = engine.plugins.checks
    judging = {
        checks.owners[check_id]
        for check_id, declared in checks.descriptors.items()
        if declared.halts_on_failure
        or (declared.judges_edits and (files or check_id == LANE_CHECK))
    }
    findings: list[str] = []
    workspace = workspace_for(engine, request, base=base, plan=plan)
    workspace.budget = EDIT_BUDGET_SECONDS
    for result in engine.run_checks(request, workspace, plugins=judging):
        declared = checks.get(result.type)
        if result.passed or declared is None or not declared.judges_edits:
            continue
        if _concerns(result, edited | lane_only if result.type == LANE_CHECK else edited, cwd):
            owner = _other_module(result, owners, own_module, edited, cwd)
            suffix = f" (in module {owner})" if owner else ""
            findings.extend(line + suffix for line in result_findings(result, cwd))
    if not findings:
        return allow(note) if note else None
    names = ", ".join(shown(path, cwd) for path in [*files, *over])
    return block(
        f"forge: {names} has problems; fix them before going on:",
        findings,
        limit=MAX_FINDINGS,
        notes=[note] if note else [],
    )


def _not_judged(
    files: list[Path], max_parse_bytes: int, cwd: Path
) -> tuple[list[Path], list[Path], str]:
    """``files`` within the parse limit, those over it, and a line naming them (``""``: none).

    A file over the limit is not judged at all: the syntax check would pass it
    with a note, the contract check fail its importers ("cannot check"), and a
    type checker take its whole budget on it. Known from its size, nothing read.
    """
    from forge.languages import over_parse_limit

    kept: list[Path] = []
    over: list[Path] = []
    lines: list[str] = []
    for path in files:
        problem = over_parse_limit(path, max_parse_bytes)
        if problem is None:
            kept.append(path)
        else:
            over.append(path)
            lines.append(f"forge: {shown(path, cwd)} not checked (too large to judge): {problem}")
    return kept, over, "\n".join(lines)


def _lane_of(
    engine: Engine, target: Target | None, files: list[Path]
) -> tuple[Base | None, PlanModuleRef | None]:
    """The base and plan module the lane check needs, when an edited file leaves the lane.

    An edit inside its module's lane costs nothing more; one outside it (another
    module's file, a disallowed one) is judged against the base (``[tool.forge]
    base-ref``, else ``auto``: where the worktree forked), like ``validate``.
    """
    if target is None:
        return None, None
    from forge.parallel.lanes import in_lane
    from forge.plan.model import normalise_path

    listed = {normalise_path(name, target.root) for name in target.module.files}
    inside = []
    for path in files:
        try:
            relative = path.resolve().relative_to(target.working_dir.resolve()).as_posix()
        except ValueError:
            return None, None  # an edit outside the worktree is not the module's change
        inside.append(in_lane(relative, target.module, listed))
    if all(inside):
        return None, None
    from forge.git import GitError, resolve_base
    from forge.plan.locate import PlanModuleRef, read_plan

    plan = read_plan(target.plan_path)
    try:
        base = resolve_base(target.working_dir, engine.config.base_ref or "auto")
    except GitError:
        return None, None
    if plan is None or base is None:
        return None, None
    return base, PlanModuleRef(
        plan=plan, module=target.module, path=target.plan_path, root=target.root
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


def _concerns(result: CheckResult, edited: set[str], cwd: Path) -> bool:
    """Whether a result is about an edited file: its syntax, a pair it is one side of,
    or a counted place in it (a type error in the edited file)."""
    sides = [getattr(result, "exporter", None), getattr(result, "importer", None)]
    if not any(sides):
        sides = [result.target]
        sides += [place.path for place in result.locations if _counted(place)]
    return any(isinstance(side, str) and path_key(absolute(cwd, side)) in edited for side in sides)


def _other_module(
    result: CheckResult, owners: dict[str, str], own: str | None, edited: set[str], cwd: Path
) -> str | None:
    """The plan module, other than the editor's own, that owns the importer a result is about."""
    importer = getattr(result, "importer", None)
    if not isinstance(importer, str):
        return None
    key = path_key(absolute(cwd, importer))
    owner = owners.get(key)
    return owner if key not in edited and owner != own else None


def _counted(place: Location) -> bool:
    return not place.pre_existing and not place.informational


def result_findings(result: CheckResult, cwd: Path) -> list[str]:
    """``path:line:column: message`` for each place a failed result points at.

    Read from the ``locations`` channel alone, whatever the check: a place
    without a path is in the result's target.
    """
    from forge.cli.validate_text import location_line

    lines = [
        location_line(location, display(location.path or result.target, cwd))
        for location in result.locations
        if _counted(location)
    ]
    return lines or [f"{display(result.target, cwd)}: {result.message}"]
