"""Python's contract extractor: a module's exports and imports, and where an import leads.

:mod:`~.extractor` (:data:`PYTHON`) delegates to a module per question:
:mod:`~.exports`, :mod:`~.imports`, :mod:`~.resolution`, and :mod:`~.packages`
(what the project's interpreter can import: the standard library, installed
distributions). Its queries are ``python_*.scm`` beside them.
"""

from forge.contracts.python.extractor import PYTHON, PythonExtractor

__all__ = ["PYTHON", "PythonExtractor"]
