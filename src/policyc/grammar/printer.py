"""`Bundle` -> `.policy` text: the inverse of `parser.parse_policy`.

Used to convert JSON bundles to the reviewable format and, in tests, for the
print-then-parse round trip. Every rule gets its own line so its note can
follow it.
"""

from __future__ import annotations

import json

from .ast import Bundle, RuleLists


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _rules(lists: RuleLists, indent: str) -> list[str]:
    out = []
    for action in ("deny", "ask", "allow"):
        for ref in getattr(lists, action):
            out.append(f"{indent}{action} {ref.rule}")
            if ref.rule.note:
                out.append(f"{indent}because {_string(ref.rule.note)}")
    return out


def format_policy(bundle: Bundle) -> str:
    lines = []
    if bundle.default is not None:
        lines.append(f"default {bundle.default}")
    for tool in bundle.tools:
        line = f"tool {tool.name}"
        if tool.match:
            line += f" {tool.match}({tool.field})"
        if tool.split is True:
            line += " split"
        elif tool.split:
            line += f" split {tool.split}"
            if tool.write:
                line += f" write={tool.write}"
            if tool.read:
                line += f" read={tool.read}"
            if tool.fetch:
                line += f" fetch={tool.fetch}"
        lines.append(line)
    for scope, path, trusted, _ in bundle.claude:
        lines.append(f"claude {scope} {_string(path)}" + (" trusted" if trusted else ""))
    for alias in bundle.aliases:
        lines.append(f"alias {alias.name} = {' '.join(alias.tools)}")
    for source in bundle.sources:
        head = f"source {source.name} rank {source.rank} {'trusted' if source.trusted else 'untrusted'}"
        if source.path:
            head += f" path {_string(source.path)}"
        if source.hash:
            head += f" hash {_string(source.hash)}"
        lines.append(head + " {")
        lines.extend(_rules(source.rules, "  "))
        lines.append("}")
    lines.extend(_rules(bundle.host, ""))
    for example in bundle.examples:
        lines.append(f"example {_string(example.name)} {{")
        lines.append(f"  call {example.tool} {json.dumps(example.args, ensure_ascii=False)}")
        if example.confined is not None:
            lines.append(f"  confined {_string(example.confined)}")
        if example.subjects is not None:
            lines.append(f"  subjects {json.dumps(example.subjects, ensure_ascii=False)}")
        want = f"  want {example.want['action']}"
        for key, value in example.want.items():
            if key == "held":
                want += " held" if value else ""
            elif key != "action":
                want += f" {key} {_string(value)}"
        lines.append(want)
        lines.append("}")
    return "\n".join(lines) + "\n"
