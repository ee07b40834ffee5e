"""The JSON bundle front-end: the conformance fixture's `policy` object plus
top-level `matchers`, `aliases` and `examples` -> `Bundle`.

    {"default": "ask",
     "matchers": {"bash": {"match": "glob", "field": "command"}},
     "aliases": {"Bash": ["bash"]},
     "sources": [{"name": "managed", "rank": 3, "trusted": true,
                  "deny": "Bash(curl:*)", "notes": {"Bash(curl:*)": "use fetch"}}],
     "allow": "read", "deny": "", "ask": "",
     "examples": [{"name": "...", "tool": "bash", "args": {...}, "want": {"action": "allow"}}]}

The json module parses; a small Lark JSON grammar then maps every JSON
pointer to its line and column, so errors point into the file.
"""

from __future__ import annotations

import json
from functools import cache

from lark import Lark, Token, Tree

from ..errors import ErrorSink, PolicyError, Span
from ..runtime.jsonio import loads
from .ast import AliasDecl, Bundle, Example, RuleLists, RuleRef, SourceDecl, ToolDecl
from .parser import DEFAULTS, MATCHERS, SPLITTERS, VERDICT_ACTIONS
from .rules import parse_rule_list

TOP_MEMBERS = {
    "default",
    "matchers",
    "aliases",
    "sources",
    "allow",
    "deny",
    "ask",
    "notes",
    "examples",
}
SOURCE_MEMBERS = {"name", "rank", "trusted", "path", "hash", "allow", "deny", "ask", "notes"}
MATCHER_MEMBERS = {"match", "field", "split", "write", "read", "fetch"}
EXAMPLE_MEMBERS = {"name", "tool", "args", "confined", "subjects", "subjects_error", "want"}
WANT_MEMBERS = {"action", "held", "rule", "source", "reason", "subject", "confined"}

_JSON_GRAMMAR = r"""
?value: object | array | STRING | NUMBER | "true" | "false" | "null"
array: "[" [value ("," value)*] "]"
object: "{" [pair ("," pair)*] "}"
pair: STRING ":" value
STRING: /"(?:[^"\\]|\\.)*"/
NUMBER: /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/
%ignore /[ \t\r\n]+/
"""


@cache
def _json_lark() -> Lark:
    return Lark(_JSON_GRAMMAR, start="value", parser="lalr", propagate_positions=True)


def _positions(text: str) -> dict[str, int]:
    """JSON pointer -> offset of the value it names."""
    out: dict[str, int] = {}

    def walk(node: Tree | Token | None, pointer: str) -> None:
        if node is None:
            return
        if isinstance(node, Token):
            out[pointer] = node.start_pos or 0
            return
        out[pointer] = node.meta.start_pos if not node.meta.empty else 0
        if node.data == "object":
            for pair in node.children:
                if pair is None:
                    continue
                key = json.loads(str(pair.children[0]))
                walk(pair.children[1], f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
        elif node.data == "array":
            for i, child in enumerate(c for c in node.children if c is not None):
                walk(child, f"{pointer}/{i}")

    try:
        walk(_json_lark().parse(text), "")
    except Exception:  # positions are a courtesy; the json module already accepted the text
        pass
    return out


class _Reader:
    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self.where = _positions(text)
        self.errors = ErrorSink()

    def span(self, pointer: str, length: int = 1) -> Span:
        return Span.at_offset(self.file, self.text, self.where.get(pointer, 0), length)

    def error(self, kind: str, message: str, pointer: str, help: str = "") -> None:
        self.errors.add(
            PolicyError(kind, f"{message} (at {pointer or '/'})", self.span(pointer), help)
        )

    def members(self, obj: object, allowed: set[str], pointer: str, what: str) -> dict:
        if not isinstance(obj, dict):
            self.error("bad_type", f"{what} must be a JSON object", pointer)
            return {}
        for key in obj:
            if key not in allowed:
                self.error(
                    "unknown_member",
                    f"unknown member {key!r} in {what}",
                    f"{pointer}/{key}",
                    f"{what} takes: {', '.join(sorted(allowed))}",
                )
        return obj

    def typed(
        self, obj: dict, key: str, kind: type | tuple, pointer: str, default: object = None
    ) -> object:
        value = obj.get(key, default)
        if key in obj and not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            names = (
                kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            )
            self.error("bad_type", f"{key} must be {names}", f"{pointer}/{key}")
            return default
        return value

    def rule_lists(self, obj: dict, pointer: str) -> RuleLists:
        notes = self.typed(obj, "notes", dict, pointer, {}) or {}
        used: set[str] = set()
        lists: dict[str, tuple[RuleRef, ...]] = {}
        for action in ("deny", "ask", "allow"):
            text = self.typed(obj, action, str, pointer, "") or ""
            at = f"{pointer}/{action}"
            refs = parse_rule_list(
                text,
                file=self.file,
                full_text=self.text,
                offset=self.where.get(at, 0) + 1,  # past the opening quote
                errors=self.errors,
            )
            out = []
            for ref in refs:
                note = notes.get(str(ref.rule), "")
                if str(ref.rule) in notes:
                    used.add(str(ref.rule))
                out.append(
                    RuleRef(type(ref.rule)(ref.rule.tool, ref.rule.spec, note=note), ref.span)
                )
            lists[action] = tuple(out)
        for key in notes:
            if key not in used:
                self.error(
                    "orphan_note",
                    f"note for {key!r}, which is not a rule of this source",
                    f"{pointer}/notes/{key}",
                    "a note is keyed by the rule exactly as written in the list",
                )
            elif not isinstance(notes[key], str):
                self.error("bad_type", "a note must be a string", f"{pointer}/notes/{key}")
        return RuleLists(lists["deny"], lists["ask"], lists["allow"])

    def build(self, data: object) -> Bundle:
        top = self.members(data, TOP_MEMBERS, "", "a bundle")
        default = top.get("default")
        if default is not None and default not in DEFAULTS:
            self.error(
                "bad_default",
                f"unknown default {default!r}",
                "/default",
                'use "allow", "deny" or "ask"',
            )
            default = None
        tools = []
        for name, entry in (self.typed(top, "matchers", dict, "", {}) or {}).items():
            at = f"/matchers/{name}"
            entry = self.members(entry, MATCHER_MEMBERS, at, "a matcher")
            match = entry.get("match")
            if match is not None and match not in MATCHERS:
                self.error(
                    "bad_matcher",
                    f"unknown matcher {match!r}",
                    f"{at}/match",
                    "use " + ", ".join(f'"{m}"' for m in MATCHERS),
                )
                match = None
            field = self.typed(entry, "field", str, at)
            if match and field is None:
                self.error(
                    "bad_matcher",
                    "a matcher needs the field it reads",
                    at,
                    'add "field": "command" (the args member)',
                )
            split = entry.get("split", False)
            write = self.typed(entry, "write", str, at, "") or ""
            read = self.typed(entry, "read", str, at, "") or ""
            fetch = self.typed(entry, "fetch", str, at, "") or ""
            if (write or read or fetch) and split != "shell":
                self.error(
                    "bad_split_param",
                    "write, read and fetch name the shell splitter's file and URL tools",
                    at,
                    'add "split": "shell"',
                )
            if not isinstance(split, bool) and split not in SPLITTERS:
                self.error(
                    "unknown_splitter",
                    f"unknown splitter {split!r}",
                    f"{at}/split",
                    "use true when the host supplies the subjects",
                )
                split = False
            tools.append(
                ToolDecl(
                    name,
                    match,
                    field if match else None,
                    split,
                    write,
                    read,
                    self.span(at),
                    fetch=fetch,
                )
            )
        aliases = []
        for name, names in (self.typed(top, "aliases", dict, "", {}) or {}).items():
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                self.error("bad_type", "an alias maps to a list of tool names", f"/aliases/{name}")
                continue
            aliases.append(AliasDecl(name, tuple(names), self.span(f"/aliases/{name}")))
        sources = []
        for i, entry in enumerate(self.typed(top, "sources", list, "", []) or []):
            at = f"/sources/{i}"
            entry = self.members(entry, SOURCE_MEMBERS, at, "a source")
            sources.append(
                SourceDecl(
                    name=self.typed(entry, "name", str, at, "") or "",
                    rank=self.typed(entry, "rank", int, at, 0) or 0,
                    trusted=bool(self.typed(entry, "trusted", bool, at, False)),
                    path=self.typed(entry, "path", str, at, "") or "",
                    hash=self.typed(entry, "hash", str, at, "") or "",
                    rules=self.rule_lists(entry, at),
                    span=self.span(at),
                )
            )
        host = self.rule_lists(top, "")
        examples = []
        for i, entry in enumerate(self.typed(top, "examples", list, "", []) or []):
            example = self.example(entry, f"/examples/{i}")
            if example is not None:
                examples.append(example)
        bundle = Bundle(
            file=self.file,
            default=default,
            tools=tuple(tools),
            aliases=tuple(aliases),
            sources=tuple(sources),
            host=host,
            examples=tuple(examples),
            default_span=self.span("/default"),
            text=self.text,
        )
        self.errors.check()
        return bundle

    def example(self, entry: object, at: str) -> Example | None:
        entry = self.members(entry, EXAMPLE_MEMBERS, at, "an example")
        name = self.typed(entry, "name", str, at, "") or at
        tool = self.typed(entry, "tool", str, at)
        want = self.members(entry.get("want"), WANT_MEMBERS, f"{at}/want", "an example's want")
        if tool is None or "action" not in want:
            self.error(
                "incomplete_example", f"example {name!r} needs a tool and a wanted action", at
            )
            return None
        if want["action"] not in VERDICT_ACTIONS:
            self.error(
                "bad_action",
                f"unknown verdict action {want['action']!r}",
                f"{at}/want/action",
                "a verdict is allow, block or defer",
            )
        subjects = entry.get("subjects")
        if "subjects_error" in entry:
            subjects = str(entry["subjects_error"])
        return Example(
            name,
            tool,
            entry.get("args"),
            dict(want),
            entry.get("confined"),
            subjects,
            self.span(at),
        )


def parse_json_bundle(text: str, file: str = "<input>") -> Bundle:
    """Parse a JSON bundle. Raises `PolicyErrors` with every problem found."""
    try:
        data = loads(text)
    except json.JSONDecodeError as exc:
        errors = ErrorSink()
        errors.add(
            PolicyError(
                "bad_json",
                f"not valid JSON: {exc.msg}",
                Span.at_offset(file, text, exc.pos),
                "check for a missing comma, quote or brace near here",
            )
        )
        errors.check()
    return _Reader(file, text).build(data)
