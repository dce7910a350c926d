"""The validate pipeline, one module per stage, and the engine that runs it.

request -> checks -> baseline -> acceptance -> verdict -> attempt history -> report:
:mod:`.preparation`, :mod:`.run` (:class:`~forge.validate.run.Engine`), :mod:`.baseline`,
:mod:`.acceptance`, :mod:`.verdict`, :mod:`.history`, :mod:`.outcome`. The stages
receive a :class:`~forge.validate.context.StageContext`, not the engine;
:mod:`.edit` is what the edit hook asks (``Engine.judge_edit``), :mod:`.iteration`
the ``iteration_state`` tool's data.
"""
