// The page's address: #/view/arg?run=...&other=... (the run shown travels with every link).

export const VIEW_NAMES = ["graph", "module", "log", "sessions", "memory"];

/** The route in the hash: #/view/arg?run=...&other=... */
export function parseRoute() {
  const hash = location.hash.replace(/^#/, "") || "/graph";
  const at = hash.indexOf("?");
  const path = at < 0 ? hash : hash.slice(0, at);
  const params = new URLSearchParams(at < 0 ? "" : hash.slice(at + 1));
  const parts = path.split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const view = VIEW_NAMES.includes(parts[0]) ? parts[0] : "graph";
  return { view, arg: parts[1] || null, params };
}

/** A link inside the page, keeping the run shown. */
export function link(view, arg, extra) {
  return `#/${view}${arg ? `/${encodeURIComponent(arg)}` : ""}${runQuery(extra)}`;
}

/** The run the user picked (null: follow the newest). */
export function currentRun() {
  return parseRoute().params.get("run");
}

/** The query string of an API call for the run shown. */
export function runQuery(extra) {
  const params = new URLSearchParams();
  const run = currentRun();
  if (run !== null) params.set("run", run);
  for (const [key, value] of Object.entries(extra || {})) {
    if (value !== null && value !== undefined && value !== "") params.set(key, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Change the hash without a navigation (the view keeps its inputs). */
export function replaceParams(extra) {
  const route = parseRoute();
  const params = new URLSearchParams(route.params);
  for (const [key, value] of Object.entries(extra)) {
    if (value === null || value === undefined || value === "") params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  const arg = route.arg ? `/${encodeURIComponent(route.arg)}` : "";
  history.replaceState(null, "", `#/${route.view}${arg}${query ? `?${query}` : ""}`);
}
