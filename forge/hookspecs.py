"""Hook specifications: every extension point of forge, documented in one place.

A plugin is a module (or object) with functions decorated by
``forge.hookimpl`` whose names are hook names below. It is published under
the entry-point group ``forge``::

    [project.entry-points.forge]
    my_check = "my_package.my_check"

forge's own checks and languages are registered exactly this way, from
forge's ``pyproject.toml``.

Rules that hold for every hook:

- Hooks are called with keyword arguments only. An implementation may accept
  any subset of a spec's arguments, in any order, and nothing else.
- Specs have no defaults: every argument is always passed.
- Return values are the pydantic models of :mod:`forge.models`, never dicts.
- forge calls each implementation on its own. When one raises, its exception
  becomes a failure attributed to that plugin (a failing ``plugin_error``
  check result, a plan error, or an error row in ``forge plugins``) and the
  other implementations still run.
- Hook wrappers (``@hookimpl(wrapper=True)`` or ``hookwrapper=True``) are
  refused when the plugin is registered: forge calls each implementation on
  its own, so a wrapper would have nothing to wrap. The plugin shows as
  ``failed`` in ``forge plugins`` with the reason, and none of its hooks run.
  ``tryfirst``/``trylast`` keep their meaning.
- Set ``FORGE_TRACE_PLUGINS=1`` to log every hook call to stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from forge.models import (
        CheckDescriptor,
        CheckResult,
        ExternalTool,
        Language,
        PlanFinding,
        PlanRuleDescriptor,
        ValidateRequest,
    )
    from forge.plan.model import Plan
    from forge.plugin_host.catalog import KnownChecks
    from forge.workspace import Workspace

hookspec = pluggy.HookspecMarker("forge")


# --- registration: called once per plugin manager ---------------------------


@hookspec
def forge_languages() -> list[Language] | None:
    """Register languages that forge can parse.

    **When:** once, the first time a plugin manager's language registry is
    needed (the first ``validate`` that lists a file, ``forge plugins``).

    **Returns:** a list of :class:`forge.models.Language`: a name, the file
    extensions it owns (with the dot), a ``load_grammar`` callable that returns
    a ``tree_sitter.Language`` (called lazily, at most once), and optionally an
    export/import extractor used by contract checks. Return ``None`` or ``[]``
    to register nothing (for example when an optional dependency is absent).

    Optional fields: ``detect_encoding`` (files may declare a non-UTF-8
    encoding), ``authority`` (loads a complete in-process parser whose
    :class:`forge.models.SyntaxVerdict` decides whether a file parses: it
    clears the grammar's false alarms and reports what the grammar misses),
    ``check_tree`` (syntax rules the grammar does not enforce) and
    ``fallback`` (give way silently to any other plugin's language with the
    same name or extension, as the language pack does).

    **Conflicts:** two languages with one name, or two languages claiming one
    extension, are an error naming both plugins; the later-registered one is
    not used. It shows in ``forge plugins`` and as a failing ``plugin_error``
    result of every ``validate``.

    **On raise:** the plugin's languages are not registered and the failure is
    shown in ``forge plugins``; files of those languages get no syntax check.
    """


@hookspec
def forge_checks() -> list[CheckDescriptor] | None:
    """Declare the checks this plugin runs in ``forge_run_checks``.

    **When:** once per plugin manager, the first time its checks are needed
    (the first ``validate``, ``forge validate``, ``forge plugins``).

    **Returns:** a list of :class:`forge.models.CheckDescriptor`, one per check
    id the plugin's results use: ``id`` (the results' ``type``), ``summary``
    (one sentence, shown as the SARIF rule description), ``order`` (results
    are listed by it, lower first; forge's own checks use 0-50),
    ``halts_on_failure`` (a failure stops the remaining checks and records no
    attempt), ``targets_file`` (a result's ``target`` is a file path, so
    reports point at it even without a line) and ``judges_edits`` (a failure
    blocks an agent's edit in ``forge hook``: only for quick checks that judge
    a file as written, never work in progress), ``read_only`` (the check runs
    none of the module's programs and writes nothing in the working dir) and
    ``concurrent`` (see ``forge_run_checks``). ``None`` or ``[]`` declares
    nothing. Every result type the plugin's ``forge_run_checks`` returns must be
    one of its ids (convention 8): a plugin that runs checks but declares none
    is an error at start-up (``forge plugins``, and a failing ``plugin_error``
    result of every ``validate``); a result of an id it never declared (a typo,
    another plugin's id) counts for nothing and is replaced by such an error.

    **Conflicts:** ids are unique. A second plugin declaring a taken id is an
    error naming both plugins, shown in ``forge plugins`` and as a failing
    ``plugin_error`` result of every ``validate``; its declaration is not used.

    **On raise:** the plugin's declarations are not used and the failure shows
    the same way.
    """


@hookspec
def forge_plan_rules() -> list[PlanRuleDescriptor] | None:
    """Declare the plan rules this plugin runs in ``forge_check_plan``.

    **When:** once per plugin manager, the first time a plan is checked.

    **Returns:** a list of :class:`forge.models.PlanRuleDescriptor`, one per
    finding ``type`` the plugin reports: ``id``, ``summary`` and ``order``
    (findings are listed by it, lower first). ``None`` or ``[]`` declares
    nothing; findings of an undeclared type are listed last.

    **Conflicts:** a second plugin declaring a taken id is a ``plugin_error``
    error of every plan check, naming both plugins.

    **On raise:** a ``plugin_error`` error naming the plugin; other rules run.
    """


# --- validation: called once per validate request ----------------------------


@hookspec
def forge_run_checks(request: ValidateRequest, workspace: Workspace) -> list[CheckResult] | None:
    """Run checks for one ``validate`` request and return their results.

    **When:** once per ``validate`` call (MCP tool or ``forge validate``),
    after the request has been checked. Implementations are called one at a
    time, ``tryfirst`` ones first. The working dir is checked by the built-in
    ``cwd_check`` plugin, which runs first: when it fails, no other check runs.

    **Concurrent checks:** a plugin that declares a ``concurrent`` check (one
    that spends its time waiting on another program, as a type checker does)
    is called in a thread of its own where its turn comes, and runs beside the
    plugins that follow as long as their checks are all ``read_only``; forge
    waits for it before calling the first plugin with a check that is not (the
    verify commands, which may write what it reads). Such a plugin shares the
    workspace with the other thread (its parse cache is safe to share), and
    its ``workspace.report_progress`` calls are not passed on: forge reports
    its step when it collects the results. When the call ends early (Ctrl-C,
    a halting check, a cancelled MCP request), forge still waits for it, so
    work that waits long must poll ``forge.runtime.cancellation.cancelled()``
    and stop (forge-types kills its checker); threads it starts must run in a
    copy of its context (``contextvars.copy_context().run``) to see it.

    :param request: the validated :class:`forge.models.ValidateRequest`.
        Options meant for your plugin are in
        ``request.plugin_options.get("<your entry-point name>", {})``.
    :param workspace: the shared :class:`forge.workspace.Workspace`: the
        working dir, path resolution, the project's ``[tool.forge]`` config and
        the parse cache. Parse files through it, never on your own: each file is
        read and parsed at most once per call, whichever checks use it. A check
        that takes long may call ``workspace.report_progress("what was done")``
        after each unit of work (``command`` does, per command): an MCP client
        that asked for progress sees it; otherwise it costs nothing.

    **Returns:** a list of :class:`forge.models.CheckResult` (or subclasses),
    one per target checked, each with a ``type`` of your check's id
    (lower-case, e.g. ``stub_check``) and a stable ``target``. Return ``None``
    or ``[]`` when there is nothing to check. Results count toward the score.

    **On raise:** the exception becomes one failing result of type
    ``plugin_error`` whose target is your plugin's name; the results of other
    plugins are unaffected.
    """


# --- long-lived processes: a plugin's warm resources ---------------------------


@hookspec
def forge_engine_started(project_root: Path) -> None:
    """A long-lived process started serving ``project_root``: warm up what is worth keeping.

    **When:** once per project, by processes that answer many calls: the MCP
    server (``forge serve``), when its engine for the project is built, and
    ``forge daemon``, before it forks the children that run each command.
    One-shot commands (``forge validate``, ``forge hook`` in its own process)
    never call it: a plugin must work without it, only slower.

    Start what later calls can reuse (a type checker's server, an index) and
    keep it in the plugin's own state, keyed by ``project_root``. It must
    return quickly: start work in the background rather than wait for it.

    **Fork safety:** ``forge daemon`` forks after this hook. A resource kept
    in this process (a thread, a pipe to a child process) must not be used by
    a forked child; a resource other processes can reach (a server listening
    on a socket under ``.forge/``) is what a forked command can use.

    **Returns:** nothing (a return value is ignored).

    **On raise:** logged to stderr with the plugin's name; nothing else
    changes: the plugin's checks run cold.
    """


@hookspec
def forge_engine_stopped(project_root: Path) -> None:
    """The long-lived process that called ``forge_engine_started`` stops serving ``project_root``.

    **When:** once, as the MCP server or ``forge daemon`` shuts down
    (end of input, a signal, idle timeout). Stop what ``forge_engine_started``
    started; leave nothing running.

    **Returns:** nothing (a return value is ignored).

    **On raise:** logged to stderr with the plugin's name; the other plugins
    are still told.
    """


@hookspec
def forge_tools(project_root: Path) -> list[ExternalTool] | None:
    """Name the programs this plugin runs for ``project_root``, per language, for ``forge plugins``.

    **When:** by ``forge plugins``, never while validating.

    **Returns:** a list of :class:`forge.models.ExternalTool`: the language,
    the program, its version, whether it was found, and a note (why this one,
    or what to install). ``None`` or ``[]`` when the plugin runs no program.

    **On raise:** ``forge plugins`` shows the failure in the plugin's row.
    """


# --- plan validation: called once per plan ------------------------------------


@hookspec
def forge_check_plan(
    plan: Plan, project_root: Path, checks: KnownChecks
) -> list[PlanFinding] | None:
    """Check a parsed plan and report errors and warnings.

    **When:** once per plan, by the ``validate_plan`` tool and ``forge plan
    check``, after the plan file has been read and its structure checked.
    Structural problems (unreadable file, invalid JSON, missing required
    fields) are reported by forge before this hook (type ``schema``) and may
    leave some modules out of ``plan``; rules only see modules whose
    structure was usable. When the file is not a JSON object at all, no rule
    is called.

    :param plan: the :class:`forge.plan.model.Plan` being checked. ``plan.graph`` is
        the dependency graph every rule shares (layers, reachability,
        cycles); ``plan.omitted_ids`` are the ids of modules left out because
        of ``schema`` errors (do not report them as unknown).
    :param project_root: the project root, for resolving paths such as
        ``./scripts/test.sh`` in verify commands. Never execute anything.
    :param checks: the ids of the checks ``validate`` would judge here, the
        plugins' and the core's (``syntax_check in checks``), a
        :class:`forge.plugin_host.KnownChecks`: a set found the first time it is
        read (which may import the check plugins), so read it only when a
        plan needs it. ``checks.disabled`` names the plugins disabled here.

    **Returns:** a list of :class:`forge.models.PlanFinding` with
    ``severity`` ``"error"`` (the plan is invalid) or ``"warning"``, naming
    the modules, files and field involved. ``None`` or ``[]`` when fine.

    **On raise:** one ``plugin_error`` error naming your plugin is added to the
    plan's errors (so is returning anything but a list of ``PlanFinding``);
    other rules still run.
    """
