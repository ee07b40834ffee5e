"""Stage `encode_artifact`: DecisionTable -> artifact bytes; and the atomic write.

The layout (header first, body last, one line) is the runtime's to define,
see `runtime.artifact`; the body is canonical JSON (sorted keys, no spaces),
so the same inputs always give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from .. import __version__
from ..runtime.artifact import BODY_MARK, FORMAT_VERSION, MAGIC, body_digest
from .ir import DecisionTable


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def encode_body(table: DecisionTable) -> dict:
    merged = table.merged
    source_ids = {source: i for i, source in enumerate(merged.sources)}
    return {
        "default": merged.default,
        "tools": {name: spec.to_json() for name, spec in sorted(merged.tools.items())},
        "aliases": merged.aliases,
        "sources": [s.to_json() for s in merged.sources],
        "deny": table.lists["deny"].to_json(source_ids),
        "ask": table.lists["ask"].to_json(source_ids),
        "allow": table.lists["allow"].to_json(source_ids),
        "withheld": [
            [r.rule.tool, r.rule.spec, source_ids[r.rule.source]]
            + ([r.rule.note] if r.rule.note else [])
            for r in merged.withheld
        ],
    }


def encode_artifact(table: DecisionTable, inputs_sha256: str) -> bytes:
    body = _canonical(encode_body(table))
    fetches = any(spec.fetch for spec in table.merged.tools.values())
    header = (
        b'{"magic":'
        + _canonical(MAGIC)
        + b',"format_version":'
        + _canonical(FORMAT_VERSION if fetches else 1)
        + b',"compiler":'
        + _canonical(f"policyc {__version__}")
        + b',"inputs_sha256":'
        + _canonical(inputs_sha256)
        + b',"body_sha256":'
        + _canonical(body_digest(body))
    )
    return header + BODY_MARK + body + b"}\n"


def inputs_digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(hashlib.sha256(part).digest())
    return h.hexdigest()


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write via a temp file in the same folder and rename: never half a file."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
