"""Source files and broken variants, shared by the syntax benchmarks and tests.

- Generated files: every file comes from a seed, so a run is reproducible.
- Real files: published packages, pinned, downloaded at run time into a temp
  dir with the registries' own clients (``npm pack``, ``pip download
  --no-binary :all:``); never committed. :func:`download` returns None when
  the registry cannot be reached.

Mutations are seeded too: the same seeds give the same broken variants.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

#: Published JS/TS packages that ship their sources: ESM and CommonJS JavaScript,
#: TypeScript (modern .d.ts in type-fest), TSX (the TanStack React packages).
NPM_PACKAGES = (
    "zod@3.25.76",
    "rxjs@7.8.2",
    "type-fest@5.10.0",
    "@reduxjs/toolkit@2.14.0",
    "@tanstack/query-core@5.108.0",
    "@tanstack/react-query@5.108.0",
    "@tanstack/react-router@1.170.46",
    "@tanstack/react-form@1.33.5",
    "mobx@7.1.3",
    "hono@4.13.19",
    "lodash-es@4.18.1",
    "lodash@4.18.1",
    "express@5.3.0",
    "preact@11.2.0",
)
#: Python sdists (source distributions: the code as written, tests included).
PYPI_PACKAGES = (
    "requests==2.34.2",
    "rich==15.0.0",
    "click==8.5.1",
    "attrs==26.1.0",
    "flask==3.1.3",
)

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


# --- real packages, downloaded at run time ------------------------------------


def download(
    destination: Path, *, npm: tuple[str, ...] = NPM_PACKAGES, pypi: tuple[str, ...] = PYPI_PACKAGES
) -> list[Path] | None:
    """Download and unpack ``npm`` and ``pypi`` packages under ``destination``.

    Returns one folder per package, or None when a registry cannot be reached
    (or its client is missing).
    """
    archives = destination / "archives"
    archives.mkdir(parents=True, exist_ok=True)
    folders: list[Path] = []
    for spec in npm:
        if shutil.which("npm") is None:
            return None
        done = subprocess.run(
            ["npm", "pack", "--silent", "--pack-destination", str(archives), spec],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        if done.returncode:
            return None
        folders.append(_unpack(archives / done.stdout.strip().splitlines()[-1], destination))
    for spec in pypi:
        before = set(archives.iterdir())
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--dest",
                str(archives),
                spec,
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        fresh = sorted(set(archives.iterdir()) - before)
        if done.returncode or not fresh:
            return None
        folders.append(_unpack(fresh[0], destination))
    return folders


def _unpack(archive: Path, destination: Path) -> Path:
    name = archive.name
    for ending in (".tar.gz", ".tgz", ".zip"):
        name = name.removesuffix(ending)
    folder = destination / "packages" / name
    folder.mkdir(parents=True, exist_ok=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as bundle:
            bundle.extractall(folder)
    else:
        with tarfile.open(archive) as bundle:
            if hasattr(tarfile, "data_filter"):
                bundle.extractall(folder, filter="data")
            else:  # Python before 3.10.12: archives from the registries, members checked
                members = [
                    m
                    for m in bundle.getmembers()
                    if (m.isfile() or m.isdir())
                    and not m.name.startswith(("/", ".."))
                    and ".." not in Path(m.name).parts
                ]
                bundle.extractall(folder, members=members)
    return folder


def sample_files(
    folders: list[Path],
    suffixes: tuple[str, ...],
    per_package: int,
    max_bytes: int = 200_000,
    seed: int = 13,
) -> list[Path]:
    """Up to ``per_package`` files of ``suffixes`` from each folder, seeded, under ``max_bytes``."""
    chosen: list[Path] = []
    for folder in folders:
        pool = sorted(
            path
            for path in folder.rglob("*")
            if path.is_file()
            and _suffix(path) in suffixes
            and "node_modules" not in path.parts
            and 0 < path.stat().st_size <= max_bytes
        )
        chosen += sorted(
            random.Random(f"{seed}-{folder.name}").sample(pool, min(per_package, len(pool)))
        )
    return chosen


def _suffix(path: Path) -> str:
    return path.suffix.lower()


def mutant_path(path: Path, number: int) -> Path:
    """Where the ``number``-th mutant of ``path`` goes: beside it, same extensions.

    Beside it, so the nearest package.json and pyproject.toml still apply.
    """
    stem, _, rest = path.name.partition(".")
    return path.with_name(f"{stem}__mutant{number}.{rest}")
