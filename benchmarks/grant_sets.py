"""Decisions with a grant set active: `python -m benchmarks.grant_sets`.

A skill's allowed-tools become a grant set (`table.activate`), and while one
is active every decision reads the lists it makes. This times `decide` on
the benchmark's seeded calls with no set and then with a set of two allow
rules active, in one process, per policy size: the median and p99 of each
call's quickest of three passes (5 decisions per timing, the timing loop's
own cost subtracted). Prints a markdown table; nothing is written.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from policyc.runtime import load

from . import engines, workload
from .__main__ import REPEATS, loop_overhead_ns, per_call_ns

SET_RULES = "bash(make test:*) read(/repo/docs/:*)"


def quickest(decide, calls: list, passes: int = 3) -> list[float]:
    base = loop_overhead_ns(REPEATS)
    kept: list[float] | None = None
    for _ in range(passes):
        times = per_call_ns(decide, calls, budget_s=600, base=base)
        kept = times if kept is None else list(map(min, kept, times))
    return kept or []


def row(label: str, bundle: dict, k: int) -> str:
    calls = workload.calls(bundle, k=k)
    table = load(engines.compile_artifact(bundle)).warm()
    plain = quickest(table.decide, calls)
    table.activate({"name": "skill", "rank": 0, "trusted": True}, allow=SET_RULES)
    for tool, args in calls:  # build the scope's walks first, as `warm` did for the policy's
        table.decide(tool, args)
    with_set = quickest(table.decide, calls)

    def p99(times: list[float]) -> float:
        return sorted(times)[int(0.99 * (len(times) - 1))]

    return (
        f"| {label} | {statistics.median(plain) / 1000:.2f} µs | {statistics.median(with_set) / 1000:.2f} µs "
        f"| {p99(plain) / 1000:.2f} µs | {p99(with_set) / 1000:.2f} µs |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 1000, 100_000])
    parser.add_argument("--calls", type=int, default=10_000)
    args = parser.parse_args(argv)
    print("| policy | median, no set | median, a set active | p99, no set | p99, a set active |")
    print("|---|---|---|---|---|")
    for n in args.sizes:
        print(row(f"N={n}", workload.synthetic_bundle(n), args.calls), flush=True)
    print(row("realistic", workload.realistic_bundle(), args.calls), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
