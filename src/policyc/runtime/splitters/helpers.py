"""Options that hand a program a command or a script to run, refused.

`less +'!rm -rf /' x` runs rm (its initial command, `!` its shell escape),
`sort --compress-program=PROG` runs PROG, `apt-get -o
APT::Update::Pre-Invoke::=CMD update` runs CMD, and `make -f - <<<
'x:; rm -rf /'` runs the recipe it reads: each was allowed past a deny on
rm by an allow on the program. What they run is in a language or a place
this does not read, so they are refused (fail closed), as vim's `-c` is
(`editors`); the everyday forms (`less +G x`, `sort -u`, `apt-get install
x`, `make -f build.mk`) are read as before.
"""

from __future__ import annotations

from .words import option_names

_PAGERS = option_names("less more most")
# less's options that load a key file (its `#env` section sets LESSOPEN,
# which runs a command) (less 643).
_LESSKEY = ("-k", "--lesskey-file", "--lesskey-src", "--lesskey-content")
_APTS = option_names("apt apt-get apt-cache apt-mark aptitude")
# apt's settings whose value is a command it runs (APT::Update::Pre-Invoke,
# DPkg::Post-Invoke, DPkg::Pre-Install-Pkgs, …).
_APT_HOOKS = ("invoke", "install-pkgs")
_MAKES = option_names("make gmake bmake")
_MAKEFILE_OPTIONS = option_names("-f --file --makefile")
_FROM_INPUT = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})

HELPER_PROGRAMS = _PAGERS | _APTS | _MAKES | {"sort"}


def helper_refusal(program: str, words: list[str]) -> str | None:
    """Why the command cannot be evaluated statically, or None."""
    arguments = words[1:]
    for k, word in enumerate(arguments):
        if word == "--":
            return None
        following = arguments[k + 1] if k + 1 < len(arguments) else ""
        if program in _PAGERS:
            if word[:1] == "+" and ("!" in word or "|" in word):
                return f"{program} {word} (a command it runs)"
            if word.startswith(_LESSKEY):
                return f"{program} {word} (a key file)"
        elif program == "sort":
            option = word.partition("=")[0]
            if len(option) > 4 and "--compress-program".startswith(option):
                return f"sort {word} (a program it runs)"
        elif program in _APTS:
            if word in ("-c", "--config-file") or word.startswith("--config-file="):
                return f"{program} {word} (a configuration file)"
            setting = word[2:] if word[:2] == "-o" and len(word) > 2 else ""
            if word in ("-o", "--option"):
                setting = following
            elif word.startswith("--option="):
                setting = word[9:]
            if any(hook in setting.lower() for hook in _APT_HOOKS):
                return f"{program} -o {setting} (a command it runs)"
        elif program in _MAKES:
            option, eq, value = word.partition("=")
            if word[:2] == "-f" and len(word) > 2:
                value = word[2:]
            elif option in _MAKEFILE_OPTIONS and not eq:
                value = following
            elif option not in _MAKEFILE_OPTIONS:
                continue
            if value in _FROM_INPUT:
                return f"{program} reading its makefile from its input"
    return None


def needs_general_path(words: list[str]) -> bool:
    """For the plain path: such a program with an option or a `+` command is
    read by the general one (which refuses what runs)."""
    return any(word[:1] in "-+" for word in words[1:])
