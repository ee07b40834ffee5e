"""Front-ends: bundle files in, `Bundle` AST out."""

from __future__ import annotations

from pathlib import Path

from ..errors import ErrorSink, PolicyError, PolicyErrors, Span
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
    bundle = parse_bundle(text, str(path))
    if bundle.claude:
        # `claude SCOPE "PATH" [trusted]`: settings files, read relative to the bundle.
        from .claude import combine, read_claude_settings

        for scope, where, trusted, span in bundle.claude:
            target = (path.parent / where) if not Path(where).is_absolute() else Path(where)
            try:
                imported, settings_raw = read_claude_settings(
                    [(scope, target)], trust_workspace=trusted
                )
            except PolicyErrors as exc:
                for error in exc.errors:
                    error.help = (error.help + "; " if error.help else "") + f"imported at {span}"
                raise
            bundle = combine(bundle, imported)
            raw += settings_raw
    return bundle, raw


__all__ = ["Bundle", "parse_bundle", "read_bundle"]
