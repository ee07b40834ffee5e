"""Text editors: the files they open, and the options that run commands.

`vim .env` shows `.env` and may write it: an editor's operands are read
and edit subjects (`programs.FILE_READERS` and `FILE_WRITERS`), held to
those tools' deny and ask rules, as `cat`'s and `tee`'s are. An editor's
command language runs shell commands (`vim -c '!rm -rf /'`, `emacs --eval
'(shell-command "…")'`), which no rule would see: the options that give it
commands, scripts or a config to run are refused, and so are the line
editors that read their commands from their input (`ex`, `ed`, `vim -e`:
`echo '!rm -rf /' | ed f`), as a shell reading its input is.
"""

from __future__ import annotations

from .words import option_names

_VIMS = option_names("vi vim nvim view vimdiff rvim rview gvim")
# vim's and Neovim's options that run commands or scripts, read commands
# (ex mode: `-e`, `-E`, `-es`), name a config, tags, an error file or a log
# to load or write, or talk to another vim: refused, attached or not.
_VIM_REFUSED = ("-c", "-S", "-s", "-e", "-E", "-u", "-U", "-w", "-W", "-q", "-t", "-i", "-V")
_VIM_REFUSED_LONG = ("--cmd", "--remote", "--server", "--startuptime", "--listen", "--embed")
_QUIET_CONFIG = [["NONE"], ["NORC"], ["DEFAULTS"]]  # `-u NONE`: no config at all
# GNU Emacs: Lisp to evaluate, load or call, a script, another user's init.
_EMACS_REFUSED = option_names(
    "--eval -eval --execute -execute -l --load -load -f --funcall -funcall -x --script -script "
    "-u --user -user --init-directory -L --directory -directory"
)
# nano's spell checker and config; kakoune's commands, keys and sessions.
_NANO_REFUSED = option_names("-s --speller -f --rcfile")
_KAK_REFUSED = option_names("-e -E -f -p")
# Line editors, whose commands come from their input.
_LINE_EDITORS = option_names("ex ed red")
_HELP = option_names("--help -h --version -V")

EDITORS = _VIMS | _LINE_EDITORS | option_names("nano pico emacs micro hx helix kak joe mg ne")


def editor_refusal(program: str, words: list[str]) -> str | None:
    """Why an editor's command cannot be evaluated statically, or None."""
    arguments = words[1:]
    if program in _LINE_EDITORS:
        if arguments and all(word in _HELP for word in arguments):
            return None
        return f"{program} reading its commands from its input"
    for k, word in enumerate(arguments):
        if word == "--":
            return None
        if program in _VIMS:
            if word[:1] == "+" and not _vim_jump(word[1:]):
                return f"{program} {word} (a command it runs)"
            if word.startswith(_VIM_REFUSED_LONG):
                return f"{program} {word}"
            if word[:2] in _VIM_REFUSED and word[:2] != "--":
                if word in ("-u", "-U") and arguments[k + 1 : k + 2] in _QUIET_CONFIG:
                    continue
                if word[:2] == "-V" and word[2:].isdigit():
                    continue  # verbose, to the screen (`-V20log` writes a log: refused)
                return f"{program} {word}"
        elif program == "emacs" and word.partition("=")[0] in _EMACS_REFUSED:
            return f"emacs {word} (Lisp it runs)"
        elif program in ("nano", "pico") and word.partition("=")[0] in _NANO_REFUSED:
            return f"{program} {word}"
        elif program == "kak" and word in _KAK_REFUSED:
            return f"kak {word}"
    return None


def _vim_jump(command: str) -> bool:
    """`+`, `+42`, `+/pattern`: a line to open the file at, not a command
    that runs (a `|` after a search starts another command)."""
    return command == "" or command.isdigit() or command[:1] == "/" and "|" not in command


def needs_general_path(words: list[str]) -> bool:
    """For the plain path: an editor with an option or a `+` command, or a
    line editor, is read by the general one (which refuses what runs)."""
    return words[0] in _LINE_EDITORS or any(word[:1] in "-+" for word in words[1:])
