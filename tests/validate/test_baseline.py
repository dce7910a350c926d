"""Findings matched across revisions by check, file, message and enclosing symbol."""

from __future__ import annotations

import tree_sitter
import tree_sitter_python

from forge.validate.baseline import enclosing_symbol, finding, pre_existing


def test_findings_match_by_check_file_message_and_symbol_not_line() -> None:
    base = [
        finding("stub_check", "a.py", "placeholder (pass) in f: pass", "f"),
        finding("syntax_check", "b.py", "missing `)` at line 3, column 7", None),
    ]
    head = [
        finding("stub_check", "a.py", "placeholder (pass) in f: pass", "f"),
        finding("stub_check", "a.py", "placeholder (pass) in f: pass", "f"),  # a second one
        finding("stub_check", "a.py", "placeholder (pass) in g: pass", "g"),
        finding("syntax_check", "b.py", "missing `)` at line 9, column 1", None),
        finding("syntax_check", "c.py", "missing `)` at line 9, column 1", None),
    ]
    assert pre_existing(head, base) == [True, False, False, True, False]


def test_enclosing_symbol_names_the_scopes() -> None:
    source = b"x = 1\n\nclass A:\n    def m(self):\n        pass\n"
    tree = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language())).parse(source)
    assert enclosing_symbol(tree.root_node, 5, 9, source) == "A.m"
    assert enclosing_symbol(tree.root_node, 3, 1, source) == "A"
    assert enclosing_symbol(tree.root_node, 1, 1, source) is None
