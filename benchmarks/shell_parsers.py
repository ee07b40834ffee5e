"""Choose the shell parser by measurement: `python -m benchmarks.shell_parsers`.

Candidates: policyc's own splitter (standard library), bashlex (a Python port
of bash's grammar) and tree-sitter with tree-sitter-bash (C). On every
command of the adversarial corpus (corpus/policyc/shell.json) we ask bash
itself (`bash -n`) whether the syntax is valid, and record for each parser
whether it accepts or rejects; then time each parser on 1-, 3- and 10-part
commands and on long ones, and time policyc's whole decision on the same.

Writes benchmarks/results/shell.json and shell.md. Needs `pip install
bashlex tree-sitter tree-sitter-bash` for the peers (skipped when missing).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = {
    "3 plain": "cd src && make && make test",
    1: "git status --short",
    3: "git add -A && git commit -m 'wip: tidy' && git push origin main",
    10: " && ".join(["make lint", "make test", "ls -la", "cat a.txt", "echo done > log.txt"] * 2),
    "long": "python -m pytest " + " ".join(f"tests/test_{i}.py" for i in range(120)),
}


def corpus_commands() -> list[str]:
    """Each command of the corpus once (two cases may try one command on two policies)."""
    return list(dict.fromkeys(call["args"]["command"] for call in _corpus_calls()))


def _corpus_calls() -> list[dict]:
    data = json.loads((ROOT / "corpus/policyc/shell.json").read_text())
    return [call for case in data["cases"] for call in case["calls"]]


def refused_by_design() -> set[str]:
    """Corpus commands policyc is meant to refuse (their verdict says so)."""
    return {
        call["args"]["command"]
        for call in _corpus_calls()
        if "could not be evaluated" in call["want"].get("reason", "")
    }


def bash_accepts(command: str) -> bool | None:
    if shutil.which("bash") is None:
        return None
    done = subprocess.run(["bash", "-n", "-c", command], capture_output=True, timeout=5)
    return done.returncode == 0


def parsers() -> dict:
    from policyc.runtime.splitters.shell import SplitError, split

    def ours(command: str) -> bool:
        try:
            split(command)
            return True
        except SplitError:
            return False

    out = {"policyc": ours}
    try:
        import bashlex

        def bashlex_parse(command: str) -> bool:
            try:
                bashlex.parse(command)
                return True
            except Exception:  # bashlex raises several error types, some not its own
                return False

        out["bashlex"] = bashlex_parse
    except ImportError:
        pass
    try:
        import tree_sitter_bash
        from tree_sitter import Language, Parser

        parser = Parser(Language(tree_sitter_bash.language()))

        def tree_sitter_parse(command: str) -> bool:
            return not parser.parse(command.encode()).root_node.has_error

        out["tree-sitter-bash"] = tree_sitter_parse
    except ImportError:
        pass
    return out


def time_us(fn, arg, repeats: int = 200) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        fn(arg)
        samples.append((time.perf_counter_ns() - start) / 1000)
    return samples


def main() -> int:
    import policyc

    commands = corpus_commands()
    by_design = refused_by_design()
    verdicts = {c: bash_accepts(c) for c in commands}
    results: dict = {"corpus": len(commands), "parsers": {}, "speed_us": {}, "decide_us": {}}
    for name, fn in parsers().items():
        accepted = {c: fn(c) for c in commands}
        valid = [c for c in commands if verdicts[c]]
        invalid = [c for c in commands if verdicts[c] is False]
        results["parsers"][name] = {
            "rejects_valid": sum(
                1 for c in valid if not accepted[c] and not (name == "policyc" and c in by_design)
            ),
            "refuses_by_design": sum(
                1 for c in valid if not accepted[c] and name == "policyc" and c in by_design
            ),
            "accepts_invalid": sum(1 for c in invalid if accepted[c]),
            "accepts_invalid_examples": [c for c in invalid if accepted[c]][:5],
            "valid": len(valid),
            "invalid": len(invalid),
        }
        results["speed_us"][name] = {
            str(k): round(statistics.median(time_us(fn, v)), 1) for k, v in PARTS.items()
        }
    bundle = {
        "matchers": {"bash": {"match": "glob", "field": "command", "split": "shell"}},
        "allow": "bash(git:*) bash(make:*) bash(ls:*) bash(cat:*) bash(echo:*) bash(python:*)",
        "default": "ask",
    }
    table = policyc.load(policyc.compile_text(json.dumps(bundle), "b.json"))
    for k, command in PARTS.items():
        # cold: a new command each time (the splitter's cache never hits); repeated: the same one
        fresh = iter(f"{command} v{i}" for i in range(10**6))
        cold = sorted(
            time_us(lambda _, it=fresh: table.decide("bash", {"command": next(it)}), None, 500)
        )
        warm = sorted(time_us(lambda c: table.decide("bash", {"command": c}), command, 500))
        results["decide_us"][str(k)] = {
            "cold_p50": round(cold[len(cold) // 2], 1),
            "cold_p99": round(cold[int(len(cold) * 0.99)], 1),
            "repeated_p50": round(warm[len(warm) // 2], 1),
            "repeated_p99": round(warm[int(len(warm) * 0.99)], 1),
        }
    out = ROOT / "benchmarks/results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "shell.json").write_text(json.dumps(results, indent=2))
    lines = [
        f"Adversarial corpus: {len(commands)} commands; bash -n says "
        f"{sum(1 for v in verdicts.values() if v)} are valid syntax.",
        "",
        "| parser | valid commands it cannot parse | invalid commands it accepts | 1 part µs | 3 parts µs | 10 parts µs | long µs |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in results["parsers"].items():
        s = results["speed_us"][name]
        lines.append(
            f"| {name} | {r['rejects_valid']} of {r['valid']}"
            + (f" (+{r['refuses_by_design']} refused by design)" if r["refuses_by_design"] else "")
            + f" | {r['accepts_invalid']} of {r['invalid']} "
            f"| {s['1']} | {s['3']} | {s['10']} | {s['long']} |"
        )
    lines += ["", "policyc decide on a split command (split + decide every part), µs:", ""]
    lines += ["| command | new each time p50 | p99 | repeated p50 | p99 |", "|---|---|---|---|---|"]
    for k, r in results["decide_us"].items():
        lines.append(
            f"| {k} | {r['cold_p50']} | {r['cold_p99']} | {r['repeated_p50']} | {r['repeated_p99']} |"
        )
    (out / "shell.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
