"""forge ui over HTTP: the JSON views and their models, bad queries, hosts, headers, the stream."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from forge_testing import RunForge, running_ui

from forge.ui.models import ENDPOINT_MODELS, GraphView, Problem


def request(
    url: str, path: str, *, method: str = "GET", host: str | None = None
) -> tuple[int, dict[str, str], bytes]:
    """``(status, headers, body)`` of one request to the server at ``url``."""
    where = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        headers = {"Host": host} if host is not None else {}
        connection.request(method, path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_every_view_answers_with_its_model(example: Path) -> None:
    with running_ui(example) as url:
        queries = {
            "/api/runs": "",
            "/api/graph": "?run=demo",
            "/api/module": "?id=farewell",
            "/api/log": "?module=farewell&phase=validation&severity=error&limit=5",
            "/api/sessions": "",
            "/api/memory": "?q=pytest&scope=project",
        }
        assert set(queries) == set(ENDPOINT_MODELS)
        for path, model in ENDPOINT_MODELS.items():
            status, headers, body = request(url, path + queries[path])
            assert status == 200, (path, body)
            assert headers["content-type"] == "application/json"
            model.model_validate_json(body)
        status, _, body = request(url, "/api/schema")
        assert status == 200
        schemas = json.loads(body)
        assert set(schemas) == set(ENDPOINT_MODELS)
        assert "criticalPath" in schemas["/api/graph"]["properties"]
        graph = GraphView.model_validate_json(request(url, "/api/graph")[2])
        assert [n.id for n in graph.nodes] == ["greeter", "farewell", "cli"]
        assert graph.edges == [("greeter", "farewell"), ("greeter", "cli"), ("farewell", "cli")]


BAD_QUERIES = [
    ("/api/graph?run=../etc", "run"),
    ("/api/graph?run=a%2Fb", "run"),
    ("/api/module", "id="),
    ("/api/module?id=..", "id"),
    ("/api/log?phase=lunch", "phase must be one of"),
    ("/api/log?severity=fatal", "severity must be one of"),
    ("/api/log?limit=ten", "limit must be a whole number"),
    ("/api/log?limit=0", "limit must be 1 to"),
    ("/api/log?module=a%20b", "module"),
    ("/api/memory?scope=team", "scope must be one of"),
    ("/api/memory?category=gossip", "category must be one of"),
    ("/api/memory?q=" + "x" * 2_001, "at most 2000"),
    ("/api/sessions?session=.", "session"),
    ("/api/events?run=%00", "run"),
]


@pytest.fixture(scope="module")
def empty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """One server for the module's tests over a project with nothing in it yet."""
    root = tmp_path_factory.mktemp("empty")
    with running_ui(root) as url:
        yield root, url


def test_a_bad_query_is_a_400_with_one_line(empty: tuple[Path, str]) -> None:
    _, url = empty
    for path, says in BAD_QUERIES:
        status, _, body = request(url, path)
        assert status == 400, (path, body)
        error = Problem.model_validate_json(body).error
        assert says in error and "\n" not in error, (path, error)


def test_only_the_pages_own_files_are_served_and_only_by_get(empty: tuple[Path, str]) -> None:
    _, url = empty
    status, headers, body = request(url, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'src="/static/app.js"' in body
    assert request(url, "/static/app.js")[1]["content-type"].startswith("text/javascript")
    for path in ("/static/nope.js", "/static/..%2F__init__.py", "/static/../app.py", "/x"):
        assert request(url, path)[0] == 404, path
    assert request(url, "/api/graph", method="POST")[0] == 405


def test_answers_carry_a_policy_that_allows_no_script_but_the_pages_own(
    empty: tuple[Path, str],
) -> None:
    _, url = empty
    for path in ("/", "/api/graph", "/static/app.js", "/api/module"):
        headers = request(url, path)[1]
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe" not in policy
        assert headers["x-content-type-options"] == "nosniff"


def test_a_request_for_another_host_name_is_refused(empty: tuple[Path, str]) -> None:
    """A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) reads nothing."""
    _, url = empty
    port = urllib.parse.urlsplit(url).port
    assert request(url, "/api/graph", host=f"attacker.example:{port}")[0] == 421
    assert request(url, "/", host="attacker.example")[0] == 421
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost"):
        assert request(url, "/api/runs", host=host)[0] == 200, host


def read_event(response: http.client.HTTPResponse, deadline: float) -> tuple[str, str]:
    """The next server-sent event's name and data (comments and retry lines skipped)."""
    name, data = "message", ""
    while time.monotonic() < deadline:
        line = response.readline().decode("utf-8")
        assert line, "the stream ended"
        line = line.rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
        elif line == "" and data:
            return name, data
    raise AssertionError("no event in time")


def test_the_stream_says_hello_then_what_changed(example: Path, run_forge: RunForge) -> None:
    with running_ui(example) as url:
        where = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=20)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        assert response.status == 200
        assert response.getheader("content-type", "").startswith("text/event-stream")
        deadline = time.monotonic() + 20
        assert read_event(response, deadline) == ("hello", '{"run": "demo"}')
        done = run_forge(
            "validate",
            "--plan",
            ".forge/plans/quickstart.json",
            "--module",
            "greeter",
            "--run-id",
            "demo",
        )
        assert done.returncode == 0
        topics: set[str] = set()
        while not {"graph", "log"} <= topics:
            name, data = read_event(response, deadline)
            assert name == "change"
            topics |= set(json.loads(data)["topics"])
        run_forge("memory", "save", "pytest -q runs the suite", "--category", "test_command")
        while "memory" not in topics:
            topics |= set(json.loads(read_event(response, deadline)[1])["topics"])
        connection.close()


def test_a_project_with_nothing_yet_says_what_to_do(empty: tuple[Path, str]) -> None:
    root, url = empty
    graph = GraphView.model_validate_json(request(url, "/api/graph")[2])
    assert graph.nodes == [] and graph.runs == [] and graph.run == ""
    assert graph.hint is not None and "No plan yet" in graph.hint
    assert "forge plan schema" in graph.hint
    assert not (root / ".forge").exists()


def test_the_app_never_imports_mcp(project: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from forge.ui.app import create_app; "
        f"create_app(Path({str(project)!r})); "
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_a_memory_file_over_the_cap_is_refused_unread_whether_searched_or_listed(
    project: Path,
) -> None:
    from forge.store.jsonl import MAX_JSONL_BYTES
    from forge.ui.models import MemoryView

    memory = project / ".forge" / "memory" / "project.jsonl"
    memory.parent.mkdir(parents=True)
    line = b'{"id": "m1", "timestamp": "2026-01-01T00:00:00Z", "pattern": "pytest -q", '
    line += b'"category": "test_command", "confidence": 0.9, "tags": []}\n'
    with memory.open("wb") as handle:
        handle.write(line)
        handle.truncate(MAX_JSONL_BYTES + 1)  # sparse: no disk, but every byte read if read
    with running_ui(project) as url:
        for query in ("?q=pytest&scope=project", "?scope=project"):
            status, _, body = request(url, "/api/memory" + query)
            assert status == 200, body
            view = MemoryView.model_validate_json(body)
            assert view.items == [], query
            [notice] = view.notices
            assert f"{memory} is {MAX_JSONL_BYTES + 1:,} bytes, over forge's limit" in notice
    assert sorted(path.name for path in memory.parent.iterdir()) == ["project.jsonl"]
