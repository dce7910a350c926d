"""The workspace one validate call shares between all checks.

It resolves paths against the working dir, hands each plugin its options,
and holds the parse cache, so a file is read and parsed at most once per call
whichever checks look at it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forge.config import ForgeConfig
from forge.languages import LanguageRegistry, ParseCache, ParsedFile, ParseSession
from forge.models.plugin_options import overlay, parse_plugin_options

if TYPE_CHECKING:
    from forge.git import Base
    from forge.models import CheckResult
    from forge.models.plugin_options import Options
    from forge.plan.locate import PlanModuleRef

#: Told of each step of a validate call: (steps done so far, total if known, what was done).
ProgressCallback = Callable[[int, "int | None", str], None]


class Workspace:
    """Working dir, project config and shared caches for one validate call."""

    def __init__(
        self,
        cwd: Path,
        *,
        config: ForgeConfig,
        plugin_options: dict[str, dict[str, Any]] | None = None,
        languages: LanguageRegistry | None = None,
        parse_cache: ParseCache | None = None,
        progress: ProgressCallback | None = None,
        base: Base | None = None,
        plan_module: Callable[[], PlanModuleRef | None] | None = None,
    ) -> None:
        self.cwd = cwd
        #: The base revision the call is judged against (``baseRef``), or None.
        self.base = base
        self._plan_lookup = plan_module
        self._plan_module: PlanModuleRef | None = None
        self._plan_lock = threading.Lock()
        self._cwd_prefix = str(cwd).rstrip("/") + "/"
        self._progress = progress
        self._steps = 0
        #: The thread of the call: the one progress is told from.
        self._thread = threading.get_ident()
        self.config = config
        #: Seconds the caller can wait for the checks (``forge hook`` answers an agent's
        #: edit: its budget), None without a limit. A check that cannot answer in time
        #: returns a skipped result saying why, rather than keep the agent waiting.
        self.budget: float | None = None
        self._plugin_options = plugin_options or {}
        self._resolved: dict[str, Path] = {}
        #: The registered languages (none unless the engine passes its registry).
        self.languages = languages if languages is not None else LanguageRegistry()
        self._parsing = ParseSession(
            self.languages,
            parse_cache if parse_cache is not None else ParseCache(),
            max_file_bytes=config.max_parse_bytes,
        )

    @property
    def plan_module(self) -> PlanModuleRef | None:
        """The plan module the call validates (its plan, its project root), if there is one.

        Found the first time a check asks (the run's plan: its session's
        ``planPath``, ``FORGE_PLAN``, the newest plan), so a call whose checks
        never ask reads no plan.
        """
        with self._plan_lock:  # a concurrent check may ask at the same time
            if self._plan_lookup is not None:
                lookup, self._plan_lookup = self._plan_lookup, None
                self._plan_module = lookup()
        return self._plan_module

    def resolve(self, file: str) -> Path:
        """``file`` as an absolute path: relative paths are taken from the working dir."""
        # Every check asks for the same files: build each path once per call.
        found = self._resolved.get(file)
        if found is None:
            if file.startswith(("~", "/")):
                path = Path(file).expanduser()
                found = path if path.is_absolute() else self.cwd / path
            else:  # cwd / file, in one Path instead of three
                found = Path(self._cwd_prefix + file)
            self._resolved[file] = found
        return found

    def display(self, path: Path) -> str:
        """``path`` relative to the working dir when inside it, for messages."""
        # What relative_to gives for a path under the working dir, without its
        # cost: both are normalised POSIX paths, so a string prefix is the test.
        text = str(path)
        if text.startswith(self._cwd_prefix):
            return text[len(self._cwd_prefix) :]
        try:
            return path.relative_to(self.cwd).as_posix()
        except ValueError:
            pass
        # The same folder spelt another way (``project/../wt-cart``, a symlink).
        try:
            return Path(os.path.realpath(path)).relative_to(os.path.realpath(self.cwd)).as_posix()
        except ValueError:
            return text

    def relative_places(self, result: CheckResult) -> CheckResult:
        """``result`` with every absolute location path inside the working dir made relative
        to it (:meth:`display`), whoever the check: places read the same from every check."""
        if not any(place.path and Path(place.path).is_absolute() for place in result.locations):
            return result
        places = [
            place.model_copy(update={"path": self.display(Path(place.path))})
            if place.path and Path(place.path).is_absolute()
            else place
            for place in result.locations
        ]
        return result.model_copy(update={"locations": places})

    def report_progress(self, message: str) -> None:
        """Tell the caller (an MCP client's progress bar) that one more step is done.

        Checks that take long call it per unit of work (``command`` per command);
        forge itself calls it after each plugin's checks. Steps only go up; the
        total is not known in advance. A failing listener never fails the check.
        """
        if self._progress is None or threading.get_ident() != self._thread:
            # A concurrent check's thread cannot reach an MCP client's event loop;
            # the engine reports its plugin's step when it collects the results.
            return
        self._steps += 1
        try:
            self._progress(self._steps, None, message)
        except Exception:  # progress is a courtesy: the client may have gone away
            self._progress = None

    def options(self, plugin: str) -> dict[str, Any]:
        """Settings for ``plugin``: ``[tool.forge.<plugin>]`` overlaid with per-call options."""
        merged = self.config.plugin_config(plugin)
        merged.update(self._plugin_options.get(plugin, {}))
        return merged

    def plugin_options(self, plugin: str, model: type[Options]) -> Options:
        """:meth:`options` validated as ``model`` (a :class:`forge.models.PluginOptions`).

        Raises :class:`forge.models.PluginOptionsError` naming the source of a bad
        key: ``[tool.forge.<plugin>]`` when the table is wrong on its own, else
        ``pluginOptions.<plugin>``.
        """
        table, per_call = self.config.plugin_config(plugin), self._plugin_options.get(plugin, {})
        from_table = parse_plugin_options(model, table, f"[tool.forge.{plugin}]")
        if not per_call:
            return from_table
        merged = overlay(model, table, per_call)
        return parse_plugin_options(model, merged, f"pluginOptions.{plugin}")

    def parse(self, file: str | os.PathLike[str]) -> ParsedFile | None:
        """``file``'s tree, parsed at most once per validate call whichever check asks.

        Returns None when no registered language owns the file's extension.
        Raises :class:`forge.languages.NotParsed` (with a ``reason``: missing,
        unreadable, too_large, not_text, no_grammar) when the language is
        known but there is no tree. Never edit the returned tree: other checks
        and threads share it.
        """
        path = (
            file if isinstance(file, Path) and file.is_absolute() else self.resolve(os.fspath(file))
        )
        return self._parsing.parse(path)
