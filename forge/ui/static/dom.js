// Building the page without ever parsing data as HTML: every string that came
// from a plan, a worker or a log goes in as a text node or an attribute value.

const SVG = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** An HTML element: h("a", {href: "#/x", class: "c"}, "text", otherElement). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** GET a JSON view; a non-2xx answer throws its one-line error. */
export async function get(url, signal) {
  const response = await fetch(url, { cache: "no-store", signal });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message = body && typeof body.error === "string" ? body.error : `HTTP ${response.status}`;
    throw new Error(message);
  }
  return body;
}

export function time(iso) {
  if (!iso) return "-";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function clock(iso) {
  if (!iso) return "-";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString();
}

export function score(value) {
  return typeof value === "number" ? value.toFixed(2) : "-";
}

export function stateBadge(state) {
  return h("span", { class: `badge state-${state}` }, state);
}

/** Notices (files that could not be read) and a hint, above a view. */
export function notices(list) {
  if (!list || !list.length) return null;
  return h(
    "ul",
    { class: "notices", role: "status" },
    list.map((text) => h("li", null, text)),
  );
}

export function section(title, ...children) {
  return h("section", { class: "card" }, h("h2", null, title), children);
}
