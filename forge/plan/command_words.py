"""Which programs a shell command line would look up, found without running anything.

:func:`external_commands` splits a line with :mod:`shlex` into simple commands
(the parts of ``&&``, ``||``, ``;``, ``|``, ``&``, newlines and subshells) and
returns the command word of each one the shell would look up as a program.
Left out, because the shell does not look them up or forge cannot know them:

- ``VAR=value`` prefixes, redirections (``2>&1``, ``> out``, here-documents);
- shell builtins and keywords (``cd``, ``test``, ``if``, ``[[ ... ]]``, ``for``,
  ``case``), and functions the line defines;
- dynamic words: anything with ``$`` or a backtick, and whatever runs inside
  ``$(...)`` or backticks.

``cd DIR`` with a literal ``DIR`` is followed, so ``cd web && ./build.sh``
names ``web/build.sh``; a subshell's ``cd`` ends with the subshell.

Known limit: shlex drops quotes, so a quoted lone operator (``echo '|' x``)
reads as an operator; the worst outcome is one more word checked.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from functools import lru_cache
from typing import NamedTuple

# fmt: off
#: POSIX and bash builtins: the shell runs these itself, nothing to look up.
BUILTINS = frozenset({
    ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command",
    "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable",
    "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history",
    "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
    "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test",
    "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
})
# fmt: on
#: Keywords after which the next word is again a command.
_LEADING_KEYWORDS = frozenset(
    {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"}
)
#: Keywords that close a compound command: an operator or redirection follows.
_CLOSING_KEYWORDS = frozenset({"fi", "done", "esac", "}"})
#: Builtins that run their argument as a command (``exec make``, ``command make``).
_PREFIX_BUILTINS = frozenset({"exec", "command", "builtin"})

_OPERATORS = re.compile(r"&>>|&>|<<<|<<-|<<|>>|>&|<&|<>|>\||&&|\|\||;;&|;;|;&|\|&|[;|&()<>\n]")
_SEPARATORS = frozenset({"&&", "||", ";", ";;", ";&", ";;&", "|", "|&", "&", "\n"})
_HEREDOC = frozenset({"<<", "<<-"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")
_PUNCTUATION = "();<>|&\n"


#: An argument word that may still matter: a comment, a backtick, or ``$(`` ahead.
_MAYBE_SPECIAL = re.compile(r"\A#|`|\$\Z")


class ShellSyntaxError(ValueError):
    """The line cannot be split into words (an unclosed quote, a trailing backslash)."""


class CommandWord(NamedTuple):
    """A program the line runs: the word as the shell sees it, and where it runs.

    ``cwd`` is the directory an earlier literal ``cd`` moved to, relative to
    where the line starts (``""``: not moved), or ``None`` when it cannot be
    known (``cd $DIR``, ``cd -``, ``cd`` alone).
    """

    word: str
    cwd: str | None


class _Token(NamedTuple):
    text: str
    operator: bool


#: One token of a line as :func:`_shlex_tokens` splits it, after any blanks: a
#: run of punctuation, a word (plain runs, quoted strings and escapes), or a
#: quote or backslash that starts nothing complete (shlex must say why).
_TOKEN = re.compile(
    r"""[ \t\r]*(?:([();<>|&\n]+)|((?:[^ \t\r'"\\();<>|&\n]+|'[^']*'|"(?:[^"\\]|\\[\s\S])*"|\\[\s\S])+)|(['"\\]))"""
)
#: The quoted parts and escapes of a word, to remove as a POSIX shell (and shlex) does.
_QUOTED = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\[\s\S])*)"|\\([\s\S])""")
_ESCAPED_IN_DOUBLE = re.compile(r'\\([\\"])')


def _unquote(match: re.Match[str]) -> str:
    single, double, escaped = match.groups()
    if single is not None:
        return single
    if double is not None:
        return _ESCAPED_IN_DOUBLE.sub(r"\1", double)
    return escaped


def _tokens(line: str) -> list[_Token]:
    """The words and operators of ``line``, exactly as :func:`_shlex_tokens` splits them.

    A regular expression does shlex's work many times faster (a plan of a
    thousand modules has thousands of commands); a line it cannot split (an
    unclosed quote, a trailing backslash) goes to shlex for shlex's error.
    """
    tokens: list[_Token] = []
    for operators, word, broken in _TOKEN.findall(line):
        if broken:
            return _shlex_tokens(line)
        if operators:
            if len(operators) == 1:
                tokens.append(_Token(operators, True))
            else:
                tokens.extend(_Token(op, True) for op in _OPERATORS.findall(operators))
            continue
        if "'" in word or '"' in word or "\\" in word:
            word = _QUOTED.sub(_unquote, word)
            if word and all(char in _PUNCTUATION for char in word):
                # shlex drops the quotes: the module docstring's known limit
                tokens.extend(_Token(op, True) for op in _OPERATORS.findall(word))
                continue
        tokens.append(_Token(word, False))
    return tokens


def _shlex_tokens(line: str) -> list[_Token]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=_PUNCTUATION)
    lexer.whitespace_split = True
    lexer.whitespace = " \t\r"  # a newline separates commands: it is an operator here
    lexer.commenters = ""  # comments are handled as words, so the newline ending one is kept
    try:
        raw = list(lexer)
    except ValueError as exc:
        raise ShellSyntaxError(str(exc)) from None
    tokens: list[_Token] = []
    for text in raw:
        if text and all(char in _PUNCTUATION for char in text):
            tokens.extend(_Token(op, True) for op in _OPERATORS.findall(text))
        else:
            tokens.append(_Token(text, False))
    return tokens


def _dynamic(word: str) -> bool:
    return "$" in word or "`" in word


def _skip_balanced(tokens: list[_Token], start: int) -> int:
    """Index after the ``)`` matching the ``(`` at ``start``."""
    depth = 0
    for index in range(start, len(tokens)):
        token = tokens[index]
        if token.operator and token.text == "(":
            depth += 1
        elif token.operator and token.text == ")":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(tokens)


def _skip_to(tokens: list[_Token], start: int, word: str) -> int:
    """Index after the next word ``word`` (a closing keyword or delimiter)."""
    for index in range(start, len(tokens)):
        if not tokens[index].operator and tokens[index].text == word:
            return index + 1
    return len(tokens)


def _skip_to_separator(tokens: list[_Token], start: int) -> int:
    for index in range(start, len(tokens)):
        if tokens[index].operator and tokens[index].text in _SEPARATORS:
            return index
    return len(tokens)


def _enter(cwd: str | None, target: str | None) -> str | None:
    if cwd is None or target is None or target == "-" or _dynamic(target) or target.startswith("~"):
        return None
    return posixpath.normpath(posixpath.join(cwd, target)) if target else cwd


#: A character that needs the full reading: quoting, expansion, grouping,
#: redirection, comments, a newline (plain words and ``; | &`` lists do not).
_NOT_SIMPLE = re.compile(r"""['"\\$`()<>#\n{}\[\]!]""")
_LIST_OPERATORS = re.compile(r"[;|&]+")
_BLANKS = re.compile(r"[ \t\r]+")
#: First words the full reading treats specially (it follows ``cd``, skips
#: keywords and file descriptors, looks past ``exec``...).
_SPECIAL_FIRST = frozenset({"cd", "pushd", "popd", "case", "for", "select", "function"})


def _simple_commands(line: str) -> tuple[CommandWord, ...] | None:
    """The programs of a line of plain words and ``;``, ``|``, ``&`` lists; ``None`` for others.

    Most verify commands are such lines (``PYTHONPATH=src pytest -q && ruff
    check``): for them this is the same answer as the full reading, at a
    fraction of its cost. Anything else returns ``None``.
    """
    if _NOT_SIMPLE.search(line):
        return None
    found: list[CommandWord] = []
    for segment in _LIST_OPERATORS.split(line):
        for word in _BLANKS.split(segment):
            if not word or _ASSIGNMENT.match(word):
                continue
            if (
                word in _SPECIAL_FIRST
                or word in _PREFIX_BUILTINS
                or word in _LEADING_KEYWORDS
                or word in _CLOSING_KEYWORDS
                or word.isdigit()
            ):
                return None
            if word not in BUILTINS:
                found.append(CommandWord(word, ""))
            break
    return tuple(found)


@lru_cache(maxsize=4096)
def external_commands(line: str) -> tuple[CommandWord, ...]:
    """The programs ``line`` would look up, in order; raises :class:`ShellSyntaxError`.

    See the module docstring for what is left out. Answers are remembered: a
    plan checked again after an edit (or ``forge validate --all`` after
    ``forge plan check``) has mostly the same commands.
    """
    simple = _simple_commands(line)
    return simple if simple is not None else _read_line(line)


def _read_line(line: str) -> tuple[CommandWord, ...]:
    """The full reading of :func:`external_commands`: every token, every rule."""
    tokens = _tokens(line)
    found: list[CommandWord] = []
    functions: set[str] = set()
    cwd: str | None = ""
    saved: list[str | None] = []  # cwd at each open subshell
    heredocs: list[str] = []  # delimiters whose bodies start at the next newline
    at_start = True  # the next word is in command position
    index = 0
    while index < len(tokens):
        token = tokens[index]
        text = token.text
        index += 1
        if not (at_start or token.operator or _MAYBE_SPECIAL.search(text)):
            continue  # an ordinary argument: most words of most lines
        following = tokens[index] if index < len(tokens) else None
        if token.operator:
            if text in _HEREDOC:
                if following is not None and not following.operator:
                    # ``<<-EOF`` reaches us as ``<<`` and ``-EOF``
                    heredocs.append(following.text.removeprefix("-"))
                    index += 1
            elif text == "\n" and heredocs:
                for delimiter in heredocs:
                    index = _skip_to(tokens, index, delimiter)
                heredocs.clear()
                at_start = True
            elif text == "(":
                if not at_start or (following is not None and following.text == "("):
                    # ``$( ... )`` in an argument, or ``(( arithmetic ))``: runs no program
                    index = _skip_balanced(tokens, index - 1)
                    at_start = False
                else:
                    saved.append(cwd)
            elif text == ")":
                if saved:
                    cwd = saved.pop()
                at_start = False
            elif text in _SEPARATORS:
                at_start = True
            elif following is not None and not following.operator:
                index += 1  # a redirection's target is a file, not a command
            continue
        if text.startswith("#"):  # a comment runs to the end of the line
            while index < len(tokens) and tokens[index].text != "\n":
                index += 1
            continue
        if text.count("`") % 2:  # an unclosed backtick: skip to the word that closes it
            while index < len(tokens) and tokens[index].text.count("`") % 2 == 0:
                index += 1
            index += 1
            at_start = False
            continue
        if text.endswith("$") and following is not None and following.text == "(":
            index = _skip_balanced(tokens, index)
            if not _ASSIGNMENT.match(text):
                at_start = False
            continue
        if not at_start:
            continue
        if following is not None and following.operator and following.text == "(":
            # ``name() { ...; }`` defines a function, it runs nothing yet
            functions.add(text)
            index = _skip_balanced(tokens, index)
            continue
        if text.isdigit() and following is not None and following.operator:
            continue  # a file descriptor: ``2>/dev/null cmd``
        if _ASSIGNMENT.match(text) or text in _LEADING_KEYWORDS:
            continue
        at_start = False
        if _dynamic(text) or text in functions or text in _CLOSING_KEYWORDS:
            continue
        if text == "[[":
            index = _skip_to(tokens, index, "]]")
        elif text == "case":
            index = _skip_to(tokens, index, "esac")
        elif text in {"for", "select"}:
            index = _skip_to_separator(tokens, index)
        elif text == "function":
            if following is not None and not following.operator:
                functions.add(following.text)
                index += 1
            at_start = True
        elif text in {"cd", "pushd"}:
            while index < len(tokens) and tokens[index].text in {"-L", "-P", "-e", "-@"}:
                index += 1
            argument = tokens[index] if index < len(tokens) else None
            cwd = _enter(cwd, None if argument is None or argument.operator else argument.text)
        elif text == "popd":
            cwd = None
        elif text in _PREFIX_BUILTINS:
            options = []
            while index < len(tokens) and tokens[index].text.startswith("-"):
                options.append(tokens[index].text)
                index += 1
            at_start = not {"-v", "-V"} & set(options) and text != "builtin"
        elif text not in BUILTINS:
            found.append(CommandWord(text, cwd))
    return tuple(found)
