"""The base of every wire model, and the bounded text types and limits requests share."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

CHECK_TYPE_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"

#: Limits on one validate request: enough for any real module, small enough
#: that one call cannot tie the server up.
MAX_FILES = 2_000
MAX_COMMANDS = 50
MAX_CONTRACT_CHECKS = 500
MAX_PATH_LENGTH = 4_096
MAX_COMMAND_LENGTH = 10_000
MAX_TIMEOUT_SECONDS = 3_600.0
#: Longest ``baseRef`` taken: a ref name or commit id, never a document.
MAX_BASE_REF_CHARS = 256


#: A file or directory path as a caller may send it: bounded, and without the
#: NUL byte no real path can hold.
PathText = Annotated[str, Field(min_length=1, max_length=MAX_PATH_LENGTH, pattern=r"^[^\x00]*$")]

#: A git revision as a request names one (``baseRef``): a ref name or a commit id.
BaseRefText = Annotated[str, Field(min_length=1, max_length=MAX_BASE_REF_CHARS)]


def _runnable(command: str) -> str:
    """``command`` if a shell could run it; ``ValueError`` for a NUL byte."""
    if "\x00" in command:
        raise ValueError("a command cannot hold a NUL byte (no shell can run it)")
    return command


#: A verify command as a caller may send it: bounded, and without a NUL byte, so
#: a command no shell can run is refused with the request, before anything runs.
#: (A validator rather than a pattern, for a message that says why.)
CommandText = Annotated[
    str, Field(min_length=1, max_length=MAX_COMMAND_LENGTH), AfterValidator(_runnable)
]


class WireModel(BaseModel):
    """Base of every model that crosses a boundary: immutable, camelCase on the wire."""

    # defer_build: a model's validator is built the first time it is used, so a
    # command pays only for the models it touches (``forge plan check`` is
    # started once per commit and never builds the validate request models).
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        extra="forbid",
        defer_build=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict with camelCase keys, as tools and ``--json`` output show it."""
        return self.model_dump(mode="json", by_alias=True)


class StoredRecord(WireModel):
    """A record read back from a ``.forge/`` file (a memory entry, a log event).

    Lines written by other tools, or by other forge versions, may carry more
    keys: they are kept out of the way instead of making the line unreadable.
    """

    model_config = ConfigDict(extra="ignore")
