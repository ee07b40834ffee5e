"""Hook start-up: process start to exit, the hook against `python3 -c pass`.

    python -m benchmarks.hook_startup [--runs 60] [--sizes 1000 10000 100000]

One run, side by side and interleaved, on artifacts of the suite's synthetic
bundle (1,000 rules unless --sizes says otherwise; Bash with the shell
splitter): `python -c pass`, then for each size `policyc-hook claude` (the
launcher the README's hooks block uses) and `policyc hook claude` (pip's
console-script wrapper, which imports `re` first). Prints p50/p99 of each and
the ratios to `python -c pass`. The hook runs once per tool call and loads the
whole artifact each time, so this is on the user's path, and grows with the
policy.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import engines, workload

PAYLOAD = json.dumps(
    {
        "session_id": "s",
        "cwd": "/repo",
        "hook_event_name": "PreToolUse",
        "tool_name": "bash",
        "tool_input": {"command": "git status && npm test"},
        "tool_use_id": "t",
    }
).encode()


# A user's interpreter caches bytecode; a CI's or a sandbox's may be told not
# to, and then every run would compile policyc's modules again.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], stdin: bytes, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, input=stdin, capture_output=True, check=True, env=ENV)
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.hook_startup", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=60, help="runs of each command (default 60)")
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[1000],
        metavar="N",
        help="rules on bash, one artifact each (default 1000)",
    )
    args = parser.parse_args()
    bindir = str(Path(sys.executable).parent)
    launchers = {
        "policyc-hook claude": [
            shutil.which("policyc-hook", path=bindir) or "policyc-hook",
            "claude",
        ],
        "policyc hook claude": [
            shutil.which("policyc", path=bindir) or "policyc",
            "hook",
            "claude",
        ],
    }
    with tempfile.TemporaryDirectory() as tmp:
        commands = {"python -c pass": ([sys.executable, "-c", "pass"], b"")}
        for size in args.sizes:
            print(f"compiling {size} rules ...", file=sys.stderr, flush=True)
            artifact = Path(tmp) / f"policy-{size}.artifact.json"
            bundle = workload.synthetic_bundle(size)
            bundle["matchers"]["bash"]["split"] = "shell"
            artifact.write_bytes(engines.compile_artifact(bundle))
            suffix = f", N={size}" if len(args.sizes) > 1 else ""
            for name, launcher in launchers.items():
                cmd = [*launcher, "--artifact", str(artifact)]
                answer = subprocess.run(
                    cmd, input=PAYLOAD, capture_output=True, check=True, env=ENV
                )
                print(f"{name}{suffix}: {answer.stdout.decode().strip()}")
                commands[name + suffix] = (cmd, PAYLOAD)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(4):  # interleave, so drift hits all alike
            for name, (cmd, stdin) in commands.items():
                samples[name] += run(cmd, stdin, max(1, args.runs // 4))

    def p(values, q):
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    base = statistics.median(samples["python -c pass"])
    for name, values in samples.items():
        p50 = statistics.median(values)
        print(f"{name:32} p50 {p50:5.1f} ms  p99 {p(values, 0.99):5.1f} ms  {p50 / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
