"""The ``file_overlap`` warning: parallel modules sharing a file; chains may share."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path

from forge.plan.check import PlanReport

Check = Callable[..., PlanReport]
Make = Callable[..., dict[str, object]]


def _overlaps(report: PlanReport) -> list[tuple[list[str], list[str]]]:
    return [(f.modules, f.files) for f in report.warnings if f.type == "file_overlap"]


def test_parallel_modules_sharing_a_file_warn_and_the_plan_stays_valid(
    check_inline: Check, make_module: Make
) -> None:
    report = check_inline(
        [
            make_module("a", files=["src/shared.py", "src/a.py"]),
            make_module("b", files=["./src/shared.py", "src/b.py"]),
        ]
    )
    assert report.valid
    assert _overlaps(report) == [(["a", "b"], ["src/shared.py"])]
    assert report.warnings[0].severity == "warning"
    assert "can run in parallel" in report.warnings[0].message


def test_paths_are_normalised_before_comparing(
    check_inline: Check, make_module: Make, tmp_path: Path
) -> None:
    report = check_inline(
        [
            make_module("a", files=["src//pkg/../util.py"]),
            make_module("b", files=["src\\util.py"]),
            make_module("c", files=[str(tmp_path / "src" / "util.py")]),
        ]
    )
    assert _overlaps(report) == [
        (["a", "b"], ["src/util.py"]),
        (["a", "c"], ["src/util.py"]),
        (["b", "c"], ["src/util.py"]),
    ]


def test_a_chain_sharing_files_does_not_warn(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a", files=["src/app.py"]),
            make_module("b", files=["src/app.py"], dependsOn=["a"]),
            make_module("c", files=["src/app.py"], dependsOn=["b"]),
        ]
    )
    assert _overlaps(report) == []
    assert report.warnings == []


def test_parallelism_is_transitive(check_inline: Check, make_module: Make) -> None:
    # c reaches a only through b: ordered, no warning. d and c share a file
    # and neither reaches the other: warning.
    report = check_inline(
        [
            make_module("a", files=["src/core.py"]),
            make_module("b", dependsOn=["a"]),
            make_module("c", files=["src/core.py", "src/api.py"], dependsOn=["b"]),
            make_module("d", files=["src/api.py"], dependsOn=["a"]),
        ]
    )
    assert _overlaps(report) == [(["c", "d"], ["src/api.py"])]


def test_modules_on_one_cycle_are_not_parallel(check_inline: Check, make_module: Make) -> None:
    report = check_inline(
        [
            make_module("a", files=["x.py"], dependsOn=["b"]),
            make_module("b", files=["x.py"], dependsOn=["a"]),
        ]
    )
    assert _overlaps(report) == []


def test_distinct_files_do_not_warn(check_inline: Check, make_module: Make) -> None:
    assert _overlaps(check_inline([make_module("a"), make_module("b")])) == []


def test_many_parallel_modules_sharing_a_file_are_counted_in_linear_memory(
    check_inline: Check, make_module: Make
) -> None:
    # Issue 19: 3,000 modules sharing one file took 8.9 s and 1.26 GB, because
    # every one of the 4.5 million pairs was kept with its file list.
    modules = [make_module(f"m{i}", files=["src/shared.py"]) for i in range(3_000)]
    tracemalloc.start()
    try:
        report = check_inline(modules)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    overlaps = [f for f in report.warnings if f.type == "file_overlap"]
    assert len(overlaps) == 101
    assert overlaps[0].modules == ["m0", "m1"] and overlaps[99].modules == ["m0", "m100"]
    pairs = 3_000 * 2_999 // 2
    assert overlaps[-1].message == f"{pairs - 100} more pairs of parallel modules share files"
    assert peak < 150 * 1024 * 1024, f"peak {peak / 1e6:.0f} MB"


def test_a_pair_sharing_several_files_counts_once(check_inline: Check, make_module: Make) -> None:
    modules = [make_module(f"m{i}", files=["a.py", "b.py"]) for i in range(20)]
    overlaps = [f for f in check_inline(modules).warnings if f.type == "file_overlap"]
    assert overlaps[0].files == ["a.py", "b.py"]
    assert (
        overlaps[-1].message == f"{20 * 19 // 2 - 100} more pairs of parallel modules share files"
    )
