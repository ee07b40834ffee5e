"""The rule-list grammar (SPEC section 1), by hand.

A rule list is tiny and its error kinds and token spans are contract, so a
direct scanner states them more plainly than a parser generator would; it
lives in the runtime because grant sets parse rule lists after build.
"""

from __future__ import annotations

from .model import HOST, Rule, Source

WHITESPACE = frozenset(" \t\n\v\f\r")


class RuleSyntaxError(ValueError):
    """A rule list that does not parse. `offset` indexes the input string."""

    HELP = {
        "unbalanced_parentheses": "every `(` needs a matching `)`; a specifier may hold balanced parentheses only",
        "missing_tool_name": "write the tool name before the parenthesis, as in `Bash(git status:*)`",
        "text_after_specifier": "a rule ends at the `)` that closes its specifier; separate rules with whitespace",
        "empty_specifier": "write the tool name alone to match every call, or put a pattern inside the parentheses",
        "empty_carve_out": "a carve-out needs a pattern after `!`, as in `Read(!.env.example)`",
    }

    def __init__(self, kind: str, token: str, offset: int):
        super().__init__(f"{kind}: {token!r}")
        self.kind = kind
        self.token = token
        self.offset = offset

    @property
    def help(self) -> str:
        return self.HELP.get(self.kind, "")

    def describe(self) -> str:
        what = {
            "unbalanced_parentheses": "unbalanced parentheses in",
            "missing_tool_name": "no tool name before the specifier in",
            "text_after_specifier": "text after the closing parenthesis in",
            "empty_specifier": "empty specifier in",
            "empty_carve_out": "carve-out with no pattern in",
        }[self.kind]
        return f"{what} `{self.token}`"


def _check_parentheses(text: str) -> None:
    depth = 0
    token_start = 0
    for i, ch in enumerate(text):
        if depth == 0 and ch in WHITESPACE:
            token_start = i + 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                raise RuleSyntaxError(
                    "unbalanced_parentheses", text[token_start : i + 1], token_start
                )
            depth -= 1
    if depth:
        raise RuleSyntaxError("unbalanced_parentheses", text[token_start:], token_start)


def tokens(text: str) -> list[tuple[int, str]]:
    """Split on whitespace outside parentheses; (offset, token) pairs.

    Assumes balanced parentheses (checked first by `parse_rules`).
    """
    out: list[tuple[int, str]] = []
    depth = 0
    start = -1
    for i, ch in enumerate(text):
        if depth == 0 and ch in WHITESPACE:
            if start >= 0:
                out.append((start, text[start:i]))
                start = -1
            continue
        if start < 0:
            start = i
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
    if start >= 0:
        out.append((start, text[start:]))
    return out


def parse_token(token: str, offset: int = 0) -> tuple[str, str | None]:
    """One token into (tool, spec); spec is None for a bare rule."""
    open_at = token.find("(")
    if open_at < 0:
        return token, None
    if open_at == 0:
        raise RuleSyntaxError("missing_tool_name", token, offset)
    depth = 0
    close_at = -1
    for i in range(open_at, len(token)):
        if token[i] == "(":
            depth += 1
        elif token[i] == ")":
            depth -= 1
            if depth == 0:
                close_at = i
                break
    if close_at != len(token) - 1:
        raise RuleSyntaxError("text_after_specifier", token, offset)
    spec = token[open_at + 1 : close_at]
    if spec == "":
        raise RuleSyntaxError("empty_specifier", token, offset)
    if spec == "!":
        raise RuleSyntaxError("empty_carve_out", token, offset)
    return token[:open_at], spec


def parse_rules_with_offsets(text: str, source: Source = HOST) -> list[tuple[int, Rule]]:
    """Parse a rule list, keeping each rule's offset in `text`."""
    _check_parentheses(text)
    out = []
    for offset, token in tokens(text):
        tool, spec = parse_token(token, offset)
        out.append((offset, Rule(tool, spec, source)))
    return out


def parse_rules(text: str, source: Source = HOST) -> list[Rule]:
    """Parse a rule list (SPEC section 1). Raises `RuleSyntaxError`."""
    return [rule for _, rule in parse_rules_with_offsets(text, source)]
