"""Generated source files and broken variants, shared by the syntax benchmarks.

Every file is generated from a seed, so a run is reproducible: the same
seeds give the same files and the same mutations.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

#: Generated JavaScript is ESM: ``.mjs``, because ``node --check`` on a ``.js``
#: file with ``export`` in it exits 0 without checking (Node 20).
EXTENSIONS = {"python": ".py", "javascript": ".mjs", "typescript": ".ts", "tsx": ".tsx"}
SHIPPED = Path(__file__).resolve().parent.parent / "tests" / "data" / "syntax" / "valid"
SHIPPED_SUFFIXES = {
    "python": (".py", ".pyi"),
    "javascript": (".js", ".mjs", ".cjs"),
    "typescript": (".ts", ".mts"),
    "tsx": (".tsx",),
}


def _python_unit(rng: random.Random, i: int) -> str:
    n = rng.randint(1, 9)
    return f'''

class Model{i}:
    """A record with {n} fields."""

    def __init__(self, name: str, values: list[int] | None = None) -> None:
        self.name = name
        self.values = values or [x * {n} for x in range({n})]

    def total(self, *, scale: float = 1.0) -> float:
        match self.values:
            case []:
                return 0.0
            case [single]:
                return single * scale
            case _:
                return sum(v for v in self.values if v % 2 == 0) * scale

    def describe(self) -> str:
        return f"{{self.name!r}}: {{len(self.values)}} values, total {{self.total():.2f}}"


async def fetch_{i}(keys: dict[str, int], retries: int = {n}) -> dict[str, int]:
    result = {{k: v + {n} for k, v in keys.items() if (w := v) > 0 and w < 100}}
    for attempt in range(retries):
        try:
            return {{**result, "attempt": attempt}}
        except (KeyError, ValueError) as exc:
            print("retry", exc, sep=": ")
    return result
'''


def _js_unit(rng: random.Random, i: int) -> str:
    n = rng.randint(1, 9)
    return f"""
export class Store{i} {{
  #items = new Map();
  static count = {n};

  constructor(name, options = {{}}) {{
    this.name = name;
    this.limit = options?.limit ?? {n * 10};
  }}

  add(key, value) {{
    if (this.#items.size >= this.limit) throw new Error(`full: ${{this.name}}`);
    this.#items.set(key, {{ ...value, at: Date.now() }});
    return this;
  }}

  *entries() {{
    for (const [key, value] of this.#items) yield [key, value];
  }}
}}

export async function load{i}(url, {{ retries = {n}, signal }} = {{}}) {{
  for (let attempt = 0; attempt < retries; attempt++) {{
    try {{
      const response = await fetch(url, {{ signal }});
      return (await response.json()).items?.map((item) => item.id * {n}) ?? [];
    }} catch (error) {{
      if (attempt === retries - 1) throw error;
    }}
  }}
  return [];
}}
"""


def _ts_unit(rng: random.Random, i: int) -> str:
    n = rng.randint(1, 9)
    return f"""
export interface Item{i}<T = string> {{
  id: number;
  label: T;
  tags?: readonly string[];
}}

type Keys{i} = keyof Item{i};

export class Repo{i}<T extends {{ id: number }}> {{
  private readonly items = new Map<number, T>();

  constructor(private readonly name: string, protected limit: number = {n}) {{}}

  add(item: T): this {{
    if (this.items.size >= this.limit) throw new Error(`full: ${{this.name}}`);
    this.items.set(item.id, item);
    return this;
  }}

  find(predicate: (item: T) => boolean): T | undefined {{
    for (const item of this.items.values()) if (predicate(item)) return item;
    return undefined;
  }}
}}

export const defaults{i} = {{ id: {n}, label: "x{i}" }} satisfies Item{i};
export function pick{i}<K extends Keys{i}>(item: Item{i}, key: K): Item{i}[K] {{
  return item[key] as Item{i}[K];
}}
"""


def _tsx_unit(rng: random.Random, i: int) -> str:
    n = rng.randint(1, 9)
    return f"""
interface Props{i} {{
  title: string;
  items: Array<{{ id: number; label: string }}>;
  onSelect?: (id: number) => void;
}}

export function Panel{i}({{ title, items, onSelect }}: Props{i}) {{
  const visible = items.filter((item) => item.id % {n} !== 0);
  return (
    <section className="panel" data-size={{visible.length}}>
      <h2>{{title}}</h2>
      <ul>
        {{visible.map((item) => (
          <li key={{item.id}} onClick={{() => onSelect?.(item.id)}}>
            {{item.label}}
          </li>
        ))}}
      </ul>
      {{visible.length === 0 && <p>empty</p>}}
    </section>
  );
}}

export const wrap{i} = <T,>(value: T) => <>{{String(value)}}</>;
"""


GENERATORS: dict[str, Callable[[random.Random, int], str]] = {
    "python": _python_unit,
    "javascript": _js_unit,
    "typescript": _ts_unit,
    "tsx": _tsx_unit,
}


def generate(language: str, seed: int, units: int = 6) -> str:
    """One valid file of ``language``, about 40 lines per unit."""
    rng = random.Random(seed)
    header = "from __future__ import annotations\n" if language == "python" else ""
    return header + "".join(GENERATORS[language](rng, seed * 100 + i) for i in range(units))


def write_generated(directory: Path, language: str, count: int, units: int = 6) -> list[Path]:
    """``count`` generated files of ``language`` in ``directory``, ``units`` x ~40 lines each."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in range(count):
        path = directory / f"gen_{seed}{EXTENSIONS[language]}"
        path.write_text(generate(language, seed, units), encoding="utf-8")
        paths.append(path)
    return paths


# --- mutations: each returns the broken text, or None when it cannot apply ---


def delete_bracket(text: str, rng: random.Random) -> str | None:
    """Delete one bracket, anywhere."""
    positions = [i for i, c in enumerate(text) if c in "()[]{}"]
    if not positions:
        return None
    at = rng.choice(positions)
    return text[:at] + text[at + 1 :]


def stray_paren(text: str, rng: random.Random) -> str | None:
    """Add a ``)`` at the end of a non-blank line."""
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if line.strip()]
    if not candidates:
        return None
    at = rng.choice(candidates)
    lines[at] += ")"
    return "\n".join(lines)


def cut_file(text: str, rng: random.Random) -> str | None:
    """Cut the file at a random point between 20% and 80% of its length."""
    if len(text) < 20:
        return None
    return text[: rng.randint(len(text) // 5, len(text) * 4 // 5)]


def unterminated_string(text: str, rng: random.Random) -> str | None:
    """Remove the closing quote of a string that opens and closes on one line."""
    lines = text.split("\n")
    candidates = []
    for index, line in enumerate(lines):
        for quote in "\"'`":
            if line.count(quote) == 2:
                candidates.append((index, quote))
    if not candidates:
        return None
    index, quote = rng.choice(candidates)
    line = lines[index]
    at = line.rindex(quote)
    lines[index] = line[:at] + line[at + 1 :]
    return "\n".join(lines)


MUTATIONS: dict[str, Callable[[str, random.Random], str | None]] = {
    "delete_bracket": delete_bracket,
    "stray_paren": stray_paren,
    "cut_file": cut_file,
    "unterminated_string": unterminated_string,
}
