"""The ``stubs`` plugin: one ``stub_check`` result per listed file it has rules for.

Registered under the ``forge`` entry-point group as ``stubs``. It uses only
forge's public plugin API: ``forge.hookimpl``, :mod:`forge.models`, and the
workspace's options and parse cache.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from functools import partial
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from forge import hookimpl
from forge.languages import NotParsed, ParsedFile
from forge.models import CheckDescriptor, Location, PluginOptionsError, ValidateRequest
from forge.workspace import Workspace
from forge_stubs import __version__
from forge_stubs.models import CHECK_TYPE, StubFinding, StubResult
from forge_stubs.options import PLUGIN_NAME, StubOptions

if TYPE_CHECKING:  # listing plugins imports this module: it must not load tree-sitter
    from forge_stubs.inheritance import Replacement

#: Findings a result carries; ``finding_count`` has the total.
MAX_FINDINGS = 50
#: Findings named in a result's one-line message.
SHOWN_IN_MESSAGE = 5
#: The declaration file TypeScript pairs with each kind of compiled JavaScript.
DECLARATIONS = {".js": ".d.ts", ".cjs": ".d.cts", ".mjs": ".d.mts"}


def is_ignored(file: str, path: Path, workspace: Workspace, options: StubOptions) -> bool:
    """True when an ``ignore`` pattern matches the file as listed or relative to the working dir."""
    if not options.ignore:
        return False
    names = {Path(file).as_posix(), workspace.display(path)}
    return any(fnmatchcase(name, pattern) for pattern in options.ignore for name in names)


def check_file(
    file: str,
    workspace: Workspace,
    options: StubOptions,
    extended: frozenset[str] = frozenset(),
    replaced: frozenset[Replacement] = frozenset(),
) -> StubResult | None:
    """``stub_check``'s result for one listed file; None when the check does not apply to it.

    It does not apply to ignored files, declaration files (``.pyi``, ``.d.ts``),
    build output (``*.min.js``, ``dist/``), files of other languages, and files forge could not parse
    (missing, binary, too large: ``file_check`` and ``syntax_check`` say so).
    ``extended`` names the classes the other listed files extend; ``replaced``
    the classes they assign over others (:func:`forge_stubs.inheritance.replaced_in`).
    """
    path = workspace.resolve(file)
    if is_ignored(file, path, workspace, options):
        return None
    try:
        return _check_parsed(file, path, workspace, options, extended, replaced)
    except Exception as exc:  # one strange file must not cost the other files their results
        reason = " ".join(str(exc).split())[:300]
        return StubResult(
            type=CHECK_TYPE,
            target=file,
            passed=False,
            message=(
                f"forge-stubs {__version__} could not check this file: "
                f"{type(exc).__name__}: {reason} (a bug: please report it)"
            ),
        )


def _parsed(path: Path, workspace: Workspace) -> ParsedFile | None:
    """The file's tree when the check applies to it: a source file of a language with rules."""
    # Imported here, not at module level: forge imports every plugin to list
    # it, and listing must not load tree-sitter.
    from forge_stubs.detect import RULES, is_build_output, is_declaration_file

    # Relative to the project: a checkout under ~/dist/ is not all build output.
    if is_declaration_file(path) or is_build_output(PurePath(workspace.display(path))):
        return None
    try:
        parsed = workspace.parse(path)
    except NotParsed:
        return None
    if parsed is None or parsed.language.name not in RULES:
        return None
    return parsed


def extended_in(files: list[str], workspace: Workspace) -> frozenset[str]:
    """The classes the listed files' classes extend: a base in one file, its subclass in another."""
    names: set[str] = set()
    for file in files:
        try:
            parsed = _parsed(workspace.resolve(file), workspace)
            if parsed is not None:
                names |= parsed.derived((PLUGIN_NAME, "extended"), partial(_extended, parsed))
        except Exception:  # the file's own result reports what is wrong with it
            continue
    return frozenset(names)


def _replaced_in(files: list[str], workspace: Workspace) -> frozenset[Replacement]:
    """The classes the listed files assign over other classes of the project (drop-ins)."""
    from forge_stubs.inheritance import replaced_in

    try:
        return replaced_in(files, workspace)
    except Exception:  # each file's own result reports what is wrong with it
        return frozenset()


def _extended(parsed: ParsedFile) -> frozenset[str]:
    """The classes ``parsed``'s classes extend (kept with its tree: its source says it all)."""
    from forge_stubs.detect import extended_classes

    return extended_classes(parsed.tree, parsed.source, parsed.language.name)


def _check_parsed(
    file: str,
    path: Path,
    workspace: Workspace,
    options: StubOptions,
    extended: frozenset[str],
    replaced: frozenset[Replacement],
) -> StubResult | None:
    parsed = _parsed(path, workspace)
    if parsed is None:
        return None
    from forge_stubs.inheritance import concrete_overrides

    # Relative to the project: a checkout under ~/tests/ is not all test code.
    relative = workspace.display(path)
    # What the base classes in other files do is read on every call: they may have changed.
    overrides = concrete_overrides(parsed, workspace, replaced)
    # Kept with the tree while the file is unchanged: the result depends on
    # nothing else than what the key holds.
    key = (PLUGIN_NAME, file, relative, options.identity, extended, overrides)
    result = parsed.derived(
        key, lambda: _result(file, parsed, PurePath(relative), options, extended, overrides)
    )
    # Whether a declaration file sits beside it is read on every call (it may have
    # appeared), and only for a module without code: the one finding it changes.
    if any(f.kind == "empty_module" for f in result.findings) and _declared_beside(path):
        result = parsed.derived(
            (*key, "declared"),
            lambda: _result(file, parsed, PurePath(relative), options, extended, overrides, True),
        )
    return result


def _declared_beside(path: Path) -> bool:
    """True when a declaration file of the same name sits beside ``path``.

    date-fns ships ``types.cjs`` (only ``"use strict";``) beside ``types.d.cts``:
    a module of types only, compiled to a file without code. A Python file has none.
    """
    declarations = DECLARATIONS.get(path.suffix)
    return declarations is not None and path.with_suffix(declarations).is_file()


def _result(
    file: str,
    parsed: ParsedFile,
    relative: PurePath,
    options: StubOptions,
    extended: frozenset[str],
    overrides: frozenset[str],
    declared: bool = False,
) -> StubResult:
    from forge_stubs.detect import find_placeholders

    language = parsed.language.name
    findings = find_placeholders(
        parsed.tree, parsed.source, language, relative, options, extended, overrides, declared
    )
    return StubResult(
        type=CHECK_TYPE,
        target=file,
        passed=not findings,
        language=language,
        message=describe(findings),
        findings=findings[:MAX_FINDINGS],
        finding_count=len(findings),
        locations=[
            Location(line=f.line, column=f.column, message=_place(f))
            for f in findings[:MAX_FINDINGS]
        ],
    )


def _place(finding: StubFinding) -> str:
    """A finding as a location's message: ``placeholder (pass) in Greeter.greet: pass``."""
    where = f" in {finding.function}" if finding.function else ""
    text = f"placeholder ({finding.kind}){where}"
    return f"{text}: {finding.text}" if finding.text else text


def describe(findings: list[StubFinding]) -> str:
    """One line: ``no placeholders``, or the first few with line, function and kind."""
    if not findings:
        return "no placeholders"
    shown = [
        f"line {f.line} {f.function or '(module)'} ({f.kind})" for f in findings[:SHOWN_IN_MESSAGE]
    ]
    more = len(findings) - len(shown)
    noun = "placeholder" if len(findings) == 1 else "placeholders"
    return f"{len(findings)} {noun}: {', '.join(shown)}" + (f", and {more} more" if more else "")


@hookimpl
def forge_checks() -> list[CheckDescriptor]:
    """``stub_check``: shown after forge's own checks; its target is the file."""
    return [
        CheckDescriptor(
            id=CHECK_TYPE,
            summary="A file holds no placeholder implementations.",
            order=60,
            targets_file=True,
            read_only=True,
        )
    ]


@hookimpl
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[StubResult]:
    """One ``stub_check`` result per distinct listed file the check applies to.

    Bad options give a single failing result naming the bad key instead.
    """
    try:
        options = workspace.plugin_options(PLUGIN_NAME, StubOptions)
    except PluginOptionsError as exc:
        source = exc.source
        return [
            StubResult(type=CHECK_TYPE, target=source, passed=False, message=f"bad options: {exc}")
        ]
    files = list(dict.fromkeys(request.files))
    extended = extended_in(files, workspace)
    replaced = _replaced_in(files, workspace)
    results = (check_file(file, workspace, options, extended, replaced) for file in files)
    return [result for result in results if result is not None]
