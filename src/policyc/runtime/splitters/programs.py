"""What a command runs, read from its words: the safe assignments, runners
(`uv run pytest`, `npx tsc`), git's options before its command, a shell's
`-c` string, find's actions, and what `trap` and `alias` keep.

Each reader works on the words after quote removal (`words.Word`) and
returns words or positions; `shell` turns them into subjects. Wrappers are
read in `wrappers`, programs given a command to run in `takers`. No `re`:
importing it costs the hook's start (see `shell._compile_patterns`).
"""

from __future__ import annotations

from collections import namedtuple

from ..paths import NO_GIT, NO_GIT_OR_PACKAGES, files_named_under
from .editors import EDITORS
from .words import (
    FEEDERS,
    SplitError,
    Word,
    a_file_in,
    and_files_under,
    files_in,
    input_word,
    is_input,
    long_option,
    new_word,
    opens_shell,
    option_names,
    under_if_folder,
    value_of,
)

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


def is_name(text: str) -> bool:
    """A shell variable's name: `[A-Za-z_][A-Za-z0-9_]*`."""
    return text[:1] in _NAME_START and _NAME_REST.issuperset(text)


# Variables whose value a program runs as a command: git's and ssh's
# (`GIT_SSH_COMMAND='rm -rf ~' git fetch` runs rm), pagers, editors,
# askpass helpers, a browser. Their values are held (deny and ask rules see
# them); the variables below are refused: settings or a script no rule sees
# (git's settings by the environment; a file bash reads before its command).
COMMAND_VARIABLES = frozenset(
    {
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_ASKPASS",
        "GIT_EXTERNAL_DIFF",
        "GIT_PROXY_COMMAND",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "PAGER",
        "MANPAGER",
        "LESSOPEN",
        "LESSCLOSE",
        "SYSTEMD_PAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
    }
)
REFUSED_VARIABLES = frozenset({"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "BASH_ENV"})


def is_safe_assignment(name: str) -> bool:
    return name in SAFE_ASSIGNMENTS or name.startswith(SAFE_ASSIGNMENT_PREFIXES)


# GNU tools Homebrew installs on macOS with a `g` in front, beside the
# system's BSD ones (coreutils 9, findutils 4.9, GNU sed, tar, grep, make,
# time, which, patch and m4): `grm -rf /` is rm, `gtimeout 5 make` is
# timeout's, `gfind -exec` is find's.
GNU_PREFIXED = frozenset(
    """
    b2sum base32 base64 basename basenc cat chcon chgrp chmod chown chroot cksum comm cp
    csplit cut date dd df dir dircolors dirname du echo env expand expr factor false fmt
    fold groups head hostid id install join kill link ln logname ls md5sum mkdir mkfifo
    mknod mktemp mv nice nl nohup nproc numfmt od paste pathchk pinky pr printenv printf
    ptx pwd readlink realpath rm rmdir runcon seq sha1sum sha224sum sha256sum sha384sum
    sha512sum shred shuf sleep sort split stat stdbuf stty sum sync tac tail tee test
    timeout touch tr true truncate tsort tty uname unexpand uniq unlink uptime users vdir
    wc who whoami yes find xargs locate updatedb sed tar grep egrep fgrep make time which
    patch m4
    """.split()
)


def program_name(word: str) -> str:
    """The program a command word names, for telling wrappers, shells and eval:
    in lower case, as macOS's file system finds `SUDO` or `/BIN/BASH`, and
    without the `g` of a GNU tool's Homebrew name (GNU_PREFIXED)."""
    name = word.rsplit("/", 1)[-1].lower()
    if name[:1] == "g" and name[1:] in GNU_PREFIXED:
        return name[1:]
    return OTHER_NAMES.get(name, name)


# Programs installed under another name too: libarchive's tar (macOS's own).
OTHER_NAMES = {"bsdtar": "tar"}


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


def _npm_scripts(words: list[Word]) -> list[Word]:
    """What npm (pnpm) keeps to run later: a package script `npm pkg set
    scripts.NAME=CMD` or `npm set-script NAME CMD` writes (`npm run NAME`
    runs it with sh), and the shell `script-shell` names (`npm config set
    script-shell X`, `--script-shell X`), which runs every script."""
    out = []
    values = [w.value for w in words]
    for k, word in enumerate(words[1:], 1):
        value = word.value
        if value.startswith("--script-shell="):
            out.append(new_word(Word, (value[15:], word.start, word.end, word.expands, True)))
        elif value in ("--script-shell", "script-shell") and k + 1 < len(words):
            out.append(words[k + 1])
        elif value.startswith("script-shell="):
            out.append(new_word(Word, (value[13:], word.start, word.end, word.expands, True)))
    if values[1:3] == ["pkg", "set"]:
        for word in words[3:]:
            name, eq, command = word.value.partition("=")
            if eq and name.startswith("scripts."):
                out.append(new_word(Word, (command, word.start, word.end, word.expands, True)))
    elif values[1:2] == ["set-script"] and len(words) > 3:
        out.append(words[3])
    return out


LATER = {"trap": _trap_action, "alias": _alias_values, "npm": _npm_scripts, "pnpm": _npm_scripts}

# find's actions that run a command, up to a `;` argument (or `{} +`).
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
# find's actions that write the file named by their next argument.
FIND_WRITE = frozenset({"-fprint", "-fprint0", "-fls", "-fprintf"})
# find's options before its starting points (GNU's -D and -O take a value).
_FIND_LEADING = frozenset({"-H", "-L", "-P"})


def find_start_points(words: list[str]) -> list[str]:
    """The folders `find` starts from (`.` when none is named), for
    `-delete`, which removes what it finds under them."""
    return _find_points(words)[0]


def _find_points(words: list[str]) -> tuple[list[str], int]:
    """find's starting points, and where its expression begins."""
    i = 1
    while i < len(words) and (words[i] in _FIND_LEADING or words[i][:2] in ("-D", "-O")):
        i += 2 if words[i] == "-D" else 1
    points = []
    while i < len(words) and words[i][:1] not in ("-", "(", "!", ")", ",") and words[i]:
        points.append(words[i])
        i += 1
    return points or ["."], i


# find's primaries, by whether they take a word: each only narrows what a
# conjunction of them finds. One not listed (`-prune`, `-fprintf`), or an
# operator other than `-a` (`-o`, `!`, `,`), and what it acts on is read as
# every file under its starting points.
_FIND_TAKES_WORD = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname "
    "-type -xtype -user -group -uid -gid -perm -size -mtime -atime -ctime -mmin -amin "
    "-cmin -newer -anewer -cnewer -maxdepth -mindepth -links -inum -samefile -used "
    "-fstype -regextype -printf".split()
)
_FIND_TAKES_NONE = frozenset(
    "-a -and -print -print0 -ls -depth -xdev -mount -empty -readable -writable "
    "-executable -true -nouser -nogroup -follow -noleaf -daystart -ignore_readdir_race "
    "-warn -nowarn".split()
)
_FIND_NAMES = ("-name", "-iname")


def find_names(words: list[str], action: int) -> tuple[tuple[str, ...], bool] | None:
    """The globs one of which the name of what find's action at
    `words[action]` takes must match (`find . -name '*.pyc' -delete`:
    ("*.pyc",); `( -name A -o -name B )`: both), and whether it takes
    files only (`-type f`). None when no name test comes first in a plain
    conjunction (or a glob has a variable: a word starting with a NUL)."""
    i = _find_points(words)[1]
    names: tuple[str, ...] = ()
    files = False
    while i < action:
        word = words[i]
        if word in _FIND_NAMES and i + 1 < action:
            names = names or (words[i + 1],)  # (several: what all match; one holds it)
            i += 2
        elif word == "(":  # `( -name A -o -name B )`, and no other group
            group, i = [], i + 1
            while i + 1 < action and words[i] in _FIND_NAMES:
                group.append(words[i + 1])
                i += 2
                if i < action and words[i] in ("-o", "-or"):
                    i += 1
                    continue
                break
            if not group or i >= action or words[i] != ")":
                return None
            names = names or tuple(group)
            i += 1
        elif word in _FIND_TAKES_WORD or word.startswith("-newer"):
            files = files or word == "-type" and words[i + 1 : i + 2] == ["f"]
            i += 2
        elif word in _FIND_TAKES_NONE:
            i += 1
        else:
            return None
    if not names or any(glob[:1] == "\0" or "/" in glob for glob in names):
        return None
    return names, files


# find's actions that print something, or run a command whose output would
# join the names it lists (`-exec cat {} +`), and fd's options that do so.
_FIND_OUTPUTS = frozenset(
    "-print -printf -fprint -fprint0 -fprintf -ls -fls -exec -execdir -ok -okdir".split()
)
_FD_OUTPUTS = frozenset("-x --exec -X --exec-batch -l --list-details --format".split())


def listed_by_null(words: list[str]) -> tuple[list[str], tuple | None] | None:
    """What `find … -print0`, `fd -0 …`, `rg -l0 …` or `grep -rlZ …` writes
    on its output, for `| xargs -0 CMD`, whose words are then exactly those
    names (without `-0`, a name holding a blank is several words to xargs,
    and may name any file): the folders searched and the names they are
    narrowed to (`find_names`, `fd_names`, the files of a search's globs:
    None for any). None for any other command, or one whose output may hold
    more: another action that prints or runs a command, lines or counts."""
    name = program_name(words[0].rpartition("/")[2])
    if name in _SEARCH_VALUES:
        return _search_listing(name, words)
    if name == "find":
        if words.count("-print0") != 1 or not _FIND_OUTPUTS.isdisjoint(words):
            return None
        return find_start_points(words), find_names(words, words.index("-print0"))
    if name in ("fd", "fdfind"):
        null = False
        for word in words[1:]:
            if word == "--":
                break
            short = word[:1] == "-" and word[1:2] not in ("-", "")  # a cluster: `-H0`
            if word.partition("=")[0] in _FD_OUTPUTS or short and any(c in word for c in "xXl"):
                return None
            null = null or word == "--print0" or short and "0" in word
        return (fd_search_paths(words), fd_names(words)) if null else None
    return None


# What has rg and grep print the names of the files they search (with or
# without a match), what ends each with a NUL, and what prints more.
_LISTS = option_names("--files-with-matches --files-without-match --files")
_NULL = option_names("--null")
_PRINTS_MORE = option_names("--count --count-matches --json --stats --vimgrep --debug --trace")


def _search_listing(program: str, words: list[str]) -> tuple[list[str], tuple | None] | None:
    """`listed_by_null` for rg and grep: with `-l` (`-L`, `--files`) and
    `-0` (grep's `-Z`), the files they search, as `with_files_under` reads
    them: under their folders, else `.`; the files of their globs."""
    lists = null = False
    short_values = _SEARCH_VALUES[program][0]
    null_letter = "0" if program == "rg" else "Z"
    for word in words[1:]:
        if word == "--":
            break
        name = word.partition("=")[0]
        if name in _PRINTS_MORE:
            return None
        if word[:2] == "--":
            lists, null = lists or name in _LISTS, null or name in _NULL
        elif word[:1] == "-":
            for letter in word[1:]:
                if letter == "c" or letter == "o" and program == "rg":  # counts; `-o` output
                    return None
                lists = lists or letter == "l" or letter == "L" and program != "rg"
                null = null or letter == null_letter
                if letter in short_values:
                    break
    if not (lists and null):
        return None
    named = search_names(program, words)
    given = named[1] if named is not None else set()
    points = [path for path in read_operands(words) if path and path not in given]
    if _searches_here(program, words):
        points.append(".")
    return points, (named[0], True) if named is not None else None


def find_delete_names(words: list[str]) -> tuple[str, ...] | None:
    """The globs of what find's `-delete` actions remove (`find_names` of
    each: `-name A -delete -o -name B -delete` removes both); None when one
    takes any name."""
    globs: list[str] = []
    for k, word in enumerate(words):
        if word == "-delete":
            names = find_names(words, k)
            if names is None:
                return None
            globs += names[0]
    return tuple(dict.fromkeys(globs)) or None


# Programs that run a command in an environment they set up: `uv run pytest`,
# `npx tsc`, `poetry run python x.py`. Each: the subcommands that run one
# (None: the program itself does), its options that take a value, those
# that do not, and those we refuse (a shell string). An option not listed
# leaves where the command starts unknown: deny and ask rules then see the
# command from each later word that is not an option (`uv run --new x
# pytest`: `x pytest` and `pytest`), a stricter reading, never a looser one.
_PYTHON_RUN = (
    option_names(
        "--with --with-editable --with-requirements -p --python --package --project "
        "--directory --extra --no-extra --group --only-group --no-group --env-file --index "
        "--index-url --default-index --extra-index-url -f --find-links --color "
        "--config-file --cache-dir --python-preference --resolution --prerelease "
        "--link-mode -P --upgrade-package --reinstall-package --refresh-package "
        "--no-binary-package --no-build-package --keyring-provider --index-strategy "
        "--exclude-newer -C --config-setting --allow-insecure-host --python-platform"
    ),
    option_names(
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
    option_names("-p --package --prefix -w --workspace --filter -F -C --dir"),
    option_names(
        "-y --yes --no -q --quiet --silent --ws --workspaces --include-workspace-root "
        "-r --recursive --parallel --no-bail --report-summary --bun"
    ),
    option_names("-c --call --shell-mode"),
)
RUNNERS: dict[str, tuple[frozenset | None, frozenset[str], frozenset[str], frozenset[str]]] = {
    "uv": (frozenset({"run", "tool run"}), *_PYTHON_RUN),
    # `uvx ruff check` (uv tool run): --from names the package, not the command.
    "uvx": (None, _PYTHON_RUN[0] | option_names("--from"), *_PYTHON_RUN[1:]),
    "hatch": (
        frozenset({"run"}),
        option_names("-e --env -p --project --color --data-dir --cache-dir --config"),
        option_names("-v --verbose -q --quiet --interactive --no-interactive"),
        frozenset(),
    ),
    "pixi": (
        frozenset({"run", "exec"}),
        option_names(
            "-e --environment --manifest-path -s --spec -w --with -c --channel --platform --color"
        ),
        option_names(
            "--frozen --locked --clean-env --force-reinstall -v --verbose -q --quiet "
            "--no-install --revalidate"
        ),
        frozenset(),
    ),
    "poetry": (
        frozenset({"run"}),
        option_names("-C --directory -P --project"),
        option_names(
            "-q --quiet -v -vv -vvv --verbose -n --no-interaction --ansi --no-ansi "
            "--no-plugins --no-cache"
        ),
        frozenset(),
    ),
    # rye 0.4x (uv's predecessor) and Jetify's devbox 0.1x: a script of the
    # project's or a command (`devbox run rm -rf /`), read as a command.
    "rye": (
        frozenset({"run"}),
        option_names("--pyproject"),
        option_names("-v --verbose -q --quiet"),
        frozenset(),
    ),
    "devbox": (
        frozenset({"run"}),
        option_names("-c --config -e --env --env-file --environment"),
        option_names("-q --quiet --pure --omit-nix-env --recompute"),
        frozenset(),
    ),
    "pipenv": (
        frozenset({"run"}),
        option_names("--python"),
        option_names("-v --verbose -q --quiet"),
        frozenset(),
    ),
    "pdm": (
        frozenset({"run"}),
        option_names("-p --project"),
        option_names("-v --verbose -q --quiet -g --global -s --site-packages"),
        frozenset(),
    ),
    "conda": (
        frozenset({"run"}),
        option_names("-n --name -p --prefix --cwd"),
        option_names(
            "--no-capture-output --live-stream -v --verbose --dev --debug-wrapper-scripts"
        ),
        frozenset(),
    ),
    "pipx": (
        frozenset({"run"}),
        option_names("--spec --python --index-url --pip-args"),
        option_names("--no-cache -v --verbose -q --quiet"),
        frozenset(),
    ),
    "npx": (None, *_NODE_EXEC),
    "bunx": (None, *_NODE_EXEC),
    "npm": (frozenset({"exec", "x"}), *_NODE_EXEC),
    "pnpm": (frozenset({"exec", "dlx"}), *_NODE_EXEC),
    "yarn": (frozenset({"exec", "dlx"}), *_NODE_EXEC),
    # bun's `-c` is its config file, not npx's shell string (`bun exec`'s
    # string: `takers`)
    "bun": (
        frozenset({"x"}),
        _NODE_EXEC[0] | option_names("-c --config -r --preload --cwd --env-file"),
        _NODE_EXEC[1],
        frozenset(),
    ),
    "bundle": (
        frozenset({"exec"}),
        option_names("--gemfile"),
        option_names("--keep-file-descriptors"),
        frozenset(),
    ),
    # perf's workload (perf 5 to 6): its options are many, so those not
    # listed make guesses; --pre and --post run commands of their own.
    "perf": (
        frozenset({"stat", "record", "trace"}),
        option_names(
            "-e --event --filter -p --pid -t --tid -r --repeat -C --cpu -x --field-separator "
            "-G --cgroup -o --output --log-fd -I --interval-print --interval-count --timeout "
            "-M --metrics -D --delay -c --count -F --freq -m --mmap-pages --call-graph -u "
            "--uid -z --compression-level --max-size --switch-output --clockid -k --control "
            "--debug"
        ),
        option_names(
            "-a --all-cpus -A --no-aggr -B --big-num -d --detailed -n --null -q --quiet -v "
            "--verbose -g -s --stat -T --timestamp --per-core --per-socket --per-thread "
            "--per-node --append --no-inherit -i --metric-only -j --json --no-buildid -N "
            "--no-buildid-cache --no-merge"
        ),
        option_names("--pre --post"),
    ),
}
RUNNERS["mamba"] = RUNNERS["micromamba"] = RUNNERS["conda"]
# Runners whose `shell` starts a shell in their environment, which reads
# its commands from the input as bash alone does.
RUNNER_SHELLS = frozenset({"poetry", "pipenv", "hatch", "pixi", "devbox"})
_HELP = frozenset({"-h", "--help"})
# Each guess is read in full (it may be `bash -c ...` or another runner), so
# guesses nest: at most 8 at each of MAX_DEPTH levels.
_MAX_RUNNER_GUESSES = 8


# What a package runner runs is a package, perhaps with its version
# (`npx prettier@3 --write .`, `uvx ruff@0.5 format`, `uvx black==24.1 .`):
# the command is the package's own (`prettier`: held to rules on what it
# writes, where `prettier@3` was a program nothing was known of). A few
# packages name their command otherwise (`npx dotenv-cli` runs `dotenv`).
_PACKAGE_RUNNERS = frozenset({"npx", "bunx", "npm", "pnpm", "yarn", "bun", "uvx", "pipx"})
_PYTHON_PACKAGE_RUNNERS = frozenset({"uvx", "pipx"})
_PACKAGE_COMMANDS = {"dotenv-cli": "dotenv"}


def _package_command(words: list[Word], runner: str) -> list[Word]:
    """`words` with a package runner's package read as its command."""
    if runner not in _PACKAGE_RUNNERS or not words:
        return words
    value = words[0].value
    if runner in _PYTHON_PACKAGE_RUNNERS:  # `black==24.1`, `black[jupyter]`, `ruff@0.5`
        cut = min((k for k in (value.find(c, 1) for c in "@=<>[~!") if k > 0), default=-1)
    else:  # `prettier@3`, `@biomejs/biome@1.8` (a scope's `@` leads)
        cut = value.find("@", 1)
    package = value[:cut] if cut > 0 else value
    package = _PACKAGE_COMMANDS.get(package, package)
    return words if package == value else [words[0]._replace(value=package), *words[1:]]


def runner_commands(words: list[Word], spec: tuple, name: str) -> list[list[Word]]:
    """The command a runner runs (`pytest` of `uv run -q pytest -x`), or,
    past an option we do not know, each command it may be."""
    return [_package_command(command, name) for command in _runner_commands(words, spec, name)]


def _runner_commands(words: list[Word], spec: tuple, name: str) -> list[list[Word]]:
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
            elif value[:2] == "--" and "=" in value:
                i += 1  # an option not listed, its value attached: it takes no other word
            else:
                if subcommands is not None and not any(
                    sub.split()[-1] == w.value for sub in subcommands for w in words[i + 1 :]
                ):
                    return []  # no subcommand that runs one follows: nothing runs
                guesses = [words[j:] for j in range(i + 1, n) if not words[j].value.startswith("-")]
                if len(guesses) > _MAX_RUNNER_GUESSES:
                    raise SplitError(
                        f"{name} with option {value} and {len(guesses)} words after it "
                        "cannot be evaluated statically"
                    )
                return guesses
            continue
        if subcommands is not None:
            if (
                value == "shell"
                and name in RUNNER_SHELLS
                and not any(w.value in _HELP for w in words)
            ):
                raise opens_shell(f"{name} shell")  # `echo … | poetry shell`
            # `uv tool run`: a two-word subcommand's first word leaves its second.
            second = frozenset(
                sub[len(value) + 1 :] for sub in subcommands if sub.startswith(value + " ")
            )
            if value not in subcommands and not second:
                return []  # another subcommand (`uv pip install`): nothing runs
            subcommands = None if value in subcommands else second
            i += 1
            continue
        return [words[i:]]
    return []


# Programs with subcommands whose options may come first (`kubectl -n prod
# delete pod x`, `aws --profile p s3 rm ...`, `terraform -chdir=infra
# destroy`, `make -C dir deploy`, `hg -R repo push`): a deny on `kubectl
# delete:*` must see the subcommand past them. git has a table of its own.
LEADING_OPTIONS = frozenset(
    """
    kubectl oc helm kustomize argocd aws gcloud az doctl eksctl terraform tofu terragrunt
    pulumi docker podman npm pnpm yarn bun cargo go make gh glab hg jj svn systemctl
    launchctl brew pip pip3 dotnet gradle mvn bazel flyctl fly heroku vercel netlify
    wrangler firebase supabase nomad vault consul skaffold
    """.split()
)


def subcommand_starts(words: list[str], name: str) -> list[int]:
    """Where the subcommand of `PROG [OPTIONS] SUBCOMMAND ...` may start
    (LEADING_OPTIONS). Which options take a value is not known here, so a
    word right after an option without `=` may be its value or the
    subcommand: both are guessed (`-n prod delete`: `prod ...` and `delete
    ...`); the first word after a value or a complete option is the last."""
    starts = []
    i, n = 1, len(words)
    while i < n:
        value = words[i]
        if value == "--":
            starts += [i + 1] if i + 1 < n else []
            break
        if value[:1] in "-+" and len(value) > 1:  # `+nightly`: cargo's toolchain
            i += 1
            continue
        starts.append(i)
        before = words[i - 1]
        if not (before[:1] == "-" and len(before) > 1 and "=" not in before):
            break
        i += 1
    if len(starts) > _MAX_RUNNER_GUESSES:
        raise SplitError(
            f"{name} with {len(starts)} words among its options cannot be evaluated statically"
        )
    return starts


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


# git's commands, and their options whose value is a command git runs
# (long names, taken by a prefix as git's parser does; short letters).
GIT_OPTIONS_RUN: dict[str, tuple[tuple[str, ...], str]] = {
    "rebase": (("--exec",), "x"),
    "difftool": (("--extcmd",), "x"),
    "grep": (("--open-files-in-pager",), "O"),
    "clone": (("--upload-pack", "--config", "--template"), "uc"),
    "fetch": (("--upload-pack",), ""),
    "pull": (("--upload-pack",), ""),
    "ls-remote": (("--upload-pack",), "u"),
    "push": (("--receive-pack", "--exec"), ""),
    "archive": (("--exec",), ""),
    "send-email": (("--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"), ""),
    "filter-branch": (
        (
            "--env-filter",
            "--tree-filter",
            "--index-filter",
            "--parent-filter",
            "--msg-filter",
            "--commit-filter",
            "--tag-name-filter",
        ),
        "",
    ),
}


def git_runs_something(words: list[str]) -> bool:
    """Whether `git COMMAND ...` (plain words) may run a command named on
    the line (gitruns.py reads which): an option of GIT_OPTIONS_RUN, by
    any prefix of its long name or a cluster holding its letter, `bisect
    run`, `submodule foreach`, or a `config` write. The plain path leaves
    those to the general one; `git push --force origin` stays."""
    command = words[1]
    if command == "bisect":
        return "run" in words
    if command == "submodule":
        return "foreach" in words
    if command == "config":  # a write, or an option `gitruns` reads (it refuses unknown ones)
        return len(words) > 3 or any(word[:1] == "-" for word in words[2:])
    prefixes, shorts = _GIT_OPTION_PREFIXES[command]
    for word in words[2:]:
        if word[:1] != "-":
            continue
        if word[1:2] == "-":
            if word in prefixes or "=" in word and word[: word.index("=")] in prefixes:
                return True
        else:
            for letter in shorts:
                if letter in word:
                    return True
    return False


GIT_RUNS = frozenset(GIT_OPTIONS_RUN) | {"bisect", "submodule", "config"}
# Each command's long options by every prefix git takes (four characters
# on, `--ex`), and its letters: a set lookup a word on the plain path.
# Instructions a split (callgrind), before git's commands were read, with
# `any(option.startswith(...))` a word, and so: `git push --force origin
# main` 25,412, 38,034, 30,443; `git rebase -i main` 21,366, 30,807,
# 26,209; `git status --short` (no such command) 20,830, 21,365, 21,320.
_GIT_OPTION_PREFIXES = {
    command: (
        frozenset(option[:end] for option in longs for end in range(4, len(option) + 1)),
        shorts,
    )
    for command, (longs, shorts) in GIT_OPTIONS_RUN.items()
}


# git's commands whose operands name files they print or stage, and those
# that overwrite or remove files (`gitfiles` reads them).
GIT_SHOWS = frozenset(
    {"show", "cat-file", "blame", "annotate", "log", "whatchanged", "diff", "grep", "add"}
)
GIT_FILE_COMMANDS = GIT_SHOWS | {"checkout", "restore", "rm", "mv", "clean"}
# and those that read files their options name (`git commit -aF.env`), or
# their operands (`gitfiles.GIT_TAKES_FILES`)
GIT_FILE_OPTIONS = frozenset({"commit", "tag", "merge", "notes", "config"})
GIT_FILE_COMMANDS |= GIT_FILE_OPTIONS | {"hash-object", "update-index", "archive", "stash"}
# and those that write files their options or operands name (`git diff
# --output=FILE`, `git bundle create FILE`), or their patches' (`git apply`)
GIT_FILE_COMMANDS |= {"format-patch", "bundle", "apply", "am", "range-diff"}
GIT_FILE_COMMANDS |= {"diff-tree", "diff-index", "diff-files"}
# and those that fill a folder (`git clone URL DIR`, `git worktree add DIR`)
GIT_FILE_COMMANDS |= {"clone", "submodule", "worktree"}


def git_command_at(words: list[Word]) -> int:
    """Where git's command (`push` in `git -C . push`) stands, past its options."""
    i, n = 1, len(words)
    if i < n and is_input(words[i]):  # `xargs git`: a line may be `-c alias.x=!cmd x`
        raise SplitError(f"git given its options by {FEEDERS} cannot be evaluated statically")
    while i < n and words[i].value.startswith("-"):
        option, eq, _ = words[i].value.partition("=")
        if option in _GIT_WITH_VALUE:
            i += 1 if eq else 2
        elif option in _GIT_FLAGS and (not eq or option in ("--exec-path", "--list-cmds")):
            i += 1
        else:
            raise SplitError(f"git with option {words[i].value} cannot be evaluated statically")
    return i


def _shell_options(words: list[Word], name: str) -> tuple[int, list[str], Word | None]:
    """A shell's options as it reads them (after quote removal, so `'-c'`
    is `-c`): where its first operand stands, its short option clusters
    (`-lc`), and fish's `--command` string, if given."""
    i, clusters = 1, []
    while i < len(words):
        value = words[i].value
        if value.startswith("--") and len(value) > 2:
            option, eq, _ = value.partition("=")
            if option == "--command":  # fish: the string is the option's value
                return i, clusters, value_of(words, i, eq)
            if option == "--init-command":
                raise SplitError(f"{name} --init-command cannot be evaluated statically")
            i += 2 if option in _SHELL_LONG_WITH_VALUE and not eq else 1
            continue
        if value == "--":  # the end of the options
            return i + 1, clusters, None
        if value.startswith(("-", "+")) and len(value) > 1:
            if name == "fish" and "C" in value[1:]:
                raise SplitError("fish -C (a command to run first) cannot be evaluated statically")
            clusters.append(value)
            i += 2 if "o" in value[1:] or "O" in value[1:] else 1  # -o OPTION takes a value
            continue
        break
    return i, clusters, None


def shell_script(words: list[Word], name: str) -> Word | None:
    """The string of `bash -c STRING` (options may come first, clustered: `-lc`)."""
    i, clusters, command = _shell_options(words, name)
    if command is not None:
        return command
    if not any("c" in value[1:] for value in clusters):
        return None
    if i < len(words):
        return words[i]
    raise SplitError(f"{name} -c without a command string cannot be evaluated statically")


def shell_script_file(words: list[Word], name: str) -> Word | None:
    """The script file of `bash [OPTIONS] FILE [ARGS]`, if it names one
    (not `-c`, `-s` or `-i`, and not the input: `-`)."""
    i, clusters, command = _shell_options(words, name)
    if command is not None or any(c in value[1:] for value in clusters for c in "csi"):
        return None
    if i < len(words) and words[i].value not in ("-", ""):
        return words[i]
    return None


# POSIX shells (and bash's restricted mode, the Korn shells' forks, Oils'
# osh) whose `-c` strings policyc reads, and fish.
SHELLS = option_names(
    "bash sh zsh dash ksh mksh ash fish rbash yash posh oksh loksh lksh pdksh osh bosh"
)
# Shells whose language is not POSIX sh: their command strings cannot be
# read, and `pwsh -c '/bin/rm -rf /'` ran rm past a deny on `rm:*`. A
# command string, the input (none given, `-`) or an option not known to
# name a script file is refused; a script file (`pwsh x.ps1`, `nu x.nu`),
# help and version are decided by the shell's name, as `bash x.sh` is.
FOREIGN_SHELLS = option_names(
    "pwsh pwsh.exe powershell powershell.exe cmd cmd.exe csh tcsh nu xonsh elvish rc es "
    "ion ysh murex"
)
_HELP_OR_VERSION = option_names("--help -h -? /? --version -v -V -version -help")


def foreign_shell_refusal(program: str, words: list[str]) -> str | None:
    """Why a FOREIGN_SHELLS command cannot be evaluated, or None."""
    if not words:
        return f"{program} reading commands from its input"
    if all(word.lower() in _HELP_OR_VERSION for word in words):
        return None
    first = words[0]
    if program in ("cmd", "cmd.exe"):  # `/c` and `/k` run a string; nothing runs a file
        return f"{program} {first}"
    if program.startswith(("pwsh", "powershell")):
        # Parameters are read by any prefix, in any case, after `-` or `/`
        # (`-c`, `-Command`, `-e`, `-ec`, `-EncodedCommand`, `-cwa`).
        for word in words:
            name = word.lower().lstrip("-/") if word[:1] in "-/" else ""
            if name and (
                "command".startswith(name)
                or "encodedcommand".startswith(name)
                or "commandwithargs".startswith(name)
                or name in ("ec", "cwa")
            ):
                return f"{program} {word} (a command string)"
            if name and "file".startswith(name):
                return None
        is_option = first[:1] == "-" or first[:1] == "/" and "/" not in first[1:]
    else:
        is_option = first[:1] == "-"
    if is_option or first == "-":
        return f"{program} {first} (a command string, its input or an option not known here)"
    return None


def shell_reads_input(words: list[Word], name: str) -> bool:
    """Whether a shell given no -c string reads its commands from its input:
    with `-s`, with no script file, or with the input as its file (`-`,
    `/dev/stdin`): `curl URL | sh`, `bash < x.sh`, `sudo bash`."""
    i, clusters, _ = _shell_options(words, name)
    if any(value[0] == "-" and "s" in value[1:] for value in clusters):
        return True
    return i >= len(words) or words[i].value in _INPUT_FILES


_INPUT_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


# The shells' long options that take the next word as their value (bash's
# startup files). fish's command to run first (`-C`, `--init-command`) is
# refused: a second string to read is not worth the code for a shell agents
# rarely use.
_SHELL_LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file"})


# fd's short flags (fd 8 to 10), which may stand in a cluster before -x.
_FD_FLAGS = frozenset("HIusigFalLp01q")


def _fd_commands(words: list[Word]) -> list[list[Word]]:
    """The command `fd ... -x CMD ...` runs for each result (`-X`: once, for
    all), up to a `;` word or the end, as find's -exec; with no `{}` in it,
    fd appends the path (`…`, as for xargs). A cluster that ends in x
    (`-Hx`) is read; x elsewhere in one is refused."""
    i, n = 1, len(words)
    while i < n:
        value = words[i].value
        if value == "--":
            return []  # the pattern and paths follow
        starts = value in ("-x", "--exec", "-X", "--exec-batch")
        if value.startswith(("--exec=", "--exec-batch=")):
            raise SplitError(f"fd {value} cannot be evaluated statically")
        if not starts and value[:1] == "-" and value[1:2] != "-":
            letters = value[1:]
            if ("x" in letters or "X" in letters) and not (
                letters[-1] in "xX" and _FD_FLAGS.issuperset(letters[:-1])
            ):
                raise SplitError(f"fd {value} cannot be evaluated statically")
            starts = letters[-1:] in ("x", "X")
        if starts:
            end = i + 1
            while end < n and words[end].value != ";":
                end += 1
            inner = words[i + 1 : end]
            if inner and "{" in inner[0].value:
                raise SplitError("fd running the files it finds cannot be evaluated statically")
            if inner and not any("{" in w.value for w in inner):
                inner.append(input_word(inner[-1].end))  # no placeholder: the path is appended
            return [inner] if inner else []
        i += 1
    return []


# fd 8-10's options that take a value (the next word, or after `=`), and
# their short letters; the placeholders fd replaces with a path it finds.
_FD_VALUES = option_names(
    "-e --extension -t --type -E --exclude -d --max-depth --maxdepth --min-depth "
    "--exact-depth -S --size --changed-within --change-newer-than --newer "
    "--changed-before --change-older-than --older -o --owner --format --batch-size "
    "--ignore-file -c --color -j --threads --max-results --path-separator "
    "--base-directory --search-path"
)
_FD_SHORT_VALUES = frozenset("etEdSocj")
FD_PLACEHOLDERS = frozenset({"{}", "{/}", "{//}", "{.}", "{/.}"})


def fd_search_paths(words: list[str]) -> list[str]:
    """The folders `fd [PATTERN] [PATH...]` searches, its `--search-path`
    and `--base-directory` too: `.` when it names none."""
    return _fd_read(words)[0]


def fd_names(words: list[str]) -> tuple[tuple[str, ...], bool] | None:
    """The globs one of which the name of what fd finds must match, from
    its `-e EXT` (`fd -e pyc -x rm`: ("*.pyc",)), and whether it takes
    files only (`-t f`, and no other type): as `find_names`. None when it
    names no extension (its pattern, a regular expression, is not read)."""
    _, extensions, types = _fd_read(words)
    names = tuple("*." + extension.lstrip(".") for extension in extensions)
    if not names or any("\0" in glob or "/" in glob for glob in names):
        return None
    # (`-t f -t d`: either)
    return names, bool(types) and all(t in ("f", "file") for t in types)


def _fd_read(words: list[str]) -> tuple[list[str], list[str], list[str]]:
    """fd's words read once: the folders it searches (`.` when it names
    none), its `-e` extensions and its `-t` types. The command of `-x` or
    `-X` (up to `;`) is skipped."""
    paths: list[str] = []
    extensions: list[str] = []
    types: list[str] = []
    pattern = False
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        name, eq, value = word.partition("=")
        if word in ("-x", "--exec", "-X", "--exec-batch") or (
            word[:1] == "-" and word[1:2] != "-" and word[-1:] in ("x", "X")
        ):
            while i < n and words[i] != ";":
                i += 1
            i += 1
        elif word == "--":
            paths += words[i:] if pattern else words[i + 1 :]
            break
        elif name in ("--search-path", "--base-directory"):
            paths.append(value if eq else words[i] if i < n else "")
            i += 0 if eq else 1
        elif word[:1] == "-" and word != "-":
            # `-e py`, `-He py` (the cluster's last letter takes the next word), `-e=py`
            takes = name in _FD_VALUES or name[1:2] != "-" and name[-1] in _FD_SHORT_VALUES
            if takes and not eq:
                value = words[i] if i < n else ""
                i += 1
            option = name if name[:2] == "--" else "-" + name[-1]
            if takes and option in ("-e", "--extension"):
                extensions.append(value)
            elif takes and option in ("-t", "--type"):
                types.append(value)
        elif pattern:
            paths.append(word)
        else:
            pattern = True
    return paths or ["."], extensions, types


def _rg_commands(words: list[Word]) -> list[list[Word]]:
    """The preprocessor `rg --pre COMMAND` runs on each file it searches, the
    file's path appended (`…`, as for xargs)."""
    out = []
    for k, word in enumerate(words[1:], 1):
        option, eq, _ = word.value.partition("=")
        if option == "--":
            break
        if option == "--pre":
            command = value_of(words, k, eq)
            if command.value:  # `--pre ''` turns it off
                out.append([command, input_word(command.end)])
    return out


# Programs that run a command for each file they find, as find's -exec: the
# command is a part like any other.
EXEC_EACH = {"fd": _fd_commands, "fdfind": _fd_commands, "rg": _rg_commands}
# When the plain path must leave them to the general one.
EXEC_EACH_WORDS = {
    "fd": lambda words: any(w[:1] == "-" and ("x" in w or "X" in w) for w in words[1:]),
    "rg": lambda words: any(w.startswith("--pre") for w in words),
}
EXEC_EACH_WORDS["fdfind"] = EXEC_EACH_WORDS["fd"]


# The programs `takers` reads (its COMMAND_TAKERS: a test holds the two
# alike). `shell` imports takers only when a command names one of them:
# a hook deciding `git status` does without its ~1 ms import.
TAKER_NAMES = option_names(
    "su runuser script watch flock strace ltrace valgrind mise direnv nix-shell nix tmux "
    "ssh scp sftp ftp lftp rsync docker podman nerdctl docker-compose podman-compose kubectl oc lxc "
    "incus heroku fly flyctl gcloud vagrant gh mosh machinectl multipass limactl lima colima "
    "wsl wsl.exe concurrently cargo pueue mpirun mpiexec srun salloc sbatch socat ncat nc "
    "netcat sqlite3 duckdb psql mysql mariadb hyperfine sg bun "
    "newgrp bwrap "
    "op doppler infisical aws-vault chamber dotenvx dotenv envchain sops parallel at batch "
    "crontab screen entr watchexec nodemon gdb tar zip sandbox-exec xcrun chronic nocache "
    "cpulimit ssh-agent flatpak-spawn asdf arch firejail man toolbox distrobox distrobox-enter "
    "proot schroot nq setarch linux32 linux64 i386 x86_64 rlwrap ip guix flox "
    "xterm uxterm urxvt urxvtc rxvt rxvt-unicode konsole x-terminal-emulator ghostty "
    "cool-retro-term alacritty gnome-terminal mate-terminal xfce4-terminal terminator sakura "
    "lxterminal termite guake tilda tilix ptyxis qterminal kgx gnome-console terminology "
    "kitty foot footclient st wezterm xdotool ydotool wtype dotool xte"
)
# sed and awk, whose scripts can run commands and name files (`scripts`
# reads them; `shell` imports it only when a command names one of these).
SCRIPTED_NAMES = option_names("sed awk gawk mawk nawk original-awk")
# Programs whose operands name files they read, or copy, move, archive or
# send elsewhere (`source .env`, `cp .env /tmp`, `scp .env host:`). Each
# operand is a `read` subject held to the read tool's deny and ask rules (a
# constraint): a deny on `Read(./.env)` sees `cat .env`, and no read rule
# needs to allow it. An option's value, grep's, sed's, awk's and jq's
# pattern or program, and a copy's target are read as paths too: a
# constraint can only add a deny or an ask, and a path no rule names adds
# nothing. (What they write is FILE_WRITERS'; the files under a folder a
# search names, `with_files_under`'s.)
FILE_READERS = option_names(
    "cat tac head tail less more most nl bat batcat strings xxd od hexdump base64 base32 "
    "md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum wc file diff cmp "
    "grep egrep fgrep rg sed awk gawk mawk nawk original-awk jq sort uniq cut source . cp mv "
    "ln install scp rsync tar zip unzip gzip gunzip bzip2 bunzip2 xz unxz zstd unzstd perl ruby "
    # coreutils' and others' that print or turn what they read (`paste .env`,
    # `fold .env`, `zcat x.gz`), and dd's `if=` (see `read_operands`)
    "dd paste join comm fold fmt pr expand unexpand rev look iconv column ptx tsort sum shuf "
    "split csplit uuencode yq numfmt zcat zless zmore zgrep zegrep zfgrep zdiff zcmp bzcat "
    "bzless bzmore bzgrep bzdiff xzcat xzless xzmore xzgrep xzdiff zstdcat zstdless zstdgrep "
    "lzcat lz4cat "
    # C's preprocessor and compilers and the assembler: `cpp .env` and `gcc
    # -E -x c .env` print it, `as .env` each line in an error
    "cpp gcc g++ cc c++ clang clang++ tcc as "
    # more that print what they read: diffs, hex dumps, highlighters and
    # pagers, formatters (to their output unless told to write), converters
    # and table tools (`sdiff .env /dev/null`, `m4 .env`, `pandoc .env`,
    # `clang-format .env`, `gron x.json`, `mlr --icsv cat x.csv`)
    "sdiff diff3 colordiff icdiff delta difft wdiff hexyl hd basenc shasum md5 pygmentize "
    "highlight glow mdcat lynx w3m m4 pandoc xmllint gron fx mlr csvlook csvcat xsv qsv "
    "clang-format shfmt prettier dos2unix unix2dos sd "
    # and that send it elsewhere: the clipboard, a printer
    "xclip lp lpr "
    # and that decrypt it (`sops -d secrets.enc.yaml`, `age -d -i key.txt x.age`,
    # `ansible-vault view vault.yml` print it)
    "sops age ansible-vault "
    # and that print it patched (`patch -o - .env x.patch`)
    "patch "
    # and that send it to another machine (`wormhole send .env`, `croc send
    # .env`, `ffsend upload .env`, `pastebinit .env`, `tftp host -c put .env`)
    "wormhole magic-wormhole croc ffsend pastebinit tftp "
    # and that back it up or sync it, folders whole (`restic backup .`, `borg
    # create ::x ~/.aws`)
    "restic borg duplicity kopia tarsnap unison pax zpaq ar "
    # and the other searches, which print the lines they match (`ag KEY .env`)
    "ag ack pt sift ugrep ug "
    # and that load it (`ssh-add ~/.ssh/id_rsa`)
    "ssh-add"
)
FILE_READERS |= EDITORS  # `vim .env` (see `editors`)
# 7-Zip and rar put it in an archive, folders whole (`7z a x.7z .`: see
# `read_operands`); the other compressors replace or add a file as gzip does.
_ARCHIVERS_ADDING = frozenset({"7z", "7za", "7zz", "7zr", "rar"})
_COMPRESSORS = option_names(
    "pigz unpigz pbzip2 lbzip2 lz4 unlz4 brotli lzip plzip lzma unlzma lzop"
)
FILE_READERS |= _ARCHIVERS_ADDING | _COMPRESSORS


# Programs that read or change a folder's files when told to (`-r`, `-R`,
# `--recursive`): the files under each folder they name are subjects too
# (`words.files_in`), which a deny on any file there (`./.env`,
# `~/.aws/credentials`) sees: `grep -r KEY .`, `cp -r ~/.aws /tmp/x`. Each
# program's short letters and long names, what it reads and what it
# changes apart (cp reads its sources' files and writes its target's;
# chmod's `-r` is a mode).
_SEARCH_RECURSION = ("rR", ("--recursive", "--dereference-recursive"))
_COPY_RECURSION = ("rRa", ("--recursive", "--archive"))
_RECURSIVE_READS = dict.fromkeys(("grep", "egrep", "fgrep", "ugrep"), _SEARCH_RECURSION)
_RECURSIVE_READS.update(
    cp=_COPY_RECURSION,
    rsync=("ra", ("--recursive", "--archive")),
    scp=("r", ()),
    diff=("r", ("--recursive",)),
    zip=("rR", ("--recurse-paths", "--recurse-patterns")),
)
_RECURSIVE_WRITES = {"rm": ("rR", ("--recursive",)), "cp": _COPY_RECURSION}
_RECURSIVE_WRITES.update(
    dict.fromkeys(("chmod", "chown", "chgrp", "chattr", "setfacl"), ("R", ("--recursive",)))
)
for _program in ("gzip", "gunzip", "zstd", "unzstd"):  # each file under is replaced
    _RECURSIVE_READS[_program] = _RECURSIVE_WRITES[_program] = ("r", ("--recursive",))
# Those that do with no option saying so: rg and tar (`tar czf x.tgz ~/.aws`;
# not with `--no-recursion`), and mv and ln, since any of their sources may
# be a folder, which they take along: `mv ~/.aws /tmp/x` or `ln -s ~/.aws x`,
# then `cat x/credentials`, read what a deny on `~/.aws/credentials` never
# saw (mv moves them: it changes them too).
RECURSIVE_READERS = frozenset({"rg", "tar", "mv", "ln"}) | _ARCHIVERS_ADDING
RECURSIVE_READERS |= {"restic", "borg", "duplicity", "kopia", "tarsnap", "unison", "pax", "zpaq"}
# Searches whose options are not read here: recursive by default (ugrep
# with -r, as grep), and always read as searching `.` too, given a folder or
# not (`ag KEY src` is refused by `Read(./.env)`: more, never fewer).
_OTHER_SEARCHES = frozenset({"ag", "ack", "pt", "sift", "ug", "ugrep"})
RECURSIVE_READERS |= _OTHER_SEARCHES - {"ugrep"}
# Copies, moves and links: their sources' files are read (and mv's moved),
# not their targets'. mv's and ln's sources, which no option says are
# folders, are read as what may be one (`paths.IF_FOLDER`).
_COPIES = frozenset({"cp", "rsync", "scp", "mv", "ln"})
_MAY_TAKE_FOLDERS = frozenset({"mv", "ln"})


def recursive(program: str, words: list[str], write: bool) -> bool:
    """Whether the command reads (or with `write`, changes) what is under
    the folders it names (`grep -r`, `rm -r`, `mv`)."""
    if program == "tar" and not write:  # what it archives, unless told not to recurse
        return "--no-recursion" not in words
    if (program in RECURSIVE_READERS and not write) or program == "mv":
        return True
    letters, names = (_RECURSIVE_WRITES if write else _RECURSIVE_READS).get(program, ("", ()))
    if not letters:
        return False
    for word in words[1:]:
        if word == "--":
            return False
        if word[:2] == "--":
            if word.partition("=")[0] in names:
                return True
        elif word[:1] == "-" and any(letter in word for letter in letters):
            return True
    return False


def with_files_under(
    program: str, words: list[str], paths: list[str], write: bool = False
) -> list[str]:
    """`paths`, and for a recursive command what is under each (EVERY_FILE).
    A search that names no folder searches the working directory (`rg key`,
    `grep -r x`): `.` is among its paths then. A copy's target is not read:
    the files under it are written (`cp -r`), or named by `_copy_target`;
    what mv writes under its target is named by `_names_in`."""
    if not recursive(program, words, write):
        return paths
    if program in _OTHER_SEARCHES or program in _SEARCH_VALUES and _searches_here(program, words):
        paths = paths + ["."]
    if program == "rg" and _lists_files(words):  # names, as a `tree` tool's listing
        return paths + [a_file_in(path) for path in paths if path]
    if program in _COPIES and (not write or program == "mv"):
        named = _sources(program, words)
        sources = [path for path in paths if path and path in named]
        if program in _MAY_TAKE_FOLDERS:
            return paths + [under_if_folder(path) for path in sources]
        return paths + [files_in(path) for path in sources]
    if program in _SEARCH_VALUES:
        names = search_names(program, words)
        if names is not None:  # `grep -r --include='*.py' x .`: the files so named
            globs, given = names  # (a glob given is read as a path, not as a folder)
            return paths + [files_named_under(p, globs) for p in paths if p and p not in given]
    return and_files_under(paths)


def _lists_files(words: list[str]) -> bool:
    """Whether rg lists the files it would search (`--files`) and reads none."""
    for k, word in enumerate(words[1:], 1):
        if word == "--":
            return False
        if word == "--files" and words[k - 1] not in ("-e", "--regexp"):
            return True
    return False


# grep's and rg's options that take a value: short letters, and long names
# (a long one not listed is read as a flag; its value, if it has one, would
# be read as the pattern or a folder, and `.` left out).
_GREP_LONG_VALUES = option_names(
    "--regexp --file --max-count --after-context --before-context --context --directories "
    "--devices --label --include --exclude --exclude-from --exclude-dir --binary-files "
    "--group-separator"
)
_RG_LONG_VALUES = option_names(
    "--regexp --file --max-count --after-context --before-context --context --glob --iglob "
    "--threads --max-columns --type --type-not --type-add --type-clear --encoding --replace "
    "--max-depth --maxdepth --max-filesize --pre --pre-glob --sort --sortr --color --colors "
    "--context-separator --field-context-separator --field-match-separator --path-separator "
    "--dfa-size-limit --regex-size-limit --engine --ignore-file --hostname-bin "
    "--hyperlink-format --generate"
)
_SEARCH_VALUES = {
    "grep": ("efmABCdD", _GREP_LONG_VALUES),
    "egrep": ("efmABCdD", _GREP_LONG_VALUES),
    "fgrep": ("efmABCdD", _GREP_LONG_VALUES),
    "rg": ("efmABCgjMtTErd", _RG_LONG_VALUES),
}
# rg's options that search nothing (or, `--files`, take no pattern).
_RG_SEARCHES_NOTHING = option_names("-h --help -V --version --type-list --pcre2-version")


def _searches_here(program: str, words: list[str]) -> bool:
    """Whether a recursive grep or rg names no folder: its operands less
    the pattern (the first, unless `-e` or `-f` gives it) are none."""
    short_values, long_values = _SEARCH_VALUES[program]
    pattern_given = False
    operands = 0
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word == "--":
            operands += n - i
            break
        if word[:2] == "--":
            name, eq, _ = word.partition("=")
            if program == "rg" and (name in _RG_SEARCHES_NOTHING or name == "--files"):
                if name != "--files":
                    return False
                pattern_given = True  # `rg --files [FOLDER]` lists, with no pattern
            elif name in long_values:
                pattern_given = pattern_given or name in ("--regexp", "--file")
                i += 0 if eq else 1
        elif word[:1] == "-" and word != "-":
            if program == "rg" and word in _RG_SEARCHES_NOTHING:
                return False
            for k in range(1, len(word)):
                if word[k] in short_values:
                    pattern_given = pattern_given or word[k] in "ef"
                    i += 0 if k + 1 < len(word) else 1
                    break
        else:
            operands += 1
    return operands == (0 if pattern_given else 1)


# rg's file types whose files are named by globs alone, of its defaults (`rg
# --type-list`); a type not here (sh's include `.env`) narrows nothing.
_RG_TYPES = {
    name: tuple(globs.split())
    for names, globs in [
        ("py python", "*.py *.pyi"),
        ("rust", "*.rs"),
        ("go", "*.go"),
        ("js", "*.js *.jsx *.vue *.cjs *.mjs"),
        ("ts typescript", "*.ts *.tsx *.cts *.mts"),
        ("json", "*.json composer.lock *.sarif"),
        ("md markdown", "*.markdown *.md *.mdown *.mdwn *.mkd *.mkdn *.mdx"),
        ("yaml", "*.yaml *.yml"),
        ("toml", "*.toml Cargo.lock"),
        ("html", "*.htm *.html *.ejs"),
        ("css", "*.css *.scss"),
        ("java", "*.java *.jsp *.jspx *.properties"),
        ("txt", "*.txt"),
        ("sql", "*.sql *.psql"),
    ]
    for name in names.split()
}


def search_names(program: str, words: list[str]) -> tuple[tuple[str, ...], set[str]] | None:
    """The globs one of which the name of each file a recursive grep or rg
    searches must match: grep's `--include` (`grep -r --include='*.py' x
    .`), rg's `-g`, `--glob` and `--iglob` (less `!` ones) and the files of
    its `-t` types; and the words that gave them. None when they name
    none, or one not read here (a glob with `/`, `**` or `{`, a type not
    known, `--type-add`)."""
    # A test first: most name none, and the loop below costs ~1 us a call.
    if program != "rg":
        if "--include" not in " ".join(words):
            return None
    else:
        for word in words:  # an option with a `g` or a `t`: `-g`, `--type`, `-ntpy`
            if word[:1] == "-" and ("g" in word or "t" in word):
                break
        else:
            return None
    globs: list[str] = []
    given: set[str] = set()
    short_values = _SEARCH_VALUES[program][0]
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word == "--":
            break
        name, eq, value = word.partition("=")
        if word[:2] == "--":
            if name == "--type-add":
                return None
            if name in _SEARCH_VALUES[program][1] and not eq:
                value = words[i] if i < n else ""
                i += 1
        elif word[:1] == "-" and word != "-":
            name = ""
            for k in range(1, len(word)):  # the cluster's letter that takes a value
                if word[k] in short_values:
                    name = "-" + word[k]
                    value = word[k + 1 :] or (words[i] if i < n else "")
                    i += 0 if word[k + 1 :] else 1
                    break
        else:
            continue
        if program != "rg":
            if name == "--include":
                globs.append(value)
                given.add(value)
        elif name in ("-g", "--glob", "--iglob"):
            given.add(value)
            if value[:1] != "!":
                globs.append(value)
        elif name in ("-t", "--type"):
            if value not in _RG_TYPES:
                return None
            globs += _RG_TYPES[value]
            given.add(value)
    if not globs or any(c in glob for glob in globs for c in ("/", "{", "**", "\0")):
        return None
    return tuple(globs), given


def _dd_operands(words: list[str], key: str) -> list[str]:
    """dd's `if=` or `of=` files, and the words not known here (`\0…`),
    which may be one: kept for the caller, which reads them as any file."""
    return [w[3:] if w[:3] == key else w for w in words[1:] if w[:3] == key or w[:1] == "\0"]


def _adds_here(operands: list[str]) -> bool:
    """Whether 7-Zip or rar adds to an archive (`a`, `u`, rar's `m`) and
    names no file to add: it takes the working folder's."""
    return bool(operands) and operands[0].lower() in ("a", "u", "m") and len(operands) < 3


def read_operands(words: list[str]) -> list[str]:
    """The words of a FILE_READERS command after its name that may name a
    file: every word but options (`-n`, `--lines=5`) and `-` (the input);
    after `--`, every word. dd's: its `if=` (`dd if=.env`)."""
    if words[0][-2:] == "dd" and program_name(words[0].rpartition("/")[2]) == "dd":
        return _dd_operands(words, "if=")
    out = []
    options = True
    for word in words[1:]:
        if options and word[:1] == "-":
            options = word != "--"
        elif word != "-" or not options:
            out.append(word)
    if words[0] in _ARCHIVERS_ADDING and _adds_here(out):
        out.append(".")  # `7z a x.7z` adds what is in the working folder
    return out


# Programs whose operands name files they write, create, change or remove
# (`rm -rf .git`, `tee ~/.bashrc`, `cp x /etc/hosts`, `sed -i … .env`). Each
# is an `edit` subject held to the edit tool's deny and ask rules only, as
# a reader's files are to the read tool's. Unlike a read, an edit rule is
# often broad (`Edit(/etc/**)`), so what they only read is left out: a
# copy's sources (cp, ln and install write their last operand or their
# `-t DIR`), the values of the options below, sed's files without -i, and
# dd's `if=`. (The files under a folder `rm -r` removes: `with_files_under`.)
_WRITES_EVERY = option_names(
    "tee touch truncate rm rmdir unlink shred mkdir chmod chown chgrp mv dos2unix unix2dos "
    "sponge mogrify "  # moreutils' sponge; ImageMagick's mogrify changes its files in place
    "chattr setfacl"  # attributes and access lists: `chattr -i`, `setfacl -m u:x:rw .env`
)
_WRITES_EVERY |= EDITORS
_WRITES_LAST = option_names("cp ln install")
_WRITER_VALUES = {
    "touch": option_names("-d -r -t --date --reference"),
    "truncate": option_names("-s -r --size --reference"),
    "shred": option_names("-n -s --iterations --size"),
    "mkdir": option_names("-m --mode"),
    "chown": option_names("--from"),
    "mv": option_names("-S --suffix"),
    "cp": option_names("-S --suffix"),
    "ln": option_names("-S --suffix"),
    "install": option_names("-S -m -o -g --suffix --mode --owner --group"),
}
_TARGET_DIRECTORY = option_names("-t --target-directory")
_TARGET_DIRECTORY_TAKERS = option_names("cp ln install mv")  # `-t DIR`
_ARCHIVERS = option_names("tar zip unzip gzip gunzip bzip2 bunzip2 xz unxz zstd unzstd")
_ARCHIVERS |= _COMPRESSORS
FILE_WRITERS = _WRITES_EVERY | _WRITES_LAST | {"sed", "sort", "dd", "rsync", "scp", "perl", "ruby"}
FILE_WRITERS |= _ARCHIVERS


# The options that take a value, for the writers below (made once).
_UNIQ_VALUES = option_names("-f -s -w")
_XXD_VALUES = option_names("-c -g -l -o -s -n -cols -groupsize -len -seek -name")
_OUTPUT = option_names("-o --output")
_YQ_VALUES = option_names("-o -p -I --output-format --input-format --indent --from-file")
_CSPLIT_PREFIX = option_names("-f --prefix")
_SPLIT_VALUES = option_names(
    "-a -b -C -l -n -t --suffix-length --bytes --line-bytes --lines --number --separator "
    "--additional-suffix"
)
_PATCH_VALUES = option_names("-B -D -d -F -i -o -p -r -V -Y -z -g --directory --input --output")
_PATCH_FOLDER = option_names("-d --directory")
_RENAME_VALUES = option_names("-e -E")
_CPIO_FOLDER = option_names("-D --directory")
_CPIO_VALUES = option_names("-D -F -H -I -M -O -R -E --directory")
_SD = option_names("-f --flags -n --max-replacements")


def _operands(words: list[str], values: frozenset) -> list[str]:
    """The operands of a command whose options `values` take the next word
    (`--name=value` and `-nVALUE` keep theirs)."""
    out: list[str] = []
    i = 1
    while i < len(words):
        word = words[i]
        if word == "--":
            return out + words[i + 1 :]
        if word[:1] == "-" and word != "-":
            i += 2 if word in values else 1
            continue
        out.append(word)
        i += 1
    return out


def _option_value(words: list[str], names: frozenset, short: str = "") -> str | None:
    """The last value given to one of the options `names` (`-o F`,
    `--output=F`, `-oF` for the letter `short`), or None."""
    found = None
    for i, word in enumerate(words[1:], 1):
        option, eq, value = word.partition("=")
        if option in names:
            found = value if eq else words[i + 1] if i + 1 < len(words) else ""
        elif short and word[:2] == "-" + short and len(word) > 2 and word[1] != "-":
            found = word[2:]
    return found


def _in_folder_of(prefix: str) -> str:
    """Any file in the folder of `prefix` (split's and csplit's outputs are
    PREFIX + a suffix)."""
    return a_file_in(prefix.rsplit("/", 1)[0] if "/" in prefix else ".")


# Formatters that rewrite the files they are given: in place by default
# unless told only to check (black, isort, rustfmt, `ruff format`, stylua),
# or when told to (gofmt -w, clang-format -i, shfmt -w, prettier --write,
# eslint --fix, `ruff check --fix`, autopep8 -i, yapf -i). The files named
# are edited, and so, where a name is a folder, are the files of the
# formatter's languages at any depth under it (`black .` rewrites
# `migrations/0001.py`, never `.env`: `paths.files_named_under`).
_FORMATTER_VALUES = option_names(
    "-l --line-length -t --target-version --config --include --exclude --extend-exclude "
    "--force-exclude --settings-path --settings-file --select --ignore --extend-select "
    "--style --assume-filename --parser --config-path --ignore-path --plugin --ext "
    "--indent --max-line-length"  # (shfmt's `-i N` is others' in place: its N is read)
)
# The files a formatter rewrites under a folder: their name globs (each
# `*.x` or a name), the suffixes and names that tell a file named so from a
# folder (`black x.py`), whether a dot file may be one, and the folders it
# never walks into (`skipped`: shfmt skips `.git` whatever its settings, go's
# `./...` every dot folder; prettier and `deno fmt` `node_modules` too;
# black, ruff, isort and eslint skip such folders only by a default the
# repository's settings may change: `exclude = []` in pyproject.toml has
# ruff format `.git/x.py`).
FileKinds = namedtuple("FileKinds", "globs suffixes literals dots skipped")


def _kinds(globs: str, dots: bool = True, skipped: frozenset[str] = frozenset()) -> FileKinds:
    names = tuple(globs.split())
    suffixes = tuple(glob[1:] for glob in names if glob[:2] == "*.")
    literals = frozenset(g for g in names if "*" not in g)
    return FileKinds(names, suffixes, literals, dots, skipped)


_PYTHON_FILES = _kinds("*.py *.pyi *.ipynb")
# prettier's languages, by extension and by the names it formats whatever
# their extension (its `--write .` walks into dot folders and takes dot
# files, but never into `.git`, `.svn`, `.hg`, `.sl`, nor into `node_modules`
# unless given `--with-node-modules`: read so in `_formatted`).
_PRETTIER_FILES = _kinds(
    " ".join(
        "*." + ext
        for ext in "js jsx mjs cjs ts tsx mts cts json json5 jsonc css scss less html htm vue "
        "md markdown mdx yaml yml graphql gql hbs handlebars".split()
    )
    + " .all-contributorsrc .arcconfig .auto-changelog .babelrc .c8rc .clang-format"
    " .clang-tidy .gemrc .htmlhintrc .imgbotconfig .jscsrc .jshintrc .jslintrc"
    " .lintstagedrc .nycrc .prettierrc .stylelintrc .swcrc .tern-config .tern-project"
    " .watchmanconfig CITATION.cff README composer.lock contents.lr flake.lock"
    " glide.lock Jakefile mcmod.info Pipfile.lock pixi.lock",
    skipped=NO_GIT_OR_PACKAGES,
)
_FORMATTERS = {
    # name: (writes unless one of these, writes only with one of these,
    #        the files it rewrites under a folder)
    "black": (option_names("--check --diff -c --code"), None, _PYTHON_FILES),
    "isort": (
        option_names("--check --diff --check-only -c"),
        None,
        _kinds("*.py *.pyi *.pyx *.pxd"),
    ),
    "rustfmt": (option_names("--check"), None, _kinds("*.rs")),
    "stylua": (option_names("--check --verify -c"), None, _kinds("*.lua *.luau")),
    **dict.fromkeys(("gofmt", "goimports"), (frozenset(), option_names("-w"), _kinds("*.go"))),
    "clang-format": (frozenset(), option_names("-i"), None),  # (files only)
    # shfmt: `*.sh`, `*.bash`, `*.zsh`…, and a name with no dot that starts
    # with a shebang: read as any name not starting with a dot.
    "shfmt": (frozenset(), option_names("-w --write"), _kinds("*", dots=False, skipped=NO_GIT)),
    "prettier": (frozenset(), option_names("--write -w"), _PRETTIER_FILES),
    "eslint": (
        frozenset(),
        option_names("--fix"),
        _kinds("*.js *.jsx *.mjs *.cjs *.ts *.tsx *.mts *.cts *.vue *.svelte"),
    ),
    **dict.fromkeys(
        ("autopep8", "yapf"), (frozenset(), option_names("-i --in-place"), _kinds("*.py"))
    ),
}
# Formatters whose subcommand rewrites (`ruff format`, `ruff check --fix`,
# `biome check --write`): with no path, the working folder.
_VERB_FORMATTERS = {
    "ruff": {
        "format": (option_names("--check --diff"), None, _PYTHON_FILES),
        "check": (frozenset(), option_names("--fix"), _PYTHON_FILES),
    },
    # biome's `--write` (`--fix`; before 2.0 `--apply` and `--apply-unsafe`)
    "biome": dict.fromkeys(
        ("format", "check", "lint"),
        (
            frozenset(),
            option_names("--write --fix --apply --apply-unsafe"),
            _kinds(
                "*.js *.jsx *.mjs *.cjs *.ts *.tsx *.mts *.cts *.json *.jsonc *.css "
                "*.graphql *.gql *.html *.vue *.svelte *.astro"
            ),
        ),
    ),
}


def _formatted(words: list[str]) -> list[str]:
    """The files a formatter rewrites (`black x.py`, `gofmt -w x.go`), and
    for each name that may be a folder, those of its languages under it."""
    name = program_name(words[0])  # (`/usr/bin/ruff`, `RUFF` on macOS)
    verbs = _VERB_FORMATTERS.get(name)
    if verbs is not None:
        if len(words) < 2 or words[1] not in verbs:
            return []
        unless, only, kinds = verbs[words[1]]
        words = words[1:]
    else:
        unless, only, kinds = _FORMATTERS[name]
    given = {word.partition("=")[0] for word in words[1:] if word[:1] == "-"}
    if not unless.isdisjoint(given) or only is not None and only.isdisjoint(given):
        return []
    files = [word for word in _operands(words, _FORMATTER_VALUES) if word != "-"]
    if not files and (verbs is not None or name == "eslint"):  # they take `.` then
        files = ["."]
    if "--with-node-modules" in given and kinds is not None:  # (prettier's)
        kinds = kinds._replace(skipped=NO_GIT)
    return files if kinds is None else _and_named_under(files, kinds)


def _and_named_under(files: list[str], kinds: FileKinds) -> list[str]:
    """Each file, then the files of those kinds under it if it may be a
    folder: not if it is named as they are (`black x.py`), nor a word not
    known here (starting with a NUL), which is any file already."""
    globs, suffixes, literals, dots, skipped = kinds
    out = files
    for path in files:
        if path[:1] == "\0" or path.endswith(suffixes) and suffixes:
            continue
        if literals and path.rpartition("/")[2] in literals:
            continue
        out = out + [files_named_under(path, globs, dots, skipped=skipped)]
    return out


# Programs whose subcommand formats a project's files in place: `cargo fmt`,
# `go fmt`, `terraform fmt`, `deno fmt` (read where an output option is,
# `loaded.OPTION_OUTPUTS`: their other commands write no file here). Given
# no folder, they rewrite the files of their languages under the working
# folder (cargo's package may begin above it: read from where an agent
# commonly runs it, its root).
# name: (subcommand, writes unless one of these, options taking a value, names)
_PROJECT_FORMATTERS = {
    "cargo": (
        "fmt",
        option_names("--check"),
        option_names("--manifest-path -p --package"),
        _kinds("*.rs"),
    ),
    "go": ("fmt", option_names("-n"), option_names("-mod"), _kinds("*.go", skipped=NO_GIT)),
    **dict.fromkeys(
        ("terraform", "tofu"),
        (
            "fmt",
            option_names("-check -write=false"),
            frozenset(),
            _kinds("*.tf *.tfvars *.tftest.hcl"),
        ),
    ),
    "deno": (
        "fmt",
        option_names("--check"),
        option_names(
            "-c --config --ext --ignore --line-width --indent-width --prose-wrap --log-level"
        ),
        _kinds(
            " ".join(
                "*." + ext
                for ext in "js jsx ts tsx mjs cjs mts cts json jsonc md markdown css scss sass "
                "less html svelte vue astro yaml yml ipynb sql".split()
            ),
            skipped=NO_GIT_OR_PACKAGES,
        ),
    ),
}
_MANIFEST = option_names("--manifest-path")
PROJECT_FORMATTERS = {name: entry[0] for name, entry in _PROJECT_FORMATTERS.items()}


def project_formatted(words: list[str]) -> list[str]:
    """What `cargo fmt`, `go fmt ./...`, `terraform fmt DIR` or `deno fmt`
    rewrites: the files of its languages under the folders it is given."""
    name = program_name(words[0])
    subcommand, unless, values, kinds = _PROJECT_FORMATTERS[name]
    if subcommand not in words:
        return []
    at = words.index(subcommand)
    base = ""
    for word in words[1:at]:  # `cargo +nightly fmt`, `terraform -chdir=infra fmt`
        if word.startswith("-chdir="):
            base = word[len("-chdir=") :].rstrip("/") + "/"
        elif word[:1] != "+":
            return []  # the word is another command's operand (`go run fmt`)
    rest = words[at:]
    after = rest.index("--") if "--" in rest else len(rest)  # `cargo fmt -- --check`: rustfmt's
    if not unless.isdisjoint(w if w == "-write=false" else w.partition("=")[0] for w in rest):
        return []
    folders = []
    for word in _operands(rest[:after], values):
        if word == "-":  # the input
            continue
        if word[:1] != "\0":  # (a word not known here is any file already)
            word = word.removesuffix("...").removesuffix("/") or "."  # go's `./...`
            if name == "go" and word[:1] not in (".", "/") and not word.endswith(".go"):
                word = "."  # an import path (`example.com/m/pkg`, `all`): the module's
            word = word if word[:1] in ("/", "~") else base + word
        folders.append(word)
    manifest = _option_value(rest, _MANIFEST)
    if manifest is not None:  # cargo's package: the manifest's folder
        folders.append(manifest if "\0" in manifest else manifest.rpartition("/")[0] or ".")
    return _and_named_under(folders or [base or "."], kinds)


# Installers of git hooks: what they write runs on every later commit.
# `pre-commit install` and `lefthook install` write `.git/hooks` (of the
# repository at `.`, commonly where an agent works); husky points git's
# `core.hooksPath` at its `.husky` folder, in `.git/config`.
_HOOK_INSTALLS = {
    "pre-commit": frozenset({"install", "install-hooks"}),
    "lefthook": frozenset({"install", "add"}),
    "husky": frozenset({"", "install", "init"}),
}


def _hook_writes(words: list[str]) -> list[str]:
    """What `pre-commit install`, `lefthook install` or `husky` writes."""
    name = program_name(words[0])
    verb = next((word for word in words[1:] if word[:1] != "-"), "")
    if verb not in _HOOK_INSTALLS[name]:
        return []
    if name == "husky":
        return [".git/config", a_file_in(".husky")]
    return [a_file_in(".git/hooks")]


def _uniq_writes(words: list[str]) -> list[str]:  # `uniq IN OUT`
    return _operands(words, _UNIQ_VALUES)[1:2]


def _xxd_writes(words: list[str]) -> list[str]:  # `xxd [-r] IN OUT`
    return _operands(words, _XXD_VALUES)[1:2]


def _shuf_writes(words: list[str]) -> list[str]:
    out = _option_value(words, _OUTPUT, "o")
    return [out] if out else []


def _yq_writes(words: list[str]) -> list[str]:
    """`yq -i EXPR FILE`: its files (the expression too: it names none)."""
    in_place = any(w == "--inplace" or w[:1] == "-" and w[1:2] != "-" and "i" in w for w in words)
    values = _YQ_VALUES
    return _operands(words, values) if in_place else []


def _split_writes(words: list[str]) -> list[str]:
    """split's and csplit's files: PREFIX + a suffix, in PREFIX's folder.
    `split --filter=CMD` hands each piece to a shell command: refused."""
    if words[0] == "csplit":
        prefix = _option_value(words, _CSPLIT_PREFIX, "f")
        return [_in_folder_of(prefix or "xx")]
    if any(w.startswith("--filter") for w in words):
        raise SplitError("split --filter (a command for each piece) cannot be evaluated statically")
    operands = _operands(words, _SPLIT_VALUES)
    return [_in_folder_of(operands[1] if len(operands) > 1 else "x")]


def _patch_writes(words: list[str]) -> list[str]:
    """`patch [ORIGINAL [PATCHFILE]]`: its `-o` file (none for `-`), else ORIGINAL, else
    any file in its `-d` folder (or `.`), which the patch names; none for a
    dry run (`--dry-run`, or a prefix of it getopt takes: `--dry`)."""
    if any(word[:4] == "--dr" and "--dry-run".startswith(word) for word in words):
        return []
    output = _option_value(words, _OUTPUT, "o")
    if output:  # `-o -`: to the output, the files as they were
        return [output] if output != "-" else []
    values = _PATCH_VALUES
    operands = _operands(words, values)
    if operands:
        return operands[:1]
    folder = _option_value(words, _PATCH_FOLDER, "d")
    return [files_in(folder or ".")]


def _7z_writes(words: list[str]) -> list[str]:
    """7-Zip's: `x`/`e` extract into `-oDIR` (else `.`), `a`, `u`, `d`,
    `rn` change the archive."""
    operands = [w for w in words[1:] if w[:1] != "-"]
    command = operands[0].lower() if operands else ""
    if command in ("x", "e"):
        folder = next((w[2:] for w in words[1:] if w[:2] == "-o" and len(w) > 2), ".")
        return [files_in(folder)]
    return operands[1:2] if command in ("a", "u", "d", "rn") else []


def _rar_writes(words: list[str]) -> list[str]:
    """unrar's and rar's: `x`/`e` extract into a last operand ending in `/`
    (else `.`); rar's `a`, `u`, `d`, `m` change the archive."""
    operands = [w for w in words[1:] if w[:1] != "-"]
    command = operands[0].lower() if operands else ""
    if command in ("x", "e"):
        folder = operands[-1] if len(operands) > 2 and operands[-1][-1:] == "/" else "."
        return [files_in(folder)]
    return operands[1:2] if command in ("a", "u", "d", "m") else []


def _cpio_writes(words: list[str]) -> list[str]:
    """`cpio -i` extracts into `-D DIR` (else `.`); `cpio -p DIR` copies into DIR."""
    folder = _option_value(words, _CPIO_FOLDER, "D") or "."
    for word in words[1:]:
        if word == "--extract" or word[:1] == "-" and word[1:2] not in ("-", "") and "i" in word:
            return [files_in(folder)]
        if word == "--pass-through" or word[:2] == "-p" or word[:1] == "-" and "p" in word[1:2]:
            operands = _operands(words, _CPIO_VALUES)
            return [files_in(operands[0] if operands else ".")]
    return []


def _key_letters_writes(words: list[str]) -> list[str]:
    """jar's and ar's key letters, first (`jar xf a.jar`, `ar rcs lib.a x.o`):
    extracting writes any file in `.`, creating or changing the archive it."""
    keys = words[1].lstrip("-") if len(words) > 1 else ""
    if "x" in keys:
        return [files_in(".")]
    changes = "cu" if words[0] == "jar" else "rqdm"
    return words[2:3] if any(key in keys for key in changes) else []


# More writers, each read by its own function: what it writes.
_WRITES_BY = {
    "uniq": _uniq_writes,
    "xxd": _xxd_writes,
    "shuf": _shuf_writes,
    "yq": _yq_writes,
    "split": _split_writes,
    "csplit": _split_writes,
    "patch": _patch_writes,
    "rename": lambda words: _operands(words, _RENAME_VALUES),
    "7z": _7z_writes,
    "7za": _7z_writes,
    "7zz": _7z_writes,
    "7zr": _7z_writes,
    "unrar": _rar_writes,
    "rar": _rar_writes,
    "cpio": _cpio_writes,
    "jar": _key_letters_writes,
    "ar": _key_letters_writes,
    # ImageMagick's convert and magick, and ffmpeg: the last word, their output
    **dict.fromkeys(
        ("convert", "magick", "ffmpeg"),
        lambda words: [words[-1]] if len(words) > 2 and words[-1][:1] != "-" else [],
    ),
    # sd (`sd FIND REPLACE FILE…`) changes its files in place, unless it previews
    "sd": lambda words: [] if {"-p", "--preview"} & set(words) else _operands(words, _SD)[2:],
    **dict.fromkeys((*_FORMATTERS, *_VERB_FORMATTERS), _formatted),
    **dict.fromkeys(_HOOK_INSTALLS, _hook_writes),
    # a compiler's and the assembler's `-o FILE`
    **dict.fromkeys(
        ("gcc", "g++", "cc", "c++", "clang", "clang++", "tcc", "as"),
        lambda words: [value] if (value := _option_value(words, _OUTPUT, "o")) else [],
    ),
}
FILE_WRITERS |= frozenset(_WRITES_BY)


def written_operands(program: str, words: list[str]) -> list[str]:
    """The files a FILE_WRITERS command writes, as its words name them
    (the files under a folder it changes are `with_files_under`'s)."""
    if program == "dd":
        return _dd_operands(words, "of=")
    if program in _WRITES_BY:
        return _WRITES_BY[program](words)
    if program in _IN_PLACE:
        return _in_place_edits(program, words)
    if program in _ARCHIVERS:
        return _archive_writes(program, words)
    if program in _COPY_VALUES:
        return _copy_target(program, words)
    out, targets = _writer_operands(program, words)
    if program in _TARGET_DIRECTORY_TAKERS:
        sources, folders = _sources_and_folders(out, targets)
        into = _names_in(folders, sources)
        if program == "mv":  # it removes its sources and writes its target
            return [path for path in out + targets if path] + into
        return [path for path in folders if path] + into if sources else []
    if program == "sort":
        return [path for path in targets if path]
    return [path for path in out + targets if path]


def _writer_operands(program: str, words: list[str]) -> tuple[list[str], list[str]]:
    """A FILE_WRITERS command's operands, and its `-t DIR` (or sort's `-o`) values."""
    values = _WRITER_VALUES.get(program, frozenset())
    out: list[str] = []
    targets: list[str] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        if word == "--":
            out += words[i + 1 :]
            break
        if word[:1] == "-" and word != "-":
            option, eq, value = word.partition("=")
            if program == "sort":
                if option in ("-o", "--output"):
                    targets.append(value if eq else words[i + 1] if i + 1 < n else "")
                elif word[:2] == "-o" and len(word) > 2:
                    targets.append(word[2:])
            elif program not in _TARGET_DIRECTORY_TAKERS:  # touch's `-t STAMP` is a time
                i += 1 if option in values and not eq else 0
            elif option in _TARGET_DIRECTORY:
                targets.append(value if eq else words[i + 1] if i + 1 < n else "")
                i += 0 if eq else 1
            elif word[:2] == "-t" and len(word) > 2 and option[:2] != "--":
                targets.append(word[2:])
            elif option in values and not eq:
                i += 1  # its value
        elif program != "sort":
            out.append(word)
        i += 1
    return out, targets


def _sources_and_folders(out: list[str], targets: list[str]) -> tuple[list[str], list[str]]:
    """cp's, mv's, ln's and install's sources and target: `-t DIR`, else
    the last operand (of two or more)."""
    if targets:
        return out, targets
    return (out[:-1], out[-1:]) if len(out) > 1 else ([], [])


def _names_in(folders: list[str], sources: list[str]) -> list[str]:
    """What a copy, move or link into a folder writes there: each source's
    name in it (`cp x/.env .` writes `./.env`, which the target `.` alone
    did not meet). A source the shell does not know (`cp $F dest/`, xargs'
    input, find's `{}`: a word starting with a NUL) may have any name:
    every file in the folder stands for it (`words.files_in`)."""
    names = [source.rstrip("/").rpartition("/")[2] for source in sources]
    return [
        files_in(folder) if "\x00" in name else folder.rstrip("/") + "/" + name
        for folder in folders
        if folder and "\x00" not in folder  # `cp a $DEST`: not known here
        for name in names
        if name not in ("", ".", "..")
    ]


def _sources(program: str, words: list[str]) -> list[str]:
    """What a copy, move or link takes its files from: its operands less
    its target, and for rsync and scp less another machine's `HOST:PATH`."""
    if program in _COPY_VALUES:
        targets = _copy_target(program, words)
        return [
            path
            for path in read_operands(words)
            if path not in targets and ":" not in path.partition("/")[0]
        ]
    return _sources_and_folders(*_writer_operands(program, words))[0]


# What archivers write. tar (GNU 1.3x, bsdtar): its archive when it
# creates, appends or deletes (`-c`, `-r`, `-u`, `-A`, `--delete`), and any
# file in each `-C` folder (else `.`) when it extracts, unless to its
# output (`-O`). Its modes and values are read from a short cluster, the old
# style's first word (`xzf a.tgz`) or the long options.
_TAR_MODES = {"c": "archive", "r": "archive", "u": "archive", "A": "archive", "x": "files"}
_TAR_LONG_MODES = {
    "--create": "archive",
    "--append": "archive",
    "--update": "archive",
    "--catenate": "archive",
    "--concatenate": "archive",
    "--delete": "archive",
    "--extract": "files",
    "--get": "files",
}
_TAR_VALUE_LETTERS = frozenset("bCfFgHIKLNTVX")
# unzip 6: what it does when it writes nothing; zip 3 and the compressors'
# options that take a value, or send the output to the standard output.
_UNZIP_QUIET = frozenset("lptvZc")
_ZIP_VALUE_LETTERS = frozenset("bntPZOs")
_COMPRESSOR_QUIET = option_names(
    "-c --stdout --to-stdout -t --test -l --list -h --help -V --version"
)


# rsync 3 and scp (OpenSSH 8, 9): the options that take the next word, so
# that the target is known: their last operand, when it is on this machine
# (not `HOST:PATH`); a recursive copy writes the files under it too.
_COPY_VALUES = {
    "rsync": option_names(
        "-e --rsh --exclude --include --exclude-from --include-from --files-from -f --filter "
        "--rsync-path --log-file --partial-dir -T --temp-dir --compare-dest --copy-dest "
        "--link-dest --backup-dir --suffix --chmod --chown --usermap --groupmap --timeout "
        "--contimeout --port --bwlimit --max-size --min-size --max-delete -B --block-size "
        "--password-file --out-format --info --debug --modify-window --checksum-choice "
        "--compress-choice --compress-level --skip-compress --sockopts --protocol --iconv "
        "--address --stop-after --stop-at -M --remote-option"
    ),
    "scp": option_names("-P -i -o -F -l -c -J -S -X -D"),
}


_COPY_SHORT_VALUES = {
    program: frozenset(option[1] for option in options if len(option) == 2)
    for program, options in _COPY_VALUES.items()
}


def _copy_target(program: str, words: list[str]) -> list[str]:
    values = _COPY_VALUES[program]
    operands: list[str] = []
    recursive = False
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word == "--":
            operands += words[i:]
            break
        if word[:1] == "-" and len(word) > 1:
            option = word.partition("=")[0]
            if word[:2] == "--":
                recursive = recursive or option in ("--recursive", "--archive")
                i += 1 if option in values and "=" not in word else 0
            else:
                recursive = recursive or "r" in word or program == "rsync" and "a" in word
                i += 1 if word[-1] in _COPY_SHORT_VALUES[program] else 0  # `-avP 2222`
        else:
            operands.append(word)
    if len(operands) < 2:
        return []
    written = operands[-1:]
    if program == "rsync" and "--remove-source-files" in words:  # it deletes what it sent
        written += operands[:-1]
    # `HOST:PATH` (or rsync's `HOST::MODULE`) is another machine's.
    written = [path for path in written if ":" not in path.partition("/")[0]]
    return and_files_under(written) if recursive else written


def _archive_writes(program: str, words: list[str]) -> list[str]:
    if program == "tar":
        return _tar_writes(words)
    if program == "unzip":
        folder, quiet = ".", False
        for k, word in enumerate(words[1:], 1):
            if word == "-d" and k + 1 < len(words):
                folder = words[k + 1]
            elif word[:1] == "-" and word[1:2] != "-":
                quiet = quiet or not _UNZIP_QUIET.isdisjoint(word[1:])
        return [] if quiet else [files_in(folder)]
    if program == "zip":  # the archive: its first operand
        i = 1
        while i < len(words):
            word = words[i]
            if word[:1] != "-" or word == "-":
                return [word] if word != "-" else []
            i += 2 if word[1:2] != "-" and word[-1:] in _ZIP_VALUE_LETTERS else 1
        return []
    # gzip and kin replace each file given with its (de)compressed form:
    # `gunzip .env.gz` writes `.env` (and `x.tgz` becomes `x.tar`)
    if not _COMPRESSOR_QUIET.isdisjoint(words) or any(
        w[:1] == "-" and w[1:2] != "-" and ("c" in w or "t" in w or "l" in w) for w in words
    ):
        return []
    given = [w for w in read_operands(words) if w != "-"]
    return given + [name for name in map(_decompressed, given) if name]


# A compressed file's suffix, and what it leaves when decompressed.
_COMPRESSED = {
    **dict.fromkeys((".gz", ".z", ".xz", ".lzma", ".bz2", ".bz", ".zst", ".zstd", ".lz4"), ""),
    **dict.fromkeys((".br", ".lz", ".lzo"), ""),
    **dict.fromkeys((".tgz", ".taz", ".tbz", ".tbz2", ".txz", ".tzst"), ".tar"),
}


def _decompressed(path: str) -> str | None:
    """The name a compressed file is decompressed to (`.env.gz`: `.env`), or None."""
    stem, dot, suffix = path.rpartition(".")
    base = stem.rpartition("/")[2]
    if not dot or not base:
        return None
    rest = _COMPRESSED.get("." + suffix.lower())
    return None if rest is None else stem + rest


def _tar_writes(words: list[str]) -> list[str]:
    mode = None
    archive = None
    folders: list[str] = []
    to_output = False
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word == "--":
            break
        if word[:2] == "--":
            option, eq, value = word.partition("=")
            mode = _TAR_LONG_MODES.get(option, mode)
            to_output = to_output or option == "--to-stdout"
            if option in ("--file", "--directory"):
                value = value if eq else (words[i] if i < n else "")
                i += 0 if eq else 1
                if option == "--file":
                    archive = value
                else:
                    folders.append(value)
        elif word[:1] == "-" and len(word) > 1 or i == 2:
            old_style = word[:1] != "-"  # `tar xzf a.tgz`: its values follow in order
            letters = word if old_style else word[1:]
            for k, letter in enumerate(letters):
                mode = _TAR_MODES.get(letter, mode)
                to_output = to_output or letter == "O"
                if letter not in _TAR_VALUE_LETTERS:
                    continue
                if not old_style and k + 1 < len(letters):
                    value = letters[k + 1 :]
                else:
                    value = words[i] if i < n else ""
                    i += 1
                if letter == "f":
                    archive = value
                elif letter == "C":
                    folders.append(value)
                if not old_style:
                    break  # the value ends the cluster
    if mode == "archive":
        return [archive] if archive and archive != "-" else []
    if mode == "files" and not to_output:
        return [files_in(folder) for folder in folders or ["."]]
    return []


# The in-place editors, sed -i, perl -i and ruby -i: the letters that give the
# script (`-e`), those that take the rest of their word or the next one as
# a value, those that take the rest only, those that take digits only
# (perl's `-0777`, `-l`), and whether options end at the first operand
# (perl's do; GNU sed's getopt permutes). In a cluster `i` takes the rest as
# its backup's suffix (`sed -ie` and `perl -pie` are suffix `e`).
_IN_PLACE = {
    "sed": ("ef", "efl", "", "", False),
    "perl": ("eE", "eEI", "FMmxCdD", "0l", True),
    "ruby": ("e", "erICE", "xWTFK", "0", True),
}
# GNU sed's long options that take a value, by the shortest prefix
# getopt_long takes for each (`--f` is ambiguous, and sed refuses it).
SED_LONG_VALUES = {"--e": "--expression", "--fi": "--file", "--l": "--line-length"}
_DIGITS = frozenset("0123456789abcdefABCDEFx")  # perl's `-0777`, `-0x1FF`, `-l015`


def _in_place_edits(program: str, words: list[str]) -> list[str]:
    """The files `sed -i`, `perl -i` or `ruby -i` edits: its operands less the script,
    which is the first operand unless `-e` gives it. BSD sed's `-i ''` and
    `-i .bak` read so leave the script among the files: an extra
    constraint, never a file missed."""
    scripts, with_value, attached, digits, stops = _IN_PLACE[program]
    in_place = script_given = False
    operands: list[str] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word == "--":
            operands += words[i:]
            break
        if word[:1] != "-" or word == "-":
            if stops:  # perl's options end at its first operand
                operands += words[i - 1 :]
                break
            operands += [word] if word != "-" else []
        elif word[:2] == "--" and program == "sed":
            name, eq, _ = word.partition("=")
            in_place = in_place or len(name) > 2 and "--in-place".startswith(name)
            option = long_option(name, SED_LONG_VALUES)
            if option:
                script_given = script_given or option != "--line-length"
                i += 0 if eq else 1
        else:
            k = 1
            while k < len(word):
                letter = word[k]
                k += 1
                if letter == "i":
                    in_place = True
                    break  # the rest is the backup's suffix
                if letter in with_value or letter in attached:
                    script_given = script_given or letter in scripts
                    i += 1 if k == len(word) and letter in with_value else 0
                    break
                while letter in digits and k < len(word) and word[k] in _DIGITS:
                    k += 1
    if not in_place:
        return []
    return operands if script_given else operands[1:]


# ip's command exec, by any prefix as ip reads it (`ip net e blue ls`).
IP_EXEC = frozenset({"e", "ex", "exe", "exec"})

# docker's subcommands that run a command in a container, or copy files
# between it and this machine.
DOCKER_TAKES = frozenset({"exec", "run", "create", "cp"})


def _tar_may_run(words: list[str]) -> bool:
    """A long option, or `I` or `F` in a short cluster or the old style's
    first word (string tests first: a generator a word cost ~7,000
    instructions a `tar -xzf` split, measured)."""
    rest = " " + " ".join(words[1:])
    if " --" in rest:
        return True
    if "I" not in rest and "F" not in rest:
        return False
    return any(("I" in w or "F" in w) and (w[:1] == "-" or k == 1) for k, w in enumerate(words))


# Takers the plain path may read as written, and when it must not: a test
# on the words that holds wherever the taker could run or refuse anything
# (`docker ps -a`, `kubectl get pods` stay on the fast path, measured 4 to
# 5 us there against ~20 on the general one).
PLAIN_UNLESS = {
    "docker": lambda words: not DOCKER_TAKES.isdisjoint(words),
    "podman": lambda words: not DOCKER_TAKES.isdisjoint(words),
    "kubectl": lambda words: "exec" in words or "--" in words or "cp" in words,
    "oc": lambda words: "exec" in words or "--" in words or "rsh" in words or "cp" in words,
    "lxc": lambda words: "exec" in words or "shell" in words,
    "rsync": lambda words: any(w[:1] == "-" and ("e" in w or w[:4] == "--rs") for w in words),
    "scp": lambda words: any(w[:1] == "-" for w in words[1:]),
    # sftp with an option, or with no file to fetch (it reads commands: `hosts`)
    "sftp": lambda words: len(words) != 2 or ":" not in words[1] or words[1][-1:] in ":/",
    "tar": _tar_may_run,
    "zip": lambda words: any(w[:1] == "-" and ("TT" in w or w[:5] == "--unz") for w in words),
    "man": lambda words: any(
        w[:1] == "-" and ("P" in w or "H" in w or w[:2] == "--") for w in words
    ),
    # `ip netns exec`, by any prefix of exec, and a batch (`-b`, not `-br`)
    "ip": lambda words: any(w in IP_EXEC or w[:2] == "-b" and w[:3] != "-br" for w in words),
}
PLAIN_UNLESS.update(
    dict.fromkeys(("nerdctl", "docker-compose", "podman-compose"), PLAIN_UNLESS["docker"])
)
PLAIN_UNLESS["incus"] = PLAIN_UNLESS["lxc"]
PLAIN_UNLESS["bun"] = lambda words: "x" in words or "exec" in words  # a runner, a shell string


# Archivers that take the names of the files they read from their input or
# from a file (`find . | cpio -o`, `echo .env | zip x.zip -@`, `tar czf
# x.tgz -T list.txt`): those names are not known here, so any file
# (`words.ANYWHERE`) is read.
NAMES_FROM_INPUT = frozenset({"cpio", "zip", "tar"})


def names_from_input(program: str, words: list[str]) -> bool:
    """Whether cpio (`-o`, `-p`), zip (`-@`) or tar (`-T`, `--files-from`)
    reads the names of the files it archives from its input or a file."""
    for word in words[1:]:
        if word[:2] == "--":
            if program == "cpio" and word in ("--create", "--pass-through"):
                return True
            if program == "tar" and word.startswith("--files-from"):
                return True
        elif word[:1] == "-":
            if program == "cpio" and ("o" in word or "p" in word):  # its mode, clustered: -ov
                return True
            if program == "zip" and "@" in word or program == "tar" and "T" in word:
                return True
    return False


def _plain_unless_names(name: str, before):
    """PLAIN_UNLESS's test for an archiver, and whether it takes names from
    its input (which the general path reads: `shell._operand_subjects`)."""
    if before is None:
        return lambda words: names_from_input(name, words)
    return lambda words: names_from_input(name, words) or before(words)


for _name in NAMES_FROM_INPUT:
    PLAIN_UNLESS[_name] = _plain_unless_names(_name, PLAIN_UNLESS.get(_name))
del _name
# curl 7.8x and 8's short options that take a value (`transfers` reads them).
CURL_SHORT_VALUES = frozenset("AbcCdDeEFHKmoPQrtTuUwxXyYz")
_CURL_QUIET = option_names(
    "--silent --location --fail --show-error --head --include --compressed --insecure "
    "--verbose --fail-with-body --globoff --http1.1 --http2 --ipv4 --ipv6"
)
_CURL_LEAVES = CURL_SHORT_VALUES | {"O", "n"}  # -O saves a file, -n reads ~/.netrc
_STORAGE_COPIES = frozenset({"cp", "mv", "sync", "rsync", "get-object"})
# gh's commands with files (`transfers`), and its `codespace ssh` (`platforms`).
_GH_LEAVES = frozenset({"gist", "release", "ssh-key", "gpg-key", "secret", "ssh", "download"})
# When the plain path must leave the programs `transfers` reads the files of
# (`curl -o`, `aws s3 cp`): `curl -s URL` and `aws s3 ls` stay plain.
# (String tests and loops: a generator cost ~8,000 instructions a split, measured.)


def _curl_leaves(words: list[str]) -> bool:
    for word in words[1:]:
        if word[:1] == "-":
            if word not in _CURL_QUIET if word[:2] == "--" else not _CURL_LEAVES.isdisjoint(word):
                return True
        elif word[:5].lower() == "file:":
            return True
    return False


PYTHONS = ("python", "python2", "python3", *(f"python3.{minor}" for minor in range(6, 16)))
PYTHON_SERVERS = ("http.server", "SimpleHTTPServer")  # `python3 -m http.server`

TRANSFER_PLAIN_UNLESS = {
    "curl": _curl_leaves,
    "wget": lambda words: True,  # it saves what it fetches
    # HTTPie and xh: a file sent (`field@FILE`, `@FILE`) or an option
    **dict.fromkeys(
        ("http", "https", "xh", "xhs"),
        lambda words: any("@" in word or word[:1] == "-" for word in words[1:]),
    ),
    "aws": lambda words: not _STORAGE_COPIES.isdisjoint(words) or "file" in " ".join(words),
    "gsutil": lambda words: not _STORAGE_COPIES.isdisjoint(words),
    "rclone": lambda words: len(words) > 2,  # `rclone version` stays plain
    "azcopy": lambda words: len(words) > 2,
    **dict.fromkeys(("s3cmd", "mc", "b2"), lambda words: len(words) > 2),
    "az": lambda words: "storage" in words,
    # `servers`: a web server serving a folder (`python3 x.py` stays plain)
    **dict.fromkeys(PYTHONS, lambda words: any(word.endswith(PYTHON_SERVERS) for word in words)),
    "php": lambda words: any(word[:2] == "-S" for word in words),
    "ruby": lambda words: "-run" in words,
    # `crypto`: any option or file may be a key (`openssl version` stays plain)
    "openssl": lambda words: " -" in " ".join(words),
    "gpg": lambda words: len(words) > 1,
    "gpg2": lambda words: len(words) > 1,
    "ssh-keygen": lambda words: (
        "f" in " ".join(words[1:]) or " -s" in " ".join(words) or "R" in " ".join(words[1:])
    ),
}

# Platforms' CLIs (`platforms`): `gh pr list` and `gcloud config list` stay plain.
PLAIN_UNLESS.update(
    heroku=lambda words: "run" in words or "run:detached" in words,
    fly=lambda words: "console" in words,
    flyctl=lambda words: "console" in words,
    gcloud=lambda words: "ssh" in words or "storage" in words,  # and `transfers`'s
    vagrant=lambda words: "ssh" in words,
    gh=lambda words: " -" in " ".join(words) or not _GH_LEAVES.isdisjoint(words),
    machinectl=lambda words: "shell" in words,
    multipass=lambda words: "exec" in words or "shell" in words,
    limactl=lambda words: "shell" in words,
    colima=lambda words: "ssh" in words,
    # `jobs`: cargo's watch, pueue's add and sbatch's --wrap (`cargo build`
    # and `pueue status` stay plain)
    cargo=lambda words: "watch" in words,
    pueue=lambda words: "add" in words,
    sbatch=lambda words: any(w[:6] == "--wrap" for w in words),
)
# `sockets`: netcat's -e and -c, and ncat's -o and -x files (`nc -zv host 80`
# stays plain).
_NC_LEAVES = frozenset("ecox")
PLAIN_UNLESS.update(
    dict.fromkeys(
        ("nc", "ncat", "netcat"),
        lambda words: any(w[:1] == "-" and not _NC_LEAVES.isdisjoint(w) for w in words),
    )
)
# gh and gcloud are takers too: their tests above cover both.
TRANSFER_PLAIN_UNLESS.update(gh=PLAIN_UNLESS["gh"], gcloud=PLAIN_UNLESS["gcloud"])
