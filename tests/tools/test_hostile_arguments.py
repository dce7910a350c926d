"""Every tool fed arguments drawn by hypothesis through the real server (tests/forge_hostile.py)."""

from __future__ import annotations

from forge_hostile import (
    HostileServer,
    forge_logs_args,
    iteration_state_args,
    memory_recall_args,
    memory_save_args,
    merge_check_args,
    run_examples,
    session_state_args,
    validate_args,
    validate_plan_args,
)


def test_validate_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "validate", validate_args)


def test_validate_plan_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "validate_plan", validate_plan_args)


def test_memory_save_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "memory_save", memory_save_args)


def test_memory_recall_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "memory_recall", memory_recall_args)


def test_iteration_state_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "iteration_state", iteration_state_args)


def test_forge_logs_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "forge_logs", forge_logs_args)


def test_session_state_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "session_state", session_state_args)


def test_merge_check_survives_hostile_arguments(hostile: HostileServer) -> None:
    run_examples(hostile, "merge_check", merge_check_args)
