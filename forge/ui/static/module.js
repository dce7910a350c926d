// A module's page: its plan entry, its attempts (time, score, recommendation,
// reason) with the score over attempts as a small chart, the failing checks of
// its latest validation with path:line:column, and its verify commands.

import { clock, get, h, notices, s, score, section, stateBadge, time } from "./dom.js";
import { link, runQuery } from "./route.js";

export class ModuleView {
  constructor(main, route) {
    this.topics = ["graph", "log"];
    this.id = route.arg;
    this.body = h("div", { class: "module-page", id: "module-page" });
    main.append(this.body);
  }

  async refresh() {
    if (!this.id) {
      this.body.replaceChildren(notices(["No module named in the address: pick one in the graph."]));
      return;
    }
    let view;
    try {
      view = await get(`/api/module${runQuery({ id: this.id })}`);
    } catch (error) {
      this.body.replaceChildren(
        h("p", null, h("a", { href: link("graph") }, "← graph")),
        notices([`Cannot load module ${this.id}: ${error.message}`]),
      );
      return;
    }
    this.body.replaceChildren(...render(view));
    this.body.dataset.state = view.state;
  }
}

function render(view) {
  const parts = [];
  parts.push(h("p", { class: "crumbs" }, h("a", { href: link("graph") }, "← graph")));
  parts.push(
    h(
      "div",
      { class: "module-head" },
      h("h1", { id: "module-title" }, view.title),
      h("code", { class: "module-id" }, view.id),
      stateBadge(view.state),
      view.status && view.status !== view.state ? h("span", { class: "muted" }, `last status: ${view.status}`) : null,
    ),
  );
  parts.push(notices(view.notices));
  if (!view.inPlan) parts.push(h("p", { class: "hint" }, "This module is not in the run's plan: only its attempts are known."));
  parts.push(h("div", { class: "columns" }, planEntry(view), attemptsChart(view.attempts)));
  parts.push(failures(view));
  parts.push(commands(view.commands));
  parts.push(attempts(view.attempts));
  parts.push(events(view));
  return parts.filter(Boolean);
}

function planEntry(view) {
  const rows = [];
  if (view.objective) rows.push(["objective", view.objective]);
  if (view.files.length) rows.push(["files", h("ul", { class: "plain" }, view.files.map((file) => h("li", null, h("code", null, file))))]);
  if (view.doneWhen.length) rows.push(["done when", h("ul", { class: "plain" }, view.doneWhen.map((text) => h("li", null, text)))]);
  const links = (ids) => (ids.length ? ids.map((id) => [h("a", { href: link("module", id) }, id), " "]) : "-");
  rows.push(["depends on", links(view.dependsOn)]);
  rows.push(["needed by", links(view.dependents)]);
  return section(
    "Plan",
    h(
      "dl",
      { class: "facts" },
      rows.map(([term, value]) => [h("dt", null, term), h("dd", null, value)]),
    ),
  );
}

function attemptsChart(attempts) {
  const scored = attempts.filter((attempt) => typeof attempt.score === "number");
  if (!scored.length) return section("Score", h("p", { class: "muted" }, "No scored attempt yet."));
  const width = 320;
  const height = 130;
  const left = 34;
  const right = 12;
  const top = 10;
  const bottom = 24;
  const last = attempts[attempts.length - 1].attempt;
  const first = attempts[0].attempt;
  const inner = width - left - right;
  const px = (n) => left + (last === first ? inner / 2 : ((n - first) / (last - first)) * inner);
  const py = (value) => top + (1 - value) * (height - top - bottom);
  const grid = [0, 0.5, 1].map((value) => [
    s("line", { class: "grid", x1: left, x2: width - right, y1: py(value), y2: py(value) }),
    s("text", { class: "axis", x: left - 6, y: py(value) + 4, "text-anchor": "end" }, value.toFixed(1)),
  ]);
  const points = scored.map((attempt) => `${px(attempt.attempt)},${py(attempt.score)}`).join(" ");
  const dots = scored.map((attempt) =>
    s(
      "circle",
      { class: attempt.passed ? "dot passed" : "dot failed", cx: px(attempt.attempt), cy: py(attempt.score), r: 4 },
      s("title", null, `attempt ${attempt.attempt}: score ${score(attempt.score)}`),
    ),
  );
  const labels = scored.map((attempt) =>
    s("text", { class: "axis", x: px(attempt.attempt), y: height - 6, "text-anchor": "middle" }, String(attempt.attempt)),
  );
  return section(
    "Score over attempts",
    s(
      "svg",
      { class: "chart", id: "score-chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "score over attempts" },
      grid,
      s("polyline", { class: "line", points }),
      dots,
      labels,
    ),
  );
}

function failures(view) {
  const checks = view.failures;
  if (!checks.length) {
    const text = view.failuresAt
      ? `The latest validation (${time(view.failuresAt)}) found no failing check.`
      : "No recorded validation of this module yet.";
    return section("Latest failures", h("p", { class: "muted", id: "failures-none" }, text));
  }
  return section(
    "Latest failures",
    h("p", { class: "muted" }, `validated ${time(view.failuresAt)}`),
    h(
      "ul",
      { class: "failures", id: "failures" },
      checks.map((check) =>
        h(
          "li",
          null,
          h("div", { class: "failure-head" }, h("span", { class: "check-type" }, check.type), " ", h("code", null, check.target)),
          check.message ? h("div", { class: "failure-message" }, check.message) : null,
          check.locations.length
            ? h(
                "ul",
                { class: "locations" },
                check.locations.map((place) =>
                  h("li", { class: "location" }, h("code", { class: "where" }, `${place.path ?? check.target}:${place.line}:${place.column}`), " ", place.message),
                ),
              )
            : null,
          check.output ? h("pre", { class: "output" }, check.output) : null,
        ),
      ),
    ),
  );
}

function commands(list) {
  if (!list.length) return section("Verify commands", h("p", { class: "muted" }, "No verify command."));
  const rows = list.map((command) => {
    let outcome = "not run yet";
    if (command.ran) outcome = command.timedOut ? "timed out" : command.passed ? "passed" : "failed";
    const tests = command.tests
      ? `${command.tests.passed} passed, ${command.tests.failed} failed, ${command.tests.skipped} skipped${command.tests.errors ? `, ${command.tests.errors} errors` : ""} (${command.tests.runner})`
      : "-";
    return h(
      "tr",
      { class: command.ran ? (command.passed ? "ok" : "bad") : "muted" },
      h("td", null, h("code", null, command.command)),
      h("td", null, outcome),
      h("td", { class: "num" }, command.exitCode ?? "-"),
      h("td", null, tests),
      h("td", { class: "num" }, command.durationMs !== null ? `${command.durationMs} ms` : "-"),
    );
  });
  return section(
    "Verify commands",
    h(
      "table",
      { class: "table", id: "commands" },
      h("thead", null, h("tr", null, ["command", "result", "exit", "tests", "took"].map((name) => h("th", null, name)))),
      h("tbody", null, rows),
    ),
  );
}

function attempts(list) {
  if (!list.length) return section("Attempts", h("p", { class: "muted" }, "No attempt yet."));
  const rows = [...list].reverse().map((attempt) =>
    h(
      "tr",
      { class: attempt.passed ? "ok" : attempt.passed === false ? "bad" : "" },
      h("td", { class: "num" }, attempt.attempt),
      h("td", null, time(attempt.timestamp)),
      h("td", null, attempt.source),
      h("td", null, attempt.status ?? "-"),
      h("td", { class: "num" }, score(attempt.score)),
      h("td", null, attempt.recommendation ? h("span", { class: `rec rec-${attempt.recommendation.toLowerCase()}` }, attempt.recommendation) : "-"),
      h("td", null, attempt.reason ?? "", attempt.failures.length ? h("div", { class: "muted small" }, attempt.failures.join(", ")) : null),
    ),
  );
  return section(
    "Attempts",
    h(
      "table",
      { class: "table", id: "attempts" },
      h("thead", null, h("tr", null, ["#", "time", "by", "status", "score", "next", "reason"].map((name) => h("th", null, name)))),
      h("tbody", null, rows),
    ),
  );
}

function events(view) {
  if (!view.events.length) return null;
  return section(
    "Latest events",
    h("p", null, h("a", { href: link("log", null, { module: view.id }) }, "the whole log of this module →")),
    h(
      "ul",
      { class: "events" },
      view.events.map((event) =>
        h(
          "li",
          { class: `sev-${event.severity}` },
          h("span", { class: "when" }, clock(event.timestamp)),
          " ",
          h("span", { class: "phase" }, event.phase),
          " ",
          h("strong", null, event.event),
        ),
      ),
    ),
  );
}
