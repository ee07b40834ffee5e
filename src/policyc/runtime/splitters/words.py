"""The shell splitter's words, the error it raises, and a program's options
read from them as its getopt reads them: shared by the parser (`shell`) and
the readers of what programs run (`programs`, `wrappers`, `takers`)."""

from __future__ import annotations

from collections import namedtuple

from ..paths import ANY_FILE, EVERY_FILE, IF_FOLDER, IF_WORKTREE_FOLDER, WORKTREE_FILES

# What a program reads or changes under a folder (`rm -r DIR`, `grep -r x
# DIR`, `tar -x`) is a subject too: the folder, `/`, and a segment that
# stands for its files (see `paths.EVERY_FILE`), sent to the file tools and
# normalised as the folder is. A constraint, held to deny and ask rules only:
# a deny on a file there (`./.env`) refuses the command; no rule is needed to
# allow it.


def files_in(folder: str) -> str:
    """The path that stands for every file under `folder`."""
    return folder.rstrip("/") + "/" + EVERY_FILE


def every_file_folder(path: str) -> str | None:
    """The folder a path that stands for every file under it names
    (`files_in`'s inverse: `/` for ANYWHERE), else None."""
    if not path.endswith("/" + EVERY_FILE):
        return None
    return path[: -len(EVERY_FILE) - 1] or "/"


# What a word not known here (a variable's value, xargs' input) may name:
# any file, so every file stands for it (see `variables`).
ANYWHERE = files_in("/")


def worktree_files_in(folder: str) -> str:
    """The path that stands for the files of git's work tree under `folder`
    (what `git clean` removes)."""
    return folder.rstrip("/") + "/" + WORKTREE_FILES


def and_worktree_under(paths: list[str]) -> list[str]:
    """Each path, then the work tree's files under each."""
    return paths + [worktree_files_in(path) for path in paths if path]


def under_if_folder(path: str, worktree: bool = False) -> str:
    """The path that stands for what is under `path` if it is a folder (mv's
    and ln's sources; git's pathspecs, with `worktree`): `paths.IF_FOLDER`."""
    return path.rstrip("/") + "/" + (IF_WORKTREE_FOLDER if worktree else IF_FOLDER)


def and_under_if_folders(paths: list[str], worktree: bool = False) -> list[str]:
    """Each path, then what is under each if it is a folder."""
    return paths + [under_if_folder(path, worktree) for path in paths if path]


def a_file_in(folder: str) -> str:
    """The path that stands for a file in `folder` whose name the command
    does not tell (one the server picks for `curl -O`, split's pieces): held,
    as a search tool's files are (`paths.ANY_FILE`), to rules on every file
    there, not to a rule on one of them."""
    return folder.rstrip("/") + "/" + ANY_FILE


def and_files_under(paths: list[str]) -> list[str]:
    """Each path, then what is under each (`rm -r`, `find -delete`)."""
    return paths + [files_in(path) for path in paths if path]


class SplitError(ValueError):
    """The command cannot be evaluated statically; the reason is read to the model."""


def opens_shell(name: str, hint: str = "") -> SplitError:
    """The refusal of a program that, given no command, starts a shell that
    reads its commands from the input: `echo 'rm -rf /' | sudo su`."""
    return SplitError(
        f"{name} opening a shell that reads commands from its input cannot be evaluated "
        f"statically{hint}"
    )


_Word = namedtuple("Word", "value start end expands quoted", defaults=(False, False))


class Word(_Word):
    """A word after quote removal, where it stands, whether it holds an
    unquoted or double-quoted `$` expansion, and whether any of it was quoted."""

    __slots__ = ()


# `Word(...)` goes through the named tuple's `__new__`, a Python frame; the
# lexer makes most of its words with this instead (all five fields given).
new_word = tuple.__new__


# What the readers of programs that run a command (`takers` and the modules
# it draws on) return: a list of ("string", Word) for a shell string it
# runs, ("words", [Word]) for a command it runs as it is, ("file", Word)
# for a file it writes (script's log, flock's lock), ("reads", Word) and
# ("edits", Word) for a file it reads or changes, held to those tools' deny
# and ask rules (a folder a container mounts); or None where it runs no
# command of the caller's. With HELD in the list, the program changes
# who runs the command or what it finds (`su`, `mise exec`): deny and ask
# rules see what runs, and an allow must name the program as written, as
# for sudo. Without, the command is decided as if it ran alone, as for
# `bash -c`.
HELD = ("held", None)


def joined_string(words: list[Word], name: str) -> tuple:
    """("string", the words joined with spaces): the command line a remote
    shell or a queue's `sh -c` runs (`ssh host rm -rf '~'` runs `rm -rf ~`).
    Words xargs feeds are not known: refused."""
    if any(map(is_input, words)):
        raise SplitError(f"{name} given a command by {FEEDERS} cannot be evaluated statically")
    joined = " ".join(w.value for w in words)
    return ("string", new_word(Word, (joined, 0, 0, any(w.expands for w in words), True)))


# -- reading options from words ----------------------------------------------


def option_names(text: str) -> frozenset[str]:
    """`"--a --b"` as a set of names, for the tables of options."""
    return frozenset(text.split())


def getopt(words: list[Word], name: str, spec: tuple, permute: bool) -> tuple[list, list]:
    """Options and operands as GNU getopt_long reads them: `(option, value)`
    pairs (value a Word, or None) and the operands. `spec` is (short options
    with a value, short flags, short options whose value is attached or
    absent, and the same three sets of long options). `permute`: options may
    follow operands (getopt's default), else the first operand ends them.
    An option not in `spec` is refused: what follows it cannot be known."""
    short_value, short_flags, short_optional, long_value, long_flags, long_optional = spec
    options: list = []
    operands: list = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        value = word.value
        if value == "--":
            operands += words[i + 1 :]
            break
        if len(value) == 2 and value[0] == "-":  # `-u USER`, `-0`: the commonest, first
            c = value[1]
            if c in short_value and i + 1 < n:
                options.append((value, words[i + 1]))
                i += 2
                continue
            if c in short_flags or c in short_optional:
                options.append((value, None))
                i += 1
                continue
        if value.startswith("--"):
            option, eq, attached = value.partition("=")
            if option in long_value and (eq or i + 1 < n):
                options.append((option, part_of(word, attached) if eq else words[i + 1]))
                i += 1 if eq else 2
                continue
            if option in long_optional or option in long_flags and not eq:
                options.append((option, part_of(word, attached) if eq else None))
                i += 1
                continue
        elif value.startswith("-") and len(value) > 1:
            k = 1
            while k < len(value):
                c = value[k]
                if c in short_value or c in short_optional:
                    if k + 1 < len(value):
                        options.append(("-" + c, part_of(word, value[k + 1 :])))
                    elif c in short_value and i + 1 < n:
                        options.append(("-" + c, words[i + 1]))
                        i += 1
                    elif c in short_value:
                        break  # no value: refused below
                    else:
                        options.append(("-" + c, None))
                    k = len(value)
                elif c in short_flags:
                    options.append(("-" + c, None))
                    k += 1
                else:
                    break
            if k == len(value):
                i += 1
                continue
        elif value == "-" and "-" in short_flags:  # `su -`
            options.append(("-", None))
            i += 1
            continue
        else:
            if not permute:
                operands += words[i:]
                break
            operands.append(word)
            i += 1
            continue
        raise SplitError(f"{name} with option {value} cannot be evaluated statically")
    return options, operands


def long_option(option: str, table: dict) -> str:
    """The long option that `option` (`--expr`) names as getopt_long reads
    it, or "": `table` maps each option's shortest prefix that names it
    alone (`--e`) to its name (`--expression`)."""
    for prefix, name in table.items():
        if option[: len(prefix)] == prefix and name.startswith(option):
            return name
    return ""


def cluster_value(word: str, k: int, words: list[str], i: int) -> tuple[str, int]:
    """The value of the option letter `word[k]` in a short cluster: the
    rest of the word (`-ofile`), else the next word (`words[i]`); and where
    reading goes on."""
    if k + 1 < len(word):
        return word[k + 1 :], i
    return (words[i] if i < len(words) else ""), i + 1


def operands_past(words: list[str], takes_value: frozenset) -> list[str]:
    """The words that are no option's: not begun with `-`, nor the value
    after an option in `takes_value` (a rough getopt, where one would
    refuse what it does not know)."""
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in takes_value:
            skip = True
        elif word[:1] != "-":
            out.append(word)
    return out


def part_of(word: Word, value: str) -> Word:
    """The value of `--option=value` or `-oVALUE`, as a word of its own."""
    return new_word(Word, (value, word.start, word.end, word.expands, word.quoted))


def last_option(options: list, *names: str):
    """The value of the last of these options given (getopt's), or None."""
    found = None
    for option, value in options:
        if option in names:
            found = value if value is not None else True
    return found


def value_of(words: list[Word], i: int, eq: str) -> Word:
    """The value of the option `words[i]`: after its `=` (`eq` is the `=`,
    or empty), else the next word. Missing, the call is refused, naming the
    program and the option as written."""
    if eq:
        return part_of(words[i], words[i].value.partition("=")[2])
    if i + 1 < len(words):
        return words[i + 1]
    raise SplitError(
        f"{words[0].value} {words[i].value} without a value cannot be evaluated statically"
    )


# What may give a command its words from its input or from files found:
# named in refusals, which are read to the model.
FEEDERS = "xargs, parallel, fd -x or rg --pre"


def input_word(at: int) -> Word:
    """What xargs reads, as one word `…` (no source: start == end)."""
    return new_word(Word, ("…", at, at, False, False))


def is_input(word: Word) -> bool:
    return word.start == word.end and word.value == "…"


def getopt_spec(
    short_value: str = "",
    short_flags: str = "",
    short_optional: str = "",
    long_value: str = "",
    long_flags: str = "",
    long_optional: str = "",
) -> tuple:
    """A `getopt` spec: short options as strings of letters, long ones as names."""
    return (
        short_value,
        short_flags,
        short_optional,
        option_names(long_value),
        option_names(long_flags),
        option_names(long_optional),
    )
