"""What a type checker reports, in one shape whatever the checker: :class:`Diagnostic`.

A diagnostic is matched across revisions by file, rule code, message and
enclosing symbol, never by line (:func:`forge.validate.baseline.finding` takes
positions out of the message), so an edit above it does not make it new.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

#: (absolute path, 1-based line, 1-based column, rule, message) as a checker printed it;
#: a diagnostic about no file (tsc's global and option diagnostics) names the run's root.
Raw = tuple[Path, int, int, str, str]


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic: where (``path`` relative to the project root, POSIX), which rule, what."""

    path: str
    line: int
    column: int
    rule: str
    message: str
    #: The dotted names of the functions and classes around it (None at module level).
    symbol: str | None = None
    #: The key of the code around it, its name left out (:mod:`forge_types.moved`).
    code: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The diagnostic as a JSON object (the base cache stores these)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Diagnostic | None:
        """A diagnostic read back from the cache; None for anything of another shape."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(
                path=str(data["path"]),
                line=max(int(data["line"]), 1),
                column=max(int(data["column"]), 1),
                rule=str(data["rule"]),
                message=str(data["message"]),
                symbol=None if data.get("symbol") is None else str(data["symbol"]),
                code=None if data.get("code") is None else str(data["code"]),
            )
        except (KeyError, TypeError, ValueError):
            return None


class CheckerFailed(Exception):
    """The checker did not run to the end (crashed, timed out, printed no readable output)."""


class CheckerTimedOut(CheckerFailed):
    """The checker took longer than it was given (and was stopped)."""
