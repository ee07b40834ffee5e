"""openssl, gpg and ssh-keygen: the keys and files they read and write.

`openssl rsa -in ~/.ssh/id_rsa`, `openssl enc -in .env | base64`, `gpg -c
.env`, `gpg --export-secret-keys -a` and `ssh-keygen -y -f ~/.ssh/id_ed25519`
read secrets past a deny on reading them, and `-out`, `--output` or a new
key's `-f` write files. As for curl (`transfers`), what they read and write
is held to the read and edit tools' deny and ask rules only.
"""

from __future__ import annotations

from .words import and_files_under, cluster_value

# OpenSSL 1.1 and 3 (single-dash options): those whose value is a file read,
# and those whose value is a file written. `-passin file:PATH` (and -pass,
# -passout) read PATH.
_OPENSSL_READS = frozenset(
    """-in -inkey -key -signkey -CAfile -CAkey -cert -certfile -config -kfile -extfile
    -paramfile -peerkey -sigfile -signature -prverify -verify -untrusted -trusted -CRLfile
    -chainCAfile -dcert -dkey -rand""".split()
)
_OPENSSL_WRITES = frozenset({"-out", "-keyout", "-CAserial", "-writerand"})
_OPENSSL_PASSES = frozenset({"-passin", "-pass", "-passout"})


def _openssl_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    reads: list[str] = []
    writes: list[str] = []
    for k in range(1, len(words) - 1):
        option, value = words[k], words[k + 1]
        if option in _OPENSSL_READS:
            reads.append(value)
        if option in _OPENSSL_WRITES:
            writes.append(value)
        if option in _OPENSSL_PASSES and value[:5] == "file:":
            reads.append(value[5:])
    return reads, writes


# GnuPG 2: its output file, the files it is given (to encrypt, sign, decrypt
# or import), a passphrase file, and its home folder when it exports secret
# keys. Only these options take the next word: any other option's value is
# read as a file given, one more read, never one missed.
_GPG_VALUES = frozenset(
    """-o --output -r --recipient -u --local-user --default-key --homedir --keyserver
    --passphrase-file --passphrase-fd --trust-model --cipher-algo --digest-algo
    --compress-algo -z""".split()
)
_GPG_EXPORTS_SECRETS = frozenset({"--export-secret-keys", "--export-secret-subkeys"})


def _gpg_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    reads: list[str] = []
    writes: list[str] = []
    home = "~/.gnupg"
    secrets = False
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        option, eq, value = word.partition("=")
        if word[:1] != "-" or word == "-":
            if word != "-":
                reads.append(word)
            continue
        secrets = secrets or option in _GPG_EXPORTS_SECRETS
        if option not in _GPG_VALUES:
            continue
        if not eq:
            value = words[i] if i < n else ""
            i += 1
        if value in ("", "-"):
            continue
        if option in ("-o", "--output"):
            writes.append(value)
        elif option == "--passphrase-file":
            reads.append(value)
        elif option == "--homedir":
            home = value
    if secrets:
        reads += and_files_under([home])
    return reads, writes


# OpenSSH 8 and 9's ssh-keygen: its short options that take a value.
_SSH_KEYGEN_VALUES = frozenset("bCNtmPOZanIVzrRFDEMSTwYsf")


def _ssh_keygen_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    """`-f FILE` (`-lf FILE`, `-fFILE`): the key read (`-y`, `-l`, `-p`), or
    written with its `.pub` (a new key, `-R` on known_hosts): both, as
    either may be meant. `-s CA_KEY` signs with a key it reads."""
    reads: list[str] = []
    writes: list[str] = []
    known_hosts = file_given = False  # `-R HOST` rewrites ~/.ssh/known_hosts unless -f
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word[:1] != "-" or word[1:2] == "-":
            continue
        for k in range(1, len(word)):
            if word[k] in _SSH_KEYGEN_VALUES:
                known_hosts = known_hosts or word[k] == "R"
                file_given = file_given or word[k] == "f"
                value, i = cluster_value(word, k, words, i)
                if value and word[k] == "f":
                    reads.append(value)
                    writes += [value, value + ".pub"]
                elif value and word[k] == "s":
                    reads.append(value)
                break
    if known_hosts and not file_given:
        writes += ["~/.ssh/known_hosts", "~/.ssh/known_hosts.old"]
    return reads, writes


CRYPTO = {
    "openssl": _openssl_files,
    "gpg": _gpg_files,
    "gpg2": _gpg_files,
    "ssh-keygen": _ssh_keygen_files,
}
