"""sqlite3's command line: the shell commands its dot-commands run and the
files they and its database name. `sqlite3 app.db ".shell rm -rf /"` and
`.once '|rm -rf /'` ran rm past a deny on `rm:*`: those commands are held,
as ssh's are. The database is read and edited, `.read`, `.import` and
`.open`'s files are read, and `.once`, `.output`, `.backup` and `.save`'s
are edited, held to those tools' deny and ask rules. `.load` (code loaded
into sqlite3) and `-init FILE` (dot-commands from a file) are refused.
What sqlite3 reads from its input is not read here, as an interpreter's
code is not (the README). Read for `takers`.
"""

from __future__ import annotations

from .words import HELD, SplitError, Word, part_of

# sqlite3 3.3x and 3.4x: options that take the next word as their value.
_SQLITE_VALUES = frozenset(
    """-cmd -init -A -separator -newline -nullvalue -vfs -maxsize -mmap -escape""".split()
)
_SQLITE_TWO_VALUES = frozenset({"-pagecache", "-lookaside"})
_DOT_RUNS = frozenset({".shell", ".system"})
_DOT_PIPES = frozenset({".once", ".output", ".read", ".import"})  # `'|CMD'`
_DOT_READS = frozenset({".read", ".import", ".open"})
_DOT_WRITES = frozenset({".once", ".output", ".backup", ".save"})


def _dot_commands(word: Word, name: str) -> list:
    """What the dot-commands in one argument (`.shell …`, one a line) do."""
    taken: list = []
    for line in word.value.splitlines():
        command, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if command == ".load":
            raise SplitError(f"{name} .load (code loaded into it) cannot be evaluated statically")
        if command in _DOT_RUNS:
            taken.append(("string", part_of(word, rest)))
            continue
        target = rest.split(" ")[0].strip("'\"") if rest else ""
        if command in _DOT_PIPES and target[:1] == "|":
            taken.append(("string", part_of(word, rest.strip("'\"")[1:])))
        elif command in _DOT_READS and target:
            taken.append(("reads", part_of(word, target)))
        elif command in _DOT_WRITES and target and target[:1] != "-":
            taken.append(("edits", part_of(word, target)))
    return taken


def _sqlite_commands(words: list[Word], name: str) -> list | None:
    taken: list = []
    operands: list[Word] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        value = word.value.lstrip("-")
        i += 1
        if word.value[:1] != "-" or len(word.value) == 1:
            operands.append(word)
            continue
        option = "-" + value  # `--cmd` is `-cmd`
        if option == "-init":
            raise SplitError(f"{name} -init (commands from a file) cannot be evaluated statically")
        if option in _SQLITE_VALUES and i < n:
            if option == "-cmd":
                taken += _dot_commands(words[i], name)
            i += 1
        elif option in _SQLITE_TWO_VALUES:
            i += 2
    if operands and operands[0].value not in ("", ":memory:"):
        taken += [("reads", operands[0]), ("edits", operands[0])]  # the database
    for word in operands[1:]:
        taken += _dot_commands(word, name)
    return [HELD] + taken if taken else None


TAKERS = {"sqlite3": _sqlite_commands}
