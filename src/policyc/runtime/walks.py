"""The pure-Python walks: one closure per tool, over its frozen trie.

`fast.FastPath` builds and freezes the tries and picks the walk; these are
the walks an install without a C compiler runs (`_walks.pyx` has the same
steps compiled, reaching the same node and verdict), and the inner-glob
tests that generated modules call (`glob_hit`). Each walk answers the
common call, a plain dict holding a plain str, and hands anything else
back: None where the call must be decided in full.
"""

from __future__ import annotations

from .matchers import compile_glob, field_value
from .verdict import Verdict


def glob_hit(tails: dict | None, chain: tuple, value: str) -> bool:
    """Whether an inner-glob specifier of the tool matches `value`.

    `tails`: the globs whose tail holds a space, by the tail's last token
    (as their distinct tails and the globs: see `fast._tail_group`), of every
    node from the root to the one the walk stopped at (or more);
    `chain`: the other globs of every node from the root to the one
    the walk stopped at (a glob can match only values that pass its node).
    Kept for generated modules, which hand such a value to their table.
    """
    return bool(glob_matches(tails, chain, value))


def glob_matches(tails: dict | None, chain: tuple, value: str) -> tuple[str, ...]:
    """The specs of every inner glob of the tool that matches `value` (see `glob_hit`)."""
    if tails:
        under = tails.get(value.rpartition(" ")[2])
        if under is not None and value.endswith(under[0]):
            chain = (*chain, under[1])
    return matching(chain, value)


def matching(groups: tuple, value: str) -> tuple[str, ...]:
    """The specs of the globs in `groups` that match `value`, in the groups' order.

    A tuple, not a set: for one trie node the order is fixed (its chain's
    groups, then the one tails group of the value's last token, whose specs
    no other group holds), so equal sets of specs give equal tuples, and a
    tuple is built and hashed in half the time.
    """
    found = []
    for group in groups:
        for head, tail, spec, least in group:
            if (
                value.startswith(head)
                and value.endswith(tail)
                and (
                    len(value) >= least
                    if least >= 0
                    else compile_glob(spec).fullmatch(value) is not None
                )
            ):
                found.append(spec)
    return tuple(found)


# The frozen tries the walks read:
#
# Token trie node: (children's `get` {token: node}.get, end, past, chain,
# tails, children {token: node}, from which the compiled walk builds its
# table of edges); `end` is the verdict for a value whose tokens end at this node,
# `past` for one that goes on, `chain` the groups of inner globs without a
# space in their tail on this node and its ancestors, None when no inner glob
# at all hangs on them (the bound `get` saves a lookup per token); `tails`
# the globs with a space in their tail on this node and its ancestors, by
# the tail's last token, each as (their distinct tails, the globs) (see
# `fast._tail_group`; the map empty if none; None when `chain` is). A small dict
# per path, not one per tool: at 100,000 rules, with each call made once
# among 3,000 others, the `bash` walk took ~1.7 us with the tool's one dict
# (its lines rarely in the CPU cache) and ~1.4 us with these (measured).
# Then, only where `chain` is not None, the node's depth and the bags that
# settled `end` and `past`, for values inner globs match (`fast.FastPath._settle_globs`).
# Character trie node: (children {first char: (label, node)}, past, is_key).


def glob_walker(
    field: str, root: tuple, depth: int, tail_ends: frozenset, none: Verdict, settle_globs
):
    # `settle_globs(node, count, specs)`: the verdict of a value inner
    # globs match, its split's token count `count`.
    def decide(args: object) -> Verdict | None:
        if type(args) is dict:
            value = args.get(field)
            if type(value) is str:
                node = root
                # No path is deeper than `depth` tokens, so split no further.
                tokens = value.split(" ", depth)
                for token in tokens:
                    child = node[0](token)
                    if child is None:
                        verdict = node[2]
                        break
                    node = child
                else:
                    verdict = node[1]
                chain = node[3]
                if chain is not None:
                    tails = node[4]
                    if not chain:
                        # Only tails on the path: a value can meet one only if it ends
                        # as one of them does, which its last character tells cheaply.
                        if value[-1:] not in tail_ends:
                            return verdict
                        last = tokens[-1]  # the last token, unless the split stopped short
                        if " " in last:
                            last = last.rpartition(" ")[2]
                        # Then whether it ends as one of the tails under that
                        # token does (one C call over their distinct tails): a
                        # value under `--dry-run` met every carve-out ending so.
                        group = tails.get(last)
                        if group is None or not value.endswith(group[0]):
                            return verdict
                        specs = matching((group[1],), value)  # (no second lookup)
                    else:
                        specs = glob_matches(tails, chain, value)
                    if specs:  # an inner glob matches
                        return settle_globs(node, len(tokens), specs)
                return verdict
            if value is None:  # absent or null: field_value's answer, without its call
                return none
        # Not a plain dict holding a plain str: a subclass is decided in full.
        return none if field_value(args, field) is None else None

    return decide


def prefix_walker(field: str, root: tuple, exact: dict, none: Verdict):
    missing = object()

    def decide(args: object) -> Verdict | None:
        if type(args) is dict:
            value = args.get(field)
            if type(value) is str:
                hit = exact.get(value, missing)
                if hit is not missing:
                    return hit
                # `fast._deepest` over the frozen tuples, inline: a call more costs
                # a prefix decision about 10% (measured).
                best = node = root
                pos, n = 0, len(value)
                while pos < n:
                    edge = node[0].get(value[pos])
                    if edge is None:
                        break
                    label, child = edge
                    if not value.startswith(label, pos):
                        break
                    node, pos = child, pos + len(label)
                    if node[2]:
                        best = node
                return best[1]
            if value is None:  # absent or null: field_value's answer, without its call
                return none
        # Not a plain dict holding a plain str: a subclass is decided in full.
        return none if field_value(args, field) is None else None

    return decide


def probe_walker(
    field: str,
    exact: dict,
    lengths: list,
    heads: frozenset | None,
    by_key: dict,
    base,
    none: Verdict,
):
    # The same first lines as `prefix_walker`'s: each walk is one closure, no
    # shared helper to call on the hot path.
    missing = object()
    shortest = lengths[-1] if lengths else 0

    def decide(args: object) -> Verdict | None:
        if type(args) is dict:
            value = args.get(field)
            if type(value) is str:
                hit = exact.get(value, missing)
                if hit is not missing:
                    return hit
                # A value that starts no key is answered by one lookup: every
                # key starts with one of `heads`, all as long as the shortest key.
                if heads is not None and value[:shortest] not in heads:
                    return base
                # (A slice past the value's end is the value: a match too, and the longest.)
                for n in lengths:
                    hit = by_key.get(value[:n], missing)
                    if hit is not missing:
                        return hit
                return base
            if value is None:  # absent or null: field_value's answer, without its call
                return none
        # Not a plain dict holding a plain str: a subclass is decided in full.
        return none if field_value(args, field) is None else None

    return decide


def constant(verdict: Verdict):
    def decide(args: object) -> Verdict:
        return verdict

    return decide
