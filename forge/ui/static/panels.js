// The run's event log (filtered, following new lines), the saved sessions, and
// memory (searchable). Filters live in the address, so a view can be linked.

import { clock, get, h, notices, section, time } from "./dom.js";
import { link, parseRoute, replaceParams, runQuery } from "./route.js";

function select(name, label, options, chosen, onChange) {
  const field = h(
    "select",
    { id: `filter-${name}`, name, "aria-label": label, onchange: (event) => onChange(event.target.value) },
    h("option", { value: "" }, `every ${label}`),
    options.map((value) => h("option", { value }, value)),
  );
  field.value = chosen || "";
  return h("label", { class: "filter" }, `${label} `, field);
}

/** An event's data as `key=value` pairs, as forge logs prints them (checks counted). */
function compact(data) {
  return Object.entries(data || {})
    .map(([key, value]) => {
      if (key === "checks" && Array.isArray(value)) return `checks=[${value.length}]`;
      if (typeof value === "string") return `${key}=${value && !value.includes(" ") ? value : JSON.stringify(value)}`;
      return `${key}=${JSON.stringify(value)}`;
    })
    .join(" ");
}

export class LogView {
  constructor(main, route) {
    this.topics = ["log"];
    this.follow = true;
    this.controls = h("div", { class: "controls" });
    this.messages = h("div");
    this.table = h("div", { class: "log-box", id: "log" });
    this.counter = h("p", { class: "muted", id: "log-count" });
    main.append(section("Event log", this.controls, this.messages, this.counter, this.table));
    this.modules = [];
    this.phases = [];
    this.severities = [];
    this.drawControls();
    get(`/api/graph${runQuery()}`)
      .then((graph) => {
        this.modules = graph.nodes.map((node) => node.id);
        this.drawControls();
      })
      .catch(() => {});
  }

  params() {
    const params = parseRoute().params;
    return { module: params.get("module"), phase: params.get("phase"), severity: params.get("severity") };
  }

  drawControls() {
    const chosen = this.params();
    const change = (name) => (value) => {
      replaceParams({ [name]: value });
      this.refresh();
    };
    const modules = [...this.modules];
    if (chosen.module && !modules.includes(chosen.module)) modules.push(chosen.module);
    const follow = h("input", {
      type: "checkbox",
      id: "follow",
      checked: this.follow,
      onchange: (event) => {
        this.follow = event.target.checked;
      },
    });
    this.controls.replaceChildren(
      select("module", "module", modules, chosen.module, change("module")),
      select("phase", "phase", this.phases, chosen.phase, change("phase")),
      select("severity", "severity", this.severities, chosen.severity, change("severity")),
      h("label", { class: "filter" }, follow, " follow new events"),
    );
  }

  routeChanged() {
    this.drawControls();
  }

  async refresh() {
    let view;
    try {
      view = await get(`/api/log${runQuery(this.params())}`);
    } catch (error) {
      this.messages.replaceChildren(notices([`Cannot load the log: ${error.message}`]));
      return;
    }
    if (!this.phases.length) {
      this.phases = view.phases;
      this.severities = view.severities;
      this.drawControls();
    }
    this.messages.replaceChildren(...[notices(view.notices)].filter(Boolean));
    this.counter.textContent = view.log
      ? `${view.entries.length} of ${view.total} matching events in .forge/logs/${view.log}.jsonl`
      : "No log for this run yet.";
    const rows = view.entries.map((entry) => {
      const data = compact(entry.data);
      return h(
        "tr",
        { class: `sev-${entry.severity}` },
        h("td", { class: "when", title: entry.timestamp }, clock(entry.timestamp)),
        h("td", null, h("span", { class: `sev sev-${entry.severity}` }, entry.severity)),
        h("td", null, entry.phase),
        h("td", null, h("strong", null, entry.event)),
        h("td", null, entry.moduleId ? h("a", { href: link("module", entry.moduleId) }, entry.moduleId) : ""),
        h("td", { class: "data", title: data.length > 200 ? data.slice(0, 2000) : null }, data.length > 200 ? `${data.slice(0, 197)}...` : data),
      );
    });
    this.table.replaceChildren(
      h(
        "table",
        { class: "table log" },
        h("thead", null, h("tr", null, ["time", "severity", "phase", "event", "module", "data"].map((name) => h("th", null, name)))),
        h("tbody", null, rows),
      ),
    );
    if (this.follow) this.table.scrollTop = this.table.scrollHeight;
  }
}

export class SessionsView {
  constructor(main) {
    this.topics = ["sessions"];
    this.body = h("div", { id: "sessions" });
    main.append(this.body);
  }

  async refresh() {
    const chosen = parseRoute().params.get("session");
    let view;
    try {
      view = await get(`/api/sessions${chosen ? `?session=${encodeURIComponent(chosen)}` : ""}`);
    } catch (error) {
      this.body.replaceChildren(notices([`Cannot load the sessions: ${error.message}`]));
      return;
    }
    if (!view.sessions.length) {
      this.body.replaceChildren(
        notices(view.notices),
        section("Sessions", h("p", { class: "muted" }, "No session saved yet: an orchestrator saves its state with the session_state tool, so a run can resume.")),
      );
      return;
    }
    const rows = view.sessions.map((session) =>
      h(
        "tr",
        { class: session.runId === view.selected ? "selected" : "" },
        h("td", null, h("a", { href: link("sessions", null, { session: session.runId }) }, session.runId)),
        h("td", null, session.currentPhase ?? "-"),
        h("td", { class: "num" }, `${session.completedCount}/${session.totalCount}`),
        h("td", null, time(session.lastUpdatedAt)),
      ),
    );
    this.body.replaceChildren(
      ...[
        notices(view.notices),
        section(
          "Sessions",
          h(
            "table",
            { class: "table" },
            h("thead", null, h("tr", null, ["run", "phase", "done", "updated"].map((name) => h("th", null, name)))),
            h("tbody", null, rows),
          ),
        ),
        view.selected
          ? section(`Session ${view.selected}`, h("p", null, h("a", { href: `#/graph?run=${encodeURIComponent(view.selected)}` }, "this run's graph →")), view.state ? h("pre", { class: "json", id: "session-state" }, JSON.stringify(view.state, null, 2)) : h("p", { class: "muted" }, "This snapshot cannot be read."))
          : null,
      ].filter(Boolean),
    );
  }
}

export class MemoryView {
  constructor(main) {
    this.topics = ["memory"];
    const params = parseRoute().params;
    this.timer = null;
    this.query = h("input", {
      type: "search",
      id: "memory-query",
      placeholder: "search memory: words of a pattern, category or tag",
      value: params.get("q") || "",
      oninput: () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          replaceParams({ q: this.query.value });
          this.refresh();
        }, 250);
      },
    });
    this.scope = h(
      "select",
      { id: "memory-scope", "aria-label": "scope", onchange: () => this.changed() },
      ["all", "project", "global"].map((value) => h("option", { value }, value)),
    );
    this.scope.value = params.get("scope") || "all";
    this.category = h("select", { id: "memory-category", "aria-label": "category", onchange: () => this.changed() }, h("option", { value: "" }, "every category"));
    this.chosenCategory = params.get("category") || "";
    this.messages = h("div");
    this.list = h("div", { id: "memory" });
    main.append(
      section(
        "Memory",
        h("div", { class: "controls" }, this.query, h("label", { class: "filter" }, "scope ", this.scope), h("label", { class: "filter" }, "category ", this.category)),
        this.messages,
        this.list,
      ),
    );
  }

  routeChanged(route) {
    this.query.value = route.params.get("q") || "";
    this.scope.value = route.params.get("scope") || "all";
    this.chosenCategory = route.params.get("category") || "";
    this.category.value = this.chosenCategory;
  }

  changed() {
    this.chosenCategory = this.category.value;
    replaceParams({ scope: this.scope.value === "all" ? "" : this.scope.value, category: this.category.value });
    this.refresh();
  }

  async refresh() {
    const params = new URLSearchParams();
    if (this.query.value.trim()) params.set("q", this.query.value);
    if (this.scope.value !== "all") params.set("scope", this.scope.value);
    if (this.chosenCategory) params.set("category", this.chosenCategory);
    let view;
    try {
      view = await get(`/api/memory?${params}`);
    } catch (error) {
      this.messages.replaceChildren(notices([`Cannot search memory: ${error.message}`]));
      return;
    }
    if (this.category.options.length === 1) {
      this.category.append(...view.categories.map((value) => h("option", { value }, value)));
      this.category.value = this.chosenCategory;
    }
    this.messages.replaceChildren(...[notices(view.notices)].filter(Boolean));
    const searching = view.query.trim() !== "";
    const heading = searching
      ? `${view.items.length} match${view.items.length === 1 ? "" : "es"} for “${view.query}” (${view.searched} searched)`
      : `${view.items.length} most recent of ${view.searched}`;
    if (!view.items.length) {
      this.list.replaceChildren(h("p", { class: "muted" }, searching ? `No memory matches “${view.query}”: try other words.` : "No memory yet: agents save learnings with memory_save."));
      return;
    }
    this.list.replaceChildren(
      h("p", { class: "muted", id: "memory-heading" }, heading),
      h(
        "ul",
        { class: "memories" },
        view.items.map((item) =>
          h(
            "li",
            null,
            h("span", { class: "chip plain" }, item.category),
            " ",
            h("span", { class: "confidence" }, item.confidence.toFixed(2)),
            " ",
            h("span", { class: "pattern" }, item.pattern),
            h(
              "div",
              { class: "muted small" },
              `${item.scope} · ${time(item.timestamp)}${item.tags.length ? ` · ${item.tags.join(", ")}` : ""}${searching ? ` · relevance ${item.relevance.toFixed(2)}` : ""}`,
            ),
          ),
        ),
      ),
    );
  }
}
