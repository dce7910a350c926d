"""The contract analyzer's own helpers, on real files and links."""

from __future__ import annotations

from pathlib import Path

from forge.contracts.analysis import ContractAnalyzer, normalize


def test_real_paths_are_realpath_through_linked_folders_and_files(tmp_path: Path) -> None:
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "a.py").write_text("a = 1\n", encoding="utf-8")
    (tmp_path / "linked").symlink_to(tmp_path / "src")
    (tmp_path / "src" / "b.py").symlink_to(tmp_path / "src" / "pkg" / "a.py")
    (tmp_path / "src" / "loop.py").symlink_to("loop.py")
    analyzer = ContractAnalyzer(parse=lambda path: None, root=tmp_path)
    for path in (
        tmp_path / "src" / "pkg" / "a.py",
        tmp_path / "linked" / "pkg" / "a.py",
        tmp_path / "linked" / "b.py",
        tmp_path / "linked" / "pkg" / ".." / "b.py",
        tmp_path / "linked" / "missing.py",
        tmp_path / "src" / "loop.py",
        tmp_path / "linked" / "pkg" / "..",
        Path("relative.py"),
    ):
        assert analyzer.real(path) == normalize(path), path
    assert analyzer.real(tmp_path / "linked" / "b.py") == tmp_path.resolve() / "src/pkg/a.py"
