"""Every other language ``tree-sitter-language-pack`` can provide offline (extra ``languages``).

- 0.x releases bundle their grammars: every bundled grammar with a known file
  extension is registered.
- 1.x releases download grammars at run time. forge never triggers a download
  while validating: only grammars already in the pack's cache are
  registered (``tree_sitter_language_pack.download([...])`` adds more, ahead
  of time).

Finding the languages imports no grammar (0.x: the bundled files are listed;
1.x: the cache is listed). All of them are fallbacks: a dedicated language
plugin (forge's python, javascript, typescript and tsx, or a third party's)
claiming the same name or extension wins without a conflict.

Languages whose "syntax errors" mean little (prose and markup such as
Markdown, reStructuredText, HTML) are left out, as are extensions that two
languages share (``.v``: V or Verilog; ``.m``: Objective-C or MATLAB; ``.d``:
D or make dependencies; ``.scm``: Scheme or tree-sitter queries).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forge import hookimpl
from forge.languages import json_strict
from forge.models import Language, SyntaxAuthority
from forge.plugin_host.entry_points import installed_version

DISTRIBUTION = "tree-sitter-language-pack"

#: Pack language name -> the file extensions forge gives it.
EXTENSIONS: dict[str, tuple[str, ...]] = {
    "ada": (".adb", ".ads"),
    "bash": (".sh", ".bash"),
    "c": (".c", ".h"),
    "clojure": (".clj", ".cljs", ".cljc", ".edn"),
    "cmake": (".cmake",),
    "commonlisp": (".lisp", ".lsp"),
    "cpp": (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++"),
    "csharp": (".cs",),
    "css": (".css",),
    "cuda": (".cu", ".cuh"),
    "dart": (".dart",),
    "elixir": (".ex", ".exs"),
    "elm": (".elm",),
    "erlang": (".erl", ".hrl"),
    "fish": (".fish",),
    "fortran": (".f90", ".f95", ".f03", ".f08"),
    "fsharp": (".fs", ".fsx"),
    "fsharp_signature": (".fsi",),
    "gleam": (".gleam",),
    "glsl": (".glsl", ".vert", ".frag"),
    "go": (".go",),
    "graphql": (".graphql", ".gql"),
    "groovy": (".groovy", ".gradle"),
    "hack": (".hack",),
    "haskell": (".hs",),
    "hcl": (".hcl",),
    "hlsl": (".hlsl",),
    "java": (".java",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "json": (".json", ".jsonc"),
    "julia": (".jl",),
    "kotlin": (".kt", ".kts"),
    "lua": (".lua",),
    "nim": (".nim",),
    "nix": (".nix",),
    "ocaml": (".ml",),
    "ocaml_interface": (".mli",),
    "odin": (".odin",),
    "pascal": (".pas",),
    "perl": (".pl", ".pm"),
    "php": (".php",),
    "powershell": (".ps1", ".psm1"),
    "prisma": (".prisma",),
    "proto": (".proto",),
    "purescript": (".purs",),
    "python": (".py", ".pyi"),
    "r": (".r",),
    "racket": (".rkt",),
    "ruby": (".rb",),
    "rust": (".rs",),
    "scala": (".scala", ".sc"),
    "scss": (".scss",),
    "solidity": (".sol",),
    "sql": (".sql",),
    "starlark": (".bzl", ".star"),
    "svelte": (".svelte",),
    "swift": (".swift",),
    "tcl": (".tcl",),
    "terraform": (".tf", ".tfvars"),
    "toml": (".toml",),
    "tsx": (".tsx",),
    "typescript": (".ts", ".mts", ".cts"),
    "vue": (".vue",),
    "wgsl": (".wgsl",),
    "yaml": (".yaml", ".yml"),
    "zig": (".zig",),
}

#: Pack languages whose verdict a complete parser decides (the grammar gives places).
_AUTHORITIES: dict[str, Callable[[], SyntaxAuthority]] = {"json": json_strict.load_authority}

#: Grammars 0.x releases take from separate wheels rather than bundle.
_SEPARATE_WHEELS = {
    "csharp": "tree_sitter_c_sharp",
    "yaml": "tree_sitter_yaml",
    "embeddedtemplate": "tree_sitter_embedded_template",
}


def pack_version() -> str | None:
    """The installed ``tree-sitter-language-pack`` version, or None."""
    return installed_version(DISTRIBUTION)


def offline_languages(version: str) -> set[str]:
    """Pack languages whose grammar is on this machine: bundled (0.x) or cached (1.x)."""
    if version.split(".")[0] == "0":
        return _bundled()
    return set(_pack().downloaded_languages())


def _bundled() -> set[str]:
    spec = importlib.util.find_spec("tree_sitter_language_pack")
    if spec is None or not spec.submodule_search_locations:
        return set()
    names: set[str] = set()
    for location in spec.submodule_search_locations:
        bindings = Path(location) / "bindings"
        if bindings.is_dir():
            names.update(path.name.split(".")[0] for path in bindings.glob("*.so"))
            names.update(path.name.split(".")[0] for path in bindings.glob("*.pyd"))
    names.update(
        name for name, module in _SEPARATE_WHEELS.items() if importlib.util.find_spec(module)
    )
    return names


def _pack() -> Any:
    # Imported by name and typed loosely: 0.x and 1.x have different APIs and
    # stubs, and forge calls only functions both generations document.
    return importlib.import_module("tree_sitter_language_pack")


def _loader(name: str) -> Callable[[], object]:
    def load_grammar() -> object:
        return _pack().get_language(name)

    return load_grammar


@hookimpl(trylast=True)
def forge_languages() -> list[Language]:
    """Register every pack language that is available offline; none when the pack is absent."""
    version = pack_version()
    if version is None:
        return []
    available = offline_languages(version)
    return [
        Language(
            name=name,
            extensions=extensions,
            load_grammar=_loader(name),
            fallback=True,
            authority=_AUTHORITIES.get(name),
        )
        for name, extensions in sorted(EXTENSIONS.items())
        if name in available
    ]
