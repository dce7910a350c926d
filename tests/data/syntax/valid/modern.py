"""Modern Python: match, PEP 695 generics, nested f-strings, walrus, except*."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float


def where(shape: object) -> str:
    match shape:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0) | Point(y=0):
            return "axis"
        case [Point() as first, *rest] if rest:
            return f"path from {first!r} with {len(rest)} more"
        case {"kind": "circle", "r": r, **others}:
            return f"circle {r=:.2f} {others}"
        case str() | bytes():
            return "text"
        case _:
            return "somewhere"


class Greeter(Protocol):
    def greet(self, name: str, /, *, loud: bool = False) -> str: ...


def nested(items: dict[str, list[int]]) -> str:
    width = 8
    return f"{', '.join(f'{k}={v!s:>{width}}' for k, v in items.items())}"


async def gather(*coros: object) -> list[object]:
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(c) for c in coros]  # type: ignore[arg-type]
    except* ValueError as errors:
        # `return` may not appear in an except* block (CPython rejects it).
        failed = list(errors.exceptions)  # type: ignore[attr-defined]  # mypy targets 3.10
    else:
        return [t.result() for t in tasks]
    return failed


if (n := len(__name__)) > 3:
    lam = lambda *a, **k: (a, k)  # noqa: E731
    data = [x**2 for x in range(n) if x % 2] + [*range(3)]
    print(f"{data = }", end="\n")
