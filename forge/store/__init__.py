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
(which project a folder is: a git worktree's is its main checkout).

Import each name from the module that defines it (``from forge.store.json_files import read_json``): the package itself imports nothing, so a command pays only for the modules it uses.
"""
