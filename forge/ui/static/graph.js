// The plan as its dependency graph: a column per execution layer, modules as
// boxes coloured by state, an edge from each dependency to its dependent, the
// critical path drawn heavier. Nodes are positioned elements over one SVG of
// two paths (every edge in one, the critical ones in the other), so a
// 1,000-module plan is a few thousand elements, drawn at once.

import { link, runQuery } from "./route.js";
import { clear, get, h, notices, s, score } from "./dom.js";

const COLUMN = 280;
const NODE_W = 224;
const NODE_H = 72;
const ROW = 84;
const PAD = 16;
const HEAD = 34;
const STATES = ["pending", "running", "passed", "failed", "escalated", "skipped"];

export class GraphView {
  constructor(main, route) {
    this.topics = ["graph"];
    this.summary = h("div", { class: "summary" });
    this.messages = h("div");
    this.canvas = h("div", { class: "graph", id: "graph", "aria-label": "dependency graph" });
    this.failing = h("section", { class: "failing", "aria-label": "failing modules" });
    // The state the chips filter on (null: every module); kept across live refreshes.
    this.filter = null;
    main.append(this.summary, this.messages, this.canvas, this.failing);
  }

  /** Show the modules of one state alone (a chip clicked), or all of them again. */
  toggle(state) {
    this.filter = this.filter === state ? null : state;
    this.applyFilter();
  }

  applyFilter() {
    for (const chip of this.summary.querySelectorAll(".chip[data-state]")) {
      chip.setAttribute("aria-pressed", String(chip.dataset.state === this.filter));
    }
    for (const node of this.canvas.querySelectorAll("a.node")) {
      node.hidden = this.filter !== null && node.dataset.state !== this.filter;
    }
  }

  async refresh() {
    let view;
    try {
      view = await get(`/api/graph${runQuery()}`);
    } catch (error) {
      this.messages.replaceChildren(notices([`Cannot load the graph: ${error.message}`]));
      return;
    }
    this.render(view);
  }

  render(view) {
    const started = performance.now();
    clear(this.summary).append(...summary(view, (state) => this.toggle(state)));
    const hint = view.hint ? h("p", { class: "hint", id: "hint" }, view.hint) : null;
    this.messages.replaceChildren(...[hint, notices(view.notices)].filter(Boolean));
    draw(this.canvas, view);
    this.failing.replaceChildren(...failingList(view.failing));
    if (this.filter !== null && !view.counts[this.filter]) this.filter = null;
    this.applyFilter();
    this.canvas.dataset.rendered = String(view.nodes.length);
    // Marked once painted, for the browser tests and the benchmark.
    requestAnimationFrame(() => {
      window.forgeGraphDrawn = { nodes: view.nodes.length, at: performance.now(), took: performance.now() - started };
      document.documentElement.dataset.graphNodes = String(view.nodes.length);
    });
  }
}

function failingList(failing) {
  if (!failing.length) return [];
  return [
    h("h3", null, `Failing modules (${failing.length})`),
    h(
      "ul",
      { id: "failing" },
      failing.map((item) =>
        h(
          "li",
          { class: `state-${item.state}`, "data-id": item.id },
          h("a", { href: link("module", item.id) }, item.id),
          h("span", { class: "failing-title" }, ` ${item.title}`),
          item.reason ? h("span", { class: "failing-reason" }, ` — ${item.reason}`) : null,
        ),
      ),
    ),
  ];
}

function summary(view, toggle) {
  const parts = [];
  parts.push(
    h(
      "div",
      { class: "plan-line" },
      h("strong", null, view.planPath || "no plan"),
      view.objective ? h("span", { class: "objective" }, ` — ${view.objective}`) : null,
    ),
  );
  const chips = STATES.filter((state) => view.counts[state]).map((state) =>
    h(
      "button",
      {
        type: "button",
        class: `chip state-${state}`,
        "data-state": state,
        "aria-pressed": "false",
        title: `show the ${state} modules alone (again: all)`,
        onclick: () => toggle(state),
      },
      `${view.counts[state]} ${state}`,
    ),
  );
  const total = view.nodes.length;
  parts.push(
    h(
      "div",
      { class: "chips" },
      h("span", { class: "chip total" }, `${total} module${total === 1 ? "" : "s"}`),
      chips,
      view.layers ? h("span", { class: "chip plain" }, `${view.layers} layer${view.layers === 1 ? "" : "s"}`) : null,
      view.criticalPath.length
        ? h("span", { class: "chip critical-chip", title: view.criticalPath.join(" → ") }, `critical path: ${view.criticalPath.length}`)
        : null,
    ),
  );
  return parts;
}

function x(column) {
  return PAD + column * COLUMN;
}

function y(row) {
  return HEAD + row * ROW;
}

function draw(canvas, view) {
  const nodes = view.nodes;
  if (!nodes.length) {
    canvas.replaceChildren();
    canvas.style.width = "";
    canvas.style.height = "";
    return;
  }
  let columns = 0;
  let rows = 0;
  const at = new Map();
  for (const node of nodes) {
    at.set(node.id, node);
    columns = Math.max(columns, node.column + 1);
    rows = Math.max(rows, node.row + 1);
  }
  const width = x(columns - 1) + NODE_W + PAD;
  const height = y(rows - 1) + NODE_H + PAD;
  const onPath = new Set();
  const path = view.criticalPath;
  for (let i = 1; i < path.length; i++) onPath.add(`${path[i - 1]}\u0000${path[i]}`);
  let plain = "";
  let heavy = "";
  for (const [dep, dependent] of view.edges) {
    const from = at.get(dep);
    const to = at.get(dependent);
    if (!from || !to) continue;
    const x1 = x(from.column) + NODE_W;
    const y1 = y(from.row) + NODE_H / 2;
    const x2 = x(to.column);
    const y2 = y(to.row) + NODE_H / 2;
    const bend = Math.max(30, (x2 - x1) / 2);
    const d = `M${x1} ${y1}C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}`;
    if (onPath.has(`${dep}\u0000${dependent}`)) heavy += d;
    else plain += d;
  }
  const svg = s(
    "svg",
    { class: "edges", width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" },
    s("path", { class: "edge", d: plain || "M0 0" }),
    s("path", { class: "edge critical", d: heavy || "M0 0" }),
  );
  const parts = [svg];
  for (let column = 0; column < columns; column++) {
    const label = column < view.layers ? `layer ${column + 1}` : "not scheduled (cycle or no plan entry)";
    const head = h("div", { class: "column-head" }, label);
    head.style.left = `${x(column)}px`;
    parts.push(head);
  }
  for (const node of nodes) {
    const meta = [node.id, node.state];
    if (node.attempts) meta.push(`${node.attempts}×`);
    if (node.score !== null) meta.push(score(node.score));
    const box = h(
      "a",
      {
        class: `node state-${node.state}${node.critical ? " critical" : ""}`,
        href: link("module", node.id),
        "data-id": node.id,
        "data-state": node.state,
        title: `${node.title} (${node.id}): ${node.state}${node.status && node.status !== node.state ? `, last status ${node.status}` : ""}, ${node.attempts} attempt${node.attempts === 1 ? "" : "s"}${node.score !== null ? `, score ${score(node.score)}` : ""}${node.critical ? ", on the critical path" : ""}`,
      },
      h("span", { class: "node-title" }, node.title),
      h("span", { class: "node-meta" }, meta.join(" · ")),
    );
    box.style.left = `${x(node.column)}px`;
    box.style.top = `${y(node.row)}px`;
    parts.push(box);
  }
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.replaceChildren(...parts);
}
