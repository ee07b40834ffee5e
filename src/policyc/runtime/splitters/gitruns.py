"""What git runs besides itself: commands its settings name (`git -c
core.pager='rm -rf /' log`, `git -c alias.x='!rm -rf /' x`) and those its
commands' options name (`git rebase --exec CMD`, `git bisect run CMD`).

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
Settings that run nothing (`user.name`, `color.ui`) are read past.

git's commands that run a command given on the line (`GIT_OPTIONS_RUN`
in programs.py, which the plain path reads too): `rebase -x/--exec`, `bisect run`,
`submodule foreach`, `filter-branch`'s filters, `difftool -x/--extcmd`,
`grep -O/--open-files-in-pager`, the remote programs of `clone`, `fetch`,
`pull`, `ls-remote` (`-u/--upload-pack`), `push` (`--receive-pack`,
`--exec`) and `archive --exec`, `send-email`'s `--*-cmd`; `clone -c` is a
setting as above, and `clone --template` is refused (it installs hooks).
Long options are taken by any prefix, as git's option parser takes them;
a short option cluster holding such a letter is refused. Only imported
when git has options, or one of these commands (`shell` calls it then).
"""

from __future__ import annotations

from .programs import GIT_OPTIONS_RUN
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


def _given(word: Word) -> tuple[str, Word]:
    """A `-c NAME=VALUE` word's name and value; `NAME` alone is `NAME=true`."""
    name, eq, value = word.value.partition("=")
    return name, part_of(word, value if eq else "true")


def _is_alias(name: str) -> bool:
    """Whether the setting NAME defines an alias (`alias.NAME`, no subsection)."""
    kind, named = _setting(name)
    return kind.startswith("alias.") and not named


def _alias_script(name: str, setting: Word) -> list:
    """What an alias's value runs: after `!`, a shell command; else the
    git command it names (a `takers` entry, or none for an empty alias)."""
    if setting.expands:
        raise SplitError(f"git alias {name} with a variable cannot be evaluated statically")
    text = setting.value
    script = text[1:] if text.startswith("!") else "git " + text
    return [("string", part_of(setting, script))] if text.strip("! ") else []


def config_commands(words: list[Word], at: int) -> list:
    """What git runs for the settings among its options (`words[1:at]`),
    and for an alias naming its command (`words[at]`): `takers`' entries,
    ("string", shell command) or ("words", a git command)."""
    settings: list[tuple[str, Word | None]] = []  # None: its value from the environment
    at = min(at, len(words))  # (`git -C` with no value: past the end)
    i = 1
    while i < at:
        value = words[i].value
        if value in ("-c", "--config-env") and i + 1 >= len(words):
            raise SplitError(f"git {value} without a value cannot be evaluated statically")
        if value == "-c":
            settings.append(_given(words[i + 1]))
            i += 2
        elif value.startswith("--config-env"):
            spec = value.partition("=")[2] if "=" in value else words[i + 1].value
            settings.append((spec.partition("=")[0], None))
            i += 1 if "=" in value else 2
        else:
            i += 1
    aliases = {name.partition(".")[2]: setting for name, setting in settings if _is_alias(name)}
    taken = _settings_commands(settings)
    if at < len(words) and words[at].value in aliases:
        taken += _alias_commands(words, at, aliases)
    return taken


def _settings_commands(settings: list[tuple[str, Word | None]], via: str = "-c") -> list:
    """What the settings (NAME, value or None: from the environment) run,
    aliases aside. `via`: how git was given them, for a refusal."""
    taken: list = []
    for name, setting in settings:
        if _is_alias(name):
            continue
        kind, named = _setting(name)
        if kind in _REFUSED:
            raise SplitError(f"git {via} {name} cannot be evaluated statically")
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
    return taken


def _alias_commands(words: list[Word], at: int, aliases: dict[str, Word | None]) -> list:
    """What `git ALIAS ARGS...` runs when `-c alias.ALIAS=...` defines it."""
    import shlex  # (here: it imports `re`, which a hook run does not need)

    if any(w.expands for w in words[at + 1 :]):
        raise SplitError("a git alias's arguments with a variable cannot be evaluated statically")
    command, args = words[at].value, [w.value for w in words[at + 1 :]]
    for _ in range(_ALIAS_DEPTH):
        if command not in aliases:
            joined = shlex.join(["git", command, *args])  # (read by the shell again)
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
            script = text[1:] + (" " + shlex.join(args) if args else "")
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


# Options whose value is optional: only an attached one (`-Oless`, `--open-files-in-pager=less`).
_OPTIONAL = frozenset({"--open-files-in-pager"})


def subcommand_commands(words: list[Word], at: int) -> list:
    """What git's command `words[at]` runs for its options or words."""
    command, args = words[at].value, words[at + 1 :]
    if command == "config":
        return _config_write(args)
    if command == "bisect":
        return [("words", args[1:])] if args[:1] and args[0].value == "run" and args[1:] else []
    if command == "submodule":
        while args and args[0].value.startswith("-"):  # `--quiet`
            args = args[1:]
        if not args or args[0].value != "foreach":
            return []
        args = [w for w in args[1:] if w.value != "--recursive"]
        return [("string", _joined(args))] if args else []
    longs, shorts = GIT_OPTIONS_RUN.get(command, ((), ""))
    taken: list = []
    settings: list[tuple[str, Word | None]] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value == "--":
            break
        if value.startswith("--"):
            name, eq, _ = value.partition("=")
            matched = [option for option in longs if len(name) > 3 and option.startswith(name)]
            if matched:
                option = matched[0]
                if eq:
                    given = part_of(args[i], value.partition("=")[2])
                elif option in _OPTIONAL:
                    given = None
                elif i + 1 < len(args):
                    given, i = args[i + 1], i + 1
                else:
                    raise SplitError(
                        f"git {command} {value} without a value cannot be evaluated statically"
                    )
                if option == "--template":
                    raise SplitError(f"git {command} --template cannot be evaluated statically")
                if option == "--config" and given is not None:
                    settings.append(_given(given))
                elif given is not None:
                    taken.append(("string", given))
        elif value.startswith("-O") and "O" in shorts:  # grep: a pager only attached
            if len(value) > 2:
                taken.append(("string", part_of(args[i], value[2:])))
        elif value.startswith("-") and len(value) > 1 and shorts:
            letters = value[1:]
            hit = [c for c in letters if c in shorts]
            if hit and len(letters) > 1:
                raise SplitError(f"git {command} {value} cannot be evaluated statically")
            if hit:
                if i + 1 >= len(args):
                    raise SplitError(
                        f"git {command} {value} without a value cannot be evaluated statically"
                    )
                given, i = args[i + 1], i + 1
                if hit[0] == "c":  # clone -c NAME=VALUE
                    settings.append(_given(given))
                else:
                    taken.append(("string", given))
        i += 1
    if settings:
        taken += _settings_commands(settings, f"{command} --config")
    return taken


def _joined(words: list[Word]) -> Word:
    """Words a program joins with spaces for its shell (`submodule foreach`)."""
    return new_word(
        Word, (" ".join(w.value for w in words), 0, 0, any(w.expands for w in words), True)
    )


# `git config`'s options (git 2.39 to 2.47) that take a value, those that
# do not, and those that make it read or remove rather than write.
_CONFIG_WITH_VALUE = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})
_CONFIG_FLAGS = frozenset(
    "--global --system --local --worktree --add --replace-all --bool --int --bool-or-int "
    "--path --expiry-date --null -z --name-only --show-origin --show-scope --fixed-value "
    "--includes --no-includes --no-type".split()
)
_CONFIG_READS = frozenset(
    "--get --get-all --get-regexp --get-urlmatch --get-color --get-colorbool -l --list "
    "--unset --unset-all --remove-section --rename-section -e --edit".split()
)


def _config_write(args: list[Word]) -> list:
    """What a setting `git config NAME VALUE` writes will run later (a
    pager, an alias...): held now, as a shell alias's commands are (it may
    never run). Settings refused on the command line are refused here."""
    positional: list[Word] = []
    i = 0
    while i < len(args):
        value = args[i].value
        option = value.partition("=")[0]
        if value == "--":
            positional += args[i + 1 :]
            break
        if option in _CONFIG_WITH_VALUE and value.startswith("-"):
            i += 1 if "=" in value else 2
            continue
        if value in _CONFIG_READS:
            return []
        if value.startswith("-"):
            if value not in _CONFIG_FLAGS:
                raise SplitError(f"git config {value} cannot be evaluated statically")
            i += 1
            continue
        positional.append(args[i])
        i += 1
    if positional[:1] and positional[0].value == "set":  # git 2.46's `git config set NAME VALUE`
        positional = positional[1:]
    if len(positional) < 2:
        return []
    name, setting = positional[0].value, positional[1]
    if _is_alias(name):
        return _alias_script(name, setting)
    return _settings_commands([(name, setting)], "config")
