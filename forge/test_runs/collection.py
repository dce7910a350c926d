"""The spec tests by id: pytest's own collection of a verify command, at the base and at the work.

A worker can shrink what a verify command runs without touching a test's text:
delete it, drop it in a ``conftest.py`` hook, ``collect_ignore`` its file,
``--deselect`` it in ``addopts``. What pytest collects says so whatever the
means. :func:`collect` runs the command's own pytest invocation with
``--collect-only`` and a small plugin of forge's (:data:`PLUGIN`, loaded with
``-p`` from a private folder) that writes each collected item's id, file
and line. :func:`missing` compares the two collections: a base id the work no longer collects is missing, unless it was
renamed or moved with its body (a new id, the same :func:`body_shape`, the
same parameters) or parametrized (``test_x`` now ``test_x[...]``). Bodies are
read by forge, from each side's file, only for the tests gone and the new
ones: the collection itself stays pytest's own cost.

Nothing here runs git or reads ``.forge/``: the ``spec_collection`` check
exports the base tree and caches the base's collection.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import shlex
import tempfile
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Bytes of collected ids read at most (about 100,000 tests).
MAX_IDS_BYTES = 32 * 1024 * 1024
#: The module name forge's collection plugin is loaded under.
PLUGIN_NAME = "forge_spec_ids"
#: forge's pytest plugin: collection only (the tests never run), the items written as JSON.
PLUGIN = '''\
"""forge's spec-test collection: each collected item's id, file and line."""
import json, os
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    config.option.collectonly = True


def pytest_collection_finish(session):
    items = []
    for item in session.items:
        path, line, _ = item.location
        path = os.path.relpath(str(item.path), os.getcwd()) if hasattr(item, "path") else path
        items.append({"id": item.nodeid, "file": path.replace(os.sep, "/"), "line": (line or 0) + 1})
    with open(os.environ["FORGE_SPEC_IDS"], "w", encoding="utf-8") as handle:
        json.dump(items, handle)
'''

#: Runs a shell command in a folder with a timeout; returns (exit code or None, message).
Runner = Callable[[str, Path, float], tuple[int | None, str]]


@dataclass(frozen=True)
class Collected:
    """One test pytest collected: its id, its file (from the working dir), its line (1-based)."""

    id: str
    file: str
    line: int

    def to_json(self) -> dict[str, Any]:
        """The record as the cache keeps it."""
        return {"id": self.id, "file": self.file, "line": self.line}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Collected:
        """A record of the plugin's output or the cache; raises on a malformed one."""
        return cls(id=str(data["id"]), file=str(data["file"]), line=int(data["line"]))


class CollectionFailed(Exception):
    """pytest could not collect (an import error, a usage error); the message says why."""


def collect(
    words: list[str], where: Path, real_cwd: Path, timeout: float, run: Runner
) -> list[Collected]:
    """Collect the tests ``words`` (one pytest invocation) would run, in folder ``where``.

    ``real_cwd`` is the working dir the command was written for: a relative
    program path (``.venv/bin/python``) is taken from there, as the base tree
    has no virtual environment. Raises :class:`CollectionFailed`.
    """
    with tempfile.TemporaryDirectory(prefix="forge-spec-ids-") as folder:
        private = Path(folder)
        (private / f"{PLUGIN_NAME}.py").write_text(PLUGIN, encoding="utf-8")
        out = private / "ids.json"
        command = _collect_command(words, private, out, real_cwd)
        exit_code, message = run(command, where, timeout)
        if exit_code not in (0, 5) or not out.is_file():
            raise CollectionFailed(message)
        with out.open("rb") as handle:
            data = handle.read(MAX_IDS_BYTES + 1)
    if len(data) > MAX_IDS_BYTES:
        raise CollectionFailed(f"over {MAX_IDS_BYTES} bytes of test ids")
    try:
        return [Collected.from_json(item) for item in json.loads(data)]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CollectionFailed(f"unreadable collection: {exc}") from None


def _collect_command(words: list[str], private: Path, out: Path, real_cwd: Path) -> str:
    assignments: dict[str, str] = {}
    index = 0
    while index < len(words) and "=" in words[index] and not words[index].startswith("-"):
        name, _, value = words[index].partition("=")
        if not name.isidentifier():
            break
        assignments[name] = value
        index += 1
    rest = list(words[index:])
    for position, word in enumerate(rest):
        if "/" in word and not word.startswith("/") and (real_cwd / word).exists():
            rest[position] = str(real_cwd / word)  # a program inside the work tree
            break
        if not word.startswith("-") and "=" not in word:
            break
    inherited = assignments.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    assignments["PYTHONPATH"] = os.pathsep.join(filter(None, [str(private), inherited]))
    assignments["FORGE_SPEC_IDS"] = str(out)
    assignments["PYTHONDONTWRITEBYTECODE"] = "1"
    extra = ["--collect-only", "-p", PLUGIN_NAME, "-o", f"cache_dir={private / 'cache'}"]
    env = [f"{name}={value}" for name, value in assignments.items()]
    return shlex.join(["env", *env, *rest, *extra])


@dataclass(frozen=True)
class Missing:
    """A base spec test the work no longer collects: its id, where it was at the base.

    ``folded_into``: the new test that holds its cases (every constant, every
    function it calls, as many equality assertions: a table-driven rewrite);
    such a test is evidence to show, not a failure.
    """

    id: str
    file: str
    line: int
    folded_into: str | None = None


@dataclass(frozen=True)
class Shape:
    """What a test's body is: a digest of its statements, and what folding must keep."""

    digest: str
    constants: Counter[str]
    calls: frozenset[str]
    equalities: int

    def fits_in(self, other: Shape) -> bool:
        """Whether ``other`` keeps every constant, call and equality assertion of this body."""
        return (
            bool(self.constants)
            and not self.constants - other.constants
            and self.calls <= other.calls
            and self.equalities <= other.equalities
        )


#: A test's body shape at one side (base or work): read only when needed.
BodyOf = Callable[[Collected], Shape | None]


def missing(
    base: list[Collected],
    work: list[Collected],
    *,
    base_body: BodyOf,
    work_body: BodyOf,
    allowed: Collection[str] = (),
) -> list[Missing]:
    """The base's tests the work does not collect, renamed, moved or parametrized ones aside.

    ``base_body`` / ``work_body`` give a test's body (:func:`body_shape` of its
    file at that side), asked only for the base tests gone and the work's new
    ones. ``allowed``: ids (or ``file::name`` without parameters) the plan lets
    the module change (``specChanges``). A test folded into a new one of the
    same file comes back with ``folded_into`` set.
    """
    now = {item.id for item in work}
    before = {item.id for item in base}
    new = [item for item in work if item.id not in before]
    gone = [
        item
        for item in base
        if item.id not in now and item.id not in allowed and item.id.split("[", 1)[0] not in allowed
    ]
    shapes: dict[str, Shape | None] = {}
    found = []
    for item in gone:
        if "[" not in item.id and any(other.id.startswith(item.id + "[") for other in new):
            continue  # parametrized
        body = base_body(item)
        params = _params(item.id)
        if body is not None and any(
            _params(other.id) == params
            and (shape := _cached(shapes, other, work_body)) is not None
            and shape.digest == body.digest
            for other in new
        ):
            continue  # renamed or moved with its body
        folded = next(
            (
                other.id
                for other in new
                if body is not None
                and other.file == item.file
                and (shape := _cached(shapes, other, work_body)) is not None
                and body.fits_in(shape)
            ),
            None,
        )
        found.append(Missing(item.id, item.file, item.line, folded))
    return found


def _cached(shapes: dict[str, Shape | None], item: Collected, body_of: BodyOf) -> Shape | None:
    if item.id not in shapes:
        shapes[item.id] = body_of(item)
    return shapes[item.id]


_EQUALITY_CALLS = frozenset({"assertEqual", "assertEquals", "assertListEqual", "assertDictEqual"})


def body_shape(text: str, line: int) -> Shape | None:
    """The body of the function defined at ``line`` (its ``def`` or a decorator), or None.

    Its name, decorators and docstring are left out: a test renamed or moved
    with its body has the same digest.
    """
    tree = _tree(text)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and line in {
            node.lineno,
            *(decorator.lineno for decorator in node.decorator_list),
        }:
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]
            dumped = "".join(ast.dump(statement) for statement in body)
            nodes = [inner for statement in body for inner in ast.walk(statement)]
            calls = [inner.func for inner in nodes if isinstance(inner, ast.Call)]
            return Shape(
                digest=hashlib.sha1(dumped.encode(), usedforsecurity=False).hexdigest(),
                constants=Counter(_literals(nodes)),
                calls=frozenset(
                    call.attr if isinstance(call, ast.Attribute) else getattr(call, "id", "")
                    for call in calls
                ),
                equalities=sum(
                    isinstance(inner, ast.Compare) and isinstance(inner.ops[0], ast.Eq)
                    for inner in nodes
                )
                + sum(getattr(call, "attr", "") in _EQUALITY_CALLS for call in calls),
            )
    return None


def _literals(nodes: list[ast.AST]) -> list[str]:
    """The body's constants, and its empty literals (``[]``, ``{}``, ``()``) as constants too."""
    found = [
        f"{type(node.value).__name__}:{node.value!r}"
        for node in nodes
        if isinstance(node, ast.Constant)
    ]
    found.extend(
        f"{type(node).__name__}:empty"
        for node in nodes
        if (isinstance(node, ast.List | ast.Tuple | ast.Set) and not node.elts)
        or (isinstance(node, ast.Dict) and not node.keys)
    )
    return found


@functools.lru_cache(maxsize=64)
def _tree(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _params(test_id: str) -> str:
    _head, bracket, rest = test_id.partition("[")
    return bracket + rest
