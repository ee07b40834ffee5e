"""`*` patterns matched in linear time (shared by the glob and path matchers)."""

from __future__ import annotations


class StarPattern:
    """`*` (any run, empty too) and literal text, matched in linear time.

    Not a regex: `a*a*a*b` as a backtracking regex takes exponential time on
    a long run of `a`, and commands are long and model-written. The literal
    pieces between stars are found left to right with `str.find`; taking the
    leftmost place for each is always right for star-only patterns.
    """

    __slots__ = ("head", "tail", "middle", "least", "exact")

    def __init__(self, pattern: str) -> None:
        parts = pattern.split("*")
        self.exact = len(parts) == 1
        self.head = parts[0]
        self.tail = parts[-1] if len(parts) > 1 else ""
        self.middle = [p for p in parts[1:-1] if p]
        self.least = sum(len(p) for p in parts)

    def match(self, value: str) -> bool:
        if self.exact:
            return value == self.head
        if (
            len(value) < self.least
            or not value.startswith(self.head)
            or not value.endswith(self.tail)
        ):
            return False
        pos, end = len(self.head), len(value) - len(self.tail)
        for piece in self.middle:
            at = value.find(piece, pos, end)
            if at < 0:
                return False
            pos = at + len(piece)
        return True
