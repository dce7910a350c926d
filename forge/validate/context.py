"""What a stage of the pipeline receives: the project's configuration, plugins and caches.

The stages (:mod:`.preparation`, :mod:`.baseline`, :mod:`.acceptance`, :mod:`.edit`)
are handed a :class:`StageContext`, not the engine that runs them: they read
the project's config, its plugins' declarations and its caches, and may run
the checks over another request (the base revision's tree), but never reach
back into the pipeline that called them. :class:`forge.validate.run.Engine`
is the one implementation.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from forge.config import ForgeConfig
    from forge.languages import LanguageRegistry, ParseCache
    from forge.models import CheckResult, ValidateRequest
    from forge.plugin_host.host import PluginHost
    from forge.store.forge_dir import ForgeDir
    from forge.store.project import ProjectPlace
    from forge.workspace import Workspace


class StageContext(Protocol):
    """One project's configuration, plugins, languages, parse cache and ``.forge/`` folder."""

    root: Path
    #: The project and the default working dir (a worker's worktree, or the root).
    place: ProjectPlace
    config: ForgeConfig
    plugins: PluginHost
    forge_dir: ForgeDir
    parse_cache: ParseCache

    @property
    def languages(self) -> LanguageRegistry:
        """The languages the plugins declare."""
        ...

    def run_checks(
        self,
        request: ValidateRequest,
        workspace: Workspace,
        *,
        plugins: Collection[str] | None = None,
    ) -> list[CheckResult]:
        """Every check of ``plugins`` (default: all) over ``request``, failures included."""
        ...
