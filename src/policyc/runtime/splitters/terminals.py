"""tmux and screen: the commands they run in a terminal of theirs, and the
lines typed there (send-keys, stuff). Held: they run in their server's
terminal. Read for `takers`."""

from __future__ import annotations

from .hosts import remote_shell
from .programs import SHELLS, program_name, shell_reads_input, shell_script
from .words import (
    HELD,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    last_option,
    new_word,
    option_names,
    part_of,
)


def terminal_shell(words: list[Word]) -> bool:
    """Whether `words` start a shell that reads its commands from its
    input (a local one, or the host's through ssh): run by tmux or screen
    in a terminal of theirs, it reads what is typed there (`send-keys`,
    `stuff`), which is read for what it runs."""
    if words and not words[0].expands and program_name(words[0].value) in SHELLS:
        return shell_script(words, "sh") is None and shell_reads_input(words, "sh")
    return remote_shell(words)


# tmux (2.9 to 3.5): its commands by full name and alias (a command may be
# given by a unique prefix of its full name, as tmux takes it).
_TMUX_ALIASES = {
    "attach": "attach-session",
    "bind": "bind-key",
    "breakp": "break-pane",
    "capturep": "capture-pane",
    "clearhist": "clear-history",
    "clearphist": "clear-prompt-history",
    "confirm": "confirm-before",
    "deleteb": "delete-buffer",
    "detach": "detach-client",
    "menu": "display-menu",
    "display": "display-message",
    "displayp": "display-panes",
    "popup": "display-popup",
    "findw": "find-window",
    "has": "has-session",
    "if": "if-shell",
    "joinp": "join-pane",
    "killp": "kill-pane",
    "killw": "kill-window",
    "lastp": "last-pane",
    "last": "last-window",
    "linkw": "link-window",
    "lsb": "list-buffers",
    "lsc": "list-clients",
    "lscm": "list-commands",
    "lsk": "list-keys",
    "lsp": "list-panes",
    "ls": "list-sessions",
    "lsw": "list-windows",
    "loadb": "load-buffer",
    "lockc": "lock-client",
    "lock": "lock-server",
    "locks": "lock-session",
    "movep": "move-pane",
    "movew": "move-window",
    "new": "new-session",
    "neww": "new-window",
    "nextl": "next-layout",
    "next": "next-window",
    "pasteb": "paste-buffer",
    "pipep": "pipe-pane",
    "prevl": "previous-layout",
    "prev": "previous-window",
    "refresh": "refresh-client",
    "rename": "rename-session",
    "renamew": "rename-window",
    "resizep": "resize-pane",
    "resizew": "resize-window",
    "respawnp": "respawn-pane",
    "respawnw": "respawn-window",
    "rotatew": "rotate-window",
    "run": "run-shell",
    "saveb": "save-buffer",
    "selectl": "select-layout",
    "selectp": "select-pane",
    "selectw": "select-window",
    "send": "send-keys",
    "setb": "set-buffer",
    "setenv": "set-environment",
    "set": "set-option",
    "setw": "set-window-option",
    "showb": "show-buffer",
    "showenv": "show-environment",
    "showmsgs": "show-messages",
    "show": "show-options",
    "showphist": "show-prompt-history",
    "showw": "show-window-options",
    "source": "source-file",
    "splitw": "split-window",
    "start": "start-server",
    "suspendc": "suspend-client",
    "swapp": "swap-pane",
    "swapw": "swap-window",
    "switchc": "switch-client",
    "unbind": "unbind-key",
    "unlinkw": "unlink-window",
    "wait": "wait-for",
}
_TMUX_NAMES = frozenset(_TMUX_ALIASES.values()) | option_names(
    "choose-buffer choose-client choose-tree clock-mode command-prompt copy-mode "
    "customize-mode kill-server kill-session send-prefix server-access set-hook show-hooks"
)
# The commands that run a shell command: their flags and their options with
# a value; the shell command and its arguments come after them.
_TMUX_RUNS = {
    "new-session": ("AdDEPX", "cefFnstxy"),
    "new-window": ("abdkPS", "ceFnt"),
    "split-window": ("bdfhIvPZ", "ceFlpt"),
    "respawn-pane": ("k", "cet"),
    "respawn-window": ("k", "cet"),
    "run-shell": ("bE", "cdt"),  # (-C: a tmux command instead, refused)
    "pipe-pane": ("IOo", "t"),
    "display-popup": ("BCEkN", "bcdehsStTwxy"),
}
# The commands that keep or run tmux commands of their own (a key binding,
# a hook, a menu, a prompt's template), set what later panes run (an
# option such as default-command) or type a buffer into a pane
# (paste-buffer, as send-keys types its keys): refused.
_TMUX_REFUSED = option_names(
    "bind-key set-hook if-shell confirm-before command-prompt display-menu choose-buffer "
    "choose-client choose-tree paste-buffer"
)
# Options whose value tmux runs (default-command, lock-command, copy-command,
# default-shell) and hooks, which set-option sets too (tmux 3.3's, and any
# `after-COMMAND`): refused.
_TMUX_HOOKS = option_names(
    "alert-activity alert-bell alert-silence client-active client-attached client-detached "
    "client-focus-in client-focus-out client-resized client-session-changed command-error "
    "pane-died pane-exited pane-focus-in pane-focus-out pane-mode-changed "
    "pane-set-clipboard pane-title-changed session-closed session-created session-renamed "
    "session-window-changed window-layout-changed window-linked window-pane-changed "
    "window-renamed window-resized window-unlinked"
)
# send-keys: the keys that end a line, and those read as the text they type.
_TMUX_LINE_ENDS = {"enter": "\n", "c-m": "\n", "kpenter": "\n", "c-j": "\n", "c-c": "\n"}
_TMUX_TYPED = {"space": " ", "tab": "\t"}


def _tmux_command(name: str, source: str) -> str:
    full = _TMUX_ALIASES.get(name, name)
    if full in _TMUX_NAMES:
        return full
    found = [n for n in _TMUX_NAMES if n.startswith(name)]
    if len(found) != 1:
        raise SplitError(f"{source} command {name!r} cannot be evaluated statically")
    return found[0]


def _tmux_key(word: str) -> str | None:
    """What a send-keys word types: itself, a line end, or None for a key
    that edits the line (BSpace, Up, C-u...) or one we do not read."""
    lower = word.lower()
    if lower in _TMUX_LINE_ENDS:
        return _TMUX_LINE_ENDS[lower]
    if lower in _TMUX_TYPED:
        return _TMUX_TYPED[lower]
    if (
        len(word) > 2
        and word[1] == "-"
        and word[0] in "CMScms"
        or word[:1] == "^"
        and len(word) == 2
        or lower in _TMUX_KEY_NAMES
        or lower.startswith(("kp", "mouse", "wheel", "double", "triple", "secondclick"))
        or lower[:1] == "f"
        and lower[1:].isdigit()
    ):
        return None
    return word


_TMUX_KEY_NAMES = option_names(
    "bspace btab dc delete down end escape home ic insert left npage pagedown pgdn ppage "
    "pageup pgup right up any"
)


def _tmux_commands(words: list[Word], name: str) -> list | None:
    """What a tmux command line runs: the shell command of new-session,
    new-window, split-window, respawn-*, run-shell, pipe-pane and
    display-popup (a string run by the default shell, or words run as they
    are), the lines send-keys types, and the string of `tmux -c`. Held: it
    runs in the tmux server's environment."""
    if any("#(" in w.value for w in words):  # a format's #(command) runs it
        raise SplitError(f"{name} with a #(command) cannot be evaluated statically")
    options, rest = getopt(words, name, getopt_spec("cfLST", "2CDlNuvV"), permute=False)
    taken: list = [HELD]
    string = last_option(options, "-c")
    if string is not None:
        taken.append(("string", string))
    commands: list[list[Word]] = [[]]
    for word in rest:
        if word.value == ";":
            commands.append([])
        elif word.value.endswith(";"):  # tmux splits commands there too
            raise SplitError(f"{name} with a word ending in ; cannot be evaluated statically")
        else:
            commands[-1].append(word)
    for command in commands:
        if command:
            taken += _tmux_runs(command, name)
    return taken if len(taken) > 1 else None


def _tmux_runs(command: list[Word], name: str) -> list:
    full = _tmux_command(command[0].value, name)
    if full in _TMUX_REFUSED:
        raise SplitError(f"{name} {full} cannot be evaluated statically")
    if full in _TMUX_RUNS:
        flags, with_value = _TMUX_RUNS[full]
        _, args = getopt(command, name, getopt_spec(with_value, flags), permute=False)
        if terminal_shell([part_of(w, p) for w in args[:1] for p in w.value.split()] + args[1:]):
            return []  # a shell in the pane: what it runs is typed (send-keys)
        if len(args) == 1:  # run by the default shell, as `sh -c` runs it
            return [("string", args[0])]
        return [("words", args)] if args else []
    if full == "send-keys":
        options, keys = getopt(command, name, getopt_spec("cNt", "FKlMRX", "", ""), permute=False)
        if last_option(options, "-X") is not None:
            # Copy mode's commands; its pipe commands run a shell command.
            if keys and "pipe" in keys[0].value:
                return [("string", keys[1])] if len(keys) > 1 else []
            return []
        literal = last_option(options, "-l") is not None
        typed = []
        for key in keys:
            text = key.value if literal else _tmux_key(key.value)
            if text is None:
                raise SplitError(f"{name} send-keys {key.value} cannot be evaluated statically")
            typed.append(text)
        expands = any(k.expands for k in keys)
        lines = "".join(typed)
        return [("string", new_word(Word, (lines, 0, 0, expands, True)))] if lines.strip() else []
    if full in ("set-option", "set-window-option"):
        _, args = getopt(command, name, getopt_spec("t", "aFgopqsuUw"), permute=False)
        option = args[0].value.partition("[")[0] if args else ""  # `after-x[0]`: an index
        if (
            "command" in option
            or "shell" in option
            or option in _TMUX_HOOKS
            or option.startswith("after-")
        ):
            raise SplitError(f"{name} {full} {option} cannot be evaluated statically")
        return []
    if full == "save-buffer" and len(command) > 1:
        return [("file", command[-1])]
    return []


# GNU screen 4.8 to 5.0 reads its own options, letters clustered, and
# not alike: screen 4.9 takes -S's and -t's value from the next word and
# reads on in the cluster (`-Sd NAME -m p1` runs p1), stops at -h's, and
# takes -p's and -e's attached (checked against screen 4.09 here). So a
# letter with a value must end its cluster, its value the next word; other
# forms are refused. -c (a config file, which runs commands) and -s (the
# program run as the shell) are refused as unknown.
_SCREEN_VALUES = frozenset("SpthTe")
_SCREEN_FLAGS = frozenset("dmDRrxAafilLOqUvw46")
_SCREEN_WORDS = option_names("-ls -list -wipe -Logfile -fn -fa -ln -X -Q")
# Commands of `screen -X` that run or type nothing (and those read below:
# stuff, exec, screen, hardcopy).
_SCREEN_QUIET = option_names(
    "quit kill detach pow_detach windows info select title number width height "
    "sessionname log lockscreen clear redisplay"
)


def _screen_commands(words: list[Word], name: str) -> list | None:
    """The command `screen [-dmS NAME] CMD ...` runs in a new window, and
    what `screen -X stuff|exec|screen ...` types or runs in a session. Held:
    it runs in a terminal of screen's. Attaching (-r, -R, -x, -d without -m)
    runs nothing new; other -X commands and options are refused."""
    i, attach, detached = 1, False, False
    logs: list = []
    while i < len(words) and words[i].value.startswith("-") and words[i].value != "-":
        value = words[i].value
        if value == "--":
            i += 1
            break
        if value in _SCREEN_WORDS:
            if value in ("-X", "-Q"):
                return [HELD] + logs + _screen_x(words[i + 1 :], name)
            if value == "-Logfile":
                logs += [("file", w) for w in words[i + 1 : i + 2]]
            i += 2 if value == "-Logfile" else 1
            continue
        k = 1
        while k < len(value):
            c = value[k]
            if c in _SCREEN_VALUES:
                if k + 1 < len(value):
                    raise SplitError(
                        f"{name} with option {value} cannot be evaluated statically "
                        f"(write -{c} last, its value the next word)"
                    )
                i += 1  # the value, the next word
                break
            if c not in _SCREEN_FLAGS:
                raise SplitError(f"{name} with option {value} cannot be evaluated statically")
            attach = attach or c in "rRxD" or c == "d" and "m" not in value
            detached = detached or c == "m"
            k += 1
        i += 1
    if attach and not detached:
        if i < len(words) - 1:  # `-r NAME` takes one word; more is a command we do not place
            raise SplitError(f"{name} attaching with a command cannot be evaluated statically")
        return None
    if i < len(words) and not terminal_shell(words[i:]):
        return [HELD, ("words", words[i:])] + logs
    return [HELD] + logs if logs else None  # a shell: what it runs is typed (-X stuff)


def _screen_x(command: list[Word], name: str) -> list:
    """A command sent to a session by `screen -X`."""
    verb = command[0].value if command else ""
    args = command[1:]
    if verb == "stuff":
        if len(args) != 1:
            raise SplitError(f"{name} -X stuff takes one string")
        text = args[0].value
        for end in ("^M", "^J", "\\n", "\\r", "\\015", "\\012", "\r"):
            text = text.replace(end, "\n")
        if "^" in text or "\\" in text or any(ord(c) < 32 and c not in "\n\t" for c in text):
            raise SplitError(
                f"{name} -X stuff with keys that edit the line cannot be evaluated statically"
            )
        return [("string", part_of(args[0], text))] if text.strip() else []
    if verb in ("exec", "screen"):
        if args and args[0].value[:1] in ("-", ".", "!", "|"):
            raise SplitError(f"{name} -X {verb} {args[0].value} cannot be evaluated statically")
        return [("words", args)] if args and not terminal_shell(args) else []
    if verb == "hardcopy":
        return [("file", w) for w in args if not w.value.startswith("-")][-1:]
    if verb in _SCREEN_QUIET:
        return []
    raise SplitError(f"{name} -X {verb} cannot be evaluated statically")


TAKERS = {"tmux": _tmux_commands, "screen": _screen_commands}
