"""`decide_batch`: the calls of one model response decided before any runs.

An allowed call is held for approval when a sibling defers or could not be
evaluated (SPEC section 7). `make_batch` makes it over a table's `decide`
or a generated module's; where pip built them, the common batch goes
through `_walks.batch_front`, the same loop compiled.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import fast
from .verdict import Verdict, failed_verdict

NOT_A_CALL = "not a {tool, args} object nor a (tool, args) pair"


def _one(decide, call: object, scope: str | None) -> Verdict:
    """One call of a batch, in any of its accepted shapes; any other fails closed."""
    if isinstance(call, dict):
        confined, subjects, cwd = call.get("confined"), call.get("subjects"), call.get("cwd")
        return decide(call.get("tool"), call.get("args"), confined, subjects, scope, cwd)
    try:
        tool, args = call
    except (TypeError, ValueError):
        return failed_verdict("tool", NOT_A_CALL)
    return decide(tool, args, scope=scope)


class HeldTwins(dict):
    """id(allow verdict) -> its held twin, for the verdicts a table returns.

    Most verdicts are precomputed, so a deferral's allowed siblings are held
    by a lookup instead of a copy each time. Each entry keeps its verdict
    alive, so no other object can take its id.
    """

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        super().__init__()
        self._kept: list[Verdict] = []

    def twin(self, verdict: Verdict) -> Verdict:
        held = self.get(id(verdict))
        if held is None:
            held = verdict._replace(
                action="defer", held=True, reason="held for approval: " + verdict.reason
            )
            if len(self) < 8192:  # verdicts built per call are many: keep it bounded
                self._kept.append(verdict)
                self[id(verdict)] = held
        return held


_FAILED = Verdict._fields.index("failed")  # read by index, as `action` is at 0


def _holders(verdicts: list) -> tuple[bool, list[int]]:
    """Whether a verdict holds its siblings (a deferral, a failure), and where the allowed ones are."""
    holds, allowed = False, []
    for i, verdict in enumerate(verdicts):
        if verdict[0] == "allow":
            allowed.append(i)
        elif verdict[0] == "defer" or verdict.failed:
            holds = True
    return holds, allowed


def make_batch(
    decide,
    twins: HeldTwins,
    walks: dict,
    owner,
    full,
    sets: list | None = None,
    by_scope: dict | None = None,
):
    """A `decide_batch` over any `decide`: the table's, or a generated module's.

    `walks`: the per-tool walks `decide` tries first (tool -> function of the
    args, None when it cannot decide); `full(tool, args)`: `decide` without
    them; `owner._sets`: the grant sets active (`sets`: the same list, where
    the owner changes it in place, for the compiled front to hold);
    `by_scope`: the owner's lists by scope while sets are active, for the
    compiled front to take their walks (None: it leaves such batches here).
    A closure, not a method over a shared function: a batch of five costs a
    Python frame less, which is about 5% of it (measured).
    """

    twin_of, twin = twins.get, twins.twin

    def decide_batch(calls: Iterable, scope: str | None = None) -> list[Verdict]:
        """Decide every call of one model response before any runs (SPEC section 7).

        Each call is a dict `{tool, args, confined?, subjects?, cwd?}` or a
        `(tool, args)` pair. An allowed call is held when a sibling defers or
        could not be evaluated.
        """
        calls = calls if type(calls) is list else list(calls)
        # The common batch: plain {"tool", "args"} calls of tools whose walk is
        # built. The batch makes `decide`'s checks once and calls each walk
        # straight, and sorts each verdict as it comes: a deferral holds its
        # allowed siblings, and so does a call that could not be evaluated (a
        # failed verdict blocks); `decide` never returns a held verdict. (One
        # loop, not a comprehension and passes over its list. A batch of 5
        # over 5 single decisions on the realistic bundle: 1.41 -> 1.26x,
        # `python -m benchmarks`, back to back.)
        verdicts: list = []
        allowed: list[int] = []
        holds = undecided = False
        try:
            if owner._sets:  # (without grant sets a scope changes nothing)
                raise KeyError
            append = verdicts.append
            for call in calls:
                verdict = walks[call["tool"]](call["args"]) if len(call) == 2 else None
                if verdict is None:  # to decide in full (its walk ran: not twice)
                    undecided = True
                else:
                    action = verdict[0]  # once: a tuple subclass's subscript is not specialised
                    if action == "allow":
                        allowed.append(len(verdicts))
                    elif action == "defer" or verdict[_FAILED]:
                        holds = True
                append(verdict)
        except Exception:  # another shape, an unknown tool, a fault: `decide` takes each
            verdicts = [_one(decide, call, scope) for call in calls]
            holds, allowed = _holders(verdicts)
            undecided = False
        if undecided:  # decide in full what the walks left (each walk ran: not twice)
            # Sorted here as in the loop above, not by `_holders` over the whole
            # list again: that costs 1.3-1.7% of a batch at N=10 (measured).
            for i, verdict in enumerate(verdicts):
                if verdict is None:
                    call = calls[i]
                    verdict = verdicts[i] = (
                        full(call["tool"], call["args"])
                        if len(call) == 2
                        else _one(decide, call, scope)
                    )
                    if verdict[0] == "allow":
                        allowed.append(i)
                    elif verdict[0] == "defer" or verdict[_FAILED]:
                        holds = True
        if holds and allowed:
            for i in allowed:
                verdict = verdicts[i]
                verdicts[i] = twin_of(id(verdict)) or twin(verdict)
        return verdicts

    if fast.WALKS == "compiled":
        # With compiled walks, this loop in Python cost a batch of five at
        # N=10 1.4x five single decisions (`python -m benchmarks`): the
        # common batch goes through the same loop compiled, the rest here.
        return fast.COMPILED.batch_front(walks, sets, by_scope, owner, decide_batch, twins, _FAILED)
    return decide_batch
