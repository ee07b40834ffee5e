"""Where the shell is when a later command names a file: `cd /etc && echo
x > passwd` writes /etc/passwd, which the host, resolving `passwd`
against the call's working directory, would take for ./passwd (and a deny
on /etc would not see it).

The splitter reads commands in order, not as they run (a `cd` may be in a
subshell, a branch not taken, or fail), so after a `cd` the shell may be
in the directory it names or where it was: a relative file of a later
command is a subject for each (`passwd` and `/etc/passwd`), and each must
be allowed. A `cd` whose directory is not known statically (`cd -`,
`cd $DIR`, `popd`) leaves later relative files unknown: refused, or, for a
file a reader or writer names, any file. A line that mentions `CDPATH`
(`CDPATH=/etc; cd ssh` goes to /etc/ssh) has a `cd` to a name not begun
with `/`, `.` or `~` go where no one can say too. (`CDPATH` from the
environment, which changes where `cd src` goes, is not read.)
"""

from __future__ import annotations

import posixpath

from .words import ANYWHERE, SplitError, Word

# Where the shell started: the call's own working directory.
HERE = "."
# A `cd` to a directory not known statically.
UNKNOWN = None
# More places than this: read as unknown.
_MAX_PLACES = 4
_CD_FLAGS = frozenset({"-L", "-P", "-e", "-@"})


def _target(words: list[Word]) -> str | None:
    """The directory `cd`, `pushd` or `popd` goes to, or UNKNOWN."""
    name, args = words[0].value, words[1:]
    if name == "popd":
        return UNKNOWN
    while args and args[0].value in _CD_FLAGS:
        args = args[1:]
    if args and args[0].value == "--":
        args = args[1:]
    if not args:
        return "~" if name == "cd" else UNKNOWN  # `pushd` alone swaps the top two
    target = args[0]
    home = target.value.partition("/")
    if target.expands and home[0] in ("$HOME", "${HOME}") and "$" not in home[2]:
        return "~" + home[1] + home[2]  # `cd $HOME/src`: the only variable read
    if target.expands or target.value in ("-", "") or target.value[:1] in "+-":
        return UNKNOWN  # `cd -`, `pushd +1`
    if any(c in target.value for c in "*?["):
        return UNKNOWN
    return target.value


def after(words: list[Word], places: frozenset | None, cdpath: bool = False) -> frozenset | None:
    """Where the shell may be after the command `words` (None: only HERE, the
    commonest: no `cd` yet). A frozenset holding UNKNOWN once a `cd` went
    where no one can say. `cdpath`: the line may set CDPATH, which bash
    searches for a name not begun with `/`, `.` or `~`."""
    if words and words[0].value in ("builtin", "command"):
        words = words[1:]
    if not words or words[0].value not in ("cd", "pushd", "popd"):
        return places
    before = places or frozenset({HERE})
    target = _target(words)
    if cdpath and target is not UNKNOWN and target[:1] not in "/.~":
        target = UNKNOWN
    if target is UNKNOWN or UNKNOWN in before:
        return before | {UNKNOWN}
    moved = {
        target if target[:1] in "/~" or place == HERE else posixpath.join(place, target)
        for place in before
    }
    now = before | moved
    return now if len(now) <= _MAX_PLACES else now | {UNKNOWN}


def anchored(subjects: list[dict], places: frozenset | None) -> list[dict]:
    """The file subjects of a command, each relative one once for each place
    the shell may be in."""
    if places is None:
        return subjects
    out = []
    for subject in subjects:
        if "tool" not in subject:
            out.append(subject)
            continue
        ((field, path),) = subject["args"].items()
        if path[:1] in "/~":
            out.append(subject)
            continue
        known = places
        if UNKNOWN in places:
            if not subject.get("constrain"):
                raise SplitError(
                    f"{path!r} after cd to a directory not known statically cannot be evaluated"
                )
            # A file a reader names (`cd $D && cat x`): where it is cannot be
            # known, so it may be any file (`words.ANYWHERE`), and where it
            # would be if the cd did not run. As a constraint it was never
            # needed to allow the call.
            known = {place for place in places if place is not UNKNOWN} | {HERE}
            out.append({**subject, "args": {field: ANYWHERE}})
        for place in sorted(known):
            where = path if place == HERE else posixpath.join(place, path)
            out.append({**subject, "args": {field: where}})
    return out
