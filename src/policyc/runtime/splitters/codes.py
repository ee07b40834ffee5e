"""Code strings: the files and commands an interpreter's `-c` or `-e` names.

A model refused `cat .env` tries `python3 -c 'print(open(".env").read())'`
next, or `node -e 'require("child_process").execSync("cat .env")'`. What
code does is not known here, but a string literal in it that names a file
is a file the code may read or write, and one that reads as a command is a
command it may run: each is held to the deny and ask rules of those tools,
as the files a reader names are (a literal names no file most of the time,
and then meets no rule). Code that builds a name (`".e" + "nv"`), reads it
from elsewhere or decodes it is not read: this raises the bar for the plain
ways, it does not bound what code can do.
"""

from __future__ import annotations

from .programs import PYTHONS

# Each interpreter's options whose value is code: (letters, long options,
# letters that take a value of another kind, attached or the next word,
# letters after whose value the interpreter reads no more options: python's
# `-c CODE` and `-m MODULE`, whose later words are the code's arguments).
# The names are `programs.program_name`'s (lower case); `deno eval CODE`
# is deno's.
_PYTHON = ("c", (), "WXm", "cm")
_NODE = ("ep", ("--eval", "--print"), "Cr", "")
CODE_OPTIONS = {
    **dict.fromkeys((*PYTHONS, "pypy", "pypy3"), _PYTHON),
    **dict.fromkeys(("node", "nodejs", "bun", "ts-node", "tsx"), _NODE),
    "perl": ("eE", (), "IMmxCdDilF0", ""),
    "ruby": ("e", (), "IrCFEKTxW0", ""),
    "php": ("r", ("--run",), "cdtzfF", ""),
    "rscript": ("e", (), "", ""),
    "julia": ("eE", ("--eval", "--print"), "ptJCHL", ""),
    "elixir": ("e", ("--eval",), "r", ""),
    **dict.fromkeys(("lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4"), ("e", (), "l", "")),
    "osascript": ("e", (), "ls", ""),  # `do shell script "…"`: a literal that is a command
}
CODE_RUNNERS = frozenset(CODE_OPTIONS) | {"deno"}

MAX_LITERALS = 64  # read in a code string; past them, the rest is not read


def code_strings(words: list[str], program: str) -> list[str]:
    """The code an interpreter is given to run (`python3 -c CODE`, `node
    -e CODE`, `perl -ne CODE`, `deno eval CODE`), before its script or the
    script's arguments."""
    if program == "deno":
        return words[2:3] if words[1:2] == ["eval"] else []
    letters, longs, valued, ends = CODE_OPTIONS[program]
    codes: list[str] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        if word == "--" or word[:1] != "-" or word == "-":
            return codes  # the script, the input, or the script's arguments next
        option, eq, value = word.partition("=")
        if word[:2] == "--":
            if option in longs:
                if eq:
                    codes.append(value)
                elif i + 1 < n:
                    codes.append(words[i + 1])
                    i += 1
            i += 1
            continue
        for k in range(1, len(word)):
            letter = word[k]
            if letter in letters or letter in valued:
                rest = word[k + 1 :]
                if not rest and i + 1 < n:
                    rest = words[i + 1]
                    i += 1
                if letter in letters:
                    codes.append(rest)
                if letter in ends:
                    return codes
                break
        i += 1
    return codes


def string_literals(code: str) -> list[str]:
    """The text of each string literal in `code` written in `'`, `"` or
    `` ` `` (a backslash escapes the next character; an unclosed one runs
    to the end), up to MAX_LITERALS. (By `str.find`, not a character at a
    time: a third of the cost, measured.)"""
    out: list[str] = []
    i, n = 0, len(code)
    while len(out) < MAX_LITERALS:
        starts = [k for k in (code.find("'", i), code.find('"', i), code.find("`", i)) if k >= 0]
        if not starts:
            return out
        start = min(starts)
        quote, i = code[start], start + 1
        chars: list[str] = []
        while True:
            end, slash = code.find(quote, i), code.find("\\", i)
            if 0 <= slash and (end < 0 or slash < end):  # an escaped character
                chars += (code[i:slash], code[slash + 1 : slash + 2] or "\\")
                i = slash + 2
                continue
            chars.append(code[i:end] if end >= 0 else code[i:])
            i = end + 1 if end >= 0 else n
            break
        out.append("".join(chars))
    return out


def may_be_path(literal: str) -> bool:
    """Whether a literal is read as a path: not empty, on one line, and one
    a path can be (no NUL; `~` alone or before `/` only)."""
    return (
        bool(literal)
        and "\n" not in literal
        and "\x00" not in literal
        and (literal[:1] != "~" or literal == "~" or literal[:2] == "~/")
    )
