"""Rule lists inside a bundle: the runtime's rule grammar, plus spans.

The grammar itself (SPEC section 1) lives in `policyc.runtime.rules`, since
grant sets parse rule lists after build; this module places each rule and each
syntax error in the bundle file.
"""

from __future__ import annotations

from ..errors import ErrorSink, PolicyError, Span
from ..runtime.model import Rule
from ..runtime.rules import WHITESPACE, RuleSyntaxError, parse_rules_with_offsets
from .ast import RuleRef


def strip_comment(text: str) -> str:
    """Cut a `#` comment that starts a token outside parentheses.

    `#` inside a specifier (`Bash(echo #1)`) or inside a token stays literal.
    """
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "#" and depth == 0 and (i == 0 or text[i - 1] in WHITESPACE):
            return text[:i]
    return text


def parse_rule_list(
    text: str,
    *,
    file: str,
    full_text: str,
    offset: int,
    errors: ErrorSink,
    note: str = "",
) -> list[RuleRef]:
    """Parse one rule list found at `offset` of `full_text`; errors go to `errors`."""
    try:
        parsed = parse_rules_with_offsets(text)
    except RuleSyntaxError as exc:
        errors.add(
            PolicyError(
                exc.kind,
                exc.describe(),
                Span.at_offset(file, full_text, offset + exc.offset, len(exc.token)),
                exc.help,
            )
        )
        return []
    return [
        RuleRef(
            Rule(rule.tool, rule.spec, note=note),
            Span.at_offset(file, full_text, offset + at, len(str(rule))),
        )
        for at, rule in parsed
    ]
