"""Test-runner summaries in a command's output: what ran, and whether anything did.

A verify command that exits 0 proves little if its test runner skipped every
test or collected none. :class:`SummaryScanner` reads a command's output as it
streams (the command check keeps only a tail, and a summary can scroll out of
it) and recognises the summaries of pytest, unittest, node:test, jest,
vitest, mocha, go test and cargo test, and a plain ``N passed, N failed``
line. :mod:`forge.test_runs.counts` then says whether the counts let the command pass.

Each runner's counts are summed over the whole output, so ``cargo test``'s
one summary per test binary, or ``pytest a && pytest b``, count once. Only
complete lines are read, at most :data:`MAX_LINE_BYTES` long (summaries are
short), so the cost stays bounded however much a command prints.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from forge.models import TestCounts

#: Longest line read for a summary; longer lines (progress bars, minified
#: dumps) are skipped whole.
MAX_LINE_BYTES = 1024

#: A line is matched against a runner's patterns only if it holds one of that
#: runner's keywords. Each keyword is looked for with ``bytes.find`` (C speed),
#: not with one big regex, which would try every alternative at every byte; and
#: a line goes only to the runners whose keyword it holds, so a build printing a
#: million lines with " failed" in them costs three pattern matches a line, not nine.
_KEYWORDS: dict[bytes, tuple[str, ...]] = {
    b" passed": ("pytest", "jest", "vitest", "cargo", "plain"),
    b" failed": ("pytest", "jest", "vitest"),
    b" skipped": ("pytest", "node", "jest", "vitest"),
    # pytest puts warnings and errors last: "1 passed, 2 warnings, 1 error in 0.1s".
    b" error in ": ("pytest",),
    b" errors in ": ("pytest",),
    b" warning in ": ("pytest",),
    b" warnings in ": ("pytest",),
    b" deselected": ("pytest",),
    b"xfailed": ("pytest",),
    b"xpassed": ("pytest",),
    b"no tests ran": ("pytest",),
    b"Tests": ("jest", "vitest"),
    b"No test": ("jest", "vitest"),
    b"test result:": ("cargo",),
    b"Ran ": ("unittest",),
    b"OK": ("unittest",),
    b"FAILED (": ("unittest",),
    b"NO TESTS RAN": ("unittest",),
    b" tests ": ("node",),
    b" pass ": ("node",),
    b" fail ": ("node",),
    b" cancelled ": ("node",),
    b" todo ": ("node",),
    b" passing": ("mocha",),
    b" pending": ("mocha",),
    b" failing": ("mocha",),
    b"ok  \t": ("go",),
    b"FAIL\t": ("go",),
    b"[no test": ("go",),
}
#: go test -v's line per test, counted where it starts a line (subtests are
#: indented, and their parent has a line too). A big suite prints one per test,
#: so these are counted with ``bytes.count`` rather than read line by line.
_GO_TESTS = (b"--- PASS: ", b"--- FAIL: ", b"--- SKIP: ")
#: The order runners try a line in: the first to recognise it has it.
_ORDER = ("pytest", "unittest", "node", "jest", "vitest", "mocha", "go", "cargo", "plain")
_MASKS = {
    keyword: sum(1 << _ORDER.index(runner) for runner in runners)
    for keyword, runners in _KEYWORDS.items()
}
_PYTEST_BIT = 1 << _ORDER.index("pytest")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")

_PYTEST = re.compile(
    r"^=*\s*(?P<counts>\d+ [a-z]+(?: [a-z]+)?(?:, \d+ [a-z]+(?: [a-z]+)?)*) in [\d.]+s"
    r"(?: \([\d:.]+\))?\s*=*$"
)
_PYTEST_NONE = re.compile(r"^=*\s*no tests ran in [\d.]+s(?: \([\d:.]+\))?\s*=*$")
_PYTEST_WORDS = frozenset(
    {"passed", "failed", "skipped", "deselected", "xfailed", "xpassed", "error", "errors"}
    | {"warning", "warnings", "rerun"}
)
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in [\d.]+s$")
_UNITTEST_END = re.compile(r"^(?:OK|FAILED|NO TESTS RAN)(?: \((?P<counts>[a-z =\d,]+)\))?$")
_NODE = re.compile(r"^(?:#|ℹ) (tests|pass|fail|cancelled|skipped|todo)\s+(\d+)$")
_JEST = re.compile(r"^Tests:\s+(?P<counts>.*?),?\s*\d+ total$")
_JEST_NONE = re.compile(r"^No tests found, exiting with code \d+$")
#: Lines that count files or suites, not tests: claimed so no other pattern counts them.
_SUITE_LINE = re.compile(r"^(?:Test Suites:|\s*Test Files\s)")
_VITEST = re.compile(r"^\s*Tests\s+(?P<counts>\d+ [a-z]+(?: \| \d+ [a-z]+)*) \(\d+\)$")
_VITEST_NONE = re.compile(r"^No test files found, exiting with code \d+$")
_MOCHA = re.compile(r"^\s*(\d+) (passing|pending|failing)(?: \(.*\))?$")
_GO_PACKAGE = re.compile(r"^(ok|FAIL|\?)\s+\S+\s+(.*)$")
_GO_TIME = re.compile(r"[\d.]+s\b|\(cached\)")
_CARGO = re.compile(
    r"^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured"
)
_PLAIN = re.compile(
    r"(?<![\w.])(?P<counts>\d+ (?:tests? )?(?:passed|failed|skipped|errors?)"
    r"(?:\s*[,;|]\s*\d+ (?:tests? )?(?:passed|failed|skipped|errors?))+)\b"
)
_COUNT = re.compile(r"(\d+) (?:tests? )?([a-z][a-z ]*[a-z]|[a-z])")


@dataclass
class _Tally:
    """One runner's counts, summed over the output."""

    runner: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0

    def add(self, other: _Tally) -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.errors += other.errors

    def counts(self) -> TestCounts:
        return TestCounts(**dataclasses.asdict(self))


def _counts(text: str, separator: str = ",") -> dict[str, int]:
    """``"1 failed, 2 passed"`` as ``{"failed": 1, "passed": 2}`` (repeated words add up)."""
    found: dict[str, int] = {}
    for part in text.split(separator):
        match = _COUNT.fullmatch(part.strip())
        if match:
            found[match[2]] = found.get(match[2], 0) + int(match[1])
    return found


class SummaryScanner:
    """Reads one stream of a command's output, chunk by chunk, for test-runner summaries."""

    def __init__(self) -> None:
        self._partial = b""
        self._skipping_long_line = False
        self._tallies: dict[str, _Tally] = {}
        #: Summary lines read, by runner (the names of ``_ORDER``): a run that printed none
        #: did not finish (:func:`forge.test_runs.unfinished`).
        self.seen: Counter[str] = Counter()
        self._unittest_ran: int | None = None
        self._go_packages_with_tests = 0
        self._go_packages_without_tests = 0
        self._parsers: tuple[Callable[[str], bool], ...] = tuple(
            getattr(self, f"_{runner}") for runner in _ORDER
        )

    def feed(self, chunk: bytes) -> None:
        """Read the complete lines ``chunk`` finishes; keep an unfinished one for later."""
        data = self._partial + chunk if self._partial else chunk
        end = data.rfind(b"\n") + 1
        start = 0
        if self._skipping_long_line:
            if end == 0:
                self._partial = b""
                return
            start = data.find(b"\n") + 1
            self._skipping_long_line = False
        if end > start:
            self._scan(data, start, end)
        rest = data[max(end, start) :]
        if len(rest) > MAX_LINE_BYTES:
            self._partial = b""
            self._skipping_long_line = True
        else:
            self._partial = rest

    def close(self) -> None:
        """Read the last line, if the output did not end with a newline."""
        if self._partial and not self._skipping_long_line:
            line = self._partial + b"\n"
            self._scan(line, 0, len(line))
        self._partial = b""

    def tallies(self) -> list[_Tally]:
        """Each runner's counts, in the order the runners' summaries first appeared."""
        found = list(self._tallies.values())
        # Without -v, go test counts nothing; all it shows is whether each package
        # had tests. Every package without any is a run of no test; otherwise the
        # number is unknown and the exit code judges alone.
        go_ran_nothing = self._go_packages_without_tests and not self._go_packages_with_tests
        if go_ran_nothing and "go test" not in self._tallies:
            found.append(_Tally("go test"))
        return found

    def _scan(self, data: bytes, start: int, end: int) -> None:
        """Read the lines of ``data[start:end]`` (whole lines) that hold a keyword, in order."""
        passed, failed, skipped = (
            data.count(b"\n" + prefix, start, end) + data.startswith(prefix, start)
            for prefix in _GO_TESTS
        )
        if passed or failed or skipped:
            self._tally("go test").add(_Tally("go test", passed, failed, skipped))
        lines: dict[tuple[int, int], int] = {}
        for keyword, mask in _MASKS.items():
            found = data.find(keyword, start, end)
            while found != -1:
                line_start = data.rfind(b"\n", start, found) + 1 or start
                line_end = data.find(b"\n", found, end)
                lines[line_start, line_end] = lines.get((line_start, line_end), 0) | mask
                found = data.find(keyword, line_end, end)
        for (line_start, line_end), mask in sorted(lines.items()):
            if line_end - line_start > MAX_LINE_BYTES:
                continue
            raw = data[line_start:line_end]
            if mask & _PYTEST_BIT and b" in " not in raw:
                # Every pytest summary ends "in 0.12s": the many other lines with
                # " passed" or " failed" in them are dropped without decoding.
                mask &= ~_PYTEST_BIT
            if mask:
                self._line(raw, mask)

    def _line(self, raw: bytes, mask: int) -> None:
        text = raw.decode("utf-8", errors="replace")
        if "\x1b" in text:
            text = _ANSI.sub("", text)
        if "\r" in text:
            text = text.rsplit("\r", 1)[-1]
        text = text.rstrip()
        for index, parser in enumerate(self._parsers):
            if mask >> index & 1 and parser(text):
                self.seen[_ORDER[index]] += 1
                return

    def _tally(self, runner: str) -> _Tally:
        return self._tallies.setdefault(runner, _Tally(runner))

    def _pytest(self, line: str) -> bool:
        if _PYTEST_NONE.match(line):
            self._tally("pytest")
            return True
        match = _PYTEST.match(line)
        if not match:
            return False
        counts = _counts(match["counts"])
        # pytest 9 adds "2324 subtests passed": read, not counted (its test counts once).
        if not counts or not {word.rsplit(" ", 1)[-1] for word in counts} <= _PYTEST_WORDS:
            return False
        tally = self._tally("pytest")
        tally.add(
            _Tally(
                "pytest",
                passed=counts.get("passed", 0) + counts.get("xpassed", 0),
                failed=counts.get("failed", 0),
                skipped=counts.get("skipped", 0) + counts.get("xfailed", 0),
                errors=counts.get("error", 0) + counts.get("errors", 0),
            )
        )
        return True

    def _unittest(self, line: str) -> bool:
        ran = _UNITTEST_RAN.match(line)
        if ran:
            self._unittest_ran = int(ran[1])
            return True
        end = _UNITTEST_END.match(line)
        if not end or self._unittest_ran is None:
            return False
        counts = {key.strip(): int(value) for key, value in _pairs(end["counts"] or "")}
        failed = counts.get("failures", 0) + counts.get("unexpected successes", 0)
        errors = counts.get("errors", 0)
        skipped = counts.get("skipped", 0) + counts.get("expected failures", 0)
        passed = max(self._unittest_ran - failed - errors - skipped, 0)
        self._tally("unittest").add(_Tally("unittest", passed, failed, skipped, errors))
        self._unittest_ran = None
        return True

    def _node(self, line: str) -> bool:
        match = _NODE.match(line)
        if not match:
            return False
        tally, count = self._tally("node:test"), int(match[2])
        # "tests" is the total of the others; it only marks the summary's start.
        if match[1] == "pass":
            tally.passed += count
        elif match[1] in {"fail", "cancelled"}:
            tally.failed += count
        elif match[1] in {"skipped", "todo"}:
            tally.skipped += count
        return True

    def _jest(self, line: str) -> bool:
        if _SUITE_LINE.match(line):
            return True
        if _JEST_NONE.match(line):
            self._tally("jest")
            return True
        match = _JEST.match(line)
        if not match:
            return False
        counts = _counts(match["counts"])
        self._tally("jest").add(
            _Tally(
                "jest",
                passed=counts.get("passed", 0),
                failed=counts.get("failed", 0),
                skipped=counts.get("skipped", 0) + counts.get("todo", 0),
            )
        )
        return True

    def _vitest(self, line: str) -> bool:
        if _VITEST_NONE.match(line):
            self._tally("vitest")
            return True
        match = _VITEST.match(line)
        if not match:
            return False
        counts = _counts(match["counts"], "|")
        self._tally("vitest").add(
            _Tally(
                "vitest",
                passed=counts.get("passed", 0),
                failed=counts.get("failed", 0),
                skipped=counts.get("skipped", 0) + counts.get("todo", 0),
            )
        )
        return True

    def _mocha(self, line: str) -> bool:
        match = _MOCHA.match(line)
        if not match:
            return False
        tally, count = self._tally("mocha"), int(match[1])
        if match[2] == "passing":
            tally.passed += count
        elif match[2] == "failing":
            tally.failed += count
        else:
            tally.skipped += count
        return True

    def _go(self, line: str) -> bool:
        package = _GO_PACKAGE.match(line)
        if not package:
            return False
        detail = package[2]
        if "[no test files]" in detail or "[no tests to run]" in detail:
            self._go_packages_without_tests += 1
        elif package[1] == "FAIL" or _GO_TIME.match(detail):
            self._go_packages_with_tests += 1
        else:
            return False
        return True

    def _cargo(self, line: str) -> bool:
        match = _CARGO.match(line)
        if not match:
            return False
        passed, failed, ignored, _measured = (int(group) for group in match.groups())
        self._tally("cargo test").add(_Tally("cargo test", passed, failed, ignored))
        return True

    def _plain(self, line: str) -> bool:
        match = _PLAIN.search(line)
        if not match:
            return False
        counts = _counts(re.sub(r"[;|]", ",", match["counts"]))
        if "passed" not in counts or "failed" not in counts:
            return False
        self._tally("tests").add(
            _Tally(
                "tests",
                passed=counts["passed"],
                failed=counts["failed"],
                skipped=counts.get("skipped", 0),
                errors=counts.get("error", 0) + counts.get("errors", 0),
            )
        )
        return True


def _pairs(text: str) -> Iterable[tuple[str, str]]:
    for part in text.split(","):
        key, _, value = part.partition("=")
        if value.strip().isdigit():
            yield key, value.strip()


def combine(scanners: Iterable[SummaryScanner]) -> list[TestCounts]:
    """Each runner's counts over all the streams (stdout, stderr), in order of appearance."""
    merged: dict[str, _Tally] = {}
    for scanner in scanners:
        for tally in scanner.tallies():
            merged.setdefault(tally.runner, _Tally(tally.runner)).add(tally)
    return [tally.counts() for tally in merged.values()]
