"""The hostile-input tests share one fixture: the real ``forge serve`` in an arena."""

from forge_hostile import hostile as hostile
