"""New suppressions are judged, not obeyed.

A worker can silence the type check instead of fixing what it reports: a
``# type: ignore``, ``# pyright: ignore``, ``# pyrefly: ignore``,
``// @ts-ignore``, ``// @ts-expect-error``, ``// @ts-nocheck`` or an ``as any``
cast added since the base in the module's files, or a checker configuration
loosened since the base (``"strict": false``, ``disable_error_code``). With a
base, forge reads the listed files and the configuration at the base; where the
work added a suppression or loosened a setting, the checker runs again on a
scratch copy of the working tree (never the user's tree) with those
suppressions blanked out (same lines and columns) and the base's configuration,
and what it finds there on the suppressed lines, and the base did not have, is
a new diagnostic "(suppressed since the base)". A suppression the base already
had on the same line stays respected.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from forge.git import Base
from forge.git.runner import git_environment
from forge_types.diagnostics import Diagnostic

#: A suppression in a line of each language; group ``whole`` set: the whole file.
_PYTHON = re.compile(r"#\s*(?:type|pyright|pyrefly)\s*:\s*ignore\b(?:\[[^\]]*\])?")
_TYPESCRIPT = re.compile(
    r"//\s*@ts-(?:ignore|expect-error)\b.*$|/\*\s*@ts-(?:ignore|expect-error)\b.*?\*/"
    r"|(?P<whole>//\s*@ts-nocheck\b.*$)|\bas\s+any\b"
)
#: Settings whose change since the base may hide diagnostics (a loosened configuration).
_LOOSENING_KEYS = re.compile(
    r"strict\w*|noImplicit\w+|skipLibCheck|checkJs|noUnchecked\w+|exactOptional\w+|"
    r"ignore_errors|disable_error_code|enable_error_code|ignore_missing_imports|"
    r"follow_imports|disallow_\w+|check_untyped_defs|warn_\w+|typeCheckingMode|report\w+|"
    r"errors|ignore-errors\w*|permissive-ignores|project-excludes|exclude|include"
)


@dataclass
class Suppressed:
    """What the work silenced since the base: lines per file (None: the whole file), and
    configuration files whose base version judges the work."""

    lines: dict[Path, set[int] | None] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)
    configs: dict[Path, bytes] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.lines or self.configs)


def added_since(base: Base, listed: list[Path], configs: list[Path], language: str) -> Suppressed:
    """The suppressions the work added in ``listed`` and the ``configs`` it loosened."""
    pattern = _PYTHON if language == "python" else _TYPESCRIPT
    at_base = base.contents([*listed, *configs])
    found = Suppressed()
    for path in listed:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        old = (at_base.get(path) or b"").decode("utf-8", errors="replace")
        lines, blanked = _new_suppressions(pattern, old, text)
        if lines or lines is None:
            found.lines[path] = lines
            found.texts[path] = blanked
    for path in configs:
        old_bytes = at_base.get(path)
        try:
            now = path.read_bytes()
        except OSError:
            now = b""
        if old_bytes is not None and old_bytes != now and _loosened(old_bytes, now):
            found.configs[path] = old_bytes
    return found


def _new_suppressions(pattern: re.Pattern[str], old: str, text: str) -> tuple[set[int] | None, str]:
    """The lines whose diagnostics a new suppression hides (None: every line), and ``text``
    with the new suppressions blanked out (spaces: lines and columns stay)."""
    respected = Counter(line.strip() for line in old.splitlines() if pattern.search(line))
    hidden: set[int] = set()
    whole = False
    out = []
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        found = list(pattern.finditer(line))
        if not found:
            out.append(line)
            continue
        if respected[line.strip()] > 0:  # there at the base, on the same line: respected
            respected[line.strip()] -= 1
            out.append(line)
            continue
        for match in reversed(found):
            line = line[: match.start()] + " " * (match.end() - match.start()) + line[match.end() :]
            whole = whole or bool(match.groupdict().get("whole"))
        out.append(line)
        # A comment alone on its line suppresses the next one (@ts-ignore, @ts-expect-error).
        hidden |= {number, number + 1} if not line.strip() else {number}
    return (None if whole else hidden), "".join(out)


def _loosened(old: bytes, now: bytes) -> bool:
    """Whether a setting that may hide diagnostics differs between two configuration files."""

    def settings(data: bytes) -> Counter[str]:
        lines = data.decode("utf-8", errors="replace").splitlines()
        return Counter(
            " ".join(line.split()) for line in lines if _LOOSENING_KEYS.search(line.split("=")[0])
        )

    return settings(old) != settings(now)


#: Folders a scratch copy leaves out even when git does not ignore them (environments).
_NOT_COPIED = frozenset({".venv", "venv", "env", "node_modules", ".forge", ".git"})


def scratch_tree(root: Path, suppressed: Suppressed, into: Path) -> Path:
    """A copy of the working tree under ``root`` (tracked and untracked files git does not
    ignore) in ``into``, suppressions blanked, configurations as at the base."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, env=git_environment(), timeout=120, check=False,
    )  # fmt: skip
    for name in listing.stdout.decode("utf-8", errors="surrogateescape").split("\0"):
        source = root / name
        if not name or name.split("/", 1)[0] in _NOT_COPIED:
            continue
        if source.is_symlink() or not source.is_file():
            continue
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    for path, text in suppressed.texts.items():
        (into / path.relative_to(root)).write_text(text, encoding="utf-8")
    for path, data in suppressed.configs.items():
        (into / path.relative_to(root)).write_bytes(data)
    if (root / "node_modules").is_dir() and not (into / "node_modules").exists():
        (into / "node_modules").symlink_to(root / "node_modules", target_is_directory=True)
    return into


#: Run the checker over files of a folder standing for the working dir.
RunAt = Callable[[Path, list[Path]], list[Diagnostic]]
#: A suffix of the message of a diagnostic a new suppression hid.
SUPPRESSED = " (suppressed since the base)"


def hidden_since_base(
    root: Path,
    files: list[Path],
    suppressed: Suppressed,
    head: list[Diagnostic],
    old: dict[str, list[Diagnostic]],
    run_at: RunAt,
) -> list[Diagnostic]:
    """The diagnostics the work's new suppressions hide, and the base did not have.

    The checker runs over ``files`` in a scratch copy of the working tree with the
    suppressions blanked and the base's configuration: what it finds on a suppressed
    line (anywhere, for a loosened configuration) that the working tree's run
    (``head``) did not find and the base (``old``) did not have.
    """
    with tempfile.TemporaryDirectory(prefix="forge-types-unsuppressed-") as folder:
        stand_in = scratch_tree(root, suppressed, Path(folder).resolve())
        found = run_at(stand_in, [stand_in / _rel(path, root) for path in files])
    wanted = {_rel(path, root): lines for path, lines in suppressed.lines.items()}
    seen = Counter((d.path, d.line, d.rule, d.message) for d in head)
    had = Counter((d.path, d.rule, d.message, d.symbol) for items in old.values() for d in items)
    hidden = []
    for item in found:
        lines = wanted.get(item.path, set())
        if not suppressed.configs and lines is not None and item.line not in lines:
            continue
        if seen[(item.path, item.line, item.rule, item.message)] > 0:
            seen[(item.path, item.line, item.rule, item.message)] -= 1
            continue  # the work reports it too: not hidden
        if had[(item.path, item.rule, item.message, item.symbol)] > 0:
            had[(item.path, item.rule, item.message, item.symbol)] -= 1
            continue  # the base had it: hiding an old diagnostic adds no error
        hidden.append(dataclasses.replace(item, message=item.message + SUPPRESSED))
    return hidden


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
