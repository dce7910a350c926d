"""A module-level import cycle that fails on import (``partially initialized module``).

``orders`` does ``from billing import charge`` before it defines ``Order``;
``billing`` does ``from orders import Order`` before it defines ``charge``:
whichever is imported first, the other asks a partially initialized module for
a name it has not bound yet, and Python raises ``ImportError``.

The import is simulated from each module of the cycle as the first one
imported (a package's ``__init__`` runs before its modules, as in Python), over
the unconditional top-level statements of :func:`~forge.contracts.python.load_time.module_steps`:
imports inside functions, under ``if`` (``TYPE_CHECKING``) or ``try`` never
import, ``import x`` never fails on a partial module, and a ``from`` import of
a submodule works. A cycle is reported only when it fails whichever of its
modules is imported first: an application that always enters it one way is
not wrong, and forge cannot know which way it enters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from forge.contracts.python.load_time import Step

#: Modules one simulation executes at most: past it, forge cannot say.
MAX_MODULES = 500


@dataclass(frozen=True)
class CycleFailure:
    """Where importing a cycle fails: ``importer`` takes ``name`` from partial ``module``."""

    #: The modules being imported when it fails, outermost first, ``module`` to ``importer``.
    chain: tuple[Path, ...]
    importer: Path
    module: Path
    name: str
    line: int
    column: int


class _Unknown(Exception):
    """The simulation went past what forge can follow: nothing is reported."""


@dataclass
class _Loader:
    steps: Callable[[Path], list[Step] | None]
    resolve: Callable[[str, Path], Path | None]

    def __post_init__(self) -> None:
        self.progress: dict[Path, int] = {}
        self.done: set[Path] = set()
        self.stack: list[Path] = []

    def bound(self, module: Path, name: str) -> bool:
        steps = self.steps(module) or []
        upto = self.progress.get(module, len(steps))
        return any(name in step.binds or step.binds_any for step in steps[:upto])

    def load(self, module: Path) -> CycleFailure | None:
        if module in self.done or module in self.progress:
            return None
        if len(self.progress) + len(self.done) > MAX_MODULES:
            raise _Unknown
        package = module.parent / "__init__.py"
        if module.name != "__init__.py" and package.is_file():
            failure = self.load(package)  # Python runs a package before its modules
            if failure is not None:
                return failure
        steps = self.steps(module)
        if steps is None:
            raise _Unknown  # a module forge cannot read may bind anything
        self.stack.append(module)
        for index, step in enumerate(steps):
            self.progress[module] = index
            if step.specifier is None:
                continue
            failure = self._import(module, step)
            if failure is not None:
                return failure
        self.progress.pop(module, None)  # an empty module has no step
        self.stack.pop()
        self.done.add(module)
        return None

    def _import(self, module: Path, step: Step) -> CycleFailure | None:
        assert step.specifier is not None
        target = self.resolve(step.specifier, module)
        if target is None:
            return None  # not a file of the project: not part of a cycle forge can see
        for parent in self._parents(step.specifier, module):
            failure = self.load(parent)
            if failure is not None:
                return failure
        failure = self.load(target)
        if failure is not None or target not in self.progress:
            return failure
        separator = "" if step.specifier.endswith(".") else "."
        for name in step.takes:
            if self.bound(target, name):
                continue
            if self.resolve(f"{step.specifier}{separator}{name}", module) is None:
                chain = tuple(self.stack[self.stack.index(target) :])
                return CycleFailure(chain, module, target, name, step.line, step.column)
        return None

    def _parents(self, specifier: str, module: Path) -> list[Path]:
        """The packages an absolute ``a.b.c`` imports before ``a.b.c`` itself."""
        if specifier.startswith("."):
            return []
        parts = specifier.split(".")
        found = [self.resolve(".".join(parts[:end]), module) for end in range(1, len(parts))]
        return [path for path in found if path is not None]


def failing_cycle(
    entry: Path,
    steps: Callable[[Path], list[Step] | None],
    resolve: Callable[[str, Path], Path | None],
) -> CycleFailure | None:
    """The cycle importing ``entry`` fails in, if it fails whichever of its modules comes first."""
    try:
        failure = _Loader(steps, resolve).load(entry)
        if failure is None:
            return None
        for other in failure.chain:
            if other != entry and _Loader(steps, resolve).load(other) is None:
                return None  # entered there, the cycle loads
    except (_Unknown, RecursionError):
        return None
    return failure
