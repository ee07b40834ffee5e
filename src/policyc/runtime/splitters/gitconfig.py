"""What git runs because of the settings given on its command line:
`git -c core.pager='rm -rf /' log`, `git -c alias.x='!rm -rf /' x`.

git reads `-c NAME=VALUE` (and `--config-env=NAME=VARIABLE`) before its
command, and several settings are commands it runs: a pager, an editor,
ssh, a diff or merge driver, a credential helper, an alias starting with
`!` (run by the shell, with the alias's arguments after it). Those are
held, as ssh's command is: deny and ask rules see them; an allow must name
the git command as written. An alias without `!` is another git command
(`-c alias.x='push --force' x` runs `git push --force`), held too. Settings
that load more settings or run files no rule sees (`include.path`,
`core.hooksPath`, `init.templateDir`, the allowed protocols) are refused,
and so is a command setting whose value comes from the environment.
Settings that run nothing (`user.name`, `color.ui`) are read past. Only
imported when git is given options (`shell` calls it then).
"""

from __future__ import annotations

from .shell import quote_join
from .words import SplitError, Word, new_word, part_of

# Settings whose value git runs as a command (git 2.39 to 2.47), by
# `section.key`; those with a subsection (a driver's or tool's name:
# `diff.NAME.textconv`) by `section.key` too, in _RUN_NAMED. `pager.CMD`
# (one command's pager) is read apart.
_RUN = frozenset(
    {
        "core.sshcommand",
        "core.pager",
        "core.editor",
        "core.askpass",
        "core.gitproxy",
        "core.fsmonitor",
        "sequence.editor",
        "diff.external",
        "gpg.program",
        "interactive.difffilter",
        "credential.helper",
        "sendemail.tocmd",
        "sendemail.cccmd",
        "sendemail.sendmailcmd",
        "sendemail.smtpserver",
    }
)
_RUN_NAMED = frozenset(
    {
        "diff.command",
        "diff.textconv",
        "merge.driver",
        "filter.clean",
        "filter.smudge",
        "filter.process",
        "difftool.cmd",
        "mergetool.cmd",
        "browser.cmd",
        "man.cmd",
        "gpg.program",
        "gpg.defaultkeycommand",
        "credential.helper",
        "submodule.update",
    }
)
# Settings that load other settings, allow transports that run commands
# (`ext::`), or run files no rule sees; with or without a subsection.
_REFUSED = frozenset(
    {
        "include.path",
        "includeif.path",
        "core.hookspath",
        "init.templatedir",
        "protocol.allow",
        "uploadpack.packobjectshook",
        "remote.uploadpack",
        "remote.receivepack",
    }
)
# Values of core.fsmonitor and pager.CMD that name no program.
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})
# How many aliases may lead to one another before the call is refused.
_ALIAS_DEPTH = 8


def _setting(name: str) -> tuple[str, bool]:
    """(`section.key` in lower case, whether a subsection stands between)."""
    section, _, rest = name.partition(".")
    sub, _, key = rest.rpartition(".")
    return f"{section.lower()}.{key.lower()}", bool(sub)


def config_commands(words: list[Word], at: int) -> list:
    """What git runs for the settings among its options (`words[1:at]`),
    and for an alias naming its command (`words[at]`): `takers`' entries,
    ("string", shell command) or ("words", a git command)."""
    settings: list[tuple[str, Word | None]] = []  # None: its value from the environment
    i = 1
    while i < at:
        value = words[i].value
        if value == "-c":
            name, eq, setting = words[i + 1].value.partition("=")
            settings.append((name, part_of(words[i + 1], setting if eq else "true")))
            i += 2
        elif value.startswith("--config-env"):
            spec = value.partition("=")[2] if "=" in value else words[i + 1].value
            settings.append((spec.partition("=")[0], None))
            i += 1 if "=" in value else 2
        else:
            i += 1
    taken: list = []
    aliases: dict[str, Word | None] = {}
    for name, setting in settings:
        kind, named = _setting(name)
        if kind.startswith("alias.") and not named:
            aliases[name.partition(".")[2]] = setting
            continue
        if kind in _REFUSED:
            raise SplitError(f"git -c {name} cannot be evaluated statically")
        pager = kind.startswith("pager.") and not named
        if not (pager or kind in (_RUN_NAMED if named else _RUN)):
            continue
        if setting is None:
            raise SplitError(
                f"git setting {name} from the environment cannot be evaluated statically"
            )
        text = setting.value
        if (pager or kind == "core.fsmonitor") and text.lower() in _BOOLEANS:
            continue
        if kind in ("credential.helper", "submodule.update"):
            if text.startswith("!"):
                text = text[1:]  # run by the shell
            elif kind == "submodule.update" or not text:
                continue  # `checkout`, `rebase`, `merge`; an empty helper resets the list
            elif not text.startswith("/"):
                text = "git credential-" + text
        if kind == "sendemail.smtpserver" and not text.startswith("/"):
            continue  # a host, not a program
        if text.strip():
            taken.append(("string", part_of(setting, text)))
    if at < len(words) and words[at].value in aliases:
        taken += _alias_commands(words, at, aliases)
    return taken


def _alias_commands(words: list[Word], at: int, aliases: dict[str, Word | None]) -> list:
    """What `git ALIAS ARGS...` runs when `-c alias.ALIAS=...` defines it."""
    if any(w.expands for w in words[at + 1 :]):
        raise SplitError("a git alias's arguments with a variable cannot be evaluated statically")
    command, args = words[at].value, [w.value for w in words[at + 1 :]]
    for _ in range(_ALIAS_DEPTH):
        if command not in aliases:
            joined = quote_join(["git", command, *args])
            return [("string", new_word(Word, (joined, 0, 0, False, True)))]
        setting = aliases[command]
        if setting is None:
            raise SplitError(
                f"git alias {command} from the environment cannot be evaluated statically"
            )
        if setting.expands:
            raise SplitError(f"git alias {command} with a variable cannot be evaluated statically")
        text = setting.value
        if text.startswith("!"):  # run by the shell, with the arguments after it
            script = text[1:] + (" " + quote_join(args) if args else "")
            return [("string", part_of(setting, script))]
        if any(c in text for c in "'\"\\"):
            raise SplitError(f"git alias {command} with quotes cannot be evaluated statically")
        if not text.split():
            return []
        command, *more = text.split()
        args = more + args
    raise SplitError(
        f"git aliases nested deeper than {_ALIAS_DEPTH} cannot be evaluated statically"
    )
