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
        if _splits_commands(spec):
            words = command_words(rule.pattern or "")
            if type(words) is str:
                kind = "bad_quotes" if words == "quote" else "bad_operator"
                why = (
                    "a quote is not closed"
                    if words == "quote"
                    else "it holds a shell operator, and each part of a command is held to "
                    "the rules alone (`a && b` runs when each part is allowed)"
                )
                return kind, f"policyc: {rule} never matches: {why}"
    return None


def _splits_commands(spec: ToolSpec | None) -> bool:
    return spec is not None and spec.split == "shell" and spec.match in ("prefix", "glob")


_BLANKS = " \t\n"
_OPERATOR_CHARS = "|&;<>()`"


def command_words(text: str) -> list[str] | str:
    """A command rule's words, as the shell reads them (quotes removed), or
    why none can be read: "quote" (one not closed) or "operator" (`|`,
    `&&`, `;`, a redirect, `$(…)` or a backquote outside quotes: the shell
    splitter hands rules each part alone, without its redirects)."""
    words: list[str] = []
    word: list[str] = []
    started, i, n = False, 0, len(text)
    while i < n:
        char = text[i]
        if char in _BLANKS:
            if started:
                words.append("".join(word))
                word, started = [], False
            i += 1
            continue
        started = True
        if char == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return "quote"
            word.append(text[i + 1 : close])
            i = close + 1
        elif char == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n and text[i + 1] in '"\\$`':
                    i += 1
                elif text[i] == "`" or text.startswith("$(", i):
                    return "operator"
                word.append(text[i])
                i += 1
            if i >= n:
                return "quote"
            i += 1
        elif char == "\\" and i + 1 < n:
            word.append(text[i + 1])
            i += 2
        elif char in _OPERATOR_CHARS or text.startswith("$(", i):
            return "operator"
        else:
            word.append(char)
            i += 1
    if started:
        words.append("".join(word))
    return words


def canonical_rule(rule: Rule, tools: dict[str, ToolSpec]) -> Rule:
    """`rule` with its command written as the shell splitter writes the
    part it hands rules (`splitters.shell.quote_join`): its words, one blank
    between each, quoted only where one holds a blank, a quote or an
    operator's character. `Bash(rm -rf "/")`, `Bash( rm:*)`,
    `Bash(git push :*)` (whose `:*` ends at a word) and `Bash(cat '~/x')`
    met nothing, as no part is so written. A `*` stays a wildcard, quoted
    or not. A rule whose words cannot be read is kept (`rule_problem`
    refuses it); so is a prefix rule's blank before `:*`, which a
    character prefix (`npm test :*`) ends a word with."""
    pattern = rule.pattern
    if pattern is None or not _splits_commands(tools.get(rule.tool)):
        return rule
    head, tail = (pattern[:-2], ":*") if pattern.endswith(":*") else (pattern, "")
    words = command_words(head)
    if type(words) is str or not words and not tail:
        return rule
    from .splitters.shell import quote_join  # (compiling and granting only)

    text = quote_join(words)
    if tail and head[-1:] in _BLANKS and tools[rule.tool].match == "prefix" and text:
        text += " "
    text += tail
    if text == pattern or not tail and text.endswith(":*"):
        return rule  # (as it was, or it would read as a prefix rule)
    return Rule(rule.tool, ("!" if rule.carve_out else "") + text, rule.source, rule.note)


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
