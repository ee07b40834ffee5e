"""The command line: outputs and exit codes (0 ok, 1 failing check, 2 usage/policy/artifact)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import policyc
from policyc.cli import main

from .conftest import CORPUS

BUNDLE = """\
default ask
tool bash glob(command)
source org rank 2 trusted {
  deny bash(rm:*)
  because "never delete"
}
allow bash(git status)
example "status runs" {
  call bash {"command": "git status"}
  want allow
}
"""


@pytest.fixture
def artifact(tmp_path):
    bundle = tmp_path / "team.policy"
    bundle.write_text(BUNDLE)
    assert main(["compile", str(bundle)]) == 0
    out = tmp_path / "team.artifact.json"
    assert out.exists()
    return out


def test_compile_writes_next_to_the_bundle(tmp_path, capsys):
    bundle = tmp_path / "team.policy"
    bundle.write_text(BUNDLE)
    assert main(["compile", str(bundle)]) == 0
    assert "(2 rules, 1 sources, 1 examples checked" in capsys.readouterr().err
    assert (tmp_path / "team.artifact.json").read_bytes().startswith(b'{"magic":"policyc"')


def test_compile_json_summary(tmp_path, capsys):
    bundle = tmp_path / "b.policy"
    bundle.write_text(BUNDLE)
    out = tmp_path / "x.json"
    assert main(["compile", str(bundle), "-o", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["ok"] and summary["artifact"] == str(out) and summary["examples"] == 1


def test_compile_error_exits_2_and_writes_nothing(tmp_path, capsys):
    bundle = tmp_path / "bad.policy"
    bundle.write_text("default ask\ndeny Bash()\n")
    assert main(["compile", str(bundle)]) == 2
    err = capsys.readouterr().err
    assert f"{bundle}:2:6: empty_specifier" in err
    assert "Traceback" not in err
    assert not (tmp_path / "bad.artifact.json").exists()


def test_compile_errors_as_json(tmp_path, capsys):
    bundle = tmp_path / "bad.policy"
    bundle.write_text("deny Bash()\n")
    assert main(["compile", str(bundle), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["errors"][0] == {
        "kind": "empty_specifier",
        "message": "empty specifier in `Bash()`",
        "file": str(bundle),
        "line": 1,
        "col": 6,
        "help": report["errors"][0]["help"],
    }


def test_failing_examples_exit_1(tmp_path, capsys):
    bundle = tmp_path / "b.policy"
    bundle.write_text(BUNDLE.replace("want allow", "want block"))
    assert main(["compile", str(bundle)]) == 1
    assert "example_failed" in capsys.readouterr().err


def test_missing_bundle_and_unknown_format(tmp_path, capsys):
    assert main(["compile", str(tmp_path / "nope.policy")]) == 2
    (tmp_path / "b.yaml").write_text("x")
    assert main(["compile", str(tmp_path / "b.yaml")]) == 2
    err = capsys.readouterr().err
    assert "unreadable" in err and "unknown_format" in err


def test_decide_prints_the_verdict(artifact, capsys):
    assert main(["decide", str(artifact), "bash", '{"command": "rm -rf /"}']) == 0
    assert capsys.readouterr().out.startswith("block: denied by bash(rm:*): never delete")
    assert main(["decide", str(artifact), "bash", '{"command": "ls"}', "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["action"] == "defer"
    assert verdict["reason"] == "no rule allows bash: approval required by default"
    assert verdict["record"] == {
        "tool": "bash",
        "action": "defer",
        "reason": verdict["reason"],
        "by": "policy",
    }


def test_decide_confined_and_subjects(artifact, capsys):
    subjects = json.dumps(
        [
            {"args": {"command": "git status"}, "text": "git status"},
            {"args": {"command": "rm x"}, "text": "rm x"},
        ]
    )
    assert (
        main(
            [
                "decide",
                str(artifact),
                "bash",
                '{"command": "git status; rm x"}',
                "--subjects",
                subjects,
                "--confined",
                "box",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert 'on "rm x"; nothing in this command ran, including "git status"' in out


def test_decide_refuses_a_bad_artifact_with_exit_2(tmp_path, capsys):
    bad = tmp_path / "a.json"
    bad.write_text('{"magic": "other"}')
    assert main(["decide", str(bad), "bash", "{}"]) == 2
    assert "refused artifact" in capsys.readouterr().err


def test_decide_refuses_bad_json_args(artifact, capsys):
    assert main(["decide", str(artifact), "bash", "{not json"]) == 2
    assert "ARGS_JSON is not JSON" in capsys.readouterr().err


def test_conformance_command(capsys):
    files = [str(p) for p in sorted((CORPUS / "agentpolicy").glob("*.json"))]
    assert main(["conformance", *files]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "115 passed, 0 failed"
    assert main(["conformance", "--backend", "reference", *files]) == 0


def test_conformance_failure_exits_1(tmp_path, capsys):
    path = tmp_path / "f.json"
    path.write_text(json.dumps({"cases": [{"name": "n", "input": "Bash", "rules": []}]}))
    assert main(["conformance", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and out.strip().endswith("0 passed, 1 failed")


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["decide"])
    assert info.value.code == 2


def test_demo_runs(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "denied by bash(curl:*): outbound network is proxied" in out


def test_the_module_and_console_script_run():
    commands = [[sys.executable, "-m", "policyc"]]
    script = shutil.which("policyc", path=str(Path(sys.executable).parent))
    if script:
        commands.append([script])
    for cmd in commands:
        done = subprocess.run([*cmd, "--version"], capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.startswith("policyc ")


def test_bench_on_generated_and_recorded_calls(artifact, tmp_path, capsys):
    assert main(["bench", str(artifact), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["calls"] == 5000 and "bash" in report["tools"]
    assert report["overall"]["p50_us"] <= report["overall"]["p99_us"]
    from policyc.runtime import fast

    assert report["walks"] == fast.WALKS  # compiled where pip built them
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        '{"tool": "bash", "args": {"command": "ls"}}\n\n{"tool": "bash", "args": {}, "confined": "box"}\n'
    )
    assert main(["bench", str(artifact), "--calls", str(calls)]) == 0
    assert "decisions/s" in capsys.readouterr().out


def test_bench_passes_a_calls_working_directory_on(artifact, tmp_path, capsys):
    from policyc import bench

    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "read", "args": {"path": "a.txt"}, "cwd": "/repo"}\n')
    [call] = bench.read_calls(calls)
    seen = []
    bench._time_call(lambda tool, args, **options: seen.append((tool, args, options)), call, 1)
    assert seen == [("read", {"path": "a.txt"}, {"cwd": "/repo"})]
    assert main(["bench", str(artifact), "--calls", str(calls), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == 1


@pytest.fixture
def claude_artifact(tmp_path):
    # Claude Code's tools are split (a command, a path, a URL), and its path
    # rules are anchored at the working directory.
    settings = tmp_path / "settings.json"
    settings.write_text(
        json.dumps(
            {
                "permissions": {
                    "allow": ["Bash(git status)", "Bash(npm run:*)", "Read", "Edit(src/*.py)"]
                    + ["WebFetch(domain:docs.python.org)", "mcp__github__*"],
                    "deny": ["Read(**/.env)", "Edit(*.pem)", "Bash(rm -rf:*)"],
                    "ask": ["Bash(git push:*)"],
                }
            }
        )
    )
    out = tmp_path / "claude.artifact.json"
    assert (
        main(
            ["compile", f"--claude-settings=project={settings}", "--trust-workspace"]
            + ["-o", str(out)]
        )
        == 0
    )
    return out


def test_bench_generates_calls_each_split_tool_can_read(claude_artifact, capsys):
    # A command for Bash, a path for Read and Edit, a URL for WebFetch, with
    # a working directory: the generated calls meet the rules (each tool
    # gets more than one action) instead of timing refusals.
    assert main(["bench", str(claude_artifact), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overall"]["actions"]["failed"] == 0 and report["failed_reasons"] == []
    for tool in ("Bash", "Read", "Edit", "WebFetch"):
        got = report["tools"][tool]["actions"]
        assert sum(1 for n in got.values() if n) >= 2, (tool, got)
    assert report["tools"]["Read"]["actions"]["block"] > 0  # `./x/.env` meets Read(**/.env)
    assert report["tools"]["WebFetch"]["actions"]["allow"] > 0
    assert report["tools"]["mcp__github__x"]["actions"]["allow"] > 0


def test_bench_says_why_calls_failed_and_takes_a_working_directory(
    claude_artifact, tmp_path, capsys
):
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        '{"tool": "Read", "args": {"file_path": "a/.env"}}\n'
        '{"tool": "Read", "args": {"file_path": "b.txt"}}\n'
        '{"tool": "WebSearch", "args": {"query": "x"}}\n'
    )
    assert main(["bench", str(claude_artifact), "--calls", str(calls), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overall"]["actions"]["failed"] == 2
    [why] = report["failed_reasons"]
    assert why["calls"] == 2 and "working directory is unknown" in why["reason"]
    assert main(["bench", str(claude_artifact), "--calls", str(calls)]) == 0
    out = capsys.readouterr().out
    assert "2 of 3 calls could not be evaluated" in out and "working directory is unknown" in out
    # Given one, the calls that name none take it, and their rules are met.
    assert (
        main(["bench", str(claude_artifact), "--calls", str(calls), "--cwd", "/repo", "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["tools"]["Read"]["actions"] == {"allow": 1, "defer": 0, "block": 1, "failed": 0}
    assert report["failed_reasons"] == []


def test_decide_explains_what_a_split_call_was_decided_on(claude_artifact, capsys):
    # `rm $F` names no rule's text: --explain shows the parts it was split
    # into and what each got alone, the one that stood among them.
    command = {"command": "rm $F && git status"}
    args = ["decide", str(claude_artifact), "Bash", json.dumps(command), "--cwd", "/repo"]
    assert main([*args, "--explain"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith('block: denied by Bash(rm -rf:*) on "rm $F"')
    assert out[2] == """  1. Bash "rm $F"  (what follows "rm " is not known here)"""
    assert out[3] == "     block: denied by Bash(rm -rf:*)"
    assert out[4] == "  2. Edit every file under /  (a constraint: deny and ask rules only)"
    assert out[5] == "     block: denied by Edit(./**/*.pem)"  # F may be a key
    assert out[7] == "     allow: allowed by Bash(git status)"
    assert main([*args, "--explain", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["action"] == "block" and report["rule"] == "Bash(rm -rf:*)"
    parts = report["subjects"]
    assert [(p["tool"], p["open"], p["constrain"]) for p in parts] == [
        ("Bash", "rm ", False),
        ("Edit", None, True),
        ("Bash", None, False),
    ]
    assert [p["verdict"]["action"] for p in parts] == ["block", "block", "allow"]
    # A call that is not split, or cannot be, is the verdict alone.
    assert main(["decide", str(claude_artifact), "mcp__github__x", "{}", "--explain"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "allow: allowed by mcp__github__*  [rule mcp__github__*, source project]"
    ]
    assert main(["decide", str(claude_artifact), "Bash", '{"command": "ls $("}', "--explain"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_explain_gives_each_part_the_verdict_the_fold_chose_from(claude_artifact):
    from policyc.runtime.verdict import SEVERITY

    table = policyc.load(claude_artifact)
    for command in ["git $X origin", "sudo rm -rf /tmp/x", "cat .env | git push", "X=1 npm run t"]:
        verdict, rows = table.explain("Bash", {"command": command}, cwd="/repo")
        assert verdict == table.decide("Bash", {"command": command}, cwd="/repo")
        got = [row["verdict"] for row in rows if row["verdict"] is not None]
        strictest = max(got, key=lambda v: SEVERITY[v.action])
        assert (strictest.action, strictest.rule) == (verdict.action, verdict.rule), command
    # Every part a constraint: the call's own args are a part too.
    given = [{"args": {"command": "ls"}, "text": "ls", "constrain": True}]
    verdict, rows = table.explain("Bash", {"command": "git status"}, subjects=given)
    assert rows[0]["verdict"] is None  # no deny or ask rule meets `ls`
    assert rows[1]["call"] and rows[1]["verdict"].action == verdict.action == "allow"


def test_bench_takes_off_the_timing_loop_alone(monkeypatch):
    # A decision's time counts its call: what is taken off is the loop's own
    # cost, measured with nothing in it (here a clock that moves 6 ns a read).
    from policyc import bench

    ticks = iter(range(0, 10**9, 6))
    monkeypatch.setattr(bench.time, "perf_counter_ns", lambda: next(ticks))
    assert bench.loop_overhead_ns(3, samples=5) == 2.0
    seen = []
    bench._time_call(lambda *call: seen.append(call), {"tool": "bash", "args": {}}, 2)
    assert seen == [("bash", {}), ("bash", {})]  # each repeat, tool and args alone


def test_bench_counts_what_the_calls_got(artifact, tmp_path, capsys):
    # Beside the times: allowed, deferred, blocked, and not evaluated at all
    # (here, subjects that are not a list: blocked as failed).
    calls = tmp_path / "calls.jsonl"
    calls.write_text(
        '{"tool": "bash", "args": {"command": "git status"}}\n'
        '{"tool": "bash", "args": {"command": "rm -rf x"}}\n'
        '{"tool": "bash", "args": {"command": "rm y"}}\n'
        '{"tool": "bash", "args": {"command": "ls"}}\n'
        '{"tool": "bash", "args": {"command": "ls"}, "subjects": 5}\n'
        '{"tool": "read", "args": {}}\n'
    )
    assert main(["bench", str(artifact), "--calls", str(calls), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    bash = {"allow": 1, "defer": 1, "block": 2, "failed": 1}
    assert report["tools"]["bash"]["actions"] == bash
    assert report["tools"]["read"]["actions"] == {"allow": 0, "defer": 1, "block": 0, "failed": 0}
    assert report["overall"]["actions"] == bash | {"defer": 2}
    assert main(["bench", str(artifact), "--calls", str(calls)]) == 0
    header, *rows = capsys.readouterr().out.splitlines()[2:]
    assert header.split()[-4:] == ["allow", "defer", "block", "failed"]
    assert rows[0].split()[0] == "bash" and rows[0].split()[-4:] == ["1", "1", "2", "1"]


@pytest.mark.parametrize("repeats", ["0", "-2", "x"])
def test_bench_refuses_repeats_below_one(artifact, capsys, repeats):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", str(artifact), "--repeats", repeats])
    assert exit_.value.code == 2
    assert "expected a whole number of 1 or more" in capsys.readouterr().err


def test_bench_refuses_a_bad_calls_file(artifact, tmp_path, capsys):
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "bash"}\n{"tool": "bash", "argz": {}}\n')
    assert main(["bench", str(artifact), "--calls", str(calls)]) == 2
    assert f"{calls}:2:1: unknown member(s) ['argz']" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ('{"tool": "bash", "args": {"command": "ls"}', ":2:43: not JSON (Expecting ',' delimiter)"),
        ("[" * 100_000, ":2:1: not JSON (nested too deeply to read)"),
        ('["bash"]', ':2:1: a call is an object with a "tool" string'),
    ],
)
def test_bench_names_the_line_and_column_of_a_bad_call(artifact, tmp_path, capsys, line, where):
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "bash", "args": {}}\n' + line + "\n")
    assert main(["bench", str(artifact), "--calls", str(calls)]) == 2
    err = capsys.readouterr().err
    assert f"{calls}{where}" in err and "Traceback" not in err


def test_bench_reads_a_raw_line_separator_inside_a_string(artifact, tmp_path, capsys):
    # JSON allows a raw U+2028 in a string; only "\n" ends a line of JSONL.
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "bash", "args": {"command": "echo \u2028"}}\r\n', encoding="utf-8")
    assert main(["bench", str(artifact), "--calls", str(calls), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == 1


def _transcript_line(kind: str, content, **more) -> str:
    line = {"type": kind, "sessionId": "s1", "message": {"role": kind, "content": content}}
    return json.dumps(line | more) + "\n"


def _tool_use(call_id: str, name: str, given: dict) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": given}


def test_bench_reads_the_tool_calls_of_claude_code_transcripts(artifact, tmp_path, capsys):
    # A session's transcript as Claude Code keeps it: the user's turns, the
    # model's (text, thinking and tool_use blocks), tool results, a summary.
    first = tmp_path / "session-1.jsonl"
    first.write_text(
        json.dumps({"type": "summary", "summary": "tidying up"})
        + "\n"
        + _transcript_line("user", "please tidy the repo", cwd="/repo")
        + _transcript_line(
            "assistant",
            [
                {"type": "thinking", "thinking": "look first"},
                {"type": "text", "text": "Let me look."},
                _tool_use("toolu_1", "bash", {"command": "git status"}),
                _tool_use("toolu_2", "read", {"path": "README.md"}),
            ],
            cwd="/repo",
        )
        + _transcript_line(
            "user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "clean"}]
        )
        + _transcript_line("assistant", "no blocks, only text")
    )
    second = tmp_path / "session-2.jsonl"  # it resumes the first: its calls again, then new ones
    second.write_text(
        _transcript_line("assistant", [_tool_use("toolu_1", "bash", {"command": "git status"})])
        + _transcript_line(
            "assistant", [_tool_use("toolu_3", "bash", {"command": "rm -rf build"})], cwd="/w"
        )
        + _transcript_line("assistant", [_tool_use("toolu_4", "bash", {"command": "ls"})])
    )
    from policyc import bench, hook
    from policyc.runtime import load

    calls = bench.read_claude_transcripts([first, second])
    assert calls == [
        {"tool": "bash", "args": {"command": "git status"}, "cwd": "/repo"},
        {"tool": "read", "args": {"path": "README.md"}, "cwd": "/repo"},
        {"tool": "bash", "args": {"command": "rm -rf build"}, "cwd": "/w"},
        {"tool": "bash", "args": {"command": "ls"}},
    ]
    assert main(["bench", str(artifact), "--claude-transcripts", str(first), str(second)]) == 0
    assert "4 calls" in capsys.readouterr().out
    assert (
        main(["bench", str(artifact), "--claude-transcripts", str(first), str(second), "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["calls"] == 4
    assert report["tools"]["bash"]["actions"] == {"allow": 1, "defer": 1, "block": 1, "failed": 0}
    assert report["tools"]["read"]["actions"] == {"allow": 0, "defer": 1, "block": 0, "failed": 0}
    # What the hook answers Claude Code for each of these calls, counted alike.
    answered = {"allow": 0, "defer": 0, "block": 0, "failed": 0}
    for call in calls:
        payload = {"hook_event_name": "PreToolUse", "tool_name": call["tool"]}
        payload |= {"tool_input": call["args"], "cwd": call.get("cwd")}
        out = json.loads(hook.decide(json.dumps(payload).encode(), str(artifact)))
        decision = out["hookSpecificOutput"]["permissionDecision"]
        answered[{"allow": "allow", "ask": "defer", "deny": "block"}[decision]] += 1
    assert answered == report["overall"]["actions"]
    table = load(artifact)
    assert [table.decide(c["tool"], c["args"], cwd=c.get("cwd")).action for c in calls] == [
        "allow",
        "defer",
        "block",
        "defer",
    ]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            '{"type": "assistant", "message": {"content": []}\n',
            ":1:49: not JSON (Expecting ',' delimiter)",
        ),
        (
            _transcript_line("assistant", [{"type": "tool_use", "input": {}}]),
            ":1:1: a tool_use block names no tool",
        ),
        ('["assistant"]\n', ":1:1: a transcript's line is a JSON object"),
        (_transcript_line("user", "hello"), ": no tool calls (tool_use blocks of assistant lines)"),
        ('{"tool": "bash", "args": {"command": "ls"}}\n', ": no tool calls"),
    ],
)
def test_bench_names_what_is_wrong_with_a_transcript(artifact, tmp_path, capsys, text, where):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(text)
    assert main(["bench", str(artifact), "--claude-transcripts", str(transcript)]) == 2
    err = capsys.readouterr().err
    assert f"{transcript}{where}" in err and "Traceback" not in err


def test_bench_takes_recorded_calls_from_one_place(artifact, tmp_path, capsys):
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"tool": "bash", "args": {}}\n')
    with pytest.raises(SystemExit) as exit_:
        main(["bench", str(artifact), "--calls", str(calls), "--claude-transcripts", str(calls)])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["bench", str(artifact), "--claude-transcripts", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_compile_emit_python(tmp_path, capsys):
    bundle = tmp_path / "team.policy"
    bundle.write_text(BUNDLE)
    assert main(["compile", str(bundle), "--emit", "python"]) == 0
    module = tmp_path / "team_policy.py"
    assert module.read_text().startswith("# policyc-generated-1 sha256=")
    assert main(["decide", str(module), "bash", '{"command": "rm x"}']) == 0
    assert capsys.readouterr().out.startswith("block: denied by bash(rm:*): never delete")


def test_decide_with_a_working_directory(tmp_path, capsys):
    bundle = tmp_path / "p.json"
    bundle.write_text(
        json.dumps(
            {
                "matchers": {"read": {"match": "path", "field": "file_path", "split": "path"}},
                "deny": "read(./secrets/**)",
                "default": "allow",
            }
        )
    )
    assert main(["compile", str(bundle)]) == 0
    artifact = str(tmp_path / "p.artifact.json")
    assert (
        main(["decide", artifact, "read", '{"file_path": "src/../secrets/k"}', "--cwd", "/repo"])
        == 0
    )
    assert capsys.readouterr().out.startswith("block: denied by read(./secrets/**)")
    assert main(["decide", artifact, "read", '{"file_path": "/repo/secrets/k"}']) == 0
    assert "the working directory is unknown" in capsys.readouterr().out
