"""What a project can import besides its own files: built-ins, declared and installed packages.

Everything comes from the project's own metadata, never from a list kept in
forge: Python's ``sys.stdlib_module_names`` and the project's interpreter's
standard library folder, the import names the distributions of the
project's virtual environment provide (read with ``importlib.metadata`` over
that environment's ``site-packages``, the way ``packages_distributions()``
maps them), the distributions its manifests declare; Node's own
``builtinModules``, ``node_modules`` folders up the tree and the
``package.json`` files above a file (dependencies of every kind, the
package's own name, its workspaces' names).

Each answer is ``True`` (importable), ``False`` (known absent) or ``None``
(forge cannot know: no environment, no manifest, no node): callers report
only ``False``. Results are cached per process, keyed on the modification
time of what they were read from, so a long-running server sees a package
installed between two calls.

The Python half is :mod:`forge.contracts.python.packages`, the Node half
:mod:`forge.contracts.ecmascript.node_packages`; this module holds what both read with.
"""

from __future__ import annotations

import os


def scan_folder(folder: str | os.PathLike[str]) -> list[os.DirEntry[str]]:
    """The entries of ``folder``; none when it cannot be listed."""
    try:
        return list(os.scandir(folder))
    except OSError:
        return []
