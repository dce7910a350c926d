"""Conflicting star re-exports: a name two ``export *`` sources of one module both export.

``index.js`` does ``export * from './money.js'`` and ``export * from './dates.js'``,
and both declare ``fmt``: the module exports no ``fmt`` at all, and node refuses
``import { fmt } from './index.js'`` (``SyntaxError: ... contains conflicting
star exports for name 'fmt'``). A name the module exports itself wins over
its stars, and one binding reached twice (both sources re-export the same
file's ``fmt``) is no conflict. JavaScript family only: Python's ``from x
import *`` binds the last one, silently.

Precision first: a name is an origin's only where that file declares it
itself; a name it re-exports by name (``export { fmt } from``) may be the
same binding as the other's, so it is never a conflict.
"""

from __future__ import annotations

import re
from pathlib import Path

from forge.contracts.analysis import ContractAnalyzer

#: Files followed through ``export *`` chains at most.
MAX_FILES = 200


def star_conflicts(analyzer: ContractAnalyzer, exporter: Path) -> dict[str, tuple[Path, Path]]:
    """Each name ``exporter``'s star re-exports give twice, with the two files declaring it."""
    found = analyzer.extractor(exporter)
    if found is None or getattr(found[1], "family", None) != "ecmascript":
        return {}
    conflicts: dict[str, tuple[Path, Path]] = {}
    _origins(analyzer, analyzer.real(exporter), set(), conflicts)
    return conflicts


def _origins(
    analyzer: ContractAnalyzer,
    path: Path,
    visiting: set[Path],
    conflicts: dict[str, tuple[Path, Path]],
) -> dict[str, Path | None]:
    """Each name ``path`` exports and the file declaring it (None: re-exported by name, unknown)."""
    if path in visiting or len(visiting) > MAX_FILES:
        return {}
    found = analyzer.extractor(path)
    if found is None:
        return {}
    parsed, extractor = found
    own = extractor.exports(parsed)
    if own.open_reason is not None:
        return {}
    visiting.add(path)
    declaration = path.name.endswith((".d.ts", ".d.mts", ".d.cts"))  # describes, declares nothing
    mine: dict[str, Path | None] = {
        name: None if declaration or _reexported(parsed.source, name) else path
        for name in own.names
    }
    starred: dict[str, Path | None] = {}
    for specifier, _ in own.star_sources:
        target = analyzer.resolve(extractor, specifier, path)
        if target is None:
            continue
        for name, origin in _origins(analyzer, target, visiting, {}).items():
            if name == "default" or name in mine or not extractor.star_visible(name):
                continue
            if name not in starred:
                starred[name] = origin
                continue
            other = starred[name]
            if origin is not None and other is not None and origin != other:
                conflicts.setdefault(name, (other, origin))
    visiting.discard(path)
    for name in conflicts:
        starred.pop(name, None)  # an ambiguous name is not exported by the star
    return {**starred, **mine}


def _reexported(source: bytes, name: str) -> bool:
    """Whether ``name`` appears in an ``export { ... } from`` clause of ``source``."""
    pattern = rb"export\s+(?:type\s+)?\{[^}]*\b" + re.escape(name.encode()) + rb"\b[^}]*\}\s*from"
    return re.search(pattern, source) is not None
