"""The decision engine: a loaded decision table deciding tool calls.

`Table.decide` runs SPEC sections 5-6 over the per-tool indexes: the first
firing deny blocks; firing asks defer unless a grant set shadows them or the
call runs confined and they are bare; then the first firing allow; then the
default. Rule verdicts are built once per rule, on first use, and returned
as they are on the common path (one subject, unconfined).

Grant sets (SPEC section 8) change the active lists after build. The lists a
scope sees (`lists.Lists`) are rebuilt with the same index builder the
compiler used and swapped in whole, so a decision never sees half a change.
`decide_batch` is made by `batch.make_batch`.
"""

from __future__ import annotations

import os
from _thread import allocate_lock  # the lock without importing threading (hook start-up)
from collections import namedtuple
from collections.abc import Iterable

from . import fast
from .batch import HeldTwins, make_batch
from .bulk import gc_paused
from .index import ListIndex, ToolSpec, build_list_index
from .lists import ACTIONS, NO_SUBJECTS, GrantSet, Lists
from .matchers import field_value
from .model import Rule, Source
from .paths import broad_for, plain_str
from .splitters import SplitError, cwd_tools, fetch_hosts, make_splitter, option_tools
from .verdict import (
    SEVERITY,
    Verdict,
    blocked_reason,
    confined_verdict,
    default_verdict,
    failed_verdict,
)

_UNDECIDED = object()  # the fast walk cannot tell: decide in full
_SPLIT_VERDICTS = 4096  # split calls' verdicts kept per lists (see `Table._decide`)
# Whether path rules are read broadly (`paths.broad_for`): deny and ask
# rules share one reading, allow rules have the other.
_BROAD_DENY = broad_for("deny", False)
_BROAD_ALLOW = broad_for("allow", False)
assert broad_for("ask", False) == _BROAD_DENY


_Refusal = namedtuple("Refusal", "rule reason")


class Refusal(_Refusal):
    """A grant-set rule that was not activated, with the stable reason."""

    __slots__ = ()


def _coerce_source(source: Source | dict | str) -> Source:
    if isinstance(source, Source):
        return source
    if isinstance(source, str):
        return Source(name=source, rank=0, trusted=False)
    if isinstance(source, dict):
        return Source(
            name=str(source.get("name", "")),
            rank=int(source.get("rank", 0)),
            trusted=bool(source.get("trusted", False)),
            path=str(source.get("path", "")),
            hash=str(source.get("hash", "")),
        )
    raise TypeError("source must be a Source, a dict or a name")


def _coerce_rules(rules: str | Iterable[str | Rule], source: Source) -> list[Rule]:
    from .rules import parse_rules

    if isinstance(rules, str):
        return parse_rules(rules, source)
    out: list[Rule] = []
    for item in rules:
        if isinstance(item, Rule):
            out.append(Rule(item.tool, item.spec, source, item.note))
        else:
            out.extend(parse_rules(str(item), source))
    return out


def _fault(tool: object, confined: object, exc: Exception) -> Verdict:
    conf = confined if isinstance(confined, str) else ""
    if not isinstance(tool, str):
        return failed_verdict("tool", "the tool name is not a string", conf)
    return failed_verdict(tool, f"internal error ({type(exc).__name__})", conf)


class Table:
    """A compiled policy, ready to decide calls. Safe for concurrent use."""

    def __init__(
        self,
        *,
        default: str,
        tools: dict[str, ToolSpec],
        aliases: dict[str, list[str]],
        sources: list[Source],
        lists: dict[str, ListIndex],
        withheld: list[Rule],
        digest: str = "",
        home: str | None = None,
        follow_symlinks: bool = False,
    ) -> None:
        self.default = default
        # Where `~` points for path rules, and whether the path splitter may
        # resolve symlinks (I/O, so the host opts in).
        self.home = home if home is not None else os.path.expanduser("~")
        self.follow_symlinks = follow_symlinks
        self.tools = tools
        self.aliases = aliases
        self.sources = sources
        self.withheld = withheld
        self.digest = digest
        # Named tools, from the few distinct names: a pass reading each rule's
        # `glob` took 17 ms of a 100,000-rule load.
        named = {r.tool for idx in lists.values() for r in idx.rules}
        self._known = set(tools) | {name for name in named if "*" not in name}
        self._policy = Lists(lists["deny"], lists["ask"], lists["allow"], [], tools, default)
        self._fast = self._policy.fast  # the same dict, one attribute lookup closer
        self._sets: list[GrantSet] = []
        # The lists each scope decides against: by scope, emptied on every
        # change of the sets, and by the sets in force for a scope (their ids,
        # in order), kept while some scope has those sets. A scope whose sets
        # did not change keeps its lists and walks when another scope's sets
        # change, and scopes with the same sets share them (see `_sets_changed`).
        self._by_scope: dict[str | None, Lists] = {}
        self._by_sets: dict[tuple[int, ...], Lists] = {}
        self._lock = allocate_lock()
        self._defaults: dict[str, Verdict] = {}
        self._twins = HeldTwins()  # the held form of each allow verdict, for batches
        if fast.WALKS == "compiled":
            # The common call (one subject, unconfined; under grant sets, in
            # a scope whose lists are built) through the compiled walks
            # without a Python frame; `Table.decide` below takes the rest,
            # and is what this does (`_walks.decide_front`).
            self.decide = fast.COMPILED.decide_front(
                self._fast, self._sets, self._by_scope, self.decide, self._decide_rest
            )
        self.decide_batch = make_batch(
            self.decide,
            self._twins,
            self._fast,
            self,
            self.decide_once,
            self._sets,
            self._by_scope,
        )
        self._anchored = cwd_tools((r for idx in lists.values() for r in idx.rules), tools)
        self._held = [*lists["deny"].rules, *lists["ask"].rules]
        self._shapes = option_tools(self._held, tools)
        self._splitters = self._policy.splitters = self._make_splitters(
            self._anchored, self._shapes, fetch_hosts(self._held, tools)
        )

    def _make_splitters(self, anchored: frozenset, shapes: dict, hosts: dict) -> dict:
        """By tool, its splitter (see `splitters.make_splitter`)."""
        tools = self.tools
        return {
            name: splitter
            for name, spec in tools.items()
            if (splitter := make_splitter(name, spec, tools, anchored, shapes, hosts)) is not None
        }

    def _grant_splitters(self, active: list[GrantSet]) -> dict:
        """The splitters for the lists of these grant sets: the table's own,
        unless a set's rule needs calls split otherwise: a deny or ask rule
        naming options (`Bash(rm -rf:*)`, which `rm -fr x` meets as the
        shapes read it) or on a fetch tool (a URL whose host is not known
        may be its host) was met so only when the policy had one like it,
        and a set's `rm -rf` deny let `rm -fr x` through; a path rule
        anchored at the working directory is read as the policy's is."""
        held = [r for gs in active for action in ("deny", "ask") for r in gs.rules[action]]
        added = held + [r for gs in active for r in gs.rules["allow"]]
        if not added:
            return self._splitters
        tools = self.tools
        anchored = self._anchored | cwd_tools(added, tools)
        shapes = option_tools(held, tools, self._shapes) if held else self._shapes
        fetchers = {spec.fetch for spec in tools.values() if spec.fetch}
        if (
            anchored == self._anchored
            and shapes == self._shapes
            and not any(r.tool in fetchers for r in held)
        ):
            return self._splitters
        return self._make_splitters(anchored, shapes, fetch_hosts(self._held + held, tools))

    # -- deciding ---------------------------------------------------------

    # The options are not keyword-only, though callers should name them:
    # CPython 3.11 does not specialise calls to a function with keyword-only
    # parameters, which cost every decision about 35 ns (measured).
    def decide(
        self,
        tool: str,
        args: object,
        confined: str | None = None,
        subjects: object = None,
        scope: str | None = None,
        cwd: str | None = None,
    ) -> Verdict:
        """The verdict for one call. Never raises: a fault blocks the call.

        `cwd` is the call's working directory: relative paths and `./`
        path rules are read against it.
        """
        try:
            if subjects is None and confined is None:
                # The common call: one walk to a precomputed verdict (see fast.py).
                if not self._sets:
                    walk = self._fast.get(tool)
                    if walk is None and type(tool) is str:
                        walk = self._policy.fast_path(tool).decide
                else:  # the walks of the lists this scope's grant sets make
                    lists = self._lists_for(scope)
                    walk = lists.fast.get(tool)
                    if walk is None and type(tool) is str:
                        walk = lists.fast_path(tool).decide
                if walk is not None:
                    verdict = walk(args)
                    if verdict is not None:
                        return verdict
            return self._decide(tool, args, confined, subjects, scope, cwd)
        except Exception as exc:  # fail closed: an internal error never allows
            return _fault(tool, confined, exc)

    def explain(
        self,
        tool: str,
        args: object,
        *,
        confined: str | None = None,
        subjects: object = None,
        scope: str | None = None,
        cwd: str | None = None,
    ) -> tuple[Verdict, list[dict]]:
        """The call's verdict, and what made it: each subject its tool's
        splitter made of it (or the ones given), with the verdict it got
        alone (None: a constraint no deny or ask rule meets), and the call's
        own args (`"call": True`) when every subject is a constraint; `by_open`:
        the part's verdict is that of a rule it meets only by what is not
        known in it (`open`). The strictest of those stands (first of equals). Empty when the call is
        not split, or cannot be (the verdict says why). For people reading a
        verdict (`policyc decide --explain`), not for the hot path.
        """
        verdict = self.decide(tool, args, confined, subjects, scope, cwd)
        spec = self.tools.get(tool) if type(tool) is str else None
        if subjects is None and (spec is None or not spec.split):
            return verdict, []
        try:
            lists = self._lists_for(scope)
            ctx = (plain_str(cwd), self.home, self.follow_symlinks)
            if subjects is None:
                splitter = lists.splitters.get(tool)
                if splitter is None:
                    return verdict, []
                subjects = splitter(args, ctx)
            if type(subjects) is not list:
                return verdict, []
            opened: list[int] = []
            parts = self._subject_parts(
                lists, tool, args, confined, subjects, ctx, walk=False, opened=opened
            )
        except Exception:  # (SplitError among them): the verdict says what went wrong
            return verdict, []
        if type(parts) is not list:
            return verdict, []
        rows = [
            {
                "tool": subject.get("tool") or tool,
                "args": subject.get("args"),
                "text": subject.get("text") or "",
                "constrain": bool(subject.get("constrain")),
                "open": subject.get("open"),
                "verdict": part,
                "by_open": index in opened,  # a rule the value as written does not match
            }
            for index, (subject, (_, part)) in enumerate(
                zip(subjects, parts, strict=False)  # (the call: below)
            )
        ]
        if len(parts) > len(subjects):  # every subject constrains: the call's own args too
            rows.append(
                {"tool": tool, "args": args, "text": "", "call": True, "verdict": parts[-1][1]}
            )
        return verdict, rows

    def warm(self) -> Table:
        """Build every named tool's precomputed walk now, not on its first call.

        A walk is built on the tool's first decision: milliseconds for a few
        thousand rules, about a second for `bash` at 100,000. An agent that
        would rather pay that at start-up than on a call warms the table.
        """
        for tool in sorted(self._known):
            self._policy.fast_path(tool)
        return self

    def _decide_rest(self, tool, args, confined, subjects, scope, cwd) -> Verdict:
        """What `decide` does with a call its walk left undecided."""
        try:
            return self._decide(tool, args, confined, subjects, scope, cwd)
        except Exception as exc:  # fail closed: an internal error never allows
            return _fault(tool, confined, exc)

    def decide_once(
        self,
        tool: str,
        args: object,
        *,
        confined: str | None = None,
        subjects: object = None,
        scope: str | None = None,
        cwd: str | None = None,
    ) -> Verdict:
        """`decide` for a process that decides one call and exits (a hook).

        It skips building the tools' precomputed walks, which pay off only
        over many calls; the verdict is the same.
        """
        try:
            return self._decide(tool, args, confined, subjects, scope, cwd, walk=False)
        except Exception as exc:  # fail closed: an internal error never allows
            return _fault(tool, confined, exc)

    def _lists_for(self, scope: str | None) -> Lists:
        if not self._sets:
            return self._policy
        lists = self._by_scope.get(scope)
        if lists is None:
            with self._lock:
                active = [gs for gs in self._sets if gs.scope is None or gs.scope == scope]
                if not active:
                    lists = self._policy
                else:
                    # Ids stay unique while the entry lives: its lists hold the sets.
                    key = tuple(map(id, active))
                    lists = self._by_sets.get(key)
                    if lists is None:
                        lists = self._by_sets[key] = gc_paused(self._build_lists, active)
                self._by_scope[scope] = lists
        return lists

    def _decide(self, tool, args, confined, subjects, scope, cwd=None, walk=True) -> Verdict:
        if type(tool) is not str:
            tool = plain_str(tool)  # a host's str subclass is its name
            if tool is None:
                return failed_verdict("tool", "the tool name is not a string", confined or "")
        if confined is not None and type(confined) is not str:
            confined = str(confined)
        conf = confined or ""
        lists = self._lists_for(scope)
        spec = self.tools.get(tool)
        ctx = (plain_str(cwd), self.home, self.follow_symlinks)
        if subjects is None:
            if spec is not None and spec.split:
                splitter = lists.splitters.get(tool)
                if splitter is None:
                    return failed_verdict(tool, NO_SUBJECTS, conf)
                # The verdict of a split call is a function of the tool, the one
                # value its splitter reads and the working directory (the home
                # is the table's; resolving symlinks reads the disk, and is not
                # kept): kept per lists, agents repeat their commands and
                # paths. A `Bash` call the shell splitter had split before
                # took ~3.5 us; a `Read` of a path read before, ~6 (see the commit).
                key = None
                if walk and confined is None and not self.follow_symlinks:
                    value = field_value(args, splitter.field)
                    if value is not None:
                        key = (tool, value, ctx[0])
                        verdict = lists.split_verdicts.get(key)
                        if verdict is not None:
                            return verdict
                try:
                    subjects = splitter(args, ctx)
                except SplitError as exc:
                    verdict = failed_verdict(tool, str(exc), conf)
                else:
                    if subjects:
                        verdict = self._decide_subjects(
                            lists, tool, args, confined, subjects, ctx, walk
                        )
                    else:
                        verdict = failed_verdict(tool, "splitter returned no subjects", conf)
                if key is not None:
                    kept = lists.split_verdicts
                    if len(kept) >= _SPLIT_VERDICTS:
                        kept.clear()  # full: start again, with what the agent does now
                    kept[key] = verdict
                return verdict
            verdict = self._decide_subject(
                lists, tool, args, confined is not None, confined, False, ctx
            )
            if conf:
                return verdict.replace(tool=tool, confined=conf)
            return verdict if verdict.tool == tool else verdict.replace(tool=tool)
        if isinstance(subjects, (BaseException, str)):
            return failed_verdict(tool, str(subjects) or type(subjects).__name__, conf)
        if type(subjects) is not list:
            return failed_verdict(tool, "the splitter's subjects are not a list", conf)
        if not subjects:
            return failed_verdict(tool, "splitter returned no subjects", conf)
        return self._decide_subjects(lists, tool, args, confined, subjects, ctx, walk)

    def _decide_subjects(
        self, lists, tool, args, confined, subjects, ctx=None, walk=True
    ) -> Verdict:
        parts = self._subject_parts(lists, tool, args, confined, subjects, ctx, walk)
        if type(parts) is not list:
            return parts  # a subject that cannot be read
        conf = confined or ""
        best: Verdict | None = None
        best_text = ""
        for text, verdict in parts:
            if verdict is not None and (
                best is None or SEVERITY[verdict.action] > SEVERITY[best.action]
            ):
                best, best_text = verdict, text
        assert best is not None  # the call's own args always take part when all subjects constrain
        reason = best.reason
        if best.action == "block" and len(parts) > 1 and best_text:
            reason = blocked_reason(reason, best_text, [text for text, _ in parts])
        return best.as_call(tool, best_text, conf, reason)

    def _subject_parts(
        self, lists, tool, args, confined, subjects, ctx=None, walk=True, opened=None
    ):
        """Each subject's own verdict with its text, in order (None: a
        constraint no deny or ask rule meets), then the call's own args'
        (text "") when every subject is a constraint; or the failed verdict
        of a subject that cannot be read. `opened`: a list to which the
        index of each part whose verdict its `open` text gave is added."""
        conf = confined or ""
        parts: list[tuple[str, Verdict | None]] = []
        every_constrains = True
        for subject in subjects:
            if type(subject) is not dict:
                return failed_verdict(tool, "a subject is not an object", conf)
            text = subject.get("text") or ""
            target = subject.get("tool") or tool
            constrain = bool(subject.get("constrain"))
            every_constrains = every_constrains and constrain
            if type(text) is not str or type(target) is not str:
                return failed_verdict(tool, "a subject's text or tool is not a string", conf)
            elsewhere = target != tool
            verdict = _UNDECIDED
            if walk and (confined is None or elsewhere):  # a confined subject may skip a bare ask
                verdict = self._fast_subject(lists, target, subject.get("args"), constrain)
            if verdict is _UNDECIDED:
                verdict = self._decide_subject(
                    lists,
                    target,
                    subject.get("args"),
                    confined is not None and not elsewhere,
                    None if elsewhere else confined,
                    constrain,
                    ctx,
                )
            known = subject.get("open")
            if known is not None:
                if type(known) is not str:
                    return failed_verdict(tool, "a subject's open text is not a string", conf)
                as_written = verdict
                verdict = self._open_verdict(lists, target, known, verdict)
                if opened is not None and verdict is not as_written:
                    opened.append(len(parts))
            parts.append((text, verdict))
        if every_constrains:
            parts.append(
                (
                    "",
                    self._decide_subject(
                        lists, tool, args, confined is not None, confined, False, ctx
                    ),
                )
            )
        return parts

    def _open_verdict(self, lists: Lists, tool: str, known: str, verdict: Verdict | None):
        """A subject whose value holds text not known here (`open`: the
        value up to it; `git $X`, X from the agent's environment): a deny
        or ask rule of its tool that such a value may match
        (`ListIndex.open_first`) decides it, as if it had matched, unless
        the subject's own verdict is as strict. An allow must still match
        it as written.
        """
        if verdict is not None and verdict.action == "block":
            return verdict
        spec = self.tools.get(tool)
        kind = spec.match if spec is not None else None
        if kind != "prefix" and kind != "glob":
            return verdict
        rid = lists.deny.open_first(tool, kind, known)
        if rid >= 0:
            return lists.verdicts["deny"][rid]
        if verdict is not None and verdict.action == "defer":
            return verdict
        rid = lists.ask.open_first(tool, kind, known)
        return lists.verdicts["ask"][rid] if rid >= 0 else verdict

    @staticmethod
    def _fast_subject(lists: Lists, tool: str, args: object, constrain: bool):
        """A subject's verdict from the precomputed walk, or _UNDECIDED.

        Only for tools that are not split themselves (a subject is never split
        again). A constraint takes the walk's verdict only when a deny or ask
        rule gave it.
        """
        path = lists.subject_fast.get(tool) or lists.subject_path(tool)
        verdict = path.decide(args)  # None from a tool decided in full
        if verdict is None:
            return _UNDECIDED
        if constrain:
            return verdict if verdict.rule is not None and verdict.action != "allow" else None
        return verdict

    def _decide_subject(
        self, lists: Lists, tool, args, is_confined, confined, constrain, ctx=None
    ) -> Verdict | None:
        field, deny, ask, allow = lists.plan(tool)
        value = field_value(args, field) if field is not None else None
        # Deny and ask path rules are read broadly, allow rules as written.
        match_ctx = (ctx[0], ctx[1], _BROAD_DENY) if ctx else None
        allow_ctx = (ctx[0], ctx[1], _BROAD_ALLOW) if ctx else None
        if deny is not None:
            rid = lists.deny.first(deny, value, match_ctx)
            if rid >= 0:
                return lists.verdicts["deny"][rid]
        skipped = -1
        if ask is not None:
            shadow_cache: list[set[int]] = []
            for rid in lists.ask.firing(ask, value, match_ctx):
                if lists.sets and self._shadowed(
                    lists, lists.ask.rules[rid], allow, value, shadow_cache, allow_ctx
                ):
                    continue
                if is_confined and lists.ask.rules[rid].bare:
                    if skipped < 0:
                        skipped = rid
                    continue
                return lists.verdicts["ask"][rid]
        if constrain:
            return None
        if skipped >= 0:
            return confined_verdict(lists.ask.rules[skipped], confined or "")
        if allow is not None:
            rid = lists.allow.first(allow, value, allow_ctx)
            if rid >= 0:
                return lists.verdicts["allow"][rid]
        verdict = self._defaults.get(tool)
        if verdict is None:
            verdict = default_verdict(self.default, tool)
            if len(self._defaults) < 4096:
                self._defaults[tool] = verdict
        return verdict

    @staticmethod
    def _shadowed(
        lists: Lists, ask_rule: Rule, allow, value, cache: list[set[int]], ctx=None
    ) -> bool:
        """An ask is skipped when another source's set, ranked at or above it, allows the subject."""
        if not cache:
            firing = lists.allow.firing(allow, value, ctx) if allow is not None else []
            cache.append({lists.allow_owner[rid] for rid in firing})
        owners = cache[0]
        for i, gs in enumerate(lists.sets):
            if (
                i in owners
                and gs.source.name != ask_rule.source.name
                and gs.source.rank >= ask_rule.source.rank
            ):
                return True
        return False

    # -- offering tools ---------------------------------------------------

    def removes(self, tool: str, *, scope: str | None = None) -> Rule | None:
        """The deny rule that takes `tool` out of the offer, if any."""
        deny = self._lists_for(scope).deny
        for rid in deny.rows_for(tool).always:
            if rid not in deny.guard_of:
                return deny.rules[rid]
        return None

    def offer(self, tools: Iterable[str], *, scope: str | None = None) -> list[str]:
        """The tools the model may be offered, in order (SPEC section 7)."""
        return [t for t in tools if self.removes(t, scope=scope) is None]

    # -- grant sets -------------------------------------------------------

    def activate(
        self,
        source: Source | dict | str,
        *,
        allow: str | Iterable = "",
        deny: str | Iterable = "",
        ask: str | Iterable = "",
        scope: str | None = None,
    ) -> tuple[list[Rule], list[Refusal]]:
        """Activate a grant set (a skill's allowed-tools) under its source.

        Returns the allow rules granted and the rules refused with their
        stable reasons. Activating the same (scope, source name) again
        replaces the set in place. Raises ValueError for an unnamed source
        and `RuleSyntaxError` for a rule list that does not parse.
        """
        from .checks import (  # (grant sets are rare: start-up stays short)
            canonical_rule,
            expand_aliases,
        )

        src = _coerce_source(source)
        if not src.name:
            raise ValueError("a grant set's source must be named")
        given = {
            action: [
                canonical_rule(rule, self.tools)
                for rule in expand_aliases(_coerce_rules(rules, src), self.aliases)
            ]
            for action, rules in (("deny", deny), ("ask", ask), ("allow", allow))
        }
        kept: dict[str, list[Rule]] = {"deny": [], "ask": [], "allow": []}
        refused: list[Refusal] = []
        for action in ACTIONS:
            for rule in given[action]:
                reason = self._grant_refusal(rule, action, src)
                if reason is None:
                    kept[action].append(rule)
                else:
                    refused.append(Refusal(rule, reason))
        gs = GrantSet(scope, src, kept, list(kept["allow"]))
        with self._lock:
            sets = list(self._sets)
            for i, old in enumerate(sets):
                if old.scope == scope and old.source.name == src.name:
                    sets[i] = gs
                    break
            else:
                sets.append(gs)
            self._sets_changed(sets)
        return list(gs.granted), refused

    def _grant_refusal(self, rule: Rule, action: str, src: Source) -> str | None:
        from .checks import rule_problem

        problem = rule_problem(rule, action, self.tools)
        if problem is not None:
            return problem[1]
        if action != "allow":
            return None
        if rule.carve_out:
            return f"agentpolicy: cannot grant a carve-out: {rule}"
        if not src.trusted:
            return f"withheld: the source {src.name} is not trusted"
        deny = self._policy.deny
        for rid in deny.rows_for(rule.tool).always:
            if rid not in deny.guard_of:
                return f"denied by {deny.rules[rid]}: a grant never beats a deny"
        ask = self._policy.ask
        for rid in ask.rows_for(rule.tool).always:
            asker = ask.rules[rid]
            if asker.bare and asker.source.rank > src.rank:
                if asker.source.name:
                    return f"{asker} from {asker.source.name} outranks the grant"
                return f"{asker} outranks the grant"
        return None

    def revoke(self, source: str | Source, scope: str | None = None) -> int:
        """Take back the grant set of `source` under `scope`; how many were removed."""
        name = source.name if isinstance(source, Source) else source
        with self._lock:
            sets = [gs for gs in self._sets if not (gs.scope == scope and gs.source.name == name)]
            removed = len(self._sets) - len(sets)
            self._sets_changed(sets)
        return removed

    def _sets_changed(self, sets: list[GrantSet]) -> None:
        """Put `sets` in force (under the lock); keep the lists of the scopes they leave alone.

        Activating or revoking a set in one scope used to throw every
        scope's lists and walks away, and each scope rebuilt them on its
        next call (`bash` at 100,000 rules: the lists ~0.3 s and the walk
        ~0.75 s, per scope). Kept: the lists of each combination of sets
        some scope now has (its own and the unscoped ones, in order), and
        of the unscoped ones alone (every other scope's); no others, so
        what is kept is bounded by the scopes with sets, as the sets are.
        """
        unscoped: list[int] = []
        by_scope: dict[str, list[int]] = {}
        for gs in sets:
            if gs.scope is None:
                unscoped.append(id(gs))
                for ids in by_scope.values():
                    ids.append(id(gs))
            else:
                by_scope.setdefault(gs.scope, list(unscoped)).append(id(gs))
        keep = {tuple(unscoped), *map(tuple, by_scope.values())}
        # Both in place: the compiled `decide` holds them. The scopes' lists
        # go first: a call that then reads the new sets finds no lists and
        # waits on the lock in `_lists_for`, never old lists under new sets.
        self._by_scope.clear()
        self._sets[:] = sets
        self._by_sets = {key: lists for key, lists in self._by_sets.items() if key in keep}

    def grants(self) -> list[GrantSet]:
        return list(self._sets)

    def _build_lists(self, active: list[GrantSet]) -> Lists:
        built = {}
        for action in ACTIONS:
            policy = getattr(self._policy, action)
            rules = list(policy.rules)
            for gs in active:
                rules.extend(gs.rules[action])
            built[action] = build_list_index(
                rules, self.tools, self._known, base=policy, broad=broad_for(action, False)
            )
        lists = Lists(
            built["deny"],
            built["ask"],
            built["allow"],
            active,
            self.tools,
            self.default,
            base=self._policy,
        )
        lists.splitters = self._grant_splitters(active)
        return lists
