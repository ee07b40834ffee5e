"""What a reader's or writer's word with a variable names.

`cat $F`, `echo .env | xargs cat` and `while read f; do cat "$f"; done`
read a file no rule saw: the word was left out of the files a command
names, so `Read(./.env)` did not see them. A word whose value is not known
here (a variable's, what xargs feeds) now stands for any file
(`words.ANYWHERE`, every file under `/`): held, as `grep -r x /` is, to
every deny and ask rule of that tool, and lifted only by a carve-out that
covers every file.

Values that are known are read instead, so the everyday loop is not held to
every rule: `$HOME` is `~` and `$PWD` where the shell is (at a word's
start), and a `for` loop's variable each word of its list (`for f in
*.py; do cat "$f"; done` reads what `cat *.py` reads), unless the line sets
that variable some other way too (`NAME=…`, `read NAME`, `${NAME:=…}`, …),
or uses it outside the loop; a line that sources a script (`. ./env.sh`),
which may set any, knows none.

A command with a variable is also read, for deny and ask rules, with each
value the line may give it (`possible_values`, `substituted`): `X=push;
git $X` is `git push` too. Those readings only add a held part, so they
need not ask whether the value was set when the command ran.
"""

from __future__ import annotations

import re
from itertools import product

from .words import Word, is_input

# A reading of a command's words for each combination of its variables'
# values; past this many, a word with several is read as not known.
MAX_READINGS = 16

# A variable as a word names it: `$NAME` or `${NAME}`. Any other `$` left
# (`$1`, `$@`, `${NAME:-x}`, `${#NAME}`) is not known.
_REFERENCE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
# A value not known here, among a word's possible values.
_UNKNOWN_VALUE = "\0"
# Where the shell's own variables stand, at a word's start.
_AT_START = {"HOME": "~", "PWD": "."}
# Builtins that set or unset the variables their words name.
NAMING_BUILTINS = frozenset(
    {"read", "mapfile", "readarray", "getopts", "printf", "unset", "export", "declare"}
    | {"typeset", "local", "readonly", "let", "select"}
)


def loop_header(tokens: list, i: int, end: int, loops: list) -> None:
    """Record `for NAME in WORDS` (tokens[i] is NAME, tokens[end] is `do`):
    (NAME, the offset where the loop starts, where its `done` is, its
    words); `shell.commands` sets the third. `for NAME; do` (the script's
    arguments) and an empty list leave NAME not known."""
    name = tokens[i]
    if type(name) is not Word or name.quoted or i + 1 >= end:
        return
    keyword = tokens[i + 1]
    if type(keyword) is not Word or keyword.value != "in" or keyword.quoted:
        return
    words = [tok for tok in tokens[i + 2 : end] if type(tok) is Word]
    if words:
        loops.append((name.value, name.start, 1 << 62, words))


def bindings(loops: list, commands: list, source: str, expand) -> dict:
    """NAME -> [(from, to, values)]: where in the line each of the values
    the line gives a variable it names holds. `$HOME` and `$PWD` hold
    everywhere; a loop's variable in its loop's body only (after `done`
    it may have been set in a subshell, or the list been empty), less what
    the line sets otherwise. `expand` brace-expands a loop's words as the
    shell does."""
    if any(_sources_a_script(command.words) for command in commands):
        return {}  # `. ./env.sh` may set any variable (and cd): none is known
    named = {a or b for a, b in _REFERENCE.findall(source)}
    bound: dict[str, list] = {
        name: [(-1, 1 << 62, [value])] for name, value in _AT_START.items() if name in named
    }
    for name, start, end, words in loops:
        if name not in named:
            continue
        if name in _AT_START:  # `for HOME in …`: not read here
            bound[name] = [(-1, 1 << 62, [_UNKNOWN_VALUE])]
            continue
        values = [_UNKNOWN_VALUE if w.expands else w.value for w in expand(words, 0, source)]
        bound.setdefault(name, []).append((start, end, values))
    return {
        name: spans for name, spans in bound.items() if not _set_otherwise(name, commands, source)
    }


def _sources_a_script(words: list[Word]) -> bool:
    """`source FILE` or `. FILE` (after `builtin` or `command` too)."""
    if words and words[0].value in ("builtin", "command"):
        words = words[1:]
    return bool(words) and words[0].value in ("source", ".") and not words[0].quoted


def _set_otherwise(name: str, commands: list, source: str) -> bool:
    """Whether the line may set NAME other than by a `for` header: an
    assignment word (`NAME=…`, `NAME+=…`, `NAME[0]=…`, also after export,
    env or let), a builtin naming it, or `${NAME=…}`."""
    if "${" + name in source and re.search(r"\$\{" + name + r"(\[[^]]*\])?:?=", source):
        return True
    for command in commands:
        words = command.words
        naming = bool(words) and words[0].value in NAMING_BUILTINS
        for word in words:
            value = word.value
            if value.startswith(name):
                rest = value[len(name) :]
                if rest[:1] == "=" or rest[:2] == "+=" or rest[:1] == "[" and "=" in rest:
                    return True
                if naming and not rest:
                    return True
            elif naming and value[:1] == "-" and value.endswith(name):
                return True  # `read -r -a NAME`, `printf -vNAME`
    return False


def values_of(word: Word, source: str, bound: dict | None) -> list[str] | None:
    """The values a word may have; None if not known here (xargs' input,
    a variable the line does not set, a quote or escape around a `$`)."""
    if is_input(word):
        return None
    if not word.expands:
        return [word.value]
    if bound is None:
        return None

    def lookup(name: str, at: int) -> list[str] | None:
        # Inside a loop's body: any value of the loops of that name (after
        # an inner loop of the same name, it holds that loop's last value).
        spans = bound.get(name, ())
        if not any(start < word.start < end for start, end, _ in spans):
            return None
        if name in _AT_START and at != 0:
            return None
        return [value for _, _, given in spans for value in given]

    return _expanded(word, source, lookup)


def _expanded(word: Word, source: str, lookup, split: bool = False) -> list[str] | None:
    """The word with each `$NAME` replaced by each of `lookup(NAME, where
    it stands in the word)`; None if a value is not known (a name lookup
    does not know, any other `$`, a quote or escape around a `$`, a value
    with a space where the shell would split it, unless `split`: the
    caller splits an unquoted word's values into words)."""
    if word.end <= word.start:
        return None
    raw = source[word.start : word.end]
    if "'" in raw or "\\" in raw:  # `'$HOME'$f`: which `$` expands is not read here
        return None
    # A space in a value: one word if the whole word is quoted, words if none of it is.
    spaced = raw[:1] == '"' == raw[-1:] and raw.count('"') == 2 or split and '"' not in raw
    value = word.value
    out, last = [""], 0
    for match in _REFERENCE.finditer(value):
        values = lookup(match[1] or match[2], match.start())
        if not values or _UNKNOWN_VALUE in values:
            return None
        literal = value[last : match.start()]
        if "$" in literal:
            return None
        if not spaced and any(c.isspace() for v in values for c in v):
            return None
        out = [piece + literal + v for piece in out for v in values]
        if len(out) > MAX_READINGS:
            return None
        last = match.end()
    if "$" in value[last:]:
        return None
    return [piece + value[last:] for piece in out]


def given(word: Word, source: str, possible: dict | None) -> bool:
    """Whether the line gives a value to each variable of the word (so
    `substituted` reads the command with them)."""
    if not possible or is_input(word):
        return False
    return _expanded(word, source, lambda name, at: possible.get(name), split=True) is not None


def readings(words: list[Word], source: str, bound: dict | None, unknown: str) -> list[list[str]]:
    """The command's words as values, once for each combination of its
    variables' values (`unknown` for a word not known)."""
    choices = []
    count = 1
    for word in words:
        values = values_of(word, source, bound)
        if values is None:
            values = [unknown]
        elif count * len(values) > MAX_READINGS:
            values = [unknown]
        count *= len(values)
        choices.append(values)
    if count == 1:
        return [[values[0] for values in choices]]
    return [list(reading) for reading in product(*choices)]


def possible_values(loops: list, commands: list, source: str, expand) -> dict:
    """NAME -> every value the line may give it: its loops' words, and
    each `NAME=VALUE` word with no expansion (after export, declare, env
    or alone). Whether it was set when read is not asked: the readings
    they make are only added to the command as written (`substituted`)."""
    named = {a or b for a, b in _REFERENCE.findall(source)}
    possible: dict[str, list[str]] = {}
    for name, _, _, words in loops:
        if name in named:
            possible.setdefault(name, []).extend(
                w.value for w in expand(words, 0, source) if not w.expands
            )
    for command in commands:
        for word in command.words:
            name, eq, value = word.value.partition("=")
            if eq and name in named and not word.expands:
                if source.startswith(name + "=", word.start):  # the name and `=` unquoted
                    possible.setdefault(name, []).append(value)
    return {name: list(dict.fromkeys(values)) for name, values in possible.items() if values}


def substituted(words: list[Word], source: str, possible: dict, make_word) -> list[list[Word]]:
    """The command's words with its variables replaced by the values the
    line may give them (`X=push; git $X` is `git push` too), up to
    MAX_READINGS of them; an unquoted value is split into words, as the
    shell splits it. Empty when no word has a value the line gives."""
    choices: list[list[list[Word]]] = []
    count = 1
    changed = False
    for word in words:
        values = None
        if word.expands and not is_input(word):
            values = _expanded(word, source, lambda name, at: possible.get(name), split=True)
        if values is None or count * len(values) > MAX_READINGS:
            choices.append([[word]])
            continue
        count *= len(values)
        changed = True
        split = '"' not in source[word.start : word.end]
        choices.append(
            [
                [make_word(part, word) for part in (value.split() if split else [value])]
                for value in values
            ]
        )
    if not changed:
        return []
    return [[w for group in reading for w in group] for reading in product(*choices)]
