"""JSON as its readers read it: strict JSON, or JSONC where the reader takes comments.

tree-sitter's JSON grammar accepts comments (and refuses a trailing comma
everywhere), so a ``package.json`` with a comment passed while node refuses to
load it, and a ``tsconfig.json`` with a trailing comma failed while tsc takes
it. This authority decides instead, with Python's ``json`` (nothing but JSON:
no comments, no trailing comma, no ``NaN``/``Infinity``, which ``JSON.parse``
refuses too), except in files whose readers take JSONC (comments and trailing
commas):

- ``tsconfig.json``, ``tsconfig.*.json``, ``jsconfig.json`` (and
  ``jsconfig.*.json``): TypeScript reads them as JSONC;
- any ``.json`` in a ``.vscode`` folder (VS Code's settings, launch, tasks);
- ``.eslintrc.json``, ``devcontainer.json``, ``.devcontainer.json``,
  ``turbo.json``, ``tslint.json``: their readers strip comments;
- ``*.jsonc``;
- what the nearest ``[tool.forge]`` above the file lists in ``jsonc-files``
  (globs relative to that ``pyproject.toml``'s folder, as ``generated``).

``package.json`` is always strict: node refuses to load a package whose
``package.json`` holds a comment.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from forge.globs import matches
from forge.languages.project_files import nearest_value
from forge.models import SyntaxAuthority, SyntaxVerdict

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the oldest supported Python
    import tomli as tomllib

#: What the config key is called in ``[tool.forge]``.
CONFIG_KEY = "jsonc-files"
_JSONC_NAMES = re.compile(r"(?:ts|js)config(?:\..+)?\.json", re.IGNORECASE)
#: Other files whose well-known readers take comments: ESLint's legacy config, dev
#: containers, Turborepo, TSLint.
_JSONC_FILES = frozenset(
    {".eslintrc.json", "devcontainer.json", ".devcontainer.json", "turbo.json", "tslint.json"}
)
_DECLARE = f"list it in [tool.forge] {CONFIG_KEY} if its reader takes them"


def load_authority() -> SyntaxAuthority:
    """The JSON authority (the standard library's parser: always available)."""
    return SyntaxAuthority(
        name="json (strict; JSONC where the reader takes it)", check=check, context=jsonc_globs
    )


def check(path: Path, source: bytes) -> SyntaxVerdict:
    """The verdict on ``path``: strict JSON, or JSONC when its reader takes it."""
    text = source.decode("utf-8-sig", errors="replace")
    problem = _error(text)
    if problem is None:  # strict JSON: valid for every reader (the common, fast case)
        return SyntaxVerdict(valid=True)
    stripped, comment, comma = _strip(text)
    if takes_jsonc(path):
        problem = _error(stripped)
        return SyntaxVerdict(valid=True) if problem is None else _at(text, problem[1], problem[0])
    if (comment is not None or comma is not None) and _error(stripped) is None:
        # Otherwise good JSON: say which JSONC feature it is.
        first = min(offset for offset in (comment, comma) if offset is not None)
        what = "comments" if first == comment else "a trailing comma"
        message = f"JSON allows no {what} ({_DECLARE})"
        if path.name == "package.json":
            message = f"JSON allows no {what} (node reads package.json as strict JSON)"
        return _at(text, first, message)
    return _at(text, problem[1], problem[0])


def takes_jsonc(path: Path) -> bool:
    """Whether ``path``'s reader takes comments and trailing commas."""
    name = path.name
    if name.lower().endswith(".jsonc") or _JSONC_NAMES.fullmatch(name) or name in _JSONC_FILES:
        return True
    if path.parent.name == ".vscode":
        return True
    declared = jsonc_globs(path.parent)
    if declared is None:
        return False
    root, globs = declared
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        return False
    # The plan's glob syntax (that of [tool.forge] generated), imported only when
    # a project declares globs: forge.plan loads more than this needs.

    return matches(relative, globs) is not None


def jsonc_globs(directory: Path) -> tuple[Path, tuple[str, ...]] | None:
    """The folder of the nearest ``[tool.forge]`` above ``directory`` and its ``jsonc-files``."""
    for folder in (directory, *directory.parents):
        if not (folder / "pyproject.toml").is_file():
            continue
        value = nearest_value(folder, "pyproject.toml", _declared)
        if value is not None:
            return folder, tuple(json.loads(value))
    return None


def _declared(contents: bytes) -> str | None:
    """``[tool.forge] jsonc-files`` as JSON text; None without a ``[tool.forge]`` table."""
    table = tomllib.loads(contents.decode("utf-8")).get("tool", {}).get("forge")
    if not isinstance(table, dict):
        return None
    globs = table.get(CONFIG_KEY, table.get(CONFIG_KEY.replace("-", "_"), []))
    return json.dumps([g for g in globs if isinstance(g, str)] if isinstance(globs, list) else [])


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _error(text: str) -> tuple[str, int] | None:
    """The first error of ``text`` as strict JSON: (message, character offset), or None."""
    try:
        json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return exc.msg, exc.pos
    except ValueError as exc:  # NaN, Infinity: JSON.parse refuses them too
        constant = re.search(r"-?(?:NaN|Infinity)", text)
        return str(exc), constant.start() if constant else 0
    except RecursionError:
        return "nested too deeply", 0
    return None


def _strip(text: str) -> tuple[str, int | None, int | None]:
    """``text`` with comments and trailing commas blanked (places kept), and where the first of each is."""
    out = list(text)
    first_comment: int | None = None
    first_comma: int | None = None
    last_comma: int | None = None  # a comma with only blanks and comments after it so far
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char == '"':
            last_comma = None
            index += 1
            while index < size and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
            index += 1
            continue
        if char == "/" and text.startswith(("//", "/*"), index):
            end = text.find("\n", index) if text[index + 1] == "/" else text.find("*/", index + 2)
            end = size if end < 0 else end + (0 if text[index + 1] == "/" else 2)
            for blank in range(index, end):
                if out[blank] != "\n":
                    out[blank] = " "
            first_comment = index if first_comment is None else first_comment
            index = end
            continue
        if char in "]}" and last_comma is not None:
            out[last_comma] = " "
            first_comma = last_comma if first_comma is None else first_comma
        if char == ",":
            last_comma = index
        elif not char.isspace():
            last_comma = None
        index += 1
    return "".join(out), first_comment, first_comma


def _at(text: str, offset: int, message: str) -> SyntaxVerdict:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return SyntaxVerdict(valid=False, line=line, column=column, message=message)
