"""Skills' allowed-tools as grant sets, and the Codex-style presets."""

from __future__ import annotations

import json

import pytest

import policyc
from policyc.cli import main
from policyc.presets import CLAUDE_SPLIT, preset
from policyc.skills import SkillError, activate_skill, front_matter

POLICY = {
    "matchers": {"Bash": {"match": "glob", "field": "command"}},
    "sources": [{"name": "team", "rank": 1, "trusted": True, "ask": "Bash", "deny": "WebFetch"}],
    "default": "ask",
}
SKILL = """---
name: commit
description: Commit staged work
allowed-tools: Bash(git add:*), Bash(git commit -m a,b:*), Read, WebFetch
---
Body text, not read.
"""


@pytest.fixture
def artifact(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(policyc.compile_text(json.dumps(POLICY), "b.json"))
    return path


def test_front_matter_forms():
    assert front_matter("---\nallowed-tools:\n  - Read\n  - 'Bash(ls)'\n---\n") == {
        "allowed-tools": ["Read", "Bash(ls)"]
    }
    with pytest.raises(SkillError):
        front_matter("no front matter")
    with pytest.raises(SkillError):
        front_matter("---\nname: x\n")


def test_a_skill_grants_shadow_asks_and_are_revocable(artifact, tmp_path):
    skill = tmp_path / "commit" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text(SKILL)
    table = policyc.load(artifact)
    assert table.decide("Bash", {"command": "git add -A"}).action == "defer"
    source, granted, refused = activate_skill(table, skill, rank=1, scope="s1")
    assert source.name == "skill:commit" and source.hash.startswith("sha256:")
    assert [str(r) for r in granted] == ["Bash(git add:*)", "Bash(git commit -m a,b:*)", "Read"]
    assert [(str(r.rule), r.reason) for r in refused] == [
        ("WebFetch", "denied by WebFetch: a grant never beats a deny")
    ]
    verdict = table.decide("Bash", {"command": "git add -A"}, scope="s1")
    assert (verdict.action, verdict.source) == ("allow", "skill:commit")
    assert table.decide("Bash", {"command": "git push"}, scope="s1").action == "defer"
    assert table.revoke("skill:commit", scope="s1") == 1
    assert table.decide("Bash", {"command": "git add -A"}, scope="s1").action == "defer"


def test_the_skill_command_reports_grants_and_refusals(artifact, tmp_path, capsys):
    skill = tmp_path / "SKILL.md"
    skill.write_text(SKILL)
    assert main(["skill", str(artifact), str(skill), "--rank", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["refused"] == [
        {"rule": "WebFetch", "reason": "denied by WebFetch: a grant never beats a deny"}
    ]
    assert main(["skill", str(artifact), str(skill), "--untrusted"]) == 0
    assert "withheld: the source skill:commit is not trusted" in capsys.readouterr().out
    (tmp_path / "bad.md").write_text("nothing")
    assert main(["skill", str(artifact), str(tmp_path / "bad.md")]) == 2


@pytest.mark.parametrize(
    "name,edit,execute",
    [
        ("suggest", "defer", "defer"),
        ("auto-edit", "allow", "defer"),
        ("full-auto", "allow", "allow"),
    ],
)
def test_presets(name, edit, execute):
    text = preset(name, **CLAUDE_SPLIT)
    table = policyc.load(policyc.compile_text(text, f"{name}.policy"))
    assert table.decide("Read", {"file_path": "x"}).action == "allow"
    assert table.decide("Edit", {"file_path": "x"}).action == edit
    assert table.decide("Bash", {"command": "make"}).action == execute
    assert (
        table.decide("Bash", {"command": "make"}, confined="sandbox").action == "allow"
    )  # a confined command runs
    assert (
        table.decide("SomePluginTool", {}).action == "defer"
    )  # a tool the split does not name asks


def test_the_preset_command(tmp_path, capsys):
    assert (
        main(["preset", "auto-edit", "--read", "read", "--edit", "edit", "--execute", "bash"]) == 0
    )
    assert "allow read edit\nask bash\n" in capsys.readouterr().out
    out = tmp_path / "start.policy"
    assert main(["preset", "suggest", "-o", str(out)]) == 0
    assert main(["compile", str(out)]) == 0
