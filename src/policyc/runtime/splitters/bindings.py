"""Ways bash sets a variable other than `NAME=VALUE`, and builtins that
change what a later command of the line runs.

A command variable (`programs.COMMAND_VARIABLES`: EDITOR, PAGER,
GIT_SSH_COMMAND, ...) set by `NAME=VALUE` is read, and its command held
(`shell._variable_subjects`). Set any other way, its value is not known
here, and a variable the agent's environment already exports (EDITOR often
is) passes the new value on to the programs after it: `for EDITOR in 'rm
-rf / #'; do git commit; done` and `printf -v EDITOR 'rm -rf / #'; git
commit` ran rm past a deny on `rm:*`. Those are refused, as
`REFUSED_VARIABLES` are however they are set.
"""

from __future__ import annotations

from .programs import COMMAND_VARIABLES, REFUSED_VARIABLES
from .words import SplitError

WATCHED = COMMAND_VARIABLES | REFUSED_VARIABLES

# Builtins read here; the plain path leaves them to the general one.
BINDERS = frozenset(
    {"read", "printf", "mapfile", "readarray", "getopts", "hash", "declare", "typeset", "local"}
)

# `${NAME=WORD}` and `${NAME:=WORD}` assign WORD when NAME is unset (or
# empty); `${!NAME=WORD}` assigns to the variable NAME names.
_DEFAULT_ASSIGNMENT = r"\$\{(!?)([A-Za-z_][A-Za-z0-9_]*)(?:\[[^]]*\])?:?="


def base_name(target: str) -> str:
    """The variable a target names: `EDITOR` of `EDITOR[0]` and `EDITOR+`."""
    return target.partition("[")[0].removesuffix("+")


def check_loop_variable(name: str) -> None:
    """`for NAME in WORDS`: each word becomes NAME's value in turn."""
    if name in WATCHED:
        raise SplitError(f"a for loop setting {name} cannot be evaluated statically")


def check_expansions(command: str) -> None:
    """`${EDITOR:='rm -rf / #'}` sets EDITOR where it is unset."""
    import re  # the general path has loaded it (see `shell._compile_patterns`)

    for match in re.finditer(_DEFAULT_ASSIGNMENT, command):
        if match[1]:
            raise SplitError("an indirect assignment cannot be evaluated statically")
        if match[2] in WATCHED:
            raise SplitError(f"assigning {match[2]} by expansion cannot be evaluated statically")


def check_builtin(program: str, words: list[str]) -> None:
    """Refuse a builtin in BINDERS that sets a watched variable, names a
    variable by reference, or changes what a later command runs."""
    arguments = words[1:]
    if program == "printf":
        if arguments[:1] == ["-v"]:
            targets = arguments[1:2]
        else:
            targets = [arguments[0][2:]] if arguments[:1] and arguments[0][:2] == "-v" else []
    elif program == "hash":
        if any(w[:1] == "-" and "p" in w for w in arguments):
            # `hash -p /bin/rm ls; ls /` runs rm where `ls` is written.
            raise SplitError("hash -p naming a program's file cannot be evaluated statically")
        return
    elif program in ("declare", "typeset", "local"):
        if any(w[:1] == "-" and "n" in w for w in arguments):
            # `declare -n r=EDITOR; r=CMD` sets EDITOR by another name.
            raise SplitError(f"a name reference ({program} -n) cannot be evaluated statically")
        return  # their `NAME=VALUE` words are read as assignments (shell._SETTERS)
    else:  # read, mapfile, readarray, getopts: variables named among their words
        if program in ("mapfile", "readarray") and any(
            w[:1] == "-" and "C" in w for w in arguments
        ):
            # `mapfile -C CMD -c 1 lines < f` evaluates CMD for each line.
            raise SplitError(f"{program}'s callback (-C) cannot be evaluated statically")
        targets = [w for w in arguments if w[:1] != "-"]
        for cluster in arguments:  # `read -raEDITOR`: a cluster's last letter takes the rest
            if cluster[:1] == "-":
                targets += [name for name in WATCHED if cluster.endswith(name)]
    for target in targets:
        if base_name(target) in WATCHED:
            raise SplitError(
                f"{program} setting {base_name(target)} cannot be evaluated statically"
            )
