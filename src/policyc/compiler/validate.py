"""Stage `validate`: MergedPolicy -> MergedPolicy, or the build errors of SPEC section 4.

Every problem is reported, each at the rule that causes it. The checks are the
runtime's (`runtime.checks.rule_problem`), so a grant made after build is
refused for exactly the reasons a bundle is.
"""

from __future__ import annotations

from ..errors import ErrorSink, PolicyError
from ..runtime.checks import rule_problem
from .ir import MergedPolicy

HELP = {
    "no_matcher": "declare the tool with a matcher (`tool NAME prefix(FIELD)` or `glob(FIELD)`), or drop the specifier",
    "tool_glob": "a tool-name glob may only stand bare, in a deny or ask list",
    "invalid_rule": "every rule needs a tool name",
    "bad_domain": "a domain rule names a host (`example.com`) or its subdomains (`*.example.com`)",
    "no_base_dir": "anchor the pattern at / ~/ or ./",
    "bad_operator": "write a rule for each part of the command (`Bash(cd web)`, `Bash(npm test)`); deny the part that does harm (`Bash(nc:*)`)",
    "bad_quotes": "close the quote",
    "bad_path": "name the folder the `..` leads to (`./a/../b` is `./b`), or put the `..` before any wildcard",
}


def validate(merged: MergedPolicy) -> MergedPolicy:
    errors = ErrorSink()
    if merged.default is None:
        errors.add(
            PolicyError(
                "no_default",
                "the policy has no default",
                merged.bundle.default_span,
                "choose one explicitly: `default ask`, `default deny` or `default allow`",
            )
        )
    said = set()  # (where, kind): a rule an alias expands (Claude Code's Read) once
    for action in ("deny", "ask", "allow"):
        for row in getattr(merged, action):
            problem = rule_problem(row.rule, action, merged.tools)
            if problem is not None:
                kind, text = problem
                if row.span is not None and (row.span, kind) in said:
                    continue
                said.add((row.span, kind))
                message = text.removeprefix("agentpolicy: ")
                if kind == "no_matcher":
                    known = sorted(t for t, s in merged.tools.items() if s.match)
                    near = [t for t in known if t.lower() == row.rule.tool.lower()]
                    hint = f"; did you mean {near[0]}? names are case sensitive" if near else ""
                    message += hint
                errors.add(
                    PolicyError(kind, f"{message} (in the {action} list)", row.span, HELP[kind])
                )
    errors.check()
    return merged
