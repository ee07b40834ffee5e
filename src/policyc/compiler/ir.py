"""The compiler's intermediate forms, in the order the stages produce them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import Span
from ..grammar.ast import Bundle
from ..runtime.index import ListIndex, ToolSpec
from ..runtime.model import Rule, Source


@dataclass(frozen=True, slots=True)
class Row:
    """One rule in one action list, stamped with its source, with its span."""

    rule: Rule
    span: Span = dataclasses.field(default_factory=Span, compare=False)


@dataclass(frozen=True, slots=True)
class MergedPolicy:
    """Every source's lists merged by rank, host rules last (SPEC section 3)."""

    bundle: Bundle
    default: str | None
    tools: dict[str, ToolSpec]
    aliases: dict[str, list[str]]
    sources: tuple[Source, ...]  # host first, then by rank descending
    deny: tuple[Row, ...]
    ask: tuple[Row, ...]
    allow: tuple[Row, ...]
    withheld: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class DecisionTable:
    """Ordered, guarded, indexed lists: what the artifact stores."""

    merged: MergedPolicy
    lists: dict[str, ListIndex]
