"""Which switched-off tests are spec tests: blocks, renames and files that are not the spec."""

from __future__ import annotations

from forge.test_runs.spec_switched_off import spec_switched_off

BASE = """\
describe("io", () => {
  it("reads", () => {
    expect(read("a")).toBe("a");
  });
});
"""


def _messages(path: str, old: str | None, new: str, **kwargs: object) -> list[str]:
    elsewhere = kwargs.pop("elsewhere", {})
    found = spec_switched_off(path, old, new, lambda: elsewhere, **kwargs)  # type: ignore[arg-type]
    return [finding.message for finding in found]


def test_a_block_switched_off_counts_when_it_holds_a_spec_test() -> None:
    skipped = BASE.replace("describe(", "describe.skip(")
    assert _messages("test/io.test.js", BASE, skipped) == ["io: describe.skip added"]
    on_a_condition = BASE.replace("describe(", "describe.skipIf(process.env.CI)(")
    assert _messages("test/io.test.js", BASE, on_a_condition) == ["io: describe.skipIf(...) added"]


def test_a_block_of_new_tests_skipped_on_a_condition_passes() -> None:
    new = BASE + BASE.replace('"io"', '"net"').replace('"reads"', '"fetches"').replace(
        "describe(", "describe.runIf(process.env.NETWORK)("
    ).replace('read("a")', 'fetch("a")')
    assert _messages("test/io.test.js", BASE, new) == []
    assert _messages(
        "test/io.test.js", BASE, new.replace("runIf(process.env.NETWORK)", "skip")
    ) == ["net: describe.skip added"]


def test_a_todo_placeholder_is_no_spec_test() -> None:
    new = BASE + 'it.todo("writes");\n'
    assert _messages("test/io.test.js", BASE, new) == []


def test_outside_the_spec_only_tests_moved_in_from_it_count() -> None:
    other = 'it("lists", () => {\n  expect(ls()).toEqual([]);\n});\n'
    skipped_own = other.replace("it(", "it.skip(")
    spec = {"test/io.test.js": BASE}
    assert _messages("test/ls.test.js", other, skipped_own, elsewhere=spec, spec_here=False) == []
    moved = skipped_own + BASE.replace("it(", "xit(")
    assert _messages("test/ls.test.js", other, moved, elsewhere=spec, spec_here=False) == [
        "reads: xit added"
    ]
