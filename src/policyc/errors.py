"""Errors a user can cause while writing or compiling a policy.

Every user mistake is a `PolicyError` with a stable `kind` (tests and tools
match on it), a `Span` pointing into the input, a one-line `message` and a
`help` text saying what to do instead. The CLI renders them as

    bundle.policy:3:9: empty_specifier: empty specifier in `Bash()`
      deny Bash()
           ^^^^^^
      help: write the tool name alone to match every call, or put a pattern inside the parentheses

`PolicyErrors` carries several at once, so one compile reports every problem
it can find instead of the first.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache


@lru_cache(maxsize=8)
def _line_starts(text: str) -> list[int]:
    # Keyed by the text itself: a str caches its hash, so repeated lookups are cheap.
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


@dataclass(frozen=True, slots=True)
class Span:
    """Where something stands in an input file: 1-based line and column."""

    file: str = "<input>"
    line: int = 0
    col: int = 0
    length: int = 1
    source_line: str = field(default="", compare=False)

    @classmethod
    def at_offset(cls, file: str, text: str, offset: int, length: int = 1) -> Span:
        """Turn a character offset into line:col (the one place that does it)."""
        offset = max(0, min(offset, len(text)))
        starts = _line_starts(text)
        line = bisect_right(starts, offset)
        start = starts[line - 1]
        end = text.find("\n", offset)
        if end < 0:
            end = len(text)
        return cls(file, line, offset - start + 1, max(1, length), text[start:end])

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file


# Longest excerpt of a source line an error shows: a minified JSON file is
# one line, and printing all of it buries the caret.
EXCERPT = 100


def _window(line: str, col: int) -> tuple[str, int, int]:
    """At most EXCERPT characters of `line` around column `col` (1-based):
    the excerpt ("…" marks what was cut), the column within it, and how
    many of its characters are the line's own (a caret stops there)."""
    if len(line) <= EXCERPT:
        return line, col, len(line)
    start = max(0, min(col - 1 - EXCERPT // 2, len(line) - EXCERPT))
    head = "…" if start else ""
    tail = "…" if start + EXCERPT < len(line) else ""
    return head + line[start : start + EXCERPT] + tail, col - start + len(head), len(head) + EXCERPT


class PolicyError(Exception):
    """One user-facing error with a stable kind, a location and help."""

    def __init__(self, kind: str, message: str, span: Span | None = None, help: str = ""):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.span = span or Span()
        self.help = help

    def render(self) -> str:
        out = [f"{self.span}: {self.kind}: {self.message}"]
        src = self.span.source_line
        if src and self.span.line:
            shown, col, end = _window(src.replace("\t", " "), self.span.col)
            out.append(f"  {shown}")
            width = max(1, min(self.span.length, end - col + 1))
            out.append("  " + " " * (col - 1) + "^" * width)
        if self.help:
            out.append(f"  help: {self.help}")
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "col": self.span.col,
            "help": self.help,
        }

    def __str__(self) -> str:
        return self.render()


class PolicyErrors(Exception):
    """Several `PolicyError`s found in one pass, in input order."""

    def __init__(self, errors: list[PolicyError]):
        super().__init__(f"{len(errors)} error(s)")
        self.errors = list(errors)

    @property
    def kind(self) -> str:
        return self.errors[0].kind

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)

    def __str__(self) -> str:
        return self.render()


class ErrorSink:
    """Collects errors during a stage; `check()` raises them together."""

    def __init__(self) -> None:
        self.errors: list[PolicyError] = []

    def add(self, error: PolicyError) -> None:
        self.errors.append(error)

    def check(self) -> None:
        if self.errors:
            raise PolicyErrors(self.errors)
