"""Launchers: programs that run the command after their options in a
sandbox, another architecture or toolchain, or with something around it
(firejail, flatpak-spawn, macOS's sandbox-exec, arch and xcrun, moreutils'
chronic, nocache, cpulimit, ssh-agent, asdf exec, toolbox run, distrobox
enter, proot, schroot, nq, setarch, rlwrap, `ip netns exec`, `guix shell`,
`flox activate`). The command is held, as sudo's is: deny and ask rules
see it, and an allow must name the launcher as written (`firejail:*`),
since what it changes about the command (a profile, an environment, the
host outside a sandbox) is not read here. Before, `firejail rm -rf /` was only `firejail ...` to a deny on `rm:*`.

Options are read as each program reads them, and one not listed is
refused (`getopt`): a value read as the command would hide the command.
"""

from __future__ import annotations

from .programs import IP_EXEC
from .words import (
    HELD,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    opens_shell,
    option_names,
    part_of,
    value_of,
)

# getopt-style launchers (versions: sandbox-exec of macOS 14, xcrun 70,
# chronic of moreutils 0.69, nocache 1.2, cpulimit 0.2 and limitcpu 3,
# OpenSSH 9's ssh-agent, flatpak-spawn of flatpak 1.14).
_SPECS = {
    "sandbox-exec": getopt_spec("fnpD"),
    "xcrun": getopt_spec(
        "",
        "hvknrfl",
        "",
        "--sdk --toolchain",
        "--help --version --verbose --kill-cache --no-cache --run --find --log "
        "--show-sdk-path --show-sdk-version --show-sdk-build-version "
        "--show-sdk-platform-path --show-sdk-platform-version",
    ),
    "chronic": getopt_spec("", "ev"),
    "nocache": getopt_spec("n"),
    "cpulimit": getopt_spec(
        "lpePcs",
        "zivqkrbfh",
        "",
        "--limit --pid --exe --path --cpu --signal",
        "--lazy --include-children --verbose --quiet --kill --restore --background "
        "--foreground --help",
    ),
    "ssh-agent": getopt_spec("aEOPt", "csDdk"),
    "flatpak-spawn": getopt_spec(
        "",
        "v",
        "",
        "--forward-fd --env --unset-env --env-fd --app-path --usr-path --directory "
        "--sandbox-expose --sandbox-expose-ro --sandbox-expose-path --sandbox-expose-path-ro "
        "--sandbox-flag --sandbox-a11y-own-name",
        "--clear-env --watch-bus --latest-version --no-network --sandbox --host --verbose "
        "--expose-pids --share-pids",
    ),
}
_XCRUN_SINGLE = frozenset(
    "-sdk -toolchain -find -run -log -verbose -help -version -kill-cache -no-cache "
    "-show-sdk-path -show-sdk-version -show-sdk-build-version -show-sdk-platform-path "
    "-show-sdk-platform-version".split()
)
# toolbox 0.0.99 to 0.1 (cobra: options stop at the command): its own, and `run`'s.
_TOOLBOX = getopt_spec("", "yv", "", "--log-level", "--assumeyes --log-podman --verbose")
_TOOLBOX_RUN = getopt_spec("cdr", "", "", "--container --distro --release --preserve-fds")
# distrobox enter's options that run no shell.
_DISTROBOX_QUIET = frozenset({"-h", "--help", "-V", "--version", "-d", "--dry-run"})
# firejail 0.9's options that ask or tell a sandbox something and start none
# (`--ls=NAME DIR`, `--shutdown=NAME`, `--seccomp.print=NAME`, ...).
_FIREJAIL_QUIET = frozenset({"--help", "-?", "--version", "--list", "--tree", "--top"})
_FIREJAIL_QUIET |= {"--netstats", "--debug-caps", "--debug-errnos", "--debug-protocols"}
_FIREJAIL_QUIET |= {"--debug-syscalls", "--debug-syscalls32"}
_FIREJAIL_QUIET_PREFIXES = ("--ls=", "--get=", "--put=", "--cat=", "--shutdown=")
_FIREJAIL_QUIET_PREFIXES += tuple(f"--{what}.print=" for what in ("apparmor", "caps", "cpu"))
_FIREJAIL_QUIET_PREFIXES += tuple(f"--{what}.print=" for what in ("dns", "fs", "profile"))
_FIREJAIL_QUIET_PREFIXES += tuple(f"--{what}.print=" for what in ("protocol", "seccomp"))
# macOS's arch: these options take a value; any other word starting with
# `-` names an architecture (`-x86_64`, `-arm64e`) or is -c, -h, -32, -64.
_ARCH_WITH_VALUE = frozenset({"-arch", "-d", "-e"})


def _by_getopt(words: list[Word], name: str) -> list[Word]:
    return getopt(words, name, _SPECS[name], permute=False)[1]


def _xcrun(words: list[Word], name: str) -> list[Word]:
    """`-sdk NAME`, `-find`: xcrun's older spellings of its long options."""
    words = [part_of(w, "-" + w.value) if w.value in _XCRUN_SINGLE else w for w in words]
    return _by_getopt(words, name)


def _asdf(words: list[Word], name: str) -> list[Word]:
    """`asdf exec COMMAND...`."""
    return words[2:] if words[1:2] and words[1].value == "exec" else []


def _toolbox(words: list[Word], name: str) -> list[Word]:
    """`toolbox [-y -v --log-level L] run [-c NAME ...] COMMAND...`."""
    _, rest = getopt(words, name, _TOOLBOX, permute=False)
    if rest and rest[0].value == "enter":
        raise opens_shell(f"{name} enter")
    if not rest or rest[0].value != "run":
        return []  # the rest run nothing
    return getopt(rest, f"{name} run", _TOOLBOX_RUN, permute=False)[1]


def _distrobox(words: list[Word], name: str) -> list[Word]:
    """`distrobox enter BOX ... -- COMMAND...` (`-e` and `--exec` as `--`)."""
    values = [w.value for w in words]
    if name == "distrobox" and values[1:2] != ["enter"]:
        return []
    ends = [k for k, value in enumerate(values) if value in ("--", "-e", "--exec")]
    if ends:
        return words[ends[0] + 1 :]
    if _DISTROBOX_QUIET.isdisjoint(values):
        raise opens_shell("distrobox enter")  # a login shell in the box
    return []


def _one_word_options(words: list[Word], name: str) -> list[Word]:
    """firejail's options, each one word (`--private=DIR`), and arch's, where
    only _ARCH_WITH_VALUE take the next word. firejail given no command
    starts a shell in the sandbox, unless an option asks it something."""
    i = 1
    while i < len(words) and words[i].value.startswith("-"):
        value = words[i].value
        if value == "--":
            i += 1
            break
        if name == "arch" and value in _ARCH_WITH_VALUE:
            if i + 1 == len(words):
                raise SplitError(f"{name} {value} without a value cannot be evaluated statically")
            i += 1
        i += 1
    if name == "firejail" and i == len(words) and not any(map(_asks_firejail, words[1:])):
        raise opens_shell(name)
    return words[i:]


def _asks_firejail(word: Word) -> bool:
    return word.value in _FIREJAIL_QUIET or word.value.startswith(_FIREJAIL_QUIET_PREFIXES)


# proot 5.4 (a root by ptrace; `-q`, a QEMU command it runs, is not listed).
_PROOT = getopt_spec(
    "rbmwvkipRS",
    "V0nlh",
    "",
    "--rootfs --bind --mount --pwd --cwd --verbose --kernel-release --change-id --port",
    "--kill-on-exit --root-id --netcoop --link2symlink --version --about --help --usage",
)
_PROOT_QUIET = option_names("-V -h --version --about --help --usage")
# schroot 1.6 (Boost's options, which may follow operands; `-s`, a program
# run as the shell, is not listed).
_SCHROOT = getopt_spec(
    "cnduo",
    "hVlibrefpqva",
    "",
    "--chroot --session-name --directory --user --option",
    "--help --version --list --info --config --location --automatic-session --begin-session "
    "--recover-session --run-session --end-session --force --preserve-environment --quiet "
    "--verbose --all --all-chroots --all-source-chroots --all-sessions --exclude-aliases",
)
_SCHROOT_QUIET = option_names(
    "-h --help -V --version -l --list -i --info --config --location -b --begin-session "
    "--recover-session -e --end-session"
)
# nq 0.5: -w and -t wait for and test queued jobs, named by their ids.
_NQ = getopt_spec("", "cqwt")
# util-linux 2.38 to 2.40's setarch, and its names for an architecture.
_SETARCH = getopt_spec(
    "",
    "hVv3BFILRSTXZ",
    "",
    "",
    "--help --version --verbose --list --32bit --fdpic-funcptrs --short-inode "
    "--addr-compat-layout --addr-no-randomize --whole-seconds --sticky-timeouts "
    "--read-implies-exec --mmap-page-zero --3gb --4gb --uname-2.6",
    "--show",
)
_SETARCH_QUIET = option_names("-h --help -V --version --list --show")


def _or_shell(name: str, options: list, command: list[Word], quiet: frozenset) -> list[Word]:
    """The command; with none, the shell a launcher starts is refused,
    unless one of its `quiet` options asks something instead."""
    if not command and quiet.isdisjoint(option for option, _ in options):
        raise opens_shell(name)
    return command


def _proot(words: list[Word], name: str) -> list[Word]:
    """`proot [OPTIONS] [COMMAND...]`; with no command, a shell in the root."""
    return _or_shell(name, *getopt(words, name, _PROOT, permute=False), _PROOT_QUIET)


def _schroot(words: list[Word], name: str) -> list[Word]:
    """`schroot -c CHROOT [--] COMMAND...`; with no command, a login shell."""
    return _or_shell(name, *getopt(words, name, _SCHROOT, permute=True), _SCHROOT_QUIET)


def _nq(words: list[Word], name: str) -> list[Word]:
    """`nq [-c] [-q] COMMAND...`, run later in the background."""
    options, command = getopt(words, name, _NQ, permute=False)
    return [] if any(option in ("-w", "-t") for option, _ in options) else command


def _setarch(words: list[Word], name: str) -> list[Word]:
    """`setarch ARCH [OPTIONS] [COMMAND...]` (`linux32 [OPTIONS] ...`); with
    no command, a shell."""
    if name == "setarch" and len(words) > 1 and words[1].value[:1] != "-":
        words = words[:1] + words[2:]  # the architecture
    return _or_shell(name, *getopt(words, name, _SETARCH, permute=False), _SETARCH_QUIET)


# GNU Guix 1.4's `guix shell [OPTIONS] [PACKAGES...] -- COMMAND...` (and the
# older `guix environment`), and the options with which it starts no shell.
_GUIX_QUIET = option_names(
    "-h --help -V --version --search-paths --export-manifest -n --dry-run --check"
)


def _guix(words: list[Word], name: str) -> list[Word]:
    """The command after `--`; with none, the shell it starts is refused."""
    values = [w.value for w in words]
    if values[1:2] not in (["shell"], ["environment"]):
        return []  # `guix install`, `guix pull`: read as written
    if "--" in values:
        return words[values.index("--") + 1 :]
    if _GUIX_QUIET.isdisjoint(value.partition("=")[0] for value in values):
        raise opens_shell(f"{name} {values[1]}")
    return []


# How each launcher's command is found: the words it runs, maybe none.
_LAUNCHED = {
    **dict.fromkeys(_SPECS, _by_getopt),
    "xcrun": _xcrun,
    "asdf": _asdf,
    "toolbox": _toolbox,
    "distrobox": _distrobox,
    "distrobox-enter": _distrobox,
    "arch": _one_word_options,
    "firejail": _one_word_options,
    "proot": _proot,
    "schroot": _schroot,
    "nq": _nq,
    "guix": _guix,
    **dict.fromkeys(("setarch", "linux32", "linux64", "i386", "x86_64"), _setarch),
}


def _launcher_commands(words: list[Word], name: str) -> list | None:
    command = _LAUNCHED[name](words, name)
    return [HELD, ("words", command)] if command else None


# rlwrap 0.43 to 0.46 (`-z`, a filter program it runs, is not listed): the
# command, held as a launcher's, and the files it writes (a log, the history).
_RLWRAP = getopt_spec(
    "bCDefgHlMOPqsStw",
    "AchiInNorRUvW",
    "amp",
    "--break-chars --command-name --history-no-dupes --extra-char-after-completion --file "
    "--forget-matching --history-filename --logfile --multi-line-ext --only-cook --pre-given "
    "--quote-characters --histsize --substitute-prompt --set-term-name --wait-before-prompt",
    "--ansi-colour-aware --complete-filenames --help --case-insensitive "
    "--pass-sigint-as-sigterm --no-warnings --no-children --one-shot --remember --renice "
    "--mirror-arguments --version --polling",
    "--always-readline --multi-line --prompt-colour",
)
_RLWRAP_WRITES = option_names("-l --logfile -H --history-filename")


def _rlwrap_commands(words: list[Word], name: str) -> list | None:
    options, command = getopt(words, name, _RLWRAP, permute=False)
    if not command:
        return None
    return [HELD, ("words", command)] + [
        ("file", value) for option, value in options if option in _RLWRAP_WRITES
    ]


# iproute2 6.x: `ip [OPTIONS] netns exec NAME COMMAND...` (`-all`: in every
# namespace, no NAME) and `ip vrf exec NAME COMMAND...`. ip takes an object
# and a command by any prefix (`ip net e blue ls`). Before an exec, an
# option not listed is refused, and a batch of ip commands (`-b FILE`)
# always is: its lines may exec too.
_IP_VALUE = frozenset({"-n", "-netns", "-f", "-family", "-l", "-loops", "-rc", "-rcvbuf"})
_IP_FLAGS = frozenset(
    "-4 -6 -0 -M -s -stats -statistics -d -details -r -resolve -o -oneline -t -timestamp "
    "-ts -tshort -j -json -p -pretty -br -brief -h -human -human-readable -iec -a -all -N "
    "-Numeric -c -color -V -Version -echo -nh".split()
)
_IP_OBJECTS = frozenset({"net", "netn", "netns", "v", "vr", "vrf"})


def _ip_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    i = 1
    every = False
    while i < len(values) and values[i][:1] == "-":
        option = values[i].partition("=")[0]  # `-color=auto`
        option = option[1:] if option[:2] == "--" else option  # `--json` is `-json`
        if option in _IP_VALUE:
            i += 2
            continue
        if option not in _IP_FLAGS:  # `-b`, a batch, among them
            if option[:2] == "-b" or IP_EXEC.intersection(values):
                raise SplitError(f"{name} with option {values[i]} cannot be evaluated statically")
            return None  # no exec: what ip does is read as its words
        every = every or option in ("-a", "-all")
        i += 1
    if values[i : i + 1] and values[i] in _IP_OBJECTS and values[i + 1 : i + 2]:
        if values[i + 1] in IP_EXEC:
            named = not (every and values[i][0] == "n")
            command = words[i + 2 + named :]
            return [HELD, ("words", command)] if command else None
    return None


def _flox_commands(words: list[Word], name: str) -> list | None:
    """`flox activate [OPTIONS] -- COMMAND...` or `-c STRING` (flox 1.x) run
    in the environment: held. With neither, and no terminal, it prints the
    script to source: nothing runs."""
    values = [w.value for w in words]
    if values[1:2] != ["activate"]:
        return None
    for k in range(2, len(values)):
        option, eq, _ = values[k].partition("=")
        if values[k] == "--":
            return [HELD, ("words", words[k + 1 :])] if k + 1 < len(words) else None
        if option in ("-c", "--command"):
            return [HELD, ("string", value_of(words, k, eq))]
    return None


TAKERS = dict.fromkeys(_LAUNCHED, _launcher_commands)
TAKERS["flox"] = _flox_commands
TAKERS["rlwrap"] = _rlwrap_commands
TAKERS["ip"] = _ip_commands
