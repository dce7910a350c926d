"""Plugin discovery and isolation: entry points, broken plugins, disabling, meta-tests."""

from __future__ import annotations

import ast
import inspect
import json
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from forge_testing import fake_distribution

import forge
from forge import hookspecs
from forge.config import ForgeConfig, disabled_plugins
from forge.plugin_host.host import PluginHost, build_plugin_host
from forge.plugin_host.records import BUILTIN_DISTRIBUTION, ENTRY_POINT_GROUP

if TYPE_CHECKING:
    from forge_testing import RunForge

FORGE_PACKAGE = Path(forge.__file__).parent

GOOD_PLUGIN = """
from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="always_ok", summary="Always passes.")]

@hookimpl
def forge_run_checks(request):
    return [CheckResult(type="always_ok", target=request.module_id, passed=True, message="fine")]
"""

RAISING_PLUGIN = """
from forge import hookimpl
from forge.models import CheckDescriptor

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="raising_check", summary="Never gets to say.")]

@hookimpl
def forge_run_checks(request, workspace):
    raise RuntimeError("boom on " + request.module_id)
"""

#: Runs a check it never declares (convention 8).
UNDECLARED_PLUGIN = """
from forge import hookimpl
from forge.models import CheckResult

@hookimpl
def forge_run_checks(request):
    return [CheckResult(type="secret_check", target=request.module_id, passed=True)]
"""

#: Declares one check and returns another's id.
MISLABELLING_PLUGIN = """
from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="own_check", summary="Its own.")]

@hookimpl
def forge_run_checks(request):
    return [
        CheckResult(type="own_check", target="t", passed=True),
        CheckResult(type="file_check", target="spoofed.py", passed=True),
        CheckResult(type="typo_chek", target="t", passed=True),
    ]
"""

BROKEN_IMPORT_PLUGIN = """
import this_module_does_not_exist_anywhere
"""

BAD_SIGNATURE_PLUGIN = """
from forge import hookimpl

@hookimpl
def forge_run_checks(request, not_an_argument):
    return []
"""


def make_fake_distribution(site: Path) -> Path:
    """A good plugin, one that raises, one that cannot be imported, one with a bad signature."""
    plugins = {
        "good": GOOD_PLUGIN,
        "raises": RAISING_PLUGIN,
        "broken": BROKEN_IMPORT_PLUGIN,
        "badsig": BAD_SIGNATURE_PLUGIN,
    }
    return fake_distribution(site, "forge-fake-plugins", "1.2.3", plugins)


def make_undeclaring_distribution(site: Path) -> Path:
    """Two plugins that break convention 8: one declares nothing, one mislabels."""
    plugins = {"undeclared": UNDECLARED_PLUGIN, "mislabels": MISLABELLING_PLUGIN}
    return fake_distribution(site, "forge-undeclaring", "0.1", plugins)


def test_a_check_id_a_plugin_never_declares_is_an_error(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    """Check ids are validated at start-up (forge plugins) and in every validate (issue 27)."""
    env = {"PYTHONPATH": str(make_undeclaring_distribution(tmp_path / "site"))}
    listing = run_forge("plugins", env=env)
    assert listing.returncode == 1, listing.stdout
    lines = {line.split()[0]: line for line in listing.stdout.splitlines()[1:] if line.strip()}
    assert "declares no check" in lines["undeclared"], lines["undeclared"]
    assert "forge_checks" in lines["undeclared"]
    (project / "a.txt").write_text("x", encoding="utf-8")
    done = run_forge("validate", "--files", "a.txt", "--json", env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    grouped = results_by_type(json.loads(done.stdout))
    errors = [(r["target"], r["message"]) for r in grouped["plugin_error"]]
    assert any(t == "undeclared" and "declares no check" in m for t, m in errors), errors
    assert any(t == "mislabels" and "'file_check'" in m for t, m in errors), errors
    assert any(t == "mislabels" and "'typo_chek'" in m for t, m in errors), errors
    # What it never declared counts for nothing: no secret pass, no spoofed file_check.
    assert "secret_check" not in grouped and "typo_chek" not in grouped
    assert [r["target"] for r in grouped["file_check"]] == ["a.txt"]
    assert grouped["own_check"][0]["plugin"] == "mislabels"


def test_forge_plugins_lists_every_hook_a_plugin_implements(run_forge: RunForge) -> None:
    plugins = {info["name"]: info for info in json.loads(run_forge("plugins", "--json").stdout)}
    assert plugins["syntax_check"]["hooks"] == ["forge_checks", "forge_run_checks"]
    assert plugins["cycle"]["hooks"] == ["forge_check_plan", "forge_plan_rules"]
    assert plugins["python"]["hooks"] == ["forge_languages"]


def results_by_type(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for result in report["results"]:  # type: ignore[attr-defined]
        grouped.setdefault(result["type"], []).append(result)
    return grouped


def test_builtins_are_loaded_through_entry_points(run_forge: RunForge) -> None:
    completed = run_forge("plugins", "--json")
    assert completed.returncode == 0, completed.stderr
    plugins = {info["name"]: info for info in json.loads(completed.stdout)}
    for name, module in {
        "cwd_check": "forge.checks.cwd_check",
        "file_check": "forge.checks.file_check",
        "command": "forge.checks.command_check",
    }.items():
        assert plugins[name]["distribution"] == BUILTIN_DISTRIBUTION
        assert plugins[name]["module"] == module
        assert plugins[name]["status"] == "loaded"
        assert plugins[name]["hooks"] == ["forge_checks", "forge_run_checks"]
        assert plugins[name]["version"] == forge.__version__


def test_broken_third_party_plugins_become_failing_results(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    site = make_fake_distribution(tmp_path / "site")
    (project / "present.txt").write_text("x", encoding="utf-8")
    completed = run_forge(
        "validate",
        "--files",
        "present.txt",
        "--command",
        "true",
        "--json",
        env={"PYTHONPATH": str(site)},
    )
    assert completed.returncode == 1, completed.stderr
    report = json.loads(completed.stdout)
    grouped = results_by_type(report)
    errors = {result["target"]: result for result in grouped["plugin_error"]}
    assert set(errors) == {"broken", "raises", "badsig"}
    assert "this_module_does_not_exist_anywhere" in errors["broken"]["message"]
    assert "RuntimeError: boom on adhoc" in errors["raises"]["message"]
    assert "not_an_argument" in errors["badsig"]["message"]
    assert all(not result["passed"] for result in errors.values())
    # The healthy plugin and the built-ins still reported.
    assert grouped["always_ok"][0]["plugin"] == "good"
    assert grouped["file_check"][0]["passed"] is True
    assert grouped["command"][0]["passed"] is True


def test_forge_plugins_lists_failures_with_reason(run_forge: RunForge, tmp_path: Path) -> None:
    site = make_fake_distribution(tmp_path / "site")
    completed = run_forge("plugins", env={"PYTHONPATH": str(site)})
    assert completed.returncode == 1
    lines = {line.split()[0]: line for line in completed.stdout.splitlines()[1:]}
    assert "forge-fake-plugins" in lines["good"] and "loaded" in lines["good"]
    assert "failed: import failed: ModuleNotFoundError" in lines["broken"]
    assert "failed: rejected" in lines["badsig"]
    assert "loaded" in lines["raises"]  # it only fails when called
    assert "1.2.3" in lines["good"]


def test_disable_by_environment_variable(run_forge: RunForge, tmp_path: Path) -> None:
    site = make_fake_distribution(tmp_path / "site")
    completed = run_forge(
        "validate",
        "--command",
        "true",
        "--json",
        env={"PYTHONPATH": str(site), "FORGE_DISABLE_PLUGINS": "broken, raises,badsig,command"},
    )
    assert completed.returncode == 0, completed.stdout
    grouped = results_by_type(json.loads(completed.stdout))
    assert set(grouped) == {"always_ok"}
    listing = run_forge(
        "plugins", "--json", env={"PYTHONPATH": str(site), "FORGE_DISABLE_PLUGINS": "broken"}
    )
    statuses = {info["name"]: info["status"] for info in json.loads(listing.stdout)}
    assert statuses["broken"] == "disabled"
    assert statuses["good"] == "loaded"


def test_disable_by_project_config(run_forge: RunForge, project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.forge]\ndisable = ["file_check"]\n', encoding="utf-8"
    )
    completed = run_forge("validate", "--files", "missing.py", "--command", "true", "--json")
    assert completed.returncode == 0
    assert set(results_by_type(json.loads(completed.stdout))) == {"command"}


def test_disabled_plugin_is_never_imported() -> None:
    config = ForgeConfig(disable=["command"])
    host = build_plugin_host(disabled_plugins(config))
    names = {name for name, _ in host.pm.list_name_plugin()}
    assert "command" not in names
    assert {"cwd_check", "file_check"} <= names


def test_plugin_names_cannot_collide() -> None:
    good = type("Plugin", (), {})()
    host = build_plugin_host(extra_plugins=[("command", good)])
    collided = [info for info in host.plugins if info.distribution == "(embedded)"]
    assert collided[0].status == "failed"
    assert "already taken" in (collided[0].error or "")


def _modules_with_hook_implementations() -> set[str]:
    found = set()
    for path in FORGE_PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(
                "hookimpl" in ast.unparse(decorator) for decorator in node.decorator_list
            ):
                relative = path.relative_to(FORGE_PACKAGE.parent).with_suffix("")
                found.add(".".join(relative.parts))
    return found


def test_every_builtin_plugin_module_is_declared_as_an_entry_point() -> None:
    declared = {
        ep.value: ep.name
        for ep in entry_points(group=ENTRY_POINT_GROUP)
        if ep.dist is not None and ep.dist.name == BUILTIN_DISTRIBUTION
    }
    modules = _modules_with_hook_implementations()
    assert modules, "no hook implementations found: the meta-test is looking in the wrong place"
    assert modules - set(declared) == set(), (
        "plugin modules missing from [project.entry-points.forge]"
    )
    assert set(declared) - modules == set(), "entry points that point at no plugin module"


@pytest.mark.parametrize(
    "spec",
    [value for name, value in vars(hookspecs).items() if name.startswith("forge_")],
    ids=lambda spec: spec.__name__,
)
def test_every_hook_is_documented(spec: object) -> None:
    doc = inspect.getdoc(spec) or ""
    for section in ("**When:**", "**Returns:**", "**On raise:**"):
        assert section in doc, f"{spec.__name__} lacks {section}"  # type: ignore[attr-defined]
    assert hasattr(spec, "forge_spec"), "specs must be decorated with the forge hookspec marker"


# --- plugins imported when their hooks are first called ------------------------------

LAZY_RULE = """
import os, pathlib
pathlib.Path(os.environ["MARKERS"], __name__).touch()  # tells the test it was imported
from forge import hookimpl
from forge.models import PlanFinding

@hookimpl
def forge_check_plan(plan, project_root):
    return [PlanFinding(type="lazy_note", severity="warning", message="lazy rule ran")]
"""

LAZY_CHECK = """
import os, pathlib
pathlib.Path(os.environ["MARKERS"], __name__).touch()
from forge import hookimpl
from forge.models import CheckDescriptor, CheckResult, PlanFinding

@hookimpl
def forge_checks():
    return [CheckDescriptor(id="lazy_ok", summary="Passes when imported.")]

@hookimpl
def forge_run_checks(request):
    return [CheckResult(type="lazy_ok", target=request.module_id, passed=True)]
"""

LAZY_CHECK_WITH_RULE = (
    LAZY_CHECK
    + """
@hookimpl
def forge_check_plan(plan, project_root):
    return [PlanFinding(type="late_note", severity="warning", message="new hook ran")]
"""
)


def test_a_plugin_is_imported_only_when_its_hooks_are_called(
    run_forge: RunForge, tmp_path: Path, project: Path
) -> None:
    site, markers = tmp_path / "site", tmp_path / "markers"
    site.mkdir()
    markers.mkdir()
    (site / "lazy_rule.py").write_text(LAZY_RULE, encoding="utf-8")
    (site / "lazy_check.py").write_text(LAZY_CHECK, encoding="utf-8")
    dist_info = site / "forge_lazy-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: forge-lazy\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text(
        "[forge]\nlazy_rule = lazy_rule\nlazy_check = lazy_check\n", encoding="utf-8"
    )
    plan = {"modules": [{"id": "m", "title": "M", "objective": "o", "files": ["a.py"],
                         "verify": ["true"], "doneWhen": "done"}]}  # fmt: skip
    (project / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    # No bytecode written into site/: a new __pycache__ would change the folder,
    # which the cache (rightly) reads as an installation.
    env = {"PYTHONPATH": str(site), "MARKERS": str(markers), "PYTHONDONTWRITEBYTECODE": "1"}

    def imported(*args: str) -> tuple[set[str], str]:
        for marker in markers.iterdir():
            marker.unlink()
        completed = run_forge(*args, env=env)
        assert completed.returncode in (0, 1), completed.stderr
        return {marker.name for marker in markers.iterdir()}, completed.stdout

    assert imported("plan", "check", "plan.json")[0] == {"lazy_rule", "lazy_check"}  # learnt
    names, output = imported("plan", "check", "plan.json")
    assert names == {"lazy_rule"} and "lazy rule ran" in output
    names, output = imported("validate", "--files", "a.py", "--json")
    assert names == {"lazy_check"} and "lazy_ok" in output
    # An edit that adds a hook is seen at once: the plugin is imported again.
    (site / "lazy_check.py").write_text(LAZY_CHECK_WITH_RULE, encoding="utf-8")
    names, output = imported("plan", "check", "plan.json")
    assert names == {"lazy_rule", "lazy_check"} and "new hook ran" in output
    listing = json.loads(run_forge("plugins", "--json", env=env).stdout)
    hooks = {info["name"]: info["hooks"] for info in listing}
    assert hooks["lazy_check"] == ["forge_check_plan", "forge_checks", "forge_run_checks"]


ORDERED_PLUGINS = {
    # name: (implements forge_check_plan, forge_run_checks marker options)
    "lz_a": (False, ""),
    "lz_b": (True, ""),
    "lz_c": (True, "trylast=True"),
    "lz_d": (False, "tryfirst=True"),
}


def test_plugins_imported_late_are_called_in_registration_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    for name, (rule, options) in ORDERED_PLUGINS.items():
        source = f"from forge import hookimpl\n\n@hookimpl({options})\ndef forge_run_checks():\n    return []\n"
        if rule:
            source += "\n@hookimpl\ndef forge_check_plan():\n    return []\n"
        (site / f"{name}.py").write_text(source, encoding="utf-8")
    dist_info = site / "forge_ordered-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: forge-ordered\nVersion: 1.0\n"
    )
    entries = "".join(f"{name} = {name}\n" for name in ORDERED_PLUGINS)
    (dist_info / "entry_points.txt").write_text(f"[forge]\n{entries}", encoding="utf-8")
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    monkeypatch.syspath_prepend(str(site))
    others = [
        ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in ORDERED_PLUGINS
    ]

    def call_order(host: PluginHost) -> list[str]:
        return [returned.plugin for returned in host.call("forge_run_checks", object)]

    eager = build_plugin_host(others)  # imports all four, and remembers their hooks
    assert call_order(eager) == ["lz_d", "lz_b", "lz_a", "lz_c"]  # pluggy's own order
    late = build_plugin_host(others)
    assert not late._pm.has_plugin("lz_a")  # not imported: its hooks are known
    list(late.call("forge_check_plan", object))  # registers lz_b and lz_c first
    assert call_order(late) == call_order(eager)
