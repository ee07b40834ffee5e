"""The lists one scope decides against: the three list indexes, their
verdicts, and each tool's plan and precomputed walks, built on first use.

The policy has one `Lists`; each combination of grant sets in force gets
its own (see `engine.Table._lists_for`), whose tools that no set names keep
the policy's walks.
"""

from __future__ import annotations

import sys
from collections import namedtuple

from .bulk import gc_paused
from .fast import FULL, FastPath
from .index import ListIndex, ToolSpec
from .matchers import tool_matches
from .model import Rule
from .verdict import Verdict, default_verdict, failed_verdict, rule_verdict

ACTIONS = ("deny", "ask", "allow")
NO_SUBJECTS = "the tool has a splitter and no subjects were given"


_GrantSet = namedtuple("GrantSet", "scope source rules granted")


class GrantSet(_GrantSet):
    """A grant set in force: its scope, source, kept rules per list, and granted allows."""

    __slots__ = ()


class _Verdicts(dict):
    """Rule id -> its verdict, built on first use (loading builds none).

    `base`: the policy's, under a scope's lists, whose first rules are the
    policy's: their verdicts are taken from it, not built again (a scope's
    `bash` walk at 100,000 rules built ~80,000: three scopes with a `bash`
    set, first decision ~1.26 -> ~1.09 s each, RSS after them 435 -> 361 MB).
    """

    def __init__(self, rules: list[Rule], action: str, base: _Verdicts | None = None) -> None:
        super().__init__()
        self._rules = rules
        self._action = action
        self._base = base
        self._shared = len(base._rules) if base is not None else 0

    def make(self, rids) -> None:
        """Make the verdicts of `rids` now, those not made yet (see `FastPath`)."""
        for rid in rids:
            if rid not in self:
                self.__missing__(rid)

    def __missing__(self, rid: int) -> Verdict:
        if rid < self._shared:
            verdict = self[rid] = self._base[rid]
        else:
            verdict = self[rid] = rule_verdict(self._rules[rid], self._action)
        return verdict


class Lists:
    """The three active lists one scope decides against, with their verdicts."""

    __slots__ = (
        "deny",
        "ask",
        "allow",
        "verdicts",
        "allow_owner",
        "sets",
        "base",
        "plans",
        "paths",
        "fast",
        "subject_fast",
        "split_verdicts",
        "splitters",
        "_fields",
        "_tools",
        "_default",
    )

    def __init__(
        self,
        deny: ListIndex,
        ask: ListIndex,
        allow: ListIndex,
        sets: list[GrantSet],
        tools: dict[str, ToolSpec],
        default: str,
        base: Lists | None = None,
    ) -> None:
        self.deny = deny
        self.ask = ask
        self.allow = allow
        self.sets = sets
        # The policy's own lists, under these lists of a scope with sets: a
        # tool no set has a rule for is decided by the same rows, so its walks
        # are the policy's (see `_shared`).
        self.base = base
        shared = base.verdicts if base is not None else {}
        self.verdicts = {
            "deny": _Verdicts(deny.rules, "block", shared.get("deny")),
            "ask": _Verdicts(ask.rules, "defer", shared.get("ask")),
            "allow": _Verdicts(allow.rules, "allow", shared.get("allow")),
        }
        # Which grant set each allow rule belongs to (for shadowing); -1 = the policy.
        self.allow_owner: list[int] = []
        self.allow_owner.extend(
            -1 for _ in range(len(allow.rules) - sum(len(s.rules["allow"]) for s in sets))
        )
        for i, gs in enumerate(sets):
            self.allow_owner.extend(i for _ in gs.rules["allow"])
        self._fields = {name: spec.field for name, spec in tools.items() if spec.match}
        self._tools = tools
        self._default = default
        # Per tool, built on first use: the precomputed walk (see fast.py), for
        # calls and, without the tool's splitter (subjects are not split again), for
        # subjects. `fast` holds each call path's `decide` closure, for the engine's
        # hot path.
        self.paths: dict[str, FastPath] = {}
        self.fast: dict = {}
        self.subject_fast: dict[str, FastPath] = {}
        # The verdicts of calls a built-in splitter split, by (tool, the value
        # it read, cwd): see `Table._decide`.
        self.split_verdicts: dict[tuple, Verdict] = {}
        # By tool, the splitter these lists' calls are split by (the table's,
        # or one its grant sets' rules need: `Table._grant_splitters`); set
        # by the table. None here: a call split by no splitter is refused.
        self.splitters: dict = {}
        # Per tool: (field, deny rows, ask rows, allow rows); None where a list has nothing.
        self.plans: dict[str, tuple] = {}
        for name in set(deny.by_tool) | set(ask.by_tool) | set(allow.by_tool):
            self.plans[name] = self._plan(name)

    def _plan(self, tool: str) -> tuple:
        rows = [idx.rows_for(tool) for idx in (self.deny, self.ask, self.allow)]
        return (self._fields.get(tool), *(None if r.empty else r for r in rows))

    def _shared(self, tool: str) -> bool:
        """Whether the tool's walks are the policy's: no set in force has a rule for it.

        Then no set rule fires on its calls and no allow of a set shadows an
        ask (SPEC 7), and the policy's rules keep their ids here. A scope's
        first `bash` call at 100,000 rules, with a set for other tools,
        rebuilt the same walk (~0.75 s).
        """
        return self.base is not None and not any(
            tool_matches(rule.tool, tool)
            for gs in self.sets
            for action in ACTIONS
            for rule in gs.rules[action]
        )

    def fast_path(self, tool: str) -> FastPath:
        path = self.paths.get(tool)
        if path is None:
            spec = self._tools.get(tool)
            if self._shared(tool):
                path = self.base.fast_path(tool)
            elif spec is not None and (
                spec.split and spec.split is not True or spec.match in ("path", "domain")
            ):
                path = (
                    FULL  # a built-in splitter, or a matcher that reads a context: decided in full
                )
            else:
                _, deny, ask, allow = self.plan(tool)
                refusal = (
                    failed_verdict(tool, NO_SUBJECTS) if spec is not None and spec.split else None
                )
                default = default_verdict(self._default, tool)
                path = gc_paused(FastPath, self, tool, spec, (deny, ask, allow), default, refusal)
            if len(self.paths) < 8192:  # model-chosen names: keep the cache bounded
                self.paths[tool] = path
                # Interned: a caller's literal name ("bash") is then found by
                # identity, where an equal string read from the artifact was
                # compared character by character on every call. (Walks are
                # built for plain strs only: engine.py reads a subclass as one.)
                self.fast[sys.intern(tool)] = path.decide
        return path

    def subject_path(self, tool: str) -> FastPath:
        path = self.subject_fast.get(tool)
        if path is None:
            spec = self._tools.get(tool)
            if self._shared(tool):
                path = self.base.subject_path(tool)
            elif spec is not None and spec.match in ("path", "domain"):
                path = FULL  # their matchers read a context
            else:
                _, deny, ask, allow = self.plan(tool)
                default = default_verdict(self._default, tool)
                path = gc_paused(FastPath, self, tool, spec, (deny, ask, allow), default)
            if len(self.subject_fast) < 8192:
                self.subject_fast[tool] = path
        return path

    def plan(self, tool: str) -> tuple:
        plan = self.plans.get(tool)
        if plan is None:
            plan = self._plan(tool)
            if len(self.plans) < 8192:  # model-chosen names: keep the cache bounded
                self.plans[tool] = plan
        return plan
