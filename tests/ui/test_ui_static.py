"""The page's files ship in the wheel and are served from wherever forge is installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "forge" / "ui" / "static"


def test_the_page_fetches_nothing_from_elsewhere() -> None:
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        for needle in (
            "http://",
            "https://",
            "//cdn",
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ):
            allowed = needle.startswith("http") and "www.w3.org/2000/svg" in text
            assert needle not in text or allowed, (path.name, needle)


@pytest.mark.slow
def test_the_static_files_ship_in_the_wheel_and_load_from_it(tmp_path: Path) -> None:
    hatchling = pytest.importorskip("hatchling.builders.wheel")
    builder = hatchling.WheelBuilder(str(REPO))
    (built,) = builder.build(directory=str(tmp_path / "dist"), versions=["standard"])
    with zipfile.ZipFile(built) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    wanted = {f"forge/ui/static/{path.name}" for path in STATIC.iterdir()}
    assert {"forge/ui/static/index.html", "forge/ui/static/app.js"} <= wanted <= names
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from forge.ui.app import _static_files; import forge; "
        "assert forge.__file__.startswith(sys.argv[1]), forge.__file__; "
        "print(sorted(_static_files()))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, str(tmp_path / "site")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(sorted(path.name for path in STATIC.iterdir()))
