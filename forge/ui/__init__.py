"""``forge ui``: a local, read-only web page over a project's ``.forge/`` folder.

It shows the plan as its dependency graph (layers, the critical path, each
module coloured by state), a module's attempts with their scores,
recommendations and the exact failing lines, the run's event log, the saved
sessions and the memory, and follows changes live: the server watches the few
files involved (by ``stat``) and tells the page over one server-sent-events
stream which parts to fetch again.

The package, one job per module: :mod:`~forge.ui.models` (every JSON answer,
as pydantic models), :mod:`~forge.ui.reading` (runs and plans found without
moving anything), :mod:`~forge.ui.graph` and :mod:`~forge.ui.module` (the two
main views), :mod:`~forge.ui.panels` (log, sessions, memory),
:mod:`~forge.ui.watch` (what changed), :mod:`~forge.ui.app` (the Starlette
routes), :mod:`~forge.ui.server` (uvicorn on a socket it binds), and
``static/`` (plain HTML, CSS and JavaScript, no build step, nothing fetched
from elsewhere). It writes nothing, under ``.forge/`` or anywhere else.
"""

from __future__ import annotations
