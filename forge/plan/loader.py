"""The ``schema`` step: plan file -> JSON -> :class:`Plan`, reporting every structural problem.

It is tolerant on purpose. Instead of stopping at the first problem it
reports each one (which module, which field, what was found) and still builds
a plan from whatever is usable, so the rules that run next can report their
findings in the same pass:

- a module with a broken optional field (``dependsOn``, ``agent``,
  ``complexity``) keeps its other fields;
- a module with a broken required field is left out, and its id is recorded
  in :attr:`Plan.omitted_ids`;
- a broken top-level field (``techStack``) is left out.

Plan files are the planner's input, not forge's state: a corrupt plan is
reported where it is and never moved aside.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import TypeAdapter, ValidationError

from forge.errors import clip
from forge.models import PlanFinding
from forge.plan.model import AcceptanceCriterion, CostBudget, Plan, PlanHeader, PlanModule

#: Larger plan files are refused unread: no real plan comes near it.
MAX_PLAN_BYTES = 16 * 1024 * 1024
#: Most modules a plan may have: keeps one check to seconds and its report
#: small; no orchestrator runs more than a few hundred workers.
MAX_PLAN_MODULES = 10_000

REQUIRED_FIELDS = frozenset(
    name for name, info in PlanModule.model_fields.items() if info.is_required()
)
_ALIASES = {name: info.alias or name for name, info in PlanModule.model_fields.items()}
REQUIRED_KEYS = frozenset(_ALIASES[name] for name in REQUIRED_FIELDS)


NOT_REGULAR = "cannot read the plan: it is not a regular file (a FIFO, socket or device)"


class PlanReadError(Exception):
    """The plan file could not be read or is not JSON; the message says why, in one line."""


class LoadedPlan(NamedTuple):
    """What the ``schema`` step made of a plan: the usable plan (if any) and the problems."""

    plan: Plan | None
    findings: list[PlanFinding]


def schema_error(
    message: str, *, modules: list[str] | None = None, field: str | None = None
) -> PlanFinding:
    """A ``schema`` error finding."""
    return PlanFinding(type="schema", message=message, modules=modules or [], field=field)


# --- file -> JSON -------------------------------------------------------------


def read_plan_json(path: Path) -> Any:
    """The decoded JSON of the plan file at ``path``; :class:`PlanReadError` when impossible.

    Only regular files are read (a FIFO or a device would block or never
    end), at most :data:`MAX_PLAN_BYTES`, as UTF-8 (a leading BOM is allowed).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise PlanReadError("cannot read the plan: no such file") from None
    except IsADirectoryError:
        raise PlanReadError("cannot read the plan: it is a directory") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket: opening it fails before fstat can tell
            raise PlanReadError(NOT_REGULAR) from None
        raise PlanReadError(f"cannot read the plan: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise PlanReadError("cannot read the plan: it is a directory")
        if not stat.S_ISREG(mode):
            raise PlanReadError(NOT_REGULAR)
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_PLAN_BYTES + 1)
    except OSError as exc:
        raise PlanReadError(f"cannot read the plan: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_PLAN_BYTES:
        raise PlanReadError(
            f"cannot read the plan: larger than {MAX_PLAN_BYTES // (1024 * 1024)} MiB"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PlanReadError(
            f"the plan is not UTF-8 text: byte {exc.start} cannot be decoded"
        ) from None
    return parse_plan_json(text)


def parse_plan_json(text: str) -> Any:
    """Decode JSON text; :class:`PlanReadError` with the line and column when it is invalid."""
    if not text.strip():
        raise PlanReadError("invalid JSON: the plan is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        before, at = text[: exc.pos].rstrip(), text[exc.pos : exc.pos + 1]
        trailing_comma = before.endswith(",") and at in ("]", "}")
        hint = " (remove the trailing comma before it)" if trailing_comma else ""
        raise PlanReadError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}{hint}"
        ) from None
    except RecursionError:
        raise PlanReadError("invalid JSON: nested too deeply") from None


# --- JSON -> Plan ---------------------------------------------------------------


def build_plan(raw: object) -> LoadedPlan:
    """Check the structure of decoded plan JSON; build the plan from its usable parts."""
    if not isinstance(raw, dict):
        return LoadedPlan(
            None,
            [
                schema_error(
                    f'the plan must be a JSON object with a "modules" list, found {json_type(raw)}'
                )
            ],
        )
    findings: list[PlanFinding] = []
    header = _build_header({key: value for key, value in raw.items() if key != "modules"}, findings)
    modules, omitted = _build_modules(raw, findings)
    plan = Plan.model_construct(
        _fields_set=header.model_fields_set | {"modules"},
        **_values(header),
        modules=modules,
    )
    plan._omitted_ids = frozenset(omitted)
    return LoadedPlan(plan, findings)


def _values(header: PlanHeader) -> dict[str, Any]:
    values = {name: getattr(header, name) for name in type(header).model_fields}
    return {**values, **(header.model_extra or {})}


def _build_header(raw: dict[str, Any], findings: list[PlanFinding]) -> PlanHeader:
    try:
        return PlanHeader.model_validate(raw)
    except ValidationError as exc:
        broken = _by_field(exc, raw)
    for errors in broken.values():
        for where, problem in errors:
            findings.append(schema_error(f"{where} {problem}", field=where))
    try:
        return PlanHeader.model_validate({k: v for k, v in raw.items() if k not in broken})
    except ValidationError:  # pragma: no cover - every broken key was dropped
        return PlanHeader()


def _build_modules(
    raw: dict[str, Any], findings: list[PlanFinding]
) -> tuple[list[PlanModule], set[str]]:
    if "modules" not in raw:
        findings.append(schema_error('the plan has no "modules" list', field="modules"))
        return [], set()
    items = raw["modules"]
    if not isinstance(items, list):
        findings.append(
            schema_error(
                f'"modules" must be a list of module objects, found {json_type(items)}',
                field="modules",
            )
        )
        return [], set()
    if not items:
        findings.append(
            schema_error('"modules" is empty: a plan needs at least one module', field="modules")
        )
    if len(items) > MAX_PLAN_MODULES:
        findings.append(
            schema_error(
                f'"modules" has {len(items):,} entries; a plan may have at most '
                f"{MAX_PLAN_MODULES:,}: split the objective into several plans",
                field="modules",
            )
        )
        return [], set()
    if len(items) >= BULK_MODULES:
        try:
            return _modules_adapter().validate_python(items), set()
        except ValidationError:
            pass  # some module is broken: each one on its own, to say which and keep the rest
    modules: list[PlanModule] = []
    omitted: set[str] = set()
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            findings.append(
                schema_error(
                    f"modules[{position}] must be a module object, found {json_type(item)}",
                    field="modules",
                )
            )
            continue
        module = _build_module(position, item, findings)
        if module is not None:
            modules.append(module)
        elif isinstance(item.get("id"), str) and item["id"].strip():
            omitted.add(item["id"])
    return modules, omitted


#: From this many modules on, a plan's modules are validated in one call first
#: (a fifth faster than one call each at 1,000 modules); the validator costs
#: ~5 ms to build, once a process, which a small plan's check would not win back.
BULK_MODULES = 200


@functools.cache
def _modules_adapter() -> TypeAdapter[list[PlanModule]]:

    return TypeAdapter(list[PlanModule])


def _build_module(
    position: int, item: dict[str, Any], findings: list[PlanFinding]
) -> PlanModule | None:
    try:
        return PlanModule.model_validate(item)
    except ValidationError as exc:
        broken = _by_field(exc, item)
    module_id = item.get("id")
    involved = [module_id] if isinstance(module_id, str) and "id" not in broken else []
    label = f'module "{module_id}" (modules[{position}])' if involved else f"modules[{position}]"
    for key, errors in broken.items():
        for where, problem in errors:
            findings.append(
                schema_error(f"{label}: {where} {problem}", modules=involved, field=key)
            )
    if broken.keys() & REQUIRED_KEYS:
        return None
    # Only optional fields were broken (and are reported): keep the rest.
    try:
        return PlanModule.model_validate({k: v for k, v in item.items() if k not in broken})
    except ValidationError:  # pragma: no cover - every broken key was dropped
        return None


def _known_key_hint(where: str) -> str:
    """``(did you mean blocking?)`` for a misspelt key of an object forge defines."""
    key = where.rsplit(".", 1)[-1]
    model = CostBudget if where.lower().startswith("cost") else AcceptanceCriterion
    from difflib import get_close_matches  # deferred: only a misspelled field is compared

    close = get_close_matches(key, list(model.model_fields), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


# --- messages ---------------------------------------------------------------------


def json_type(value: object) -> str:
    """How ``value`` looks in JSON, with an article: ``an object``, ``a string ("x")``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"a boolean ({'true' if value else 'false'})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({json.dumps(clip(value, 40), ensure_ascii=False)})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _by_field(error: ValidationError, raw: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """The errors of one model as ``{key: [(where, problem), ...]}``, one entry per problem.

    ``where`` is the JSON path inside the object (``files[2]``,
    ``techStack.testCommand``); union branches are reduced to the one that
    matches the value's JSON type, so a number in ``doneWhen`` is one problem.
    """
    broken: dict[str, list[tuple[str, str]]] = {}
    seen: set[str] = set()
    for item in error.errors(include_url=False):
        location = list(item["loc"])
        key = str(location[0])
        if len(location) > 1 and isinstance(location[1], str) and key in _UNION_KEYS:
            branch = str(location.pop(1))
            if not _matches_branch(branch, raw.get(key)):
                continue
        where = _path(location)
        if where in seen:
            continue
        seen.add(where)
        broken.setdefault(key, []).append((where, _problem(item, where)))
    return broken


#: Keys whose type is a union of shapes (a string, or a list of strings).
_UNION_KEYS = frozenset({"doneWhen"})


def _matches_branch(branch: str, value: object) -> bool:
    return branch.startswith("list") == isinstance(value, list)


def _path(location: list[int | str]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _problem(item: Any, where: str) -> str:
    kind, value = item["type"], item.get("input")
    found = json_type(value)
    if kind == "missing":
        return "is missing (required)"
    if kind in {"string_too_short", "string_pattern_mismatch"}:
        return "must not be empty"
    if kind == "too_short":
        return "must not be an empty list"
    if kind == "string_type":
        if where in _UNION_KEYS:
            return f"must be a string or a list of strings, found {found}"
        return f"must be a string, found {found}"
    if kind == "list_type":
        hint = f" (write [{json.dumps(value)}])" if isinstance(value, str) else ""
        return f"must be a list, found {found}{hint}"
    if kind in {"model_type", "dict_type", "model_attributes_type"}:
        return f"must be an object, found {found}"
    if kind == "extra_forbidden":
        return f"is unknown{_known_key_hint(where)}"
    if kind == "literal_error":
        expected = item.get("ctx", {}).get("expected", "")
        return f"must be one of {expected}, found {found}"
    return f"is invalid: {item['msg']}"
