"""forge ui after the issue-41 trial: the run with plan results first, plan-less modules, the
failing modules listed, filter chips that filter, titles that wrap (real server, real browser)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from forge_testing import RunForge, running_ui

pytest.importorskip("playwright.sync_api")

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PLAN = ".forge/plans/quickstart.json"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], errors


def states(page: Page, selector: str = "#graph a.node") -> dict[str, str]:
    return dict(
        page.eval_on_selector_all(selector, "ns => ns.map(n => [n.dataset.id, n.dataset.state])")
    )


def test_the_page_opens_on_the_run_with_the_latest_plan_results(
    example: Path, page: Page, run_forge: RunForge
) -> None:
    """Ad-hoc validations after the plan run (no run id, no plan module) are newer; the page
    still opens on run demo, and says why in the header."""
    for file in ("greeter.py", "farewell_missing.py"):
        run_forge("validate", "--files", file)
    with running_ui(example) as url:
        page.goto(url)
        page.wait_for_selector('#graph[data-rendered="3"]')
        assert states(page) == {"greeter": "passed", "farewell": "failed", "cli": "skipped"}
        picker = page.locator("#run-picker option").first.inner_text()
        assert picker == "latest plan results (demo)", picker


def test_a_run_with_no_plan_results_still_opens_on_the_newest(
    project: Path, page: Page, run_forge: RunForge
) -> None:
    """The honest twin: no plan anywhere, the newest run is shown, and called so."""
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    run_forge("validate", "--files", "a.py", "--run-id", "older")
    run_forge("validate", "--files", "a.py", "--module-id", "solo", "--run-id", "newer")
    with running_ui(project) as url:
        page.goto(url)
        page.wait_for_selector('#graph a.node[data-id="solo"]')
        assert page.locator("#run-picker option").first.inner_text() == "newest (newer)"


def test_a_module_with_attempts_and_no_plan_entry_sits_in_the_last_column(
    example: Path, page: Page, run_forge: RunForge
) -> None:
    run_forge("validate", "--module-id", "extra", "--command", "false", "--run-id", "demo")
    with running_ui(example) as url:
        page.goto(f"{url}#/graph?run=demo")
        page.wait_for_selector('#graph a.node[data-id="extra"]')
        left = page.eval_on_selector_all(
            "#graph a.node", "ns => Object.fromEntries(ns.map(n => [n.dataset.id, n.offsetLeft]))"
        )
        assert left["extra"] > max(left["greeter"], left["farewell"], left["cli"])
        assert states(page)["extra"] == "failed"


def test_failing_modules_are_listed_and_the_chips_filter(example: Path, page: Page) -> None:
    with running_ui(example) as url:
        page.goto(url)
        page.wait_for_selector("#failing li")
        items = page.locator("#failing li")
        assert items.count() == 1
        text = items.first.inner_text()
        # farewell.py is missing: its attempt failed file_check and its verify command.
        assert text.startswith("farewell Farewell — "), text
        assert "command:" in text or "file_check:" in text, text
        assert items.first.locator("a").get_attribute("href").startswith("#/module/farewell")
        page.click('.chips .chip[data-state="failed"]')
        visible = page.eval_on_selector_all(
            "#graph a.node", "ns => ns.filter(n => n.offsetParent !== null).map(n => n.dataset.id)"
        )
        assert visible == ["farewell"]
        assert (
            page.locator('.chips .chip[data-state="failed"]').get_attribute("aria-pressed")
            == "true"
        )
        page.click('.chips .chip[data-state="failed"]')  # again: every module
        visible = page.eval_on_selector_all(
            "#graph a.node", "ns => ns.filter(n => n.offsetParent !== null).map(n => n.dataset.id)"
        )
        assert sorted(visible) == ["cli", "farewell", "greeter"]


def test_a_long_title_wraps_rather_than_being_cut(example: Path, page: Page) -> None:
    plan_file = example / PLAN
    plan = json.loads(plan_file.read_text(encoding="utf-8"))
    plan["modules"][0]["title"] = "Greeter that says hello in every language the team supports"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    with running_ui(example) as url:
        page.goto(url)
        selector = '#graph a.node[data-id="greeter"] .node-title'
        # The graph is laid out after its data arrives: measure once the title has a height.
        page.wait_for_function(
            "s => { const t = document.querySelector(s); return t && t.clientHeight > 0; }",
            arg=selector,
        )
        title = page.locator(selector)
        box = title.evaluate(
            "t => ({scroll: t.scrollWidth, client: t.clientWidth, height: t.clientHeight,"
            " line: parseFloat(getComputedStyle(t).lineHeight) || 16,"
            " node: t.parentElement.scrollHeight - t.parentElement.clientHeight})"
        )
        assert box["scroll"] <= box["client"], box  # nothing cut on the right
        assert box["height"] > box["line"] * 1.5, box  # on more than one line
        assert box["node"] <= 0, box  # nor cut at the bottom of its box


def api(url: str, path: str) -> dict[str, object]:
    from urllib.request import urlopen

    with urlopen(f"{url.rstrip('/')}{path}", timeout=30) as answer:
        loaded: dict[str, object] = json.loads(answer.read())
    return loaded


def test_the_server_picks_the_run_with_plan_results_and_lists_failing_modules(
    example: Path, run_forge: RunForge
) -> None:
    """The same through the server's API, without a browser."""
    run_forge("validate", "--files", "greeter.py")  # newer, no run id, no plan module
    run_forge("validate", "--module-id", "extra", "--command", "false", "--run-id", "demo")
    with running_ui(example) as url:
        runs = api(url, "/api/runs")
        assert (runs["newest"], runs["chosenBecause"]) == ("demo", "latest plan results")
        graph = api(url, "/api/graph")
        assert graph["run"] == "demo"
        nodes = {node["id"]: node for node in graph["nodes"]}  # type: ignore[union-attr,index]
        assert nodes["extra"]["layer"] is None and nodes["extra"]["state"] == "failed"
        failing = {item["id"]: item for item in graph["failing"]}  # type: ignore[union-attr,index]
        assert set(failing) == {"farewell", "extra"}
        assert failing["farewell"]["title"] == "Farewell"
        assert failing["farewell"]["reason"].split(":")[0] in {"command", "file_check"}
        assert failing["extra"]["reason"] == "command:false"
