"""The benchmark scripts still run: smoke tests, with no timing asserted.

Speed is read from the scripts' output by people (README, "Speed"); what
is asserted here is that they run on a fresh install, write what they
say, and that the suite's check of every engine against the reference
held on its calls. Tiny sizes keep this to seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import ROOT


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_the_suite_runs_every_engine_and_checks_them_against_the_reference(tmp_path):
    out = tmp_path / "results"
    done = run(
        "benchmarks", "--sizes", "10", "--calls", "300", "--rounds", "1", "--budget", "0.3",
        "--no-peers", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    assert [row["label"] for row in results["rows"]] == ["N=10", "realistic"]
    for row in results["rows"]:
        engines = row["engines"]
        for name in ("floor", "answers", "policyc", "policyc-pure", "policyc-generated"):
            assert engines[name]["calls"] == 300 and engines[name]["p50_ns"] > 0
        # The reference is timed on the first calls within the budget; every
        # call it was timed on was checked against policyc's verdict.
        assert 0 < engines["reference"]["calls"] == row["checked_against_reference"] <= 300
        assert row["artifact_bytes"] > 0 and row["load_s"] >= 0
    table = (out / "results.md").read_text()
    assert "| N=10 (24 rules) |" in table and "| realistic (409 rules) |" in table


def test_the_hook_start_up_script_runs_the_installed_hook_at_each_size():
    done = run("benchmarks.hook_startup", "--runs", "4", "--sizes", "10", "100")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for size in (10, 100):
        for launcher in ("policyc-hook claude", "policyc hook claude"):
            [answer] = [line for line in lines if line.startswith(f"{launcher}, N={size}: ")]
            decision = json.loads(answer.split(": ", 1)[1])["hookSpecificOutput"]
            assert decision["permissionDecision"] in {"allow", "ask", "deny"}
            assert any(
                line.startswith(f"{launcher}, N={size} ") and " p50 " in line for line in lines
            )
    assert any(line.startswith("python -c pass ") for line in lines)


def test_the_claude_calls_script_times_and_checks_every_kind_of_call(tmp_path):
    done = run(
        "benchmarks.claude_calls", "--calls", "40", "--rounds", "1", "--reference-calls", "20",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads((tmp_path / "claude.json").read_text())["rows"]
    kinds = ("Bash", "Read", "Edit", "WebFetch", "MCP")
    assert list(rows) == [f"{kind} {how}" for kind in kinds for how in ("new", "again")]
    for row in rows.values():
        assert row["checked_against_reference"] == 20 and sum(row["actions"].values()) == 40
    # The calls meet the settings' rules: some of each answer, overall.
    for action in ("allow", "defer", "block"):
        assert sum(row["actions"][action] for row in rows.values()) > 0
    assert "| Bash again |" in (tmp_path / "claude.md").read_text()
