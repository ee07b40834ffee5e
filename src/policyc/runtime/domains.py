"""Hosts: the `domain` matcher, and the host a URL names.

`example.com` matches that host exactly; `*.example.com` its subdomains but
not the apex. Deny and ask rules are read broadly (`paths.broad_for`): a host
covers its subdomains too, as whoever holds `evil.com` holds `www.evil.com`
(and `*.` rules are unchanged). A value may be a URL or a bare host.
`domain:` before a spec is accepted and ignored (Claude Code writes it).

A URL's host is read as the fetcher reads it, which for an agent's fetch
tool is the WHATWG URL standard (browsers, Node's `URL` and `fetch`, which
Claude Code's WebFetch uses): a deny rule must see the host the request
goes to. So the host is lower-cased and stripped of userinfo, port and a
trailing dot, percent-decoded (`evi%6C.com` is `evil.com`), IDNA-encoded,
and an address written as a number is read as one (`2852039166`,
`0xA9FEA9FE` and `169.254.43518` are `169.254.169.254`; an IPv6 address is
written in its shortest form, and one that maps an IPv4 address as that
address). A URL the standard refuses, or one this reading cannot be sure
of, names no host, and the `url` splitter refuses the call (fail closed):
a forbidden character in the host after decoding, a number too big for an
address, and the letters IDNA 2003 (Python's codec) and the standard encode
apart (`ß`, final `ς`, the zero-width joiners), where Python would name
another host than the one fetched.
"""

from __future__ import annotations

from .memo import memo

_BARE_HOST = None  # compiled on first use: hooks that never read a URL skip `re` (6 ms)


def _bare_host(value: str) -> bool:
    global _BARE_HOST
    if _BARE_HOST is None:
        import re

        _BARE_HOST = re.compile(r"[^:/?#@]+(?::[0-9]+)?(?:[/?#].*)?", re.DOTALL)
    return _BARE_HOST.fullmatch(value) is not None


def url_host(value: str) -> str | None:
    """The normalised host of a URL or bare host, or None when there is none."""
    if type(value) is not str:
        return None
    return _url_host(value)


# Code points the standard forbids in a domain once percent-decoded (its
# "forbidden domain code points", C0 controls and DEL aside).
_FORBIDDEN = frozenset(" #%/:<>?@[\\]^|")
# Letters IDNA 2003 maps and the standard's UTS 46 keeps (its "deviation
# characters"): `faß.de` is `fass.de` to Python and `xn--fa-hia.de` to a fetcher.
_DEVIATIONS = frozenset("\u00df\u03c2\u200c\u200d")


# A call's URL is read twice, by the url splitter and by the domain matcher
# on the subject it makes, and agents fetch from the same few hosts.
@memo(maxsize=4096)
def _url_host(value: str) -> str | None:
    if not value or any(c in value for c in " \t\r\n\x00\\"):
        return None
    if "://" not in value and not _bare_host(value):
        return None  # `javascript:alert(1)`, `mailto:x` name no host
    from urllib.parse import unquote, urlsplit  # here: hooks that never read a URL skip it

    try:
        parts = urlsplit(value if "://" in value else "//" + value)
        host = parts.hostname
        parts.port  # noqa: B018 - raises on a port that is not a number: no host we can trust
    except ValueError:
        return None
    if not host:
        return None
    if ":" in host:  # an IPv6 address (urlsplit took it from its brackets)
        return _ipv6(host)
    if "%" in host:
        try:
            host = unquote(host, errors="strict")
        except UnicodeDecodeError:
            return None
    if any(c in _FORBIDDEN or c < " " or c == "\x7f" for c in host):
        return None
    if not _DEVIATIONS.isdisjoint(host):
        return None
    try:
        host = host.encode("idna").decode("ascii").lower()  # also maps `。` to `.`
    except UnicodeError:
        return None
    if host.endswith("."):
        host = host[:-1]
    if "" in host.split("."):  # an empty label (`a..b`, `host..`), which DNS refuses
        return None
    return _ipv4(host) if _ends_in_a_number(host) else host


def _ipv6(host: str) -> str | None:
    import ipaddress  # here: most hosts are names

    if "%" in host:  # a zone (`fe80::1%eth0`), which the standard refuses
        return None
    try:
        address = ipaddress.IPv6Address(host)
    except ValueError:
        return None
    mapped = address.ipv4_mapped
    return str(mapped) if mapped is not None else address.compressed


def _ends_in_a_number(host: str) -> bool:
    """The standard's test for a host to be read as an IPv4 address."""
    labels = host.split(".")
    last = labels[-1]
    return last.isdigit() or _ipv4_number(last) is not None


_DIGITS = {8: frozenset("01234567"), 10: frozenset("0123456789"), 16: frozenset("0123456789abcdef")}


def _ipv4_number(text: str) -> int | None:
    """A label of an IPv4 address: decimal, octal (leading 0) or hex (0x)."""
    if not text or not text.isascii():
        return None
    base = 10
    if text[:2] in ("0x", "0X"):
        text, base = text[2:], 16
        if not text:
            return 0
    elif len(text) > 1 and text[0] == "0":
        text, base = text[1:], 8
    # Checked digit by digit: `int` also takes `_` and a second `0x`.
    return int(text, base) if _DIGITS[base].issuperset(text) else None


def _ipv4(host: str) -> str | None:
    """The dotted form of a host written as an IPv4 address, or None where
    the standard refuses it (`1.2.3.4.5`, `256.1.1.1`, `1.2.3.0x`)."""
    labels = host.split(".")
    if len(labels) > 4:
        return None
    numbers = [_ipv4_number(label) for label in labels]
    if any(n is None for n in numbers):
        return None
    *front, last = numbers
    if any(n > 255 for n in front) or last >= 256 ** (5 - len(numbers)):  # type: ignore[operator]
        return None
    address = last
    for i, n in enumerate(front):
        address += n * 256 ** (3 - i)  # type: ignore[operator]
    return ".".join(str((address >> shift) & 255) for shift in (24, 16, 8, 0))  # type: ignore[operator]


def domain_spec(spec: str) -> tuple[str, str] | None:
    """('exact', host) or ('sub', parent) for a domain spec; None if it names no host."""
    body = spec.removeprefix("domain:")
    if body.startswith("*."):
        host = url_host(body[2:])
        return ("sub", host) if host and "*" not in host else None
    host = url_host(body)
    return ("exact", host) if host and "*" not in host else None


def domain_matches(spec: str, value: str, broad: bool = False) -> bool:
    """Does a domain spec match the URL's host? `broad` (deny and ask rules,
    `paths.broad_for`): a host covers its subdomains too, as whoever holds
    `evil.com` holds `www.evil.com`."""
    parsed = domain_spec(spec) if type(spec) is str else None
    host = url_host(value)
    if parsed is None or host is None:
        return False
    kind, name = parsed
    if kind == "exact" and host == name:
        return True
    return (kind != "exact" or broad) and host.endswith("." + name)
