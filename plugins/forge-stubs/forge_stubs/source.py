"""A parsed file as the rules see it: its bytes, its tree, and helpers to locate nodes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tree_sitter import Language, Node, Query, QueryCursor, Tree

from forge.errors import clip

#: Longest ``text`` a finding carries.
MAX_TEXT = 120
#: The package data: read beside the module, not through ``importlib.resources.files``
#: (its readers and zipfile are ~3 ms of a fresh ``forge validate``). A package that
#: needs tree-sitter's compiled extension is never imported from a zip file anyway.
QUERIES = Path(__file__).with_name("queries")


@cache
def query(name: str, language: Language) -> Query:
    """The compiled ``queries/<name>.scm`` for ``language``, compiled once per grammar."""
    text = (QUERIES / f"{name}.scm").read_text(encoding="utf-8")
    # tree_sitter's stubs return typing.Self, which mypy reads as Any for Python 3.10.
    compiled: Query = Query(language, text)
    return compiled


@dataclass(frozen=True)
class Source:
    """One file's UTF-8 source and tree."""

    source: bytes
    tree: Tree

    def text(self, node: Node) -> str:
        """The source text of ``node``."""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def captures(self, query_name: str, capture: str) -> list[Node]:
        """Nodes captured as ``@capture`` by query ``query_name``, in source order."""
        cursor = QueryCursor(query(query_name, self.tree.language))
        nodes = cursor.captures(self.tree.root_node).get(capture, [])
        return sorted(nodes, key=lambda node: node.start_byte)

    def matches(self, query_name: str) -> list[dict[str, Node]]:
        """Each match of ``query_name`` as {capture: first node}, in source order."""
        cursor = QueryCursor(query(query_name, self.tree.language))
        found = [
            {name: nodes[0] for name, nodes in captures.items() if nodes}
            for _, captures in cursor.matches(self.tree.root_node)
        ]
        return sorted(found, key=lambda match: min(n.start_byte for n in match.values()))

    def column(self, byte_offset: int) -> int:
        """1-based column, in characters, of ``byte_offset``."""
        line_start = self.source.rfind(b"\n", 0, byte_offset) + 1
        return len(self.source[line_start:byte_offset].decode("utf-8", errors="replace")) + 1

    def starts_line(self, node: Node) -> bool:
        """True when only whitespace precedes ``node`` on its line."""
        line_start = self.source.rfind(b"\n", 0, node.start_byte) + 1
        return not self.source[line_start : node.start_byte].strip()

    def line_text(self, byte_offset: int) -> str:
        """The line holding ``byte_offset``, trimmed and cut to :data:`MAX_TEXT` characters."""
        start = self.source.rfind(b"\n", 0, byte_offset) + 1
        end = self.source.find(b"\n", byte_offset)
        line = self.source[start : len(self.source) if end < 0 else end]
        text = line.decode("utf-8", errors="replace").strip()
        return clip(text, MAX_TEXT)


def rows(node: Node) -> range:
    """The 0-based rows ``node`` spans."""
    return range(node.start_point.row, node.end_point.row + 1)
