"""``python -m forge`` is the ``forge`` command."""

from __future__ import annotations

from forge.cli import console

console()
