"""Per-tool rule indexes: find the rules that fire without scanning them all.

One `ListIndex` serves one action list (deny, ask or allow). For each tool it
holds a `ToolRows`, which sorts the tool's rules by how their specifier is
decided (see `matchers.classify`): rules that fire on every call, on every
string value, on an exact value (dict), on a character prefix (dicts bucketed
by length), on a word prefix (dict probed at each space), and the few real
globs (compiled regexes). Finding the candidates costs O(length of the value)
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

from dataclasses import dataclass

from .matchers import classify, compile_glob, field_value, literal_ends, tool_matches
from .model import Rule


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What the bundle registered for one tool."""

    match: str | None = None  # "prefix" | "glob" | None
    field: str | None = None
    split: bool | str = False

    def to_json(self) -> dict:
        out: dict = {}
        if self.match:
            out["match"] = self.match
        if self.field is not None:
            out["field"] = self.field
        if self.split:
            out["split"] = self.split
        return out


class ToolRows:
    """The rules of one list that can apply to one tool, indexed by spec.

    Specifiers with an inner `*` are bucketed by their literal prefix (text
    before the first `*`) and literal suffix (after the last `*`), so only the
    patterns whose both ends fit the value run their regex.
    """

    __slots__ = (
        "field",
        "always",
        "any",
        "exact",
        "prefix",
        "lengths",
        "word",
        "globs",
        "glob_lengths",
        "glob_specs",
        "plain",
    )

    def __init__(self, field: str | None) -> None:
        self.field = field
        self.always: list[int] = []  # bare rules and tool-name globs
        self.any: list[int] = []  # `:*` alone: every string value
        self.exact: dict[str, list[int]] = {}
        self.prefix: dict[str, list[int]] = {}
        self.lengths: tuple[int, ...] = ()
        self.word: dict[str, list[int]] = {}
        # literal prefix -> (suffix lengths, literal suffix -> [(regex, rule id)])
        self.globs: dict[str, tuple[tuple[int, ...], dict[str, list]]] = {}
        self.glob_lengths: tuple[int, ...] = ()
        self.glob_specs: list[tuple[str, int]] = []
        # True when only `always` is populated: skip reading the args.
        self.plain = True

    def add(self, kind: str, spec: str | None, rid: int) -> None:
        if spec is None:
            self.always.append(rid)
            return
        self.plain = False
        index_kind, key = classify(kind, spec)
        if index_kind == "any":
            self.any.append(rid)
        elif index_kind == "exact":
            self.exact.setdefault(key, []).append(rid)
        elif index_kind == "prefix":
            self.prefix.setdefault(key, []).append(rid)
        elif index_kind == "word":
            self.word.setdefault(key, []).append(rid)
        else:
            self.glob_specs.append((spec, rid))

    def seal(self) -> ToolRows:
        self.lengths = tuple(sorted({len(p) for p in self.prefix}))
        self.always.sort()
        buckets: dict[str, dict[str, list]] = {}
        for spec, rid in self.glob_specs:
            head, tail = literal_ends(spec)
            buckets.setdefault(head, {}).setdefault(tail, []).append((compile_glob(spec), rid))
        self.globs = {head: (tuple(sorted({len(t) for t in tails})), tails) for head, tails in buckets.items()}
        self.glob_lengths = tuple(sorted({len(h) for h in self.globs}))
        return self

    def candidates(self, args: object) -> list[int]:
        """Rule ids whose tool and spec match, unsorted, maybe repeated."""
        if self.plain:
            return self.always
        out = list(self.always)
        value = field_value(args, self.field) if self.field is not None else None
        if value is None:
            return out
        out += self.any
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
        if self.globs:
            for length in self.glob_lengths:
                if length > n:
                    break
                bucket = self.globs.get(value[:length])
                if bucket is None:
                    continue
                tail_lengths, tails = bucket
                for tail_length in tail_lengths:
                    if length + tail_length > n:
                        break
                    group = tails.get(value[n - tail_length :] if tail_length else "")
                    if group:
                        out += [rid for regex, rid in group if regex.fullmatch(value) is not None]
        return out

    def any_match(self, args: object) -> bool:
        return bool(self.candidates(args))

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
        return out

    @classmethod
    def from_json(cls, data: dict, field: str | None) -> ToolRows:
        rows = cls(field)
        rows.always = list(data.get("always", ()))
        rows.any = list(data.get("any", ()))
        rows.exact = dict(data.get("exact", {}))
        rows.prefix = dict(data.get("prefix", {}))
        rows.word = dict(data.get("word", {}))
        rows.glob_specs = [(spec, rid) for spec, rid in data.get("globs", ())]
        rows.plain = not (rows.any or rows.exact or rows.prefix or rows.word or rows.glob_specs)
        return rows.seal()


class ListIndex:
    """One action list: its rules in order, their guards, a per-tool index."""

    __slots__ = ("rules", "guard_of", "guards", "by_tool", "glob_ids", "_unknown")

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self.guard_of: dict[int, int] = {}  # rule id -> guard id
        self.guards: list[ToolRows] = []
        self.by_tool: dict[str, ToolRows] = {}
        self.glob_ids: list[int] = []
        self._unknown: dict[str, ToolRows] = {}

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

    def guarded(self, rid: int, args: object) -> bool:
        gid = self.guard_of.get(rid)
        return gid is not None and self.guards[gid].any_match(args)

    def first(self, tool: str, args: object) -> int:
        """Id of the first rule of this list that fires, or -1."""
        cands = self.rows_for(tool).candidates(args)
        if not cands:
            return -1
        if len(cands) > 1:
            cands = sorted(set(cands))
        for rid in cands:
            if not self.guard_of or not self.guarded(rid, args):
                return rid
        return -1

    def firing(self, tool: str, args: object) -> list[int]:
        """Ids of every rule of this list that fires, in list order."""
        cands = sorted(set(self.rows_for(tool).candidates(args)))
        return [rid for rid in cands if not self.guarded(rid, args)]

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
        for entry in data["rules"]:
            note = entry[3] if len(entry) > 3 else ""
            idx.rules.append(Rule(entry[0], entry[1], sources[entry[2]], note))
        idx.guard_of = {rid: gid for rid, gid in data["guard_of"]}
        guard_tools = _guard_tools(idx)
        idx.guards = [
            ToolRows.from_json(g, _field(tools, guard_tools.get(gid)))
            for gid, g in enumerate(data["guards"])
        ]
        idx.by_tool = {
            tool: ToolRows.from_json(rows, _field(tools, tool))
            for tool, rows in data["tools"].items()
        }
        idx.glob_ids = list(data["globs"])
        return idx


def _field(tools: dict[str, ToolSpec], tool: str | None) -> str | None:
    spec = tools.get(tool) if tool is not None else None
    return spec.field if spec is not None and spec.match else None


def _guard_tools(idx: ListIndex) -> dict[int, str]:
    return {gid: idx.rules[rid].tool for rid, gid in idx.guard_of.items()}


def build_list_index(
    rules: list[Rule], tools: dict[str, ToolSpec], known_tools: set[str]
) -> ListIndex:
    """Index one action list. Rules keep their order; ids are positions."""
    idx = ListIndex()
    idx.rules = list(rules)
    names = set(known_tools) | {r.tool for r in rules if not r.glob}
    for name in sorted(names):
        idx.by_tool[name] = ToolRows(_field(tools, name))

    # Carve-outs by tool: a rule's guard is the set of carve-outs of its tool
    # ranked at or above it. Rules sharing a threshold share the guard.
    carve_outs: dict[str, list[int]] = {}
    for rid, rule in enumerate(rules):
        if rule.carve_out:
            carve_outs.setdefault(rule.tool, []).append(rid)
    guard_cache: dict[tuple[str, int], int] = {}

    for rid, rule in enumerate(rules):
        if rule.carve_out:
            continue
        if rule.glob:
            idx.glob_ids.append(rid)
            for name, rows in idx.by_tool.items():
                if tool_matches(rule.tool, name):
                    rows.always.append(rid)
            continue
        spec = tools.get(rule.tool)
        idx.by_tool[rule.tool].add(spec.match if spec else "", rule.spec, rid)
        if rule.tool not in carve_outs:
            continue
        key = (rule.tool, rule.source.rank)
        if key not in guard_cache:
            reaching = [
                c for c in carve_outs[rule.tool] if rules[c].source.rank >= rule.source.rank
            ]
            gid = -1
            if reaching:
                guard = ToolRows(_field(tools, rule.tool))
                for c in reaching:
                    guard.add(spec.match if spec else "", rules[c].pattern, c)
                gid = len(idx.guards)
                idx.guards.append(guard.seal())
            guard_cache[key] = gid
        if guard_cache[key] >= 0:
            idx.guard_of[rid] = guard_cache[key]
    for rows in idx.by_tool.values():
        rows.seal()
    return idx
