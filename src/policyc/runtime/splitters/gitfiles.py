"""The files git shows, stages and overwrites.

`git show HEAD:config/secrets.yml`, `git blame .env`, `git diff -- .env` and
`git grep KEY` print files past a deny on reading them, `git add .env`
stages one to be pushed, and `git checkout HEAD -- .bashrc` or `git restore
x` overwrite files past a deny on editing them. Their paths are read and
edit subjects, held to those tools' deny and ask rules only, as the files a
reader names are (`programs.FILE_READERS`); a path may be a folder, so the
files of the work tree under it are too (`paths.WORKTREE_FILES`).

git tells a revision from a path by what exists, which is not known here:
every operand of a command that shows files is read as a path (a revision
read as one can only add a constraint), and `REV:PATH` as PATH. A path is
taken from the working directory, or from `-C DIR`: `REV:PATH` is the
repository's root's, which is commonly where an agent works.
"""

from __future__ import annotations

from ..paths import NO_GIT, files_named_under, glob_parts
from .programs import GIT_SHOWS
from .words import (
    ANYWHERE,
    a_file_in,
    and_under_if_folders,
    and_worktree_under,
    files_in,
    worktree_files_in,
)


def _pathspec(word: str) -> str | None:
    """What a pathspec with a wildcard names, as git matches it: its `*` and
    `?` match a `/` too, so `*.py` is every `.py` file at any depth, which
    the shell's glob (`cat *.py`) is not. A `*SUFFIX` (in a folder:
    `src/*.py`): the files at any depth there whose names end so, and what
    is under such a name; another (`*test*.py`, which takes `a_test/b.py`):
    every file under the folder before it. None for a word with no
    wildcard, or with pathspec magic (`:(glob)…`, `:/…`)."""
    if "*" not in word and "?" not in word and "[" not in word or word[:1] == ":":
        return None  # (string tests, not `any`: most words, each git command)
    folder, names = glob_parts(word)
    glob, suffix = names[0], names[0][1:]
    if len(names) == 1 and glob[:1] == "*" and suffix and not any(c in suffix for c in "*?["):
        return files_named_under(folder, (glob,), True, tree=True, skipped=NO_GIT)
    return files_in(folder)


def _and_under(paths: list[str]) -> list[str]:
    """Each path and what is under it if it is a folder (a work tree's:
    `and_under_if_folders`), a pathspec with a wildcard as `_pathspec`
    reads it."""
    plain: list[str] = []
    globbed: list[str] = []
    for path in paths:
        spec = _pathspec(path)
        if spec is None:
            plain.append(path)
        else:
            globbed.append(spec)
    return and_under_if_folders(plain, worktree=True) + globbed


def _under(folder: str, path: str) -> str:
    if not folder or path[:1] in ("/", "~"):
        return path
    if folder == ANYWHERE:  # under a folder not known
        return ANYWHERE
    return folder.rstrip("/") + "/" + path


def _cleaned(words: list[str], unknown: str) -> list[str]:
    """What `git clean -f [-d] [-x] [PATH…]` may remove: each path (else
    `.`) and the files under it (`-x` removes ignored ones too, `.env`). A
    dry run (`-n`) or no `-f` removes nothing; `-e PATTERN` keeps files."""
    forced = False
    paths: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            paths += [ANYWHERE if w == unknown else w for w in words[i:]]
            break
        if word in ("-n", "--dry-run") or word[:1] == "-" and word[1:2] != "-" and "n" in word:
            return []
        if word == "--force" or word[:1] == "-" and word[1:2] != "-" and "f" in word:
            forced = True
        if word in ("-e", "--exclude"):
            i += 1  # its pattern
        elif word[:1] != "-":
            paths.append(ANYWHERE if word == unknown else word)  # a variable: any
    if not forced:
        return []
    named = [path for path in paths if path != ANYWHERE]
    cleaned = and_worktree_under(named if named or paths else ["."])
    return cleaned + [ANYWHERE] if ANYWHERE in paths else cleaned


# Commands that read the files an option names (a message: `-F FILE`; a
# config file: `-f FILE`), and those that read their operands: stage them
# (update-index), store them (hash-object), archive them from a revision
# (archive; `git archive HEAD .env` is the tracked .env), stash them.
_MESSAGE_FILES = ("F", ("--file",))
_FILE_OPTIONS = {
    "commit": _MESSAGE_FILES,
    "tag": _MESSAGE_FILES,
    "merge": _MESSAGE_FILES,
    "notes": _MESSAGE_FILES,
    "config": ("f", ("--file",)),
}
_READS_OPERANDS = frozenset({"hash-object", "update-index", "archive", "stash"})
GIT_TAKES_FILES = frozenset(_FILE_OPTIONS) | _READS_OPERANDS
# Options whose value is no file (`git stash push -m "$MSG"`).
_NOT_FILES = frozenset({"-m", "--message", "-o", "--output", "--prefix", "--format", "-t"})
# The short options of those that take a value, up to which a cluster is
# read for the letter above (`git commit -aF msg.txt`; `-mF` is a message).
_VALUE_LETTERS = "mcCtSFfeo"


def _taken_files(command: str, rest: list[str], operands: list[str], unknown: str) -> list[str]:
    """The files a GIT_TAKES_FILES command reads: its file options' values,
    and its operands (`stash push`'s after `push`); a variable's, any file."""
    files: list[str] = []
    if command in _READS_OPERANDS and (command != "stash" or operands[:1] == ["push"]):
        files = operands[1:] if command == "stash" else operands
        if any(
            w == unknown and (k == 0 or rest[k - 1] not in _NOT_FILES) for k, w in enumerate(rest)
        ):
            files.append(ANYWHERE)  # `git hash-object -w "$F"`: any file
    letter, names = _FILE_OPTIONS.get(command, ("", ()))
    for k, word in enumerate(rest):
        if word == "--":
            break
        option, eq, value = word.partition("=")
        if option in names:
            files.append(value if eq else rest[k + 1] if k + 1 < len(rest) else "")
        elif letter and word[:1] == "-" and word[1:2] != "-":
            for j in range(1, len(word)):
                if word[j] == letter:
                    files.append(word[j + 1 :] or (rest[k + 1] if k + 1 < len(rest) else ""))
                if word[j] in _VALUE_LETTERS:
                    break
    if unknown in rest or unknown in files:
        files = [ANYWHERE if f == unknown else f for f in files]
    return [f for f in files if f]


_CONFIG_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})
_CONFIG_CHANGES = frozenset(
    "set unset rename-section remove-section edit --add --unset --unset-all --replace-all "
    "--rename-section --remove-section --edit -e".split()
)


def _sets(rest: list[str]) -> bool:
    """Whether `git config` changes its file: an option or a subcommand
    that changes it, or a name and a value (`git config -f x a.b c`)."""
    operands: list[str] = []
    skip = False
    for word in rest:
        if skip:
            skip = False
        elif word in _CONFIG_CHANGES:
            return True
        elif word in _CONFIG_VALUES:
            skip = True
        elif word[:1] != "-":
            operands.append(word)
    return len(operands) >= 2 and operands[0] not in ("get", "list")


def _stashes_untracked(rest: list[str], operands: list[str]) -> bool:
    """Whether `git stash [push|save]` keeps untracked files (`-u`,
    `--include-untracked`, `-a`, `--all`)."""
    if operands and operands[0] not in ("push", "save"):
        return False
    for word in rest:
        if word == "--":
            return False
        if word in ("--include-untracked", "--all"):
            return True
        if word[:1] == "-" and word[1:2] != "-":
            for letter in word[1:]:
                if letter in "ua":
                    return True
                if letter == "m":  # the message follows
                    break
    return False


# A stash made with `-u` or `-a` keeps the untracked (and ignored) files in
# its third parent: `git show stash^3` prints an ignored `.env` stashed so.
# (By hand, not `re`: a hook run imports neither re nor json.)
def _names_stashed_untracked(word: str) -> bool:
    """`stash^3`, `stash@{1}^3`, `refs/stash^3` (and `stash^3:.env`)."""
    at = word.find("stash")
    while at >= 0:
        if at == 0 or word[at - 1] == "/":
            rest = word[at + 5 :]
            if rest[:2] == "@{":
                rest = rest[rest.find("}") + 1 :] if "}" in rest else ""
            if rest[:2] == "^3":
                return True
        at = word.find("stash", at + 1)
    return False


def _shows_stashed_untracked(command: str, operands: list[str], rest: list[str]) -> bool:
    """Whether the command shows the files a stash kept untracked, any file
    of the work tree (which may lie above `.`): `git stash show -p -u`
    (`--include-untracked`, `--only-untracked`), and a revision of a
    stash's third parent shown (`git show stash@{0}^3`, `git archive
    stash^3`, `git diff stash stash^3`)."""
    if command == "stash":
        if operands[:1] != ["show"]:
            return False
        for word in rest:
            if word == "--":
                break
            if word in ("--include-untracked", "--only-untracked"):
                return True
            if word[:1] == "-" and word[1:2] != "-" and "u" in word:
                return True
        return False
    return (command in GIT_SHOWS or command in ("archive", "diff-tree")) and any(
        _names_stashed_untracked(word) for word in operands
    )


# Commands that fill a folder: `git clone URL [DIR]`, `git submodule add
# URL [PATH]`, `git worktree add PATH [REV]` (`git clone https://x .github`
# wrote past `Edit(./.github/**)`).
_MAKES_TREES = frozenset({"clone", "submodule", "worktree"})
# Those whose writes are files already, not paths that may be folders.
_WRITES_FILES = _MAKES_TREES | {"clean", "apply", "am"}


def _new_trees(command: str, operands: list[str]) -> list[str]:
    """The folders they fill, and every file under each: each operand that
    may be one (the URL and an option's value among them: more, never
    fewer), and the folder named after each repository a URL names (`x` of
    `…/x.git`), where git clones when no folder is given."""
    if command != "clone":
        if operands[:1] != ["add"]:
            return []
        operands = operands[1:]
    paths = list(operands)
    if command != "worktree":
        for url in operands:
            if "://" in url or url.endswith(".git") or ":" in url and "/" in url:
                name = url.rstrip("/").rpartition("/")[2].rpartition(":")[2]
                paths.append(name.removesuffix(".git") or name)
    paths = [path for path in dict.fromkeys(paths) if path]
    return paths + [files_in(path) for path in paths]


def _long(word: str, option: str, shortest: int) -> bool:
    """Whether `word` is `option` as git's option parser takes it: whole, or
    any prefix of it from `shortest` characters on (`--untr`). A prefix git
    finds ambiguous is read as the option too: it can only add a subject."""
    return len(word) >= shortest and option.startswith(word)


# git grep's options that take a value as the next word (`-A 3`), and its
# letters that take one (the rest of the cluster, else the next word).
_GREP_LONG_VALUES = (
    "--max-count --max-depth --threads --context --after-context --before-context".split()
)
_GREP_VALUE_LETTERS = "efABCm"


def _grep_searches_all(rest: list[str]) -> list[str] | None:
    """What `git grep --untracked` or `--no-index` searches, as `grep -r`
    does: the paths it is given, else `.`; every file there, as git skips
    only what an ignore file names (not known here; none with `--no-index`
    or `--no-exclude-standard`), and `.git`. None without those options:
    git grep searches the tracked files only."""
    searches_all = False
    patterned = False  # `-e PATTERN` or `-f FILE`: the first operand is a path
    operands: list[str] = []
    paths: list[str] = []
    k = 0
    while k < len(rest):
        word = rest[k]
        k += 1
        if word == "--":
            paths = rest[k:]
            break
        if word[:2] == "--":
            option, eq, _ = word.partition("=")
            if _long(option, "--untracked", 3) or _long(option, "--no-index", 6):
                searches_all = True
            elif not eq and any(_long(option, name, 4) for name in _GREP_LONG_VALUES):
                k += 1  # (`--max-d 2`: a prefix too; the value, as a path, would hide `.`)
        elif word[:1] == "-" and len(word) > 1:
            for j in range(1, len(word)):
                if word[j] in _GREP_VALUE_LETTERS:
                    patterned = patterned or word[j] in "ef"
                    k += j + 1 == len(word)  # the value is the next word
                    break
        else:
            operands.append(word)
    if not searches_all:
        return None
    return operands[0 if patterned else 1 :] + paths or ["."]


def _compares_files(rest: list[str], paths: list[str]) -> bool:
    """Whether `git diff` compares two paths on the file system, as `diff
    -r` does: with `--no-index`, or when one of two paths may be outside
    the work tree (git does so then: `git diff /tmp/empty .` prints every
    file under `.`, `.git`'s too)."""
    if any(_long(word, "--no-index", 9) for word in rest if word[:2] == "--"):
        return True
    return len(paths) == 2 and any(
        path[:1] in ("/", "~") or path == ".." or path[:3] == "../" for path in paths
    )


# Commands that write a file their `--output=FILE` names: the diff family's.
_DIFF_OUTPUTS = frozenset(
    "diff log show whatchanged format-patch diff-tree diff-index diff-files range-diff".split()
)


def _written_by_options(command: str, rest: list[str]) -> list[str]:
    """The files a command writes by its options and operands: the diff
    family's `--output FILE`, `git archive -o FILE`, `git bundle create
    FILE`, and format-patch's patches, in `-o DIR` or `.`, by names not told
    (`words.a_file_in`: held to rules on every file there)."""
    written: list[str] = []
    patches = "." if command == "format-patch" else ""
    for k, word in enumerate(rest):
        if word == "--":
            break
        value = rest[k + 1] if k + 1 < len(rest) else ""
        option, eq, attached = word.partition("=")
        if option == "--output" and (command in _DIFF_OUTPUTS or command == "archive"):
            written.append(attached if eq else value)
            patches = ""  # format-patch writes that file instead
        elif command not in ("archive", "format-patch"):
            continue
        elif word[:1] == "-" and word[1:2] not in ("-", "") and "o" in word:
            # `-o FILE`, `-oFILE`, in a cluster too (`-ko DIR`): the rest, else the next word
            at = word.index("o")
            if command == "archive":
                written.append(word[at + 1 :] or value)
            else:
                patches = word[at + 1 :] or value
        elif word == "--stdout" and command == "format-patch":
            patches = ""
        elif option == "--output-directory" and command == "format-patch":
            patches = attached if eq else value
    if command == "bundle":
        operands = [word for word in rest if word[:1] != "-" or word == "-"]  # (a variable's too)
        if operands[:1] == ["create"] and operands[1:2] != ["-"]:
            written += operands[1:2]
    if patches:
        written.append(a_file_in(patches))
    return [path for path in written if path]


def _applied(command: str, rest: list[str]) -> list[str]:
    """What `git apply` and `git am` may change: the files their patches
    name, not known here, so the work tree's under `.` (git takes a patch's
    paths from the repository's root, skips those outside the working
    directory and never writes in `.git`), under `--directory`'s folder if
    given; any file with `--unsafe-paths`. With `--include PATTERN`, only
    the paths a pattern matches, as git's wildcards do (`*` takes a `/`:
    `--include='src/*'` is every file under src). None for a report alone
    (`--stat`, `--numstat`, `--summary`, `--check` without `--apply`), the
    index alone (`git apply --cached`) or am's `--show-current-patch`."""
    root = "."
    reports = applies = anywhere = False
    included: list[str] = []
    for k, word in enumerate(rest):
        option, eq, value = word.partition("=")
        if option == "--include":
            pattern = value if eq else rest[k + 1] if k + 1 < len(rest) else ""
            included.append(_pathspec(pattern) or pattern)
        if word in ("--stat", "--numstat", "--summary", "--check"):
            reports = True
        elif word == "--apply":
            applies = True
        elif word == "--cached" and command == "apply" or option == "--show-current-patch":
            return []
        elif word == "--quit" and command == "am":
            return []
        elif option == "--directory":
            root = value if eq else rest[k + 1] if k + 1 < len(rest) else "."
        elif word == "--unsafe-paths":
            anywhere = True
    if reports and not applies and command == "apply":
        return []
    if included and not anywhere and all(included):
        return included  # (its paths carry `--directory`'s root already)
    return and_worktree_under([root]) + [ANYWHERE] * anywhere


def git_files(words: list[str], at: int, unknown: str) -> tuple[list[str], list[str]]:
    """The files `git [OPTIONS] COMMAND …` reads and writes; `at` is where
    COMMAND stands, `unknown` a word with a variable."""
    folder = ""
    for k in range(1, at):
        if words[k] == "-C" and k + 1 < at:
            # `git -C "$D" show HEAD:.env`: a folder not known, so any file.
            folder = ANYWHERE if words[k + 1] == unknown else _under(folder, words[k + 1])
    command = words[at]
    operands: list[str] = []
    after: list[str] = []  # after `--`: paths, whatever else exists
    ended = False
    longs = False  # a long option (`--untracked`, `--output=x`): most commands have none
    for word in words[at + 1 :]:
        if ended:
            after.append(word)
        elif word == "--":
            ended = True
        elif word[:1] != "-" and word != unknown:
            operands.append(word)
        elif word[:2] == "--":
            longs = True
    # A path with a variable (`git show "$REV:.env"`, `git restore "$F"`)
    # may be any: every file stands for it (`words.ANYWHERE`).
    anywhere = unknown in words[at + 1 :]
    writes_anywhere = False
    after_unknown = unknown in after
    after = [word for word in after if word != unknown]
    reads: list[str] = [ANYWHERE] if anywhere and command in GIT_SHOWS else []
    writes: list[str] = []
    untracked: list[str] = []  # what `git stash -u` keeps and removes
    if command == "add":
        # What it stages, to be committed and pushed: its pathspecs, a folder's
        # files too (`git add secrets`); with none, `-A` and `--all` take the
        # whole work tree, as `.` does (an untracked `.env` there, unless
        # ignored, which is not known here). `-u` takes tracked files only.
        specs = operands + after
        if not specs and any(
            w == "--all" or w[:1] == "-" and w[1:2] != "-" and "A" in w for w in words[at + 1 :]
        ):
            specs = ["."]
        reads += _and_under(specs)
    elif command in GIT_SHOWS:
        for word in operands + after:
            reads.append(_pathspec(word) or word)  # (`git add '*.py'`: at any depth)
            _, colon, path = word.partition(":")
            if colon:  # `HEAD:path`, `origin/main:path`, `:path`, `:0:path`
                reads.append(path.partition(":")[2] if path[1:2] == ":" else path or ".")
        searched = _grep_searches_all(words[at + 1 :]) if command == "grep" and longs else None
        if searched is not None:
            # `git grep --untracked KEY` prints an untracked `.env` unless an
            # ignore file names it, `--no-index` an ignored one too.
            reads += [worktree_files_in(path) for path in searched if _pathspec(path) is None]
        elif command == "grep" and not after:
            # The tracked files of the working directory, as `git diff` and
            # `git log -p` show them: held to rules on all of them (a tracked
            # `.env` is printed by those too; an untracked one by none).
            reads.append(a_file_in("."))
        elif (
            command == "diff"
            and (longs or len(operands) + len(after) == 2)  # (`--no-index`, or two paths)
            and _compares_files(words[at + 1 :], operands + after)
        ):
            # `git diff --no-index /dev/null .env`, `git diff --no-index a .`
            reads += [files_in(path) for path in operands + after]
    elif command in GIT_TAKES_FILES:
        # `git commit -F .env` makes .env the message `git log` prints, and
        # `git hash-object -w .env` stores it for `git cat-file -p HASH`.
        reads = _taken_files(command, words[at + 1 :], operands + after, unknown)
        if command == "stash" or command == "config" and _sets(words[at + 1 :]):
            # `git stash push PATH…` puts PATH back as it was; `git config -f
            # FILE NAME VALUE` writes FILE.
            writes = [path for path in reads if path != ANYWHERE]
            writes_anywhere = ANYWHERE in reads
        if command in ("stash", "archive", "update-index"):  # a pathspec may be a folder
            named = [path for path in reads if path != ANYWHERE]
            reads = _and_under(named) + [ANYWHERE] * (ANYWHERE in reads)
        if command == "stash" and _stashes_untracked(words[at + 1 :], operands):
            # `git stash -u` (`-a`: ignored files too, `.env`) keeps the untracked
            # files of its pathspecs, else of `.`, and removes them, as `git
            # clean -fd` does: every file there, read and edited.
            specs = operands[1:] if operands[:1] == ["push"] else []
            untracked = and_worktree_under(specs + after or ["."])
    elif command in ("restore", "rm", "mv") and "--cached" not in words:  # (the index only)
        writes, writes_anywhere = operands + after, anywhere
    elif command == "checkout":
        writes = after  # without `--`, a branch or paths: not told apart here
        writes_anywhere = after_unknown
    elif command == "clean":
        writes = _cleaned(words[at + 1 :], unknown)
    elif command in ("apply", "am"):
        writes = _applied(command, words[at + 1 :])
    elif command in _MAKES_TREES:
        writes = _new_trees(command, operands + after)
    # A path may be a folder: what git shows or rewrites there is its files
    # (`git checkout HEAD~5 -- config`, `git log -p -- secrets`). A path
    # shown is read so only after `--`: `git show HEAD:README.md` and `git
    # diff main` name a file or a revision.
    if command not in _WRITES_FILES and writes:
        writes = _and_under(writes)
    if command in ("format-patch", "archive", "bundle") or longs and command in _DIFF_OUTPUTS:
        # `git diff --output=.bashrc`, `git format-patch -o .git/hooks -1`: a
        # file each (a variable's: any, as `ANYWHERE` above reads it).
        writes += [
            ANYWHERE if path == unknown else path
            for path in _written_by_options(command, words[at + 1 :])
        ]
    if writes_anywhere:
        writes = writes + [ANYWHERE]
    if (command == "stash" or "stash" in " ".join(operands)) and _shows_stashed_untracked(
        command, operands, words[at + 1 :]
    ):  # (tested first without a call: `git show HEAD` is common, measured)
        reads.append(ANYWHERE)
    if untracked:  # (once each)
        reads = list(dict.fromkeys(reads + untracked))
        writes = list(dict.fromkeys(writes + untracked))
    if after and command in GIT_SHOWS and command != "add":
        plain = [path for path in after if _pathspec(path) is None]  # (read above if not)
        reads += and_under_if_folders(plain, worktree=True)[len(plain) :]
    reads = [_under(folder, p) for p in reads if p]
    writes = [_under(folder, p) for p in writes if p]
    if folder == ANYWHERE:  # each path is any file: once
        return list(dict.fromkeys(reads)), list(dict.fromkeys(writes))
    return reads, writes
