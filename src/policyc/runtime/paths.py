"""Paths: the `path` matcher, and the normalisation of paths.

Path patterns are gitignore-style, matched against absolute, normalised paths:

    pattern            anchored at                       example
    /etc/**            the filesystem root               /etc/passwd
    ~/.ssh/**          the home directory                ~/.ssh/id_rsa
    ./secrets/**       the call's working directory      <cwd>/secrets/key
    @/config/**        the source's own folder           (resolved when compiling)
    *.env, .env        any folder (no `/` inside)        /repo/app/.env

`*` matches within one path segment, `?` one character of a segment, `**` any
number of segments (`a/**` is everything under `a`; `**/b` is `b` anywhere),
and a trailing `/` means the folder and everything under it. Nothing else is
special. Deny and ask rules also match in any letter case and cover what is
in a folder they match (see `broad_for`). A cwd-anchored pattern matches
nothing when no working directory is
known; the `path` splitter (which a `path` matcher implies) refuses such calls
instead (fail closed).

Domains: see `domains.py`.
"""

from __future__ import annotations

import posixpath

from .memo import memo
from .star import StarPattern


class PathError(ValueError):
    """A path that cannot be normalised; the reason is read to the model."""


# -- paths --------------------------------------------------------------------


def normalize_path(
    path: str, cwd: str | None, home: str | None, follow_symlinks: bool = False
) -> str:
    """An absolute path with `~`, `.`, `..` and repeated slashes resolved."""
    if not path:
        raise PathError("an empty path")
    if "\x00" in path:
        raise PathError("a path with a NUL character")
    if path == "~" or path.startswith("~/"):
        if not home:
            raise PathError("a ~ path and no home directory is known")
        path = home.rstrip("/") + path[1:]
    elif path.startswith("~"):
        raise PathError("~user paths are not supported")
    if not path.startswith("/"):
        if not cwd or not cwd.startswith("/"):
            raise PathError("a relative path and no absolute working directory")
        path = cwd.rstrip("/") + "/" + path
    if ("/proc/" in path or "/dev/fd/" in path) and not follow_symlinks:
        _refuse_proc_links(path)
    normal = posixpath.normpath(path)
    if normal.startswith("//"):
        normal = "/" + normal.lstrip("/")
    if follow_symlinks:
        import os

        try:
            normal = os.path.realpath(normal, strict=True)
        except (OSError, RuntimeError) as exc:
            raise PathError(
                f"cannot resolve {normal}: {getattr(exc, 'strerror', None) or exc}"
            ) from None
    return normal


def _refuse_proc_links(path: str) -> None:
    """Refuse a path through a process's root or working directory in /proc
    (`/proc/self/root/home/u/.ssh/id_rsa` is `~/.ssh/id_rsa`): it names
    another path, which no rule saw, and only following links (I/O) tells
    which. Checked segment by segment before `..` is taken lexically:
    `/proc/self/cwd/../../home` climbs from the folder the link names, not
    from /proc/self (and `/dev/fd/../root` from /proc/self). Followed (`follow_symlinks`), it resolves as any link."""
    folders: list[str] = []
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if folders:
                folders.pop()
            continue
        folders.append(segment)
        if folders == ["dev", "fd"]:  # a link to /proc/self/fd
            folders = ["proc", "self", "fd"]
        at = 4 if folders[2:3] == ["task"] else 2
        if folders[0] == "proc" and len(folders) == at + 1 and segment in ("root", "cwd"):
            raise PathError(
                f"a path through /{'/'.join(folders)} (another name for a folder) cannot be "
                "evaluated statically: write the path it names"
            )


# -- the files under a folder --------------------------------------------------
# A subject may stand for files under a folder: the folder, `/`, and one of
# these segments, which no real path holds (`normalize_path` refuses a NUL).
#
# - ANY_FILE: a file a search tool (`split tree`: Claude Code's Grep and Glob)
#   does not skip. Such a tool skips the files its rules deny, so the search
#   is refused only by a rule that covers every file there (`~/.ssh/**`): the
#   segment is matched as a file name that `*`, `?` and `**` match and no
#   literal does.
# - EVERY_FILE: every file under the folder, for a program that skips none
#   (`grep -r x .`, `rm -r build`, `tar -x`). A deny on one file there
#   (`./.env`) is a deny on the command: `grep -r DATABASE_URL .` printed
#   `.env` past `Read(./.env)`. Read broadly (deny and ask rules), a pattern
#   meets it if it matches some path under the folder; as written (the
#   carve-outs of deny and ask rules, the allows that shadow an ask), only if
#   it covers them all.
#   rg is read so too: it skips hidden files (`.env`), but searches one that
#   an ignore file there lets through (`!.env` in `.ignore`, which the repo
#   or an earlier command may have written).
# - WORKTREE_FILES: EVERY_FILE less what is in a `.git` folder, which git's
#   commands on the work tree never touch: `git clean -fdx` removes files
#   there, not `.git/hooks`.
# - IF_FOLDER and IF_WORKTREE_FOLDER: what is under a path that may name a
#   folder or a file (mv's and ln's sources, git's pathspecs: `mv ~/.aws
#   /tmp/x`, `git checkout REV -- config`), less what is in a `.git` folder
#   for the second. Only rules tied to a place meet it (anchored ones:
#   `./config/**`, `~/.aws/credentials`); a rule on a name in any folder
#   (`**/.env`) does not, or `mv a.txt b.txt` would meet every such rule.
#   Such a rule still sees a moved or linked file by its name where it
#   lands; what it no longer sees is a folder git rewrites or shows.
# - A shell glob (`cat .e*`, `cat ~/.ssh/id_*`): the files in the folder
#   whose names it matches, as bash's default options read it (a leading `.`
#   only where the glob spells one, unless the command sets `dotglob`), and
#   the glob's own text (bash keeps a glob that matches nothing as it is).
#   `rm -r *`: those files and what is under them. See `glob_stand_in`.
#   Read broadly, a pattern meets it if some such name matches it; as
#   written, only if the pattern covers every file in the folder.
# - Globs at any depth (`black src`, `find . -name '*.pyc' -delete`, `grep
#   -r --include='*.py' x .`): the files at any depth under the folder whose
#   names one of the globs matches (`*.py`, `*.pyi`); in the tree kind, what
#   is under such a name too (`find . -name __pycache__ -exec rm -rf {} +`,
#   git's pathspec `'*.py'`). Read broadly, a pattern meets it if it names
#   the folder or one above it, or matches such a path; not if it only
#   matches a folder on the way (`./.env`, read broadly, would meet
#   `./.env/x.py`): a rule on a folder's files says so (`./vendor/**`). As
#   written, only if it covers every file under the folder. See
#   `files_named_under`.
ANY_FILE = "\x00"
EVERY_FILE = "\x00every"
WORKTREE_FILES = "\x00worktree"
IF_FOLDER = "\x00iffolder"
IF_WORKTREE_FOLDER = "\x00ifworktree"
# The folders a program never walks into below the one it is given: git's
# commands on the work tree, shfmt and go's `./...` a `.git` folder;
# prettier (unless `--with-node-modules`) and `deno fmt` a `node_modules`
# folder too, whatever their settings.
NO_GIT = frozenset({".git"})
NO_GIT_OR_PACKAGES = frozenset({".git", "node_modules"})
# (skipped: the folders no path goes through; placed: only rules tied to a place)
_UNDER = {
    EVERY_FILE: (frozenset(), False),
    WORKTREE_FILES: (NO_GIT, False),
    IF_FOLDER: (frozenset(), True),
    IF_WORKTREE_FOLDER: (NO_GIT, True),
}
# then `.` if dots match, `:`, the glob
_GLOB, _GLOB_TREE = "\x00glob", "\x00globtree"
_GLOB_DEEP, _GLOB_DEEP_TREE = "\x00globdeep", "\x00globdeeptree"
# (and those outside the folders a program never walks into: NO_GIT, NO_GIT_OR_PACKAGES)
_GLOB_WORK, _GLOB_WORK_TREE = "\x00globwork", "\x00globworktree"
_GLOB_SOURCE, _GLOB_SOURCE_TREE = "\x00globsource", "\x00globsourcetree"
_GLOBS_DEEP = {  # kind: (tree, skipped)
    _GLOB_DEEP: (False, frozenset()),
    _GLOB_DEEP_TREE: (True, frozenset()),
    _GLOB_WORK: (False, NO_GIT),
    _GLOB_WORK_TREE: (True, NO_GIT),
    _GLOB_SOURCE: (False, NO_GIT_OR_PACKAGES),
    _GLOB_SOURCE_TREE: (True, NO_GIT_OR_PACKAGES),
}
_DEEP_KINDS = {value: kind for kind, value in _GLOBS_DEEP.items()}
_GLOBS = (_GLOB, _GLOB_TREE, *_GLOBS_DEEP)


def _stand_in(path: str) -> tuple[str, str, str, bool] | None:
    """(folder, kind, glob, dots) of a subject for the files under a folder
    (kind: a key of _UNDER) or a glob's (_GLOB or _GLOB_TREE). None for any
    other path (ANY_FILE's is matched as a file name)."""
    folder, _, marker = path.rpartition("/")
    if marker in _UNDER:
        return folder or "/", marker, "", False
    kind, colon, glob = marker.partition(":")
    dots = kind[-1:] == "."
    kind = kind[:-1] if dots else kind
    if not colon or kind not in _GLOBS:
        return None
    return folder or "/", kind, glob, dots


_GLOB_CHARS = ("*", "?", "[")


def _either(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def stand_in_text(path: str) -> str | None:
    """What a path that stands for files under a folder names, as a person
    reads it (`every file under /repo`), or None for any other path."""
    if "\x00" not in path:
        return None
    folder, _, marker = path.rpartition("/")
    folder = folder or "/"
    if marker == ANY_FILE:
        return "a file under " + folder + " whose name is not known here"
    stand_in = _stand_in(path)
    if stand_in is None:
        return None
    kind, glob = stand_in[1], stand_in[2]
    if kind in (EVERY_FILE, WORKTREE_FILES):
        return "every file under " + folder + _outside(_UNDER[kind][0])
    if kind in _UNDER:
        return "what is under " + folder + " if it is a folder"
    if kind in _GLOBS_DEEP:
        tree, skipped = _GLOBS_DEEP[kind]
        named = "every file named " + _either(glob.split("\x00")) + " under " + folder
        named += _outside(skipped)
        return named + (", and what is under such a folder" if tree else "")
    if kind == _GLOB_TREE:
        return "what is under the names in " + folder + " that " + glob + " matches"
    return "the files in " + folder + " that " + glob + " matches"


def _outside(skipped: frozenset[str]) -> str:
    return " outside " + " and ".join(sorted(skipped)) if skipped else ""


def files_named_under(
    folder: str,
    globs: tuple[str, ...],
    dots: bool = True,
    tree: bool = False,
    skipped: frozenset[str] = frozenset(),
) -> str:
    """The path that stands for the files at any depth under `folder` whose
    names one of the shell globs matches, with `dots` a leading `.` too
    (`*.py`: what `black FOLDER` rewrites); with `tree`, what is under such
    a name too (`find . -name __pycache__ -exec rm -rf {} +`); with
    `skipped` (NO_GIT or NO_GIT_OR_PACKAGES), none in a folder of those
    names below it (git's pathspecs never walk into `.git`, `prettier
    --write .` into `node_modules` either). The globs are joined by a NUL."""
    kind = _DEEP_KINDS[tree, skipped]
    return folder.rstrip("/") + "/" + kind + ("." if dots else "") + ":" + "\x00".join(globs)


def glob_stand_in(path: str, dots: bool) -> str:
    """What stands for the files a shell word names (`path`, not yet
    normalised): itself when it holds no glob character; a glob in its last
    name (or before `/` + EVERY_FILE) as above; a glob earlier on (`*/.env`)
    as every file under the folder before it, which holds all it may name."""
    if "*" not in path and "?" not in path and "[" not in path:
        return path  # (most paths: decided on every call)
    head, _, last = path.rpartition("/")
    if last[:1] == "\x00" and ":" in last:  # already a glob's stand-in (`files_named_under`)
        if not any(c in head for c in _GLOB_CHARS):
            return path
        return glob_stand_in(head + "/" + EVERY_FILE, dots)  # `black src*`: under each
    folder, names = glob_parts(path)
    rest = names[1:]
    if len(rest) > 1 or rest and rest[0] != EVERY_FILE:
        return folder.rstrip("/") + "/" + EVERY_FILE
    kind = _GLOB_TREE if rest else _GLOB
    return folder.rstrip("/") + "/" + kind + ("." if dots else "") + ":" + names[0]


def glob_parts(path: str) -> tuple[str, list[str]]:
    """The folder before the first name of `path` holding a glob character
    (`.`, or `/` for an absolute path, when none comes before), and the
    names from that one on: `src/*/x.py` is ("src", ["*", "x.py"])."""
    names = path.split("/")
    first = next(k for k, name in enumerate(names) if any(c in name for c in _GLOB_CHARS))
    return "/".join(names[:first]) or ("/" if path[:1] == "/" else "."), names[first:]


def _glob_atoms(glob: str) -> list[str]:
    """A shell glob's atoms: `*`, `?` (a bracket expression too, read as any
    one character: more names, never fewer), and a literal character after
    a backslash (which a backslash in the glob escapes)."""
    atoms, i, n = [], 0, len(glob)
    while i < n:
        c = glob[i]
        if c == "[":
            close = glob.find("]", i + 2)
            if close > 0:
                atoms.append("?")
                i = close + 1
                continue
        if c == "\\" and i + 1 < n:
            i += 1
            atoms.append("\\" + glob[i])
        else:
            atoms.append(c if c in "*?" else "\\" + c)
        i += 1
    return atoms


def _globs_meet(glob: str, pattern: str, dots: bool) -> bool:
    """Is there a file name that both the shell glob and a rule's segment
    pattern (`*`, `?`) match? Unless `dots`, a leading `.` is matched only
    by the glob's own first character (bash's default)."""
    g = _glob_atoms(glob)
    # (a bracket expression as any one character: more names, never fewer)
    p = [
        a if a in ("*", "?") else "\\" + a if type(a) is str else "?"
        for a in _segment_atoms(pattern)
    ]
    # States: atoms of each matched, and whether a character was taken.
    seen: set[tuple[int, int, bool]] = set()
    todo = [(0, 0, False)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        i, j, started = state
        if i == len(g) and j == len(p) and started:
            return True
        if i < len(g) and g[i] == "*":
            todo.append((i + 1, j, started))
        if j < len(p) and p[j] == "*":
            todo.append((i, j + 1, started))
        if i == len(g) or j == len(p):
            continue
        a, b = g[i], p[j]
        # One character both take: two literals must agree.
        char = a[1:] if a[0] == "\\" else b[1:] if b[0] == "\\" else ""
        if a[0] == b[0] == "\\" and a != b:
            continue
        if not started and not dots and char == "." and not (i == 0 and a == "\\."):
            continue
        todo.append((i if a == "*" else i + 1, j if b == "*" else j + 1, True))
    return False


# A formatter's globs against the rules' segments: the same pairs on every
# call (`prettier --write .`: some 50 globs), made once.
_meet = memo(maxsize=8192)(_globs_meet)

# A path rule's segment patterns are few; made once, not on each call
# (a `Read` decided for the first time made one per segment it tried).
_star = memo(maxsize=4096)(StarPattern)


def _wild(pattern: str, text: str) -> bool:
    """`*`, `?` and gitignore's bracket expressions (`id_[rd]sa`, `[!.]*`)
    within one path segment, without backtracking blow-ups.

    The greedy two-pointer walk: at worst len(pattern) x len(text) steps, never
    exponential (a regex of several `*` is, on a long segment).
    """
    if "?" not in pattern and "[" not in pattern:
        return _star(pattern).match(text)
    atoms = _segment_atoms(pattern)
    n = len(atoms)
    i = j = 0
    star, mark = -1, 0
    while j < len(text):
        atom = atoms[i] if i < n else ""
        if atom == "*":
            star, mark, i = i, j, i + 1
        elif atom and _takes(atom, text[j]):
            i, j = i + 1, j + 1
        elif star >= 0:
            i, mark = star + 1, mark + 1
            j = mark
        else:
            return False
    while i < n and atoms[i] == "*":
        i += 1
    return i == n


@memo(maxsize=4096)
def _segment_atoms(pattern: str) -> tuple:
    """A segment pattern's atoms: `*`, `?`, a literal character, or a
    bracket expression as (negated, characters, ranges). A `[` with no `]`
    after it is a literal, as in gitignore; a `]` first in one is a member,
    and `!` or `^` first negates it. (POSIX classes, `[[:alpha:]]`, are not
    read: their characters are taken as members.)"""
    atoms: list = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "[":
            k = i + 1
            negated = k < n and pattern[k] in "!^"
            k += negated
            close = pattern.find("]", k + 1)
            if close > 0:
                body, chars, ranges, m = pattern[k:close], set(), [], 0
                while m < len(body):
                    if m + 2 < len(body) and body[m + 1] == "-":
                        ranges.append((body[m], body[m + 2]))
                        m += 3
                    else:
                        chars.add(body[m])
                        m += 1
                atoms.append((negated, frozenset(chars), tuple(ranges)))
                i = close + 1
                continue
        atoms.append(c)
        i += 1
    return tuple(atoms)


def _takes(atom: str | tuple, char: str) -> bool:
    """Does one atom (not `*`) match the character?"""
    if type(atom) is str:
        return atom == "?" or atom == char
    negated, chars, ranges = atom
    return (char in chars or any(low <= char <= high for low, high in ranges)) != negated


def _match_segments(pats: list[str], segs: list[str]) -> list[bool]:
    """For every start j: do the segment patterns match segs[j:] exactly?

    Dynamic programming over (pattern, segment), so `**` costs len(pats) x
    len(segs) at worst. A non-final `**` is zero or more non-empty segments;
    a final one is one or more segments.
    """
    n = len(segs)
    after = [False] * (n + 1)
    after[n] = True
    for i in range(len(pats) - 1, -1, -1):
        pat = pats[i]
        cur = [False] * (n + 1)
        if pat == "**" and i == len(pats) - 1:
            for j in range(n):
                cur[j] = True
        elif pat == "**":
            reach = after[n]
            cur[n] = reach
            for j in range(n - 1, -1, -1):
                reach = after[j] or (segs[j] != "" and reach)
                cur[j] = reach
        else:
            for j in range(n):
                cur[j] = after[j + 1] and _wild(pat, segs[j])
        after = cur
    return after


class _PathPattern:
    __slots__ = ("base", "pats", "anywhere", "literal", "under")

    def __init__(self, base: str | None, body: str) -> None:
        if body.endswith("/"):
            body += "**"  # a folder and everything under it
        body = body.strip("/")
        self.base = base  # None: anywhere; "": the root; else an absolute folder
        self.anywhere = base is None
        self.pats = body.split("/") if body else []
        # Most anchored rules name a file or a folder and everything under it
        # (`./.env`, `./src/**`, `~/.ssh/**`): literal segments, then perhaps a
        # final `**` (one or more segments). Those are compared as strings,
        # not matched segment by segment (`Edit` calls decided for the first
        # time, against a few such rules: see the commit).
        # `literal`: the segments before it, joined; None: matched in full.
        # `under`: whether the final `**` follows them.
        lits = self.pats[:-1] if self.pats[-1:] == ["**"] else self.pats
        plain = not any("*" in pat or "?" in pat or "[" in pat for pat in lits)
        self.literal = "/".join(lits) if plain and self.pats and not self.anywhere else None
        self.under = len(lits) < len(self.pats)

    def match(self, path: str) -> bool:
        if self.anywhere:
            return any(_match_segments(self.pats, path.split("/")))
        if self.base:
            if path == self.base:
                return not self.pats
            if not path.startswith(self.base + "/"):
                return False
            rest = path[len(self.base) + 1 :]
        else:
            if not path.startswith("/"):
                return False
            rest = path[1:]
        if not self.pats:
            return True
        literal = self.literal
        if literal is not None:
            if not self.under:
                return rest == literal
            return not literal or rest.startswith(literal + "/")
        return _match_segments(self.pats, rest.split("/"))[0]

    # -- EVERY_FILE: a pattern against what is under a folder.
    # The segment patterns read as an automaton whose states are the index
    # of the next pattern to match (len: all matched). A non-final `**` is
    # zero or more segments, a final one one or more, as in `_match_segments`.

    def _skip(self, states: set[int]) -> set[int]:
        """`states` and those a non-final `**` matching nothing reaches."""
        pats, last = self.pats, len(self.pats) - 1
        out = set()
        for i in states:
            out.add(i)
            while i < last and pats[i] == "**":
                i += 1
                out.add(i)
        return out

    def _step(self, states: set[int], segment: str | None, named: bool = False) -> set[int]:
        """The states after one more segment. None: a segment of any name,
        which only `**` and a pattern of `*` alone match whatever it is
        (`*?` does too, but is read as not: that only leaves a carve-out
        unapplied, which refuses more). `named`: only by a pattern that
        names it, not by `**`."""
        pats, n = self.pats, len(self.pats)
        out = set()
        for i in states:
            if i == n:
                continue
            if pats[i] == "**":
                if segment != "" and not named:
                    out.add(i)
                    if i == n - 1:
                        out.add(n)
            elif _wild(pats[i], segment) if segment is not None else not pats[i].strip("*"):
                out.add(i + 1)
        return self._skip(out)

    def _after(self, folder: str, named: bool = False) -> tuple[set[int], list[str]] | None:
        """Where the patterns stand once they have matched `folder`, and the
        anchor's names below it (none when the folder is at or under the
        anchor); None when no path under `folder` is under the anchor.
        `named`: the folder's own name matched by a pattern that names it,
        not by `**` (see `meets_under`)."""
        segments = [s for s in folder.split("/") if s]
        base = [s for s in self.base.split("/") if s]
        if segments[: len(base)] == base:
            states = self._skip({0})
            rest = segments[len(base) :]
            for k, segment in enumerate(rest, 1):
                states = self._step(states, segment, named and k == len(rest))
            return states, []
        if base[: len(segments)] == segments:
            return self._skip({0}), base[len(segments) :]
        return None

    def _states_after(self, folder: str) -> tuple[set[int], list[str]] | None:
        """`_after`, and for a pattern that matches anywhere, the states of
        every start within the folder, and at the name after it."""
        if not self.anywhere:
            return self._after(folder)
        start, states = self._skip({0}), set()
        for segment in folder.rstrip("/").split("/"):
            states = self._step(states | start, segment)
        return states | start, []

    def meets_glob(self, folder: str, glob: str, dots: bool, tree: bool) -> bool:
        """Does the pattern match a name in `folder` that the shell glob
        matches (or, with `tree`, what is under such a name)?"""
        after = self._states_after(folder)
        if after is None:
            return False
        states, below = after
        if below:  # the anchor lies below the folder: the glob must name its way there
            if not tree and (self.pats or len(below) > 1):
                return False  # a name in the folder is not the anchor, nor under it
            return _globs_meet(glob, below[0], dots)
        if not self.pats:  # the anchor and all under it, which holds the folder
            return True
        last = len(self.pats) - 1
        for i in states:
            if i > last:
                continue
            pat = self.pats[i]
            if pat == "**" or _globs_meet(glob, pat, dots):
                if tree or i == last:
                    return True
        # Under a name the glob matches, a pattern that matches anywhere may start anew.
        return tree and self.anywhere

    def meets_named_under(
        self,
        folder: str,
        globs: list[str],
        dots: bool,
        tree: bool = False,
        skipped: frozenset[str] = frozenset(),
    ) -> bool:
        """Does the pattern match a path at any depth below `folder` whose
        last name one of the shell globs matches (a file's, not a folder's
        above it)? With `tree`, or a path below such a name? With `skipped`,
        a path through no folder of those names below the folder?"""
        after = self._states_after(folder)
        if after is None:
            return False
        states, below = after
        pats = self.pats
        if skipped:
            if not skipped.isdisjoint(below):  # the anchor is in one
                return False
            globs = [glob for glob in globs if glob not in skipped]  # (nor is such a name)
            if not globs:
                return False
        if not pats:  # the anchor and all under it: below the folder, or holding it
            return True
        if below:  # the anchor lies below the folder: a path may go down to it
            if tree and any(_meet(g, name, dots) for name in below for g in globs):
                # through a name a glob matches: all under it (but a skipped folder)
                return skipped.isdisjoint(pats)
            states = self._skip({0})
        n, last = len(pats), len(pats) - 1
        # The states after folders of names of our choosing. A pattern that
        # ends on one (`./vendor`) is not read as their folder here (see
        # `folder_form`, which `_named_under_met` tries next).
        seen = self._chosen(states, ends=False, skipped=skipped)
        # Then the name a glob matches, which the last pattern must take.
        named = set()
        for i in seen:
            if i < n and pats[i] == "**":
                named.add(i)
                if i == last:
                    named.add(n)
            elif i < n and pats[i] not in skipped:
                if any(_meet(glob, pats[i], dots) for glob in globs):
                    named.add(i + 1)
        named = self._skip(named)
        if n in named:
            return True
        if not tree:
            return False
        # With `tree`, what is under it: any names, the last of which may end
        # the pattern, and where one that matches anywhere may start anew.
        if self.anywhere:
            named |= self._skip({0})
        return bool(named) and n in self._chosen(named, ends=True, skipped=skipped)

    def folder_form(self) -> _PathPattern | None:
        """The pattern read as the folder its last name may be, and all under
        it (`./vendor` as `./vendor/**`), or None when that name reads as a
        file's (see `_may_name_folder`) or it already ends on `**`."""
        pats = self.pats
        if not pats or pats[-1] == "**" or not _may_name_folder(pats[-1]):
            return None
        return _PathPattern(self.base, "/".join(pats) + "/**")

    def _chosen(
        self, states: set[int], ends: bool, skipped: frozenset[str] = frozenset()
    ) -> set[int]:
        """`states` and those that names of our choosing reach: a name can
        be picked to match any one segment pattern (a `**` takes it and
        stays; with `ends`, a final `**` may also end there), but one that
        is a `skipped` name only (one that may match another, `.gi?`, is
        read as taking another)."""
        pats, n = self.pats, len(self.pats)
        start = self._skip({0}) if self.anywhere else set()
        seen: set[int] = set()
        todo = set(states) | start
        while todo:
            seen |= todo
            step = set()
            for i in todo:
                if i < n and pats[i] not in skipped:
                    step.add(i if pats[i] == "**" else i + 1)
                    if ends and pats[i] == "**" and i == n - 1:
                        step.add(n)
            todo = (self._skip(step) | start) - seen
        return seen

    def meets_under(
        self, folder: str, skipped: frozenset[str] = frozenset(), placed: bool = False
    ) -> bool:
        """Does the pattern match some path below `folder` (with `skipped`,
        one that goes through no folder of those names below it)? With
        `placed` (a path that may be a file or a folder: `paths.IF_FOLDER`),
        only a pattern
        tied to that place: one whose anchor is the folder or lies below it,
        or that names the folder itself (`./config/**`, `~/.aws/credentials`
        for `mv ~/.aws x`); not one on a name at any depth (`**/.env`,
        `./**/*.pem`), whose `**` would take the folder's name too, and
        which still sees the files by their names where they land under
        its anchor."""
        pats = self.pats
        if self.anywhere:
            if placed:
                return False
            # A path below the folder can end in what the patterns match,
            # unless they need a skipped folder there.
            return skipped.isdisjoint(pats) or not skipped.isdisjoint(folder.split("/"))
        after = self._after(folder, named=placed)
        if after is None:
            return False
        states, below = after
        if not skipped.isdisjoint(below):
            return False
        if below or not pats:  # the anchor lies below the folder, or holds it
            return skipped.isdisjoint(pats)
        # Patterns left to match: one or more names below the folder can
        # (a skipped name only by a pattern that names it: `**`, `*` match others).
        return any(i < len(pats) and skipped.isdisjoint(pats[i:]) for i in states)

    def covers_under(self, folder: str) -> bool:
        """Does the pattern match every path below `folder`, whatever names
        and however many?"""
        if not self.pats:  # the anchor and all under it
            if self.anywhere:
                return True
            after = self._after(folder)
            return after is not None and not after[1]
        # The states after the folder, then after each segment of any name
        # below it, which must all have matched every pattern; the sets
        # repeat within a few steps, and then so would the answers.
        start = self._skip({0}) if self.anywhere else set()  # matched at the end, from anywhere
        after = self._states_after(folder)
        if after is None or after[1]:
            return False
        states = after[0]
        n, seen = len(self.pats), set()
        while True:
            states = self._step(states | start, None)
            if n not in states:
                return False
            key = frozenset(states)
            if key in seen:
                return True
            seen.add(key)

    def match_broad(self, path: str) -> bool:
        """`match` on the path or on a folder above it (see `broad_for`).

        The common shapes without a walk up the folders: a file or folder
        named in full (`./.env`, `./secrets`) holds the path when the path
        is it or under it; one segment anywhere (`.env`, `*.pem`) when any
        segment of the path matches (a string test on the whole path). 600
        deny and ask rules of these shapes, a `read` decided for the first
        time, instructions a decision (callgrind): 8.9 million walking up for
        every rule, 4.6 million so, 7.0 million before rules were read
        broadly.
        """
        literal = self.literal
        if literal is not None:
            if self.under:  # `lit/**`: what is under a path is under lit too
                return self.match(path)
            base = self.base + "/" if self.base else "/"
            if not path.startswith(base):
                return False
            rest = path[len(base) :]
            return rest == literal or rest.startswith(literal + "/")
        if self.anywhere and len(self.pats) == 1 and self.pats[0] != "**":
            pat = self.pats[0]
            if "?" not in pat and "*" not in pat[1:] and "[" not in pat:
                # `.env`: a segment is it; `*.pem`: a segment ends so (no `/` in pat).
                if pat[:1] != "*":
                    return "/" + pat + "/" in path + "/"
                return pat[1:] + "/" in path + "/"
            return any(_wild(pat, segment) for segment in path.split("/") if segment)
        while True:
            if self.match(path):
                return True
            cut = path.rfind("/")
            if cut < 0 or path == "/":
                return False
            path = path[:cut] or "/"


def path_anchor(spec: str) -> str:
    """Where a pattern is anchored: root, home, cwd, base or anywhere."""
    if spec.startswith("**/"):
        return "anywhere"
    if spec.startswith("/"):
        return "root"
    if spec == "~" or spec.startswith("~/"):
        return "home"
    if spec.startswith("@/"):
        return "base"
    if spec == "." or spec.startswith("./") or "/" in spec.rstrip("/"):
        return "cwd"
    return "anywhere"


@memo(maxsize=4096)
def _path_pattern(spec: str, cwd: str | None, home: str | None) -> _PathPattern | None:
    anchor = path_anchor(spec)
    if anchor == "root":
        return _anchored("", spec.lstrip("/"))
    if anchor == "home":
        if not home:
            return None
        return _anchored(home.rstrip("/") or "", spec[2:] if spec != "~" else "")
    if anchor == "cwd":
        if not cwd or not cwd.startswith("/"):
            return None
        body = "" if spec == "." else spec[2:] if spec.startswith("./") else spec
        return _anchored(posixpath.normpath(cwd).rstrip("/"), body)
    if anchor == "base":
        return None  # the compiler resolves `@/` against the source's folder
    return _anchored(None, spec.removeprefix("**/"))


def _anchored(base: str | None, body: str) -> _PathPattern:
    """The pattern `body` under the folder `base` ("": the root), its `.`
    and `..` names folded in as the shell would (`Read(../shared/**)`,
    `additionalDirectories: ["../docs"]`): the paths it is matched against
    hold none, so kept as written it never matched. `..` after a wildcard,
    or at any depth (`base` None), names no one folder: `dotdot_problem`
    refuses such a rule (here it is kept, and matches nothing)."""
    if "." not in body or "/." not in "/" + body:
        return _PathPattern(base, body)  # (most patterns: no `.` or `..` name)
    folder = body.endswith("/")
    names: list[str] = []
    for name in body.strip("/").split("/"):
        if name == ".." and base is not None:
            if names:
                names.pop()
            else:
                base = posixpath.dirname(base or "/").rstrip("/")
        elif name != ".":
            names.append(name)
    return _PathPattern(base, "/".join(names) + ("/" if folder and names else ""))


def dotdot_problem(spec: str) -> str | None:
    """Why a path pattern's `..` cannot be folded into it (`*/..`, `**/..`,
    and any at any depth: `Read(..)`), or None."""
    names = spec.removeprefix("!").split("/")
    if ".." not in names:
        return None
    if path_anchor(spec.removeprefix("!")) == "anywhere":
        return "a `..` in a pattern matched at any depth names no one folder"
    for k, name in enumerate(names):
        if name == ".." and any(c in part for part in names[:k] for c in "*?["):
            return "a `..` after a wildcard names no one folder"
    return None


def resolve_base(spec: str, source_path: str) -> str | None:
    """`@/x` (or the carve-out `!@/x`) against the folder of the source's file; None if it has none."""
    bang = "!" if spec.startswith("!") else ""
    body = spec[len(bang) :]
    if not body.startswith("@/"):
        return spec
    if not source_path or not source_path.startswith("/"):
        return None
    folder = posixpath.dirname(posixpath.normpath(source_path))
    return bang + folder.rstrip("/") + body[1:]


def plain_str(value: object) -> str | None:
    """`value` as a plain str (a str subclass, a host's, through str's own method), or None."""
    if type(value) is str:
        return value
    return str.__str__(value) if isinstance(value, str) else None


def path_matches(
    spec: str, path: str, cwd: str | None = None, home: str | None = None, broad: bool = False
) -> bool:
    """Does a path pattern match an (absolute, normalised) path? Total: never raises.

    `broad` (see `broad_for`): in any letter case, and a pattern that
    matches a folder above the path matches the path too.
    """
    if type(spec) is not str or type(path) is not str:
        return False
    cwd, home = plain_str(cwd), plain_str(home)
    if broad:
        return broad_matches(spec, broad_names(path), cwd, home)
    pattern = _path_pattern(spec, cwd, home)
    if pattern is None:
        return False
    if "\x00" in path:
        stand_in = _stand_in(path)
        if stand_in is not None:  # every file, or a glob's: as written, only a cover of all
            return pattern.covers_under(stand_in[0])
    return pattern.match(path)


def broad_names(path: str) -> tuple[str, ...]:
    """The names a broad reading tries for a path: caseless, and macOS's
    other name for it. Made once a decision, for every rule it tries."""
    path = _caseless(path)
    alias = _macos_alias(path)
    return (path,) if alias is None else (path, alias)


def broad_matches(spec: str, names: tuple[str, ...], cwd: str | None, home: str | None) -> bool:
    """`path_matches(spec, path, cwd, home, broad=True)`, given `broad_names(path)`."""
    pattern = _broad_pattern(spec, cwd, home)
    if pattern is None:
        return False
    for name in names:
        stand_in = _stand_in(name) if "\x00" in name else None
        if stand_in is None:
            if pattern.match_broad(name):
                return True
            continue
        folder, kind, glob, dots = stand_in
        # A rule on the folder or one above it (`match_broad`), or on what is below.
        if pattern.match_broad(folder):
            return True
        if kind in _UNDER:
            if pattern.meets_under(folder, *_UNDER[kind]):
                return True
        elif kind in _GLOBS_DEEP:
            if _named_under_met(pattern, folder, glob, dots, *_GLOBS_DEEP[kind]):
                return True
        elif pattern.match_broad(folder.rstrip("/") + "/" + glob) or pattern.meets_glob(
            folder, glob, dots, kind == _GLOB_TREE
        ):
            return True
    return False


@memo(maxsize=4096)
def _named_under_met(
    pattern: _PathPattern,
    folder: str,
    globs: str,
    dots: bool,
    tree: bool,
    skipped: frozenset[str],
) -> bool:
    """`meets_named_under`, kept: a formatter's globs are many (prettier's
    50), and the same folder and rules come again on the next call."""
    names = globs.split("\x00")
    if pattern.meets_named_under(folder, names, dots, tree, skipped):
        return True
    # A rule on a name that may be a folder (`Edit(./vendor)`, `Edit(./.github)`)
    # covers what is in it, as everywhere else a deny is read broadly: `black .`
    # rewrote vendor/x.py past it while `rm -rf .` was refused.
    as_folder = pattern.folder_form()
    return as_folder is not None and as_folder.meets_named_under(folder, names, dots, tree, skipped)


# Names without an extension that are files, not folders, wherever they are
# (in lower case: a broad reading compares so). A rule on another name may
# name a folder, and then covers the files at any depth under it that a
# formatter, `find -name … -delete` or a narrowed search takes: `Edit(./vendor)`
# refuses `black .`. These would refuse it too (`.env/x.py`), for files that
# deny rules name most, and are folders almost never (a venv named `.env`
# is one: deny `./.env/**` for it).
_FILE_NAMES = frozenset(
    {
        ".env", ".envrc", ".netrc", ".npmrc", ".yarnrc", ".pypirc", ".pgpass",
        ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_history",
        ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zsh_history",
        ".gitconfig", ".git-credentials", ".gitignore", ".gitattributes", ".gitmodules",
        ".htpasswd", ".htaccess", ".dockerignore", ".editorconfig", ".vimrc",
        ".nvmrc", ".prettierrc", ".eslintrc", ".tool-versions",
        "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "authorized_keys", "known_hosts",
        "makefile", "dockerfile", "license", "codeowners", "gemfile", "pipfile",
        "procfile", "jenkinsfile", "vagrantfile", "rakefile", "justfile",
    }
)  # fmt: skip


def _may_name_folder(name: str) -> bool:
    """May a rule's last name (`vendor`, `.github`, `build*`) be a folder's?
    Not one with an extension (`config.json`, `.env.local`, `*.pem`: a `.`
    after its first character) nor a file's well-known name (`_FILE_NAMES`)."""
    return "." not in name[1:] and name not in _FILE_NAMES


@memo(maxsize=4096)
def _broad_pattern(spec: str, cwd: str | None, home: str | None) -> _PathPattern | None:
    """The pattern read in any letter case (its anchors too)."""
    return _path_pattern(
        _caseless(spec),
        _caseless(cwd) if cwd is not None else None,
        _caseless(home) if home is not None else None,
    )


# macOS's /etc, /tmp and /var are links to these folders under /private:
# `/private/etc/hosts` is `/etc/hosts` there.
_MACOS_LINKED = ("/etc", "/tmp", "/var")
_MACOS_LINKED_UNDER = tuple(folder + "/" for folder in _MACOS_LINKED)


def _macos_alias(path: str) -> str | None:
    """The other name macOS gives `path` (see `_MACOS_LINKED`), or None."""
    if path.startswith("/private/"):
        plain = other = path[len("/private") :]
    else:
        plain, other = path, "/private" + path
    if plain in _MACOS_LINKED or plain.startswith(_MACOS_LINKED_UNDER):
        return other
    return None


def _caseless(text: str) -> str:
    """`text` for a caseless comparison: case folded and, beyond ASCII, in
    one normal form. macOS's filesystem takes `café` written with `é` or
    with `e` and a combining accent as one name (Unicode's canonical
    caseless match: NFD, fold, NFD)."""
    if text.isascii():
        return text.casefold()
    import unicodedata  # here: most paths are ASCII, and a hook need not import it

    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).casefold())


def broad_for(action: str, carve_out: bool) -> bool:
    """Whether a path rule of this list is read broadly (`path_matches`).

    - Letter case: on a case-insensitive filesystem (macOS's and Windows'
      by default) `/repo/.ENV` is `/repo/.env`, and a deny on `./.env`
      compared as written let the model read it by another spelling (so
      for the forms of an accented letter, see `_caseless`).
    - Other names: macOS's `/etc`, `/tmp` and `/var` are `/private/etc`
      and so on, so `/private/etc/hosts` slipped past a deny on `/etc/**`.
    - Folders: gitignore's patterns (Claude Code's) cover what is in a
      folder they match: `Read(./secrets)` and `Read(.aws)` deny
      `secrets/key` and `.aws/credentials`, which a match on the path
      alone let through. (A path with something under it is a folder.)
    - Hosts: whoever holds a host holds its subdomains, so a deny on
      `evil.com` covers `www.evil.com` (`domains.domain_matches`; the index
      files such a rule under both, `index.ToolRows.add`).

    Which filesystem holds a path, and whether a rule meant a folder, cannot
    be known from the strings, so rules are read broadly wherever that
    refuses more and never where it would allow more: deny and ask rules
    and the carve-outs of allow rules broadly; allow rules and the
    carve-outs of deny and ask rules as written.
    """
    return (action != "allow") != carve_out
