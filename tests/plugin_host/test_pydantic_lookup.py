"""pydantic's plugin lookup answered from the entry-point cache: skipped when no pydantic
plugin is installed, pydantic's own when one is, noticed when one is installed later."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from forge_testing import RunForge

RECORDER = '''
import os


class Recorder:
    """A pydantic plugin that writes down the name of each validator pydantic builds."""

    def new_schema_validator(self, schema, schema_type, path, kind, config, settings):
        with open(os.environ["RECORDED"], "a", encoding="utf-8") as out:
            out.write(path.name + "\\n")
        return None, None, None


plugin = Recorder()
'''


def install_recorder(site: Path) -> None:
    """A distribution publishing a pydantic plugin (entry-point group ``pydantic``) in ``site``."""
    (site / "pydantic_recorder.py").write_text(RECORDER, encoding="utf-8")
    meta = site / "pydantic_recorder-1.0.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pydantic-recorder\nVersion: 1.0\n", encoding="utf-8"
    )
    (meta / "entry_points.txt").write_text(
        "[pydantic]\nrecorder = pydantic_recorder:plugin\n", encoding="utf-8"
    )


def validate_with_site(run_forge: RunForge, site: Path, recorded: Path) -> set[str]:
    """``forge validate --files one.py`` with ``site`` on the path: the validators pydantic
    built through the recorder plugin (none when the plugin was not used)."""
    done = run_forge(
        "validate", "--files", "one.py", env={"PYTHONPATH": str(site), "RECORDED": str(recorded)}
    )
    assert done.returncode == 0, done.stderr
    return set(recorded.read_text(encoding="utf-8").split()) if recorded.exists() else set()


@pytest.fixture
def site(project: Path, tmp_path: Path) -> Path:
    """A folder for distributions, put on the path of the forge runs; one.py to validate."""
    (project / "one.py").write_text("x = 1\n", encoding="utf-8")
    folder = tmp_path / "site"
    folder.mkdir()
    return folder


def test_an_installed_pydantic_plugin_is_used_as_without_forge(
    run_forge: RunForge, site: Path, tmp_path: Path
) -> None:
    install_recorder(site)
    for run in range(2):  # the first run fills the entry-point cache, the second reads it
        recorded = tmp_path / f"recorded-{run}"
        assert "ValidateRequest" in validate_with_site(run_forge, site, recorded)


def test_a_pydantic_plugin_installed_later_is_noticed(
    run_forge: RunForge, site: Path, tmp_path: Path
) -> None:
    assert validate_with_site(run_forge, site, tmp_path / "before") == set()
    assert validate_with_site(run_forge, site, tmp_path / "cached") == set()
    install_recorder(site)
    assert "ValidateRequest" in validate_with_site(run_forge, site, tmp_path / "after")


PROBE = """
import json, sys
from pydantic import BaseModel
from forge.plugin_host.pydantic_lookup import LOADER, answer_plugin_lookup_from_cache

answer_plugin_lookup_from_cache()

class Model(BaseModel):
    x: int

Model(x=1)
stand_in = type(sys.modules[LOADER]).__name__
scanned = "importlib.metadata" in sys.modules
group = sys.modules[LOADER].PYDANTIC_ENTRY_POINT_GROUP  # any other name: pydantic's own module
print(json.dumps([stand_in, scanned, group, type(sys.modules[LOADER]).__name__]))
"""


def test_the_stand_in_answers_alone_and_hands_any_other_name_to_pydantic(
    tmp_path: Path,
) -> None:
    """Fails when pydantic stops asking ``pydantic.plugin._loader.get_plugins`` (the stand-in
    would then be bypassed, and the scan would import importlib.metadata)."""
    for _ in range(2):  # the first run fills the entry-point cache, the second reads it
        done = subprocess.run(
            [sys.executable, "-c", PROBE],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    stand_in, scanned, group, after = json.loads(done.stdout)
    assert stand_in == "_StandIn"  # a model was built without loading pydantic's loader
    assert scanned is False
    assert group == "pydantic"
    assert after == "module"  # handed over for good
