"""The results of ``iteration_state`` and ``session_state``: one of several shapes per action.

Apart from :mod:`forge.service.tools` so that a command that answers neither
tool (``forge validate``, ``forge hook``) never creates these classes nor
imports the session models.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import ConfigDict, RootModel

from forge.state.sessions import SessionList, SessionLoaded, SessionSaved
from forge.validate.iteration import IterationReset, IterationState, IterationUpdated

R = TypeVar("R")


class _DeferredRoot(RootModel[R], Generic[R]):
    # ``RootModel[X]`` builds its validator when it is written; a subclass of
    # this one waits for its first use, like every WireModel.
    model_config = ConfigDict(defer_build=True)


class IterationStateResult(_DeferredRoot[IterationState | IterationUpdated | IterationReset]):
    """``iteration_state``: the state (get), the appended attempt (update) or a confirmation (reset)."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


class SessionStateResult(_DeferredRoot[SessionSaved | SessionLoaded | SessionList]):
    """``session_state``: ``{saved, ...}`` (save), ``{found, ...}`` (load) or ``{sessions}`` (list)."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})
