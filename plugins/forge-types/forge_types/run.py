"""One language's check: choose the checker, find the scope, run it now and at the base, judge."""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from forge.contracts.analysis import normalize
from forge.errors import ForgeError
from forge.store.json_files import peek_json, update_json
from forge.workspace import Workspace
from forge_types import __version__
from forge_types.base import CACHE_FORMAT, base_diagnostics, cache_file
from forge_types.checkers import Checker, Invocation, incremental_tsc, socket_path
from forge_types.diagnostics import CheckerFailed, Diagnostic, Raw
from forge_types.fallback import name_groups, retried
from forge_types.files import PYTHON_CONFIG_FILES
from forge_types.judge import diagnostics, judge
from forge_types.models import CHECK_TYPE, TypeCheckResult
from forge_types.options import TypesOptions
from forge_types.scope import (
    Scope,
    candidates,
    confirm_importers,
    find_importers,
    language_of,
    real_plain_file,
)
from forge_types.selection import (
    Missing,
    config_digest,
    digest,
    environment_digest,
    project_interpreter,
    python_checker,
    typescript_checker,
)
from forge_types.stopped import NotChecked
from forge_types.suppressions import added_since, hidden_since_base


def listed_by_language(files: Sequence[str], workspace: Workspace) -> dict[str, list[Path]]:
    """The listed files that exist, as real paths, by the language that checks them, in order."""
    found: dict[str, dict[Path, None]] = {}
    folders: dict[str, str] = {}
    for file in dict.fromkeys(files):
        path = workspace.resolve(file)
        language = language_of(path)
        real = real_plain_file(path, folders) if language is not None else None
        if language is not None and real is not None:  # one file listed twice (a link): once
            found.setdefault(language, {})[real] = None
    return {language: list(paths) for language, paths in found.items()}


def check_language(
    language: str, listed: list[Path], workspace: Workspace, options: TypesOptions
) -> TypeCheckResult:
    """The one ``type_check`` result for ``language``'s listed files and their importers."""
    root = normalize(workspace.cwd)
    tsconfig = _tsconfig(listed[0], root) if language == "typescript" else None
    if language == "typescript" and tsconfig is None:
        return skipped(language, "no tsconfig.json above the listed files; not checked")
    chosen = (
        python_checker(root, options.python_checker)
        if language == "python"
        else typescript_checker(root, listed[0].parent)
    )
    if isinstance(chosen, Missing):
        return (not_run if chosen.broken else skipped)(language, chosen.message)
    checker = chosen
    interpreter = project_interpreter(root, options.python) if language == "python" else None
    if options.python and interpreter is not None and not _executable(interpreter):
        # The checker would go on without it (pyrefly says nothing), unable to see the
        # project's packages: a check that looks done and is not.
        return skipped(
            language,
            f"the python option names no interpreter ({interpreter} is not an executable "
            "file); not checked",
            checker,
        )
    invocation = Invocation(
        root=root,
        interpreter=interpreter,
        configured=checker.source.startswith("configured"),
        cache_dir=_own_cache(root, checker),
        project_file=tsconfig,
    )
    if workspace.budget is not None:
        return _within_budget(checker, listed, invocation, workspace, options)
    maybe = candidates(listed, language, root, options.max_importers)
    notes: list[str] = []  # what a run left out to check the rest (fallback)
    base = workspace.base
    cache = None
    if base is not None:
        key = _base_key(base.commit, checker, root, tsconfig, interpreter, invocation)
        cache = cache_file(root, key)

    def run_at(stand_in: Path, files: list[Path]) -> list[Diagnostic]:
        moved = Invocation(
            root=stand_in,
            interpreter=interpreter,
            configured=invocation.configured,
            cache_dir=stand_in / ".forge-types-cache" if invocation.cache_dir else None,
            project_file=stand_in / tsconfig.relative_to(root) if tsconfig else None,
        )
        raw = _run(checker, Scope(listed=files), moved, options, notes)
        return diagnostics(raw, stand_in, set(files), workspace, also=root)

    try:
        raw: list[Raw] | None = None
        early = None  # the base's diagnostics, found while the work's checker ran
        confirmed = _configuration(checker, invocation, root, tsconfig)
        if _warm(checker, invocation, confirmed, root):
            # A warm checker answers per file: the fewer asked, the sooner it answers.
            scope = confirm_importers(listed, maybe, workspace, root, options.max_importers)
            from forge_types.warm import ASK_TIMEOUT

            # A warm checker that hangs costs ASK_TIMEOUT at most; then the command line answers.
            raw = checker.ask_warm(scope.files, invocation, min(options.timeout, ASK_TIMEOUT))
            warm = raw is not None
            if raw is None:  # it did not answer: the command line does
                raw = _run(checker, scope, invocation, options, notes)
                _confirm(root, confirmed)
        else:
            warm = False
            # The checker runs over the listed files and every candidate importer while
            # forge parses the candidates to confirm which really import them: the parse
            # costs no time, and only confirmed importers' diagnostics are kept. The
            # base's run (when its cache lacks a file) goes at the same time, over the
            # same candidates: a cold check costs about one run, not two. On two cores the
            # two runs compete instead (2x a bare run, measured): there the base is checked
            # after the work, and only when the work shows a diagnostic to compare.
            overlap = len(os.sched_getaffinity(0)) > 2 if hasattr(os, "sched_getaffinity") else True
            with ThreadPoolExecutor(max_workers=2) as pool:
                # In this call's context, so a cancelled call stops the checker.
                running = pool.submit(
                    contextvars.copy_context().run,
                    _run, checker, Scope(listed=[*listed, *maybe]), invocation, options, notes,
                )  # fmt: skip
                if base is not None and cache is not None and overlap:
                    early = pool.submit(
                        contextvars.copy_context().run,
                        base_diagnostics, base, root, [*listed, *maybe], cache, run_at,
                    )  # fmt: skip
                scope = confirm_importers(listed, maybe, workspace, root, options.max_importers)
                raw = running.result()
                _confirm(root, confirmed)  # the command line read the configuration
                found_early = early.result() if early is not None else None
        wanted = set(scope.files)
        head = diagnostics(raw, root, wanted, workspace, symbols=base is not None)
        old: dict[str, list[Diagnostic]] | None = None
        notices: list[str] = []
        if base is not None and cache is not None:
            configs = [root / name for name in PYTHON_CONFIG_FILES] if tsconfig is None else []
            suppressed = added_since(base, listed, [*configs, *([tsconfig] if tsconfig else [])],
                                     language)  # fmt: skip
            if early is not None and found_early is not None:
                every, notices = found_early
                checked = {_relative_to(path, root) for path in scope.files}
                old = {rel: items for rel, items in every.items() if rel in checked}
            elif head or suppressed:
                old, notices = base_diagnostics(base, root, scope.files, cache, run_at)
            else:
                old = {}  # the work shows no diagnostic: nothing the base could make old
            if suppressed:  # judged, not obeyed: what the new suppressions hide is new
                head += hidden_since_base(root, scope.files, suppressed, head, old, run_at)
    except CheckerFailed as exc:
        return not_run(language, f"{checker.label} did not run: {exc}", checker)
    result = judge(
        checker, scope, head, old, base_commit=base.commit if base else None,
        workspace=workspace, root=root, warm=warm,
    )  # fmt: skip
    said = [*dict.fromkeys(notes), *notices]  # base and work leave out the same: said once
    if said:
        result = result.model_copy(update={"message": f"{result.message}; {'; '.join(said)}"})
    return result


def _base_key(
    commit: str,
    checker: Checker,
    root: Path,
    tsconfig: Path | None,
    interpreter: Path | None,
    invocation: Invocation,
) -> str:
    """The key of the base's cached diagnostics: what they depend on."""
    language = checker.kind.language
    return digest(
        [
            CACHE_FORMAT,
            __version__,
            commit,
            checker.label,
            config_digest(
                [root / name for name in PYTHON_CONFIG_FILES] + ([tsconfig] if tsconfig else [])
            ),
            environment_digest(
                interpreter, root / "node_modules" if language == "typescript" else None
            ),
            str(invocation.configured),
        ]
    )


def _relative_to(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def _run(
    checker: Checker,
    scope: Scope,
    invocation: Invocation,
    options: TypesOptions,
    notes: list[str],
) -> list[Raw]:
    """The checker's diagnostics; run again without what stopped it when that helps
    (:mod:`forge_types.fallback`), ``notes`` saying what was left out."""
    if checker.kind.name == "mypy" and len(groups := name_groups(scope.files)) > 1:
        # Two modules of one name (two conftest.py): mypy refuses them in one run.
        return [
            item
            for group in groups
            for item in _run(checker, Scope(listed=group), invocation, options, notes)
        ]
    # tsc checks the whole project its tsconfig names (it ignores the files).
    try:
        return checker.run(scope.files, invocation, options.timeout, notes)
    except CheckerFailed as exc:
        failure: NotChecked | str = exc if isinstance(exc, NotChecked) else str(exc)
        with retried(checker, failure, invocation) as again:
            if again is None:
                raise
            moved, note = again
            raw = checker.run(scope.files, moved, options.timeout, notes)
    notes.append(note)
    return raw


#: The configurations (:func:`_configuration`) a command-line run has read to the end, kept
#: in this process and in ``.forge/cache/types/warm/confirmed.json`` for the next ones. A warm
#: checker answers only for those: a language server handed a configuration it cannot read
#: goes on with its defaults, and would pass code nobody checked where the command line
#: says "did not run".
_CONFIRMED: set[str] = set()
#: Configurations the file keeps, newest last.
MAX_CONFIRMED = 200


def _confirmed_file(root: Path) -> Path:
    return root / ".forge" / "cache" / "types" / "warm" / "confirmed.json"


def _confirm(root: Path, confirmed: str | None) -> None:
    """Remember that the command line read ``confirmed`` to the end (a failure to write:
    the next process runs the command line once more)."""
    if confirmed is None or confirmed in _CONFIRMED:
        return
    _CONFIRMED.add(confirmed)

    def add(value: object) -> list[str]:
        kept = [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
        return [*[item for item in kept if item != confirmed], confirmed][-MAX_CONFIRMED:]

    with contextlib.suppress(OSError, ForgeError):
        update_json(_confirmed_file(root), add)


def _configuration(
    checker: Checker, invocation: Invocation, root: Path, tsconfig: Path | None
) -> str | None:
    """The warm checker's key with the project's checker configuration; None: no warm mode."""
    key = checker.warm_key(invocation)
    if key is None:
        return None
    configs = [root / name for name in PYTHON_CONFIG_FILES] + ([tsconfig] if tsconfig else [])
    return digest([key, config_digest(configs)])


def _warm(checker: Checker, invocation: Invocation, confirmed: str | None, root: Path) -> bool:
    """Whether a warm checker serves ``invocation`` (its socket is there to ask) for a
    configuration the command line has read (``confirmed``)."""
    key = checker.warm_key(invocation)
    if key is None or confirmed is None or not socket_path(key).exists():
        return False
    if confirmed not in _CONFIRMED:
        kept, _ = peek_json(_confirmed_file(root))
        if not (isinstance(kept, list) and confirmed in kept):
            return False
        _CONFIRMED.add(confirmed)
    return True


def _within_budget(
    checker: Checker,
    listed: list[Path],
    invocation: Invocation,
    workspace: Workspace,
    options: TypesOptions,
) -> TypeCheckResult:
    """The check on a budget (``forge hook``): a warm checker answers, or nothing is said.

    A cold checker takes seconds: it would keep an agent waiting after each edit.
    Without a warm checker to ask, the importers are not even searched. With no
    base, only the rules that mean the code cannot run count.
    """
    from forge_types.warm import ask

    key = checker.warm_key(invocation)
    budget = workspace.budget or 0.0
    if key is None or not socket_path(key).exists():
        why = "no warm checker for this project (forge daemon or forge serve keeps one)"
        if key is None:
            why = f"{checker.kind.name} has no warm mode"
        return skipped(checker.kind.language, f"not checked within {budget:g} s: {why}", checker)
    root = invocation.root
    scope = find_importers(listed, checker.kind.language, root, workspace, options.max_importers)
    raw = ask(key, scope.files, timeout=budget)
    if raw is None:
        why = "the warm checker did not answer"
        return skipped(checker.kind.language, f"not checked within {budget:g} s: {why}", checker)
    head = diagnostics(raw, root, set(scope.files), workspace, symbols=False)
    return judge(
        checker, scope, head, None, base_commit=None, workspace=workspace, root=root, warm=True
    )


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _own_cache(root: Path, checker: Checker) -> Path | None:
    """Where a checker that keeps a cache (mypy's, tsc's build info) keeps it: under
    .forge/cache, not the project."""
    if checker.kind.name != "mypy" and not incremental_tsc(checker):
        return None
    return root / ".forge" / "cache" / "types" / checker.kind.name


def _tsconfig(near: Path, root: Path) -> Path | None:
    for folder in (near.parent, *near.parent.parents):
        candidate = folder / "tsconfig.json"
        if candidate.is_file():
            return candidate
        if folder == root:
            return None
    return None


def not_run(language: str, message: str, checker: Checker | None = None) -> TypeCheckResult:
    """A result that is no pass and counts in no score: ``language``'s checker ran and did not
    check (it stopped at its configuration, crashed, timed out); ``message`` says why."""
    return TypeCheckResult(
        type=CHECK_TYPE,
        target=language,
        passed=False,
        unjudged=True,
        message=message,
        language=language,
        checker=checker.label if checker else None,
    )


def skipped(language: str, message: str, checker: Checker | None = None) -> TypeCheckResult:
    """A result that counts neither way: ``language`` was not checked, ``message`` says why."""
    return TypeCheckResult(
        type=CHECK_TYPE,
        target=language,
        passed=True,
        skipped=True,
        message=message,
        language=language,
        checker=checker.label if checker else None,
    )
