"""Cloud storage and GitHub CLIs: the local files they upload and the local
files they download into. `aws s3 cp ~/.aws/credentials s3://x/` sent the
file past a deny on reading it, and `gsutil cp gs://x/rc ~/.bashrc` wrote
it past a deny on editing it. As for curl (`transfers`), what they read and
write is held to the read and edit tools' deny and ask rules.

A copy's operands are read as its getopt does not: an option's value read
as an operand can only be one more source (read), and the destination is
the last operand. A remote operand (`s3://`, `gs://`) names no local file.
"""

from __future__ import annotations

from .words import a_file_in, files_in

_REMOTE = ("s3://", "gs://", "https://", "http://")


def _local(path: str) -> bool:
    return bool(path) and path != "-" and not path.lower().startswith(_REMOTE)


def _copy(sources: list[str], target: str, recursive: bool, moves: bool):
    """The reads and writes of copying `sources` to `target` (a move also
    removes its sources; a recursive copy reads and writes folders)."""
    reads = [path for path in sources if _local(path)]
    if recursive:
        reads += [files_in(path) for path in reads]
    writes = list(reads) if moves else []
    if _local(target):
        writes.append(target)
        if recursive or target.endswith("/"):
            writes.append(files_in(target))
    return reads, writes


# AWS CLI 2's `s3` commands' flags (every other option takes a value).
_AWS_FLAGS = frozenset(
    """--recursive --dryrun --quiet --only-show-errors --no-progress --follow-symlinks
    --no-follow-symlinks --no-guess-mime-type --ignore-glacier-warnings
    --force-glacier-transfer --exact-timestamps --size-only --delete --no-paginate --debug
    --no-verify-ssl --no-sign-request --no-cli-pager --no-cli-auto-prompt
    --cli-auto-prompt""".split()
)


def _aws_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    """`aws s3 cp|mv|sync SRC DST`, `aws s3api get-object … OUTFILE`, and a
    parameter given as `file://PATH` or `fileb://PATH`, which the CLI reads."""
    reads: list[str] = []
    for word in words[1:]:
        value = word.partition("=")[2] if word[:2] == "--" else word
        for scheme in ("file://", "fileb://"):
            if value[: len(scheme)].lower() == scheme and value != scheme:
                reads.append(value[len(scheme) :])
    at = next((k for k, w in enumerate(words) if w in ("s3", "s3api")), None)
    if at is None or at + 1 >= len(words):
        return reads, []
    verb = words[at + 1]
    operands: list[str] = []
    recursive = verb == "sync"
    i = at + 2
    while i < len(words):
        word = words[i]
        i += 1
        if word[:2] == "--":
            recursive = recursive or word == "--recursive"
            i += 0 if word in _AWS_FLAGS or "=" in word else 1
        elif word[:1] != "-" or word == "-":
            operands.append(word)
    if words[at] == "s3api":
        if verb == "get-object" and operands:
            return reads, [operands[-1]] if _local(operands[-1]) else []
        return reads, []
    if verb not in ("cp", "mv", "sync") or len(operands) < 2:
        return reads, []
    more, writes = _copy(operands[:1], operands[1], recursive, verb == "mv")
    return reads + more, writes


def _gsutil_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    """`gsutil [-m] cp|mv|rsync [-r] SRC... DST` and `gcloud storage cp|mv|rsync`."""
    verbs = ("cp", "mv", "rsync")
    at = next((k for k, w in enumerate(words) if w in verbs), None)
    if at is None or words[0] == "gcloud" and words[at - 1 : at] != ["storage"]:
        return [], []
    flags = [w for w in words[at + 1 :] if w[:1] == "-" and w != "-"]
    operands = [w for w in words[at + 1 :] if w[:1] != "-" or w == "-"]
    recursive = any(
        w in ("--recursive", "--recursive=true") or w[:2] != "--" and ("r" in w or "R" in w)
        for w in flags
    )
    if len(operands) < 2:
        return [], []
    moves = words[at] == "mv"
    return _copy(operands[:-1], operands[-1], recursive or words[at] == "rsync", moves)


# GitHub CLI 2: the files a gist, a release, an issue's or pull request's
# body, an API call, a secret or a key is made of. Only the long options
# below take the next word: any other option's value is read as an operand,
# one more file read (`gh gist create -d DESC .env`), never one missed.
_GH_FILES = frozenset({"-F", "--body-file", "--notes-file", "--input", "--env-file"})
_GH_LONG_VALUES = frozenset(
    """--body-file --notes-file --input --env-file --field --raw-field --desc --filename
    --repo --title --notes --body --target --method --header --hostname --jq --template
    --label --milestone --assignee --base --head --notes-start-tag
    --discussion-category""".split()
)
_GH_OPERAND_FILES = {  # the subcommand, and where its files start among the operands
    ("gist", "create"): 2,
    ("release", "upload"): 3,
    ("release", "create"): 3,
    ("ssh-key", "add"): 2,
    ("gpg-key", "add"): 2,
    ("secret", "set"): 2,
}


# `gh release download` and `gh run download`: the file `-O` names, else
# any file in `-D`'s folder or `.` (the assets' names).
_GH_DOWNLOADS = frozenset({("release", "download"), ("run", "download")})
_GH_SAVES = frozenset({"-O", "--output", "-D", "--dir"})


def _gh_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    reads: list[str] = []
    operands: list[str] = []
    saves: dict[str, str] = {}
    api = words[1:2] == ["api"]
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word[:1] != "-" or word == "-":
            operands.append(word)
            continue
        name, eq, value = word.partition("=")
        if not eq and (name in _GH_LONG_VALUES or name == "-F" or name in _GH_SAVES):
            value = words[i] if i < n else ""
            i += 1
        if name in _GH_SAVES:
            saves[name.lstrip("-")[:1].upper()] = value  # O or D
        if api and name in ("-F", "--field"):
            if "=@" in value:  # `gh api -F key=@FILE`
                reads.append(value.partition("=@")[2])
        elif name in _GH_FILES:
            reads.append(value)
    start = _GH_OPERAND_FILES.get(tuple(operands[:2]))
    if start is not None:
        reads += [path.partition("#")[0] for path in operands[start:]]  # `FILE#label`
    writes: list[str] = []
    if tuple(operands[:2]) in _GH_DOWNLOADS:  # `gh release download -O .env`
        if saves.get("O") and saves["O"] != "-":
            writes.append(saves["O"])
        elif "O" not in saves:
            writes.append(a_file_in(saves.get("D") or "."))
    return [path for path in reads if _local(path)], writes


# rclone 1.6x and AzCopy 10: `rclone copy|sync|move|bisync SRC DST`,
# `rclone delete|purge PATH`, `azcopy copy|sync|remove …`. Their flags are
# many and some take a value, so the destination is not told apart: each
# local operand (not `REMOTE:PATH`, not a URL) is read and edited, with the
# files under it, which can only add a deny or an ask. The first operand is
# the command (`copy`).
def _remote_or_url(path: str) -> bool:
    head = path.partition("/")[0]
    return ":" in head and len(head) > 2  # `remote:`, `https:`; not `C:`


def _transfer_tool_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    operands = [word for word in words[1:] if word[:1] != "-"][1:]
    local = [path for path in operands if _local(path) and not _remote_or_url(path)]
    files = local + [files_in(path) for path in local]
    return files, list(files)


# `az storage blob upload -f FILE`, `upload-batch -s DIR`, `download -f FILE`,
# `download-batch -d DIR`: each file or folder its options name is read and
# edited, with the files under it (whichever way the copy goes).
_AZ_FILES = frozenset({"-f", "--file", "-s", "--source", "-d", "--destination"})


def _az_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    if "storage" not in words:
        return [], []
    named = []
    for k, word in enumerate(words):
        option, eq, value = word.partition("=")
        if option in _AZ_FILES:
            value = value if eq else words[k + 1] if k + 1 < len(words) else ""
            if value and _local(value) and not _remote_or_url(value):
                named.append(value)
    files = named + [files_in(path) for path in named]
    return files, list(files)


STORAGE = {
    "aws": _aws_files,
    "gsutil": _gsutil_files,
    "gcloud": _gsutil_files,
    "gh": _gh_files,
    "rclone": _transfer_tool_files,
    "azcopy": _transfer_tool_files,
    # s3cmd's, MinIO's mc's and Backblaze's b2's copies, read as rclone's
    "s3cmd": _transfer_tool_files,
    "mc": _transfer_tool_files,
    "b2": _transfer_tool_files,
    "az": _az_files,
}
