"""``pretty_json``: the text of ``json.dumps(indent=2, ensure_ascii=False)``, byte for byte."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from forge.store.json_files import pretty_json

STRINGS = [
    'a"b',
    "\\",
    "\n\t\r\b\f",
    "\x00\x01\x1f\x7f",
    "é ü 中文 🚀",
    "\u2028\u2029",
    "</x>",
    "1e5",
]
FLOATS = [0.0, -0.0, 1.0, 0.5, 0.6667, 1e-4, 9.9999e-5, 5e-5, 1e-5, 2.5e-8, 1e15, 1e16, 1e22]


@pytest.mark.parametrize(
    "value",
    [
        *STRINGS,
        *FLOATS,
        float("inf"),
        float("nan"),
        [],
        {},
        [[]],
        {"a": [], "b": {}, "c": None, "d": True, "e": 2**70, "f": -5},
        {"results": [{"type": "x", "score": 0.3333, "locations": [{"line": 1}]}] * 3},
        "\ud800",  # a lone surrogate: pydantic-core refuses it, json writes it
    ],
)
def test_the_text_is_json_dumps_text(value: Any) -> None:
    assert pretty_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_random_floats_in_any_range_are_written_as_python_writes_them() -> None:
    numbers = random.Random(21)
    values = [numbers.uniform(-1e6, 1e6) * 10 ** numbers.randint(-25, 25) for _ in range(2000)]
    for value in values:
        assert pretty_json({"v": [value]}) == json.dumps({"v": [value]}, indent=2), value
