"""Programs that run a command they are given, as a string or as words,
and the table of all such readers, `COMMAND_TAKERS`: here su and runuser,
script, watch, flock, strace, ltrace, valgrind, gdb, mise, direnv, nix,
hyperfine, sg, GNU parallel, entr, watchexec, nodemon and `bun exec`, and
at, batch and crontab (refused unless they only list or remove); tmux and screen in
`terminals`, ssh, containers and bwrap in `hosts`, the secret runners in
`vaults`. `shell` decides what they return (see HELD in `words`).
"""

from __future__ import annotations

from . import (
    archivers,
    databases,
    emulators,
    hosts,
    jobs,
    launchers,
    platforms,
    sockets,
    terminals,
    vaults,
)
from .programs import SHELLS, shell_reads_input, shell_script
from .words import (
    FEEDERS,
    HELD,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    input_word,
    is_input,
    joined_string,
    last_option,
    new_word,
    opens_shell,
    option_names,
    part_of,
    value_of,
)


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
    if name == "runuser" and last_option(options, "-u", "--user") is not None:
        if not operands:
            raise opens_shell(name)
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
    if len(taken) == 1 and (len(operands) < 2 or shell_reads_input(operands, "sh")):
        raise opens_shell(name)
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
        raise opens_shell(name)  # its shell reads what script reads: `echo CMD | script -q`
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
        if _NIX_QUIET.isdisjoint(values):
            raise opens_shell(name)  # its bash reads the input: `echo … | nix-shell`
        return None
    command = next((value for value in values[1:] if value in _NIX_COMMANDS), None)
    if command not in ("develop", "shell"):
        return None  # `nix build`, `nix run` (the package's own program), `nix search x shell`
    for k, value in enumerate(values):
        if value in ("-c", "--command"):
            return [HELD, ("words", words[k + 1 :])] if k + 1 < len(words) else None
    if _NIX_QUIET.isdisjoint(values):
        raise opens_shell(f"{name} {command}")
    return None


# nix's commands (2.18 to 2.24), to tell `nix develop` from `nix search x
# develop`; and the options with which nix-shell, `nix develop` or `nix
# shell` start no shell: a query, develop's phases (run in the shell it
# builds), and nix-shell's `-i` (the interpreter of a script's `#!` line).
_NIX_COMMANDS = option_names(
    "build develop shell run search flake profile eval repl path-info store log why-depends "
    "bundle copy edit fmt hash key nar print-dev-env realisation registry upgrade-nix "
    "derivation daemon config help doctor env"
)
_NIX_QUIET = option_names(
    "--help --version --unpack --configure --build --check --install --installcheck --phase "
    "--dry-run -i"
)


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


def _man_commands(words: list[Word], name: str) -> list | None:
    """The pager `man -P CMD` (`--pager=CMD`, by any prefix from `--pa`)
    and the browser `man -HCMD` (`--html=CMD`: only attached) run: held.
    A short cluster holding P or H is refused (man-db 2.9 to 2.13 reads
    other letters' values there)."""
    taken: list = []
    for k, word in enumerate(words[1:], 1):
        value = word.value
        if value == "--":
            break
        option, eq, _ = value.partition("=")
        if len(option) > 3 and "--pager".startswith(option) or eq and "--html".startswith(option):
            taken.append(("string", value_of(words, k, eq)))
        elif value[:2] in ("-P", "-H") and len(value) > 2:
            taken.append(("string", part_of(word, value[2:])))
        elif value == "-P":
            taken.append(("string", value_of(words, k, "")))
        elif value[:1] == "-" and value[1:2] != "-" and ("P" in value or "H" in value[2:]):
            raise SplitError(f"{name} {value} cannot be evaluated statically")
    return [HELD] + taken if taken else None


def _sg_commands(words: list[Word], name: str) -> list | None:
    """`sg GROUP [-c] COMMAND`: COMMAND is a string /bin/sh runs with GROUP
    as the group: held, as for su. (`sg -` and options are refused.)"""
    args = words[1:]
    if args and args[0].value.startswith("-"):
        raise SplitError(f"{name} with option {args[0].value} cannot be evaluated statically")
    if len(args) > 1 and args[1].value == "-c":
        args = args[:1] + args[2:]
    if len(args) < 2:
        raise opens_shell(name)  # a shell with the group
    if len(args) > 2 or any(map(is_input, args)):
        raise SplitError(f"{name} with more than one command word cannot be evaluated statically")
    return [HELD, ("string", args[1])]


def _newgrp_commands(words: list[Word], name: str) -> list | None:
    """`newgrp [-] [GROUP]` always starts a shell with the group, reading
    what newgrp reads."""
    raise opens_shell(name)


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
    taken: list = [
        ("file", v)
        for o, v in options
        if o in ("--joblog", "--results", "--res") and v.value != "-"
    ]
    # The files its values are read from (`-a FILE`, `:::: FILE`): their lines
    # are the command's words (`parallel -a .env echo` prints them), as xargs -a's.
    taken += [("reads", v) for o, v in options if o in ("-a", "--arg-file") and v.value != "-"]
    for k, end in enumerate(ends):
        if operands[end].value in ("::::", "::::+"):
            files = operands[end + 1 : ends[k + 1] if k + 1 < len(ends) else len(operands)]
            taken += [("reads", w) for w in files if w.value != "-"]
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
        # -I changes `{}` only: `{.}`, `{/}` and the rest still take the values
        holds = "{" in value and "}" in value or replace is not None and replace.value in value
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


# bun 1.x's own options, before its subcommand.
_BUN = getopt_spec(
    "rpFe",
    "hvib",
    "c",
    "--preload --port --conditions --title --unhandled-rejections --elide-lines --filter "
    "--shell --env-file --cwd --install --max-http-header-size --print --eval",
    "--watch --hot --no-clear-screen --smol --inspect-wait --inspect-brk --if-present "
    "--no-install --prefer-offline --prefer-latest --expose-gc --no-deprecation "
    "--throw-deprecation --zero-fill-buffers --no-addons --silent --version --revision "
    "--bun --help --fetch-preconnect",
    "--inspect --config",
)


def _bun_commands(words: list[Word], name: str) -> list | None:
    """`bun exec STRING` runs STRING in Bun's shell, a bash-like one (pipes,
    `&&`, redirects, `$(…)`), its words joined as watch's are: read as
    `bash -c STRING`. Other subcommands run none here (`bun x` is a runner,
    `programs.RUNNERS`); an option not known before `exec` is refused."""
    if not any(w.value == "exec" for w in words[1:]):
        return None
    options, operands = getopt(words, name, _BUN, permute=False)
    if not operands or operands[0].value != "exec" or len(operands) < 2:
        return None
    return [joined_string(operands[1:], f"{name} exec")]


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


COMMAND_TAKERS = {
    "su": _su_commands,
    "runuser": _su_commands,
    "script": _script_commands,
    "watch": _watch_commands,
    "flock": _flock_commands,
    "strace": _tracer_commands,
    "ltrace": _tracer_commands,
    "valgrind": _valgrind_commands,
    "gdb": _gdb_commands,
    "mise": _mise_commands,
    "direnv": _direnv_commands,
    "nix-shell": _nix_commands,
    "nix": _nix_commands,
    "hyperfine": _hyperfine_commands,
    "sg": _sg_commands,
    "newgrp": _newgrp_commands,
    "man": _man_commands,
    "parallel": _parallel_commands,
    "entr": _entr_commands,
    "watchexec": _watchexec_commands,
    "nodemon": _nodemon_commands,
    "bun": _bun_commands,
    **dict.fromkeys(_SCHEDULER_SPECS, _scheduler_commands),
    **terminals.TAKERS,
    **archivers.TAKERS,
    **launchers.TAKERS,
    **emulators.TAKERS,
    **hosts.TAKERS,
    **platforms.TAKERS,
    **jobs.TAKERS,
    **sockets.TAKERS,
    **databases.TAKERS,
    **vaults.TAKERS,
}
