"""Running git: one environment, one timeout, bytes out; nothing here changes a repository's state.

Every git command forge runs goes through :func:`run_git`: paths are taken
literally, git takes no optional lock and asks nothing, and ``GIT_DIR`` /
``GIT_WORK_TREE`` from the caller's environment are dropped, so the command
is about the repository of the folder it runs in.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

#: Seconds any one git command may take; local object reads are fast.
GIT_TIMEOUT = 30.0


def git_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a git command forge runs, plus ``extra``."""
    env = dict(os.environ)
    # Paths are literal (a file named '*.py' is that file); git takes no lock
    # and asks nothing, so a read never blocks on or alters the worktree.
    env.update(GIT_LITERAL_PATHSPECS="1", GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def run_git(
    cwd: Path,
    args: Sequence[str],
    stdin: bytes | None = None,
    *,
    env: Mapping[str, str] | None = None,
    ok_codes: tuple[int, ...] = (0,),
    timeout: float = GIT_TIMEOUT,
) -> bytes:
    """``git args`` in ``cwd``: its stdout.

    :param env: variables added to :func:`git_environment` (a temporary index file).
    :param ok_codes: exit codes that are answers, not failures (``merge-tree``'s 1).
    :raises subprocess.CalledProcessError: another exit code (its stderr attached).
    :raises OSError, subprocess.TimeoutExpired: git is missing, or took too long.
    """
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=git_environment(env),
        timeout=timeout,
        check=False,
    )
    if done.returncode not in ok_codes:
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return done.stdout


def git_text(cwd: Path, *args: str) -> str | None:
    """A git command's stripped stdout, or None when it fails (or git is not there)."""
    try:
        out = run_git(cwd, args)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.decode("utf-8", errors="surrogateescape").strip() or None


def commit_of(cwd: Path, revision: str) -> str | None:
    """The full commit id ``revision`` names, or None when it names no commit.

    ``--end-of-options`` makes git read ``revision`` as a revision whatever it
    starts with: a user's ``--output=x`` names nothing, it is never an option.
    For the merge check's revisions: rev-parse knew the flag long before
    ``merge-tree --write-tree`` (git 2.38), which the merge check needs anyway.
    """
    return git_text(
        cwd, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"
    )


def failure(exc: BaseException) -> str:
    """What went wrong with a git command, on one line: git's own message when it gave one."""
    if isinstance(exc, subprocess.CalledProcessError) and exc.stderr:
        text = exc.stderr.decode("utf-8", errors="replace") if isinstance(exc.stderr, bytes) else ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            return lines[0].removeprefix("fatal: ").removeprefix("error: ")
    if isinstance(exc, subprocess.TimeoutExpired):
        return f"git took longer than {exc.timeout:g} s"
    if isinstance(exc, FileNotFoundError):
        return "git is not installed"
    return str(exc)


def split_z(output: bytes) -> list[str]:
    """NUL-separated paths (``-z`` output), decoded as git wrote them."""
    return [os.fsdecode(item) for item in output.split(b"\0") if item]
