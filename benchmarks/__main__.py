"""Run the benchmark suite: `python -m benchmarks [--quick] [--out DIR]`.

One run, side by side, per rule count N: the floor (a dict lookup returning
a precomputed verdict), a second floor that looks up each call's own verdict
(`engines.answers`), policyc's table runtime and generated code, the
reference interpreter, cedarpy (single and batch) and pycasbin on the same
policy and the same seeded calls. Every answer a peer or the reference gives
is checked against the others; a disagreement stops the run.

Per-call latency: each call is timed over a few repeats with
`perf_counter_ns`, the cost of the timing loop itself (the same loop with no
call in it) is subtracted, and the median over calls is reported. The call
is counted: the floor is a function, as every engine is. The floor and
policyc's backends are timed after every row is built, in rounds that each
go through all the rows, each call keeping its quickest round; within a
round, a row's engines take blocks of calls in turn.
Engines slower than a budget per size are timed on the first calls only, and
say how many.

Writes DIR/results.json, DIR/results.md and DIR/latency.png (with matplotlib).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from policyc.bench import loop_overhead_ns

from . import engines, workload
from .batches import batch_ratio

SIZES = (10, 100, 1_000, 10_000, 100_000)
REPEATS = 5
# Per round: 50 in all. Each pass is ~5 ms; with 15 in all the ratio of one
# row moved 1.08-1.25 between two full runs of the same code (min of 15
# consecutive passes in a quiet process: 1.07-1.13), so a row could read over
# the target by the luck of which passes a slow spell hit.
BATCH_PASSES = 10
# Rounds over all the rows (`--rounds`). On a machine that spends long
# spells at half speed (one session's: a fixed loop took 5-9 ms second by
# second), five rounds left a whole row's floor slow; more rounds give
# each call more chances at the usual speed.
ROUNDS = 5


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    from policyc.runtime import fast

    return {
        "walks": fast.WALKS,  # policyc's: "compiled" (_walks.pyx) or "pure"
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
    }


def per_call_ns(
    fn,
    calls,
    budget_s: float,
    repeats: int = REPEATS,
    answers: list | None = None,
    base: float | None = None,
) -> list[float]:
    """Per-call latencies (ns), the timing loop's own cost (`base`) subtracted.

    Stops after the budget (at least one call). With `answers`, also records
    what `fn` returned for each timed call (use repeats=1 for slow engines).
    """
    clock = time.perf_counter_ns
    if base is None:
        base = loop_overhead_ns(repeats, 2000)
    out = []  # (with base=0.0: the raw times, for the caller to subtract)
    deadline = time.perf_counter() + budget_s
    for i, (tool, args) in enumerate(calls):
        start = clock()
        for _ in range(repeats):
            answer = fn(tool, args)
        out.append(max(0.0, (clock() - start) / repeats - base))
        if answers is not None:
            answers.append(answer)
        if (i >= 20 or budget_s < 60) and time.perf_counter() > deadline:
            break
    return out


def interleaved_per_call_ns(
    fns: dict, calls, repeats: int = REPEATS, block: int = 500
) -> dict[str, list[float]]:
    """Raw per-call times (ns) of several engines, in blocks of calls: each
    block is timed on every engine in turn, each engine going through it call
    by call.

    This machine changes speed for seconds at a time (the floor and policyc
    both ~1.65x slower, measured). Timed engine after engine over the whole
    workload, a change between two engines' passes skewed their ratio (a
    floor of 0.09 us beside policyc's 0.74 in one row); blocks of a few
    milliseconds per engine see the same speed. Not call by call: between
    calls the other engines' memory evicted the floor's, and the floor of
    N=1,000 doubled (0.05 -> 0.11 us, measured).
    """
    clock = time.perf_counter_ns
    out: dict[str, list[float]] = {name: [] for name in fns}
    for first in range(0, len(calls), block):
        chunk = calls[first : first + block]
        for name, fn in fns.items():
            record = out[name].append
            for tool, args in chunk:
                start = clock()
                for _ in range(repeats):
                    fn(tool, args)
                record((clock() - start) / repeats)
    return out


def summary(samples: list[float]) -> dict:
    ordered = sorted(samples)

    def q(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {"calls": len(samples), "p50_ns": q(0.5), "p90_ns": q(0.9), "p99_ns": q(0.99)}


def probe(kind: str, path: Path) -> dict:
    """Compile or load in a fresh interpreter: wall time and peak resident memory."""
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.probe", kind, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def bench_size(label: str, bundle: dict, labelled: list, args, tmp: Path) -> tuple[dict, FastRow]:
    """One policy's row: compile, load, the slow engines; the fast ones are
    built here and timed later (`time_fast_rows`). `labelled`: the calls,
    each with its kind first (`workload.labelled_calls`)."""
    kinds = [kind for kind, _, _ in labelled]
    calls = [(tool, call) for _, tool, call in labelled]
    print(f"[{label}] compiling ...", file=sys.stderr, flush=True)
    bundle_path = tmp / f"{label}.json"
    bundle_path.write_text(json.dumps(bundle))
    compiled = probe("compile", bundle_path)
    artifact = Path(compiled["artifact"]).read_bytes()
    loaded = probe("load", Path(compiled["artifact"]))
    row: dict = {
        "label": label,
        "rules": compiled["rules"],
        "compile_s": compiled["seconds"],
        "compile_peak_mb": compiled["peak_mb"],
        "artifact_bytes": len(artifact),
        "bytes_per_rule": round(len(artifact) / max(1, compiled["rules"]), 1),
        "load_s": loaded["load_seconds"],
        "warm_s": loaded["warm_seconds"],
        "loaded_rss_mb": loaded["rss_mb"],
        "engines": {},
    }

    table = engines.policyc_table(artifact)
    for tool, call in calls[:2000]:  # build the per-tool paths before timing
        table(tool, call)
    runners = {"floor": engines.floor(artifact).raw, "policyc": table.raw}
    fields = {tool: spec["field"] for tool, spec in bundle.get("matchers", {}).items()}
    # From a table of its own: one that shared policyc's verdicts would find
    # them in the cache wherever policyc had just returned them (or warm them
    # for policyc), in the blocks of calls the two take in turn.
    runners["answers"] = engines.answers(engines.policyc_table(artifact).raw, calls, fields).raw
    pure = engines.policyc_pure(artifact, calls)
    if pure is not None:
        runners["policyc-pure"] = pure.raw
    generated = engines.policyc_generated(artifact, tmp / f"{label}_gen.py")
    if generated is not None:
        runners["policyc-generated"] = generated.raw
    slow = {"reference": lambda: engines.reference(bundle)}
    skipped = {}
    if args.peers:
        if compiled["rules"] <= args.cedar_max:
            slow["cedarpy"] = lambda: engines.cedar(bundle)
        else:
            skipped["cedarpy"] = f"not run above {args.cedar_max} rules (see README)"
        if compiled["rules"] <= args.casbin_max:
            slow["pycasbin"] = lambda: engines.casbin(bundle)
        else:
            skipped["pycasbin"] = f"not run above {args.casbin_max} rules (see README)"
    row["skipped"] = skipped

    print(f"[{label}] engines built: {', '.join(runners)}", file=sys.stderr, flush=True)

    # The slow engines: timed on a prefix of the calls within a budget, and
    # every answer they give is checked against each other and against policyc.
    answered: dict[str, list[str]] = {}
    for name, make in slow.items():
        print(f"[{label}] timing {name} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        fn = make()
        build_s = time.perf_counter() - started
        answers: list[str] = []
        samples = per_call_ns(fn, calls, budget_s=args.budget, repeats=1, answers=answers)
        row["engines"][name] = summary(samples) | {"build_s": round(build_s, 2)}
        answered[name] = answers
    if "cedarpy" in answered:
        print(f"[{label}] timing cedarpy batch ...", file=sys.stderr, flush=True)
        batch = engines.cedar(bundle, batch=True)
        n = min(len(calls), max(20, row["engines"]["cedarpy"]["calls"]))
        start = time.perf_counter_ns()
        answered["cedarpy-batch"] = batch(calls[:n])
        row["engines"]["cedarpy-batch"] = {
            "calls": n,
            "p50_ns": (time.perf_counter_ns() - start) / n,
            "mean_only": True,
        }
    reference_answers = answered["reference"]
    checked = len(reference_answers)
    policyc_answers = [table(t, a) for t, a in calls]
    if generated is not None and [generated(t, a) for t, a in calls] != policyc_answers:
        raise SystemExit(f"{label}: the generated module disagrees with the table runtime")
    if pure is not None and [pure(t, a) for t, a in calls] != policyc_answers:
        raise SystemExit(f"{label}: the pure walks disagree with the compiled ones")
    for name, got in answered.items():
        k = min(len(got), checked)
        if got[:k] != reference_answers[:k] or policyc_answers[:k] != reference_answers[:k]:
            raise SystemExit(
                f"{label}: {name} disagrees with the reference; the translation is wrong"
            )
    row["checked_against_reference"] = checked

    # decide_batch of k = 5 calls against the same 5 single decisions, timed
    # with the fast engines (see `time_batches`). Every per-tool path and
    # held verdict is built first: this measures the hold, not the build.
    loaded_table = engines.load(artifact)
    chunks = [
        [{"tool": t, "args": a} for t, a in calls[i : i + 5]]
        for i in range(0, min(len(calls), 5000), 5)
    ]
    for chunk in chunks:
        loaded_table.decide_batch(chunk)

    return row, FastRow(row, runners, calls, kinds, table.raw, (loaded_table, chunks))


class FastRow:
    """A row's fast engines and what their rounds kept (see `time_fast_rows`)."""

    def __init__(
        self, row: dict, runners: dict, calls: list, kinds: list, policyc, batches: tuple
    ) -> None:
        self.row, self.runners, self.calls, self.policyc = row, runners, calls, policyc
        self.kinds = kinds  # each call's kind (a key of workload.KINDS)
        self.batches = batches  # (a loaded table, the calls in batches of 5)
        self.quickest: dict[str, list[float]] = {}  # engine -> each call's quickest raw ns
        self.policyc_by_repeats: dict[int, list[float]] = {}
        self.batch_passes: tuple[list[int], list[int]] = ([], [])  # batched, singles (ns)


def time_batches(fast: FastRow, passes: int) -> None:
    """`passes` passes of decide_batch over every batch and of the same calls
    decided one by one, interleaved; each pass of batches is compared with
    the pass of singles right after it, across all rounds
    (`batches.batch_ratio`)."""
    table, chunks = fast.batches
    batched, singles = fast.batch_passes
    for _ in range(passes):
        start = time.perf_counter_ns()
        for chunk in chunks:
            table.decide_batch(chunk)
        batched.append(time.perf_counter_ns() - start)
        start = time.perf_counter_ns()
        for chunk in chunks:
            for call in chunk:
                table.decide(call["tool"], call["args"])
        singles.append(time.perf_counter_ns() - start)


def _keep_quickest(kept: list[float] | None, raw: list[float]) -> list[float]:
    return raw if kept is None else list(map(min, kept, raw))


def by_kind(kinds: list[str], raws: dict[str, tuple[list[float], float]]) -> dict:
    """Medians by kind of call ({kind: {"calls": n, name: ns}}): which calls
    grow with N. `raws`: {name: (each call's quickest raw ns, the timing
    loop's cost to take off)}. At 100,000 rules a call that hits a rule reads
    its own slot of the token table and its own verdict, cold, where one to
    another tool reads what N=10 reads; policyc's 50x times ("policyc 50×",
    all in cache) show what grows by work alone."""
    out: dict[str, dict] = {}
    for kind in dict.fromkeys(kinds):
        at = [i for i, k in enumerate(kinds) if k == kind]
        out[kind] = {"calls": len(at)}
        for name, (raw, base) in raws.items():
            out[kind][name] = statistics.median(max(0.0, raw[i] - base) for i in at)
    return out


def time_fast_rows(fast_rows: list[FastRow], rounds: int = ROUNDS) -> None:
    """Time the floor and policyc's backends of every row, in `rounds` rounds
    that each go through all the rows; each call keeps its quickest round.
    Batches against single decisions go the same rounds (`time_batches`).

    This machine changes speed for seconds at a time: a row timed in one go
    could fall wholly in a slow spell (one run's N=10 row: floor 0.09 us
    and policyc 0.79, against 0.05 and 0.47 in the next row and in other
    runs), which moved that row against the others. Rounds spread over the
    whole run give every row several chances at the machine's usual speed.
    Within a round, each row's engines take blocks of calls in turn (see
    `interleaved_per_call_ns`). The timing loop's own cost is estimated
    before each timing and the quickest estimate is subtracted from every
    quickest time, like for like (an estimate taken in a slow moment and
    subtracted in its own round or row moved the floor by half).

    Also policyc's median when each call is made once among all the others
    (its data mostly out of the CPU caches, as in an agent between model
    turns) and when it is repeated 50 times back to back (all of it in
    cache); the main table sits between them, REPEATS back to back.
    """
    estimates: dict[int, list[float]] = {REPEATS: [], 1: [], 50: []}
    for k in range(rounds):
        for fast in fast_rows:
            print(
                f"[{fast.row['label']}] timing round {k + 1}/{rounds}: "
                f"{', '.join(fast.runners)}, batches, policyc once and 50x ...",
                file=sys.stderr,
                flush=True,
            )
            estimates[REPEATS].append(loop_overhead_ns(REPEATS, 2000))
            for name, raw in interleaved_per_call_ns(fast.runners, fast.calls).items():
                fast.quickest[name] = _keep_quickest(fast.quickest.get(name), raw)
            time_batches(fast, BATCH_PASSES)
            for repeats in (1, 50):
                estimates[repeats].append(loop_overhead_ns(repeats, 2000))
                raw = per_call_ns(fast.policyc, fast.calls, 60, repeats=repeats, base=0.0)
                kept = fast.policyc_by_repeats.get(repeats)
                fast.policyc_by_repeats[repeats] = _keep_quickest(kept, raw)
    base = {repeats: min(values) for repeats, values in estimates.items()}
    for fast in fast_rows:
        row = fast.row
        for name, raw in fast.quickest.items():
            row["engines"][name] = summary([max(0.0, t - base[REPEATS]) for t in raw])
        raws = {
            name: (fast.quickest[name], base[REPEATS])
            for name in ("policyc", "answers")
            if name in fast.quickest
        }
        raws["policyc 50×"] = (fast.policyc_by_repeats[50], base[50])
        row["by_kind"] = by_kind(fast.kinds, raws)
        for how, repeats in (("once", 1), ("hot", 50)):
            raw = fast.policyc_by_repeats[repeats]
            row[f"policyc_{how}_p50_ns"] = summary([max(0.0, t - base[repeats]) for t in raw])[
                "p50_ns"
            ]
        batched, singles = fast.batch_passes
        row["batch_over_singles"] = round(batch_ratio(batched, singles), 3)
        floor = row["engines"]["floor"]["p50_ns"] or 1.0
        for stats in row["engines"].values():
            stats["over_floor"] = round(stats["p50_ns"] / floor, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="N = 10 and 1,000 only, 2,000 calls")
    parser.add_argument(
        "--sizes", type=int, nargs="*", help="rule counts (default: 10 ... 100,000)"
    )
    parser.add_argument(
        "--calls", type=int, default=10_000, help="seeded calls per size (default 10,000)"
    )
    parser.add_argument(
        "--budget", type=float, default=6.0, help="seconds per slow engine per size"
    )
    parser.add_argument(
        "--no-peers", dest="peers", action="store_false", help="skip cedarpy and pycasbin"
    )
    parser.add_argument(
        "--cedar-max",
        type=int,
        default=20_000,
        help="largest policy cedarpy is run on (at 100,000 policies one run outgrew 12 GB)",
    )
    parser.add_argument(
        "--casbin-max",
        type=int,
        default=2_000,
        help="largest policy pycasbin is run on (its regex matcher recompiles past 512 patterns: seconds per call)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=ROUNDS,
        help=f"timing rounds over all rows; each call keeps its quickest (default {ROUNDS})",
    )
    parser.add_argument("--out", default="benchmarks/results")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    sizes = args.sizes or ((10, 1_000) if args.quick else SIZES)
    n_calls = 2_000 if args.quick else args.calls
    if args.peers:
        try:
            import casbin  # noqa: F401
            import cedarpy  # noqa: F401
        except ImportError:
            print(
                "cedarpy or pycasbin missing: pip install '.[bench]' (or pass --no-peers)",
                file=sys.stderr,
            )
            return 2

    results = {
        "machine": machine(),
        "calls": n_calls,
        "repeats": REPEATS,
        "rounds": args.rounds,
        "rows": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        fast_rows = []
        labelled = [(f"N={n}", workload.synthetic_bundle(n)) for n in sizes]
        if not args.quick:
            labelled.append(("realistic", workload.realistic_bundle()))
        for label, bundle in labelled:
            calls = workload.labelled_calls(bundle, n_calls)
            row, fast = bench_size(label, bundle, calls, args, Path(tmp))
            results["rows"].append(row)
            fast_rows.append(fast)
        time_fast_rows(fast_rows, args.rounds)

    from .report import write_reports

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = write_reports(results, out)
    print((out / "results.md").read_text())
    print("wrote " + ", ".join(str(p) for p in paths), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
