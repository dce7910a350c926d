"""One-line error messages from pydantic validation errors, whatever the input held."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from forge.validation_errors import describe_validation_error


class Arguments(BaseModel):
    """A tool's arguments: an object of objects, like ``pluginOptions``."""

    model_config = ConfigDict(extra="forbid")

    options: dict[str, dict[str, int]] = {}


def message_for(value: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        Arguments.model_validate(value)
    return describe_validation_error(caught.value, subject="arguments")


def test_names_the_field_and_the_problem() -> None:
    message = message_for({"options": {"stubs": {"level": "high"}}})
    assert message == (
        "invalid arguments: options.stubs.level: "
        "Input should be a valid integer, unable to parse string as an integer"
    )


@pytest.mark.parametrize("key", ["line\nbreak", "cr\rreturn", "sep\u2028arator", "\x85next"])
def test_a_key_with_a_line_break_stays_on_one_line(key: str) -> None:
    message = message_for({key: 1})
    assert len(message.splitlines()) == 1
    assert repr(key) in message


def test_a_huge_key_is_cut() -> None:
    message = message_for({"options": {"k" * 10_000_000: 1}})
    assert len(message) < 300
    assert "options.kkk" in message and "..." in message


def test_many_long_problems_stay_under_a_thousand_characters() -> None:
    options = {"x" * 1_000 + str(i): {"y" * 1_000: "z"} for i in range(50)}
    message = message_for({"options": options, "extra" * 100: 1})
    assert len(message) < 1_000
    assert message.endswith("; and 46 more")
