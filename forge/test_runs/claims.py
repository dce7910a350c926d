"""A worker's claims about its tests, against forge's recorded run of its verify commands.

Agents end with "all tests pass" over a failing run, or "all 20 tests pass"
after a run of 12. The Stop hook reads the agent's last message from its
transcript (:func:`last_message`: Claude Code's JSONL, ``transcript_path`` of
the Stop event, ``agent_transcript_path`` of a SubagentStop when given),
finds a claim that tests pass (:func:`claim_in`), and compares it with the
test counts of the validate run it just recorded (:func:`contradiction`).

Precision over recall: a claim is only the plain shapes ("all tests pass",
"all 20 tests pass", "20 tests passed", "20/20 tests pass", "tests are green",
"ALL PASSED"), never in a sentence that negates or qualifies it ("not all",
"fail", "except", "but"). It is contradicted when the run had failed tests or
errors, when a verify command failed without any test count to show for it,
or when the number claimed is not the number of tests forge saw pass.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge.models import CheckResult, CommandResult, TestCounts
from forge.test_runs.counts import describe

#: Bytes read from the end of a transcript: the last message is there.
TAIL_BYTES = 2 * 1024 * 1024

_COUNTED = re.compile(
    r"\b(?:all\s+)?(?P<count>\d[\d,]*)(?:\s*/\s*(?P<total>\d[\d,]*))?\s+(?:\w+\s+)?tests?\s+"
    r"(?:now\s+|are\s+|have\s+|all\s+)*(?:pass(?:es|ed|ing)?|succeed(?:ed)?|green)\b",
    re.IGNORECASE,
)
_ALL = re.compile(
    r"\b(?:all\s+(?:the\s+|of\s+the\s+)?(?:\w+\s+)?tests\s+(?:now\s+|are\s+|have\s+)*"
    r"(?:pass(?:es|ed|ing)?|succeed(?:ed)?|green)"
    r"|tests\s+(?:are\s+)?(?:all\s+)?(?:now\s+)?(?:passing|green)"
    r"|test\s+suite\s+(?:now\s+)?pass(?:es|ed)"
    r"|all\s+green|ALL\s+PASSED)\b",
    re.IGNORECASE,
)
_QUALIFIED = re.compile(
    r"(?:\b(?:not|fail\w*|except|but|however|skip\w*|unless|if|until|should|would|will|"
    r"expect\w*|hope\w*)\b|n't\b)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?;\n])\s+")


@dataclass(frozen=True)
class Claim:
    """What the worker said: tests pass, and how many if it gave a number."""

    text: str
    count: int | None


def last_message(event: dict[str, Any]) -> str | None:
    """The text of the agent's last message in the transcript the stop event names."""
    path = event.get("agent_transcript_path") or event.get("transcript_path")
    if not isinstance(path, str) or not path:
        return None
    try:
        file = Path(path)
        if file.is_symlink() or not file.is_file():
            return None
        with file.open("rb") as handle:
            handle.seek(max(file.stat().st_size - TAIL_BYTES, 0))
            data = handle.read(TAIL_BYTES)
    except OSError:
        return None
    parts: list[str] = []
    message_id: object = None
    for line in reversed(data.split(b"\n")):
        entry = _entry(line)
        if entry is None:
            continue
        message = entry.get("message")
        if entry.get("type") == "user" and parts:
            break  # the turn before the last message
        if entry.get("type") != "assistant" or not isinstance(message, dict):
            continue
        texts = _texts(message.get("content"))
        if message_id is not None and message.get("id") != message_id:
            break
        if texts:
            message_id = message.get("id", message_id)
            parts[:0] = texts
    return "\n".join(parts) or None


def _entry(line: bytes) -> dict[str, Any] | None:
    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def _texts(content: object) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]


def claim_in(text: str) -> Claim | None:
    """The first plain claim that tests pass in ``text``, or None."""
    for sentence in _SENTENCE.split(text):
        for pattern in (_COUNTED, _ALL):
            match = pattern.search(sentence)
            if match is None or _QUALIFIED.search(sentence):
                continue
            count = match.groupdict().get("count")
            return Claim(
                text=" ".join(match.group(0).split()),
                count=int(count.replace(",", "")) if count else None,
            )
    return None


def contradiction(claim: Claim, results: list[CheckResult]) -> str | None:
    """Why the recorded run contradicts ``claim`` (its counts in words), or None."""
    commands = [result for result in results if isinstance(result, CommandResult)]
    counted: list[TestCounts] = [result.tests for result in commands if result.tests is not None]
    passed = sum(counts.passed for counts in counted)
    broken = sum(counts.failed + counts.errors for counts in counted)
    uncounted_failure = any(not result.passed and result.tests is None for result in commands)
    if not commands:
        return None
    shown = "; ".join(
        f"{result.target}: {describe(result.tests) if result.tests else result.message}"
        for result in commands
    )
    said = (
        f'your last message says "{claim.text}", but forge\'s run of the verify commands: {shown}'
    )
    if broken or uncounted_failure:
        return said
    if claim.count is not None and counted and claim.count != passed:
        return said
    return None


def claim_contradicted(event: dict[str, Any], results: list[CheckResult]) -> str | None:
    """The stop event's last message's claim, when ``results`` (the recorded run) contradict it."""
    text = last_message(event)
    claim = claim_in(text) if text else None
    return contradiction(claim, results) if claim is not None else None
