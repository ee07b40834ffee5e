"""Measure one compile or one load in this (fresh) interpreter; print JSON.

python -m benchmarks.probe compile BUNDLE.json   # writes BUNDLE.artifact.json
python -m benchmarks.probe load ARTIFACT
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path


def peak_mb() -> float:
    """Peak resident memory of this process image.

    VmHWM, not ru_maxrss: on Linux ru_maxrss survives exec, so a child of a
    big parent would report the parent's peak.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def compile_one(path: Path) -> dict:
    from policyc.compiler import compile_bundle
    from policyc.compiler.artifact import inputs_digest
    from policyc.grammar import read_bundle

    start = time.perf_counter()
    bundle, raw = read_bundle(path)
    artifact = compile_bundle(bundle, inputs_digest(raw))
    seconds = time.perf_counter() - start
    out = path.with_suffix(".artifact.json")
    out.write_bytes(artifact)
    rules = sum(len(getattr(s.rules, a)) for s in bundle.sources for a in ("deny", "ask", "allow"))
    rules += sum(len(getattr(bundle.host, a)) for a in ("deny", "ask", "allow"))
    return {
        "artifact": str(out),
        "seconds": round(seconds, 3),
        "peak_mb": peak_mb(),
        "rules": rules,
    }


def load_one(path: Path) -> dict:
    from policyc.runtime import load

    start = time.perf_counter()
    table = load(path)
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    for tool in table.tools:  # the first decision per tool builds its walk
        table.decide(tool, {})
    warm = time.perf_counter() - start
    return {"load_seconds": round(loaded, 4), "warm_seconds": round(warm, 4), "rss_mb": peak_mb()}


if __name__ == "__main__":
    kind, target = sys.argv[1], Path(sys.argv[2])
    print(json.dumps(compile_one(target) if kind == "compile" else load_one(target)))
