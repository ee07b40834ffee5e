"""Terminal emulators: the command they run in a window of their own
(`gnome-terminal -- rm -rf ~`, `xterm -e …`, `kitty rm -rf ~`). Where an
agent runs on a desktop, that window runs as the user: each was a program
of its own to a deny on `rm:*`. The command is held, as a launcher's is:
deny and ask rules see it, and an allow must name the emulator as written.

Three ways of naming the command (read for `takers`):
- the rest of the words, after a marker (`xterm -e CMD ARGS`, `-x`, `--`);
- one word, a command line (`gnome-terminal -e 'CMD ARGS'`, `--command=`),
  read here as a shell string (the emulators split it on spaces and
  quotes without a shell; reading it as one can only add subjects);
- the words after the emulator's options (kitty, foot): options are read
  from a table and one not listed is refused.

Programs that type into the focused window (xdotool's `type`, `key` and
`exec`, ydotool, wtype, dotool, xte) are refused: what they type runs in
whatever terminal has the focus.

A marker may stand as the value of an option before it (`xterm -T -e -e
CMD`): then the words after the next marker are read too. What the
emulator is configured to run instead (a config file, `-o shell=…`, a
session file, kitty's remote control and kittens) is refused.
"""

from __future__ import annotations

from .words import HELD, SplitError, Word, getopt, getopt_spec, option_names, part_of

# Each emulator's markers: those the rest of the words follows, and those
# one command line follows. Where the documentation leaves it open (Tilix's,
# Ptyxis' and qterminal's -x or -e), a marker is in both: read both ways.
_XTERM = (option_names("-e"), frozenset())
_GNOME = (option_names("-x --execute --"), option_names("-e --command"))
_EITHER = option_names("-e -x --execute --exec --command")
_MARKERS = {
    **dict.fromkeys(
        "xterm uxterm urxvt urxvtc rxvt rxvt-unicode konsole x-terminal-emulator ghostty "
        "cool-retro-term".split(),
        _XTERM,
    ),
    "alacritty": (option_names("-e --command"), frozenset()),
    # GNOME Terminal 3 (`-e` and `-x` deprecated, still read), MATE's, Xfce's.
    **dict.fromkeys("gnome-terminal mate-terminal xfce4-terminal".split(), _GNOME),
    "terminator": _GNOME,
    "sakura": (option_names("-x --xterm-execute"), option_names("-e --execute")),
    "lxterminal": (frozenset(), option_names("-e --command")),
    "termite": (frozenset(), option_names("-e --exec")),
    "guake": (frozenset(), option_names("-e --execute-command")),
    "tilda": (frozenset(), option_names("-c --command")),
    **dict.fromkeys(
        "tilix ptyxis qterminal kgx gnome-console terminology".split(), (_EITHER | {"--"}, _EITHER)
    ),
}

# kitty 0.30 to 0.39 and foot 1.16 to 1.20: the command follows the options.
# Left out, so refused: a config file or override (it may name the shell),
# kitty's session and watcher files (commands and Python it runs).
_KITTY = getopt_spec(
    "Td1",
    "hv",
    "",
    "--title --class --app-id --name --directory --working-directory --start-as "
    "--listen-on --instance-group --os-window-tag --position --logo --logo-position "
    "--logo-alpha --detached-log",
    "--help --version --hold --single-instance --wait-for-single-instance-window-close "
    "--detach --debug-input --debug-keyboard --debug-rendering --debug-gl --debug-font-fallback "
    "--grab-keyboard",
)
_FOOT = getopt_spec(
    "ftTawWDdp",
    "LHFmhve",
    "s",
    "--font --term --title --app-id --toplevel-tag --window-size-pixels --window-size-chars "
    "--working-directory --log-level --pty",
    "--login-shell --hold --fullscreen --maximized --print-pid --help --version --check-config",
    "--server --log-colorize",
)
# st 0.9: `-e` ends its options, and the command may follow them without it
# (`-o FILE`, where st writes what the terminal shows, is not listed).
_ST = getopt_spec("cfgnTtlw", "aive")
_POSITIONAL = {"kitty": _KITTY, "foot": _FOOT, "footclient": _FOOT, "st": _ST}
# kitty's first words that run code or commands of its own: remote control
# of running windows (`kitty @ send-text`, `@ launch`), kittens, Python.
_KITTY_VERBS = frozenset({"@", "+kitten", "+launch", "+runpy", "+open", "+complete", "+hold"})


def _marked(words: list[Word], name: str) -> list:
    taken: list = []
    rest, strings = _MARKERS[name]
    i = 1
    while i < len(words):
        value = words[i].value
        option, eq, attached = value.partition("=")
        if option in strings:
            if eq:
                taken.append(("string", part_of(words[i], attached)))
            elif i + 1 < len(words):
                taken.append(("string", words[i + 1]))
            else:
                raise SplitError(f"{name} {value} without a value cannot be evaluated statically")
        if option in rest:
            head = [part_of(words[i], attached)] if eq else []
            taken.append(("words", head + words[i + 1 :]))
            before = words[i - 1].value
            if i == 1 or before[:1] != "-" or "=" in before or before in rest:
                break  # not an option's value: the command starts here
        elif option in strings and not eq:
            i += 1  # the command line
        i += 1
    return [item for item in taken if item[1]]


def _emulator_commands(words: list[Word], name: str) -> list | None:
    if name in _POSITIONAL:
        if name == "kitty" and len(words) > 1 and words[1].value in _KITTY_VERBS:
            raise SplitError(f"{name} {words[1].value} cannot be evaluated statically")
        command = getopt(words, name, _POSITIONAL[name], permute=False)[1]
        taken = [("words", command)] if command else []
    else:
        taken = _marked(words, name)
    return [HELD] + taken if taken else None


def _wezterm_commands(words: list[Word], name: str) -> list | None:
    """`wezterm start [OPTIONS] [--] CMD`, `wezterm -e CMD` (start's short
    form), `wezterm cli spawn [OPTIONS] [--] CMD`; `wezterm cli send-text`
    (typing into a pane) and `--config` (which may set the program) are
    refused. wezterm 2024's options, each with its value after it."""
    values = [w.value for w in words]
    if any(v.startswith("--config") for v in values):
        raise SplitError(f"{name} --config cannot be evaluated statically")
    if values[1:3] == ["cli", "send-text"]:
        raise SplitError(f"{name} cli send-text cannot be evaluated statically")
    if values[1:2] in (["-e"], ["start"]):
        start = 2
    elif values[1:3] == ["cli", "spawn"]:
        start = 3
    else:
        return None
    i = start
    while i < len(values) and values[i][:1] == "-" and values[i] != "--":
        option = values[i].partition("=")[0]
        if option in _WEZTERM_VALUE:
            i += 1 if "=" in values[i] else 2
        elif option in _WEZTERM_FLAGS:
            i += 1
        else:
            raise SplitError(f"{name} with option {values[i]} cannot be evaluated statically")
    command = words[i + 1 :] if values[i : i + 1] == ["--"] else words[i:]
    return [HELD, ("words", command)] if command else None


_WEZTERM_VALUE = option_names(
    "--cwd --class --workspace --position --domain --pane-id --domain-name --window-id"
)
_WEZTERM_FLAGS = option_names(
    "--attach --always-new-process --new-tab --new-window --no-auto-connect --help"
)


def _typing_commands(words: list[Word], name: str) -> list | None:
    """Keys typed into whatever window has the focus, a terminal's too
    (`xdotool type 'rm -rf ~'; xdotool key Return`), and xdotool's own
    `exec`: refused. xdotool's other commands (search, windowactivate,
    getmouselocation) run nothing."""
    if name == "xdotool" and _XDOTOOL_TYPES.isdisjoint(w.value for w in words[1:]):
        return None
    if name == "ydotool" and words[1:2] and words[1].value not in _YDOTOOL_TYPES:
        return None
    raise SplitError(f"{name} typing keys or running a command cannot be evaluated statically")


# xdotool 3's commands that type, press keys or run a program (a word of
# its chain of commands, wherever it stands); ydotool 1's that type.
_XDOTOOL_TYPES = option_names("type key keydown keyup exec")
_YDOTOOL_TYPES = option_names("type key")
_TYPISTS = ("xdotool", "ydotool", "wtype", "dotool", "xte")


TAKERS = {
    **dict.fromkeys(_TYPISTS, _typing_commands),
    **dict.fromkeys(_MARKERS.keys() | _POSITIONAL.keys(), _emulator_commands),
    "wezterm": _wezterm_commands,
}
