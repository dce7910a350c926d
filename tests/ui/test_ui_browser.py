"""forge ui in a real browser (the system's headless Chromium, driven by Playwright).

One browser for the module; each test serves its own project with ``forge ui``.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import RunForge, running_ui

expect = pytest.importorskip("playwright.sync_api").expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[2]
SCREENSHOT = REPO / "docs" / "images" / "forge-ui.png"
PLAN = ".forge/plans/quickstart.json"
#: Milliseconds a live change may take to reach the page (a look every 0.5 s).
LIVE_MS = 10_000


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], errors


def node_states(page: Page) -> dict[str, str]:
    found = page.eval_on_selector_all(
        "#graph a.node", "nodes => nodes.map(n => [n.dataset.id, n.dataset.state])"
    )
    return dict(found)


def open_graph(page: Page, url: str, count: int) -> None:
    page.goto(url)
    page.wait_for_selector(f'#graph[data-rendered="{count}"]')


def test_the_graph_shows_every_module_of_the_example_in_its_state(
    example: Path, page: Page
) -> None:
    with running_ui(example) as url:
        open_graph(page, url, 3)
        assert node_states(page) == {"greeter": "passed", "farewell": "failed", "cli": "skipped"}
        # Layers left to right, the critical path (all three here) marked.
        lefts = page.eval_on_selector_all("#graph a.node", "ns => ns.map(n => n.offsetLeft)")
        assert lefts == sorted(lefts) and len(set(lefts)) == 3
        assert page.locator("#graph a.node.critical").count() == 3
        assert page.locator("#graph path.edge.critical").get_attribute("d").count("M") == 2
        assert "3 layers" in page.locator(".summary").inner_text()
        page.wait_for_selector("#live.on")
        # Each module links to its page.
        page.click('#graph a.node[data-id="greeter"]')
        page.wait_for_selector("#module-title")
        assert page.locator("#module-title").inner_text() == "Greeter"
        assert "python3 -m unittest -q test_greeter" in page.locator("#commands").inner_text()
        assert "3 passed, 0 failed" in page.locator("#commands").inner_text()


def test_a_validation_while_the_page_is_open_turns_a_module_from_failed_to_passed(
    example: Path, page: Page, run_forge: RunForge
) -> None:
    (example / "farewell.py").write_text(
        "def farewell(name: str) -> str:\n    return f'Goodbye, {name}!'\n\ndef broken(:\n",
        encoding="utf-8",
    )
    done = run_forge("validate", "--plan", PLAN, "--module", "farewell", "--run-id", "demo")
    assert done.returncode == 1, done.stdout
    with running_ui(example) as url:
        page.goto(f"{url}#/module/farewell")
        page.wait_for_selector("#failures")
        failures = page.locator("#failures").inner_text()
        # The syntax error where forge reports it: path:line:column and the message.
        assert "farewell.py:4:12" in failures, failures
        where = page.locator("#failures .location").first.inner_text()
        assert where.startswith("farewell.py:4:12 ") and len(where) > len("farewell.py:4:12 ")
        assert page.locator("#attempts tbody tr").count() == 2
        assert page.locator("#score-chart circle").count() == 2
        page.evaluate("window.stillTheSamePage = true")
        page.click("text=← graph")
        page.wait_for_selector('#graph a.node[data-id="farewell"]')
        assert node_states(page)["farewell"] == "failed"  # other failures than before: RETRY

        (example / "farewell.py").write_text(
            "def farewell(name: str) -> str:\n    return f'Goodbye, {name}!'\n", encoding="utf-8"
        )
        done = run_forge("validate", "--plan", PLAN, "--module", "farewell", "--run-id", "demo")
        assert done.returncode == 0, done.stdout
        page.wait_for_selector(
            '#graph a.node[data-id="farewell"][data-state="passed"]', timeout=LIVE_MS
        )
        assert page.evaluate("window.stillTheSamePage") is True
        page.click('#graph a.node[data-id="farewell"]')
        page.wait_for_selector("#failures-none")
        assert page.locator("#attempts tbody tr").first.inner_text().split()[0] == "3"


def test_a_title_or_objective_written_as_html_stays_text(
    project: Path, page: Page, run_forge: RunForge
) -> None:
    title = '<img src=x onerror="window.pwned=1">'
    objective = "</script><script>window.pwned=2</script>"
    plan = {
        "modules": [
            {
                "id": "xss",
                "title": title,
                "objective": objective,
                "files": ["<b>bold</b>.py"],
                "verify": ["echo '<i>x</i>'"],
                "doneWhen": "<u>done</u>",
            }
        ],
        "objective": objective,
    }
    (project / ".forge" / "plans").mkdir(parents=True)
    (project / ".forge" / "plans" / "xss.json").write_text(json.dumps(plan), encoding="utf-8")
    run_forge("validate", "--plan", ".forge/plans/xss.json", "--all", "--run-id", "r1")
    with running_ui(project) as url:
        open_graph(page, url, 1)
        assert page.locator("#graph .node-title").inner_text() == title
        assert objective in page.locator(".summary").inner_text()
        page.goto(f"{url}#/module/xss")
        page.wait_for_selector("#module-title")
        assert page.locator("#module-title").inner_text() == title
        assert "<b>bold</b>.py" in page.locator("#failures").inner_text()
        page.goto(f"{url}#/log")
        page.wait_for_selector("#log tbody tr")
        assert page.evaluate("window.pwned") is None
        for tag in ("img", "b", "i", "u"):
            assert page.locator(f"main {tag}").count() == 0, tag
        assert page.locator("script").count() == 1  # the page's own module


def test_the_log_follows_new_events_filtered_by_module(
    example: Path, page: Page, run_forge: RunForge
) -> None:
    with running_ui(example) as url:
        page.goto(f"{url}#/log?module=farewell")
        page.wait_for_selector("#log tbody tr")
        assert page.locator("#log tbody tr").count() == 1
        assert page.locator("#filter-module").input_value() == "farewell"
        run_forge("validate", "--plan", PLAN, "--module", "farewell", "--run-id", "demo")
        rows = page.locator("#log tbody tr")
        expect(rows).to_have_count(2, timeout=LIVE_MS)
        page.select_option("#filter-module", "")
        expect(rows).to_have_count(5)  # each plan run checks the plan first: 3 + 2
        page.select_option("#filter-severity", "error")
        expect(rows).to_have_count(2)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_screenshot_of_the_example_for_the_readme(example: Path, page: Page) -> None:
    """The README's picture, made from the bundled example.

    ``FORGE_UPDATE_SCREENSHOT=1`` writes it to docs/images/forge-ui.png; otherwise the
    one taken here is checked, and so is the committed one.
    """
    page.set_viewport_size({"width": 1000, "height": 300})
    with running_ui(example) as url:
        open_graph(page, url, 3)
        page.wait_for_selector("#live.on")
        taken = page.screenshot()
    assert png_size(taken) == (1000, 300)
    assert len(taken) > 15_000, "a page this full does not compress to almost nothing"
    if os.environ.get("FORGE_UPDATE_SCREENSHOT") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        SCREENSHOT.write_bytes(taken)
    committed = SCREENSHOT.read_bytes()
    assert png_size(committed) == (1000, 300)
    assert "docs/images/forge-ui.png" in (REPO / "README.md").read_text(encoding="utf-8")


def tree(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file and folder under ``root``: mode, mtime and bytes (a link's target)."""
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            info = path.lstat()
            data = b""
            if path.is_symlink():
                data = str(path.readlink()).encode()
            elif path.is_file():
                data = path.read_bytes()
            found[str(path.relative_to(root))] = (info.st_mode, info.st_mtime_ns, data)
    return found


def test_browsing_every_view_leaves_forge_as_it_was(
    example: Path, page: Page, run_forge: RunForge
) -> None:
    forge = example / ".forge"
    assert run_forge("validate", "--plan", PLAN, "--all").returncode == 1  # a run-less run too
    (forge / "state" / "demo.json").write_text(
        json.dumps({"runId": "demo", "currentPhase": "validation", "planPath": PLAN}),
        encoding="utf-8",
    )
    # Bigger than what makes a memory reader write its index file beside the JSONL.
    lines = [
        json.dumps(
            {
                "id": f"mem_{n}",
                "pattern": f"use pytest -q for suite {n}",
                "category": "test_command",
            }
        )
        for n in range(1_500)
    ]
    (forge / "memory" / "project.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # What a writer would move: a run-less history at its old place, a corrupt history.
    (forge / "iterations" / "legacy.json").write_text('{"moduleId": "legacy"}', encoding="utf-8")
    (forge / "iterations" / "demo" / "cli.json").write_text("{not json", encoding="utf-8")
    home = Path(os.environ["FORGE_HOME"])
    before, home_before = tree(forge), tree(home)
    with running_ui(example) as url:
        open_graph(page, url, 3)  # demo: its cli.json, if corrupt, is the latest plan result
        for route, ready in [
            ("#/module/farewell", "#failures"),
            ("#/module/cli", "#module-title"),
            ("#/module/legacy?run=", "#module-title"),
            ("#/log?module=farewell&severity=error", "#log tbody tr"),
            ("#/sessions?session=demo", "#session-state"),
            ("#/memory", "#memory li"),
            ("#/memory?q=suite%2042&scope=project&category=test_command", "text=matches for"),
            # The run-less run: its plan modules, and legacy (attempts, no plan entry).
            ("#/graph?run=", '#graph[data-rendered="4"]'),
        ]:
            page.goto(f"{url}{route}")
            page.wait_for_selector(ready)
        page.select_option("#run-picker", "")
        page.wait_for_selector('#graph[data-rendered="3"]')
        assert "run" not in page.url
    assert tree(forge) == before
    assert tree(home) == home_before


def test_the_page_keeps_working_while_state_is_corrupted_or_deleted(
    example: Path, page: Page, run_forge: RunForge
) -> None:
    forge = example / ".forge"
    with running_ui(example) as url:
        open_graph(page, url, 3)
        greeter = page.locator('#graph a.node[data-id="greeter"]')
        expect(greeter).to_have_attribute("data-state", "passed")
        (forge / "iterations" / "demo" / "greeter.json").write_bytes(b"\x00garbage")
        (forge / "status.json").write_text("[", encoding="utf-8")
        expect(greeter).to_have_attribute("data-state", "pending", timeout=LIVE_MS)
        # Read, never moved aside or repaired: that is a writer's job.
        assert (forge / "iterations" / "demo" / "greeter.json").read_bytes() == b"\x00garbage"
        shutil.rmtree(forge)
        page.wait_for_selector("#hint", timeout=LIVE_MS)
        assert "No plan yet" in page.locator("#hint").inner_text()
        assert page.locator("#graph a.node").count() == 0
        (forge / "plans").mkdir(parents=True)
        shutil.copy(REPO / "examples" / "plans" / "valid" / "quickstart.json", example / PLAN)
        assert run_forge("validate", "--plan", PLAN, "--all", "--run-id", "demo").returncode == 1
        expect(greeter).to_have_attribute("data-state", "passed", timeout=LIVE_MS)
        assert page.locator("#hint").count() == 0
