"""The ``types`` plugin: one ``type_check`` result per language the module's files are in.

Registered under the ``forge`` entry-point group as ``types``. It uses forge's
public plugin API (``forge.hookimpl``, :mod:`forge.models`, the workspace and
its ``base``) and forge's contract analysis to find importers.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from forge import hookimpl
from forge.models import (
    CheckDescriptor,
    ExternalTool,
    PluginOptionsError,
    ValidateRequest,
    parse_plugin_options,
)
from forge.workspace import Workspace
from forge_types import __version__
from forge_types.models import CHECK_TYPE, TypeCheckResult
from forge_types.options import PLUGIN_NAME, TypesOptions


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``type_check``: what a pass means."""
    return [
        CheckDescriptor(
            id=CHECK_TYPE,
            summary="A real type checker (pyrefly or the project's own; the project's tsc) finds "
            "no new error in the module's files or the files importing them.",
            order=45,
            # Judged on each edit by forge hook, from a warm checker only (Workspace.budget).
            judges_edits=True,
            # The checker runs beside forge's other checks, started before them.
            read_only=True,
            concurrent=True,
        )
    ]


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[TypeCheckResult]:
    """One result per language among the listed files (Python, TypeScript and JavaScript)."""
    try:
        options = workspace.plugin_options(PLUGIN_NAME, TypesOptions)
    except PluginOptionsError as exc:
        return [
            TypeCheckResult(
                type=CHECK_TYPE, target="options", passed=False, message=f"bad options: {exc}",
                language="-",
            )
        ]  # fmt: skip
    from forge_types.run import check_language, listed_by_language, not_run

    results = []
    for language, listed in listed_by_language(request.files, workspace).items():
        if language not in options.languages:
            continue
        try:
            results.append(check_language(language, listed, workspace, options))
        except Exception as exc:  # one language's crash spares the other's result
            reason = " ".join(str(exc).split())[:300]
            message = f"forge-types {__version__} could not check: {type(exc).__name__}: {reason}"
            results.append(not_run(language, f"{message} (a bug: please report it)"))
    return results


def _configured(project_root: Path) -> TypesOptions:
    """The project's ``[tool.forge.types]``, validated (no request: ``forge plugins``, serving)."""
    from forge.config import load_config

    table = load_config(project_root).plugin_config(PLUGIN_NAME)
    return parse_plugin_options(TypesOptions, table, f"[tool.forge.{PLUGIN_NAME}]")


@hookimpl
def forge_tools(project_root: Path) -> list[ExternalTool]:
    """The checker each language gets in ``project_root``, as ``forge plugins`` shows it."""
    from forge_types.selection import Missing, python_checker, typescript_checker

    try:
        options = _configured(project_root)
    except PluginOptionsError as exc:
        return [ExternalTool(language="python", name="-", found=False, note=str(exc))]
    tools = []
    for language in options.languages:
        if language == "python":
            chosen = python_checker(project_root, options.python_checker)
        else:
            chosen = typescript_checker(project_root, project_root)
        if isinstance(chosen, Missing):
            name = "tsc" if language == "typescript" else (options.python_checker or "pyrefly")
            tools.append(
                ExternalTool(language=language, name=name, found=False, note=chosen.message)
            )
        else:
            tools.append(
                ExternalTool(
                    language=language,
                    name=chosen.kind.name,
                    version=chosen.version,
                    found=True,
                    note=chosen.source,
                )
            )
    return tools


#: Warm checkers this process started, by project root: stopped with the engine.
_WARM: dict[Path, list[subprocess.Popen[bytes]]] = {}


@hookimpl
def forge_engine_started(project_root: Path) -> None:
    """Start the project's warm checkers: pyrefly's language server, TypeScript's builder.

    pyrefly's when pyrefly is the project's Python checker; TypeScript's when the
    project has its own tsc and a ``tsconfig.json`` at its root (the one a file
    of the project is checked with when no nearer one exists).
    """
    from forge_types.checkers import PYREFLY, Invocation
    from forge_types.selection import Missing, project_interpreter, python_checker
    from forge_types.warm import start

    options = _configured(project_root)
    if project_root in _WARM:
        return
    started = _WARM.setdefault(project_root, [])
    if "python" in options.languages:
        checker = python_checker(project_root, options.python_checker)
        if not isinstance(checker, Missing) and checker.kind is PYREFLY:
            invocation = Invocation(
                root=project_root,
                interpreter=project_interpreter(project_root, options.python),
                configured=checker.source.startswith("configured"),
            )
            key = checker.warm_key(invocation)
            if key is not None:
                process = start(
                    "pyrefly", key, project_root, checker.executable,
                    invocation.interpreter, invocation.configured,
                )  # fmt: skip
                started.extend([process] if process else [])
    tsconfig = project_root / "tsconfig.json"
    if "typescript" in options.languages and tsconfig.is_file():
        from forge_types.selection import typescript_checker

        tsc = typescript_checker(project_root, project_root)
        if not isinstance(tsc, Missing) and tsc.warm_executable is not None:
            key = tsc.warm_key(Invocation(root=project_root, project_file=tsconfig))
            if key is not None:
                process = start("tsc", key, project_root, tsc.warm_executable, tsconfig, False)
                started.extend([process] if process else [])


@hookimpl
def forge_engine_stopped(project_root: Path) -> None:
    """Stop the warm checkers ``forge_engine_started`` started for the project."""
    from forge_types.warm import stop

    for process in _WARM.pop(project_root, []):
        stop(process)
