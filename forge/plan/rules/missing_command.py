"""``missing_command``: every program a verify command runs must exist. Nothing is executed.

Each verify command (and each ``techStack`` command, and each acceptance
criterion's check that is not a forge check's id) is split with
:func:`forge.plan.command_words.external_commands`, which skips ``VAR=value``
prefixes, builtins, keywords and dynamic words and follows literal ``cd``.
Then, for each program:

- a bare name (``pytest``) must be on ``PATH``: the standard library's PATH
  lookup (:func:`shutil.which`), never ``which`` or any other process;
- a path (``./scripts/test.sh``, ``bin/lint``) is resolved against the project
  root (after any ``cd``) and must be an executable file, unless a module of
  the plan lists it in ``files``: then the plan is what creates it.

A command that cannot be split (an unclosed quote) is an ``invalid_command``
error: the shell would reject it too.
"""

from __future__ import annotations

import os
import posixpath
import shutil
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

from forge import hookimpl
from forge.errors import clip
from forge.models import PlanFinding, PlanRuleDescriptor
from forge.plan.command_words import CommandWord, ShellSyntaxError, external_commands
from forge.plan.model import Plan, may_name_check, normalise_path
from forge.plan.rules import module_label

#: Longest stretch of a command quoted in a message.
SHOWN_COMMAND_CHARS = 120


def _shown(command: str) -> str:
    return clip(" ".join(command.split()), SHOWN_COMMAND_CHARS)


Where = str | tuple[str, str, int]


def _commands(plan: Plan) -> Iterator[tuple[Where, str | None, str, str]]:
    """``(where, module, field, command)`` for every command the plan would run.

    ``where`` is ``(module id, field, index)`` for a module's command:
    :func:`_where` spells it only for a finding (a plan has thousands of
    commands). An acceptance criterion that may name a forge check
    (``syntax_check``) is validate's to judge, not a program to look up.
    """
    for module in plan.modules:
        for index, command in enumerate(module.verify):
            yield (module.id, "verify", index), module.id, "verify", command
        for index, criterion in enumerate(module.acceptance_criteria):
            if not may_name_check(criterion.check):
                field = "acceptance_criteria"
                yield (module.id, field, index), module.id, field, criterion.check
    stack = plan.tech_stack
    if stack is not None:
        for key, line in (
            ("techStack.testCommand", stack.test_command),
            ("techStack.buildCommand", stack.build_command),
            ("techStack.lintCommand", stack.lint_command),
        ):
            if line is not None:
                yield key, None, key, line


def _where(where: Where) -> str:
    if isinstance(where, str):
        return where
    module_id, field, index = where
    check = ".check" if field == "acceptance_criteria" else ""
    return f"{module_label(module_id)}: {field}[{index}]{check}"


class _Resolver:
    """Answers "does this program exist?" once per program and place, with one PATH lookup per name."""

    def __init__(self, plan: Plan, project_root: Path) -> None:
        self.plan = plan
        self.root = project_root
        self.on_path: dict[str, bool] = {}
        self.answers: dict[CommandWord, tuple[str, str | None] | None] = {}

    @cached_property
    def planned(self) -> frozenset[str]:
        """Files the plan's modules create: needed only for a path that is not there yet."""
        return frozenset(
            normalise_path(file, self.root) for module in self.plan.modules for file in module.files
        )

    def problem(self, program: CommandWord) -> tuple[str, str | None] | None:
        """Why ``program`` cannot run (``"is not on PATH"``) and the project file involved.

        ``None`` when it can run, or when forge cannot know.
        """
        if program not in self.answers:
            self.answers[program] = self._problem(program)
        return self.answers[program]

    def _problem(self, program: CommandWord) -> tuple[str, str | None] | None:
        word = program.word
        if "/" not in word:
            if word not in self.on_path:
                self.on_path[word] = shutil.which(word) is not None
            return None if self.on_path[word] else ("is not on PATH", None)
        if word.startswith("~"):
            target, file = Path(word).expanduser(), None
        elif posixpath.isabs(word):
            relative = normalise_path(word, self.root)
            target, file = Path(word), None if posixpath.isabs(relative) else relative
        elif program.cwd is None:  # after ``cd $DIR``: nothing to resolve against
            return None
        else:
            file = posixpath.normpath(posixpath.join(program.cwd, word))
            target = self.root / file
        if target.is_file() and os.access(target, os.X_OK):
            return None
        if file is not None and file in self.planned:
            return None
        if not target.exists():
            listed = f" and no module lists {file} in files" if file else ""
            return f"does not exist{listed}", file
        if not target.is_file():
            return "is not a file", file
        return "is not executable (chmod +x it, or run it with sh)", file


@hookimpl
def forge_check_plan(plan: Plan, project_root: Path) -> list[PlanFinding]:
    """One error per program a command runs that does not exist, and per unparsable command."""
    resolver = _Resolver(plan, project_root)
    parsed: dict[str, tuple[CommandWord, ...] | str] = {}
    findings: list[PlanFinding] = []
    for where, module, field, command in _commands(plan):
        if command not in parsed:
            try:
                parsed[command] = external_commands(command)
            except ShellSyntaxError as exc:
                parsed[command] = str(exc)
        programs = parsed[command]
        modules = [module] if module is not None else []
        if isinstance(programs, str):
            findings.append(
                PlanFinding(
                    type="invalid_command",
                    message=f"{_where(where)} cannot be parsed ({programs}); "
                    f"command: {_shown(command)}",
                    modules=modules,
                    field=field,
                )
            )
            continue
        reported: set[str] = set()
        for program in programs:
            found = resolver.problem(program)
            if found is None or program.word in reported:
                continue
            reported.add(program.word)
            message, file = found
            findings.append(
                PlanFinding(
                    type="missing_command",
                    message=f'{_where(where)} runs "{program.word}", which {message}; '
                    f"command: {_shown(command)}",
                    modules=modules,
                    files=[file] if file else [],
                    field=field,
                )
            )
    return findings


@hookimpl
def forge_plan_rules() -> list[PlanRuleDescriptor]:
    """``invalid_command`` and ``missing_command``, after the graph rules."""
    return [
        PlanRuleDescriptor(
            id="invalid_command", summary="Every verify command can be parsed.", order=60
        ),
        PlanRuleDescriptor(
            id="missing_command",
            summary="The executable of every verify command is on PATH.",
            order=70,
        ),
    ]
