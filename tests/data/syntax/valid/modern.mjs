// Modern JavaScript: optional chaining, nullish assignment, private fields,
// static blocks, top-level await, numeric separators, regex flags.
import { readFile } from "node:fs/promises";

const config = JSON.parse(await readFile(new URL("./config.json", import.meta.url), "utf8").catch(() => "{}"));

export class Counter {
  #count = 0;
  static #instances = 0;
  static {
    Counter.#instances = 0;
  }

  get value() {
    return this.#count;
  }

  increment(step = 1_000) {
    this.#count += step;
    return #count in this ? this : null;
  }

  async *ticks(limit) {
    for (let i = 0; i < limit; i++) yield i ** 2;
  }
}

export const port = config?.server?.port ?? 8080;
config.retries ??= 3;
config.verbose ||= false;
config.cache &&= { ...config.cache, ttl: 60n };

const pattern = /(?<year>\d{4})-(?<month>\d{2})/dv;
const { year } = "2024-05".match(pattern)?.groups ?? {};
const label = `year ${year ?? "?"} of ${[1, 2, 3].at(-1)}`;
const sum = (...xs) => xs.reduce((a, b) => a + b, 0);
export default { label, sum, fn: label?.toString?.() };

for await (const tick of new Counter().ticks(2)) {
  void tick;
}

label: for (const x of [1]) {
  if (x) break label;
}
