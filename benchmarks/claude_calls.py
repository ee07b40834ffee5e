"""Claude Code's calls on a policy compiled from Claude Code settings: `python -m benchmarks.claude_calls`.

The suite's policies (`python -m benchmarks`) read `bash` commands whole, as
the issue's benchmark asks. A policy compiled from Claude Code's settings
does not: `Bash` commands go through the shell splitter (every command of
`a && b | c` decided), and the paths of `Read`, `Edit`, `Write`, `Glob`
and `Grep` through the path splitter (resolved against the call's `cwd`,
`..` and `~` collapsed), `WebFetch` URLs through the URL splitter. This
times those calls with `Table.decide`, as an agent that loads the artifact
makes them: per kind of call, each value new (never decided before) and
made again (drawn from 50 values decided before), with the floor (a dict
lookup of a precomputed verdict) in the same loop, and the reference
interpreter on each row's first calls, its verdicts checked against
policyc's (a disagreement stops the run).

Each call is timed alone, the two clock reads' own cost taken off; a row
gives the median and p99 of its quickest round of `--rounds` (a round of
new calls makes new values), and what its calls got. Writes
benchmarks/results/claude.json and claude.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from policyc.compiler import compile_bundle
from policyc.compiler.artifact import inputs_digest
from policyc.grammar.claude import read_claude_settings
from policyc.reference import ReferenceEngine
from policyc.runtime import load

ROOT = Path(__file__).resolve().parent.parent
CWD = "/home/dev/repo"

# A team's settings, of the kind the README's Claude Code section compiles.
SETTINGS = {
    "permissions": {
        "allow": [
            "Bash(git status)",
            "Bash(git diff:*)",
            "Bash(git log:*)",
            "Bash(npm test:*)",
            "Bash(npm run lint)",
            "Bash(ls:*)",
            "Bash(cat:*)",
            "Bash(grep:*)",
            "Read(./**)",
            "Edit(./src/**)",
            "Edit(./tests/**)",
            "WebFetch(domain:docs.python.org)",
            "mcp__github__get_issue",
        ],
        "deny": [
            "Bash(rm -rf:*)",
            "Bash(curl:*)",
            "Read(./.env)",
            "Read(~/.ssh/**)",
            "Edit(./.github/workflows/**)",
        ],
        "ask": ["Bash(git push:*)", "Bash(npm publish:*)", "Edit(./package.json)"],
    }
}

COMMANDS = [  # each made new by its {i}
    "git status --short src/dir{i}",
    "git diff --stat HEAD~{i}",
    "git log --oneline -n {i}",
    "npm test -- --grep case{i}",
    "ls -la src/dir{i}",
    "cat src/mod{i}.py | grep def",
    "git add -A && git commit -m 'step {i}' && git push origin main",
    "npm run lint && npm test -- --bail > logs/run{i}.txt",
    "rm -rf build{i}",
    "python -m pytest tests/test_{i}.py -q",
]
PATHS = [
    "src/pkg/mod{i}.py",
    "./tests/test_{i}.py",
    "src/sub{i}/../../.env",
    "{cwd}/docs/page{i}.md",
    "~/.ssh/id_{i}",
    ".github/workflows/ci{i}.yml",
]
URLS = ["https://docs.python.org/3/library/m{i}.html", "https://example.com/p{i}"]


def make_call(kind: str, rng: random.Random, i: int) -> tuple[str, dict]:
    """A call of `kind` whose values are made from `i` (the same `i`, the same call)."""
    if kind == "Bash":
        return "Bash", {"command": rng.choice(COMMANDS).format(i=i)}
    if kind in ("Read", "Edit"):
        path = rng.choice(PATHS).format(i=i, cwd=CWD)
        if kind == "Read":
            return "Read", {"file_path": path}
        return "Edit", {"file_path": path, "old_string": f"a{i}", "new_string": f"b{i}"}
    if kind == "WebFetch":
        return "WebFetch", {"url": rng.choice(URLS).format(i=i), "prompt": "summarise"}
    return f"mcp__github__{rng.choice(('get_issue', 'create_issue'))}", {"number": i}


KINDS = ("Bash", "Read", "Edit", "WebFetch", "MCP")


def bundle_and_artifact():
    """The settings' bundle (for the reference interpreter) and its compiled artifact."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "settings.json"
        path.write_text(json.dumps(SETTINGS))
        bundle, raw = read_claude_settings([("project", str(path))], trust_workspace=True)
    return bundle, compile_bundle(bundle, inputs_digest(raw))


def clock_overhead_ns(samples: int = 5000) -> float:
    """Two clock reads with nothing between them: what each time below has in it besides the call."""
    clock = time.perf_counter_ns
    times = []
    for _ in range(samples):
        start = clock()
        times.append(clock() - start)
    return statistics.median(times)


def time_calls(decide, floor, calls: list, base: float) -> tuple[list[float], list[float]]:
    """Each call's time (ns) with `decide` and with the floor, in turn."""
    clock = time.perf_counter_ns
    ours, floors = [], []
    for tool, args in calls:
        start = clock()
        decide(tool, args, cwd=CWD)
        ours.append(clock() - start - base)
        start = clock()
        floor(tool)
        floors.append(clock() - start - base)
    return ours, floors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.claude_calls",
        description="Time Claude Code's calls on a policy compiled from Claude Code settings.",
    )
    parser.add_argument("--calls", type=int, default=3000, help="calls per row (default 3000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per row (default 5)")
    parser.add_argument(
        "--reference-calls",
        type=int,
        default=300,
        help="calls per row the reference interpreter decides too (default 300)",
    )
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results"), help="output folder")
    args = parser.parse_args(argv)

    bundle, compiled = bundle_and_artifact()
    table = load(compiled)
    table.warm()
    reference = ReferenceEngine(bundle)
    # The floor: the tool looked up in a dict of precomputed verdicts.
    tools = ("Bash", "Read", "Edit", "WebFetch")
    tools += ("mcp__github__get_issue", "mcp__github__create_issue")
    floor = {tool: table.decide(tool, {}) for tool in tools}.get
    rows: dict[str, dict] = {}
    seen = 50  # "made again": values drawn from these many, each decided before
    for kind in KINDS:
        for how in ("new", "again"):
            best = None  # the round with the lowest median: (median, ordered times, floor median)
            for r in range(args.rounds):
                rng = random.Random(f"{kind}/{how}/{r}")
                if how == "new":  # values no round has made
                    start = (r + 1) * 10 * args.calls
                    calls = [make_call(kind, rng, start + i) for i in range(args.calls)]
                else:
                    calls = [make_call(kind, rng, rng.randrange(seen)) for _ in range(args.calls)]
                    for tool, call_args in calls:
                        table.decide(tool, call_args, cwd=CWD)
                base = clock_overhead_ns()
                ours, floors = time_calls(table.decide, floor, calls, base)
                median = statistics.median(ours)
                if best is None or median < best[0]:
                    best = (median, sorted(ours), statistics.median(floors))
            # What the last round's calls got, and the reference interpreter on
            # its first calls, timed alike and checked against policyc's verdicts.
            got = {"allow": 0, "defer": 0, "block": 0}
            for tool, call_args in calls:
                got[table.decide(tool, call_args, cwd=CWD).action] += 1
            checked = calls[: args.reference_calls]
            slow, _ = time_calls(reference.decide, floor, checked, clock_overhead_ns())
            for tool, call_args in checked:
                ours_verdict = table.decide(tool, call_args, cwd=CWD)
                theirs = reference.decide(tool, call_args, cwd=CWD)
                if ours_verdict != theirs:
                    raise SystemExit(
                        f"policyc and the reference disagree on {tool} {call_args}: "
                        f"{ours_verdict} against {theirs}"
                    )
            median, ordered, floor_median = best
            rows[f"{kind} {how}"] = {
                "p50_us": median / 1000,
                "p99_us": ordered[int(len(ordered) * 0.99)] / 1000,
                "floor_us": floor_median / 1000,
                "reference_p50_us": statistics.median(slow) / 1000,
                "checked_against_reference": len(checked),
                "actions": got,
            }
            print(f"{kind} {how}: done", file=sys.stderr, flush=True)
    lines = [
        f"Claude Code's calls on a policy compiled from its settings ({args.calls} calls a row, "
        f"cwd given; the quickest of {args.rounds} rounds; µs). The reference interpreter "
        f"decided the first {args.reference_calls} of each row too, and agreed on every one.",
        "",
        "| calls | p50 | p99 | floor p50 | p50 ÷ floor | reference p50 | reference ÷ policyc "
        "| allow / defer / block |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        ratio = r["p50_us"] / r["floor_us"] if r["floor_us"] > 0 else float("nan")
        against = r["reference_p50_us"] / r["p50_us"] if r["p50_us"] > 0 else float("nan")
        got = r["actions"]
        lines.append(
            f"| {name} | {r['p50_us']:.2f} | {r['p99_us']:.2f} | {r['floor_us']:.2f} "
            f"| {ratio:.0f}× | {r['reference_p50_us']:.1f} | {against:.0f}× "
            f"| {got['allow']} / {got['defer']} / {got['block']} |"
        )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "claude.json").write_text(json.dumps({"rows": rows, "calls": args.calls}, indent=2))
    (out / "claude.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
