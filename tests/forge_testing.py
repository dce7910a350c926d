"""Helpers shared by forge's tests (a uniquely named module: plugin test suites have
their own ``conftest``, so tests never import from ``conftest`` at run time)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

#: The console scripts installed next to the interpreter running the tests.
BIN_DIR = Path(sys.executable).parent

RunForge = Callable[..., subprocess.CompletedProcess[str]]


def forge_executable(name: str = "forge") -> str:
    """Path of an installed console script (``forge`` or ``forge-mcp``)."""
    path = BIN_DIR / name
    if not path.exists():  # pragma: no cover - the package must be installed to test it
        pytest.fail(f"{path} not found: install the project first (pip install -e '.[dev]')")
    return str(path)


#: git with a fixed identity and default branch, whatever the machine's settings.
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo``; its stripped stdout (a failure raises)."""
    done = subprocess.run([*GIT, *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit(repo: Path, files: dict[str, str], message: str) -> str:
    """Write ``files`` (paths relative to ``repo``), commit everything, return the commit id."""
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def repository_state(repo: Path) -> dict[str, bytes]:
    """Every byte git and its checkouts hold outside the object store: to assert none changed.

    Each worktree's files (its ``.git`` link included, ``.forge/`` left out:
    forge's own state), each worktree's index and ``HEAD``, and every ref
    (``git for-each-ref``, packed or loose). Objects are left out: a merge
    preview writes objects, which change nothing anyone sees.
    """
    state: dict[str, bytes] = {}
    listing = git(repo, "worktree", "list", "--porcelain")
    tops = [
        Path(line.split(" ", 1)[1]) for line in listing.splitlines() if line.startswith("worktree ")
    ]
    for top in tops:
        for path in sorted(top.rglob("*")):
            relative = path.relative_to(top)
            if relative.parts[0] in {".git", ".forge"} and path.is_dir():
                continue
            if relative.parts[0] == ".git" and (top / ".git").is_dir():
                continue
            if ".forge" in relative.parts or not path.is_file():
                continue
            state[f"{top}:{relative.as_posix()}"] = path.read_bytes()
        for name in ("index", "HEAD"):
            where = Path(git(top, "rev-parse", "--path-format=absolute", "--git-path", name))
            state[f"{top}:<{name}>"] = where.read_bytes() if where.exists() else b""
    state["<refs>"] = git(repo, "for-each-ref", "--format=%(refname) %(objectname)").encode()
    return state


def plan_module(module_id: str, files: list[str], **extra: object) -> dict[str, object]:
    """A plan module whose verify command only needs the shell (``test -f`` its first file)."""
    return {
        "id": module_id,
        "title": module_id.title(),
        "objective": f"Deliver {module_id}.",
        "files": files,
        "verify": [f"test -f {files[0]}"],
        "doneWhen": f"{files[0]} is there.",
        **extra,
    }


def write_plan(repo: Path, modules: list[dict[str, object]], name: str = "plan") -> Path:
    """``modules`` as ``.forge/plans/<name>.json`` of ``repo``."""
    import json

    path = repo / ".forge" / "plans" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"modules": modules}), encoding="utf-8")
    return path


def python_repo(project: Path) -> Path:
    """``project`` as a git repository on main: an exporter, its importer, a config; .forge/ ignored."""
    git(project, "init", "-q")
    commit(
        project,
        {
            ".gitignore": ".forge/\n",
            "api.py": "def total(items):\n    return sum(items)\n",
            "app.py": "from api import total\n\nprint(total([1, 2]))\n",
            "config.py": "NAME = 'app'\nLIMIT = 10\n",
        },
        "base",
    )
    return project


#: ``worker("api", {"api.py": ...})``: a worker's commit (a fixture of the parallel tests).
Worker = Callable[[str, dict[str, str]], Path]


def worker_commit(repo: Path, module_id: str, files: dict[str, str]) -> Path:
    """A worker's commit in worktree ``../wt-<id>`` on branch ``forge/<id>`` (made from main)."""
    folder = repo.parent / f"wt-{module_id}"
    if not folder.exists():
        git(repo, "worktree", "add", "-q", "-b", f"forge/{module_id}", str(folder), "main")
    commit(folder, files, f"{module_id}: work")
    return folder


def shell(
    cwd: Path, command: str, env: dict[str, str] | None = None
) -> list[dict[str, Any] | None]:
    """Run ``command`` as Claude Code's Bash tool does, with forge's hooks around it:
    the PreToolUse and PostToolUse decisions."""
    before, _ = run_hook(bash_event(cwd, command, hook="PreToolUse"), cwd=cwd, env=env)
    subprocess.run(["bash", "-c", command], cwd=cwd, check=True, timeout=60)
    after, _ = run_hook(bash_event(cwd, command), cwd=cwd, env=env)
    return [before, after]


# --- forge hook, fed real Claude Code events --------------------------------------


def run_hook(
    event: dict[str, Any], *, cwd: Path, env: dict[str, str] | None = None
) -> tuple[dict[str, Any] | None, str]:
    """Feed ``event`` to ``forge hook``; the decision on stdout (None: allowed silently), stderr."""
    import json
    import os

    completed = subprocess.run(
        [forge_executable(), "hook"],
        input=json.dumps(event),
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout.strip()
    return (json.loads(out) if out else None), completed.stderr


def post_tool_use(cwd: Path, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A PostToolUse event as Claude Code sends it after a successful write."""
    path = tool_input.get("file_path") or tool_input.get("notebook_path") or ""
    return {
        "session_id": "5f1c0a3e-8f0b-4c52-9d0e-1a2b3c4d5e6f",
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_response": {"filePath": path, "success": True},
    }


def stop(cwd: Path, *, active: bool = False, event: str = "SubagentStop") -> dict[str, Any]:
    """A Stop or SubagentStop event."""
    return {
        "session_id": "5f1c0a3e-8f0b-4c52-9d0e-1a2b3c4d5e6f",
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": event,
        "stop_hook_active": active,
    }


def bash_event(cwd: Path, command: str, *, hook: str = "PostToolUse") -> dict[str, Any]:
    """A PreToolUse or PostToolUse event of Claude Code's Bash tool running ``command``
    (the same ``tool_use_id`` for both events of one command)."""
    import hashlib

    event: dict[str, Any] = {
        "session_id": "5f1c0a3e-8f0b-4c52-9d0e-1a2b3c4d5e6f",
        "transcript_path": str(cwd / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": hook,
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run a shell command"},
        "tool_use_id": "toolu_" + hashlib.sha256(command.encode()).hexdigest()[:24],
    }
    if hook == "PostToolUse":
        event["tool_response"] = {
            "stdout": "",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
        }
    return event


def fake_distribution(site: Path, name: str, version: str, plugins: dict[str, str]) -> Path:
    """A distribution installed the way pip would: a dist-info with entry points.

    :param plugins: entry-point name -> module source (the module is ``fake_<name>``).
    """
    site.mkdir(parents=True, exist_ok=True)
    for plugin, source in plugins.items():
        (site / f"fake_{plugin}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    dist_info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    entries = "".join(f"{plugin} = fake_{plugin}\n" for plugin in plugins)
    (dist_info / "entry_points.txt").write_text(f"[forge]\n{entries}", encoding="utf-8")
    return site


def mount_tmpfs(where: Path, options: str = "size=1m") -> None:
    """Mount a small tmpfs at ``where`` (a full disk, a read-only project); skip unless root.

    The caller unmounts it with :func:`unmount`.
    """
    import os

    if os.geteuid() != 0:
        pytest.skip("this test mounts a tmpfs, which only root can do")
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")


def unmount(where: Path) -> None:
    """Undo :func:`mount_tmpfs` (lazily: a test's process may still hold a file there)."""
    subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)


def live_processes_mentioning(marker: str) -> list[str]:
    """Command lines of processes (not zombies) whose command line contains ``marker``."""
    alive = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in cmdline and state != "Z":
            alive.append(cmdline)
    return alive


def started_like_a_user(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    """``argv`` started as from a terminal (every signal at its default), stderr kept."""
    return subprocess.Popen(
        argv,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signal_dispositions,
    )


def signal_as_soon_as_started(
    argv: list[str], marker: str, signum: int, cwd: Path
) -> subprocess.Popen[str]:
    """Start ``argv`` and send it ``signum`` the moment a process running ``marker`` appears.

    No sleep between looks: the signal lands as early as an impatient user's
    Ctrl-C can, while forge is still setting the command up.
    """
    import time

    process = started_like_a_user(argv, cwd)
    deadline = time.monotonic() + 60
    while not [line for line in live_processes_mentioning(marker) if "validate" not in line]:
        assert process.poll() is None, "forge ended before the command started"
        assert time.monotonic() < deadline, "the command never started"
    process.send_signal(signum)
    return process


def signal_another_thread(pid: int, signum: int) -> None:
    """Send ``signum`` to one of process ``pid``'s threads other than its main one.

    The kernel may hand a process's signal (a terminal's Ctrl-C) to any of its
    threads; ``tgkill`` picks one, so a test does not depend on luck. Skips where
    the system call's number is not known here.
    """
    import ctypes
    import platform

    tgkill = {"x86_64": 234, "aarch64": 131}.get(platform.machine())
    if tgkill is None:
        pytest.skip(f"tgkill's number on {platform.machine()} is not known here")
    tids = (int(task.name) for task in Path(f"/proc/{pid}/task").iterdir())
    threads = sorted(tid for tid in tids if tid != pid)
    assert threads, f"process {pid} has no thread but its main one"
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(tgkill, pid, threads[0], signum) == 0, ctypes.get_errno()


def one_line_error(completed: subprocess.CompletedProcess[str]) -> str:
    """The stderr of a command that failed as documented: exit 2, one line, no traceback."""
    assert completed.returncode == 2, (completed.returncode, completed.stderr)
    assert "Traceback" not in completed.stderr
    lines = [line for line in completed.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, completed.stderr
    return lines[0]


# --- signals ----------------------------------------------------------------------------


#: The signals tests send to a child as a user would (Ctrl-C, kill, a closed terminal).
TEST_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")


def default_signal_dispositions() -> None:
    """``preexec_fn`` for a child that a test signals: every signal it may be sent, at its default.

    A child inherits ignored signals: a suite started from a script in the
    background (``cmd &``, ``nohup``) ignores SIGINT, and a Python child that
    starts with SIGINT ignored installs no KeyboardInterrupt handler, so a test's
    Ctrl-C would do nothing. A user's terminal never starts forge that way.
    """
    import signal

    for name in TEST_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_DFL)


# --- once per run, shared by every process of it -----------------------------------------

#: The run's private folder, made by the suite's plugin (``forge_suite``) and inherited
#: by every process of the run: pytest-xdist workers, and whatever the tests start.
RUN_VARIABLE = "FORGE_TESTING_RUN"
#: A folder of this process's own when no plugin made one (this module used outside pytest).
_PRIVATE_RUN: list[Path] = []


def run_folder() -> Path:
    """The folder this test run shares between its processes (see :data:`RUN_VARIABLE`)."""
    import os

    if shared := os.environ.get(RUN_VARIABLE):
        return Path(shared)
    if not _PRIVATE_RUN:
        import atexit
        import shutil
        import tempfile

        _PRIVATE_RUN.append(Path(tempfile.mkdtemp(prefix="forge-tests-")))
        atexit.register(shutil.rmtree, _PRIVATE_RUN[0], ignore_errors=True)
    return _PRIVATE_RUN[0]


def built_once(key: str, build: Callable[[Path], None]) -> Path:
    """A folder ``build`` filled once per test run, whichever process of the run asks first.

    pytest-xdist workers share it: the first to ask builds under a lock while the
    others wait for it. A build that skips its test (no network, no npm) is
    remembered, so every later asker skips at once with the same reason; one that
    raises is not, and the next asker tries again. Treat the folder as read-only.
    """
    import fcntl
    import hashlib
    import shutil

    root = run_folder() / "built"
    root.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(key.encode()).hexdigest()[:20]
    folder, done, skipped = root / name, root / f"{name}.done", root / f"{name}.skipped"
    with (root / f"{name}.lock").open("w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if done.exists():
            return folder
        if skipped.exists():
            pytest.skip(skipped.read_text(encoding="utf-8"))
        shutil.rmtree(folder, ignore_errors=True)  # a build that raised half-way
        folder.mkdir()
        try:
            build(folder)
        except pytest.skip.Exception as exc:
            skipped.write_text(str(exc.msg), encoding="utf-8")
            raise
        done.touch()
    return folder


def published_sources(ecosystem: str, spec: str) -> Path:
    """The unpacked sources of a published package (``npm`` or ``pypi``), fetched once per run.

    ``npm pack SPEC`` or ``pip download --no-binary :all: --no-deps SPEC``, once
    per test run whichever process asks (:func:`built_once`), into the run's
    folder, removed when the run ends. Every caller gets the same tree: treat it
    as read-only and copy it (:func:`copy_of_published`) before changing anything
    or running forge in it (forge writes ``.forge/``). Skips the test when the
    registry cannot be reached (no network) or the tool is missing. Never commit
    what this returns.
    """
    folder = built_once(f"published {ecosystem} {spec}", lambda into: _fetch(ecosystem, spec, into))
    # sdists hold one folder NAME-VERSION, npm tarballs one folder "package".
    (top,) = [path for path in (folder / "source").iterdir() if path.is_dir()]
    return top


def published_sources_of(packages: Sequence[tuple[str, str]]) -> list[Path]:
    """:func:`published_sources` of each ``(ecosystem, spec)``, fetched side by side.

    A download mostly waits (on the registry, or on pip building an sdist's
    metadata), so a few at once take little longer than the slowest alone.
    """
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=6) as pool:
        futures = [pool.submit(published_sources, *package) for package in packages]
        return [future.result() for future in futures]


def copy_of_published(ecosystem: str, spec: str, into: Path) -> Path:
    """A private, writable copy of :func:`published_sources` at ``into`` (which must not exist)."""
    import shutil

    return Path(shutil.copytree(published_sources(ecosystem, spec), into, symlinks=True))


def _fetch(ecosystem: str, spec: str, into: Path) -> None:
    import shutil
    import tarfile

    if ecosystem == "npm":
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed")
        fetch = [npm, "pack", spec, "--silent", "--pack-destination"]
    elif ecosystem == "pypi":
        fetch = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps"]
        fetch += ["--quiet", spec, "-d"]
    else:
        raise ValueError(f"unknown ecosystem {ecosystem!r}: npm or pypi")
    archives = into / "archive"
    archives.mkdir()
    try:
        with _download_slot():
            done = subprocess.run(
                [*fetch, str(archives)], capture_output=True, text=True, timeout=600, check=False
            )
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot download {spec}: {exc}")
    if done.returncode != 0:
        pytest.skip(f"cannot download {spec} (no network?): {done.stderr.strip()[-300:]}")
    (archive,) = [path for path in archives.iterdir() if path.name.endswith((".tgz", ".tar.gz"))]
    with tarfile.open(archive) as bundle:
        bundle.extractall(into / "source", filter="data")


#: Downloads at once in the whole run, xdist workers together: each pip download
#: builds an sdist's metadata in a fresh build environment, and a dozen at once on
#: two loaded cores ran past their timeout.
DOWNLOAD_SLOTS = 4


@contextlib.contextmanager
def _download_slot() -> Iterator[None]:
    """Hold one of the run's :data:`DOWNLOAD_SLOTS` (a lock file each) while downloading."""
    import fcntl
    import time

    slots = run_folder() / "download-slots"
    slots.mkdir(parents=True, exist_ok=True)
    while True:
        for number in range(DOWNLOAD_SLOTS):
            with (slots / f"{number}.lock").open("w", encoding="utf-8") as slot:
                try:
                    fcntl.flock(slot, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                yield  # the lock goes when the file closes
                return
        time.sleep(0.2)


def npm_installed(*specs: str, scripts: bool = False) -> Path:
    """A folder with ``specs`` installed from the npm registry (``node_modules/.bin`` in it).

    Once per run (:func:`built_once`); install scripts run only with ``scripts``.
    Skips the test when npm or the registry is missing. Treat it as read-only.
    """
    import shutil

    def install(into: Path) -> None:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed")
        command = [npm, "install", "--prefix", str(into), "--no-audit", "--no-fund"]
        try:
            done = subprocess.run(
                [*command, *([] if scripts else ["--ignore-scripts"]), *specs],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.skip(f"npm install {' '.join(specs)} timed out (no network?)")
        if done.returncode != 0:
            pytest.skip(f"npm install {' '.join(specs)} failed: {done.stderr.strip()[-300:]}")

    return built_once(f"npm install scripts={scripts} {' '.join(specs)}", install)


# --- forge ui in a real browser ------------------------------------------------------

#: Chromium's flags on a machine with no display and a closed network (every
#: background connection refused), as root: no sandbox, nothing fetched.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_executable() -> str | None:
    """The system's Chromium (Debian's package ``chromium``), never a downloaded one."""
    import os
    import shutil

    names = (os.environ.get("FORGE_TEST_CHROMIUM"), "chromium", "chromium-browser")
    for name in names:
        found = shutil.which(name) if name else None
        if found:
            return found
    return None


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium driven by Playwright, with a fresh profile; closed on exit.

    Skips, saying what to install, when Playwright or Chromium is missing
    (``.ci/run`` installs Chromium, so CI runs these tests).
    """
    path = chromium_executable()
    if path is None:
        pytest.skip(
            "no Chromium on PATH: the browser tests drive the system's Chromium "
            "(apt-get install chromium, or FORGE_TEST_CHROMIUM=/path/to/chrome)"
        )
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def running_ui(project: Path, *args: str, timeout: float = 60) -> Iterator[str]:
    """``forge ui --port 0`` serving ``project``; yields the page's address.

    Stopped with Ctrl-C (SIGINT) on exit, killed if it does not end within 10 s.
    """
    import os
    import select
    import signal
    import tempfile

    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        process = subprocess.Popen(
            [forge_executable(), "ui", "--port", "0", *args],
            cwd=project,
            env={**os.environ, "FORGE_CWD": str(project)},
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            preexec_fn=default_signal_dispositions,
        )
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], timeout)
            line = process.stdout.readline() if ready else ""
            if not line.startswith("forge ui: http"):
                errors.seek(0)
                pytest.fail(f"forge ui did not start: {line!r} {errors.read()}")
            yield line.split()[2]
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()


def assert_valid_sarif(log: dict[str, Any]) -> None:
    """Validate a SARIF log against the official 2.1.0 schema (draft-04, ``tests/data``)."""
    import json

    import jsonschema

    schema_file = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)


#: The plan of :func:`shop_repo`: module cart owns shop/cart.py, module pricing shop/pricing.py.
SHOP_PLAN: dict[str, object] = {
    "modules": [
        {
            "id": module_id,
            "title": module_id.title(),
            "objective": f"Deliver shop/{module_id}.py.",
            "files": [f"shop/{module_id}.py"],
            "verify": [f"{sys.executable} -B -c 'import shop.{module_id}'"],
            "doneWhen": f"shop.{module_id} imports.",
        }
        for module_id in ("cart", "pricing")
    ]
}


def shop_repo(project: Path) -> Path:
    """``project`` as the README advises: a git repository on main whose plan
    ``.forge/plans/shop.json`` is committed (``.forge/*`` ignored, ``!.forge/plans/`` kept)."""
    import json

    git(project, "init", "-q")
    commit(
        project,
        {
            ".gitignore": ".forge/*\n!.forge/plans/\n",
            ".forge/plans/shop.json": json.dumps(SHOP_PLAN, indent=2),
            "shop/__init__.py": "",
            "shop/cart.py": "from shop.pricing import price\n\n\n"
            "def total(items):\n    return sum(price(item) for item in items)\n",
            "shop/pricing.py": "def price(item):\n    return item\n",
        },
        "base",
    )
    return project


def shop_worktree(repo: Path, module_id: str) -> Path:
    """Module ``module_id``'s worktree ``../wt-<id>`` of :func:`shop_repo`, on ``forge/<id>``."""
    folder = repo.parent / f"wt-{module_id}"
    git(repo, "worktree", "add", "-q", "-b", f"forge/{module_id}", str(folder), "main")
    return folder
