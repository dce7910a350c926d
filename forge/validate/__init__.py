"""The validate pipeline, one module per stage.

request -> checks -> verdict -> attempt history -> report:
:mod:`.request`, :mod:`.run`, :mod:`.verdict`, :mod:`.history`, :mod:`.report`.
"""
