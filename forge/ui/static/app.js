// forge ui: one page, hash routes, one server-sent-events stream that says which
// parts changed; the view on screen fetches its JSON again only then.

import { clear, get, h } from "./dom.js";
import { currentRun, link, parseRoute, runQuery } from "./route.js";
import { GraphView } from "./graph.js";
import { ModuleView } from "./module.js";
import { LogView, MemoryView, SessionsView } from "./panels.js";

const VIEWS = {
  graph: GraphView,
  module: ModuleView,
  log: LogView,
  sessions: SessionsView,
  memory: MemoryView,
};

const main = document.getElementById("main");
const live = document.getElementById("live");
const picker = document.getElementById("run-picker");
let view = null;
let viewKey = null;
let stream = null;
let streamRun;

/** Fetches of one kind in order, never two at once; a request made meanwhile runs once after. */
class Refresher {
  constructor(load) {
    this.load = load;
    this.running = false;
    this.again = false;
  }
  async run() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        await this.load();
      } while (this.again);
    } finally {
      this.running = false;
    }
  }
}

const header = new Refresher(async () => {
  let runs;
  try {
    runs = await get(`/api/runs${runQuery()}`);
  } catch (error) {
    return;
  }
  const project = document.getElementById("project");
  project.textContent = runs.project.split("/").filter(Boolean).pop() || runs.project;
  project.title = runs.project;
  document.title = `forge · ${project.textContent}`;
  const chosen = currentRun();
  const options = [h("option", { value: "" , "data-newest": "1" }, `${runs.chosenBecause}${runs.newest !== null ? ` (${runs.newest || "no run id"})` : ""}`)];
  for (const run of runs.runs) {
    options.push(h("option", { value: `=${run.id}` }, run.label));
  }
  picker.replaceChildren(...options);
  picker.value = chosen === null ? "" : `=${chosen}`;
  if (picker.value === "" && chosen !== null) {
    picker.append(h("option", { value: `=${chosen}` }, chosen || "no run id"));
    picker.value = `=${chosen}`;
  }
});

picker.addEventListener("change", () => {
  const route = parseRoute();
  const params = new URLSearchParams(route.params);
  if (picker.value === "") params.delete("run");
  else params.set("run", picker.value.slice(1));
  const query = params.toString();
  const arg = route.view === "module" && route.arg ? `/${encodeURIComponent(route.arg)}` : "";
  location.hash = `#/${route.view}${arg}${query ? `?${query}` : ""}`;
});

const content = new Refresher(async () => {
  if (view) await view.refresh();
});

function connect() {
  const run = currentRun();
  if (stream && streamRun === run) return;
  if (stream) stream.close();
  streamRun = run;
  const query = run === null ? "" : `?run=${encodeURIComponent(run)}`;
  stream = new EventSource(`/api/events${query}`);
  stream.addEventListener("open", () => {
    live.className = "live on";
    live.textContent = "live";
    live.title = "Following .forge/ as it changes";
  });
  stream.addEventListener("error", () => {
    live.className = "live off";
    live.textContent = "reconnecting";
    live.title = "The connection to forge ui was lost; retrying";
  });
  stream.addEventListener("hello", () => {
    // Reconnected: whatever changed meanwhile is fetched again.
    header.run();
    content.run();
  });
  stream.addEventListener("change", (event) => {
    let topics = [];
    try {
      topics = JSON.parse(event.data).topics || [];
    } catch {
      return;
    }
    if (topics.includes("graph")) header.run();
    if (view && topics.some((topic) => view.topics.includes(topic))) content.run();
  });
}

function route() {
  const current = parseRoute();
  const key = `${current.view}/${current.arg}/${current.params.get("run")}`;
  for (const item of document.querySelectorAll("#nav a")) {
    item.classList.toggle("active", item.dataset.view === current.view || (current.view === "module" && item.dataset.view === "graph"));
    item.setAttribute("href", link(item.dataset.view));
  }
  document.getElementById("brand").setAttribute("href", link("graph"));
  connect();
  if (key !== viewKey || !view) {
    viewKey = key;
    if (view && view.unmount) view.unmount();
    clear(main);
    view = new VIEWS[current.view](main, current);
    header.run();
  } else if (view.routeChanged) {
    view.routeChanged(current);
  }
  content.run();
}

window.addEventListener("hashchange", route);
route();
