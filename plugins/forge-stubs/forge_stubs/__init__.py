"""forge-stubs: a forge plugin that catches placeholder code coding agents leave behind.

The check ``stub_check`` fails a listed file whose functions are still
``pass``, ``...``, ``raise NotImplementedError``, a bare docstring, an empty
JS/TS body, a ``throw new Error("not implemented")``, or that asks for
implementation in a ``TODO`` comment. The hook implementation is in
:mod:`forge_stubs.plugin`; the detection itself, pure functions over
tree-sitter trees, is in :mod:`forge_stubs.detect`.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
