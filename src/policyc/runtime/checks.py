"""Rule checks shared by the compiler and by grants made after build.

The build errors of SPEC section 4 and alias expansion are needed twice: when
a bundle compiles, and when a grant set is activated in a running agent. They
live here, in the standard-library runtime, and the compiler calls them, so
the two can never disagree.
"""

from __future__ import annotations

from .domains import domain_spec
from .index import ToolSpec
from .model import Rule
from .paths import dotdot_problem

NO_DEFAULT = "agentpolicy: policy default is not set; use Allow(), Deny() or Ask()"


def rule_problem(rule: Rule, action: str, tools: dict[str, ToolSpec]) -> tuple[str, str] | None:
    """(kind, contract text) when `rule` cannot build in list `action`."""
    if not rule.tool:
        return "invalid_rule", f"agentpolicy: rule has no tool name: {rule}"
    if rule.glob:
        if rule.spec is not None:
            return "tool_glob", f"agentpolicy: tool-name glob: {rule} takes no specifier"
        if action == "allow" and not getattr(tools.get(rule.tool), "allow_glob", False):
            return (
                "tool_glob",
                f"agentpolicy: tool-name glob: {rule} is not honoured in the allow list",
            )
        return None
    if rule.spec is not None:
        spec = tools.get(rule.tool)
        if spec is None or not spec.match:
            return "no_matcher", f"agentpolicy: no matcher for the rule's tool: {rule}"
        if spec.match == "domain" and domain_spec(rule.pattern or "") is None:
            return "bad_domain", f"policyc: {rule} names no host"
        if spec.match == "path" and (rule.pattern or "").startswith("@/"):
            return "no_base_dir", f"policyc: {rule} is anchored at a source folder no grant has"
        if spec.match == "path":
            why = dotdot_problem(rule.pattern or "")
            if why is not None:
                return "bad_path", f"policyc: {rule}: {why}"
        if spec.split == "shell" and spec.match in ("prefix", "glob"):
            fixed = split_blanks(rule.pattern or "", spec.match)
            if fixed is not None:
                return (
                    "bad_blanks",
                    f"policyc: {rule} never matches: a command is split into parts with "
                    f"one blank between words and none at the ends; write {rule.tool}({fixed})",
                )
    return None


def split_blanks(pattern: str, match: str) -> str | None:
    """The command rule a split part can meet, when `pattern` holds blanks
    none can (the shell splitter hands a rule each part with its words
    joined by one blank: `Bash( rm:*)`, `Bash(curl  -X:*)`, and for the glob
    matcher, whose `:*` ends at a word, `Bash(git push :*)` never matched);
    None when it holds none. Blanks in quotes are the words' own."""
    head, tail = (pattern[:-2], ":*") if pattern.endswith(":*") else (pattern, "")
    out: list[str] = []
    quote, blank = "", False
    for char in head:
        if quote:
            quote = "" if char == quote else quote
        elif char in " \t\n":
            blank = True
            continue
        elif char in "'\"":
            quote = char
        if blank and out:
            out.append(" ")
        blank = False
        out.append(char)
    if blank and tail and match == "prefix":
        out.append(" ")  # (a character prefix: `npm test :*` ends at a word by its blank)
    fixed = "".join(out) + tail
    return None if fixed == pattern else fixed


def alias_problems(aliases: dict[str, list[str]]) -> list[str]:
    """Why an alias table is refused (`invalid_rule`), one text per problem."""
    out = []
    for key, names in aliases.items():
        if not key:
            out.append("alias with an empty name")
        elif "*" in key:
            out.append(f"alias {key} is a glob; an alias names one rule name")
        if not names:
            out.append(f"alias {key} names no tool")
        for name in names:
            if not name:
                out.append(f"alias {key} names an empty tool")
            elif "*" in name:
                out.append(f"alias {key} names the glob {name}; aliases name tools")
    return out


def expand_aliases(rules: list[Rule], aliases: dict[str, list[str]]) -> list[Rule]:
    """One rule per aliased tool, in order, keeping spec, source and note. One level."""
    out: list[Rule] = []
    for rule in rules:
        names = aliases.get(rule.tool)
        if names is None:
            out.append(rule)
        else:
            out.extend(Rule(name, rule.spec, rule.source, rule.note) for name in names)
    return out
