"""Go and Rust tests switched off, read line by line (gofmt and rustfmt layouts).

Each finding is ``(kind, test, line, column, message)``, as
:class:`forge.test_runs.switched_off.SwitchedOff` holds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: kind (``skip``, ``no_assertion``), test, 1-based line and column, message.
Found = tuple[str, str, int, int, str]

_GO_FUNC = re.compile(r"^func (Test\w*)\(\s*(\w+) \*testing\.T\s*\)")
_GO_ASSERTING = re.compile(
    r"\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\(|\b(?:assert|require)\.|\bpanic\("
)


def go_tests(text: str) -> Iterator[Found]:
    """``t.Skip()`` calls and ``func TestX(t *testing.T)`` left without an assertion."""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        match = _GO_FUNC.match(lines[index])
        if not match:
            index += 1
            continue
        name, t = match[1], match[2]
        end = index + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        body = lines[index + 1 : end]
        skip = re.compile(rf"^\s*{re.escape(t)}\.(Skip|Skipf|SkipNow)\(")
        asserts = False
        for offset, line in enumerate(body, start=index + 2):
            marker = skip.match(line)
            if marker:
                column = line.index(t) + 1
                message = f"{name}: {t}.{marker[1]}() added"
                yield ("skip", name, offset, column, message)
            # Handing t to a helper, or a subtest, may well assert.
            if _GO_ASSERTING.search(line) or re.search(rf"[(,]\s*{re.escape(t)}\s*[,)]", line):
                asserts = True
        if not asserts and not any(skip.match(line) for line in body):
            yield ("no_assertion", name, index + 1, 1, f"{name} has no assertion")
        index = end + 1


_RUST_IGNORE = re.compile(r"^\s*#\[ignore\b")
_RUST_FN = re.compile(r"^\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)")


def rust_tests(text: str) -> Iterator[Found]:
    """``#[ignore]`` attributes, each with the test function it marks."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if not _RUST_IGNORE.match(line):
            continue
        name = next(
            (m[1] for later in lines[index + 1 : index + 10] if (m := _RUST_FN.match(later))),
            "",
        )
        message = f"{name}: #[ignore] added" if name else "#[ignore] added"
        yield ("skip", name, index + 1, line.index("#") + 1, message)
