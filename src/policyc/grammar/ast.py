"""The bundle AST: what every front-end (.policy, JSON, ...) produces.

Frozen dataclasses with slots; spans take no part in equality, so a bundle
printed and parsed again compares equal to the original.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import Span
from ..runtime.model import Rule
from ..runtime.splitters import IMPLIED_SPLIT


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A rule as written in one list, with where it was written.

    The rule carries no source yet (the merge stamps it) but does carry its note.
    """

    rule: Rule
    span: Span = dataclasses.field(default_factory=Span, compare=False)


@dataclass(frozen=True, slots=True)
class RuleLists:
    deny: tuple[RuleRef, ...] = ()
    ask: tuple[RuleRef, ...] = ()
    allow: tuple[RuleRef, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolDecl:
    name: str
    match: str | None = None
    field: str | None = None
    split: bool | str = False
    write: str = ""  # shell splitter: where write-redirect targets go ("" = edit)
    read: str = ""  # shell splitter: where read-redirect targets go ("" = read)
    span: Span = dataclasses.field(default_factory=Span, compare=False)
    allow_glob: bool = False  # a tool-name glob that may be allowed (Claude Code's mcp__server)
    fetch: str = ""  # shell splitter: where the URLs it fetches go ("" = nowhere)

    def __post_init__(self) -> None:
        # A `path` or `domain` matcher reads its value through the splitter it
        # implies when the tool names none (see `IMPLIED_SPLIT`), whichever
        # front end declared it.
        if self.split is False and self.match in IMPLIED_SPLIT:
            object.__setattr__(self, "split", IMPLIED_SPLIT[self.match])


@dataclass(frozen=True, slots=True)
class AliasDecl:
    name: str
    tools: tuple[str, ...]
    span: Span = dataclasses.field(default_factory=Span, compare=False)


@dataclass(frozen=True, slots=True)
class SourceDecl:
    name: str
    rank: int = 0
    trusted: bool = False
    path: str = ""
    hash: str = ""
    rules: RuleLists = RuleLists()
    span: Span = dataclasses.field(default_factory=Span, compare=False)


@dataclass(frozen=True, slots=True)
class Example:
    """A call the bundle says must get a verdict; checked at compile time.

    `want` holds the verdict fields the author wrote (action always);
    only those are compared.
    """

    name: str
    tool: str
    args: object
    want: dict
    confined: str | None = None
    subjects: object = None
    span: Span = dataclasses.field(default_factory=Span, compare=False)


@dataclass(frozen=True, slots=True)
class Bundle:
    file: str = dataclasses.field(compare=False)
    default: str | None
    tools: tuple[ToolDecl, ...] = ()
    aliases: tuple[AliasDecl, ...] = ()
    sources: tuple[SourceDecl, ...] = ()
    host: RuleLists = RuleLists()
    examples: tuple[Example, ...] = ()
    default_span: Span = dataclasses.field(default_factory=Span, compare=False)
    text: str = dataclasses.field(default="", compare=False, repr=False)
    # Claude Code settings files to import as sources: (scope, path as written, trusted, span)
    claude: tuple[tuple[str, str, bool, Span], ...] = dataclasses.field(default=(), compare=False)
