"""The engine: checks from every plugin, isolation of plugin bugs, options, ordering."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from forge import hookimpl
from forge.config import ForgeConfig
from forge.models import (
    CheckDescriptor,
    CheckResult,
    PluginOptions,
    PluginOptionsError,
    ValidateRequest,
)
from forge.plugin_host.host import build_plugin_host
from forge.runtime.cancellation import Cancelled, cancellable, cancelled
from forge.validate.preparation import NothingToCheck
from forge.validate.run import Engine
from forge.validate.verdict import Score
from forge.workspace import Workspace


class OptionsEcho:
    """A plugin that reports the options it was given."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="echo_check", summary="Echoes its options.")]

    @hookimpl
    def forge_run_checks(self, workspace: Workspace) -> list[CheckResult]:
        options = workspace.options("echo")
        return [
            CheckResult(type="echo_check", target="options", passed=True, message=repr(options))
        ]


class EchoOptions(PluginOptions):
    """A third-party plugin's options model."""

    max_level: int = 0
    keep: bool = False


class ValidatedEcho:
    """A plugin that reads its options through a model of its own, as forge's plugins do."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="echo_check", summary="Echoes its validated options.")]

    @hookimpl
    def forge_run_checks(self, workspace: Workspace) -> list[CheckResult]:
        try:
            options = workspace.plugin_options("echo", EchoOptions)
        except PluginOptionsError as exc:
            return [
                CheckResult(type="echo_check", target=exc.source, passed=False, message=str(exc))
            ]
        return [
            CheckResult(type="echo_check", target="options", passed=True, message=repr(options))
        ]


class ReturnsDicts:
    """A plugin that breaks the contract by returning dicts."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="x", summary="Never a model.")]

    @hookimpl
    def forge_run_checks(self) -> list[dict[str, Any]]:
        return [{"type": "x", "passed": True}]


def engine_with(root: Path, config: ForgeConfig, **plugins: object) -> Engine:
    return Engine(root, config, build_plugin_host(extra_plugins=list(plugins.items())))


def test_plugin_options_merge_project_config_and_call(project: Path) -> None:
    config = ForgeConfig.model_validate({"echo": {"level": 1, "keep": True}})
    engine = engine_with(project, config, echo=OptionsEcho())
    report = engine.validate(ValidateRequest(module_id="m", plugin_options={"echo": {"level": 2}}))
    (result,) = report.results
    assert result.message == "{'level': 2, 'keep': True}"
    assert result.plugin == "echo"


def test_plugin_options_through_a_model_take_any_spelling_and_name_a_bad_key_s_source(
    project: Path,
) -> None:
    config = ForgeConfig.model_validate({"echo": {"max-level": 1, "keep": True}})
    engine = engine_with(project, config, echo=ValidatedEcho())
    report = engine.validate(
        ValidateRequest(module_id="m", plugin_options={"echo": {"maxLevel": 2}})
    )
    assert report.results[0].message == "EchoOptions(max_level=2, keep=True)"
    report = engine.validate(ValidateRequest(module_id="m", plugin_options={"echo": {"levl": 2}}))
    (result,) = report.results
    assert (result.target, result.passed) == ("pluginOptions.echo", False)
    assert "levl" in result.message
    bad_table = ForgeConfig.model_validate({"echo": {"keep": "maybe"}})
    engine = engine_with(project, bad_table, echo=ValidatedEcho())
    report = engine.validate(
        ValidateRequest(module_id="m", plugin_options={"echo": {"maxLevel": 2}})
    )
    (result,) = report.results
    assert (result.target, result.passed) == ("[tool.forge.echo]", False)
    assert result.message.startswith("[tool.forge.echo]: ") and "keep" in result.message


def test_a_plugin_returning_the_wrong_type_fails_alone(project: Path) -> None:
    engine = engine_with(project, ForgeConfig(), bad=ReturnsDicts(), echo=OptionsEcho())
    report = engine.validate(ValidateRequest(module_id="m", commands=["true"]))
    assert [(r.type, r.target, r.passed) for r in report.results] == [
        ("plugin_error", "bad", False),
        ("command", "true", True),
        ("echo_check", "options", True),
    ]
    assert "returned something other than a list of CheckResult" in report.results[0].message
    assert report.score == 0.6667


def test_results_follow_the_design_order(project: Path) -> None:
    engine = engine_with(project, ForgeConfig(), echo=OptionsEcho())
    report = engine.validate(
        ValidateRequest(module_id="m", commands=["true"], files=["a", "a", "b"])
    )
    assert [(r.type, r.target) for r in report.results] == [
        ("file_check", "a"),
        ("file_check", "b"),
        ("command", "true"),
        ("echo_check", "options"),
    ]


def test_relative_cwd_is_taken_from_the_project_root(project: Path) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "f.txt").write_text("", encoding="utf-8")
    engine = engine_with(project, ForgeConfig())
    report = engine.validate(ValidateRequest(module_id="m", cwd="pkg", files=["f.txt"]))
    assert report.passed


def test_a_request_nothing_checks_is_refused_and_records_nothing(project: Path) -> None:
    engine = engine_with(project, ForgeConfig())
    with pytest.raises(NothingToCheck, match="nothing to check: give files, commands"):
        engine.validate(ValidateRequest(module_id="m"))
    assert not engine.forge_dir.iteration("m", None).exists()


def test_nothing_judged_is_no_pass() -> None:
    assert Score.of([]) == Score(passed=False, score=0.0)


class KeepsItsResult:
    """A check that returns the very same result object on every call (as kept results are)."""

    def __init__(self) -> None:
        self.result = CheckResult(type="kept_check", target="t", passed=True)

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="kept_check", summary="Kept between calls.")]

    @hookimpl
    def forge_run_checks(self) -> list[CheckResult]:
        return [self.result]


def test_a_result_returned_again_keeps_its_attributed_copy_for_one_call(project: Path) -> None:
    plugin = KeepsItsResult()
    engine = engine_with(project, ForgeConfig(), kept=plugin)
    request = ValidateRequest(module_id="m")
    (first,) = engine.validate(request).results
    (second,) = engine.validate(request).results
    assert first.plugin == "kept" and plugin.result.plugin is None
    assert second is first
    plugin.result = CheckResult(type="kept_check", target="t", passed=False)
    (third,) = engine.validate(request).results
    assert third is not first and (third.plugin, third.passed) == ("kept", False)


class Meeting:
    """Three plugins that meet: a concurrent check, a read-only one, one that runs programs.

    The concurrent check waits until the read-only check has run: it passes only
    when the two ran at the same time. The program-running check records whether
    the concurrent one had finished before it started.
    """

    def __init__(self) -> None:
        self.reader_ran = threading.Event()
        self.concurrent_done = threading.Event()
        self.saw_cancelled: bool | None = None

    def plugins(self) -> dict[str, object]:
        meeting = self

        class Waits:
            @hookimpl
            def forge_checks(self) -> list[CheckDescriptor]:
                return [
                    CheckDescriptor(
                        id="waits_check", summary="Waits.", read_only=True, concurrent=True
                    )
                ]

            @hookimpl(tryfirst=True)  # called before the reader: it must not wait for it
            def forge_run_checks(self) -> list[CheckResult]:
                met = meeting.reader_ran.wait(timeout=5)
                meeting.saw_cancelled = cancelled()
                meeting.concurrent_done.set()
                return [CheckResult(type="waits_check", target="t", passed=met)]

        class Reads:
            @hookimpl
            def forge_checks(self) -> list[CheckDescriptor]:
                return [CheckDescriptor(id="reads_check", summary="Reads.", read_only=True)]

            @hookimpl
            def forge_run_checks(self) -> list[CheckResult]:
                meeting.reader_ran.set()
                return [CheckResult(type="reads_check", target="t", passed=True)]

        class Runs:
            @hookimpl
            def forge_checks(self) -> list[CheckDescriptor]:
                return [CheckDescriptor(id="runs_check", summary="Runs programs.")]

            @hookimpl(trylast=True)
            def forge_run_checks(self) -> list[CheckResult]:
                done = meeting.concurrent_done.is_set()
                return [CheckResult(type="runs_check", target="t", passed=done)]

        return {"waits": Waits(), "reads": Reads(), "runs": Runs()}


def test_a_concurrent_check_runs_beside_the_read_only_ones_and_ends_before_programs_run(
    project: Path,
) -> None:
    meeting = Meeting()
    engine = engine_with(project, ForgeConfig(), **meeting.plugins())
    assert engine.plugins.call_order("forge_run_checks").index("waits") < (
        engine.plugins.call_order("forge_run_checks").index("reads")
    )
    report = engine.validate(ValidateRequest(module_id="m", files=["a"]))
    by_type = {result.type: result for result in report.results}
    assert by_type["waits_check"].passed, "the concurrent check did not run beside the reader"
    assert by_type["runs_check"].passed, "a check that runs programs started before it ended"
    assert by_type["waits_check"].plugin == "waits"
    assert meeting.saw_cancelled is False


def test_a_concurrent_check_runs_in_the_call_s_cancellation_scope(project: Path) -> None:
    meeting = Meeting()
    engine = engine_with(project, ForgeConfig(), **meeting.plugins())
    with cancellable() as event:
        event.set()
        with pytest.raises(Cancelled):
            engine.validate(ValidateRequest(module_id="m", files=["a"]))
    assert meeting.saw_cancelled is True


class RaisesApart:
    """A concurrent check whose plugin raises."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="apart_check", summary="Raises.", concurrent=True)]

    @hookimpl
    def forge_run_checks(self) -> list[CheckResult]:
        raise RuntimeError("boom")


def test_a_concurrent_check_that_raises_fails_alone(project: Path) -> None:
    engine = engine_with(project, ForgeConfig(), apart=RaisesApart(), echo=OptionsEcho())
    report = engine.validate(ValidateRequest(module_id="m", commands=["true"]))
    assert [(r.type, r.target, r.passed) for r in report.results] == [
        ("plugin_error", "apart", False),
        ("command", "true", True),
        ("echo_check", "options", True),
    ]
    assert "boom" in report.results[0].message


class WaitsForCancel:
    """A concurrent check that waits (up to 10 s) until its call is cancelled."""

    def __init__(self) -> None:
        self.saw_cancel = False

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="patient_check", summary="Waits.", concurrent=True)]

    @hookimpl(tryfirst=True)
    def forge_run_checks(self) -> list[CheckResult]:
        deadline = time.monotonic() + 10
        while not cancelled() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.saw_cancel = cancelled()
        return [CheckResult(type="patient_check", target="t", passed=True)]


class Halts:
    """A check whose failure halts the rest, called after the concurrent one started."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [
            CheckDescriptor(
                id="halting_check", summary="Halts.", halts_on_failure=True, read_only=True
            )
        ]

    @hookimpl
    def forge_run_checks(self) -> list[CheckResult]:
        return [CheckResult(type="halting_check", target="t", passed=False)]


def test_a_halt_stops_the_concurrent_checks_rather_than_wait_for_them(project: Path) -> None:
    patient = WaitsForCancel()
    engine = engine_with(project, ForgeConfig(), patient=patient, halts=Halts())
    started = time.monotonic()
    report = engine.validate(ValidateRequest(module_id="m", files=["a"]))
    assert time.monotonic() - started < 5, "the call waited for a concurrent check after a halt"
    assert patient.saw_cancel
    assert [r.type for r in report.results] == ["halting_check"]


class Generates:
    """A check that runs the module's programs: it writes ``generated.py``."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="generates_check", summary="Writes a file.")]

    @hookimpl
    def forge_run_checks(self, workspace: Workspace) -> list[CheckResult]:
        (workspace.cwd / "generated.py").write_text("x = 1\n", encoding="utf-8")
        return [CheckResult(type="generates_check", target="generated.py", passed=True)]


class Quick:
    """A concurrent check called first: it passes at once."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="quick_check", summary="Quick.", concurrent=True)]

    @hookimpl(tryfirst=True)
    def forge_run_checks(self) -> list[CheckResult]:
        return [CheckResult(type="quick_check", target="t", passed=True)]


class SeesGenerated:
    """A concurrent check called after the writer: it reads what the writer wrote."""

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="late_check", summary="Reads.", read_only=True, concurrent=True)]

    @hookimpl(trylast=True)
    def forge_run_checks(self, workspace: Workspace) -> list[CheckResult]:
        seen = (workspace.cwd / "generated.py").exists()
        return [CheckResult(type="late_check", target="generated.py", passed=seen)]


def test_a_concurrent_check_called_after_a_writer_starts_after_it_and_once(
    project: Path,
) -> None:
    """Two concurrent plugins, a check that writes between them in the call order: the
    second started with the first, before the writer, and judged a tree it had not written;
    then every concurrent plugin was called again at each one's turn after a writer."""
    engine = engine_with(
        project,
        ForgeConfig(),
        quick=Quick(),
        generates=Generates(),
        late=SeesGenerated(),
    )
    order = engine.plugins.call_order("forge_run_checks")
    assert order.index("quick") < order.index("generates") < order.index("late")
    report = engine.validate(ValidateRequest(module_id="m", commands=["true"]))
    assert sorted((result.type, result.passed) for result in report.results) == [
        ("command", True),
        ("generates_check", True),
        ("late_check", True),
        ("quick_check", True),
    ], "a concurrent check ran before the writer, or was called again"


class Counted:
    """A concurrent check that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def forge_checks(self) -> list[CheckDescriptor]:
        return [CheckDescriptor(id="counted_check", summary="Counts.", concurrent=True)]

    @hookimpl
    def forge_run_checks(self) -> list[CheckResult]:
        self.calls += 1
        return [CheckResult(type="counted_check", target="t", passed=True)]


def test_a_halt_stops_a_concurrent_check_still_waiting_its_turn_before_it_starts(
    project: Path,
) -> None:
    """Two concurrent plugins started before a halting check: the second waits its turn
    behind the first, and after the halt it is never called (its checker never started)."""
    patient, counted = WaitsForCancel(), Counted()
    engine = engine_with(project, ForgeConfig(), patient=patient, halts=Halts(), counted=counted)
    order = engine.plugins.call_order("forge_run_checks")
    assert order.index("patient") < order.index("counted") < order.index("halts")
    report = engine.validate(ValidateRequest(module_id="m", files=["a"]))
    assert patient.saw_cancel
    assert [r.type for r in report.results] == ["halting_check"]
    assert counted.calls == 0
