"""The contract extractor of JavaScript, TypeScript and TSX: exports, imports, resolution.

:mod:`~.extractor` (:data:`JAVASCRIPT`, :data:`TYPESCRIPT`) delegates to a
module per question, each imported when first asked: :mod:`~.exports` (with
:mod:`~.commonjs`), :mod:`~.imports`, :mod:`~.resolution` (with
:mod:`~.tsconfig` and :mod:`~.node_packages`), and :mod:`~.syntax`. Its queries
are ``javascript_*.scm`` and ``typescript_*.scm`` beside them.
"""

from forge.contracts.ecmascript.extractor import JAVASCRIPT, TYPESCRIPT, EcmascriptExtractor

__all__ = ["JAVASCRIPT", "TYPESCRIPT", "EcmascriptExtractor"]
