"""decide_batch against single decisions, alone: `python -m benchmarks.batches`.

The full suite times batches among its other engines, 10 passes a round;
on a machine whose speed swings for seconds at a time, one row's ratio
can read over the target in one run and under it in the next. Here one
policy at a time: its calls in batches of 5, every batch decided, then
the same calls one by one, in turn, PASSES times (`batch_ratio` compares
them), and the whole is done TRIES times to show the spread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from policyc.runtime import load

from . import engines, workload

PASSES = 50
TRIES = 3


def batch_ratio(batched: list[int], singles: list[int]) -> float:
    """decide_batch against single decisions: the median, over the passes,
    of a pass of batches over the pass of singles timed right after it.

    Each pair meets the machine at one speed. The quickest pass of each,
    compared, read 0.84-1.16 on the realistic bundle for the same code in
    one process (two tries each, six hash seeds), where this read 0.86-0.93:
    one lucky quick pass of singles was enough to move it.
    """
    return statistics.median(b / s for b, s in zip(batched, singles, strict=True))


def ratios(table, calls: list, passes: int, tries: int) -> list[float]:
    """decide_batch over 5 single decisions (`batch_ratio`), once a try."""
    chunks = [
        [{"tool": t, "args": a} for t, a in calls[i : i + 5]] for i in range(0, len(calls), 5)
    ]
    for chunk in chunks:  # every walk and held twin built first
        table.decide_batch(chunk)
    out = []
    clock = time.perf_counter_ns
    for _ in range(tries):
        batched, singles = [], []
        for _ in range(passes):
            start = clock()
            for chunk in chunks:
                table.decide_batch(chunk)
            batched.append(clock() - start)
            start = clock()
            for chunk in chunks:
                for call in chunk:
                    table.decide(call["tool"], call["args"])
            singles.append(clock() - start)
        out.append(batch_ratio(batched, singles))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.batches", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--sizes", nargs="*", default=["10", "1000", "100000", "realistic"])
    parser.add_argument("--calls", type=int, default=5_000)
    parser.add_argument("--passes", type=int, default=PASSES)
    parser.add_argument("--tries", type=int, default=TRIES)
    args = parser.parse_args(argv)
    if min(args.calls, args.passes, args.tries) < 1:
        parser.error("--calls, --passes and --tries must be at least 1")
    print("| policy | batch of 5 / 5 singles, each try |")
    print("|---|---|")
    for size in args.sizes:
        bundle = (
            workload.realistic_bundle()
            if size == "realistic"
            else workload.synthetic_bundle(int(size))
        )
        table = load(engines.compile_artifact(bundle)).warm()
        found = ratios(table, workload.calls(bundle, args.calls), args.passes, args.tries)
        label = size if size == "realistic" else f"N={size}"
        print(f"| {label} | {' / '.join(f'{r:.3f}' for r in found)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
