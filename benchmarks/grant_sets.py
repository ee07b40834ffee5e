"""Decisions with a grant set active: `python -m benchmarks.grant_sets`.

A skill's allowed-tools become a grant set (`table.activate`), and while one
is active every decision reads the lists it makes. This times `decide` on
the benchmark's seeded calls with no set and then with a set of two allow
rules active, in one process, per policy size: the median and p99 of each
call's quickest of five passes (5 decisions per timing, the timing loop's
own cost subtracted). The two tables take their passes in turn, so a slow
spell of the machine falls on both (timed one after the other, a run read
1.09 us without a set and 0.92 with one at N=1,000). Likewise
`decide_batch` over the first 5,000 calls in batches of 5: the quickest
of ten passes with the set over the quickest without. Then first decisions
as sessions come and go: what a scope pays for its lists and walks. Prints
markdown tables; nothing is written.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from policyc.runtime import load

from . import engines, workload
from .__main__ import REPEATS, loop_overhead_ns, per_call_ns

SET_RULES = "bash(make test:*) read(/repo/docs/:*)"


def quickest(decides: list, calls: list, passes: int = 5) -> list[list[float]]:
    """Each call's quickest time under each `decide`, their passes taken in turn."""
    base = min(loop_overhead_ns(REPEATS, 6000) for _ in range(3))
    kept: list[list[float] | None] = [None] * len(decides)
    for _ in range(passes):
        for i, decide in enumerate(decides):
            times = per_call_ns(decide, calls, budget_s=600, base=base)
            kept[i] = times if kept[i] is None else list(map(min, kept[i], times))
    return [times or [] for times in kept]


def batches_over(tables: list, calls: list, passes: int = 10) -> float:
    """decide_batch under tables[1] over tables[0]: quickest pass against quickest pass."""
    chunks = [
        [{"tool": t, "args": a} for t, a in calls[i : i + 5]]
        for i in range(0, min(len(calls), 5000), 5)
    ]
    best = [float("inf")] * len(tables)
    for _ in range(passes):
        for i, table in enumerate(tables):
            decide_batch = table.decide_batch
            start = time.perf_counter_ns()
            for chunk in chunks:
                decide_batch(chunk)
            best[i] = min(best[i], time.perf_counter_ns() - start)
    return best[1] / best[0]


def row(label: str, bundle: dict, k: int) -> str:
    calls = workload.calls(bundle, k=k)
    artifact = engines.compile_artifact(bundle)
    table = load(artifact).warm()
    granted = load(artifact).warm()
    granted.activate({"name": "skill", "rank": 0, "trusted": True}, allow=SET_RULES)
    for tool, args in calls:  # build the scope's walks first, as `warm` did for the policy's
        granted.decide(tool, args)
    plain, with_set = quickest([table.decide, granted.decide], calls)
    batches = batches_over([table, granted], calls)

    def p99(times: list[float]) -> float:
        return sorted(times)[int(0.99 * (len(times) - 1))]

    return (
        f"| {label} | {statistics.median(plain) / 1000:.2f} µs | {statistics.median(with_set) / 1000:.2f} µs "
        f"| {p99(plain) / 1000:.2f} µs | {p99(with_set) / 1000:.2f} µs | {batches:.2f}× |"
    )


def _ms(decide, *args, **kwargs) -> str:
    start = time.perf_counter()
    decide(*args, **kwargs)
    return f"{(time.perf_counter() - start) * 1000:.3f} ms"


def first_decisions(label: str, bundle: dict) -> str:
    """One `bash` decision in each situation, on a warmed table: how long it took."""
    table = load(engines.compile_artifact(bundle)).warm()
    call = {"command": "git status"}

    def skill(name: str) -> dict:
        return {"name": name, "rank": 0, "trusted": True}

    table.activate(skill("skill:a"), allow="bash(make test:*)", scope="a")
    own = _ms(table.decide, "bash", call, scope="a")
    table.activate(skill("skill:b"), allow="bash(make lint:*)", scope="b")
    after_other = _ms(table.decide, "bash", call, scope="a")
    table.activate(skill("skill:docs"), allow="read(/repo/docs:*)", scope="c")
    other_tool = _ms(table.decide, "bash", call, scope="c")
    table.activate(skill("skill:all"), allow="bash(make build:*)")
    first_session = _ms(table.decide, "bash", call, scope="d")
    second_session = _ms(table.decide, "bash", call, scope="e")
    return (
        f"| {label} | {own} | {after_other} | {other_tool} | {first_session} | {second_session} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 1000, 100_000])
    parser.add_argument("--calls", type=int, default=10_000)
    args = parser.parse_args(argv)
    print(
        "| policy | median, no set | median, a set active | p99, no set | p99, a set active "
        "| batches of 5, set ÷ none |"
    )
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        print(row(f"N={n}", workload.synthetic_bundle(n), args.calls), flush=True)
    print(row("realistic", workload.realistic_bundle(), args.calls), flush=True)
    print()
    print(
        "First `bash` decision in a scope: with its own set for bash | after another"
        " scope activated a set | with a set for `read` only | with one unscoped set,"
        " a first session | a second session"
    )
    print()
    print("| policy | own set | after another scope's | `read`-only set | unscoped: 1st | 2nd |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        print(first_decisions(f"N={n}", workload.synthetic_bundle(n)), flush=True)
    print(first_decisions("realistic", workload.realistic_bundle()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
