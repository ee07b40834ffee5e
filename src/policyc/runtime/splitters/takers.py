"""Programs that run a command they are given, as a string or as words:
su and runuser, script, watch, flock, strace, ltrace and valgrind, the
environment runners mise, direnv and nix, tmux and screen, ssh and its copiers,
containers, hyperfine, sg, the secret runners (op, doppler, aws-vault,
sops, ...), GNU parallel, entr, watchexec, nodemon, gdb and bwrap; and
at, batch and crontab, which are
refused unless they only list or remove. `shell` decides what they return.
"""

from __future__ import annotations

from .programs import DOCKER_RUNS, SHELLS, shell_reads_input, shell_script, terminal_shell
from .words import (
    FEEDERS,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    input_word,
    is_input,
    last_option,
    new_word,
    option_names,
    part_of,
    value_of,
)

# Programs that run a command they are given as a string or as words:
# each returns what runs as ("string", Word) for a shell string, ("words",
# [Word]) for a command run as it is, ("file", Word) for a file it writes
# (script's log, flock's lock), or None where it runs no command of the
# caller's (`su` alone). With HELD among them, the program changes who runs
# the command or what it finds (`su`, `mise exec`): deny and ask rules see
# what runs, and an allow must name the program as written, as for sudo.
# Without, the command is decided as if it ran alone, as for `bash -c`.
HELD = ("held", None)


def _su_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "cgGsw" + ("u" if name == "runuser" else ""),
        "lmpPf-",
        "",
        frozenset(
            {"--command", "--session-command", "--shell", "--group", "--supp-group"}
            | {"--whitelist-environment", "--user"}
        ),
        frozenset({"--login", "--preserve-environment", "--pty", "--fast"}),
        frozenset(),
    )
    options, operands = getopt(words, name, spec, permute=True)
    if last_option(options, "-s", "--shell") is not None:
        raise SplitError(
            f"{name} -s (a program to run as the shell) cannot be evaluated statically"
        )
    opens_shell = SplitError(  # `echo 'rm -rf /' | sudo su`
        f"{name} opening a shell that reads commands from its input cannot be evaluated statically"
    )
    if name == "runuser" and last_option(options, "-u", "--user") is not None:
        if not operands:
            raise opens_shell
        return [HELD, ("words", operands)]  # `runuser -u USER -- CMD`
    taken = [HELD]
    string = last_option(options, "-c", "--command", "--session-command")
    if string is not None:
        taken.append(("string", string))
    if any(map(is_input, operands)):  # `xargs su root`: its input may be `-c CMD`
        raise SplitError(f"{name} given arguments by {FEEDERS} cannot be evaluated statically")
    if len(operands) > 1:  # after the user: arguments to the user's shell (`-c STRING`)
        script = shell_script(operands, "sh")
        if script is not None:
            taken.append(("string", script))
    if len(taken) == 1 and (len(operands) < 2 or shell_reads_input(operands)):
        raise opens_shell
    return taken if len(taken) > 1 else None


def _script_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "cEIOBTmo",
        "aefq",
        "t",
        frozenset(
            {"--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing"}
            | {"--logging-format", "--output-limit"}
        ),
        frozenset({"--append", "--return", "--flush", "--force", "--quiet"}),
        frozenset({"--timing"}),
    )
    options, operands = getopt(words, name, spec, permute=True)
    string = last_option(options, "-c", "--command")
    if string is None:
        return None  # an interactive shell
    taken = [("string", string)]
    logs = [v for o, v in options if o in ("-I", "-O", "-B", "-T", "--log-in", "--log-out")]
    logs += [v for o, v in options if o in ("--log-io", "--log-timing", "-t", "--timing") and v]
    logs += operands[:1]
    if not operands and last_option(options, "-O", "--log-out", "-B", "--log-io") is None:
        logs.append(new_word(Word, ("typescript", 0, 0, False, False)))  # the default, in the cwd
    return taken + [("file", log) for log in logs]


def _watch_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "nq",
        "bcCeghprtwx",
        "d",
        frozenset({"--interval", "--equexit"}),
        frozenset({"--beep", "--color", "--no-color", "--errexit", "--chgexit", "--precise"})
        | frozenset({"--no-rerun", "--no-title", "--no-wrap", "--exec"}),
        frozenset({"--differences"}),
    )
    options, operands = getopt(words, name, spec, permute=False)
    if not operands:
        return None
    if any(map(is_input, operands)):  # joined with its input, then run by sh
        raise SplitError(f"{name} given arguments by {FEEDERS} cannot be evaluated statically")
    if last_option(options, "-x", "--exec") is not None:
        return [("words", operands)]
    # Without -x, watch joins its arguments with spaces and hands them to `sh -c`.
    joined = " ".join(w.value for w in operands)
    expands = any(w.expands for w in operands)
    return [("string", new_word(Word, (joined, 0, 0, expands, True)))]


def _flock_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "wE",
        "sexnoFu",
        "",
        frozenset({"--wait", "--timeout", "--conflict-exit-code"}),
        frozenset({"--shared", "--exclusive", "--unlock", "--nonblock", "--nb", "--close"})
        | frozenset({"--no-fork", "--verbose", "--fcntl"}),
        frozenset(),
    )
    _, operands = getopt(words, name, spec, permute=False)
    if len(operands) < 2:
        return None  # `flock FD`: a lock on an open file, no command
    lock = ("file", operands[0])  # created if it is missing
    if operands[1].value in ("-c", "--command"):
        if len(operands) != 3:
            raise SplitError(f"{name} -c takes one command string")
        return [("string", operands[2]), lock]
    return [("words", operands[1:]), lock]


# strace 5.x-6.x and ltrace 0.7 (getopt_long, options before the command):
# short options with a value, short flags, short options with an optional
# attached value, and the same for long options.
_TRACERS = {
    "strace": (
        "abeEIoOpPsSuUX",
        "AcCdDfFhiknNqrtTvVwxyYzZ",
        "",
        option_names(
            "--columns --detach-on --env --interruptible --stack-trace-frame-limit "
            "--syscall-limit --output --summary-syscall-overhead --attach --trace-path "
            "--string-limit --summary-sort-by --user --summary-columns --const-print-style "
            "--argv0 --color --trace --trace-fds --abbrev --verbose --raw --signals --status --read "
            "--write --fault --inject --kvm --decode-pids"
        ),
        option_names(
            "--output-append-mode --summary-only --summary --debug --follow-forks "
            "--output-separately --help --instruction-pointer --kill-on-exit --syscall-number "
            "--no-abbrev --version --summary-wall-clock --pidns-translation --successful-only "
            "--failed-only --failing-only --seccomp-bpf --arg-names --always-show-pid"
        ),
        option_names(
            "--daemonize --daemonised --daemonized --stack-trace --stack-traces "
            "--relative-timestamps --absolute-timestamps --timestamps --syscall-times "
            "--strings-in-hex --tips --quiet --silent --silence --decode-fds --secontext "
            "--namespace"
        ),
    ),
    "ltrace": (
        "aADeFlnopsuwxX",
        "bcCfhiLrStTV",
        "",
        option_names("--align --config --debug --indent --library --output --where"),
        option_names("--demangle --help --version --no-signals"),
        frozenset(),
    ),
}
# Options with which the traced command runs as another user, with other
# variables or another argv[0], or sees system calls fail on purpose.
_TRACER_HOLDS = option_names("-u --user -E --env --argv0 --fault --inject")


def _tracer_commands(words: list[Word], name: str) -> list | None:
    """The command `strace`/`ltrace` run, and the file `-o` writes (which
    strace pipes to a shell command instead when it begins with | or !)."""
    options, operands = getopt(words, name, _TRACERS[name], permute=False)
    if not operands:
        return None  # `strace -p PID`: a process already running
    taken: list = [("words", operands)]
    for option, value in options:
        if (
            option in _TRACER_HOLDS
            or option == "-e"
            and value.value.startswith(("inject=", "fault="))
        ):
            taken.append(HELD)
        elif option in ("-o", "--output"):
            if name == "strace" and value.value.startswith(("|", "!")):
                taken.append(("string", part_of(value, value.value[1:])))
            else:
                taken.append(("file", value))
    return taken


# valgrind's options that name a file its tool writes.
_VALGRIND_FILES = option_names(
    "--log-file --xml-file --massif-out-file --callgrind-out-file --cachegrind-out-file "
    "--dhat-out-file"
)


def _valgrind_commands(words: list[Word], name: str) -> list | None:
    """The command valgrind runs, and the files its options name. Every
    option of valgrind's is one word (`--tool=memcheck`, `-q`): it takes the
    first other word as the program, and refuses an option it does not know
    without running anything."""
    taken: list = []
    i = 1
    while i < len(words) and words[i].value.startswith("-"):
        option, eq, value = words[i].value.partition("=")
        i += 1
        if option == "--":
            break
        if option in _VALGRIND_FILES and eq:
            if "%q" in value:  # `%q{VAR}`: a variable's value
                raise SplitError(f"a {name} {option} with %q cannot be evaluated statically")
            taken.append(("file", part_of(words[i - 1], value)))
    if i == len(words):
        return None
    return [("words", words[i:])] + taken


def _mise_commands(words: list[Word], name: str) -> list | None:
    """What `mise exec`/`mise x` run: the words after `--`, or the string of
    `-c`. It puts the tools it names first on PATH: held."""
    values = [w.value for w in words]
    if len(values) < 2 or values[1] not in ("exec", "x"):
        if len(values) > 1 and values[1].startswith("-") and not {"exec", "x"}.isdisjoint(values):
            # `mise -C dir exec`: a global option before it, which we do not read
            raise SplitError(f"{name} with options before exec cannot be evaluated statically")
        return None  # another subcommand: `mise install`, `mise run TASK`
    for k in range(2, len(words)):
        option, eq, _ = values[k].partition("=")
        if values[k] == "--":
            return [HELD, ("words", words[k + 1 :])] if k + 1 < len(words) else None
        if option in ("-c", "--command"):
            return [HELD, ("string", value_of(words, k, eq))]
        if values[k].startswith("-c"):
            return [HELD, ("string", part_of(words[k], values[k][2:]))]
    return None  # a shell, or nothing


def _direnv_commands(words: list[Word], name: str) -> list | None:
    """`direnv exec DIR COMMAND...` runs COMMAND with DIR's .envrc loaded (its
    bash runs too, as it is written in that file): held."""
    if len(words) > 3 and words[1].value == "exec":
        return [HELD, ("words", words[3:])]
    return None


def _nix_commands(words: list[Word], name: str) -> list | None:
    """`nix-shell --run STRING` (or `--command`) runs STRING in the shell it
    builds; `nix develop`/`nix shell` ... `-c COMMAND...` the words. Held:
    the environment is the derivation's. A word equal to one of these
    options is taken as one wherever it stands: a reading stricter than
    nix's when it is another option's value."""
    values = [w.value for w in words]
    if name == "nix-shell":
        for k, value in enumerate(values):
            if value in ("--run", "--command"):
                if k + 1 == len(words):
                    raise SplitError(
                        f"{name} {value} without a command string cannot be evaluated statically"
                    )
                return [HELD, ("string", words[k + 1])]
        return None
    if not ("develop" in values or "shell" in values):
        return None  # `nix build`, `nix run` (the package's own program)
    for k, value in enumerate(values):
        if value in ("-c", "--command"):
            return [HELD, ("words", words[k + 1 :])] if k + 1 < len(words) else None
    return None


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


# GNU screen 4.8 to 5.0 reads its own options: letters clustered, a value
# the rest of the word or the next word. -c (a config file, which runs
# commands) and -s (the program run as the shell) are refused as unknown.
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
                i += 0 if k + 1 < len(value) else 1  # the value: the rest, or the next word
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


# ssh (OpenSSH 8 and 9): options with a value, and flags.
_SSH_SPEC = getopt_spec("BbcDEeFiJLlmOoPpQRSWw", "1246AaCfGgKkMNnqsTtVvXxYy")
# `-o` options that run a local command or load code (`-o ProxyCommand=...`),
# or name a remote command apart from the words (RemoteCommand).
_SSH_REFUSED = option_names(
    "proxycommand localcommand knownhostscommand remotecommand pkcs11provider securitykeyprovider"
)


def _ssh_commands(words: list[Word], name: str) -> list | None:
    """The command `ssh [options] HOST [options] COMMAND...` runs on the host:
    its words joined with spaces, read by the remote user's shell. Held: it
    runs elsewhere, as another user. ssh reads its options again after the
    host, up to the command."""
    options, operands = getopt(words, name, _SSH_SPEC, permute=False)
    if operands:
        more, operands = getopt([words[0]] + operands[1:], name, _SSH_SPEC, permute=False)
        options += more
    _check_ssh_options(options, name)
    taken: list = [HELD]
    taken += [("file", value) for option, value in options if option == "-E"]  # its log
    if operands and last_option(options, "-s", "-N", "-W", "-O", "-Q", "-G", "-V") is None:
        if any(map(is_input, operands)):
            raise SplitError(f"{name} given a command by {FEEDERS} cannot be evaluated statically")
        joined = " ".join(w.value for w in operands)
        expands = any(w.expands for w in operands)
        taken.append(("string", new_word(Word, (joined, 0, 0, expands, True))))
    return taken if len(taken) > 1 else None


def _check_ssh_options(options: list, name: str) -> None:
    """Refuse `-o` options that run a local command or load code. (-I, a
    PKCS#11 library to load, is refused as an option not in the spec.)"""
    for option, value in options:
        keyword = value.value.replace("=", " ").split()[:1] if option == "-o" else []
        if keyword and keyword[0].lower() in _SSH_REFUSED:
            raise SplitError(f"{name} -o {value.value} cannot be evaluated statically")


# scp's and sftp's options (OpenSSH 8 and 9; their getopt permutes): -S
# names the program run in ssh's place, and sftp's -D a local sftp server.
_COPY_SPECS = {
    "scp": getopt_spec("cDFiJlPSoX", "12346ABCOTdfGpqRrstv"),
    "sftp": getopt_spec("cDiloSsbBFJPRX", "1246AafhNpqrvC"),
}


def _copy_commands(words: list[Word], name: str) -> list | None:
    """The local programs `scp -S PROGRAM` and `sftp -S PROGRAM` or `-D
    SERVER` run; held, as ssh's command is."""
    options, _ = getopt(words, name, _COPY_SPECS[name], permute=True)
    _check_ssh_options(options, name)
    taken = [("words", [value]) for option, value in options if option == "-S"]
    if name == "sftp":
        taken += [("string", value) for option, value in options if option == "-D"]
    return [HELD] + taken if taken else None


# rsync's options whose value is a command: -e/--rsh runs on this machine
# (rsync splits it into words itself), --rsync-path on the remote one.
_RSYNC_COMMANDS = option_names("-e --rsh --rsync-path")


def _rsync_commands(words: list[Word], name: str) -> list | None:
    """The commands `rsync -e 'ssh -p 2222'` and `--rsync-path` name. Only
    these options are looked for (rsync has some 150): a word equal to one
    of them is taken as it, wherever it stands."""
    taken: list = []
    for k, word in enumerate(words[1:], 1):
        option, eq, _ = word.value.partition("=")
        if option in _RSYNC_COMMANDS:
            taken.append(("string", value_of(words, k, eq)))
        elif option.startswith("-e") and not option.startswith("--") and len(option) > 2:
            taken.append(("string", part_of(word, word.value[2:])))  # `-essh`
        elif option[:1] == "-" and option[1:2] != "-" and "e" in option[2:]:
            raise SplitError(f"{name} {word.value} cannot be evaluated statically")  # `-ave ssh`
    return [HELD] + taken if taken else None


# docker and podman (their CLIs' flag parsing: clusters, `--name=value`,
# options before the image or container): the global options, and those of
# the subcommands that run a command in a container.
_DOCKER_GLOBAL = getopt_spec(
    "cHl",
    "Dv",
    "",
    "--config --context --host --log-level --tlscacert --tlscert --tlskey",
    "--debug --tls --tlsverify",
)
_DOCKER_EXEC = getopt_spec(
    "euw",
    "dit",
    "",
    "--detach-keys --env --env-file --user --workdir",
    "--detach --interactive --privileged --tty",
)
_DOCKER_RUN = getopt_spec(
    "acehlmpuvw",
    "diPqt",
    "",
    "--add-host --annotation --attach --blkio-weight --blkio-weight-device --cap-add "
    "--cap-drop --cgroup-parent --cgroupns --cidfile --cpu-period --cpu-quota "
    "--cpu-rt-period --cpu-rt-runtime --cpu-shares --cpus --cpuset-cpus --cpuset-mems "
    "--detach-keys --device --device-cgroup-rule --device-read-bps --device-read-iops "
    "--device-write-bps --device-write-iops --dns --dns-option --dns-search --domainname "
    "--entrypoint --env --env-file --expose --gpus --group-add --health-cmd "
    "--health-interval --health-retries --health-start-period --health-start-interval "
    "--health-timeout --hostname --ip --ip6 --ipc --isolation --kernel-memory --label "
    "--label-file --link --link-local-ip --log-driver --log-opt --mac-address --memory "
    "--memory-reservation --memory-swap --memory-swappiness --mount --name --network --net "
    "--network-alias --net-alias --oom-score-adj --pid --pids-limit --platform --publish "
    "--pull --restart --runtime --security-opt --shm-size --stop-signal --stop-timeout "
    "--storage-opt --sysctl --tmpfs --ulimit --user --userns --uts --volume --volume-driver "
    "--volumes-from --workdir",
    "--detach --disable-content-trust --init --interactive --no-healthcheck "
    "--oom-kill-disable --privileged --publish-all --quiet --read-only --rm --sig-proxy --tty",
)
_COMPOSE_GLOBAL = getopt_spec(
    "fp",
    "",
    "",
    "--file --project-name --profile --env-file --project-directory --ansi --progress --parallel",
    "--compatibility --dry-run --all-resources",
)
_COMPOSE_EXEC = getopt_spec(
    "euw",
    "dTit",
    "",
    "--env --user --workdir --index",
    "--detach --no-TTY --privileged --dry-run --interactive --tty",
)

_COMPOSE_RUN = getopt_spec(
    "elpuvw",
    "dTitP",
    "",
    "--env --env-from-file --label --name --publish --user --volume --workdir --entrypoint "
    "--cap-add --cap-drop --pull",
    "--detach --rm --no-TTY --interactive --tty --no-deps --service-ports --use-aliases "
    "--build --quiet-pull --remove-orphans --quiet-build --dry-run",
)


def _docker_commands(words: list[Word], name: str) -> list | None:
    """What `docker exec CONTAINER CMD...`, `docker run [--entrypoint P] IMAGE
    [CMD...]` (and `container exec`/`run`/`create`, `compose exec SERVICE
    CMD...`) run in the container. Held: it runs in another root. An image's
    own command (`docker run IMAGE`) is not the caller's: as written."""
    if DOCKER_RUNS.isdisjoint(w.value for w in words):
        return None  # `docker ps -a`, `docker build .`: read as written
    _, rest = getopt(words, name, _DOCKER_GLOBAL, permute=False)
    if rest and rest[0].value == "container":
        rest = rest[1:]
    if not rest:
        return None
    sub = rest[0].value
    if sub == "compose":
        _, rest = getopt(rest, name, _COMPOSE_GLOBAL, permute=False)
        if not rest or rest[0].value not in ("exec", "run"):
            return None
        spec = _COMPOSE_EXEC if rest[0].value == "exec" else _COMPOSE_RUN
        options, operands = getopt(rest, name, spec, permute=False)
        command = operands[1:]
        entrypoint = last_option(options, "--entrypoint")
        if entrypoint is not None and entrypoint.value:
            command = [entrypoint] + command
        return [HELD, ("words", command)] if command else None
    if sub == "exec":
        _, operands = getopt(rest, name, _DOCKER_EXEC, permute=False)
        return [HELD, ("words", operands[1:])] if len(operands) > 1 else None
    if sub in ("run", "create"):
        options, operands = getopt(rest, name, _DOCKER_RUN, permute=False)
        command = operands[1:]
        entrypoint = last_option(options, "--entrypoint")
        if entrypoint is not None and entrypoint.value:
            command = [entrypoint] + command
        taken: list = [HELD] + ([("words", command)] if command else [])
        taken += [("string", v) for o, v in options if o == "--health-cmd"]
        return taken if len(taken) > 1 else None
    return None


# kubectl's options that take a value, before and after `exec`.
_KUBECTL_SPEC = getopt_spec(
    "cnfs",
    "itq",
    "",
    "--container --namespace --filename --pod-running-timeout --context --kubeconfig "
    "--server --user --cluster --token --as --as-group --request-timeout",
    "--stdin --tty --quiet --insecure-skip-tls-verify",
)


def _kubectl_commands(words: list[Word], name: str) -> list | None:
    """`kubectl exec POD -- CMD...` runs CMD in the pod: held. (Older kubectl
    also took `exec POD CMD...`; read so too.)"""
    values = [w.value for w in words]
    end = values.index("--") if "--" in values else len(values)
    if end + 1 < len(words) and not {"run", "debug"}.isdisjoint(values[1:end]):
        # `kubectl run NAME --image=I -- CMD`: the options of run and debug
        # are many and not read; the command is all after `--`.
        return [HELD, ("words", words[end + 1 :])]
    if "exec" not in values[1:end]:
        return None  # `kubectl get pods -o yaml`: read as written
    _, operands = getopt(words[:end], name, _KUBECTL_SPEC, permute=True)
    if not operands or operands[0].value != "exec":
        return None  # `exec` was an option's value
    if end == len(words) and len(operands) > 2:
        return [HELD, ("words", operands[2:])]  # the old form, `exec POD CMD`
    return [HELD, ("words", words[end + 1 :])] if end + 1 < len(words) else None


# hyperfine (1.16 to 1.19; clap: options anywhere among the commands).
_HYPERFINE_SPEC = getopt_spec(
    "wmMrspcDSun",
    "NiVh",
    "",
    "--warmup --min-runs --max-runs --runs --setup --prepare --conclude --cleanup "
    "--parameter-step-size --shell --style --sort --time-unit --export-asciidoc "
    "--export-csv --export-json --export-markdown --export-orgmode --output --input "
    "--command-name --reference",
    "--ignore-failure --show-output --help --version",
)
_HYPERFINE_STRINGS = option_names("-s --setup -p --prepare --conclude -c --cleanup --reference")
_HYPERFINE_FILES = option_names(
    "--export-asciidoc --export-csv --export-json --export-markdown --export-orgmode --output"
)
_SHELL_NAMES = option_names("sh bash zsh dash ksh mksh ash fish none")


def _hyperfine_commands(words: list[Word], name: str) -> list | None:
    """The commands hyperfine times, and those of --setup, --prepare,
    --conclude, --cleanup and --reference: each a string its shell runs.
    The files --export-* and --output write are edits. Parameters
    (-P, -L: `{x}` in the commands) and a shell not of the known ones
    (-S) are refused."""
    for word in words[1:]:
        option = word.value.partition("=")[0]
        if option in ("-P", "--parameter-scan", "-L", "--parameter-list") or (
            option[:2] in ("-P", "-L") and option[:2] != option
        ):
            raise SplitError(f"{name} with parameters cannot be evaluated statically")
    options, commands = getopt(words, name, _HYPERFINE_SPEC, permute=True)
    shell = last_option(options, "-S", "--shell")
    if (
        shell is not None
        and shell.value.split()[:1] != []
        and (shell.value.split()[0].rsplit("/", 1)[-1] not in _SHELL_NAMES)
    ):
        raise SplitError(f"{name} --shell {shell.value} cannot be evaluated statically")
    taken: list = [("string", w) for w in commands]
    taken += [("string", v) for o, v in options if o in _HYPERFINE_STRINGS]
    taken += [
        ("file", v)
        for o, v in options
        if o in _HYPERFINE_FILES and v.value not in ("null", "pipe", "inherit")
    ]
    return taken or None


def _sg_commands(words: list[Word], name: str) -> list | None:
    """`sg GROUP [-c] COMMAND`: COMMAND is a string /bin/sh runs with GROUP
    as the group: held, as for su. (`sg -` and options are refused.)"""
    args = words[1:]
    if args and args[0].value.startswith("-"):
        raise SplitError(f"{name} with option {args[0].value} cannot be evaluated statically")
    if len(args) > 1 and args[1].value == "-c":
        args = args[:1] + args[2:]
    if len(args) < 2:
        return None  # a shell with the group
    if len(args) > 2 or any(map(is_input, args)):
        raise SplitError(f"{name} with more than one command word cannot be evaluated statically")
    return [HELD, ("string", args[1])]


# Programs that fetch secrets and run a command with them in its
# environment: (subcommands that run one, getopt spec of their options,
# operands before the command (None: up to `--`), options whose value is a
# shell string they run, options naming a file they write, whether the
# command must be one shell string). Held, as for envdir: the variables are
# theirs. Their parsers differ on options after the command (cobra,
# kingpin and click take them; envchain does not), so without `--` before
# the command an option-like word after its name is refused. (1Password CLI
# 2, Doppler CLI 3, Infisical CLI 0.3x, aws-vault 7, chamber 2 and 3,
# dotenvx 1, python-dotenv 1, envchain 1, sops 3.)
_VAULT_BOOLS = "--debug --no-color --silent --json --quiet --verbose"
_VAULTS = {
    "op": (
        frozenset({("run",), ("plugin", "run")}),
        getopt_spec(
            "",
            "h",
            "",
            "--env-file --account --config --session --encoding --format",
            "--help",
            "--no-masking --cache --iso-timestamps " + _VAULT_BOOLS,
        ),
        0,
        frozenset(),
        frozenset(),
        False,
    ),
    "doppler": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec(
            "pc",
            "h",
            "",
            "--project --config --token --fallback --fallback-passphrase --mount "
            "--mount-format --mount-template --mount-max-reads --name-transformer "
            "--only-secrets --dynamic-ttl --command --scope --configuration --api-host "
            "--dashboard-host --attempts",
            "--help",
            "--preserve-env --no-fallback --fallback-readonly --fallback-only "
            "--no-exit-on-write-failure --forward-signals --watch --no-cache "
            "--enable-file-fallback --no-check-version --no-verify-tls --no-timing "
            "--print-config --no-read-env " + _VAULT_BOOLS,
        ),
        0,
        option_names("--command"),
        option_names("--mount"),
        False,
    ),
    "infisical": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec(
            "t",
            "h",
            "",
            "--env --path --projectId --token --tags --domain --watch-interval --command "
            "--log-level",
            "--help",
            "--expand --include-imports --recursive --secret-overriding --watch --telemetry "
            + _VAULT_BOOLS,
        ),
        0,
        option_names("--command"),
        frozenset(),
        False,
    ),
    "aws-vault": (
        frozenset((w,) for w in option_names("exec")),
        getopt_spec(
            "dt",
            "njsh",
            "",
            "--duration --region --mfa-token --prompt --backend --keychain "
            "--secret-service-collection --pass-dir --pass-prefix --file-dir",
            "--no-session --server --ec2-server --ecs-server --lazy --stdout --help "
            + _VAULT_BOOLS,
        ),
        1,
        frozenset(),
        frozenset(),
        False,
    ),
    "chamber": (
        frozenset((w,) for w in option_names("exec")),
        getopt_spec(
            "br",
            "hv",
            "",
            "--backend --retries --kms-key-alias --min-throttle-delay --strict-value",
            "--pristine --strict --help --verbose",
        ),
        None,
        frozenset(),
        frozenset(),
        False,
    ),
    "dotenvx": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec(
            "f",
            "oqvdh",
            "",
            "--env-file --env --env-vault-file --convention --ignore --log-level --env-keys-file",
            "--overload --strict --quiet --verbose --debug --help --ops-off",
        ),
        0,
        frozenset(),
        frozenset(),
        False,
    ),
    "dotenv": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec("", "h", "", "", "--override --no-override --help"),
        0,
        frozenset(),
        frozenset(),
        False,
    ),
    "envchain": (None, getopt_spec(), 1, frozenset(), frozenset(), False),
    "sops": (
        frozenset((w,) for w in option_names("exec-env exec-file")),
        getopt_spec(
            "",
            "",
            "",
            "--user --input-type --output-type --filename",
            "--background --no-fifo --pristine --same-process",
        ),
        1,
        frozenset(),
        frozenset(),
        True,
    ),
}


def _vault_commands(words: list[Word], name: str) -> list | None:
    """What `op run -- CMD`, `doppler run --command STRING`, `aws-vault exec
    PROFILE -- CMD`, `sops exec-env FILE STRING` and their kin run: held."""
    subcommands, spec, before, strings, files, one_string = _VAULTS[name]
    values = [w.value for w in words]
    start = 1
    if subcommands is not None:
        for subcommand in subcommands:
            if tuple(values[1 : 1 + len(subcommand)]) == subcommand:
                start = 1 + len(subcommand)
        if start == 1:
            if values[1:2] and values[1].startswith("-"):
                for subcommand in subcommands:
                    if subcommand[0] in values:
                        # `op --account x run`: a global option before it, which we do not read
                        raise SplitError(
                            f"{name} with options before {subcommand[0]} cannot be evaluated statically"
                        )
            return None  # another subcommand: `op item get`, `doppler secrets`
    elif values[1:2] and values[1].startswith("-"):
        return None  # `envchain --set NAMESPACE VAR`: no command
    options, operands = getopt(words[start - 1 :], name, spec, permute=False)
    first = len(words) - len(operands)  # where the operands start in `words`
    dashed = first > start and words[first - 1].value == "--"
    if before is None:  # chamber: services up to `--`, the command after it
        ends = [k for k, w in enumerate(operands) if w.value == "--"]
        if not ends:  # chamber wants `--` there; we do not guess where the command starts
            raise SplitError(f"{name} without -- before the command cannot be evaluated statically")
        leading, command, dashed = operands[: ends[0]], operands[ends[0] + 1 :], True
    else:
        leading, command = operands[:before], operands[before:]
        if command and not dashed and command[0].value == "--":
            command, dashed = command[1:], True
    if any(map(is_input, leading)):  # `xargs aws-vault exec`: its input may hold `-- rm`
        raise SplitError(f"{name} given arguments by {FEEDERS} cannot be evaluated statically")
    taken: list = [HELD]
    taken += [("string", v) for o, v in options if o in strings]
    taken += [("file", v) for o, v in options if o in files]
    if one_string:
        if len(command) > 1 or any(map(is_input, command)):
            raise SplitError(
                f"{name} with more than one command word cannot be evaluated statically"
            )
        taken += [("string", w) for w in command]
    elif command:
        if not dashed and name != "envchain" and any(w.value[:1] == "-" for w in command[1:]):
            raise SplitError(
                f"{name} with an option after the command cannot be evaluated statically "
                "(put -- before the command)"
            )
        taken.append(("words", command))
    return taken if len(taken) > 1 else None


def _dotenv_commands(words: list[Word], name: str) -> list | None:
    """Two programs are named dotenv: python-dotenv (`dotenv run CMD`, read
    as the other secret runners) and npm's dotenv-cli (`dotenv -e .env --
    CMD`), whose command is taken after `--` and refused without it."""
    values = [w.value for w in words]
    if values[1:2] in ([], ["list"], ["get"], ["set"], ["unset"], ["--help"], ["--version"]):
        return None
    if "run" in values and "--" not in values[: values.index("run")]:
        return _vault_commands(words, name)
    if "--" not in values:
        raise SplitError(f"{name} without -- before the command cannot be evaluated statically")
    end = values.index("--")
    return [HELD, ("words", words[end + 1 :])] if end + 1 < len(words) else None


# GNU parallel (2020 to 2024; Getopt::Long, options end at the first word
# that is not one). Options that run code, work on other hosts or change
# the replacement strings are not listed, so they are refused.
_PARALLEL_SPEC = getopt_spec(
    "jPnNIdaCEs",
    "k0qvtuXmrh",
    "",
    "--jobs --max-procs --max-args --max-replace-args --delimiter --arg-file --colsep "
    "--joblog --results --res --halt --halt-on-error --timeout --retries --delay --tmpdir "
    "--tag-string --memfree --load --eof --max-chars --block --block-size --nice --termseq",
    "--keep-order --null --quote --verbose --dry-run --dryrun --bar --progress --eta --tag "
    "--line-buffer --lb --ungroup --group --will-cite --no-notice --shuf --xargs "
    "--no-run-if-empty --pipe --files --plain --help --version --citation --silent "
    "--linebuffer --round-robin --round",
)
_PARALLEL_SOURCES = frozenset({":::", ":::+", "::::", "::::+"})
# Characters its shell reads in parallel's command, beyond the spaces that
# split it into words: with one, the words as written are not what runs.
_SHELL_READS = frozenset(";&|<>()$`\\'\"*?[]#~")


def _parallel_commands(words: list[Word], name: str) -> list | None:
    """What `parallel [options] COMMAND ::: VALUES` runs. Each word holding a
    replacement string (`{}`, `{.}`, `{1}`, or -I's) is the input `…`, as for
    `xargs -I`; with none, the input is appended. Without -q its shell
    splits the command at spaces; a character it reads beyond them (`;`,
    `$`, quotes, globs), Perl in `{= =}`, and commands taken from the input
    (no COMMAND, unless one `:::` lists them) are refused. --joblog and
    --results write files."""
    options, operands = getopt(words, name, _PARALLEL_SPEC, permute=False)
    ends = [k for k, w in enumerate(operands) if w.value in _PARALLEL_SOURCES]
    template = operands[: ends[0]] if ends else operands
    taken: list = [("file", v) for o, v in options if o in ("--joblog", "--results", "--res")]
    taken = [t for t in taken if t[1].value != "-"]
    if not template:
        values = operands[1:]
        if ends != [0] or any(w.value in _PARALLEL_SOURCES for w in values):
            raise SplitError(
                f"{name} running commands from its input cannot be evaluated statically"
            )
        return taken + [("string", w) for w in values] or None
    replace = last_option(options, "-I")
    quoted = last_option(options, "-q", "--quote") is not None
    each: list[Word] = []
    inserted = False
    if not quoted:  # its shell splits `'convert {} {.}.png'` at the spaces
        template = [part_of(w, piece) for w in template for piece in w.value.split()]
    if not template:
        raise SplitError(f"{name} with an empty command cannot be evaluated statically")
    if not quoted and "=" in template[0].value:  # `A=1 cmd`: an assignment to its shell
        raise SplitError(
            f"{name} with an assignment before its command cannot be evaluated statically"
        )
    for word in template:
        value = word.value
        if "{=" in value:
            raise SplitError(f"{name} with Perl in {{= =}} cannot be evaluated statically")
        if not quoted and not _SHELL_READS.isdisjoint(value):
            raise SplitError(
                f"{name} with a command its shell reads ({value}) cannot be evaluated statically"
            )
        holds = replace.value in value if replace else "{" in value and "}" in value
        each.append(input_word(word.end) if holds else word)
        inserted = inserted or holds
    if not inserted and last_option(options, "--pipe") is None:
        each.append(input_word(template[-1].end))  # the values are appended
    return taken + [("words", each)]


# at and batch (at 3.2) and crontab (cronie 1.5 to 1.7, Debian's cron 3.0):
# the options that only list, show or remove jobs or tables. Anything else
# stores commands to run later, from the input or a file, which cannot be
# read here.
_SCHEDULER_SPECS = {
    "at": (getopt_spec("qft", "mMlrdvcVbK"), option_names("-l -r -d -c -V")),
    "batch": (getopt_spec("qf", "mMvV"), option_names("-V")),
    "crontab": (getopt_spec("uc", "elriVT"), option_names("-l -r -e -V -T")),
}


def _scheduler_commands(words: list[Word], name: str) -> list | None:
    """`at`, `batch` and `crontab` store commands that run later, as the
    user, read from their input or a file: refused, unless they only list
    or remove jobs (`at -l`, `crontab -l`, `crontab -e`)."""
    spec, only_list = _SCHEDULER_SPECS[name]
    options, _ = getopt(words, name, spec, permute=True)
    if not only_list.isdisjoint(option for option, _ in options):
        return None
    raise SplitError(
        f"{name} storing commands from its input or a file cannot be evaluated statically"
    )


def _entr_commands(words: list[Word], name: str) -> list | None:
    """What `entr [-acdnprsz] UTILITY [ARGS]` runs each time a file changes
    (entr 4 and 5): its words, `/_` being the file that changed (`…`), or
    with -s one string its shell runs."""
    options, operands = getopt(words, name, getopt_spec("", "acdnprsz"), permute=False)
    if not operands:
        return None
    if last_option(options, "-s") is not None:
        if len(operands) > 1:
            raise SplitError(f"{name} -s with more than one word cannot be evaluated statically")
        return [("string", operands[0])]
    return [("words", [input_word(w.end) if w.value == "/_" else w for w in operands])]


def _watchexec_commands(words: list[Word], name: str) -> list | None:
    """What `watchexec [OPTIONS] -- COMMAND...` runs on each change: its
    words joined, for its shell (with `-n` or `--shell=none`, as they are).
    Its options are many and some take an optional value, so the command is
    read only after `--`. Variables it sets (-E) hold the command."""
    values = [w.value for w in words]
    if "--" not in values:
        if all(v.startswith("-") for v in values[1:]):
            return None  # `watchexec --help`
        raise SplitError(
            f"{name} without -- before the command cannot be evaluated statically "
            "(put -- before the command)"
        )
    end = values.index("--")
    command = words[end + 1 :]
    if not command:
        return None
    options = values[1:end]
    shells = [v.partition("=")[2] for v in options if v.startswith("--shell=")]
    shells += [options[k + 1] for k, v in enumerate(options[:-1]) if v == "--shell"]
    shell = "none" if "-n" in options else (shells[-1] if shells else "sh")
    held = any(v in ("-E", "--env") or v.startswith(("-E", "--env=")) for v in options)
    taken: list = [HELD] if held else []
    if shell == "none":
        return taken + [("words", command)]
    if shell.rsplit("/", 1)[-1] not in SHELLS:
        raise SplitError(f"{name} --shell={shell} cannot be evaluated statically")
    if any(map(is_input, command)):
        raise SplitError(f"{name} given a command by {FEEDERS} cannot be evaluated statically")
    joined = " ".join(w.value for w in command)
    expands = any(w.expands for w in command)
    return taken + [("string", new_word(Word, (joined, 0, 0, expands, True)))]


def _nodemon_commands(words: list[Word], name: str) -> list | None:
    """The string `nodemon --exec STRING` (or `-x`) runs through a shell,
    with the script and its arguments appended: held, so deny and ask rules
    see it and an allow names nodemon as written. A word equal to the
    option is taken as it wherever it stands (nodemon has some 40)."""
    taken: list = [HELD]
    for k, word in enumerate(words[1:], 1):
        option, eq, _ = word.value.partition("=")
        if option in ("--exec", "-x"):
            taken.append(("string", value_of(words, k, eq)))
    return taken if len(taken) > 1 else None


# gdb 12 to 15 (getopt_long_only: `-ex` and `--ex` alike). Options naming a
# script, an interpreter or another program file are not listed: refused.
_GDB_VALUES = option_names(
    "-ex --ex -eval-command --eval-command -iex --iex -init-eval-command "
    "--init-eval-command -c --c -core --core -p --p -pid --pid -d --d -directory "
    "--directory -cd --cd -D --D -data-directory --data-directory -tty --tty -b --b "
    "-baud --baud"
)
_GDB_FLAGS = option_names(
    "-q --q -quiet --quiet -silent --silent -nx --nx -n --n -nh --nh -batch --batch "
    "-batch-silent --batch-silent -readnow --readnow -readnever --readnever -f --f "
    "-fullname --fullname -return-child-result --return-child-result -nw --nw "
    "-nowindows --nowindows -statistics --statistics"
)
_GDB_COMMANDS = option_names(
    "run r start starti bt backtrace where info i quit q continue c next n step s "
    "finish fin print p x list l frame f thread up down kill detach break b tbreak "
    "watch display disassemble handle catch echo printf output ptype whatis"
)


def _gdb_commands(words: list[Word], name: str) -> list | None:
    """The program `gdb -batch -ex run --args PROG ARGS...` debugs: held
    (gdb can change what it does). Its -ex commands must be of a short
    list that runs nothing else (`shell`, `python`, `pipe` are refused), and
    `run` takes no arguments (its shell would read them). Without -batch,
    gdb reads commands from its input: refused, as for a shell."""
    i, batch, program = 1, False, []
    while i < len(words):
        option, eq, attached = words[i].value.partition("=")
        if option in ("--args", "-args"):
            program = words[i + 1 :]
            break
        if option.lstrip("-") in ("version", "help", "configuration"):
            return None  # it prints and exits
        if option in _GDB_FLAGS:
            batch = batch or "batch" in option
            i += 1
            continue
        if option in _GDB_VALUES:
            value = attached if eq else (words[i + 1].value if i + 1 < len(words) else "")
            if option.lstrip("-") in ("ex", "eval-command", "iex", "init-eval-command"):
                verb, _, arguments = value.strip().partition(" ")
                if verb not in _GDB_COMMANDS or (
                    verb in ("run", "r", "start", "starti") and arguments.strip()
                ):
                    raise SplitError(f"{name} -ex '{value}' cannot be evaluated statically")
            i += 1 if eq else 2
            continue
        if option.startswith("-"):
            raise SplitError(f"{name} with option {option} cannot be evaluated statically")
        program = program or words[i : i + 1]  # PROG [CORE|PID]: the program, no arguments
        i += 1
    if not batch:
        raise SplitError(f"{name} reading commands from its input cannot be evaluated statically")
    return [HELD, ("words", program)] if program else None


# bubblewrap 0.6 to 0.11: how many values each option takes. The command
# runs in the sandbox it builds (another root, namespaces, argv[0]): held.
_BWRAP_VALUES = {
    **dict.fromkeys(
        option_names(
            "--help --version --unshare-all --share-net --unshare-user --unshare-user-try "
            "--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup "
            "--unshare-cgroup-try --die-with-parent --as-pid-1 --new-session --clearenv "
            "--disable-userns --assert-userns-disabled --level-prefix"
        ),
        0,
    ),
    **dict.fromkeys(
        option_names(
            "--argv0 --userns --userns2 --pidns --uid --gid --hostname --chdir --unsetenv "
            "--lock-file --sync-fd --remount-ro --proc --dev --tmpfs --mqueue --dir --seccomp "
            "--add-seccomp-fd --block-fd --userns-block-fd --info-fd --json-status-fd "
            "--cap-add --cap-drop --perms --size --exec-label --file-label --overlay-src "
            "--tmp-overlay --ro-overlay"
        ),
        1,
    ),
    **dict.fromkeys(
        option_names(
            "--setenv --bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try "
            "--bind-fd --ro-bind-fd --file --bind-data --ro-bind-data --symlink --chmod"
        ),
        2,
    ),
    "--overlay": 3,
}


def _bwrap_commands(words: list[Word], name: str) -> list | None:
    """The command bwrap runs in its sandbox, after its options. `--args FD`
    (more options from a descriptor) and options not listed are refused."""
    i = 1
    while i < len(words) and words[i].value.startswith("--"):
        option = words[i].value
        if option == "--":
            i += 1
            break
        if option not in _BWRAP_VALUES:
            raise SplitError(f"{name} with option {option} cannot be evaluated statically")
        i += 1 + _BWRAP_VALUES[option]
    return [HELD, ("words", words[i:])] if i < len(words) else None


COMMAND_TAKERS = {
    "su": _su_commands,
    "runuser": _su_commands,
    "script": _script_commands,
    "watch": _watch_commands,
    "flock": _flock_commands,
    "strace": _tracer_commands,
    "ltrace": _tracer_commands,
    "valgrind": _valgrind_commands,
    "mise": _mise_commands,
    "direnv": _direnv_commands,
    "nix-shell": _nix_commands,
    "nix": _nix_commands,
    "tmux": _tmux_commands,
    "ssh": _ssh_commands,
    "scp": _copy_commands,
    "sftp": _copy_commands,
    "rsync": _rsync_commands,
    "docker": _docker_commands,
    "podman": _docker_commands,
    "kubectl": _kubectl_commands,
    "hyperfine": _hyperfine_commands,
    "sg": _sg_commands,
    "bwrap": _bwrap_commands,
    **dict.fromkeys(_VAULTS, _vault_commands),
    "dotenv": _dotenv_commands,
    "parallel": _parallel_commands,
    "screen": _screen_commands,
    "entr": _entr_commands,
    "watchexec": _watchexec_commands,
    "nodemon": _nodemon_commands,
    "gdb": _gdb_commands,
    **dict.fromkeys(_SCHEDULER_SPECS, _scheduler_commands),
}
