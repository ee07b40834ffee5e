"""Hook start-up: process start to exit, `policyc hook claude` against `python3 -c pass`.

    python -m benchmarks.hook_startup [--runs 40]

One run, side by side, on a 1,000-rule artifact; prints p50/p99 of each and
their ratio. The hook runs once per tool call, so this is on the user's path.
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
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        artifact = Path(tmp) / "policy.artifact.json"
        bundle = workload.synthetic_bundle(1000)
        bundle["matchers"]["bash"]["split"] = "shell"
        artifact.write_bytes(engines.compile_artifact(bundle))
        script = shutil.which("policyc", path=str(Path(sys.executable).parent)) or "policyc"
        hook = [script, "hook", "claude", "--artifact", str(artifact)]
        print(
            subprocess.run(hook, input=PAYLOAD, capture_output=True, check=True)
            .stdout.decode()
            .strip()
        )
        pairs = []
        for _ in range(2):  # interleave, so drift hits both
            pairs.append(
                (
                    run([sys.executable, "-c", "pass"], b"", args.runs // 2),
                    run(hook, PAYLOAD, args.runs // 2),
                )
            )
        base = sorted(x for a, _ in pairs for x in a)
        hooked = sorted(x for _, b in pairs for x in b)

    def p(samples, q):
        return samples[min(len(samples) - 1, int(q * len(samples)))]

    print(f"python -c pass: p50 {statistics.median(base):.1f} ms, p99 {p(base, 0.99):.1f} ms")
    print(f"policyc hook:   p50 {statistics.median(hooked):.1f} ms, p99 {p(hooked, 0.99):.1f} ms")
    print(f"ratio p50: {statistics.median(hooked) / statistics.median(base):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
