"""Database clients' command lines: sqlite3's, psql's and mysql's (and
mariadb's) shell escapes, and the files they name. `sqlite3 app.db
".shell rm -rf /"`, `psql -c '\\! rm -rf /'` and `mysql -e 'system rm -rf
/'` ran rm past a deny on `rm:*`: those commands are held, as ssh's are.
sqlite3's database is read and edited, `.read`, `.import` and `.open`'s
files are read, and `.once`, `.output`, `.backup` and `.save`'s are
edited; psql's `\\i`, `\\copy` and `-f` files and mysql's `source`, `tee`
and `LOAD DATA LOCAL INFILE` ones likewise, held to those tools' deny and
ask rules. `.load` (code loaded into sqlite3), `-init FILE` (dot-commands
from a file), psql's backquotes and `\\setenv` are refused. What a client
reads from its input or a file of commands is not read here, as an
interpreter's code is not (the README). Read for `takers`.
"""

from __future__ import annotations

import re

from .codes import may_be_path, string_literals
from .words import HELD, SplitError, Word, is_input, opens_shell, part_of

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


def _sql_files(word: Word) -> list:
    """The files a SQL string's literals may name, read and written:
    `readfile('.env')`, `writefile(…)`, `ATTACH 'x.db'`, `VACUUM INTO 'x'`,
    duckdb's `FROM '.env'` and `COPY t TO '…'` (`codes.string_literals`;
    a literal that names no file meets no rule)."""
    out: list = []
    sql = "\n".join(line for line in word.value.splitlines() if line.strip()[:1] != ".")
    for literal in string_literals(sql):  # (a dot-command's files are `_dot_commands`')
        if may_be_path(literal):
            out += [("reads", part_of(word, literal)), ("edits", part_of(word, literal))]
    return out


def _sqlite_commands(words: list[Word], name: str) -> list | None:
    """sqlite3's, and duckdb's (its shell is sqlite3's, with `-c SQL` and
    `-s SQL` run before it exits)."""
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
        if option in _SQLITE_VALUES and i < n or name == "duckdb" and option in ("-c", "-s"):
            if option in ("-cmd", "-c", "-s") and i < n:
                taken += _dot_commands(words[i], name) + _sql_files(words[i])
            i += 1
        elif option in _SQLITE_TWO_VALUES:
            i += 2
    if operands and operands[0].value not in ("", ":memory:"):
        taken += [("reads", operands[0]), ("edits", operands[0])]  # the database
    for word in operands[1:]:
        taken += _dot_commands(word, name) + _sql_files(word)
    return [HELD] + taken if taken else None


# psql 12 to 17: short options that take a value, and long ones by name
# (getopt_long takes any prefix that names one option: `--comm`).
_PSQL_VALUES = frozenset("cdfFhLopPRTUv")
_PSQL_LONG = {
    "--command": "-c",
    "--dbname": "-d",
    "--file": "-f",
    "--field-separator": "-F",
    "--host": "-h",
    "--log-file": "-L",
    "--output": "-o",
    "--port": "-p",
    "--pset": "-P",
    "--record-separator": "-R",
    "--table-attr": "-T",
    "--username": "-U",
    "--set": "-v",
    "--variable": "-v",
}
# Meta-commands that read or write the file they are given, or run a
# command given as `|CMD` (`\o |CMD` runs CMD on psql's output).
_PSQL_READS = frozenset({"i", "ir", "include", "include_relative", "lo_import"})
_PSQL_WRITES = frozenset({"o", "out", "g", "gx", "w", "write", "s", "lo_export"})


def _long_option(option: str, names) -> str:
    """The long option `option` names, whole or by a prefix only it has."""
    found = [name for name in names if name.startswith(option)]
    return option if option in found else found[0] if len(found) == 1 else ""


def _psql_meta(word: Word, name: str) -> list:
    r"""What a `-c` meta-command (`\! CMD`, `\o |CMD`, `\copy … to program
    'CMD'`, `\i FILE`) runs, reads and writes. psql runs one meta-command
    of a -c string, and ignores what follows it."""
    line = word.value.lstrip().split("\n", 1)[0].replace("\t", " ")
    head, _, rest = line[1:].partition(" ")
    command, backslash, _ = head.partition("\\")  # an unquoted backslash ends it
    rest = "" if backslash else rest.strip()
    if command == "!":  # the rest of the line is the shell's
        if not rest:
            raise opens_shell(f"{name} \\!")
        return [("string", part_of(word, rest))]
    if command == "copy":  # the rest of the line, as psql reads it
        return _psql_copy(word, rest)
    if command in _PSQL_WRITES and rest[:1] == "|":  # `\o |CMD`: the rest of the line
        return [("string", part_of(word, rest[1:].strip()))]
    arguments = rest.split("\\", 1)[0]  # an unquoted backslash ends them
    if "`" in arguments:  # backquotes: a shell command's output
        raise SplitError(
            f"{name} with a backquoted command in a meta-command cannot be evaluated statically"
        )
    if command in ("setenv", "e", "edit", "ef", "ev"):  # the pager's or editor's command
        raise SplitError(f"{name} \\{command} cannot be evaluated statically")
    first = arguments.split(" ", 1)[0]
    if command == "lo_export":
        first = arguments.split(" ")[1] if arguments.count(" ") else ""
    file = _sql_string(first) if first[:1] == "'" else first
    if not first or command not in _PSQL_READS and command not in _PSQL_WRITES:
        return []
    if file is None or file[:1] == ":":  # `:name`: a psql variable's value
        raise SplitError(f"{name} \\{command} with such a file cannot be evaluated statically")
    return [("reads" if command in _PSQL_READS else "edits", part_of(word, file))]


def _psql_copy(word: Word, rest: str) -> list:
    """`\\copy TABLE|(QUERY) to|from FILE|program 'CMD'|stdin|stdout …`, run
    by psql here, unlike SQL's COPY. A query may hold `to` and `from`
    itself: each place is read, a word that is no file adding nothing."""
    taken: list = []
    lowered = rest.lower()
    for direction, kind in ((" to ", "edits"), (" from ", "reads")):
        at = lowered.find(direction)
        while at >= 0:
            target = rest[at + len(direction) :].lstrip()
            first = target.split(" ", 1)[0]
            if first.lower() == "program":
                command = _sql_string(target[len(first) :].lstrip())
                if command is None:
                    raise SplitError(
                        "psql \\copy … program without a quoted command cannot be "
                        "evaluated statically"
                    )
                taken.append(("string", part_of(word, command)))
            elif first and first.lower() not in ("stdin", "stdout", "pstdin", "pstdout"):
                file = _sql_string(target)
                taken.append((kind, part_of(word, first if file is None else file)))
            at = lowered.find(direction, at + 1)
    return taken


def _sql_string(text: str) -> str | None:
    """The SQL string literal `text` starts with (`'it''s'`, MySQL's `"x"`),
    or None; one with a backslash (an escape to MySQL) too."""
    quote = text[:1]
    if quote not in ("'", '"'):
        return None
    out, i = [], 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            return None
        if c == quote:
            if text[i + 1 : i + 2] != quote:
                return "".join(out)
            i += 1
        out.append(c)
        i += 1
    return None


_PROGRAM = re.compile(r"\bprogram\b", re.IGNORECASE)


def _sql_programs(word: Word, name: str) -> list:
    """The commands a server on this machine may run for SQL's `COPY …
    TO|FROM PROGRAM 'CMD'`: held, as a command this machine runs. Any
    `program` but one before a plain string is refused (`$$…$$`, `E'…'`)."""
    taken = []
    for match in _PROGRAM.finditer(word.value):
        command = _sql_string(word.value[match.end() :].lstrip())
        if command is None:
            raise SplitError(
                f"{name} SQL naming a program without a plain string cannot be evaluated statically"
            )
        taken.append(("string", part_of(word, command)))
    return taken


def _client_options(
    words: list[Word], short: frozenset, long: dict, attached_only: tuple = ()
) -> list[tuple[str, Word]]:
    """The options of a database client that take a value, with it:
    `(option, value)`, a long one named by its short letter where it has
    one (`long` maps each long name, or a prefix only it has, to it).
    Clusters end at a letter with a value (`-Atc SQL`); a letter or long
    option in `attached_only` takes only what is attached (mysql's
    `-pSECRET`, `--pager=CMD`).
    Options not listed are read as flags: a word so read as an option only
    reads more of the call."""
    found: list[tuple[str, Word]] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        value = word.value
        i += 1
        if value[:1] != "-" or value == "-" or value == "--":
            continue  # the database and the user, wherever they stand (getopt permutes)
        option, argument = "", None
        if value[:2] == "--":
            long_name, eq, attached = value.partition("=")
            option = long.get(_long_option(long_name, long), "")
            argument = part_of(word, attached) if eq else None
        else:
            for k in range(1, len(value)):
                if value[k] in attached_only:
                    break
                if value[k] in short:
                    option = "-" + value[k]
                    argument = part_of(word, value[k + 1 :]) if k + 1 < len(value) else None
                    break
        if not option:
            continue
        if argument is None:
            if option in attached_only or i >= n:
                continue
            argument, i = words[i], i + 1
        found.append((option, argument))
    return found


def _psql_commands(words: list[Word], name: str) -> list | None:
    taken: list = []
    for option, argument in _client_options(words, _PSQL_VALUES, _PSQL_LONG):
        if option == "-c":
            if argument.expands or is_input(argument):
                raise SplitError(
                    f"a {name} -c string with a variable cannot be evaluated statically"
                )
            if argument.value.lstrip()[:1] == "\\":
                taken += _psql_meta(argument, name)
            else:
                taken += _sql_programs(argument, name)
        elif option == "-f" and argument.value != "-":
            taken.append(("reads", argument))  # its commands are not read, as a script's are not
        elif option in ("-o", "-L"):
            if argument.value[:1] == "|" and option == "-o":  # `-o '|CMD'`, as `\\o`
                taken.append(("string", part_of(argument, argument.value[1:])))
            else:
                taken.append(("edits", argument))
    return [HELD] + taken if taken else None


# The mysql and mariadb clients: short options that take a value, and the
# client's own commands in `-e`: a short form anywhere in a line, a long
# one first in it, each taking the rest of the line.
_MYSQL_VALUES = frozenset("DehPSu")
_MYSQL_SHORT = {"\\!": "string", "\\P": "string", "\\T": "edits", "\\.": "reads"}
_MYSQL_LONG = {"system": "string", "pager": "string", "tee": "edits", "source": "reads"}
# The long options read, by name (`--pager`'s value is attached or none).
_MYSQL_LONG_OPTIONS = {
    "--execute": "-e",
    "--pager": "--pager",
    "--tee": "--tee",
    "--defaults-file": "--defaults-file",
    "--defaults-extra-file": "--defaults-extra-file",
}
_MYSQL_LOCAL_INFILE = re.compile(r"\blocal\s+infile\s+", re.IGNORECASE)


def _mysql_execute(word: Word, name: str) -> list:
    taken: list = []
    for line in word.value.split("\n"):
        first, _, after = line.strip().partition(" ")
        kind = _MYSQL_LONG.get(first.lower().rstrip(";"))
        if kind and after.strip():
            taken.append((kind, part_of(word, after.strip().rstrip(";").strip())))
        for short, kind in _MYSQL_SHORT.items():
            at = line.find(short)
            if at < 0:
                continue
            rest = line[at + len(short) :].strip().rstrip(";").strip()
            if rest:
                taken.append((kind, part_of(word, rest)))
            elif short == "\\!":
                raise opens_shell(f"{name} \\!")
    for match in _MYSQL_LOCAL_INFILE.finditer(word.value):  # a file sent to the server
        file = _sql_string(word.value[match.end() :])
        if file is None:
            raise SplitError(
                f"{name} LOAD DATA LOCAL INFILE without a quoted file cannot be evaluated statically"
            )
        taken.append(("reads", part_of(word, file)))
    return taken


def _mysql_commands(words: list[Word], name: str) -> list | None:
    taken: list = []
    for option, argument in _client_options(
        words, _MYSQL_VALUES, _MYSQL_LONG_OPTIONS, ("p", "#", "--pager")
    ):
        if option == "-e":
            if argument.expands or is_input(argument):
                raise SplitError(
                    f"a {name} -e string with a variable cannot be evaluated statically"
                )
            taken += _mysql_execute(argument, name)
        elif option == "--pager" and argument.value:  # else $PAGER, which is not known here
            taken.append(("string", argument))
        elif option == "--tee":
            taken.append(("edits", argument))
        elif option in ("--defaults-file", "--defaults-extra-file"):
            taken.append(("reads", argument))
    return [HELD] + taken if taken else None


def input_commands(taken: list | None, body: str, at: Word, name: str) -> list | None:
    """`taken`, and what a client's input from a here-document does
    (`sqlite3 app.db <<'EOF'`, `psql <<'EOF'`), read as its arguments are:
    sqlite3's and duckdb's dot-commands and SQL, psql's meta-commands (one a
    line) and the programs its SQL runs, mysql's and mariadb's commands
    (`at`: the word the parts are reported at)."""
    word = part_of(at, body)
    if name in ("sqlite3", "duckdb"):
        more = _dot_commands(word, name) + _sql_files(word)
    elif name == "psql":
        more = _sql_programs(word, name)
        for line in body.splitlines():
            if line.lstrip()[:1] == "\\":
                more += _psql_meta(part_of(at, line), name)
    else:
        more = _mysql_execute(word, name)
    if not more:
        return taken
    return (taken or [HELD]) + more


TAKERS = {
    "sqlite3": _sqlite_commands,
    "duckdb": _sqlite_commands,
    "psql": _psql_commands,
    "mysql": _mysql_commands,
    "mariadb": _mysql_commands,
}
