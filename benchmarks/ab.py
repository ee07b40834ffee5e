"""Another commit's runtime against this one, in one process: `python -m benchmarks.ab OLD`.

OLD is a checkout of the other commit (`git worktree add /tmp/old HEAD~3`).
Its `src/policyc` is copied to a temporary directory as `policyc_old` (the
runtime imports itself relatively), both load the same artifacts, compiled
here, and must give the same verdict on every call. Then blocks of 500
calls alternate between them, each call keeping its quickest of four
rounds, at 1, 5 and 50 decisions per timing; prints the median, mean, p90
and p99 of each (ns, the timing loop's own cost not subtracted: it is the
same for both). Then `decide_batch` the same way, over the calls in
batches of 5 (ns per batch; the batches must agree too).

With `--evict MB`, MB megabytes of other memory are read after each
block, as the full suite's other engines read theirs between policyc's
blocks: a change that gains while the two tables have the CPU cache to
themselves may gain nothing there (two prefetches did; see
benchmarks/HISTORY.md).

Two processes, one per commit, would each meet the machine in a different
mood: this machine changes speed for seconds at a time, and the full
benchmark's medians moved 5-10% between runs of the same code. Side by
side in one process, a change of a few percent shows.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from policyc.runtime import load

from . import engines, workload

BLOCK = 500


def _old_load(checkout: Path, into: Path):
    source = checkout / "src" / "policyc"
    if not (source / "runtime" / "__init__.py").is_file():
        raise SystemExit(f"benchmarks.ab: {checkout} has no src/policyc/runtime to compare")
    shutil.copytree(source, into / "policyc_old")
    sys.path.insert(0, str(into))
    return importlib.import_module("policyc_old.runtime").load


def _times(decide, calls: list, repeats: int) -> list[float]:
    clock = time.perf_counter_ns
    out = []
    for tool, args in calls:
        start = clock()
        for _ in range(repeats):
            decide(tool, args)
        out.append((clock() - start) / repeats)
    return out


def compare(
    decides: dict, calls: list, repeats: int, rounds: int = 4, evict: bytearray | None = None
) -> dict[str, list[float]]:
    """Each call's quickest time per engine; blocks alternate, and so does who goes first.

    With `evict`, a line of it in every 64 bytes is read after each block:
    the next block meets caches the other engines of the full suite would
    have filled with their own memory (`--evict`).
    """
    kept: dict[str, list[float]] = {name: [] for name in decides}
    for r in range(rounds):
        for first in range(0, len(calls), BLOCK):
            chunk = calls[first : first + BLOCK]
            names = list(decides)
            if (r + first // BLOCK) % 2:
                names.reverse()
            for name in names:
                times = _times(decides[name], chunk, repeats)
                if evict is not None:
                    evict[::64]  # (a copy of a byte a line: every line read)
                if r == 0:
                    kept[name] += times
                else:
                    end = first + len(times)
                    kept[name][first:end] = map(min, kept[name][first:end], times)
    return kept


def _stats(times: list[float]) -> str:
    q = statistics.quantiles(times, n=100)
    return (
        f"median {statistics.median(times):6.0f}  mean {statistics.mean(times):6.0f}  "
        f"p90 {q[89]:6.0f}  p99 {q[98]:6.0f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="a checkout of the commit to compare against")
    parser.add_argument("--sizes", nargs="*", default=["10", "1000", "100000", "realistic"])
    parser.add_argument(
        "--by-kind", action="store_true", help="also each kind of call's median (workload.KINDS)"
    )
    parser.add_argument(
        "--globs",
        action="store_true",
        help="time values the policy's inner globs match (workload.glob_values)"
        " instead of the suite's calls",
    )
    parser.add_argument(
        "--evict",
        type=int,
        default=0,
        metavar="MB",
        help="read MB megabytes of other memory after each block of calls, as the"
        " full suite's other engines do between policyc's blocks (default: 0, none)",
    )
    args = parser.parse_args(argv)
    # (written, not zeroed: untouched zero pages all map to one page)
    evict = bytearray(b"\x01") * (args.evict << 20) if args.evict else None
    with tempfile.TemporaryDirectory() as tmp:
        load_old = _old_load(args.old, Path(tmp))
        for size in args.sizes:
            bundle = (
                workload.realistic_bundle()
                if size == "realistic"
                else workload.synthetic_bundle(int(size))
            )
            labelled = (
                [("globs", tool, call_args) for tool, call_args in workload.glob_values(bundle)]
                if args.globs
                else workload.labelled_calls(bundle)
            )
            calls = [(tool, call_args) for _, tool, call_args in labelled]
            artifact = engines.compile_artifact(bundle)
            old, new = load_old(artifact).warm(), load(artifact).warm()
            for tool, call_args in calls:
                if old.decide(tool, call_args) != new.decide(tool, call_args):
                    raise SystemExit(f"{size}: the two disagree on {tool} {call_args}")
            for repeats in (1, 5, 50):
                kept = compare({"old": old.decide, "new": new.decide}, calls, repeats, evict=evict)
                for name, times in kept.items():
                    print(f"{size:>9} {repeats:2}x {name}: {_stats(times)} ns", flush=True)
                if args.by_kind:
                    for kind, what in workload.KINDS.items():
                        if not any(k == kind for k, _, _ in labelled):
                            continue
                        medians = [
                            statistics.median(
                                t for (k, _, _), t in zip(labelled, times, strict=True) if k == kind
                            )
                            for times in kept.values()
                        ]
                        print(
                            f"{size:>9} {repeats:2}x   {what}: "
                            + " -> ".join(f"{m:.0f}" for m in medians)
                            + " ns (old -> new median)",
                            flush=True,
                        )
            # A batch is one argument: timed as a call of decide_batch(batch, None).
            batches = [
                ([{"tool": t, "args": a} for t, a in calls[i : i + 5]], None)
                for i in range(0, len(calls), 5)
            ]
            for batch, _ in batches:
                if old.decide_batch(batch) != new.decide_batch(batch):
                    raise SystemExit(f"{size}: the two disagree on the batch {batch}")
            kept = compare(
                {"old": old.decide_batch, "new": new.decide_batch}, batches, 5, evict=evict
            )
            for name, times in kept.items():
                print(f"{size:>9} batch {name}: {_stats(times)} ns", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
