"""Launchers: programs that run the command after their options in a
sandbox, another architecture or toolchain, or with something around it
(firejail, flatpak-spawn, macOS's sandbox-exec, arch and xcrun, moreutils'
chronic, nocache, cpulimit, ssh-agent, asdf exec, toolbox run, distrobox
enter). The command is held, as
sudo's is: deny and ask rules see it, and an allow must name the launcher
as written (`firejail:*`), since what it changes about the command (a
profile, an environment, the host outside a sandbox) is not read here.
Before, `firejail rm -rf /` was only `firejail ...` to a deny on `rm:*`.

Options are read as each program reads them, and one not listed is
refused (`getopt`): a value read as the command would hide the command.
"""

from __future__ import annotations

from .words import HELD, SplitError, Word, getopt, getopt_spec, opens_shell, part_of

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
}


def _launcher_commands(words: list[Word], name: str) -> list | None:
    command = _LAUNCHED[name](words, name)
    return [HELD, ("words", command)] if command else None


TAKERS = dict.fromkeys(_LAUNCHED, _launcher_commands)
