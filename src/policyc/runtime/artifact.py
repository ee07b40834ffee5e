"""Loading a compiled artifact: refuse anything that is not exactly what was built.

The artifact is one line of JSON whose header comes first and whose body comes
last, so the body's bytes can be digested as they were written:

    {"magic":"policyc","format_version":1,"compiler":"…","inputs_sha256":"…","body_sha256":"…","body":{…}}

A wrong magic, an unknown format version, a body whose digest does not match,
a truncated file or a body that does not describe a table is an
`ArtifactError`. The runtime never recompiles and never loads half a file.
"""

from __future__ import annotations

import os

from .bulk import gc_paused
from .engine import Table
from .index import ListIndex, ToolSpec
from .jsonio import loads
from .model import Source, rules_from_json
from .splitters import BUILTIN

MAGIC = "policyc"
# Version 2 is version 1 with a shell tool that sends what it fetches to a
# URL tool (`fetch`): written only then, so a runtime that would ignore the
# setting (and let `curl` past a domain deny) refuses the artifact instead.
FORMAT_VERSION = 2
FORMAT_VERSIONS = (1, 2)
BODY_MARK = b',"body":'


class ArtifactError(Exception):
    """An artifact the runtime refuses to load."""


try:  # the interpreter's own SHA-256: importing hashlib loads OpenSSL, a few ms of every hook run
    from _sha2 import sha256 as _own_sha256  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256 as _own_sha256  # Python 3.11
    except ImportError:
        from hashlib import sha256 as _own_sha256

# From this many bytes on, OpenSSL's SHA-256 pays for its import. Measured on
# the Intel Xeon of the README: the interpreter's own digests 7.1 µs a KiB,
# OpenSSL's (with the CPU's SHA instructions) 1.4, and `import hashlib` costs
# ~4 ms, so they break even near 700 KiB (a 10,000-rule body); a
# 100,000-rule body (7 MB) took 50 ms to check, now 10 with the import.
_OPENSSL_FROM = 1024 * 1024


def body_digest(body: bytes) -> str:
    if len(body) < _OPENSSL_FROM:
        return _own_sha256(body).hexdigest()
    from hashlib import sha256

    return sha256(body).hexdigest()


def read_header(raw: bytes) -> tuple[dict, bytes]:
    """Split and check the header; returns (header, body bytes)."""
    if not raw or raw.isspace():  # (not `strip()`: that copies the whole file)
        raise ArtifactError("the artifact is empty")
    # The header alone is parsed here (the body is parsed once, by the caller,
    # after its digest matched): the text before the body, closed.
    at = raw.find(BODY_MARK)
    try:
        document = loads(raw[:at] + b"}" if at > 0 else raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArtifactError(f"the artifact is truncated or not JSON ({exc})") from None
    if not isinstance(document, dict) or document.get("magic") != MAGIC:
        raise ArtifactError(f"not a policyc artifact (magic is not {MAGIC!r})")
    version = document.get("format_version")
    if version not in FORMAT_VERSIONS or type(version) is not int:
        raise ArtifactError(
            f"unsupported artifact format version {version!r}; this runtime reads versions "
            f"{', '.join(map(str, FORMAT_VERSIONS))}: recompile the bundle with a matching policyc"
        )
    end = raw.rfind(b"}")
    if at < 0 or end <= at:
        raise ArtifactError("the artifact has no body")
    body = raw[at + len(BODY_MARK) : end]
    if body_digest(body) != document.get("body_sha256"):
        raise ArtifactError(
            "the artifact's body does not match its digest (truncated, corrupt or edited)"
        )
    return document, body


def table_from_body(body: dict, digest: str = "", **options) -> Table:
    sources = [
        Source(s["name"], s["rank"], s["trusted"], s.get("path", ""), s.get("hash", ""))
        for s in body["sources"]
    ]
    tools = {
        name: ToolSpec(
            spec.get("match"),
            spec.get("field"),
            spec.get("split", False),
            spec.get("write", ""),
            spec.get("read", ""),
            spec.get("allow_glob", False),
            spec.get("fetch", ""),
        )
        for name, spec in body["tools"].items()
    }
    for name, spec in tools.items():
        if isinstance(spec.split, str) and spec.split not in BUILTIN:
            # Fail closed: never decide a tool unsplit because its splitter is missing.
            raise ArtifactError(
                f"tool {name} names the splitter {spec.split!r}, which this runtime does not have"
            )
    lists = {
        action: ListIndex.from_json(body[action], sources, tools)
        for action in ("deny", "ask", "allow")
    }
    withheld = rules_from_json(body["withheld"], sources)
    if body["default"] not in ("allow", "deny", "ask"):
        raise ValueError("bad default")
    return Table(
        default=body["default"],
        tools=tools,
        aliases={k: list(v) for k, v in body["aliases"].items()},
        sources=sources,
        lists=lists,
        withheld=withheld,
        digest=digest,
        **options,
    )


def _table_from_bytes(body: bytes, digest: str, home, follow_symlinks: bool) -> Table:
    return table_from_body(loads(body), digest, home=home, follow_symlinks=follow_symlinks)


def load(
    artifact: str | os.PathLike | bytes, *, home: str | None = None, follow_symlinks: bool = False
) -> Table:
    """Load a compiled artifact from a path or from its bytes.

    A path ending in `.py` is a generated module (`policyc compile --emit
    python`); it is checked and imported, and decides like the artifact.
    `home` is where `~` path rules point (default: this user's home);
    `follow_symlinks` lets the path splitter resolve symlinks (I/O).
    """
    if isinstance(artifact, bytes | bytearray):
        raw = bytes(artifact)
    elif os.fspath(artifact).endswith(".py"):
        from .generated import load_module

        return gc_paused(  # type: ignore[return-value]
            load_module, artifact, home=home, follow_symlinks=follow_symlinks
        )
    else:
        try:
            with open(artifact, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ArtifactError(f"cannot read the artifact: {exc.strerror or exc}") from None
    header, body = read_header(raw)
    try:
        return gc_paused(_table_from_bytes, body, header["body_sha256"], home, follow_symlinks)
    except ArtifactError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ArtifactError(
            f"the artifact's body does not describe a decision table ({exc!r})"
        ) from None
