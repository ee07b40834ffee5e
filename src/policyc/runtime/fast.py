"""Precomputed decision paths: one walk from the field value to a verdict.

For the common call (one subject, unconfined) the verdict depends only on
the tool, the value its matcher reads and the lists in force (the policy's,
or those a scope's grant sets make: each has its own walks), and for
most values it is fixed by which exact, word-prefix and character-prefix
specifiers match, rules and carve-outs alike. Those form a tree:

- glob matcher: a value's space-separated tokens. A word-prefix spec `P:*`
  matches exactly when P's tokens start the value's tokens, and an exact spec
  when they are all of them (`str.split(" ")` loses nothing). So the rules
  and carve-outs of all three lists hang on one token trie; each node carries
  the verdict for values that end there and for values that go on past it.
- prefix matcher: exact values in a dict; character prefixes in a
  path-compressed trie whose key nodes carry the verdict of every prefix
  along their path.

The verdicts are settled when the path is built, by the same precedence the
general path applies (deny, ask, allow, default; first rule of a list whose
reaching carve-outs do not match; with grant sets, no ask a set of another
source ranked at or above it allows). A walk then costs a few dict lookups
however many rules there are. Specifiers with an inner `*` (rules and
carve-outs) mark the node of their literal head's whole tokens and are tried
only when the walk passes that node: those whose literal tail holds a space
only if the value's last character and last token are the tail's (a dict
per node, of the globs hanging on it and its ancestors), the rest always. A
value one of them matches is settled from the rules and carve-outs its
node's verdicts were settled from plus those of the matching globs, once
for each trie node it stops at, whether it ends there, and set of matching
globs (which fix its verdict); later values of the same kind look that
verdict up. Both paths are checked against the reference
interpreter by the differential tests.

Prefix matcher with few key lengths: the value is probed at each length,
longest first, in one dict of the keys' settled verdicts, instead of walked
through the character trie (compiled: hashed once, a character at a time,
and looked up at each key length with no slice made; `_walks.key_walker`).

After building, the tries are frozen to nested tuples and each tool gets a
`decide` closure over its own (`walks.py`): the engine's hot path is one
dict lookup and one call, and each token one more lookup. Where pip built
them, the closures are those of `_walks.pyx`, the same walks compiled
(`WALKS`).
"""

from __future__ import annotations

import os
import sys

from . import walks
from .index import ListIndex, ToolRows
from .matchers import compile_glob, field_value, literal_ends
from .verdict import Verdict


def _compiled_walks():
    """The walks compiled from `_walks.pyx`, or None: not built, or POLICYC_PURE_WALKS set."""
    if os.environ.get("POLICYC_PURE_WALKS", "") not in ("", "0"):
        return None
    try:
        from . import _walks
    except ImportError:  # installed without a C compiler: the walks below decide
        return None
    return _walks


# The compiled walks, where built; `WALKS` says which a FastPath builds now
# ("compiled" or "pure"): the tests run both against the reference.
COMPILED = _compiled_walks()
WALKS = "compiled" if COMPILED is not None else "pure"

ACTIONS = ("deny", "ask", "allow")


_SLOT = {action: i for i, action in enumerate(ACTIONS)}


class _Bag:
    """Matching ids: the rules of deny, ask and allow, then their carve-outs.

    Six tuples in a list, not two dicts by list name: a walk's build makes
    one per trie node. With `settle` reading them by position, `bash` at
    100,000 rules built in 1.30 -> 1.01 s (measured).
    """

    __slots__ = ("parts",)

    def __init__(self, parts: list | None = None) -> None:
        self.parts: list[tuple[int, ...]] = parts or [(), (), (), (), (), ()]

    def plus(self, other: _Bag) -> _Bag:
        a, b = self.parts, other.parts
        return _Bag([a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5]])

    def add(self, action: str, ids, carve_out: bool = False) -> None:
        i = _SLOT[action] + (3 if carve_out else 0)
        self.parts[i] = self.parts[i] + tuple(ids)


class _Node:
    __slots__ = (
        "children",
        "end",
        "past",
        "own",
        "own_exact",
        "is_key",
        "globs",
        "tails",
        # set while settling (token trie): the bags `past` and `end` settle
        "acc",
        "acc_end",
        # set while freezing (token trie)
        "chain",
        "tail_map",
        "depth",
        "frozen",
    )

    def __init__(self) -> None:
        self.children: dict = {}
        # Inner-glob rules and carve-outs whose head's whole tokens lead here
        # and whose tail has no space (token trie), each once (a dict kept in
        # order: a carve-out reaching several rules comes once per guard); None if none.
        self.globs: dict[tuple, None] | None = None
        # Inner globs whose tail holds a space, by the tail's last token; None if none.
        self.tails: dict[str, dict[tuple, None]] | None = None
        self.end: Verdict | None = None
        self.past: Verdict | None = None
        # Built on first use (most nodes have one or neither): word (token trie)
        # or prefix (character trie) keys ending here; exact keys (token trie).
        self.own: _Bag | None = None
        self.own_exact: _Bag | None = None
        self.is_key = False  # a prefix key ends here (character trie)

    def own_bag(self) -> _Bag:
        if self.own is None:
            self.own = _Bag()
        return self.own

    def own_exact_bag(self) -> _Bag:
        if self.own_exact is None:
            self.own_exact = _Bag()
        return self.own_exact


def _guard_ids(guard: ToolRows) -> frozenset[int]:
    """The carve-outs of a guard: those the trie decides, and its inner globs
    (tried at walk time; see `FastPath._settle_globs`)."""
    ids = list(guard.any)
    for table in (guard.exact, guard.prefix, guard.word):
        for group in table.values():
            ids += group
    ids += (rid for _, rid in guard.glob_specs)
    return frozenset(ids)


def _compile_full(spec: str):
    # The compiled walk keeps these by spec (see `_walks.matching`).
    return compile_glob(spec).fullmatch


def _glob_entry(spec: str) -> tuple[str, str, str, int]:
    """(head, tail, spec, least) of an inner-glob spec, as walks test it.

    `least` >= 0: the spec has one `*` and no `:*`, so it matches exactly
    the values that start with its head, end with its tail and are at least
    `least` long (the two may not overlap); -1: others are matched in full.
    Most specs are of the first kind (`* | sh`, `git push * --force`), and
    the full match, memo lookup and method calls cost ~0.8 us a check.
    """
    head, tail = literal_ends(spec)
    simple = spec.count("*") == 1 and not spec.endswith(":*")
    return head, tail, spec, len(head) + len(tail) if simple else -1


class FastPath:
    """The precomputed walk for one tool over one set of lists."""

    # `decide` is a closure specialised to the tool's matcher: the engine
    # calls it straight from its per-tool dict (no method binding, one frame).
    __slots__ = (
        "kind",
        "field",
        "refusal",
        "root",
        "exact",
        "tails",
        "tail_ends",
        "settle",
        "glob_bags",
        "settled",
        "none",
        "depth",
        "decide",
        "lengths",
        "by_key",
        "heads",
    )

    def __init__(
        self,
        lists,
        tool: str,
        spec,
        rows: tuple,
        default: Verdict,
        refusal: Verdict | None = None,
    ) -> None:
        kind = spec.match if spec is not None and spec.match else None
        self.kind = kind
        # Interned, as the tool's name is (lists.py): `args.get(field)` then
        # finds a caller's literal key ("command") by identity.
        self.field = sys.intern(spec.field) if kind else None
        self.refusal = refusal  # a tool with a splitter, called without subjects
        self.exact: dict[str, Verdict | None] = {}
        # Inner globs whose tail holds a space, by the tail's last token: a value
        # can match one only if its own last token is that token. Each node
        # carries those of its path (see `_freeze_tokens`); this is all of them.
        self.tails: dict[str, dict[tuple, None]] = {}
        # Verdicts of values that inner globs match, by what decides them
        # (see `_settle_globs`); bounded, started again when full.
        self.settled: dict[tuple, Verdict] = {}
        # The last characters of those tails. A walk that meets only tails on
        # its path looks in them only for a value ending in one of these
        # characters: a slice and a set that stays in the CPU cache, where the
        # tails maps are many. The median `bash` walk, before/after in one
        # process: 911 -> 813 ns at 100,000 rules, 653 -> 631 realistic.
        self.tail_ends: frozenset[str] = frozenset()
        indexes: dict[str, ListIndex] = {a: getattr(lists, a) for a in ACTIONS}
        # The verdicts of the tool's own rules, made one after another before
        # any node: made as each node settled, between the nodes' tuples and
        # dicts, they lay spread over all the memory the build took, and a
        # call that hit a rule read its verdict from a page no other call
        # touched. (N=100,000, calls that hit a rule, `benchmarks.ab`, five
        # runs: 3-5% less at 5x, 2-7% made once; the first decision takes
        # about as long, the build finding them made; see the commit.)
        for action in ACTIONS:
            lists.verdicts[action].make(indexes[action].rule_ids(tool))

        # The carve-outs of this tool, per list, by guard.
        guards: dict[str, dict[int, frozenset[int]]] = {a: {} for a in ACTIONS}
        carve_rows: dict[str, list[ToolRows]] = {a: [] for a in ACTIONS}
        for action, r in zip(ACTIONS, rows, strict=True):
            if r is None or not r.guarded:
                continue
            index = indexes[action]
            seen: set[int] = set()
            for rid, gid in index.guard_of.items():
                if index.rules[rid].tool != tool or gid in seen:
                    continue
                seen.add(gid)
                guard = index.guards[gid]
                guards[action][gid] = _guard_ids(guard)
                carve_rows[action].append(guard)

        named: dict[int, Verdict] = {}

        def for_tool(verdict: Verdict) -> Verdict:
            # A tool-name glob's verdict is shared by every tool it names.
            if verdict.tool == tool:
                return verdict
            if id(verdict) not in named:
                named[id(verdict)] = verdict.replace(tool=tool)
            return named[id(verdict)]

        def cancelled(action: str, rid: int, cancels: tuple) -> bool:
            # A carve-out that matches the value cancels the rule it reaches.
            gid = indexes[action].guard_of.get(rid)
            return gid is not None and bool(cancels) and not guards[action][gid].isdisjoint(cancels)

        sets = lists.sets

        def shadowed(rid: int, owners: set[int]) -> bool:
            # With grant sets active, an ask is skipped when a set of another
            # source, ranked at or above the ask's, allows the value (SPEC 7).
            # `owners`: the sets owning the allow rules that fire on it.
            rule = lists.ask.rules[rid]
            return any(
                i in owners
                and gs.source.name != rule.source.name
                and gs.source.rank >= rule.source.rank
                for i, gs in enumerate(sets)
            )

        def owners_of(allowed) -> set[int]:
            return {lists.allow_owner[a] for a in allowed}

        def settle(bag: _Bag) -> Verdict | None:
            parts = bag.parts
            for i, action in enumerate(ACTIONS):
                rules = parts[i]
                if not rules:
                    continue
                cancels = parts[i + 3]
                for rid in sorted(set(rules)) if len(rules) > 1 else rules:
                    if cancels and cancelled(action, rid, cancels):
                        continue
                    if sets and i == 1:
                        fire = [a for a in set(parts[2]) if not cancelled("allow", a, parts[5])]
                        if shadowed(rid, owners_of(fire)):
                            continue
                    return for_tool(lists.verdicts[action][rid])
            return default

        base = _Bag()  # what fires on every call: bare rules and tool-name globs
        for action, r in zip(ACTIONS, rows, strict=True):
            if r is not None:
                base.add(action, r.always)
        with_string = base.plus(_Bag())  # ... and on every string value: `:*` alone
        for action, r in zip(ACTIONS, rows, strict=True):
            if r is not None:
                with_string.add(action, r.any)
            for guard in carve_rows[action]:
                with_string.add(action, guard.any, carve_out=True)

        self.settle = settle
        self.glob_bags: dict[str, _Bag] = {}  # what each inner glob fires, by spec
        self.none = settle(base)
        root = self.root = _Node()
        sources = [(a, r, False) for a, r in zip(ACTIONS, rows, strict=True) if r is not None]
        sources += [(a, g, True) for a in ACTIONS for g in carve_rows[a]]
        if kind == "glob":
            self._build_tokens(sources, with_string, settle)
            self.tail_ends = frozenset(
                entry[1][-1] for entries in self.tails.values() for entry in entries
            )
        elif kind == "prefix":
            keys = self._build_prefix(sources, with_string, settle)
        root.past = settle(with_string)
        self.depth = 0
        self.lengths: list[int] | None = None  # prefix keys probed by length (see below)
        self.by_key: dict[str, Verdict] = {}
        # Every probed key's first characters, as many as the shortest key has;
        # None below 3 lengths, where it saves too few probes to pay its own.
        self.heads: frozenset[str] | None = None
        # Frozen to nested tuples: indexing a tuple is the cheapest step CPython has.
        if kind == "glob":
            self.root, self.depth = _freeze_tokens(root, self.tails)
            if WALKS == "compiled":  # it filters by the whole last token, not its last character
                self.decide = COMPILED.glob_walker(
                    self.field, self.root, self.depth, self.tails.keys(), self.none,
                    self._settle_globs, _compile_full, field_value,
                )  # fmt: skip
            else:
                walk = (self.field, self.root, self.depth, self.tail_ends, self.none)
                self.decide = walks.glob_walker(*walk, self._settle_globs)
        elif kind == "prefix":
            self.root = _freeze_prefix(root)
            lengths = sorted({len(key) for key in keys}, reverse=True)
            if len(lengths) <= _PROBE_LENGTHS:
                # A key node's `past` settles every key along its path: the
                # longest key that starts the value decides it.
                self.lengths = lengths
                self.by_key = {key: node.past for key, node in keys.items()}
                if len(lengths) >= 3:
                    self.heads = frozenset(key[: lengths[-1]] for key in keys)
                if WALKS == "compiled":
                    self.decide = COMPILED.key_walker(
                        self.field, self.exact, self.by_key, root.past, self.none, field_value
                    )
                else:
                    walk = (self.field, self.exact, lengths, self.heads, self.by_key, root.past)
                    self.decide = walks.probe_walker(*walk, self.none)
            elif WALKS == "compiled":
                self.decide = COMPILED.prefix_walker(
                    self.field, self.root, self.exact, self.none, field_value
                )
            else:
                self.decide = walks.prefix_walker(self.field, self.root, self.exact, self.none)
        else:
            self.decide = walks.constant(self.none)
        if refusal is not None:
            self.decide = walks.constant(refusal)

    def _settle_globs(self, node: tuple, count: int, specs: tuple) -> Verdict:
        """The verdict of a value that the inner globs `specs` match, its walk stopping at `node`.

        Which rules and carve-outs match such a value is fixed by the node,
        whether the value ends there (exact specifiers) or goes on past it
        (word prefixes along the path), and which inner globs match it (the
        same candidates the walk tried): so is its verdict, settled as the
        node's own were, from the node's bag with the globs' added. Each
        such kind is settled once; the others look it up. Settled by the
        general index instead (the rules' dicts searched for the value),
        the first of each kind took ~9 us at 1,000 rules and ~15-25 us at
        100,000, where `policyc bench`'s own calls, new values that inner
        globs match, met it on a sixth of their calls (see the commit).
        `count`, the walk's count of tokens (`value.split(" ", depth)`),
        stands for whether the value ends on the node: it does exactly when
        that count is the node's depth. (Walking the tokens again to learn it
        cost ~0.24 us.)
        """
        key = (id(node), count, specs)
        verdict = self.settled.get(key)
        if verdict is None:
            depth, ends_here, goes_past = node[6:]
            fires = ends_here if count == depth else goes_past
            for spec in specs:
                fires = fires.plus(self.glob_bags[spec])
            verdict = self.settle(fires)
            if len(self.settled) >= 4096:
                self.settled.clear()
            self.settled[key] = verdict
        return verdict

    # -- glob matcher: a token trie --------------------------------------

    def _build_tokens(self, sources: list, base: _Bag, settle) -> None:
        for action, r, carve_out in sources:
            for key, ids in r.word.items():
                self._token_node(key).own_bag().add(action, ids, carve_out)
            for key, ids in r.exact.items():
                self._token_node(key).own_exact_bag().add(action, ids, carve_out)
            for spec, rid in r.glob_specs:
                fires = self.glob_bags.get(spec)
                if fires is None:
                    fires = self.glob_bags[spec] = _Bag()
                fires.add(action, (rid,), carve_out)
                entry = _glob_entry(spec)
                head, tail = entry[0], entry[1]
                node = self._token_node(head, whole_tokens_only=True)
                if " " in tail:  # the value's last token must be the tail's
                    last = tail[tail.rfind(" ") + 1 :]
                    self.tails.setdefault(last, {})[entry] = None
                    if node.tails is None:
                        node.tails = {}
                    node.tails.setdefault(last, {})[entry] = None
                elif node.globs is None:
                    node.globs = {entry: None}
                else:
                    node.globs[entry] = None
        # Settle every node; a node with no keys of its own inherits its
        # parent's bag and verdict (bash at 100,000 rules: 1.7 s -> 1.3 s).
        stack = [(self.root, base, None)]
        while stack:
            node, above, above_past = stack.pop()
            if node.own is None and above_past is not None:
                acc, node.past = above, above_past
            else:
                acc = above if node.own is None else above.plus(node.own)
                node.past = settle(acc)
            node.acc = acc
            if node.own_exact is None:
                node.acc_end, node.end = acc, node.past
            else:
                node.acc_end = acc.plus(node.own_exact)
                node.end = settle(node.acc_end)
            if node.children:  # most nodes are leaves: no generator made for them
                past = node.past
                for child in node.children.values():
                    stack.append((child, acc, past))

    def _token_node(self, key: str, whole_tokens_only: bool = False) -> _Node:
        tokens = key.split(" ")
        if whole_tokens_only:
            tokens.pop()  # the text after the last space is only the start of a token
        node = self.root
        for token in tokens:
            child = node.children.get(token)
            if child is None:
                child = node.children[token] = _Node()
            node = child
        return node

    # -- prefix matcher: exact dict + path-compressed character trie -------

    def _build_prefix(self, sources: list, base: _Bag, settle) -> dict[str, _Node]:
        """Build the trie and the exact dict; return the prefix keys' nodes."""
        exacts: dict[str, _Bag] = {}
        keys: dict[str, _Node] = {}
        for action, r, carve_out in sources:
            for key, ids in r.prefix.items():
                node = keys[key] = _insert(self.root, key)
                node.own_bag().add(action, ids, carve_out)
            for key, ids in r.exact.items():
                exacts.setdefault(key, _Bag()).add(action, ids, carve_out)
        accumulated: dict[int, _Bag] = {id(self.root): base}
        stack = [(self.root, base)]
        while stack:
            node, above = stack.pop()
            acc = above.plus(node.own) if node.is_key and node.own is not None else above
            accumulated[id(node)] = acc
            if node.is_key:
                node.past = settle(acc)
            stack.extend((child, acc) for _, child in node.children.values())
        for key, own in exacts.items():
            self.exact[key] = settle(accumulated[id(_deepest(self.root, key))].plus(own))
        return keys


# Up to this many distinct prefix-key lengths a value is probed at each
# length, longest first (a slice and a lookup each), instead of walking the
# character trie (a lookup, a `startswith` and more per edge). The median
# `read` decision of the benchmark at N=10 (4 keys, 2 lengths): 755 -> 459
# ns. Against the trie on keys sharing long prefixes (measured, probe vs
# trie): a value that starts no key 340 vs 283 ns at 2 lengths, 206 vs 302
# at 4 (the first-characters filter, from 3 lengths); one that matches a
# short key 253 vs 501 at 2, 501 vs 683 at 4, 724 vs 691 at 6; one that
# matches the longest 252 vs 499 at 2, 316 vs 819 at 4. The compiled key
# walker against the compiled trie (read rules on paths, medians): 133 vs 126
# ns at 4 lengths, 140 vs 149 at 13, 170 vs 207 at 29, but 284 vs 172 at 71
# and 438 vs 296 at 155 (a lookup per length); it keeps this threshold.
_PROBE_LENGTHS = 4


_NO_CHILDREN = {}.get


_NO_TAILS: dict = {}  # a path with inner globs, none with a space in its tail

# A node's tails map is its parent's plus its own. Past this many entries the
# node takes the tool's whole map instead, a superset (`glob_hit` checks each
# candidate in full), so that many nodes under a crowded one cannot each copy it.
_MERGE_CAP = 4096


def _tail_group(entries) -> tuple[tuple[str, ...], tuple]:
    """A tails map's value: the entries' distinct tails, for one `str.endswith`, and the entries.

    At 100,000 rules a value ending in `--dry-run` met ~10 carve-outs of that
    tail under its last token, each tested in a Python loop (~2.6 us a
    decision); most fail `endswith` on their whole tail, which one C call over
    the tuple answers for all of them.
    """
    entries = tuple(entries)
    return tuple(dict.fromkeys(entry[1] for entry in entries)), entries


def _freeze_tokens(root: _Node, every_tail: dict) -> tuple[tuple, int]:
    """The frozen trie, and its depth in tokens. `every_tail`: the tool's tails map.

    Each node's chain, tails map, depth and frozen form ride on the node
    itself while this runs (no dicts by node id).
    """

    every_group = {last: _tail_group(entries) for last, entries in every_tail.items()}

    def extend(above: tuple | None, node: _Node) -> tuple | None:
        if not node.globs and not node.tails:
            return above
        return (above or ()) + ((tuple(node.globs),) if node.globs else ())

    def merge(above: dict | None, node: _Node) -> dict | None:
        own = node.tails
        if not own:
            return above
        if above is None or above is _NO_TAILS:
            return {last: _tail_group(entries) for last, entries in own.items()}
        if len(above) + len(own) > _MERGE_CAP:
            return every_group
        out = dict(above)
        for last, entries in own.items():
            prior = out.get(last)
            out[last] = _tail_group((*prior[1], *entries) if prior else entries)
        return out

    root.chain, root.tail_map, root.depth = extend(None, root), merge(None, root), 0
    order = [root]  # breadth first: parents before children, shallow before deep
    for node in order:
        chain, tail_map, depth = node.chain, node.tail_map, node.depth + 1
        for child in node.children.values():
            if child.globs or child.tails:
                child.chain, child.tail_map = extend(chain, child), merge(tail_map, child)
            else:
                child.chain, child.tail_map = chain, tail_map
            child.depth = depth
            order.append(child)
    for node in reversed(order):  # children before parents
        children = node.children
        # Leaves share one empty `get`: at a large N it stays in the CPU cache.
        kids = {t: c.frozen for t, c in children.items()} if children else _NO_CHILDREN.__self__
        chain = node.chain
        tail_map = None if chain is None else node.tail_map or _NO_TAILS
        frozen = (kids.get, node.end, node.past, chain, tail_map, kids)
        if chain is not None:  # inner globs may match here: what settles them
            frozen = (*frozen, node.depth, node.acc_end, node.acc)
        node.frozen = frozen
    return root.frozen, order[-1].depth


def _freeze_prefix(root: _Node) -> tuple:
    order = [root]
    for node in order:
        order.extend(child for _, child in node.children.values())
    frozen: dict[int, tuple] = {}
    for node in reversed(order):
        children = {
            char: (label, frozen.pop(id(child))) for char, (label, child) in node.children.items()
        }
        frozen[id(node)] = (children, node.past, node.is_key)
    return frozen[id(root)]


def _insert(root: _Node, key: str) -> _Node:
    """Insert `key` into a path-compressed trie whose edges are keyed by their first character."""
    node, pos = root, 0
    while pos < len(key):
        edge = node.children.get(key[pos])
        if edge is None:
            child = _Node()
            node.children[key[pos]] = (key[pos:], child)
            node = child
            break
        label, child = edge
        common = 0
        limit = min(len(label), len(key) - pos)
        while common < limit and label[common] == key[pos + common]:
            common += 1
        if common == len(label):
            node, pos = child, pos + common
            continue
        middle = _Node()  # split the edge where the key leaves it
        middle.children[label[common]] = (label[common:], child)
        node.children[key[pos]] = (label[:common], middle)
        node, pos = middle, pos + common
    node.is_key = True
    return node


def _deepest(root: _Node, value: str) -> _Node:
    """The deepest key node whose key is a prefix of `value` (the root if none)."""
    best, node, pos, n = root, root, 0, len(value)
    while pos < n:
        edge = node.children.get(value[pos])
        if edge is None:
            break
        label, child = edge
        if not value.startswith(label, pos):
            break
        node, pos = child, pos + len(label)
        if node.is_key:
            best = node
    return best


def _undecided(args: object) -> None:
    return None


class _Full:
    """The path of a tool with a built-in splitter: always decided in full."""

    __slots__ = ()
    decide = staticmethod(_undecided)


FULL = _Full()
