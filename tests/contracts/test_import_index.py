"""The project-wide import index: exact importers (specifiers resolved, not names matched),
and its cache under ``.forge/cache/`` keyed by each file's stat."""

from __future__ import annotations

import json
import os
from pathlib import Path

from forge.config import ForgeConfig
from forge.contracts.analysis import ContractAnalyzer, normalize
from forge.contracts.import_index import ImportIndex, cache_path
from forge.plugin_host.host import build_plugin_host
from forge.validate.run import Engine
from forge.workspace import Workspace


def index_of(project: Path) -> ImportIndex:
    engine = Engine(project, ForgeConfig(), build_plugin_host())
    workspace = Workspace(project, config=engine.config, languages=engine.languages)
    analyzer = ContractAnalyzer(parse=workspace.parse, root=normalize(project))
    return ImportIndex(project, analyzer, cache_path(project, project))


def write(project: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")


def test_importers_are_resolved_not_matched_by_name(project: Path) -> None:
    write(
        project,
        {
            "src/util.js": "export const a = 1;\n",
            "src/cart.js": "import { a } from './util.js';\n",
            "src/other/util.js": "export const b = 2;\n",
            "src/other/use.js": "import { b } from './util.js';\n",  # another util.js
            "lib/shop/__init__.py": "X = 1\n",
            "lib/shop/cli.py": "from . import X\n",  # no name to match: dots alone
            "lib/notes.py": "# util is mentioned, imported nowhere\nimport json\n",
        },
    )
    found = index_of(project).importers_of(
        [project / "src/util.js", project / "lib/shop/__init__.py"]
    )
    assert sorted(path.relative_to(project).as_posix() for path in found.found) == [
        "lib/shop/cli.py",
        "src/cart.js",
    ]
    assert (found.scanned, found.complete) == (7, True)


def test_the_cache_keeps_each_files_specifiers_until_the_file_changes(project: Path) -> None:
    write(project, {"a.py": "X = 1\n", "b.py": "import a\n", "c.py": "import json  # not a\n"})
    assert list(index_of(project).importers_of([project / "a.py"]).found) == [project / "b.py"]
    cache = cache_path(project, project)
    entries = json.loads(cache.read_text(encoding="utf-8"))["files"]
    assert {name: entry[1] for name, entry in entries.items()} == {
        "b.py": ["a"],
        "c.py": ["json"],
    }
    # What the cache says is what a file imports, as long as its stat is the same:
    # c.py's entry rewritten to import a, its stat kept, makes it an importer.
    entries["c.py"][1] = ["a"]
    cache.write_text(json.dumps({"format": "1", "files": entries}), encoding="utf-8")
    assert sorted(index_of(project).importers_of([project / "a.py"]).found) == [
        project / "b.py",
        project / "c.py",
    ]
    status = (project / "c.py").stat()
    os.utime(project / "c.py", ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000))
    assert list(index_of(project).importers_of([project / "a.py"]).found) == [project / "b.py"]
