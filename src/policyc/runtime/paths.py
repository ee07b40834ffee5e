"""Paths and hosts: the `path` and `domain` matchers, and their normalisation.

Path patterns are gitignore-style, matched against absolute, normalised paths:

    pattern            anchored at                       example
    /etc/**            the filesystem root               /etc/passwd
    ~/.ssh/**          the home directory                ~/.ssh/id_rsa
    ./secrets/**       the call's working directory      <cwd>/secrets/key
    @/config/**        the source's own folder           (resolved when compiling)
    *.env, .env        any folder (no `/` inside)        /repo/app/.env

`*` matches within one path segment, `?` one character of a segment, `**` any
number of segments (`a/**` is everything under `a`; `**/b` is `b` anywhere),
and a trailing `/` means the folder and everything under it. Nothing else is
special. A cwd-anchored pattern matches nothing when no working directory is
known; the `path` splitter refuses such calls instead (fail closed).

Domains: `example.com` matches that host exactly; `*.example.com` its
subdomains but not the apex. A value may be a URL or a bare host; its host
is lower-cased, stripped of userinfo, port and a trailing dot, and
IDNA-encoded, so `https://User@EXAMPLE.com.:443/x` is `example.com`.
`domain:` before a spec is accepted and ignored (Claude Code writes it).
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache


class PathError(ValueError):
    """A path that cannot be normalised; the reason is read to the model."""


# -- paths --------------------------------------------------------------------


def normalize_path(
    path: str, cwd: str | None, home: str | None, follow_symlinks: bool = False
) -> str:
    """An absolute path with `~`, `.`, `..` and repeated slashes resolved."""
    if not path:
        raise PathError("an empty path")
    if "\x00" in path:
        raise PathError("a path with a NUL character")
    if path == "~" or path.startswith("~/"):
        if not home:
            raise PathError("a ~ path and no home directory is known")
        path = home.rstrip("/") + path[1:]
    elif path.startswith("~"):
        raise PathError("~user paths are not supported")
    if not path.startswith("/"):
        if not cwd or not cwd.startswith("/"):
            raise PathError("a relative path and no absolute working directory")
        path = cwd.rstrip("/") + "/" + path
    normal = posixpath.normpath(path)
    if normal.startswith("//"):
        normal = "/" + normal.lstrip("/")
    if follow_symlinks:
        import os

        try:
            normal = os.path.realpath(normal, strict=True)
        except (OSError, RuntimeError) as exc:
            raise PathError(
                f"cannot resolve {normal}: {getattr(exc, 'strerror', None) or exc}"
            ) from None
    return normal


def _segment_regex(segment: str) -> str:
    out = []
    for ch in segment:
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def _body_regex(body: str) -> str:
    """`a/**/b*` (no leading slash) -> regex for the rest of a path after the anchor."""
    if body.endswith("/"):
        body += "**"
    parts = body.split("/")
    out = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            out += ".*" if last else "(?:[^/]+/)*"
        else:
            out += _segment_regex(part) + ("" if last else "/")
    return out


def path_anchor(spec: str) -> str:
    """Where a pattern is anchored: root, home, cwd, base or anywhere."""
    if spec.startswith("**/"):
        return "anywhere"
    if spec.startswith("/"):
        return "root"
    if spec == "~" or spec.startswith("~/"):
        return "home"
    if spec.startswith("@/"):
        return "base"
    if spec == "." or spec.startswith("./") or "/" in spec.rstrip("/"):
        return "cwd"
    return "anywhere"


@lru_cache(maxsize=4096)
def _path_regex(spec: str, cwd: str | None, home: str | None) -> re.Pattern[str] | None:
    anchor = path_anchor(spec)
    if anchor == "root":
        base, body = "", spec.lstrip("/")
    elif anchor == "home":
        if not home:
            return None
        base, body = home.rstrip("/"), spec[2:] if spec != "~" else ""
    elif anchor == "cwd":
        if not cwd or not cwd.startswith("/"):
            return None
        base, body = (
            posixpath.normpath(cwd).rstrip("/"),
            spec[2:] if spec.startswith("./") else spec,
        )
        if spec == ".":
            body = ""
    elif anchor == "base":
        return None  # the compiler resolves `@/` against the source's folder
    else:
        return re.compile("(?:.*/)?" + _body_regex(spec.removeprefix("**/")), re.DOTALL)
    body = body.strip("/") if body not in ("", "/") else ""
    if not body:
        return re.compile(re.escape(base or "/") + "(?:/.*)?" if base else "/.*", re.DOTALL)
    return re.compile(re.escape(base) + "/" + _body_regex(body), re.DOTALL)


def resolve_base(spec: str, source_path: str) -> str | None:
    """`@/x` (or the carve-out `!@/x`) against the folder of the source's file; None if it has none."""
    bang = "!" if spec.startswith("!") else ""
    body = spec[len(bang) :]
    if not body.startswith("@/"):
        return spec
    if not source_path or not source_path.startswith("/"):
        return None
    folder = posixpath.dirname(posixpath.normpath(source_path))
    return bang + folder.rstrip("/") + body[1:]


def path_matches(spec: str, path: str, cwd: str | None = None, home: str | None = None) -> bool:
    """Does a path pattern match an (absolute, normalised) path? Total: never raises."""
    if type(spec) is not str or type(path) is not str:
        return False
    regex = _path_regex(
        spec, cwd if type(cwd) is str else None, home if type(home) is str else None
    )
    return regex is not None and regex.fullmatch(path) is not None


# -- domains ------------------------------------------------------------------


_BARE_HOST = re.compile(r"[^:/?#@]+(?::[0-9]+)?(?:[/?#].*)?", re.DOTALL)


def url_host(value: str) -> str | None:
    """The normalised host of a URL or bare host, or None when there is none."""
    if type(value) is not str or not value or any(c in value for c in " \t\r\n\x00\\"):
        return None
    if "://" not in value and not _BARE_HOST.fullmatch(value):
        return None  # `javascript:alert(1)`, `mailto:x` name no host
    from urllib.parse import urlsplit  # here, not at the top: hooks that never read a URL skip it

    try:
        parts = urlsplit(value if "://" in value else "//" + value)
        host = parts.hostname
        parts.port  # noqa: B018 - raises on a port that is not a number: no host we can trust
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".")
    if not host:
        return None
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    return host.lower()


def domain_spec(spec: str) -> tuple[str, str] | None:
    """('exact', host) or ('sub', parent) for a domain spec; None if it names no host."""
    body = spec.removeprefix("domain:")
    if body.startswith("*."):
        host = url_host(body[2:])
        return ("sub", host) if host and "*" not in host else None
    host = url_host(body)
    return ("exact", host) if host and "*" not in host else None


def domain_matches(spec: str, value: str) -> bool:
    parsed = domain_spec(spec) if type(spec) is str else None
    host = url_host(value)
    if parsed is None or host is None:
        return False
    kind, name = parsed
    return host == name if kind == "exact" else host.endswith("." + name)
