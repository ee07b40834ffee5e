"""Archivers whose options name a command they run: GNU tar's
`--to-command`, `--checkpoint-action=exec=`, `-I/--use-compress-program`,
`-F/--info-script/--new-volume-script` and `--rsh-command` (tar 1.30 to
1.35), and zip's `-TT/--unzip-command` (zip 3.0). Those commands are held,
as rsync's `-e` is: deny and ask rules see them, and an allow on `tar:*`
still decides tar as written. (GNU tar's GTFOBins entries: `tar -cf
/dev/null x --checkpoint=1 --checkpoint-action=exec='rm -rf /'` ran rm
under an allow on `tar:*` or past a deny on `rm:*`.)

macOS's tar is bsdtar, whose `-I` names a file of names rather than a
program: read as a command too, which can only add a subject.
"""

from __future__ import annotations

from .words import HELD, SplitError, Word, part_of, value_of

# tar's long options whose value is a command, and its short ones (a
# letter of a cluster; the value is the cluster's rest or the next word).
_TAR_LONG = ("--to-command", "--use-compress-program", "--info-script", "--new-volume-script")
_TAR_LONG += ("--rsh-command", "--checkpoint-action")
_TAR_SHORT = frozenset("IF")
# tar's short options with a value (GNU tar 1.35), to know where a cluster ends.
_TAR_WITH_VALUE = frozenset("bCfFgHIKLNTVX")
# tar's own options that a prefix of one above would otherwise take:
# getopt takes an exact name first.
_TAR_EXACT = frozenset({"--checkpoint"})


def _tar_commands(words: list[Word], name: str) -> list | None:
    """What `tar ...` runs for the options above, wherever they stand
    (GNU tar permutes them); a first word without `-` is the old style's
    letters, whose values follow in order."""
    taken: list = []
    i = 1
    while i < len(words):
        value = words[i].value
        if value == "--":
            break
        if value.startswith("--"):
            option, eq, _ = value.partition("=")
            matched = [o for o in _TAR_LONG if len(option) > 4 and o.startswith(option)]
            if matched and option not in _TAR_EXACT:
                given = value_of(words, i, eq)
                i += 0 if eq else 1
                if matched[0] != "--checkpoint-action":
                    taken.append(("string", given))
                elif given.value.startswith("exec="):
                    taken.append(("string", part_of(given, given.value[5:])))
        elif value.startswith("-") and len(value) > 1 or i == 1:
            # A short cluster (`-xIzstd`, `-cf x.tar`), or the old style's (`cIf zstd x.tar`).
            old_style = not value.startswith("-")
            letters = value if old_style else value[1:]
            follow = i  # the last word taken as a value
            for k, letter in enumerate(letters):
                if letter not in _TAR_WITH_VALUE:
                    continue
                if not old_style and k + 1 < len(letters):
                    given = part_of(words[i], letters[k + 1 :])  # the rest of the cluster
                elif follow + 1 < len(words):
                    follow += 1
                    given = words[follow]
                elif letter in _TAR_SHORT:
                    raise SplitError(
                        f"{name} {value} without a value cannot be evaluated statically"
                    )
                else:
                    break  # tar refuses the line and runs nothing
                if letter in _TAR_SHORT:
                    taken.append(("string", given))
                if not old_style:
                    break  # the value ends the cluster
            i = follow
        i += 1
    return [HELD] + taken if taken else None


def _zip_commands(words: list[Word], name: str) -> list | None:
    """The command `zip -T -TT CMD` tests the archive with."""
    taken: list = []
    for i, word in enumerate(words[1:], 1):
        value = word.value
        if value == "--":
            break
        option, eq, _ = value.partition("=")
        if option.startswith("--unz"):
            taken.append(("string", value_of(words, i, eq)))
        elif value[:1] == "-" and value[1:2] != "-" and "TT" in value:
            if not value.endswith("TT"):
                raise SplitError(f"{name} {value} cannot be evaluated statically")
            taken.append(("string", value_of(words, i, "")))
    return [HELD] + taken if taken else None


TAKERS = {"tar": _tar_commands, "zip": _zip_commands}
