"""The `.policy` front-end: Lark parse tree -> `Bundle`.

Lark reports where the text stops making sense; `_syntax_error` turns that
into one `PolicyError` with the expected tokens in words. Everything after the
parse (rule grammar, duplicates, unknown words) is collected, so one run
reports every problem of the file.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import ErrorSink, PolicyError, Span
from ..runtime.matchers import MATCHERS as MATCHERS
from ..runtime.splitters import BUILTIN
from .ast import AliasDecl, Bundle, Example, RuleLists, RuleRef, SourceDecl, ToolDecl
from .rules import parse_rule_list, strip_comment

DEFAULTS = ("allow", "deny", "ask")
VERDICT_ACTIONS = ("allow", "block", "defer")
# Built-in splitters (`split` alone means the host supplies the subjects) and
# matchers: the runtime's own lists, so the two cannot disagree.
SPLITTERS: tuple[str, ...] = BUILTIN
SPLIT_PARAMS = ("write", "read", "fetch")  # shell: the tools redirect targets and URLs go to

EXPECTED_WORDS = {
    "ACTION": "`deny`, `ask` or `allow`",
    "RULES": "a rule list",
    "_NL": "the end of the line",
    "STRING": 'a quoted string ("...")',
    "NAME": "a name",
    "WORD": "a word",
    "INT": "a whole number",
    "JSON": "a JSON value",
    "FIELD": "a field name",
    "MATCHER": "`prefix`, `glob`, `path` or `domain`",
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "EQUAL": "`=`",
}


@cache
def _lark() -> Lark:
    grammar = resources.files("policyc.grammar").joinpath("policy.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True)


def _expected(names: set[str]) -> str:
    words = sorted({EXPECTED_WORDS.get(n, f"`{n.lower()}`" if n.isupper() else n) for n in names})
    return ", ".join(words) if words else "something else"


def _syntax_error(exc: UnexpectedInput, file: str, text: str) -> PolicyError:
    if isinstance(exc, UnexpectedCharacters):
        span = Span.at_offset(file, text, exc.pos_in_stream)
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        return PolicyError(
            "syntax_error",
            f"unexpected {ch!r}; expected {_expected(set(exc.allowed or ()))}",
            span,
            "statements are `default`, `tool`, `alias`, `source`, `deny`, `ask`, `allow` and `example`, one per line",
        )
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            return PolicyError(
                "unexpected_end",
                f"the file ends inside a statement; expected {_expected(set(exc.expected))}",
                Span.at_offset(file, text, len(text.rstrip("\n"))),
                "close every `{` with a `}` on its own line",
            )
        shown = "the end of the line" if tok.type == "_NL" else f"{str(tok)!r}"
        return PolicyError(
            "syntax_error",
            f"unexpected {shown}; expected {_expected(set(exc.expected))}",
            Span.at_offset(file, text, tok.start_pos or 0, max(1, len(str(tok).rstrip()))),
            "see the bundle format in the README",
        )
    assert isinstance(exc, UnexpectedEOF)
    return PolicyError(
        "unexpected_end",
        "the file ends inside a statement",
        Span.at_offset(file, text, len(text)),
        "close every `{` with a `}` on its own line",
    )


class _Builder:
    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text
        self.errors = ErrorSink()

    def span(self, node: Token | Tree) -> Span:
        if isinstance(node, Token):
            return Span.at_offset(self.file, self.text, node.start_pos or 0, len(str(node)))
        return Span.at_offset(self.file, self.text, node.meta.start_pos, 1)

    def error(self, kind: str, message: str, node: Token | Tree, help: str = "") -> None:
        self.errors.add(PolicyError(kind, message, self.span(node), help))

    def string(self, tok: Token) -> str:
        try:
            return json.loads(str(tok))
        except ValueError:
            self.error(
                "bad_string",
                f"bad escape in {tok}",
                tok,
                'strings use JSON escapes: \\" \\\\ \\n \\t \\u00e9',
            )
            return str(tok)[1:-1]

    def build(self, tree: Tree) -> Bundle:
        default: str | None = None
        default_span = Span.at_offset(self.file, self.text, 0)
        tools: dict[str, ToolDecl] = {}
        aliases: dict[str, AliasDecl] = {}
        sources: dict[str, SourceDecl] = {}
        host: dict[str, list[RuleRef]] = {"deny": [], "ask": [], "allow": []}
        examples: list[Example] = []
        claude: list[tuple[str, str, bool, Span]] = []
        for stmt in tree.children:
            kind = stmt.data
            if kind == "default_stmt":
                word = stmt.children[0]
                if default is not None:
                    self.error(
                        "duplicate_default",
                        "the default is set twice",
                        stmt,
                        "keep one `default` line",
                    )
                elif str(word) not in DEFAULTS:
                    self.error(
                        "bad_default",
                        f"unknown default {str(word)!r}",
                        word,
                        "write `default allow`, `default deny` or `default ask`",
                    )
                else:
                    default, default_span = str(word), self.span(stmt)
            elif kind == "tool_stmt":
                decl = self.tool(stmt)
                if decl.name in tools:
                    self.error(
                        "duplicate_tool",
                        f"tool {decl.name} is declared twice",
                        stmt,
                        "declare each tool once",
                    )
                tools[decl.name] = decl
            elif kind == "alias_stmt":
                name, *names = (str(t) for t in stmt.children)
                if name in aliases:
                    self.error(
                        "duplicate_alias",
                        f"alias {name} is declared twice",
                        stmt,
                        "list every tool in one `alias` line",
                    )
                aliases[name] = AliasDecl(name, tuple(names), self.span(stmt))
            elif kind == "source_block":
                decl = self.source(stmt)
                if decl.name in sources:
                    self.error(
                        "duplicate_source",
                        f"source {decl.name} is declared twice",
                        stmt,
                        "give each source its own name",
                    )
                sources[decl.name] = decl
            elif kind == "rule_stmt":
                action, refs = self.rule_stmt(stmt)
                host[action].extend(refs)
            elif kind == "claude_stmt":
                scope, path = str(stmt.children[0]), self.string(stmt.children[1])
                claude.append((scope, path, len(stmt.children) > 2, self.span(stmt)))
            elif kind == "example_block":
                example = self.example(stmt)
                if example is not None:
                    examples.append(example)
        bundle = Bundle(
            file=self.file,
            default=default,
            tools=tuple(tools.values()),
            aliases=tuple(aliases.values()),
            sources=tuple(sources.values()),
            host=RuleLists(tuple(host["deny"]), tuple(host["ask"]), tuple(host["allow"])),
            examples=tuple(examples),
            default_span=default_span,
            text=self.text,
            claude=tuple(claude),
        )
        self.errors.check()
        return bundle

    def tool(self, stmt: Tree) -> ToolDecl:
        name = str(stmt.children[0])
        match = field = None
        split: bool | str = False
        params: dict[str, str] = {}
        for opt in stmt.children[1:]:
            if opt.data == "matcher_opt":
                match, field = str(opt.children[0]), str(opt.children[1])
            else:
                split = True
                if opt.children:
                    word = str(opt.children[0])
                    if word not in SPLITTERS:
                        known = ", ".join(SPLITTERS) or "none yet"
                        self.error(
                            "unknown_splitter",
                            f"unknown splitter {word!r}",
                            opt.children[0],
                            f"write `split` alone when the host supplies the subjects; built-in splitters: {known}",
                        )
                    split = word
                    for param in opt.children[1:]:
                        key, value = str(param.children[0]), str(param.children[1])
                        if key not in SPLIT_PARAMS or word != "shell":
                            self.error(
                                "bad_split_param",
                                f"unknown splitter setting {key!r}",
                                param,
                                "the shell splitter takes write=TOOL, read=TOOL and fetch=TOOL",
                            )
                        params[key] = value
        return ToolDecl(
            name,
            match,
            field,
            split,
            params.get("write", ""),
            params.get("read", ""),
            self.span(stmt),
            fetch=params.get("fetch", ""),
        )

    def source(self, stmt: Tree) -> SourceDecl:
        name = str(stmt.children[0])
        rank = 0
        trust: bool | None = None
        path = digest = ""
        lists: dict[str, list[RuleRef]] = {"deny": [], "ask": [], "allow": []}
        for child in stmt.children[1:]:
            kind = child.data
            if kind == "rank_opt":
                rank = int(child.children[0])
            elif kind in ("trusted_opt", "untrusted_opt"):
                said = kind == "trusted_opt"
                if trust is not None and trust != said:
                    self.error(
                        "conflicting_trust", f"source {name} is both trusted and untrusted", child
                    )
                trust = said
            elif kind == "path_opt":
                path = self.string(child.children[0])
            elif kind == "hash_opt":
                digest = self.string(child.children[0])
            elif kind == "rule_stmt":
                action, refs = self.rule_stmt(child)
                lists[action].extend(refs)
        if trust is None:
            self.error(
                "missing_trust",
                f"source {name} does not say whether it is trusted",
                stmt,
                "write `trusted` or `untrusted` after the name: an untrusted source's allow rules are withheld",
            )
        return SourceDecl(
            name,
            rank,
            bool(trust),
            path,
            digest,
            RuleLists(tuple(lists["deny"]), tuple(lists["ask"]), tuple(lists["allow"])),
            self.span(stmt),
        )

    def rule_stmt(self, stmt: Tree) -> tuple[str, list[RuleRef]]:
        action_tok, rules_tok = stmt.children[0], stmt.children[1]
        note = ""
        if len(stmt.children) > 2:
            note = self.string(stmt.children[2].children[0])
            if not note:
                self.error(
                    "empty_note",
                    "`because` with an empty note",
                    stmt.children[2],
                    "say why the rule exists, or drop the line",
                )
        text = strip_comment(str(rules_tok))
        refs = parse_rule_list(
            text,
            file=self.file,
            full_text=self.text,
            offset=rules_tok.start_pos or 0,
            errors=self.errors,
            note=note,
        )
        return str(action_tok), refs

    def example(self, block: Tree) -> Example | None:
        name = self.string(block.children[0])
        call = want = None
        confined: str | None = None
        subjects: object = None
        for item in block.children[1:]:
            if item.data == "call_item":
                if call is not None:
                    self.error(
                        "duplicate_call",
                        f"example {name!r} has two calls",
                        item,
                        "write one example per call",
                    )
                call = (str(item.children[0]), self.json_value(item.children[1]))
            elif item.data == "confined_item":
                confined = self.string(item.children[0]) if item.children else ""
            elif item.data == "subjects_item":
                subjects = self.json_value(item.children[0])
            elif item.data == "want_item":
                want = self.want(item)
        if call is None or want is None:
            missing = "a `call` line" if call is None else "a `want` line"
            self.error(
                "incomplete_example",
                f"example {name!r} has no {missing[2:]}",
                block,
                f"add {missing}",
            )
            return None
        return Example(name, call[0], call[1], want, confined, subjects, self.span(block))

    def json_value(self, tok: Token) -> object:
        try:
            return json.loads(str(tok))
        except ValueError as exc:
            self.error(
                "bad_json",
                f"not JSON: {exc}",
                tok,
                'write the arguments as JSON, as in {"command": "git status"}',
            )
            return None

    def want(self, item: Tree) -> dict:
        action = str(item.children[0])
        if action not in VERDICT_ACTIONS:
            self.error(
                "bad_action",
                f"unknown verdict action {action!r}",
                item.children[0],
                "a verdict is `allow`, `block` or `defer`",
            )
        want: dict = {"action": action}
        for field in item.children[1:]:
            key = field.data.removeprefix("want_")
            want[key] = True if key == "held" else self.string(field.children[0])
        return want


def parse_policy(text: str, file: str = "<input>") -> Bundle:
    """Parse `.policy` text. Raises `PolicyErrors` with every problem found."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as exc:
        errors = ErrorSink()
        errors.add(_syntax_error(exc, file, text))
        errors.check()
        raise  # unreachable: check() raised
    return _Builder(file, text).build(tree)
