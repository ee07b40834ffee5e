"""policyc's flatness with nothing else in the process: `python -m benchmarks.alone`.

The full suite times policyc between its other engines' blocks of calls
(the pure walks, the generated code, the floors), whose memory at 100,000
rules is several times policyc's. Does that memory make N=100,000 cost
more than N=10 at 5x? Here only policyc's tables are built, one per size,
and take the same seeded calls in blocks, in turn, for a few rounds; each
call keeps its quickest round, and the timing loop's own cost is taken
off as the suite does. Prints each size's median at 1x, 5x and 50x and
its ratio to the first size's; with `--by-kind`, each kind of call's
median too (`--only KIND ...` times those kinds alone). `--calls K` takes
the first K of the suite's seeded calls: fewer calls, less of the CPU cache
their own dicts and strings fill.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from policyc.runtime import load

from . import engines, workload
from .__main__ import interleaved_per_call_ns, loop_overhead_ns

ROUNDS = 10


def _ratios(times: dict[int, list[float]], first: int) -> str:
    """Each size's median, and its ratio to the first size's."""
    medians = {size: statistics.median(t) for size, t in times.items()}
    return ", ".join(f"N={s} {m:.0f} ns ({m / medians[first]:.2f}x)" for s, m in medians.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[10, 100_000])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument(
        "--calls",
        type=int,
        default=10_000,
        help="how many of the seeded calls (the first K; default: the suite's 10,000)",
    )
    parser.add_argument("--by-kind", action="store_true", help="each kind of call's median too")
    parser.add_argument(
        "--only",
        nargs="*",
        choices=sorted(workload.KINDS),
        help="time only these kinds of call (default: all)",
    )
    args = parser.parse_args(argv)
    tables = {}
    for size in args.sizes:
        bundle = workload.synthetic_bundle(size)
        print(f"[N={size}] compiling and loading ...", file=sys.stderr, flush=True)
        labelled = [
            call
            for call in workload.labelled_calls(bundle, args.calls)
            if not args.only or call[0] in args.only
        ]
        calls = [(tool, call_args) for _, tool, call_args in labelled]
        kinds = [kind for kind, _, _ in labelled]
        tables[size] = (load(engines.compile_artifact(bundle)).warm(), calls, kinds)
    for repeats in (1, 5, 50):
        kept: dict[int, list[float]] = {}
        bases = []
        for _ in range(args.rounds):
            bases.append(loop_overhead_ns(repeats, 2000))
            for size, (table, calls, _) in tables.items():
                raw = interleaved_per_call_ns({"policyc": table.decide}, calls, repeats)["policyc"]
                prior = kept.get(size)
                kept[size] = raw if prior is None else list(map(min, prior, raw))
        base = min(bases)
        times = {size: [max(0.0, t - base) for t in raw] for size, raw in kept.items()}
        print(f"{repeats:2}x: " + _ratios(times, args.sizes[0]), flush=True)
        if args.by_kind:
            for kind in workload.KINDS:
                of_kind = {
                    size: [t for t, k in zip(raw, tables[size][2], strict=True) if k == kind]
                    for size, raw in times.items()
                }
                if all(of_kind.values()):
                    print(f"     {kind:8} " + _ratios(of_kind, args.sizes[0]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
