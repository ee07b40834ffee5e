"""Instructions per decision, counted: `python -m benchmarks.instructions`.

On this machine a timing moves by ±15% from run to run; the number of
instructions a decision executes does not. Under valgrind's callgrind
(`apt install valgrind`), a child process builds each size's policy, warms
its walks and decides the suite's seeded calls once, uncounted; then
decides them again through `itertools.starmap`, and callgrind counts only
inside starmap's step (`--toggle-collect=starmap_next`), which that pass
alone goes through. Prints the instructions per call (starmap's own few
included, the same at every size) and each size's ratio to the first.

What it cannot see is the memory: a call whose lines are out of the CPU
cache executes the same instructions and takes several times as long.
So it measures what grows with N by work alone, like the suite's 50×
column, without its noise. With `--cache-mb M`, callgrind also simulates
a cache of M MB behind a 48 KB first level (the benchmark machines'), and
prints the lines each call reads or writes from beyond it: between runs on
the AMD EPYC of benchmarks/HISTORY.md, what stayed cached of the process
was about 2 MB (a pointer chase), far less than the L3 the CPU reported. The
simulated cache holds this process alone, each call made once in turn as
the suite's `1×` column makes them. Needs a Python whose libpython keeps
its symbols (pyenv's and python.org's do); the count is checked not to be
zero.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import engines, workload

COUNTED = "starmap_next"


def child(size: int, artifact: Path, only: list[str]) -> None:
    """Load, warm, decide once; then the counted pass. Prints the calls counted."""
    from policyc.runtime import load

    bundle = workload.synthetic_bundle(size)
    if only == ["globs"]:
        calls = workload.glob_values(bundle)
    else:
        calls = [
            (tool, args)
            for kind, tool, args in workload.labelled_calls(bundle)
            if not only or kind in only
        ]
    table = load(artifact.read_bytes()).warm()
    decide = table.decide
    for tool, args in calls:  # walks built, globs' values settled: uncounted
        decide(tool, args)
    collections.deque(itertools.starmap(decide, calls), maxlen=0)  # counted
    print(json.dumps({"calls": len(calls)}))


def count(size: int, only: list[str], valgrind: str, cache_mb: float = 0) -> tuple[float, float]:
    """Instructions per call for one size, and with `cache_mb` the lines
    missed beyond that cache per call (else 0), from a callgrind child (the
    policy compiled here: compiling 100,000 rules under valgrind takes minutes)."""
    with tempfile.TemporaryDirectory() as tmp:
        artifact = Path(tmp) / "artifact.json"
        artifact.write_bytes(engines.compile_artifact(workload.synthetic_bundle(size)))
        command = [
            valgrind,
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--toggle-collect={COUNTED}",
            f"--callgrind-out-file={Path(tmp) / 'callgrind.out'}",
            *(
                [
                    "--cache-sim=yes",
                    "--D1=49152,12,64",
                    f"--LL={int(cache_mb * 2**20)},16,64",
                ]
                if cache_mb
                else []
            ),
            sys.executable,
            "-m",
            "benchmarks.instructions",
            "--child",
            str(size),
            str(artifact),
        ]
        if only:
            command += ["--only", *only]
        done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"benchmarks.instructions: the child failed:\n{done.stderr[-2000:]}")
    collected = re.search(r"Collected : (\d+)", done.stderr)
    calls = json.loads(done.stdout.strip().splitlines()[-1])["calls"]
    if collected is None or int(collected.group(1)) == 0 or calls == 0:
        raise SystemExit(
            f"benchmarks.instructions: callgrind counted nothing in {COUNTED}"
            " (a libpython without its symbols?)"
        )
    missed = re.search(r"LLd misses:\s+([\d,]+)", done.stderr) if cache_mb else None
    if cache_mb and missed is None:
        raise SystemExit("benchmarks.instructions: callgrind printed no cache misses")
    lines = int(missed.group(1).replace(",", "")) / calls if missed else 0.0
    return int(collected.group(1)) / calls, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[10, 100_000])
    parser.add_argument(
        "--only",
        nargs="*",
        choices=[*sorted(workload.KINDS), "globs"],
        help="count only these kinds of call (default: all); globs: values the"
        " policy's inner globs match instead (workload.glob_values)",
    )
    parser.add_argument(
        "--cache-mb",
        type=float,
        default=0,
        help="also simulate a cache of this many MB (power of two sizes; 2 is"
        " what the benchmark's AMD EPYC kept between runs) and count the lines missed",
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)  # SIZE ARTIFACT
    args = parser.parse_args(argv)
    only = args.only or []
    if "globs" in only and len(only) > 1:
        parser.error("--only globs is counted alone")
    if args.child is not None:
        child(int(args.child[0]), Path(args.child[1]), only)
        return 0
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("benchmarks.instructions: needs valgrind (apt install valgrind)", file=sys.stderr)
        return 2
    first = None
    for size in args.sizes:
        print(f"[N={size}] counting under callgrind ...", file=sys.stderr, flush=True)
        per_call, missed = count(size, only, valgrind, args.cache_mb)
        first = first or per_call
        line = f"N={size}: {per_call:.0f} instructions a call ({per_call / first:.2f}x)"
        if args.cache_mb:
            line += f", {missed:.2f} lines from beyond a {args.cache_mb:g} MB cache"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
