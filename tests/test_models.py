"""The request and finding models: limits that keep hostile input small and harmless."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from forge.models import ValidateRequest


@pytest.mark.parametrize("command", ["true\x00", "\x00", "echo a\x00; rm -rf x"])
def test_a_command_with_a_nul_byte_is_refused_with_the_request(command: str) -> None:
    with pytest.raises(ValidationError, match="cannot hold a NUL byte"):
        ValidateRequest(module_id="m", commands=["true", command])
