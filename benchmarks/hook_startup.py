"""Hook start-up: process start to exit, the hook against `python3 -c pass`.

    python -m benchmarks.hook_startup [--runs 60]

One run, side by side and interleaved, on a 1,000-rule artifact (Bash with
the shell splitter): `python -c pass`, `policyc-hook claude` (the launcher
the README's hooks block uses) and `policyc hook claude` (pip's console-script
wrapper, which imports `re` first). Prints p50/p99 of each and the ratios.
The hook runs once per tool call, so this is on the user's path.
"""

from __future__ import annotations

import argparse
import json
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


def run(cmd: list[str], stdin: bytes, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, input=stdin, capture_output=True, check=True)
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    bindir = str(Path(sys.executable).parent)
    with tempfile.TemporaryDirectory() as tmp:
        artifact = Path(tmp) / "policy.artifact.json"
        bundle = workload.synthetic_bundle(1000)
        bundle["matchers"]["bash"]["split"] = "shell"
        artifact.write_bytes(engines.compile_artifact(bundle))
        commands = {
            "python -c pass": ([sys.executable, "-c", "pass"], b""),
            "policyc-hook claude": (
                [shutil.which("policyc-hook", path=bindir) or "policyc-hook", "claude"],
                PAYLOAD,
            ),
            "policyc hook claude": (
                [shutil.which("policyc", path=bindir) or "policyc", "hook", "claude"],
                PAYLOAD,
            ),
        }
        for name, (cmd, stdin) in commands.items():
            if name != "python -c pass":
                cmd += ["--artifact", str(artifact)]
                answer = subprocess.run(cmd, input=stdin, capture_output=True, check=True)
                print(f"{name}: {answer.stdout.decode().strip()}")
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
        print(f"{name:22} p50 {p50:5.1f} ms  p99 {p(values, 0.99):5.1f} ms  {p50 / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
