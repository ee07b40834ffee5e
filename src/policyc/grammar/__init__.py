"""Front-ends: bundle files in, `Bundle` AST out."""

from __future__ import annotations

from pathlib import Path

from ..errors import ErrorSink, PolicyError, Span
from .ast import Bundle
from .jsonbundle import parse_json_bundle
from .parser import parse_policy

FORMATS = {".policy": parse_policy, ".json": parse_json_bundle}


def parse_bundle(text: str, file: str = "<input>", fmt: str | None = None) -> Bundle:
    """Parse bundle text; `fmt` is ".policy" or ".json" (default: by file name)."""
    fmt = fmt or Path(file).suffix
    parser = FORMATS.get(fmt)
    if parser is None:
        errors = ErrorSink()
        errors.add(
            PolicyError(
                "unknown_format",
                f"cannot tell the bundle format of {file}",
                Span(file),
                "name the file *.policy or *.json",
            )
        )
        errors.check()
    return parser(text, file)


def read_bundle(path: str | Path) -> tuple[Bundle, bytes]:
    """Read and parse a bundle file; returns the AST and the file's bytes."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        errors = ErrorSink()
        errors.add(
            PolicyError("unreadable", f"cannot read {path}: {exc.strerror or exc}", Span(str(path)))
        )
        errors.check()
        raise
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        errors = ErrorSink()
        errors.add(
            PolicyError(
                "not_utf8",
                f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})",
                Span(str(path)),
            )
        )
        errors.check()
        raise
    return parse_bundle(text, str(path)), raw


__all__ = ["Bundle", "parse_bundle", "read_bundle"]
