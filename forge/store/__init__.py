"""All reading and writing under ``.forge/`` (and the global memory) goes through here.

The rules (docs/architecture.md, "Files under .forge/"; SECURITY.md names the test holding
each):

- A state path is opened one folder at a time from its *state root* (the
  project for ``.forge/...``, ``FORGE_HOME`` for global memory) with
  ``O_NOFOLLOW`` and folder descriptors: a symlink anywhere below the root is
  refused, never followed, so a link planted in ``.forge/`` (a cloned
  repository can carry one) cannot send a write elsewhere, and no
  check-then-open race can either.
- Only regular files are read or written (a FIFO would hang forge, a device
  never end), and every read is capped in size.
- JSON files are replaced atomically: a temp file in the same folder, fsync,
  rename. A reader sees the old file or the new one, never half of one. Temp
  files orphaned by a killed writer are swept by the next write.
- JSONL appends hold the file's lock and write one whole line: what a full
  disk leaves of a line is cut off again, and a torn tail left by a crash is
  set aside before the next append, so no line fuses with a fragment.
- Read-modify-write sequences hold a file lock (``<file>.lock``, ``flock``),
  so several server processes and CLI runs on one project never lose an update.
- ids are validated before they touch a path (:func:`forge.store.ids.check_id`).
- A corrupt file (not UTF-8 JSON, a lone surrogate escape, a symlink or FIFO
  where a state file belongs, over its size limit) is moved aside as
  ``<name>.corrupt-<timestamp>``, never deleted, and the caller is told where.
- Folders are created 0700 and files 0600 whatever the umask: they hold
  command lines, which may carry secrets.

The package, one job per module: :mod:`~forge.store.safe_open` (opening
without following links, capped reads, listing), :mod:`~forge.store.writes`
(atomic replaces, sweeping, moving aside), :mod:`~forge.store.locks`,
:mod:`~forge.store.json_files`, :mod:`~forge.store.jsonl` and
:mod:`~forge.store.forge_dir` (the paths of ``.forge/``), :mod:`~forge.store.project`
(which project a folder is: a git worktree's is its main checkout). Import from
``forge.store`` itself (each name is imported from its module on first use).
"""

from typing import TYPE_CHECKING

from forge import lazy_exports

if TYPE_CHECKING:
    from forge.store.forge_dir import ForgeDir, utc_now, valid_id, valid_run_id
    from forge.store.json_files import (
        MAX_STATE_BYTES,
        decode_json,
        peek_json,
        pretty_json,
        read_json,
        update_json,
        write_json,
    )
    from forge.store.jsonl import (
        MAX_JSONL_BYTES,
        MAX_LINE_BYTES,
        append_line,
        describe_bad_lines,
        numbered_lines,
        set_aside_lines,
    )
    from forge.store.locks import LOCK_TIMEOUT_SECONDS, locked, remove
    from forge.store.safe_open import (
        newest,
        open_state_file,
        read_regular_file,
        state_files,
        state_folders,
    )
    from forge.store.writes import (
        ORPHAN_MAX_AGE,
        ORPHAN_MIN_AGE,
        ensure_folder,
        ensure_writable,
        quarantine,
        write_bytes_atomic,
    )

#: The submodule defining each name, imported on first use: ``forge hook`` reads a
#: snapshot (``json_files``) on every shell command, and must not pay for the
#: pydantic id types ``forge_dir`` brings.
_DEFINED_IN = {
    "ForgeDir": "forge_dir",
    "utc_now": "forge_dir",
    "valid_id": "forge_dir",
    "valid_run_id": "forge_dir",
    "MAX_STATE_BYTES": "json_files",
    "decode_json": "json_files",
    "peek_json": "json_files",
    "pretty_json": "json_files",
    "read_json": "json_files",
    "update_json": "json_files",
    "write_json": "json_files",
    "MAX_JSONL_BYTES": "jsonl",
    "MAX_LINE_BYTES": "jsonl",
    "append_line": "jsonl",
    "describe_bad_lines": "jsonl",
    "numbered_lines": "jsonl",
    "set_aside_lines": "jsonl",
    "LOCK_TIMEOUT_SECONDS": "locks",
    "locked": "locks",
    "remove": "locks",
    "newest": "safe_open",
    "open_state_file": "safe_open",
    "read_regular_file": "safe_open",
    "state_files": "safe_open",
    "state_folders": "safe_open",
    "ORPHAN_MAX_AGE": "writes",
    "ORPHAN_MIN_AGE": "writes",
    "ensure_folder": "writes",
    "ensure_writable": "writes",
    "quarantine": "writes",
    "write_bytes_atomic": "writes",
}

__getattr__ = lazy_exports(__name__, _DEFINED_IN)

__all__ = [
    "LOCK_TIMEOUT_SECONDS",
    "MAX_JSONL_BYTES",
    "MAX_LINE_BYTES",
    "MAX_STATE_BYTES",
    "ORPHAN_MAX_AGE",
    "ORPHAN_MIN_AGE",
    "ForgeDir",
    "append_line",
    "decode_json",
    "describe_bad_lines",
    "ensure_folder",
    "ensure_writable",
    "locked",
    "newest",
    "numbered_lines",
    "open_state_file",
    "peek_json",
    "pretty_json",
    "quarantine",
    "read_json",
    "read_regular_file",
    "remove",
    "set_aside_lines",
    "state_files",
    "state_folders",
    "update_json",
    "utc_now",
    "valid_id",
    "valid_run_id",
    "write_bytes_atomic",
    "write_json",
]
