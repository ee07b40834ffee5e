"""Web servers that serve a folder: every file under it is read.

`python3 -m http.server` in a project hands `.env` to whoever asks for it,
the model's next `curl localhost:8000/.env` included, past a deny on
reading it. Python's `http.server`, PHP's built-in server (`php -S`) and
Ruby's `ruby -run -e httpd` serve their folder's files (the working
directory unless told): those files are read subjects (`words.files_in`),
held to the read tool's deny and ask rules only.
"""

from __future__ import annotations

from .programs import PYTHON_SERVERS, PYTHONS
from .words import files_in


def _python_served(words: list[str], unknown: str) -> list[str]:
    """`python -m http.server [PORT] [-d DIR | --directory DIR] [-b ADDR]`."""
    k = 1
    while k < len(words):
        word = words[k]
        module = word[2:] if word[:2] == "-m" and len(word) > 2 else None
        if word == "-m" and k + 1 < len(words):
            module = words[k + 1]
        if module is not None:
            if module not in PYTHON_SERVERS:
                return []
            return [_option_value(words[k + 1 :], ("-d", "--directory"))]
        if word[:1] != "-" or word[:2] == "-c":
            return []  # a script or code: what it serves is not known here
        k += 2 if word in ("-W", "-X") else 1  # (their value)
    return []


def _php_served(words: list[str], unknown: str) -> list[str]:
    """`php -S ADDR:PORT [-t DOCROOT] [ROUTER]`: the document root."""
    if not any(word[:2] == "-S" for word in words[1:]):
        return []
    return [_option_value(words[1:], ("-t", "--docroot"))]


def _ruby_served(words: list[str], unknown: str) -> list[str]:
    """`ruby -run -e httpd [DIR] [-p PORT]` (un.rb's httpd)."""
    if "-run" not in words or not any(word in ("httpd", "-ehttpd") for word in words):
        return []
    at = next(k for k, word in enumerate(words) if word in ("httpd", "-ehttpd"))
    rest = words[at + 1 :]
    i = 0
    while i < len(rest):
        word = rest[i]
        if word in ("-p", "--port", "-b", "--bind-address"):
            i += 2
            continue
        if word[:1] != "-":
            return [word]
        i += 1
    return ["."]


def _option_value(words: list[str], names: tuple[str, ...]) -> str:
    """The folder an option names (`-d DIR`, `-dDIR`, `--directory=DIR`), else `.`."""
    folder = "."
    for k, word in enumerate(words):
        name, eq, value = word.partition("=")
        if name in names and eq:
            folder = value
        elif word in names and k + 1 < len(words):
            folder = words[k + 1]
        elif word[:2] in names and len(word) > 2 and word[1] != "-":
            folder = word[2:]
    return folder


def served_files(program: str, words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    """The files a web server reads: each folder it serves and what is under it."""
    folders = SERVERS[program](words, unknown)
    return folders + [files_in(folder) for folder in folders if folder], []


SERVERS = dict.fromkeys(PYTHONS, _python_served)
SERVERS.update(php=_php_served, ruby=_ruby_served)
