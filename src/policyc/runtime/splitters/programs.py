"""What a command runs, read from its words: the programs that run another
command (wrappers, sudo and the like, runners such as `uv run`, `su -c`,
`watch`, `flock`, `script`, `xargs`, a shell's `-c` string), git's options
before its command, find's actions, and what `trap` and `alias` keep.

Each reader works on the words after quote removal (`words.Word`) and
returns words or positions; `shell` turns them into subjects. No `re`:
importing it costs the hook's start (see `shell._compile_patterns`).
"""

from __future__ import annotations

from .words import SplitError, Word, new_word

# Assignments that change neither which program runs nor what it loads:
# locale, time zone, terminal and colour settings. Any other assignment
# (PATH, LD_PRELOAD, NODE_OPTIONS, PYTHONPATH, GIT_*, PAGER, EDITOR, HOME,
# BASH_ENV, ...) can, so a command behind one is held to deny and ask rules
# only (a constraint) and must be allowed as written, assignment included.
SAFE_ASSIGNMENTS = frozenset(
    {
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "COLUMNS",
        "LINES",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
    }
)
SAFE_ASSIGNMENT_PREFIXES = ("LC_",)


_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_REST = _NAME_START | frozenset("0123456789")


def _is_name(text: str) -> bool:
    """A shell variable's name: `[A-Za-z_][A-Za-z0-9_]*`."""
    return text[:1] in _NAME_START and _NAME_REST.issuperset(text)


def is_safe_assignment(name: str) -> bool:
    return name in SAFE_ASSIGNMENTS or name.startswith(SAFE_ASSIGNMENT_PREFIXES)


def program_name(word: str) -> str:
    """The program a command word names, for telling wrappers, shells and eval:
    in lower case, as macOS's file system finds `SUDO` or `/BIN/BASH`."""
    return word.rsplit("/", 1)[-1].lower()


def _trap_action(words: list[Word]) -> list[Word]:
    """The command `trap ACTION SIGNAL...` sets (none for `-`, `''`, `-p`, `-l`)."""
    args = words[1:]
    if args and args[0].value == "--" and not args[0].quoted:
        args = args[1:]
    elif args and args[0].value.startswith("-") and not args[0].quoted:
        return []  # `-p`, `-l`, `-P` print; `-` alone resets
    if len(args) < 2 or args[0].value in ("", "-"):
        return []  # a lone operand is a signal to reset
    return [args[0]]


def _alias_values(words: list[Word]) -> list[Word]:
    """The commands `alias NAME=VALUE...` defines."""
    out = []
    for word in words[1:]:
        name, eq, value = word.value.partition("=")
        if eq and name and value:
            out.append(new_word(Word, (value, word.start, word.end, word.expands, word.quoted)))
    return out


LATER = {"trap": _trap_action, "alias": _alias_values}

# find's actions that run a command, up to a `;` argument (or `{} +`).
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
# find's actions that write the file named by their next argument.
FIND_WRITE = frozenset({"-fprint", "-fprint0", "-fls", "-fprintf"})


def _options(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Programs that run a command in an environment they set up: `uv run pytest`,
# `npx tsc`, `poetry run python x.py`. Each: the subcommands that run one
# (None: the program itself does), its options that take a value, those
# that do not, and those we refuse (a shell string). An option not listed
# leaves where the command starts unknown: deny and ask rules then see the
# command from each later word that is not an option (`uv run --new x
# pytest`: `x pytest` and `pytest`), a stricter reading, never a looser one.
_PYTHON_RUN = (
    _options(
        "--with --with-editable --with-requirements -p --python --package --project "
        "--directory --extra --no-extra --group --only-group --no-group --env-file --index "
        "--index-url --default-index --extra-index-url -f --find-links --color "
        "--config-file --cache-dir --python-preference --resolution --prerelease "
        "--link-mode -P --upgrade-package --reinstall-package --refresh-package "
        "--no-binary-package --no-build-package --keyring-provider --index-strategy "
        "--exclude-newer -C --config-setting --allow-insecure-host --python-platform"
    ),
    _options(
        "-q -qq --quiet -v -vv -vvv --verbose -n --no-cache --offline --frozen --locked "
        "--no-sync --isolated --all-extras --no-dev --dev --only-dev --no-project --active "
        "--no-active --all-packages --exact --inexact --refresh --reinstall -U --upgrade "
        "--no-editable --compile-bytecode --native-tls --preview --no-config --no-env-file "
        "--no-progress --no-build-isolation --no-build --no-binary --no-python-downloads "
        "--managed-python --no-managed-python -s --script -m --module --gui-script "
        "--no-default-groups --all-groups"
    ),
    frozenset(),
)
_NODE_EXEC = (
    _options("-p --package --prefix -w --workspace --filter -F -C --dir"),
    _options(
        "-y --yes --no -q --quiet --silent --ws --workspaces --include-workspace-root "
        "-r --recursive --parallel --no-bail --report-summary --bun"
    ),
    _options("-c --call --shell-mode"),
)
RUNNERS: dict[str, tuple[frozenset | None, frozenset[str], frozenset[str], frozenset[str]]] = {
    "uv": (frozenset({"run"}), *_PYTHON_RUN),
    "poetry": (
        frozenset({"run"}),
        _options("-C --directory -P --project"),
        _options(
            "-q --quiet -v -vv -vvv --verbose -n --no-interaction --ansi --no-ansi "
            "--no-plugins --no-cache"
        ),
        frozenset(),
    ),
    "pipenv": (
        frozenset({"run"}),
        _options("--python"),
        _options("-v --verbose -q --quiet"),
        frozenset(),
    ),
    "pdm": (
        frozenset({"run"}),
        _options("-p --project"),
        _options("-v --verbose -q --quiet -g --global -s --site-packages"),
        frozenset(),
    ),
    "conda": (
        frozenset({"run"}),
        _options("-n --name -p --prefix --cwd"),
        _options("--no-capture-output --live-stream -v --verbose --dev --debug-wrapper-scripts"),
        frozenset(),
    ),
    "pipx": (
        frozenset({"run"}),
        _options("--spec --python --index-url --pip-args"),
        _options("--no-cache -v --verbose -q --quiet"),
        frozenset(),
    ),
    "npx": (None, *_NODE_EXEC),
    "bunx": (None, *_NODE_EXEC),
    "npm": (frozenset({"exec", "x"}), *_NODE_EXEC),
    "pnpm": (frozenset({"exec", "dlx"}), *_NODE_EXEC),
    "yarn": (frozenset({"exec", "dlx"}), *_NODE_EXEC),
    "bun": (frozenset({"x"}), *_NODE_EXEC),
    "bundle": (
        frozenset({"exec"}),
        _options("--gemfile"),
        _options("--keep-file-descriptors"),
        frozenset(),
    ),
}
RUNNERS["mamba"] = RUNNERS["micromamba"] = RUNNERS["conda"]
# Each guess is read in full (it may be `bash -c ...` or another runner), so
# guesses nest: at most 8 at each of MAX_DEPTH levels.
_MAX_RUNNER_GUESSES = 8


def runner_commands(words: list[Word], spec: tuple, name: str) -> list[list[Word]]:
    """The command a runner runs (`pytest` of `uv run -q pytest -x`), or,
    past an option we do not know, each command it may be."""
    subcommands, with_value, flags, refused = spec
    i, n = 1, len(words)
    while i < n:
        value = words[i].value
        if value == "--" and subcommands is None:
            return [words[i + 1 :]] if i + 1 < n else []
        if value.startswith("-") and len(value) > 1 and value != "--":
            option = value.split("=", 1)[0]
            if option in refused:
                raise SplitError(f"{name} with option {value} cannot be evaluated statically")
            if option in flags:
                i += 1
            elif option in with_value:
                i += 1 if "=" in value else 2
            elif option[:2] in with_value and not option.startswith("--"):
                i += 1  # a short option with its value attached: `-p3.12`
            else:
                guesses = [words[j:] for j in range(i + 1, n) if not words[j].value.startswith("-")]
                if len(guesses) > _MAX_RUNNER_GUESSES:
                    raise SplitError(
                        f"{name} with option {value} and {len(guesses)} words after it "
                        "cannot be evaluated statically"
                    )
                return guesses
            continue
        if subcommands is not None:
            if value not in subcommands:
                return []  # another subcommand (`uv pip install`): nothing runs
            subcommands = None
            i += 1
            continue
        return [words[i:]]
    return []


def _getopt(words: list[Word], name: str, spec: tuple, permute: bool) -> tuple[list, list]:
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


def part_of(word: Word, value: str) -> Word:
    """The value of `--option=value` or `-oVALUE`, as a word of its own."""
    return new_word(Word, (value, word.start, word.end, word.expands, word.quoted))


def _option(options: list, *names: str):
    """The value of the last of these options given (getopt's), or None."""
    found = None
    for option, value in options:
        if option in names:
            found = value if value is not None else True
    return found


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
    options, operands = _getopt(words, name, spec, permute=True)
    if _option(options, "-s", "--shell") is not None:
        raise SplitError(
            f"{name} -s (a program to run as the shell) cannot be evaluated statically"
        )
    if name == "runuser" and _option(options, "-u", "--user") is not None:
        return [HELD, ("words", operands)] if operands else None  # `runuser -u USER -- CMD`
    taken = [HELD]
    string = _option(options, "-c", "--command", "--session-command")
    if string is not None:
        taken.append(("string", string))
    if any(map(is_input, operands)):  # `xargs su root`: its input may be `-c CMD`
        raise SplitError(f"{name} given arguments by xargs cannot be evaluated statically")
    if len(operands) > 1:  # after the user: arguments to the user's shell (`-c STRING`)
        script = shell_script(operands, "sh")
        if script is not None:
            taken.append(("string", script))
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
    options, operands = _getopt(words, name, spec, permute=True)
    string = _option(options, "-c", "--command")
    if string is None:
        return None  # an interactive shell
    taken = [("string", string)]
    logs = [v for o, v in options if o in ("-I", "-O", "-B", "-T", "--log-in", "--log-out")]
    logs += [v for o, v in options if o in ("--log-io", "--log-timing", "-t", "--timing") and v]
    logs += operands[:1]
    if not operands and _option(options, "-O", "--log-out", "-B", "--log-io") is None:
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
    options, operands = _getopt(words, name, spec, permute=False)
    if not operands:
        return None
    if any(map(is_input, operands)):  # joined with its input, then run by sh
        raise SplitError(f"{name} given arguments by xargs cannot be evaluated statically")
    if _option(options, "-x", "--exec") is not None:
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
    _, operands = _getopt(words, name, spec, permute=False)
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
        _options(
            "--columns --detach-on --env --interruptible --stack-trace-frame-limit "
            "--syscall-limit --output --summary-syscall-overhead --attach --trace-path "
            "--string-limit --summary-sort-by --user --summary-columns --const-print-style "
            "--argv0 --color --trace --trace-fds --abbrev --verbose --raw --signals --status --read "
            "--write --fault --inject --kvm --decode-pids"
        ),
        _options(
            "--output-append-mode --summary-only --summary --debug --follow-forks "
            "--output-separately --help --instruction-pointer --kill-on-exit --syscall-number "
            "--no-abbrev --version --summary-wall-clock --pidns-translation --successful-only "
            "--failed-only --failing-only --seccomp-bpf --arg-names --always-show-pid"
        ),
        _options(
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
        _options("--align --config --debug --indent --library --output --where"),
        _options("--demangle --help --version --no-signals"),
        frozenset(),
    ),
}
# Options with which the traced command runs as another user, with other
# variables or another argv[0], or sees system calls fail on purpose.
_TRACER_HOLDS = _options("-u --user -E --env --argv0 --fault --inject")


def _tracer_commands(words: list[Word], name: str) -> list | None:
    """The command `strace`/`ltrace` run, and the file `-o` writes (which
    strace pipes to a shell command instead when it begins with | or !)."""
    options, operands = _getopt(words, name, _TRACERS[name], permute=False)
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
_VALGRIND_FILES = _options(
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
            return [HELD, ("string", _value_of(words, k, eq))]
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
                    raise SplitError(f"{name} {value} without a command string")
                return [HELD, ("string", words[k + 1])]
        return None
    if not ("develop" in values or "shell" in values):
        return None  # `nix build`, `nix run` (the package's own program)
    for k, value in enumerate(values):
        if value in ("-c", "--command"):
            return [HELD, ("words", words[k + 1 :])] if k + 1 < len(words) else None
    return None


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
}


# git's options before its command (git 2.39 to 2.47): those that take the
# next argument as their value (or `--name=value`), and those that do not.
_GIT_WITH_VALUE = frozenset(
    {
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--super-prefix",
        "--attr-source",
        "--shallow-file",
    }
)
_GIT_FLAGS = frozenset(
    {
        "-p",
        "--paginate",
        "-P",
        "--no-pager",
        "--bare",
        "--no-replace-objects",
        "--no-lazy-fetch",
        "--no-optional-locks",
        "--no-advice",
        "--literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
        "--exec-path",
        "--html-path",
        "--man-path",
        "--info-path",
        "--list-cmds",
        "-v",
        "--version",
        "-h",
        "--help",
    }
)


def git_command_at(words: list[Word]) -> int:
    """Where git's command (`push` in `git -C . push`) stands, past its options."""
    i, n = 1, len(words)
    if i < n and is_input(words[i]):  # `xargs git`: a line may be `-c alias.x=!cmd x`
        raise SplitError("git given its options by xargs cannot be evaluated statically")
    while i < n and words[i].value.startswith("-"):
        option, eq, _ = words[i].value.partition("=")
        if option in _GIT_WITH_VALUE:
            i += 1 if eq else 2
        elif option in _GIT_FLAGS and (not eq or option in ("--exec-path", "--list-cmds")):
            i += 1
        else:
            raise SplitError(f"git with option {words[i].value} cannot be evaluated statically")
    return i


def shell_script(words: list[Word], name: str) -> Word | None:
    """The string of `bash -c STRING` (options may come first, clustered: `-lc`).

    The shell reads its options after quote removal, so `'-c'` is `-c`.
    """
    i = 1
    seen_c = False
    while i < len(words):
        value = words[i].value
        if value.startswith("--") and len(value) > 2:
            option, eq, _ = value.partition("=")
            if option == "--command":  # fish: the string is the option's value
                return _value_of(words, i, eq)
            if option == "--init-command":
                raise SplitError(f"{name} --init-command cannot be evaluated statically")
            i += 2 if option in _SHELL_LONG_WITH_VALUE and not eq else 1
            continue
        if value == "--":  # the end of the options: the string, or a script file
            if seen_c and i + 1 < len(words):
                return words[i + 1]
            break
        if value.startswith(("-", "+")) and len(value) > 1:
            if name == "fish" and "C" in value[1:]:
                raise SplitError("fish -C (a command to run first) cannot be evaluated statically")
            seen_c = seen_c or "c" in value[1:]
            if "o" in value[1:] or "O" in value[1:]:
                i += 1  # -o OPTION takes a value
            i += 1
            continue
        return words[i] if seen_c else None
    if seen_c:
        raise SplitError("`-c` without a command string")
    return None


def _value_of(words: list[Word], i: int, eq: str) -> Word:
    if eq:
        return part_of(words[i], words[i].value.partition("=")[2])
    if i + 1 < len(words):
        return words[i + 1]
    raise SplitError("`--command` without a command string")


# The shells' long options that take the next word as their value (bash's
# startup files). fish's command to run first (`-C`, `--init-command`) is
# refused: a second string to read is not worth the code for a shell agents
# rarely use.
_SHELL_LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file"})


# Wrappers that run their command without changing what it is. Options that
# take a value are listed so the value is not mistaken for the command.
WRAPPERS: dict[str, tuple[frozenset[str], frozenset[str], int]] = {
    # name: (options taking a value, options without, leading operands before the command)
    "timeout": (
        frozenset({"-s", "--signal", "-k", "--kill-after"}),
        # (-p and -f are coreutils 9.5's short forms: older ones refuse them and run nothing)
        frozenset({"-p", "--preserve-status", "-f", "--foreground", "-v", "--verbose"}),
        1,
    ),
    "time": (frozenset(), frozenset({"-p"}), 0),
    "nice": (frozenset({"-n", "--adjustment"}), frozenset(), 0),
    "nohup": (frozenset(), frozenset(), 0),
    "setsid": (frozenset(), frozenset({"-c", "--ctty", "-f", "--fork", "-w", "--wait"}), 0),
    "ionice": (
        frozenset({"-c", "--class", "-n", "--classdata"}),
        frozenset({"-t", "--ignore"}),
        0,
    ),
    "taskset": (frozenset(), frozenset({"-a", "--all-tasks", "-c", "--cpu-list"}), 1),
    "chrt": (
        frozenset({"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"}),
        frozenset(
            {
                "-b",
                "--batch",
                "-d",
                "--deadline",
                "-f",
                "--fifo",
                "-i",
                "--idle",
                "-o",
                "--other",
                "-r",
                "--rr",
                "-R",
                "--reset-on-fork",
                "-a",
                "--all-tasks",
                "-v",
                "--verbose",
            }
        ),
        1,
    ),
    "caffeinate": (frozenset({"-t", "-w"}), frozenset({"-d", "-i", "-m", "-s", "-u"}), 0),
    "busybox": (frozenset(), frozenset(), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), frozenset(), 0),
    "command": (frozenset(), frozenset({"-p", "-v", "-V"}), 0),
    "builtin": (frozenset(), frozenset(), 0),
    "exec": (frozenset({"-a"}), frozenset({"-c", "-l"}), 0),
    "env": (
        frozenset({"-u", "--unset", "-C", "--chdir"}),
        # The signal options take a value only after `=`.
        frozenset(
            {"-i", "--ignore-environment", "-0", "--null", "-", "-v", "--debug"}
            | {"--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"}
        ),
        0,
    ),
    "xargs": (
        frozenset(
            {
                "-n",
                "--max-args",
                "-P",
                "--max-procs",
                "-L",
                "-d",
                "--delimiter",
                "-s",
                "--max-chars",
                "-E",
                "-a",
                "--arg-file",
                "-I",
                "--process-slot-var",
            }
        ),
        # `--replace`, `--eof` and `--max-lines` take a value only after `=`
        # (`-i`, `-e` and `-l` only attached: see _XARGS_ATTACHED).
        frozenset(
            {
                "-0",
                "--null",
                "-r",
                "--no-run-if-empty",
                "-t",
                "--verbose",
                "-x",
                "--exit",
                "-p",
                "--interactive",
                "-o",
                "--open-tty",
                "--replace",
                "--eof",
                "--max-lines",
            }
        ),
        0,
    ),
}
_XARGS_ATTACHED = frozenset({"-i", "-e", "-l"})


def _input_words(at: int) -> Word:
    """What xargs reads, as one word `…` (no source: start == end)."""
    return new_word(Word, ("…", at, at, False, False))


def is_input(word: Word) -> bool:
    return word.start == word.end and word.value == "…"


def _replacement(options: list[Word]) -> str | None:
    """The string xargs replaces with each line it reads (`-I R`, `-iR`,
    `--replace=R`; `{}` by default), or None: it appends what it reads."""
    found = None
    for k, word in enumerate(options):
        value = word.value
        if value == "-I":
            found = options[k + 1].value if k + 1 < len(options) else found
        elif value.startswith("-I"):
            found = value[2:]
        elif value.startswith("-i"):
            found = value[2:] or "{}"
        elif value.startswith("--replace"):
            found = value.partition("=")[2] or "{}"
    return found


# Wrappers that change who runs the command: it stays a subject as written,
# and the command they run is a constraint (deny and ask rules see it).
PRIVILEGE = {
    "sudo": (
        frozenset(
            {
                "-u",
                "--user",
                "-g",
                "--group",
                "-h",
                "--host",
                "-p",
                "--prompt",
                "-C",
                "--close-from",
                "-D",
                "--chdir",
                "-r",
                "--role",
                "-t",
                "--type",
                "-T",
                "--command-timeout",
            }
        ),
        frozenset(
            {
                "-E",
                "--preserve-env",
                "-H",
                "--set-home",
                "-n",
                "--non-interactive",
                "-k",
                "--reset-timestamp",
                "-S",
                "--stdin",
                "-b",
                "--background",
                "-P",
                "--preserve-groups",
                "--",
            }
        ),
    ),
    "doas": (frozenset({"-u", "-C"}), frozenset({"-n", "-s", "--"})),
    "pkexec": (frozenset({"--user"}), frozenset({"--disable-internal-agent", "--keep-cwd"})),
}


def _getopt_spec(
    short_value: str = "",
    short_flags: str = "",
    short_optional: str = "",
    long_value: str = "",
    long_flags: str = "",
    long_optional: str = "",
) -> tuple:
    return (
        short_value,
        short_flags,
        short_optional,
        _options(long_value),
        _options(long_flags),
        _options(long_optional),
    )


# Wrappers whose options are read as their getopt reads them (options first,
# an optional value only attached: `prlimit -n rm` runs rm): (getopt spec,
# operands before the command, held). Held: the command runs as another
# user, under another root or namespaces, or with variables of the
# wrapper's; it stays a subject as written and deny and ask rules see the
# command, as for sudo. An option not listed is refused. (util-linux 2.38
# to 2.40, coreutils 9, systemd 252 to 256, Expect 5.45, proxychains-ng 4,
# torsocks 2, fakeroot 1.31, gosu, su-exec and daemontools.)
GETOPT_WRAPPERS: dict[str, tuple[tuple, int, bool]] = {
    "prlimit": (
        _getopt_spec(
            "po",
            "Vh",
            "cdefilmnqrstuvxy",
            "--pid --output",
            "--version --help --noheadings --raw --verbose",
            "--as --core --cpu --data --fsize --locks --memlock --msgqueue --nice --nofile "
            "--nproc --rss --rtprio --rttime --sigpending --stack",
        ),
        0,
        False,
    ),
    "unbuffer": (_getopt_spec("", "p"), 0, False),
    "catchsegv": (_getopt_spec(), 0, False),
    "systemd-inhibit": (
        _getopt_spec("", "", "", "--what --who --why --mode", "--no-ask-password"),
        0,
        False,
    ),
    "proxychains": (_getopt_spec("f", "q"), 0, False),
    "proxychains4": (_getopt_spec("f", "q"), 0, False),
    "torsocks": (
        _getopt_spec("upaP", "i6dq", "", "--user --pass --address --port", "--isolate --ipv6"),
        0,
        False,
    ),
    "chroot": (_getopt_spec("", "", "", "--userspec --groups", "--skip-chdir"), 1, True),
    "gosu": (_getopt_spec(), 1, True),
    "su-exec": (_getopt_spec(), 1, True),
    "setuidgid": (_getopt_spec(), 1, True),
    "envuidgid": (_getopt_spec(), 1, True),
    "envdir": (_getopt_spec(), 1, True),
    "run0": (
        _getopt_spec(
            "ugD",
            "",
            "",
            "--machine --unit --property --description --slice --user --group --nice --chdir "
            "--setenv --background --shell-prompt-prefix",
            "--no-ask-password --slice-inherit --pty --pty-late --pipe",
        ),
        0,
        True,
    ),
    "setpriv": (
        _getopt_spec(
            "",
            "",
            "",
            "--inh-caps --ambient-caps --ruid --euid --rgid --egid --reuid --regid --groups "
            "--bounding-set --securebits --pdeathsig --ptracer --selinux-label "
            "--apparmor-profile --landlock-access --landlock-rule --seccomp-filter",
            "--nnp --no-new-privs --clear-groups --keep-groups --init-groups --reset-env",
        ),
        0,
        True,
    ),
    "unshare": (
        _getopt_spec(
            "RwSGl",
            "fmuinpCTUrc",
            "",
            "--map-user --map-users --map-group --map-groups --owner --propagation "
            "--setgroups --setuid --setgid --root --wd --monotonic --boottime --load-interp",
            "--fork --forward-signals --map-root-user --map-current-user --map-auto "
            "--map-subids --keep-caps",
            "--mount --uts --ipc --net --pid --user --cgroup --time --kill-child "
            "--mount-proc --mount-binfmt",
        ),
        0,
        True,
    ),
    "nsenter": (
        _getopt_spec(
            "tNSG",
            "aecFZ",
            "muinpCUTrwW",
            "--target --net-socket --setuid --setgid",
            "--all --env --no-fork --join-cgroup --preserve-credentials --keep-caps "
            "--user-parent --follow-context",
            "--mount --uts --ipc --net --pid --cgroup --user --time --root --wd --wdns",
        ),
        0,
        True,
    ),
    "fakeroot": (
        _getopt_spec("lfisb", "u", "", "--lib --faked --fd-base", "--unknown-is-real"),
        0,
        True,
    ),
}


def strip_wrappers(words: list[Word]) -> tuple[list[Word], bool]:
    """Drop wrappers from the front; report whether one may change what runs."""
    guarded = False
    while words:
        head = words[0]
        if head.expands:
            return words, guarded
        name = program_name(head.value)
        if name in WRAPPERS:
            with_value, flags, operands = WRAPPERS[name]
            i = _skip_options(words, 1, with_value, flags, name)
            if name == "env":
                # env sets every argument with `=` before the command, quoted
                # or not, whatever its name (`env a-b=1 rm` runs rm).
                while i < len(words) and "=" in words[i].value:
                    variable = words[i].value.split("=", 1)[0]
                    if not (_is_name(variable) and is_safe_assignment(variable)):
                        guarded = True
                    i += 1
            i += operands
            if name == "xargs" and i < len(words):
                replaced = _replacement(words[1:i])
                if replaced is not None:
                    # xargs puts each line it reads wherever R stands, inside
                    # any word: each word holding R is what it reads, `…`
                    # (`xargs -I{} sh -c 'echo {}'` runs what the line says).
                    words = [_input_words(w.end) if replaced in w.value else w for w in words[i:]]
                    continue
                # xargs appends the words it reads to the command: an exact
                # rule must not allow `git push` for `xargs git push` (fed
                # `--force`). `…` stands for them; `git push:*` still matches.
                # (Once: `xargs xargs rm` appends them once too.)
                if not is_input(words[-1]):
                    words = words[i:] + [_input_words(head.end)]
                    continue
            words = words[i:]
            continue
        if name in PRIVILEGE:
            with_value, flags = PRIVILEGE[name]
            i = _skip_options(words, 1, with_value, flags, name)
            # What follows is read on: `sudo nice rm -rf /` runs rm.
            words, guarded = words[i:], True
            continue
        if name in GETOPT_WRAPPERS:
            spec, before, held = GETOPT_WRAPPERS[name]
            _, operands = _getopt(words, name, spec, permute=False)
            if any(map(is_input, operands[:before])):  # `xargs chroot`: its root and command
                raise SplitError(f"{name} given arguments by xargs cannot be evaluated statically")
            words, guarded = operands[before:], guarded or held
            continue
        return words, guarded
    return words, guarded


def _skip_options(
    words: list[Word], i: int, with_value: frozenset[str], flags: frozenset[str], name: str
) -> int:
    while i < len(words):
        w = words[i]
        value = w.value
        # A quoted option is an option: the program sees `'-u'` as `-u`.
        if not value.startswith("-") or value == "-" and "-" not in flags:
            break
        if value == "--":
            return i + 1
        option = value.split("=", 1)[0]
        if option in flags:
            i += 1
        elif option in with_value:
            i += 1 if "=" in value else 2
        elif option[:2] in with_value and len(option) > 2 and not option.startswith("--"):
            i += 1  # a short option with its value attached: `-n10`, `-oL`
        elif name == "xargs" and option[:2] in _XARGS_ATTACHED:
            i += 1  # `-i`, `-i{}`: an optional value is attached or absent
        elif name == "nice" and option[1:].lstrip("-").isdigit():
            i += 1  # nice -10
        elif name == "timeout" and option.startswith("-") and option[1:2].isdigit():
            break  # a negative number is not an option here
        else:
            raise SplitError(f"{name} with option {value} cannot be evaluated statically")
    return i


# Programs `strip_wrappers` reads past.
STRIPPABLE = frozenset(WRAPPERS) | frozenset(PRIVILEGE) | frozenset(GETOPT_WRAPPERS)
