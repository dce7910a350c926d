"""The validate pipeline, one module per stage.

request -> checks -> baseline -> verdict -> attempt history -> report:
:mod:`.request`, :mod:`.run`, :mod:`.baseline`, :mod:`.verdict`, :mod:`.history`,
:mod:`.report`.
"""
