"""Commands that print or store secrets: the files those live in.

`aws configure get aws_secret_access_key` prints the key from
`~/.aws/credentials`, and `kubectl config view --raw` the tokens in
`~/.kube/config`, past a deny on reading them: no file is named on the
line. Each such command reads (or, storing them, `aws configure set`,
`docker login`, writes) the files its tool keeps them in by default, held
to the read and edit tools' deny and ask rules as a reader's files are. A
file another setting names (`AWS_SHARED_CREDENTIALS_FILE`, `--kubeconfig`)
is not read here.
"""

from __future__ import annotations

from .words import files_in

_AWS = ("~/.aws/credentials", "~/.aws/config")
_GCLOUD = (files_in("~/.config/gcloud"),)
_GIT_STORE = ("~/.git-credentials", "~/.config/git/credentials")  # (git's store helper)
_TF_STATE = ("terraform.tfstate",)  # (the local backend's, in the working folder)

# (program, the words that name the command, in order among its words; a
# word that must be there too, or ""): (files read, files written)
CREDENTIALS: dict[tuple[tuple[str, ...], str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    (("aws", "configure", "get"), ""): (_AWS, ()),
    (("aws", "configure", "export-credentials"), ""): (_AWS, ()),
    (("aws", "configure", "set"), ""): ((), _AWS),
    (("aws", "configure", "import"), ""): ((), _AWS),
    (("kubectl", "config", "view"), "--raw"): (("~/.kube/config",), ()),
    (("gcloud", "auth", "print-access-token"), ""): (_GCLOUD, ()),
    (("gcloud", "auth", "print-identity-token"), ""): (_GCLOUD, ()),
    (("az", "account", "get-access-token"), ""): ((files_in("~/.azure"),), ()),
    (("gh", "auth", "token"), ""): (("~/.config/gh/hosts.yml",), ()),
    (("gh", "auth", "status"), "--show-token"): (("~/.config/gh/hosts.yml",), ()),
    (("git", "credential", "fill"), ""): (_GIT_STORE, ()),
    (("git", "credential-store", "get"), ""): (_GIT_STORE, ()),
    (("git", "credential", "approve"), ""): ((), _GIT_STORE),
    (("docker", "login"), ""): ((), ("~/.docker/config.json",)),
    # what a project keeps its secrets in, printed: Compose's config reads
    # the folder's `.env` into what it prints, terraform its local state
    (("docker", "compose", "config"), ""): ((".env",), ()),
    (("docker-compose", "config"), ""): ((".env",), ()),
    (("terraform", "show"), ""): (_TF_STATE, ()),
    (("terraform", "output"), ""): (_TF_STATE, ()),
    (("terraform", "state", "pull"), ""): (_TF_STATE, ()),
    (("terraform", "state", "show"), ""): (_TF_STATE, ()),
    (("tofu", "show"), ""): (_TF_STATE, ()),
    (("tofu", "output"), ""): (_TF_STATE, ()),
    (("tofu", "state", "pull"), ""): (_TF_STATE, ()),
    (("npm", "login"), ""): ((), ("~/.npmrc",)),
    (("npm", "adduser"), ""): ((), ("~/.npmrc",)),
}
# The programs, each with its commands' first words, tested before a call
# (`npm test`, `docker ps` name none: the commonest commands of these programs).
CREDENTIAL_WORDS: dict[str, frozenset[str]] = {}
for (_names, _), _files in CREDENTIALS.items():
    CREDENTIAL_WORDS[_names[0]] = CREDENTIAL_WORDS.get(_names[0], frozenset()) | {_names[1]}


def credential_files(program: str, words: list[str]) -> tuple[list[str], list[str]]:
    """The files `program`'s command keeps credentials in, read and written:
    its command's words in order among `words` (options may stand between:
    `aws --profile p configure get …`)."""
    reads: list[str] = []
    writes: list[str] = []
    for (names, required), (read, written) in CREDENTIALS.items():
        if names[0] != program or required and required not in words:
            continue
        at = 1
        for word in words[1:]:
            if at < len(names) and word == names[at]:
                at += 1
        if at == len(names):
            reads += read
            writes += written
    return reads, writes
