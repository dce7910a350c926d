"""The request and finding models: limits that keep hostile input small and harmless."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from forge.models import MAX_FINDING_MESSAGE, MAX_FINDING_NAME, PlanFinding, ValidateRequest


@pytest.mark.parametrize("command", ["true\x00", "\x00", "echo a\x00; rm -rf x"])
def test_a_command_with_a_nul_byte_is_refused_with_the_request(command: str) -> None:
    with pytest.raises(ValidationError, match="cannot hold a NUL byte"):
        ValidateRequest(module_id="m", commands=["true", command])


def test_a_finding_cuts_overlong_text() -> None:
    huge = "x" * 10_000_000
    finding = PlanFinding(type="schema", message=huge, modules=[huge, "a"], files=[huge])
    assert len(finding.message) == MAX_FINDING_MESSAGE and finding.message.endswith("...")
    assert [len(name) for name in finding.modules] == [MAX_FINDING_NAME, 1]
    assert len(finding.files[0]) == MAX_FINDING_NAME


def test_every_exported_name_resolves_to_its_submodule_definition() -> None:
    import importlib

    import forge.models

    for name in forge.models.__all__:
        value = getattr(forge.models, name)
        home = getattr(value, "__module__", None)
        if home is not None and home.startswith("forge.models."):
            assert getattr(importlib.import_module(home), name) is value, name
    missing = "NoSuchModel"
    with pytest.raises(AttributeError):
        getattr(forge.models, missing)
