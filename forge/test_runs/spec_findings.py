"""What a change did to a spec test: one :class:`SpecFinding` per thing it took away."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: What a change did: a test gone, switched off, its assertions weakened or swallowed,
#: the code under test mocked, the runner told to run less, the data it reads changed.
Kind = Literal[
    "removed",
    "turned_off",
    "assertion_removed",
    "weakened",
    "expected_changed",
    "swallowed",
    "mocked",
    "runner_config",
    "data_changed",
]


@dataclass(frozen=True)
class SpecFinding:
    """One change to the spec: what, which test (``""``: a file as a whole), where now."""

    kind: Kind
    path: str
    test: str
    message: str
    line: int = 1
    column: int = 1

    @property
    def test_id(self) -> str:
        """``file::test`` (pytest's spelling: ``Class::method``; mocha's titles joined by
        `` > ``), or the file alone."""
        return f"{self.path}::{self.test}" if self.test else self.path


def allowed_by(finding: SpecFinding, allowed: set[str]) -> bool:
    """Whether a ``specChanges`` entry names the finding's test (or its whole file)."""
    return finding.path in allowed or finding.test_id in allowed
