"""Per-tool rule indexes: find the rules that fire without scanning them all.

One `ListIndex` serves one action list (deny, ask or allow). For each tool it
holds a `ToolRows`, which sorts the tool's rules by how their specifier is
decided (see `matchers.classify`): rules that fire on every call, on every
string value, on an exact value (dict), on a character prefix (dicts bucketed
by length), on a word prefix (dict probed at each space), and the few real
globs (regexes, compiled on first use). Finding the candidates costs O(length of the value)
plus the real globs, not O(rules).

Carve-outs become guards: a carve-out reaches the rules of its own list with
the same tool name whose source it does not rank below. The rules of a tool
that share the same reaching carve-outs share one guard, itself a `ToolRows`
over the carve-outs' patterns, so checking a guard is an index lookup too.

The compiler calls `build_list_index` and stores `to_json()` in the artifact;
the runtime loads it with `from_json`, and rebuilds with `build_list_index`
when grant sets change the active lists. The build is the same code in both.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import namedtuple

from .domains import url_host
from .matchers import classify, compile_glob, literal_ends, tool_matches
from .model import Rule, rules_from_json
from .paths import broad_matches, broad_names, path_matches

# No rule: above any rule id, so `min` keeps a found one.
_NO_RULE = 1 << 62

_ToolSpec = namedtuple(
    "ToolSpec",
    "match field split write read allow_glob fetch",
    defaults=(None, None, False, "", "", False, ""),
)


class ToolSpec(_ToolSpec):
    """What the bundle registered for one tool.

    match: "prefix", "glob", "path", "domain" or None; field: the argument it
    reads; split: True (the host supplies subjects) or a built-in splitter;
    write, read: where the shell splitter sends redirect targets ("" = edit, read);
    fetch: where it sends the URLs curl, wget and HTTPie fetch ("" = nowhere);
    allow_glob: this tool-name glob may stand in an allow list (Claude Code's
    `mcp__server`, imported from settings), which agentpolicy bundles refuse.
    """

    __slots__ = ()

    def to_json(self) -> dict:
        out: dict = {}
        if self.match:
            out["match"] = self.match
        if self.field is not None:
            out["field"] = self.field
        if self.split:
            out["split"] = self.split
        if self.write:
            out["write"] = self.write
        if self.read:
            out["read"] = self.read
        if self.allow_glob:
            out["allow_glob"] = True
        if self.fetch:
            out["fetch"] = self.fetch
        return out


class ToolRows:
    """The rules of one list that can apply to one tool, indexed by spec.

    Specifiers with an inner `*` have a literal head (before the first `*`)
    and tail (after the last). One whose tail holds a space is filed under the
    tail's last token (`git * main` under `main`), else one whose head holds a
    space under the head's text before its last space (`npm run x*` under
    `npm run`, looked up at each space of the value): a value meets only the
    patterns filed under its own last token and its own leading words. Only
    the rest (`*.env`, `ls*`) are tried on every value.
    """

    __slots__ = (
        "field",
        "always",
        "any",
        "exact",
        "prefix",
        "lengths",
        "word",
        "glob_by_last",
        "glob_by_words",
        "glob_words_longest",
        "glob_rest",
        "glob_specs",
        "plain",
        "guarded",
        "kind",
        "subdomain",
        "path_specs",
    )

    def __init__(self, field: str | None, kind: str | None = None) -> None:
        self.field = field
        self.kind = kind  # the tool's matcher: domain values are hosts, path specs need a context
        self.subdomain: dict[str, list[int]] = {}  # domain matcher: parent -> `*.parent` rules
        self.path_specs: list[tuple[str, int]] = []  # path matcher: (pattern, rule id)
        self.always: list[int] = []  # bare rules and tool-name globs
        self.any: list[int] = []  # `:*` alone: every string value
        self.exact: dict[str, list[int]] = {}
        self.prefix: dict[str, list[int]] = {}
        self.lengths: tuple[int, ...] = ()
        self.word: dict[str, list[int]] = {}
        # (head, tail, spec, rule id) filed by the tail's last token, the head's whole words, or neither
        self.glob_by_last: dict[str, list[tuple]] = {}
        self.glob_by_words: dict[str, list[tuple]] = {}
        self.glob_words_longest = -1  # the longest key of glob_by_words
        self.glob_rest: list[tuple] = []
        self.glob_specs: list[tuple[str, int]] = []
        # True when only `always` is populated: skip reading the args.
        self.plain = True
        # True when a carve-out reaches one of these rules (set by the ListIndex).
        self.guarded = False

    @property
    def empty(self) -> bool:
        return self.plain and not self.always

    def add(self, kind: str, spec: str | None, rid: int, broad: bool = False) -> None:
        """File rule `rid`; `broad` (`paths.broad_for`): a host rule covers
        the host's subdomains too (a deny on `evil.com` meets `www.evil.com`)."""
        if spec is None:
            self.always.append(rid)
            return
        self.plain = False
        index_kind, key = classify(kind, spec)
        if index_kind == "any":
            self.any.append(rid)
        elif index_kind == "exact":
            self.exact.setdefault(key, []).append(rid)
            if broad and kind == "domain":
                self.subdomain.setdefault(key, []).append(rid)
        elif index_kind == "prefix":
            self.prefix.setdefault(key, []).append(rid)
        elif index_kind == "word":
            self.word.setdefault(key, []).append(rid)
        elif index_kind == "subdomain":
            self.subdomain.setdefault(key, []).append(rid)
        elif index_kind == "path":
            self.path_specs.append((spec, rid))
        elif index_kind == "pattern":
            self.glob_specs.append((spec, rid))
        # "never": a domain spec naming no host (refused when compiling and granting)

    def seal(self) -> ToolRows:
        self.lengths = tuple(sorted({len(p) for p in self.prefix}))
        self.always.sort()
        self.glob_by_last, self.glob_by_words, self.glob_rest = {}, {}, []
        for spec, rid in self.glob_specs:
            head, tail = literal_ends(spec)
            entry = (head, tail, spec, rid)
            if " " in tail:
                self.glob_by_last.setdefault(tail[tail.rfind(" ") + 1 :], []).append(entry)
            elif " " in head:
                # A value that starts with the head has a space right after these words.
                self.glob_by_words.setdefault(head[: head.rfind(" ")], []).append(entry)
            else:
                self.glob_rest.append(entry)
        self.glob_words_longest = max(map(len, self.glob_by_words), default=-1)
        return self

    def matches(self, value: str | None, ctx: tuple | None = None) -> list[int]:
        """Rule ids whose spec matches the field value (None: no string to read).

        `ctx` is (cwd, home, broad): what path patterns anchor to, and
        whether they are read broadly (`paths.broad_for`). Unsorted, maybe
        repeated; the caller must not change the list.
        """
        if self.plain or value is None:
            return self.always
        if self.kind == "path":
            cwd, home, broad = ctx or (None, None, False)
            if broad:
                names = broad_names(value)  # folded once for every rule
                hits = [
                    rid for spec, rid in self.path_specs if broad_matches(spec, names, cwd, home)
                ]
            else:
                hits = [
                    rid for spec, rid in self.path_specs if path_matches(spec, value, cwd, home)
                ]
            return self.always + self.any + hits
        if self.kind == "domain":
            host = url_host(value)
            if host is None:
                return self.always
            out = self.always + self.any + self.exact.get(host, [])
            dot = host.find(".")
            while dot >= 0:
                out += self.subdomain.get(host[dot + 1 :], [])
                dot = host.find(".", dot + 1)
            return out
        out = self.always + self.any
        hit = self.exact.get(value)
        if hit:
            out += hit
        n = len(value)
        if self.prefix:
            for length in self.lengths:
                if length > n:
                    break
                hit = self.prefix.get(value[:length])
                if hit:
                    out += hit
        if self.word:
            hit = self.word.get(value)
            if hit:
                out += hit
            space = value.find(" ")
            while space >= 0:
                hit = self.word.get(value[:space])
                if hit:
                    out += hit
                space = value.find(" ", space + 1)
        if self.glob_specs:
            out += self.glob_matches(value)
        return out

    def glob_matches(self, value: str) -> list[int]:
        """Ids of the inner-glob rules matching the value; see the class docstring."""
        out: list[int] = []
        groups = [self.glob_rest]
        if self.glob_by_last:
            groups.append(self.glob_by_last.get(value[value.rfind(" ") + 1 :], ()))
        if self.glob_by_words:
            # Filed under whole words, not the first one: at 100,000 rules a
            # value under `git` met ~600 patterns (~40 us a decision, measured).
            by_words, longest = self.glob_by_words, self.glob_words_longest
            space = value.find(" ")
            while 0 <= space <= longest:
                group = by_words.get(value[:space])
                if group:
                    groups.append(group)
                space = value.find(" ", space + 1)
        for group in groups:
            for head, tail, spec, rid in group:
                if (
                    value.startswith(head)
                    and value.endswith(tail)
                    and compile_glob(spec).fullmatch(value)
                ):
                    out.append(rid)
        return out

    def to_json(self) -> dict:
        out: dict = {}
        if self.always:
            out["always"] = self.always
        if self.any:
            out["any"] = self.any
        if self.exact:
            out["exact"] = self.exact
        if self.prefix:
            out["prefix"] = self.prefix
        if self.word:
            out["word"] = self.word
        if self.glob_specs:
            out["globs"] = [[spec, rid] for spec, rid in self.glob_specs]
        if self.subdomain:
            out["subdomain"] = self.subdomain
        if self.path_specs:
            out["paths"] = [[spec, rid] for spec, rid in self.path_specs]
        return out

    @classmethod
    def from_json(cls, data: dict, field: str | None, kind: str | None = None) -> ToolRows:
        rows = cls(field, kind)
        rows.always = list(data.get("always", ()))
        rows.any = list(data.get("any", ()))
        rows.exact = dict(data.get("exact", {}))
        rows.prefix = dict(data.get("prefix", {}))
        rows.word = dict(data.get("word", {}))
        rows.glob_specs = [(spec, rid) for spec, rid in data.get("globs", ())]
        rows.subdomain = dict(data.get("subdomain", {}))
        rows.path_specs = [(spec, rid) for spec, rid in data.get("paths", ())]
        rows.plain = not (
            rows.any
            or rows.exact
            or rows.prefix
            or rows.word
            or rows.glob_specs
            or rows.subdomain
            or rows.path_specs
        )
        return rows.seal()


class ListIndex:
    """One action list: its rules in order, their guards, a per-tool index."""

    __slots__ = (
        "rules",
        "guard_of",
        "guards",
        "by_tool",
        "glob_ids",
        "_unknown",
        "_ids",
        "_open",
    )

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self.guard_of: dict[int, int] = {}  # rule id -> guard id
        self.guards: list[ToolRows] = []
        self.by_tool: dict[str, ToolRows] = {}
        self.glob_ids: list[int] = []
        self._unknown: dict[str, ToolRows] = {}
        self._ids: dict[str, list[int]] | None = None
        self._open: dict[str, tuple] = {}

    def rule_ids(self, tool: str) -> list[int]:
        """Ids of the rules that name `tool` itself, carve-outs aside, in list order.

        Grouped on the first call: one pass over the list, not one per tool.
        """
        if self._ids is None:
            self._ids = {}
            for rid, rule in enumerate(self.rules):
                if not rule.carve_out:
                    self._ids.setdefault(rule.tool, []).append(rid)
        return self._ids.get(tool, [])

    def open_first(self, tool: str, kind: str, known: str) -> int:
        """Id of the first rule naming `tool` with a spec that a value
        starting with `known`, the rest not known, may match, or -1.

        `git $X` with X from the agent's environment is `git push` when X is
        `push`: a deny rule on `git push:*` may match it, though it does not
        match `git '$X'` as written. Read broadly, as deny and ask rules
        are: a spec whose literal start and `known` agree as far as both go
        may match (a word rule `P:*` at a word's end), and so may one that
        is `known` without its last space (the rest may be empty). Only the
        command matchers, `prefix` and `glob`. Carve-outs are not asked:
        the value may be one they do not cover. The reference asks the same
        of each rule in its own terms (`reference.may_match`).

        Indexed per tool on first use (its rules' literal starts, sorted,
        and the starts a `known` may run past), so a policy of 100,000
        rules is not read whole for each such command.
        """
        index = self._open.get(tool)
        if index is None:
            index = self._open[tool] = self._open_index(tool, kind)
        starts, past, equal, any_rid = index
        best = any_rid
        at = bisect_left(starts, (known, -1))
        while at < len(starts) and starts[at][0].startswith(known):
            best = min(best, starts[at][1])
            at += 1
        for end in range(len(known) + 1):
            rid = past.get(known[:end])
            if rid is not None and rid < best:
                best = rid
        rid = equal.get(known.rstrip(" "))
        if rid is not None and rid < best:
            best = rid
        return -1 if best == _NO_RULE else best

    def _open_index(self, tool: str, kind: str) -> tuple:
        starts: list[tuple[str, int]] = []
        past: dict[str, int] = {}  # a `known` that starts with the key may match
        equal: dict[str, int] = {}  # a `known` that is the key (and spaces) may match
        any_rid = _NO_RULE
        if kind in ("prefix", "glob"):
            for rid in self.rule_ids(tool):
                spec = self.rules[rid].spec
                if spec is None:
                    continue
                index_kind, key = classify(kind, spec)
                if index_kind == "any":
                    any_rid = min(any_rid, rid)
                    continue
                if index_kind == "pattern":
                    key = literal_ends(spec)[0]
                starts.append((key, rid))
                if index_kind in ("pattern", "prefix"):
                    past.setdefault(key, rid)
                elif index_kind == "word":
                    past.setdefault(key + " ", rid)
                    equal.setdefault(key, rid)
                else:  # exact
                    equal.setdefault(key, rid)
        starts.sort()
        return starts, past, equal, any_rid

    def rows_for(self, tool: str) -> ToolRows:
        rows = self.by_tool.get(tool)
        if rows is not None:
            return rows
        rows = self._unknown.get(tool)
        if rows is None:
            # A tool no rule names: only tool-name globs can reach it.
            rows = ToolRows(None)
            rows.always = [rid for rid in self.glob_ids if tool_matches(self.rules[rid].tool, tool)]
            if len(self._unknown) < 4096:  # model-chosen names: keep the cache bounded
                self._unknown[tool] = rows
        return rows

    def cancelled(self, rid: int, value: str | None, ctx: tuple | None = None) -> bool:
        """Does a carve-out that reaches rule `rid` match the value? `ctx`:
        the rules' own; carve-outs are read broadly the other way."""
        gid = self.guard_of.get(rid)
        if gid is None:
            return False
        if ctx is not None:  # `paths.broad_for`: a carve-out is read the other way
            ctx = (ctx[0], ctx[1], not ctx[2])
        return bool(self.guards[gid].matches(value, ctx))

    def first(self, rows: ToolRows, value: str | None, ctx: tuple | None = None) -> int:
        """Id of the first rule of `rows` (this list's rows for a tool) that fires, or -1."""
        hits = rows.matches(value, ctx)
        if not hits:
            return -1
        if not rows.guarded:
            return min(hits)
        for rid in sorted(set(hits)):
            if not self.cancelled(rid, value, ctx):
                return rid
        return -1

    def firing(self, rows: ToolRows, value: str | None, ctx: tuple | None = None) -> list[int]:
        """Ids of every rule of `rows` that fires, in list order."""
        hits = sorted(set(rows.matches(value, ctx)))
        if not rows.guarded:
            return hits
        return [rid for rid in hits if not self.cancelled(rid, value, ctx)]

    def mark_guarded(self) -> ListIndex:
        for rows in self.by_tool.values():
            rows.guarded = False
        for rid in self.guard_of:
            rows = self.by_tool.get(self.rules[rid].tool)
            if rows is not None:
                rows.guarded = True
        return self

    def to_json(self, source_ids: dict) -> dict:
        return {
            "rules": [
                [r.tool, r.spec, source_ids[r.source], r.note]
                if r.note
                else [r.tool, r.spec, source_ids[r.source]]
                for r in self.rules
            ],
            "guard_of": [[rid, gid] for rid, gid in sorted(self.guard_of.items())],
            "guards": [g.to_json() for g in self.guards],
            "tools": {tool: rows.to_json() for tool, rows in sorted(self.by_tool.items())},
            "globs": self.glob_ids,
        }

    @classmethod
    def from_json(cls, data: dict, sources: list, tools: dict[str, ToolSpec]) -> ListIndex:
        idx = cls()
        idx.rules = rules_from_json(data["rules"], sources)
        idx.guard_of = {rid: gid for rid, gid in data["guard_of"]}
        guard_tools = _guard_tools(idx)
        idx.guards = [
            ToolRows.from_json(
                g, _field(tools, guard_tools.get(gid)), _kind(tools, guard_tools.get(gid))
            )
            for gid, g in enumerate(data["guards"])
        ]
        idx.by_tool = {
            tool: ToolRows.from_json(rows, _field(tools, tool), _kind(tools, tool))
            for tool, rows in data["tools"].items()
        }
        idx.glob_ids = list(data["globs"])
        return idx.mark_guarded()


def _field(tools: dict[str, ToolSpec], tool: str | None) -> str | None:
    spec = tools.get(tool) if tool is not None else None
    return spec.field if spec is not None and spec.match else None


def _kind(tools: dict[str, ToolSpec], tool: str | None) -> str | None:
    spec = tools.get(tool) if tool is not None else None
    return spec.match if spec is not None and spec.match else None


def _guard_tools(idx: ListIndex) -> dict[int, str]:
    return {gid: idx.rules[rid].tool for rid, gid in idx.guard_of.items()}


def build_list_index(
    rules: list[Rule],
    tools: dict[str, ToolSpec],
    known_tools: set[str],
    base: ListIndex | None = None,
    broad: bool = False,
) -> ListIndex:
    """Index one action list. Rules keep their order; ids are positions.

    `broad`: the list's rules are read broadly (`paths.broad_for`: deny and
    ask lists), and so their carve-outs as written. Path rules are read so
    when matched (a context says how); host rules are filed so here.

    `base`: the index of this list's first rules (the policy's, under a
    scope's grant sets). The rows of every tool no later rule names or
    matches are the same, and are shared with it, guards and all; only the
    others are built. A scope's lists at 100,000 rules, with a set for
    `read` only, rebuilt every tool's rows (~0.3 s).
    """
    idx = ListIndex()
    idx.rules = list(rules)
    names = set(known_tools) | {r.tool for r in rules if not r.glob}
    build = names
    if base is not None:
        later = idx.rules[len(base.rules) :]
        build = {
            name
            for name in names
            if name not in base.by_tool or any(tool_matches(r.tool, name) for r in later)
        }
        for name in names - build:
            idx.by_tool[name] = base.by_tool[name]
        # Guard ids of the shared rows stay valid: the base's guards come first.
        idx.guards = list(base.guards)
        idx.guard_of = {
            rid: gid for rid, gid in base.guard_of.items() if rules[rid].tool not in build
        }
    built = {name: ToolRows(_field(tools, name), _kind(tools, name)) for name in sorted(build)}
    idx.by_tool.update(built)

    # Carve-outs by tool: a rule's guard is the set of carve-outs of its tool
    # ranked at or above it. Rules sharing a threshold share the guard.
    carve_outs: dict[str, list[int]] = {}
    for rid, rule in enumerate(rules):
        if rule.carve_out and rule.tool in built:
            carve_outs.setdefault(rule.tool, []).append(rid)
    guard_cache: dict[tuple[str, int], int] = {}

    for rid, rule in enumerate(rules):
        if rule.carve_out:
            continue
        if rule.glob:
            idx.glob_ids.append(rid)
            for name, rows in built.items():
                if tool_matches(rule.tool, name):
                    rows.always.append(rid)
            continue
        if rule.tool not in built:
            continue
        spec = tools.get(rule.tool)
        built[rule.tool].add(spec.match if spec else "", rule.spec, rid, broad)
        if rule.tool not in carve_outs:
            continue
        key = (rule.tool, rule.source.rank)
        if key not in guard_cache:
            reaching = [
                c for c in carve_outs[rule.tool] if rules[c].source.rank >= rule.source.rank
            ]
            gid = -1
            if reaching:
                guard = ToolRows(_field(tools, rule.tool), _kind(tools, rule.tool))
                for c in reaching:
                    guard.add(spec.match if spec else "", rules[c].pattern, c, not broad)
                gid = len(idx.guards)
                idx.guards.append(guard.seal())
            guard_cache[key] = gid
        if guard_cache[key] >= 0:
            idx.guard_of[rid] = guard_cache[key]
    for rows in built.values():
        rows.seal()
    # Marked here, not by `mark_guarded`: the shared rows are the base's, read
    # by its own decisions meanwhile, and keep their marks.
    for rid in idx.guard_of:
        rows = built.get(rules[rid].tool)
        if rows is not None:
            rows.guarded = True
    return idx
