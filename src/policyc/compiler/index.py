"""Stages `order_rows` and `build_index`.

order_rows:  MergedPolicy -> MergedPolicy (deny, ask, allow; merge order within each)
build_index: MergedPolicy -> DecisionTable (carve-outs resolved into row guards,
             a per-tool index per list; see `runtime.index`)

Precedence between lists is fixed (deny > ask > allow > default) and within a
list the first firing row wins, so the merge order is already the row order;
`order_rows` states that and checks it instead of re-sorting.
"""

from __future__ import annotations

from ..runtime.index import build_list_index
from ..runtime.paths import broad_for
from .ir import DecisionTable, MergedPolicy


def order_rows(merged: MergedPolicy) -> MergedPolicy:
    ranks = {s.name: s.rank for s in merged.sources}
    for action in ("deny", "ask", "allow"):
        rows = getattr(merged, action)
        sourced = [ranks[r.rule.source.name] for r in rows if r.rule.source.name]
        # Merge put the most authoritative source first, so its rule is the one cited.
        assert sourced == sorted(sourced, reverse=True), "merge must order sources by rank"
    return merged


def build_index(merged: MergedPolicy) -> DecisionTable:
    known = set(merged.tools)
    for action in ("deny", "ask", "allow"):
        known |= {row.rule.tool for row in getattr(merged, action) if not row.rule.glob}
    lists = {
        action: build_list_index(
            [row.rule for row in getattr(merged, action)],
            merged.tools,
            known,
            broad=broad_for(action, False),
        )
        for action in ("deny", "ask", "allow")
    }
    return DecisionTable(merged, lists)
