"""Which programs a command line looks up."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from forge.plan.command_words import (
    ShellSyntaxError,
    _read_line,
    _shlex_tokens,
    _simple_commands,
    _tokens,
    external_commands,
)


@pytest.mark.parametrize(
    ("line", "programs"),
    [
        ("pytest -q", [("pytest", "")]),
        ("A=1 B='x y' C=$(date) make test", [("make", "")]),
        (
            "npm ci&&npm test||echo failed;ls|wc -l",
            [("npm", ""), ("npm", ""), ("ls", ""), ("wc", "")],
        ),
        ("cd web && ./build.sh", [("./build.sh", "web")]),
        ("cd web/app && cd .. && make", [("make", "web")]),
        ("(cd web && make) && ./after.sh", [("make", "web"), ("./after.sh", "")]),
        ("cd $DIR && ./x", [("./x", None)]),
        ("cd && ./x; cd - && ./y", [("./x", None), ("./y", None)]),
        ("pytest 2>&1 | tee log >/dev/null", [("pytest", ""), ("tee", "")]),
        ("> out.txt 2>/dev/null make", [("make", "")]),
        ("cat <<EOF > f\nrm -rf nowhere\nEOF\nmake", [("cat", ""), ("make", "")]),
        ("cat <<-'END'\n\tbody\n\tEND\nmake", [("cat", ""), ("make", "")]),
        ('$CMD x; ${A}b; $(which x) y; `x` y; "$TOOL" z', []),
        ("echo `which foo; bar` && baz", [("baz", "")]),
        ("x=$(ls | wc -l) && y", [("y", "")]),
        ("echo $((1 + 2)) && (( n > 1 )) && z", [("z", "")]),
        (
            "if [[ -f a && -f b ]]; then make; elif test x; then gmake; fi",
            [("make", ""), ("gmake", "")],
        ),
        ("for f in a b; do lint $f; done", [("lint", "")]),
        ("while read l; do proc; done < in.txt", [("proc", "")]),
        ("case $x in a) foo;; b) bar;; esac; baz", [("baz", "")]),
        ("f() { helper; }; f; function g { other; }; g", [("helper", ""), ("other", "")]),
        ("command -v uv && exec uv sync; builtin cd x", [("uv", "")]),
        ("time ! grep -q x f", [("grep", "")]),
        ("make # && not-a-command\nnext", [("make", ""), ("next", "")]),
        ("true; : ; export A=1; source env.sh; . env.sh", []),
        ("bash -c 'make; make'", [("bash", "")]),
    ],
)
def test_programs_of_a_line(line: str, programs: list[tuple[str, str | None]]) -> None:
    assert [(found.word, found.cwd) for found in external_commands(line)] == programs


@pytest.mark.parametrize("line", ['echo "unclosed', "echo 'x", "trailing \\"])
def test_lines_that_cannot_be_split(line: str) -> None:
    with pytest.raises(ShellSyntaxError):
        external_commands(line)


def _split(split: Callable[[str], object], line: str) -> object:
    try:
        return split(line)
    except ShellSyntaxError as exc:
        return f"error: {exc}"


def test_the_fast_splitter_agrees_with_shlex_on_random_lines() -> None:
    # The regular-expression splitter replaces shlex for speed; it must split
    # every line as shlex does: quotes, escapes, operators and errors.
    pieces = [*"ab \t\r\n'\"\\();<>|&$`#=-./~*", "\x0b", "é", "&&", "||", "<<", "cd", "x=1"]
    generator = random.Random(21)
    for _ in range(20_000):
        line = "".join(generator.choice(pieces) for _ in range(generator.randint(0, 16)))
        assert _split(_tokens, line) == _split(_shlex_tokens, line), line


def test_the_fast_path_for_plain_lines_agrees_with_the_full_reading() -> None:
    # Lines of plain words and ; | & lists skip the tokenizer; whatever they
    # contain (keywords, builtins, assignments, odd blanks), the answer is the same.
    pieces = [
        *("a", "x=1", "A_B+=c", "cd", "echo", "exec", "2", "if", "fi", "time", "!", "{"),
        *("pytest", "./s.sh", "dir/x", " ", "\t", "\r", "\x0b", "é", "-q", "*.py"),
        *("&&", "||", ";", "|", "&", ";;", "|&", "command", "for", "case", "function"),
    ]
    generator = random.Random(17)
    checked = 0
    for _ in range(20_000):
        line = "".join(
            generator.choice(pieces) + generator.choice(["", " "])
            for _ in range(generator.randint(0, 10))
        )
        fast = _simple_commands(line)
        if fast is not None:
            checked += 1
            assert fast == _read_line(line), line
    assert checked > 5_000  # the fast path really was taken
