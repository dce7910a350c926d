"""The attempt-history rules: sameAsPrev, oscillation, velocity, stagnation, recommendation."""

from __future__ import annotations

from pathlib import Path

from forge.validate.history import Attempt, Trend, assess, recommend, record_attempt


def attempts(*specs: tuple[float, set[str]]) -> list[Attempt]:
    return [
        Attempt(
            attempt=n,
            timestamp="2026-11-21T00:00:00.000Z",
            score=score,
            passed=not failures,
            failures=sorted(failures),
        )
        for n, (score, failures) in enumerate(specs, start=1)
    ]


def test_first_attempt_has_no_trend() -> None:
    trend = assess(attempts((0.5, {"command:npm test"})))
    assert trend == Trend(
        attempt=1, same_as_prev=False, oscillating=False, velocity=None, stagnant=False
    )


def test_same_failures_twice_is_stagnant() -> None:
    trend = assess(attempts((0.5, {"command:a"}), (0.5, {"command:a"})))
    assert trend.same_as_prev and trend.stagnant and not trend.oscillating


def test_failure_identity_ignores_order() -> None:
    trend = assess(attempts((0.5, {"a:1", "b:2"}), (0.6, {"b:2", "a:1"})))
    assert trend.same_as_prev


def test_oscillation_a_b_a() -> None:
    trend = assess(attempts((0.5, {"a"}), (0.5, {"b"}), (0.6, {"a"})))
    assert trend.oscillating and not trend.same_as_prev and trend.stagnant


def test_oscillation_looks_back_four_attempts_before_the_previous() -> None:
    # "a" stands five attempts before the previous one: out of the window.
    too_far = ["a", "c", "d", "e", "f", "g", "a"]
    assert assess(attempts(*[(0.5, {x}) for x in too_far])).oscillating is False
    # "c" stands four attempts before the previous one: inside it.
    inside = ["c", "d", "e", "f", "a", "c"]
    assert assess(attempts(*[(0.5, {x}) for x in inside])).oscillating is True


def test_passing_attempt_is_never_stagnant_through_failures() -> None:
    trend = assess(attempts((0.5, {"a"}), (1.0, set()), (1.0, set())))
    assert not trend.same_as_prev and not trend.oscillating
    assert trend.velocity == 0.25
    assert trend.stagnant is False


def test_velocity_over_the_last_four_scores() -> None:
    trend = assess(attempts((0.0, {"a"}), (0.2, {"b"}), (0.4, {"c"}), (0.5, {"d"}), (0.5, {"e"})))
    assert trend.velocity == round((0.5 - 0.2) / 3, 6)
    flat = assess(attempts((0.5, {"a"}), (0.6, {"b"}), (0.5, {"c"})))
    assert flat.velocity == 0.0 and flat.stagnant


def test_recommendations() -> None:
    fresh = Trend(attempt=1, same_as_prev=False, oscillating=False, velocity=None, stagnant=False)
    assert recommend(passed=True, trend=fresh, max_attempts=3) == "PROCEED"
    assert recommend(passed=False, trend=fresh, max_attempts=3) == "RETRY"
    at_limit = fresh.model_copy(update={"attempt": 3})
    assert recommend(passed=False, trend=at_limit, max_attempts=3) == "ESCALATE"
    stuck = fresh.model_copy(update={"stagnant": True})
    assert recommend(passed=False, trend=stuck, max_attempts=3) == "ESCALATE"


def test_record_attempt_appends_and_counts(tmp_path: Path) -> None:
    path = tmp_path / "iterations" / "run" / "mod.json"
    for expected in (1, 2, 3):
        history, trend, notices = record_attempt(
            path,
            module_id="mod",
            run_id="run",
            source="validate",
            score=0.5,
            passed=False,
            failures=["command:x", "command:x"],
        )
        assert trend.attempt == expected and notices == []
    assert [a.attempt for a in history.attempts] == [1, 2, 3]
    assert history.attempts[0].failures == ["command:x"]
    assert history.last_status == "failed"


def test_a_history_of_the_wrong_shape_is_moved_aside_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "mod.json"
    path.write_text('{"iterations": [{"n": 1}], "moduleId": 7}', encoding="utf-8")
    history, trend, notices = record_attempt(
        path, module_id="mod", run_id=None, source="validate", score=1.0, passed=True
    )
    assert trend.attempt == 1 and len(history.attempts) == 1
    assert len(notices) == 1 and "moved aside to mod.json.corrupt-" in notices[0]
    (moved,) = tmp_path.glob("mod.json.corrupt-*")
    assert moved.read_text(encoding="utf-8") == '{"iterations": [{"n": 1}], "moduleId": 7}'
