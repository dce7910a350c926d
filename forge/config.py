"""Where the project is and how it is configured (``[tool.forge]`` in ``pyproject.toml``)."""

from __future__ import annotations

import os
import sys
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from forge.errors import ConfigError, ForgeError
from forge.store.project import ProjectPlace, project_place_of
from forge.store.safe_open import read_regular_file
from forge.validation_errors import describe_validation_error

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DEFAULT_COMMAND_TIMEOUT = 120.0
DEFAULT_MAX_ATTEMPTS = 3
DEFAULT_MAX_PARSE_BYTES = 5 * 1024 * 1024
#: Largest ``pyproject.toml`` read: real ones are a few KB.
MAX_CONFIG_BYTES = 4 * 1024 * 1024


def project_root() -> Path:
    """The project whose ``.forge/`` folder forge uses (:func:`project_place`'s root)."""
    return project_place().root


def project_place() -> ProjectPlace:
    """The project, and the default working dir, of ``FORGE_CWD``, else of the working dir.

    That folder is the project, except in a git linked worktree whose main
    checkout holds ``.forge/``: then the project is the main checkout and the
    folder the module's working dir (:mod:`forge.store.project`).

    Raises :class:`ConfigError` (nothing created) when ``FORGE_CWD`` names no
    directory, and when the working dir is the filesystem root: forge would
    put ``.forge/`` there, which nobody means unless ``FORGE_CWD`` says so.
    """
    configured = os.environ.get("FORGE_CWD")
    if configured:
        root = Path(configured).expanduser()
        if not root.is_dir():
            what = "is not a directory" if root.exists() else "does not exist"
            raise ConfigError(
                f"FORGE_CWD={configured} {what}: set FORGE_CWD to the project's folder, or unset it"
            )
        return project_place_of(root.resolve())
    try:
        root = Path.cwd().resolve()
    except OSError as exc:  # the working dir was removed under us
        raise ConfigError(
            f"the working directory is gone ({exc.strerror}): cd to the project"
        ) from None
    if root == Path(root.anchor):
        raise ConfigError(
            f"the working directory is {root}, not a project: cd to the project's folder, "
            f"or set FORGE_CWD={root} to use it"
        )
    return project_place_of(root)


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class ForgeConfig(BaseModel):
    """``[tool.forge]``: keys in kebab-case (``max-attempts``) or snake_case.

    Sub-tables such as ``[tool.forge.stubs]`` belong to the plugin of that
    name and are handed to it through :meth:`plugin_config`.
    """

    model_config = ConfigDict(
        alias_generator=_kebab,
        populate_by_name=True,
        extra="allow",
        frozen=True,
        defer_build=True,
    )

    disable: list[str] = Field(default_factory=list, description="Plugin names not to load.")
    max_attempts: int = Field(default=DEFAULT_MAX_ATTEMPTS, ge=1, le=1_000)
    command_timeout: float = Field(default=DEFAULT_COMMAND_TIMEOUT, gt=0, le=3_600)
    max_parse_bytes: int = Field(default=DEFAULT_MAX_PARSE_BYTES, ge=1)
    min_tests: int = Field(
        default=1,
        ge=0,
        le=1_000_000,
        description=(
            "Fewest tests a verify command's test runner must run (skipped ones do not "
            "count); 0 turns the rule off."
        ),
    )
    tests_exempt: list[str] = Field(
        default_factory=list,
        description=(
            "Verify commands judged by their exit code alone, whatever test summary they "
            "print: exact commands or fnmatch patterns."
        ),
    )
    base_ref: str | None = Field(
        default=None,
        min_length=1,
        description="Default git revision validate judges against ('auto': merge-base with "
        "the default branch); the baseRef argument and --base win.",
    )

    generated: list[str] = Field(
        default_factory=list,
        description="Globs of files tools write (build output, snapshots, codegen): a change "
        "to one is never outside a module's lane. Well-known lock files need no entry.",
    )

    jsonc_files: list[str] = Field(
        default_factory=list,
        description="Globs of .json files whose reader takes comments and trailing commas "
        "(JSONC); every other .json must be strict JSON. tsconfig*.json, jsconfig*.json, "
        ".vscode/*.json and *.jsonc need no entry.",
    )

    def exempt_from_tests(self, command: str) -> bool:
        """Whether ``tests-exempt`` lists ``command``, as written or as a pattern."""
        return any(command == entry or fnmatchcase(command, entry) for entry in self.tests_exempt)

    def plugin_config(self, plugin: str) -> dict[str, Any]:
        """The ``[tool.forge.<plugin>]`` table, or an empty dict."""
        table = (self.model_extra or {}).get(plugin)
        return dict(table) if isinstance(table, dict) else {}


def load_config(root: Path) -> ForgeConfig:
    """Read ``[tool.forge]`` from ``root/pyproject.toml``; defaults when absent.

    Raises :class:`ConfigError` with the file and the problem when the file is
    not valid TOML or the table has bad values.
    """
    path = root / "pyproject.toml"
    try:
        data = read_regular_file(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return ForgeConfig()
    except ForgeError as exc:  # a FIFO, a device (a committed link to /dev/zero), too big
        raise ConfigError(f"cannot read [tool.forge]: {exc}") from exc
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read [tool.forge]: {exc}") from exc
    table = document.get("tool", {}).get("forge", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.forge] must be a table")
    try:
        return ForgeConfig.model_validate(table)
    except ValidationError as exc:
        raise ConfigError(
            f"{path}: {describe_validation_error(exc, subject='[tool.forge]')}"
        ) from exc


def disabled_plugins(config: ForgeConfig) -> frozenset[str]:
    """Plugin names to skip: ``FORGE_DISABLE_PLUGINS=a,b`` plus ``[tool.forge] disable``."""
    from_env = os.environ.get("FORGE_DISABLE_PLUGINS", "")
    names = {name.strip() for name in from_env.split(",")} | set(config.disable)
    return frozenset(name for name in names if name)
