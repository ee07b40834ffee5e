"""Files a program reads or writes because one of its options names them:
a Dockerfile, Kubernetes manifests and secrets, Helm values, a makefile,
pip's requirements, Terraform's variables, a Cargo manifest, Ansible's
inventory and variables; a compiler's or a converter's output.

Each may show what it reads, or send it on: `docker build -f .env .`
prints .env's first line in a parse error, `make -p -f .env` every
variable .env sets, `pip install -r .env` each line it cannot read, and
`kubectl create secret generic x --from-env-file=.env` copies .env to the
cluster. So each value is a read subject, held to the read tool's deny and
ask rules as a reader's operand is. Words after `--` are another
command's (`kubectl exec pod -- tail -f x`) and are not read.

A value may hold a file among other things: `--from-file=KEY=PATH`,
docker's `--secret id=x,src=PATH`, Ansible's `-e @FILE`. Each such part is
read too: a part that is no file only adds a path no rule names.
"""

from __future__ import annotations

from .programs import PYTHONS
from .words import a_file_in, option_names

_CONTAINERS = (frozenset("f"), option_names("--file --secret --label-file"))
_KUBERNETES = (frozenset("f"), option_names("--filename --from-file --from-env-file --kubeconfig"))
_PIP = (frozenset("rc"), option_names("--requirement --requirements --constraint --constraints"))
_TERRAFORM = (frozenset(), option_names("-var-file --var-file"))
# Each program: its short letters and long names whose value is a file it
# reads, and the subcommand it must have, if any (`uv pip install -r`; in
# `uv run`, `-r` and `-c` are the command's own: `uv run python -c …`;
# `python3 -m pip`, whose `pip` is the second word).
OPTION_FILES: dict[str, tuple[frozenset, frozenset, str | None]] = {
    **dict.fromkeys(
        ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"), (*_CONTAINERS, None)
    ),
    **dict.fromkeys(("kubectl", "oc"), (*_KUBERNETES, None)),
    "helm": (frozenset("f"), option_names("--values --set-file --kubeconfig"), None),
    "make": (frozenset("f"), option_names("--file --makefile"), None),
    **dict.fromkeys(("pip", "pip3"), (*_PIP, None)),
    **dict.fromkeys(("uv", *PYTHONS), (*_PIP, "pip")),  # `uv pip`, `python3 -m pip`
    **dict.fromkeys(("terraform", "tofu", "terragrunt"), (*_TERRAFORM, None)),
    "cargo": (frozenset(), option_names("--manifest-path"), None),
    # rsync's lists of names and password file (`rsync --files-from=.env`
    # prints each line it cannot find)
    "rsync": (
        frozenset(),
        option_names("--files-from --exclude-from --include-from --password-file"),
        None,
    ),
    # a mail's attachments and included files
    **dict.fromkeys(
        ("mail", "mailx", "s-nail"), (frozenset(), option_names("-A -a --attach"), None)
    ),
    **dict.fromkeys(("mutt", "neomutt"), (frozenset(), option_names("-a -i -H"), None)),
    **dict.fromkeys(
        ("ansible", "ansible-playbook"),
        (frozenset("ie"), option_names("--inventory --extra-vars --vault-password-file"), None),
    ),
}


# Options whose value is a file or folder a program writes, its output:
# `go build -o /etc/x`, `javac -d /etc/x`, `tsc --outDir`, `pandoc -o`.
# Each value is an edit subject, and so is a file in it whose name is not
# told (`words.a_file_in`: a compiler's output folder holds files named
# after its sources), held to rules on every file there (`Edit(/etc/**)`),
# not to one on a single file (`Edit(./.env)` does not refuse `-d .`).
# Matched as whole words (`-o`, `-o=x`): go's and pandoc's other options
# may hold the letter.
_NAMES_ONLY = frozenset()
OPTION_OUTPUTS: dict[str, tuple[frozenset, frozenset, str | None]] = {
    "go": (_NAMES_ONLY, option_names("-o"), None),
    "rustc": (_NAMES_ONLY, option_names("-o --out-dir"), None),
    "cargo": (_NAMES_ONLY, option_names("--target-dir --artifact-dir --out-dir"), None),
    "javac": (_NAMES_ONLY, option_names("-d -s -h"), None),
    "tsc": (_NAMES_ONLY, option_names("--outDir --outFile --declarationDir --out"), None),
    "esbuild": (_NAMES_ONLY, option_names("--outfile --outdir"), None),
    "pandoc": (_NAMES_ONLY, option_names("-o --output"), None),
    "xmllint": (_NAMES_ONLY, option_names("-o --output"), None),
    "base64": (_NAMES_ONLY, option_names("-o --output"), None),  # BSD's and macOS's
}


def _needles(table: dict) -> dict[str, tuple[str, ...] | None]:
    """What a command's text must hold for each program's options to be
    among its words: its subcommand, else its long names (None where
    letters may cluster)."""
    return {
        name: (subcommand,) if subcommand else None if letters else tuple(names)
        for name, (letters, names, subcommand) in table.items()
    }


_FILE_NEEDLES = _needles(OPTION_FILES)
_OUTPUT_NEEDLES = _needles(OPTION_OUTPUTS)


def may_name_files(text: str, program: str) -> bool:
    """Whether `option_files` may find any in the command `text`: a string
    test first (`cargo build --release` names none; the call costs ~2 µs)."""
    needles = _FILE_NEEDLES[program]
    if needles is None:
        return True
    for needle in needles:  # (a loop: `any` over a generator costs ~2,000 instructions)
        if needle in text:
            return True
    return False


def may_name_outputs(text: str, program: str) -> bool:
    """Likewise for `option_outputs` (`go test -v ./...` names none)."""
    for needle in _OUTPUT_NEEDLES[program]:  # names only
        if needle in text:
            return True
    return False


def option_files(words: list[str], program: str) -> list[str]:
    """The files `program`'s options name among its words (`docker build -f
    x .`: ["x"]; `kubectl create secret generic s --from-file=k=.env`:
    ["k=.env", ".env"])."""
    out: list[str] = []
    for value in _values(words, *OPTION_FILES[program]):
        out += _paths_in(value)
    return out


def option_outputs(words: list[str], program: str) -> list[str]:
    """The files and folders `program`'s options tell it to write, each with
    a file in it (`javac -d out X.java`: ["out", "out/<a file>"])."""
    out: list[str] = []
    for value in _values(words, *OPTION_OUTPUTS[program]):
        if value:
            out += [value, a_file_in(value)]
    return out


def _values(
    words: list[str], letters: frozenset, names: frozenset, subcommand: str | None
) -> list[str]:
    """The values of the options `letters` and `names` among the words."""
    if subcommand is not None and subcommand not in words[1:3]:
        return []
    out: list[str] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word == "--":
            break
        if word[:1] != "-" or len(word) < 2:
            continue
        option, eq, value = word.partition("=")
        if option in names:
            if not eq:
                if i >= n:
                    break
                value = words[i]
                i += 1
        elif word[1] != "-" and not letters.isdisjoint(word):
            # In a cluster (`make -pf FILE`, `-fFILE`), the letter's value
            # is the rest of the word, or the next word.
            k = next(k for k in range(1, len(word)) if word[k] in letters)
            if k + 1 < len(word):
                value = word[k + 1 :]
            elif i < n:
                value = words[i]
                i += 1
            else:
                break
        else:
            continue
        out.append(value)
    return out


def _paths_in(value: str) -> list[str]:
    """A value, and the paths it may hold: after `@`, and after each `=` in
    its comma-separated parts (`k=.env`, `id=x,src=.env`)."""
    out = [value]
    if value[:1] == "@":
        out.append(value[1:])
    if "=" in value:
        for part in value.split(","):
            _, eq, path = part.partition("=")
            if eq and path:
                out.append(path)
    return out
