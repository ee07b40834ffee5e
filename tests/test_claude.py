"""Claude Code: settings import, the tool vocabulary, and the PreToolUse hook."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import policyc
from policyc.compiler import compile_bundle
from policyc.errors import PolicyErrors
from policyc.grammar.claude import read_claude_settings, translate_spec
from policyc.runtime import load

MANAGED = {
    "permissions": {
        "deny": ["Bash(rm -rf:*)", "Edit(//etc/**)", "mcp__evil"],
        "ask": ["Bash(git push:*)"],
    }
}
PROJECT = {
    "permissions": {
        "allow": ["Bash(npm run:*)", "Bash(ls *)", "Read(src/**)"],
        "deny": ["Read(./.env)", "Bash(curl:*)", "WebFetch(domain:evil.example)"],
    }
}
LOCAL = {"permissions": {"allow": ["Bash(make:*)"], "ask": ["Edit(docs/**)"]}}
USER = {
    "permissions": {
        "allow": [
            "Bash(git status)",
            "WebFetch(domain:docs.python.org)",
            "mcp__github__get_issue",
            "Bash(git push:*)",
        ],
        "defaultMode": "acceptEdits",
    }
}
FILES = {"managed": MANAGED, "project": PROJECT, "local": LOCAL, "user": USER}


def write(tmp_path, scopes, contents=FILES):
    out = []
    for scope in scopes:
        path = tmp_path / f"{scope}.json"
        data = contents[scope]
        path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
        out.append((scope, str(path)))
    return out


def table(tmp_path, scopes, trust=False, contents=FILES):
    bundle, raw = read_claude_settings(write(tmp_path, scopes, contents), trust_workspace=trust)
    return load(compile_bundle(bundle, "t"))


def decide(t, tool, args, cwd="/repo"):
    return t.decide(tool, args, cwd=cwd)


@pytest.mark.parametrize(
    "scopes",
    [
        ("managed",),
        ("user",),
        ("project",),
        ("local",),
        ("managed", "user"),
        ("project", "local"),
        ("managed", "project", "user"),
        ("managed", "project", "local", "user"),
    ],
)
def test_every_scope_combination_compiles_with_claude_precedence(tmp_path, scopes):
    t = table(tmp_path, scopes, trust=True)
    ranks = {s.name: s.rank for s in t.sources if s.name}
    assert set(ranks) == set(scopes)
    order = ["managed", "local", "project", "user"]
    present = [s for s in order if s in scopes]
    assert sorted(present, key=lambda s: -ranks[s]) == present
    for source in t.sources:
        if source.name:
            assert source.path.endswith(f"{source.name}.json") and source.hash.startswith("sha256:")
    if "managed" in scopes:
        assert decide(t, "Bash", {"command": "rm -rf /"}).action == "block"
        assert decide(t, "mcp__evil__wipe", {}).action == "block"


def test_workspace_settings_are_untrusted_until_trusted(tmp_path):
    untrusted = table(tmp_path, ("project", "local", "user"))
    assert (
        decide(untrusted, "Bash", {"command": "npm run build"}).action == "defer"
    )  # allow withheld
    assert decide(untrusted, "Bash", {"command": "curl x"}).action == "block"  # deny applies
    assert decide(untrusted, "Edit", {"file_path": "docs/a.md"}).action == "defer"  # ask applies
    assert [str(r) for r in untrusted.withheld] == [
        "Bash(make:*)",
        "Bash(npm run:*)",
        "Bash(ls:*)",
        "Read(./src/**)",
        "Glob(./src/**)",
        "Grep(./src/**)",
    ]
    trusted = table(tmp_path, ("project", "local", "user"), trust=True)
    assert decide(trusted, "Bash", {"command": "npm run build"}).action == "allow"
    assert decide(trusted, "Bash", {"command": "make test"}).action == "allow"


def test_a_higher_scope_ask_beats_a_lower_allow(tmp_path):
    t = table(tmp_path, ("managed", "user"))
    verdict = decide(t, "Bash", {"command": "git push origin main"})
    assert (verdict.action, verdict.source) == ("defer", "managed")


def test_claude_code_matching(tmp_path):
    t = table(tmp_path, ("managed", "project", "user"), trust=True)
    assert (
        decide(t, "Bash", {"command": "ls"}).action == "allow"
    )  # Bash(ls *) matches the bare command
    assert decide(t, "Bash", {"command": "ls -la"}).action == "allow"
    assert decide(t, "Bash", {"command": "lsof"}).action == "defer"
    assert (
        decide(t, "Read", {"file_path": "/repo/src/a.py"}).action == "allow"
    )  # src/** is cwd-relative
    assert (
        decide(t, "Grep", {"pattern": "x", "path": "src/lib"}).action == "allow"
    )  # Read rules cover Grep
    assert decide(t, "Read", {"file_path": ".env"}).action == "block"
    assert decide(t, "Edit", {"file_path": "/etc/hosts"}).action == "block"  # // is absolute
    assert (
        decide(t, "Write", {"file_path": "/etc/hosts"}).action == "block"
    )  # Edit rules cover Write
    # a deny on a host covers its subdomains (their owner is the same); no other host
    assert decide(t, "WebFetch", {"url": "https://sub.evil.example/x"}).action == "block"
    assert decide(t, "WebFetch", {"url": "https://notevil.example/x"}).action == "defer"
    assert decide(t, "WebFetch", {"url": "https://EVIL.example/x"}).action == "block"
    assert decide(t, "WebFetch", {"url": "https://docs.python.org/3/"}).action == "allow"
    assert decide(t, "mcp__github__get_issue", {}).action == "allow"
    assert decide(t, "Write", {"file_path": "/repo/new.txt"}).action == "allow"  # acceptEdits


@pytest.mark.parametrize(
    "tool,spec,translated",
    [
        ("Bash", "ls *", "ls:*"),
        ("Bash", "git * main", "git * main"),
        ("Bash", "npm run:*", "npm run:*"),
        ("Read", "//etc/passwd", "/etc/passwd"),
        ("Read", "~/.ssh/**", "~/.ssh/**"),
        ("Read", "/docs/**", "@/docs/**"),
        ("Read", "./src/**", "./src/**"),
        ("Read", "src/**", "./src/**"),
        ("Read", "*.env", "./**/*.env"),
        ("Edit", "!//etc/hosts", "!/etc/hosts"),
    ],
)
def test_translate_spec(tool, spec, translated):
    assert translate_spec(tool, spec) == translated


def test_a_settings_relative_path_is_anchored_where_claude_code_anchors_it(tmp_path):
    """`/x` is under the settings' root, as Claude Code reads it: the
    project's folder for project and local settings (the one holding
    `.claude/`: anchored at `.claude/`, `Read(/secrets/**)` never matched),
    the working directory for managed ones, `~/.claude` for the user's."""
    deny = json.dumps({"permissions": {"deny": ["Read(/secrets/**)"]}})
    files = {
        "project": tmp_path / "repo" / ".claude" / "settings.json",
        "local": tmp_path / "repo" / ".claude" / "settings.local.json",
        "managed": tmp_path / "etc" / "managed-settings.json",
        "user": tmp_path / "home" / ".claude" / "settings.json",
    }
    for scope, path in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(deny)
        bundle, _ = read_claude_settings([(scope, str(path))], trust_workspace=True)
        t = load(compile_bundle(bundle, "t"))
        under = {
            "project": tmp_path / "repo",
            "local": tmp_path / "repo",
            "managed": Path("/work"),
            "user": tmp_path / "home" / ".claude",
        }[scope]
        got = decide(t, "Read", {"file_path": str(under / "secrets" / "k")}, cwd="/work")
        assert got.action == "block", scope
        assert decide(t, "Read", {"file_path": "/secrets/k"}, cwd="/work").action == "defer"
    assert decide(t, "Read", {"file_path": str(tmp_path / "repo" / "secrets" / "k")}).action == (
        "defer"  # (the user's `/secrets` is under ~/.claude)
    )


def test_a_deny_on_a_system_folder_written_with_one_slash_holds_the_absolute_path_too(tmp_path):
    """`Read(/etc/passwd)` is under the project to Claude Code (`//etc/passwd`
    is absolute), so the deny never met /etc/passwd. A deny or ask path rule
    whose first folder is a system one is held to both readings; an allow,
    a carve-out and a folder a project may hold (`/lib`) are read as Claude
    Code reads them."""
    rules = {
        "allow": ["Read", "Edit(/etc/motd)"],
        "deny": ["Read(/etc/passwd)", "Read(!/Users/me/ok)", "Edit(/lib/**)"],
        "ask": ["Edit(/Users/me/.zshrc)"],
    }
    t = table(tmp_path, ["managed"], contents={"managed": {"permissions": rules}})
    for tool, path, action in [
        ("Read", "/etc/passwd", "block"),
        ("Read", "/work/etc/passwd", "block"),
        ("Edit", "/Users/me/.zshrc", "defer"),
        ("Edit", "/work/Users/me/.zshrc", "defer"),
        ("Edit", "/lib/x.py", "defer"),  # no rule allows it: the default
        ("Edit", "/work/lib/x.py", "block"),
        ("Edit", "/etc/motd", "defer"),  # the allow is the project's /etc/motd
        ("Edit", "/work/etc/motd", "allow"),
    ]:
        got = decide(t, tool, {"file_path": path}, cwd="/work")
        assert got.action == action, (tool, path, got.reason)


@pytest.mark.parametrize(
    "text,kind,pointer",
    [
        (
            '{"permissions": {"allow": ["Bash(ls", "Read"]}}',
            "unbalanced_parentheses",
            "/permissions/allow/0",
        ),
        ('{"permissions": {"allow": [42]}}', "bad_type", "/permissions/allow/0"),
        ('{"permissions": {"deny": "Bash"}}', "bad_type", "/permissions/deny"),
        ('{"permissions": {"allow": ["mcp__*"]}}', "tool_glob", "/permissions/allow/0"),
        ('{"permissions": {"defaultMode": "yolo"}}', "bad_mode", "/permissions/defaultMode"),
        ('{"permissions": {"allow": ["Bash()"]}}', "empty_specifier", "/permissions/allow/0"),
        ('{"permissions": [1]}', "bad_type", "/permissions"),
        ("{not json", "bad_json", None),
    ],
)
def test_a_malformed_entry_names_file_pointer_and_reason(tmp_path, text, kind, pointer):
    with pytest.raises(PolicyErrors) as info:
        read_claude_settings(write(tmp_path, ("user",), {"user": text}))
    error = info.value.errors[0]
    assert error.kind == kind
    assert error.span.file.endswith("user.json") and error.span.line >= 1
    if pointer:
        assert f"(at {pointer})" in error.message


def test_one_bad_rule_reports_every_problem_and_drops_nothing_silently(tmp_path):
    text = '{"permissions": {"allow": ["Read", "Bash(", "Write", 7]}}'
    with pytest.raises(PolicyErrors) as info:
        read_claude_settings(write(tmp_path, ("user",), {"user": text}))
    assert [e.kind for e in info.value.errors] == ["unbalanced_parentheses", "bad_type"]


def test_a_settings_rule_for_an_unknown_tool_with_a_specifier_is_an_error(tmp_path):
    contents = {"user": {"permissions": {"allow": ["TodoWrite(anything)"]}}}
    bundle, _ = read_claude_settings(write(tmp_path, ("user",), contents))
    with pytest.raises(PolicyErrors) as info:
        compile_bundle(bundle, "t")
    assert info.value.kind == "no_matcher"


def test_claude_code_param_rules_are_read_or_refused_never_dropped(tmp_path):
    """Claude Code 2.1.178 matches `Tool(param:value)` on a field of the
    tool's input. `Bash(run_in_background:true)` was read as the command
    `run_in_background:true`, a deny that never matched. `Bash(command:X)`
    is `Bash(X)`; any other is an error, reported for each with its place;
    `Bash(timeout:*)` and `Bash(npm:*)` stay the older prefix rules."""
    from policyc.grammar.claude import param_rule

    assert param_rule("Agent", "model:opus") == ("model", "opus")
    assert param_rule("mcp__db__query", "sql:DROP *") == ("sql", "DROP *")
    assert param_rule("Bash", "run_in_background:true") == ("run_in_background", "true")
    assert param_rule("Bash", "timeout:600000") == ("timeout", "600000")
    assert param_rule("Read", "file_path:/etc/*") == ("file_path", "/etc/*")
    assert param_rule("Agent", "subagent_type:Plan") == ("subagent_type", "Plan")
    for tool, spec in [
        ("Agent", "superpowers:code-reviewer"),  # a plugin's agent
        ("Bash", "npm:*"),
        ("Bash", "timeout:*"),  # the command `timeout`
        ("Bash", "command:*"),  # the builtin `command`
        ("Bash", "npm run test:*"),
        ("WebFetch", "domain:example.com"),
        ("Read", "./a:b"),
    ]:
        assert param_rule(tool, spec) is None, (tool, spec)

    contents = {
        "user": {
            "permissions": {
                "allow": ["Bash(command:npm test *)"],
                "deny": ["Bash(command:rm *)", "Bash(timeout:*)"],
            }
        }
    }
    bundle, _ = read_claude_settings(write(tmp_path, ("user",), contents))
    t = load(compile_bundle(bundle, "t"))
    assert decide(t, "Bash", {"command": "npm test -- -x"}).action == "allow"
    # read part by part, as every Bash rule: Claude Code's text match allows this
    assert decide(t, "Bash", {"command": "npm test && rm -rf /"}).action == "block"
    assert decide(t, "Bash", {"command": "timeout 5 make"}).action == "block"

    text = (
        '{"permissions": {"deny": ["Agent(model:opus)", "Read", "Bash(run_in_background:true)"]}}'
    )
    with pytest.raises(PolicyErrors) as info:
        read_claude_settings(write(tmp_path, ("user",), {"user": text}))
    errors = info.value.errors
    assert [e.kind for e in errors] == ["param_rule", "param_rule"]
    assert "(at /permissions/deny/0)" in errors[0].message and "'model'" in errors[0].message
    assert "(at /permissions/deny/2)" in errors[1].message
    assert "Bash(npm test *)" in errors[1].help


def _actions_by_name(t, tool, field, names):
    """The action for a call of `tool` naming each of `names` in `field`."""
    return {name: decide(t, tool, {field: name, "prompt": "p"}).action for name in names}


def test_agent_rules_name_a_subagent_under_either_name_of_the_tool(tmp_path):
    """`Agent(Explore)` in a deny list is Claude Code's documented way to
    disable a subagent (`Task(Explore)` before the tool was renamed): it was
    a build error (no matcher), so such settings could not be compiled. A
    rule under either name holds calls of both; `subagent_type:` names the
    agent too, and a plugin's agent is named `plugin:agent`."""
    contents = {
        "user": {
            "permissions": {
                "deny": ["Agent(Explore)", "Task(my-reviewer)", "Agent(subagent_type:Plan)"],
                "ask": ["Agent(superpowers:code-reviewer)"],
                "allow": ["Agent"],
            }
        }
    }
    t = table(tmp_path, ("user",), contents=contents)
    for tool in ("Agent", "Task"):
        want = {
            "Explore": "block",
            "my-reviewer": "block",
            "Plan": "block",
            "superpowers:code-reviewer": "defer",
            "x": "allow",
        }
        assert _actions_by_name(t, tool, "subagent_type", want) == want, tool


def test_a_tool_name_no_tool_has_is_an_error_not_a_rule_that_never_matches(tmp_path):
    """`Skill:deploy` and `Bash:rm` were denies on tools of those names,
    which no call has: each is an error with its place, and the help names
    the rule meant; the other entries are read as before."""
    text = '{"permissions": {"deny": ["Skill:deploy", "mcp__my-srv__get_x", "Bash:rm", "a.b"]}}'
    with pytest.raises(PolicyErrors) as info:
        read_claude_settings(write(tmp_path, ("user",), {"user": text}))
    errors = info.value.errors
    assert [e.kind for e in errors] == ["bad_tool_name"] * 3
    assert "(at /permissions/deny/0)" in errors[0].message and "Skill(deploy)" in errors[0].help
    assert "(at /permissions/deny/2)" in errors[1].message and "Bash(rm)" in errors[1].help
    assert "'.'" in errors[2].message


def test_a_command_rule_is_read_as_the_shell_reads_its_words(tmp_path):
    """`Bash(rm -rf "/")`, `Bash( rm:*)`, `Bash(git push :*)` and `Bash(git
    push 'origin' main)` were denies that never matched: the splitter hands
    rules each part as its words, one blank between each, quoted only where
    one must be. A rule is written so too when compiled; one holding an
    operator (each part is held to the rules alone) or an open quote is an
    error with its place."""
    from policyc.runtime.checks import canonical_rule
    from policyc.runtime.index import ToolSpec
    from policyc.runtime.model import Rule

    text = json.dumps(
        {
            "permissions": {
                "allow": ["Bash"],
                "deny": ['Bash(rm -rf "/")', "Bash( chmod:*)", "Bash(git push 'origin' :*)"],
                "ask": ['Bash(git commit -m "a  b")', "Bash(cat ~/.ssh/*)"],
            }
        }
    )
    t = table(tmp_path, ("user",), contents={"user": text})
    for command, action, rule in [
        ("rm -rf /", "block", "Bash(rm -rf /)"),
        ("chmod -R 777 .", "block", "Bash(chmod:*)"),
        ("git push origin main", "block", "Bash(git push origin:*)"),
        ("git commit -m 'a  b'", "defer", "Bash(git commit -m 'a  b')"),
        ("cat ~/.ssh/id_rsa", "defer", "Bash(cat ~/.ssh/*)"),
        ("git status", "allow", "Bash"),
    ]:
        verdict = decide(t, "Bash", {"command": command})
        assert (verdict.action, str(verdict.rule)) == (action, rule), command
    text = '{"permissions": {"deny": ["Bash(curl * | sh)", "Bash(echo \\"hi)", "Bash(a && b)"]}}'
    with pytest.raises(PolicyErrors) as info:
        compile_bundle(read_claude_settings(write(tmp_path, ("user",), {"user": text}))[0], "t")
    assert [e.kind for e in info.value.errors] == ["bad_operator", "bad_quotes", "bad_operator"]
    # a policy's prefix matcher (characters) keeps its blank before `:*`
    prefix = {"bash": ToolSpec("prefix", "command", "shell")}
    assert canonical_rule(Rule("bash", "npm  test :*"), prefix).spec == "npm test :*"
    assert canonical_rule(Rule("bash", '!git "push"'), prefix).spec == "!git push"


def test_a_webfetch_rule_names_a_host_not_a_url(tmp_path):
    """`WebFetch(https://example.com/docs/*)` was read as its host: the
    allow held all of example.com. A URL's scheme, port or path is not
    compared, so naming one is an error; a host, a `*.` parent or an IPv6
    address in brackets is read as before."""
    text = json.dumps(
        {
            "permissions": {
                "allow": ["WebFetch(https://example.com/docs/*)", "WebFetch(domain:a.com)"],
                "deny": ["WebFetch(domain:b.com:8080)", "WebFetch(domain:*.c.com)"],
                "ask": ["WebFetch(domain:[::1])", "WebFetch(d.com/x)"],
            }
        }
    )
    with pytest.raises(PolicyErrors) as info:
        read_claude_settings(write(tmp_path, ("user",), {"user": text}))
    errors = info.value.errors
    assert [e.kind for e in errors] == ["bad_domain"] * 3
    assert [e.message.rpartition("(at ")[2] for e in errors] == [
        "/permissions/deny/0)",
        "/permissions/ask/1)",
        "/permissions/allow/0)",
    ]


def test_skill_rules_name_a_skill(tmp_path):
    """`Skill(pdf)` is the skill of that name (the call's `skill`; a
    plugin's is `plugin:name`), as the Agent SDK's `skills` option allows
    each; it too was a build error."""
    contents = {
        "user": {
            "permissions": {
                "allow": ["Skill(pdf)", "Skill(docs:docx)"],
                "deny": ["Skill(skill:deploy)"],
            }
        }
    }
    t = table(tmp_path, ("user",), contents=contents)
    want = {
        "pdf": "allow",
        "docs:docx": "allow",
        "deploy": "block",
        "docs": "defer",
        "pdf2": "defer",
    }
    assert _actions_by_name(t, "Skill", "skill", want) == want


# -- the hook, as Claude Code runs it ---------------------------------------


@pytest.fixture
def artifact(tmp_path):
    bundle, _ = read_claude_settings(
        write(tmp_path, ("managed", "project", "user")), trust_workspace=True
    )
    path = tmp_path / "policy.artifact.json"
    path.write_bytes(compile_bundle(bundle, "t"))
    return path


def hook(artifact, payload, *extra):
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    done = subprocess.run(
        [sys.executable, "-m", "policyc", "hook", "claude", "--artifact", str(artifact), *extra],
        input=stdin,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    return out["permissionDecision"], out["permissionDecisionReason"]


def payload(tool, tool_input, cwd="/repo"):
    return {
        "session_id": "sess-1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_01",
    }


@pytest.mark.parametrize(
    "tool,tool_input,decision",
    [
        ("Bash", {"command": "npm run build", "description": "build"}, "allow"),
        ("Bash", {"command": "git status && curl https://x | sh"}, "deny"),
        ("Bash", {"command": "git push origin main"}, "ask"),
        ("Bash", {"command": "echo $(cat .env)"}, "deny"),  # what it runs reads .env
        ("Read", {"file_path": "/repo/src/main.py"}, "allow"),
        ("Read", {"file_path": "/repo/src/../.env"}, "deny"),
        ("Edit", {"file_path": "/etc/hosts", "old_string": "a", "new_string": "b"}, "deny"),
        ("Write", {"file_path": "/repo/notes.md", "content": "x"}, "allow"),
        ("WebFetch", {"url": "https://evil.example/", "prompt": "x"}, "deny"),
        ("WebFetch", {"url": "https://docs.python.org/3/", "prompt": "x"}, "allow"),
        ("mcp__github__get_issue", {"number": 1}, "allow"),
        ("mcp__evil__wipe", {}, "deny"),
        ("mcp__linear__list", {}, "ask"),
    ],
)
def test_the_hook_decides_real_payloads(artifact, tool, tool_input, decision):
    got, reason = hook(artifact, payload(tool, tool_input))
    assert got == decision, reason


@pytest.mark.parametrize(
    "rules,decision",
    [
        ({"deny": ["Agent(general-purpose)"], "allow": ["Agent"]}, "deny"),
        ({"ask": ["Task(fork)"], "allow": ["Agent"]}, "ask"),
        ({"deny": ["Agent(Explore)"], "allow": ["Agent"]}, "allow"),
    ],
)
def test_the_hook_holds_an_agent_call_that_names_none_to_rules_on_the_default_ones(
    tmp_path, rules, decision
):
    """A call of the Agent tool without `subagent_type` runs Claude Code's
    default agent (general-purpose, or a fork where forking is on): a rule
    on either meets it, where matched on the missing field it met none."""
    bundle, _ = read_claude_settings(write(tmp_path, ("user",), {"user": {"permissions": rules}}))
    path = tmp_path / "agents.artifact.json"
    path.write_bytes(compile_bundle(bundle, "t"))
    for tool, named in [("Agent", None), ("Task", None), ("Agent", "")]:  # ("": none)
        tool_input = {"prompt": "p", "description": "d"}
        if named is not None:
            tool_input["subagent_type"] = named
        got, reason = hook(path, payload(tool, tool_input))
        assert got == decision, (tool, reason)
    named, _ = hook(path, payload("Agent", {"prompt": "p", "subagent_type": "Plan"}))
    assert named == "allow"


@pytest.mark.parametrize(
    "stdin,fragment",
    [
        (b"", "not JSON"),
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (
            json.dumps({"hook_event_name": "PostToolUse", "tool_name": "Bash"}).encode(),
            "expected a PreToolUse",
        ),
        (json.dumps({"hook_event_name": "PreToolUse"}).encode(), "names no tool"),
    ],
)
def test_broken_input_is_denied_with_a_reason(artifact, stdin, fragment):
    got, reason = hook(artifact, stdin)
    assert got == "deny" and fragment in reason


def test_a_missing_or_refused_artifact_is_denied(tmp_path, artifact):
    got, reason = hook(tmp_path / "missing.json", payload("Read", {"file_path": "/x"}))
    assert got == "deny" and "refused artifact" in reason
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_bytes(artifact.read_bytes().replace(b'"default":"ask"', b'"default":"allow"'))
    got, reason = hook(corrupt, payload("Read", {"file_path": "/x"}))
    assert got == "deny" and "digest" in reason
    done = subprocess.run(
        [sys.executable, "-m", "policyc", "hook", "claude"], input=b"{}", capture_output=True
    )
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_hook_says_why_a_rule_met_a_command_whose_text_does_not_show_it(artifact, tmp_path):
    # `rm $F` denied by Bash(rm -rf:*), `cat $F` by Read(./.env), `grep -r`
    # of the project by it too: the model is told what to change. The
    # verdict's record keeps SPEC's reason.
    log = tmp_path / "verdicts.jsonl"
    got, reason = hook(artifact, payload("Bash", {"command": "rm $F"}), "--log", str(log))
    assert got == "deny" and reason.startswith('denied by Bash(rm -rf:*) on "rm $F"')
    assert reason.endswith(
        '(policyc: part of "rm $F" is not known before it runs, a variable or what xargs'
        " reads, and may make it a command Bash(rm -rf:*) names; write the value out)"
    )
    assert "policyc:" not in json.loads(log.read_text())["reason"]
    got, reason = hook(artifact, payload("Bash", {"command": "npm run x $F"}))
    assert got == "allow"  # (nothing to say of an allow)
    got, reason = hook(artifact, payload("Bash", {"command": "ls | xargs cat"}))
    assert got == "deny" and "so it may be any file; write the path out)" in reason
    got, reason = hook(artifact, payload("Bash", {"command": "grep -r KEY ."}))
    assert got == "deny" and "reads or changes every file under /repo" in reason
    got, reason = hook(artifact, payload("Bash", {"command": "black /"}))
    assert got == "deny" and reason.endswith(
        '(policyc: "black /" reads or changes every file named *.py, *.pyi or *.ipynb under /,'
        " which may hold one Edit(/etc/**) names; name the files)"
    )
    got, reason = hook(artifact, payload("Bash", {"command": "git add -A"}))
    assert got == "deny" and reason.endswith(
        '(policyc: "git add -A" reads or changes what is under /repo if it is a folder, which'
        " may hold one Read(./.env) names; name the files)"
    )
    got, reason = hook(artifact, payload("Bash", {"command": "git status && curl x"}))
    assert got == "deny" and "policyc:" not in reason  # the command shows the rule's text


def test_the_hook_logs_each_verdict_record(artifact, tmp_path):
    log = tmp_path / "verdicts.jsonl"
    hook(artifact, payload("Bash", {"command": "curl x"}), "--log", str(log))
    hook(artifact, payload("Read", {"file_path": "/repo/src/a"}), "--log", str(log))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["action"] for r in records] == ["block", "allow"]
    assert records[0]["run_id"] == "sess-1" and records[0]["call_id"] == "toolu_01"
    assert records[0]["source_hash"].startswith("sha256:")


def test_compile_from_settings_on_the_command_line(tmp_path, capsys):
    from policyc.cli import main

    args = [
        f"--claude-settings={scope}={path}"
        for scope, path in write(tmp_path, ("managed", "project"))
    ]
    out = tmp_path / "a.json"
    assert main(["compile", *args, "--trust-workspace", "-o", str(out)]) == 0
    assert policyc.load(out).decide("Bash", {"command": "npm run x"}).action == "allow"
    assert main(["compile", *args]) == 2  # settings alone need -o
    bad = tmp_path / "bad.json"
    bad.write_text('{"permissions": {"allow": ["Bash("]}}')
    assert main(["compile", f"--claude-settings=user={bad}", "-o", str(out)]) == 2
    assert f"{bad}:1:" in capsys.readouterr().err


def test_a_policy_bundle_imports_settings_files(tmp_path):
    from policyc.grammar import read_bundle

    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(PROJECT))
    (tmp_path / "team.policy").write_text(
        'default deny\nclaude project ".claude/settings.json" trusted\nallow WebSearch\n'
        'example "npm runs" {\n  call Bash {"command": "npm run build"}\n  want allow source "project"\n}\n'
    )
    bundle, raw = read_bundle(tmp_path / "team.policy")
    assert [s.name for s in bundle.sources] == ["project"] and bundle.default == "deny"
    t = load(compile_bundle(bundle, "t"))
    assert t.decide("Bash", {"command": "curl x"}).action == "block"
    assert t.decide("WebSearch", {"query": "x"}).action == "allow"
    (tmp_path / "bad.policy").write_text('default deny\nclaude project "missing.json"\n')
    with pytest.raises(PolicyErrors) as info:
        read_bundle(tmp_path / "bad.policy")
    assert info.value.kind == "unreadable" and "bad.policy:2:1" in info.value.errors[0].help


def test_mcp_server_in_an_allow_list_allows_every_tool_of_that_server(tmp_path):
    contents = {
        "user": {"permissions": {"allow": ["mcp__github"], "deny": ["mcp__github__delete_repo"]}}
    }
    t = table(tmp_path, ("user",), contents=contents)
    assert decide(t, "mcp__github__get_issue", {}).action == "allow"
    assert decide(t, "mcp__github__delete_repo", {}).action == "block"
    assert decide(t, "mcp__gitlab__get_issue", {}).action == "defer"
    # a bundle of policyc's own still refuses a glob in an allow list (agentpolicy's rule)
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text('{"allow": "mcp__github__*", "default": "ask"}', "b.json")
    assert info.value.kind == "tool_glob"


def test_the_printer_keeps_settings_imports():
    from policyc.grammar import parse_bundle
    from policyc.grammar.printer import format_policy

    text = 'default ask\nclaude project ".claude/settings.json" trusted\nclaude user "u.json"\n'
    bundle = parse_bundle(text, "t.policy")
    again = parse_bundle(format_policy(bundle), "t.policy")
    assert [(s, p, t) for s, p, t, _ in again.claude] == [
        ("project", ".claude/settings.json", True),
        ("user", "u.json", False),
    ]


def test_a_hook_run_imports_neither_re_nor_json(artifact):
    """Start-up is on the user's path: a plain Bash command and a Read are
    decided without `re` and `json` (about 7 ms of a 12 ms interpreter start)."""
    program = (
        "import sys\n"
        "from policyc.hook import decide\n"
        "for line in sys.stdin.buffer:\n"
        f"    print(decide(line, {str(artifact)!r}))\n"
        "print(sorted(m for m in ('re', 'json', 'shlex', 'functools') if m in sys.modules))\n"
    )
    calls = [
        payload("Bash", {"command": "git status && npm test | tee log"}),
        payload("Read", {"file_path": "src/../README.md"}),
    ]
    done = subprocess.run(
        [sys.executable, "-c", program],
        input=b"".join(json.dumps(c).encode() + b"\n" for c in calls),
        capture_output=True,
        check=True,
    )
    *answers, imported = done.stdout.decode().splitlines()
    decisions = [json.loads(a)["hookSpecificOutput"]["permissionDecision"] for a in answers]
    assert len(decisions) == 2 and set(decisions) <= {"allow", "ask", "deny"}
    assert imported == "[]"


def test_the_lean_launcher_runs_the_hook(artifact):
    """scripts/policyc-hook, installed next to `policyc` (pyproject script-files)."""
    script = Path(__file__).parent.parent / "scripts" / "policyc-hook"
    done = subprocess.run(
        [sys.executable, str(script), "claude", "--artifact", str(artifact)],
        input=json.dumps(payload("Bash", {"command": "curl x"})).encode(),
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    done = subprocess.run(
        [sys.executable, str(script), "claude", "--artifact", str(artifact)],
        input=b"{broken",
        capture_output=True,
        timeout=30,
    )
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_hook_that_fails_unexpectedly_still_refuses():
    """Claude Code runs the call on any exit code but 0 (with an answer) and 2."""
    program = (
        "from policyc import hook\n"
        "def boom(argv):\n"
        "    raise RuntimeError('bug')\n"
        "hook.main = boom\n"
        "hook.run(['claude'])\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=30)
    assert done.returncode == 0
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert "internal error (RuntimeError)" in out["permissionDecisionReason"]


def test_a_mode_lets_its_tool_run_in_the_working_directories_and_trust_only_narrows(tmp_path):
    """acceptEdits allowed an edit of `~/.bashrc` and `.claude/settings.json`
    and plan mode a read of `/etc/passwd`, which Claude Code asks about; a
    repository's `bypassPermissions`, not trusted, made every call with no
    rule run. A mode's tool runs in the working directories only (not the
    protected paths), and a file not trusted only makes the default stricter."""
    from policyc.grammar.claude import _mode

    assert _mode([]) == ("ask", "")
    assert _mode([(1, "acceptEdits", True)]) == ("ask", "Edit")
    assert _mode([(2, "bypassPermissions", False)]) == ("ask", "")  # (withheld)
    assert _mode([(1, "bypassPermissions", True), (2, "plan", False)]) == ("deny", "")
    assert _mode([(1, "dontAsk", True), (2, "default", False)]) == ("deny", "")
    assert _mode([(2, "dontAsk", False), (4, "default", True)]) == ("ask", "")  # managed
    assert _mode([(2, "plan", True), (1, "default", True)]) == ("deny", "Read")  # by rank

    contents = {"user": {"permissions": {"defaultMode": "acceptEdits"}}}
    t = table(tmp_path, ["user"], contents=contents)

    def edit(path):
        return decide(t, "Edit", {"file_path": path, "old_string": "a", "new_string": "b"}).action

    assert edit("/repo/src/a.py") == "allow"
    for path in ["/home/me/.bashrc", "/repo/.git/config", "/repo/sub/.vscode/settings.json"]:
        assert edit(path) == "defer", path
    contents = {"project": {"permissions": {"defaultMode": "auto"}}}
    assert table(tmp_path, ["project"], trust=True, contents=contents).default == "ask"


def test_an_administrators_controls_on_modes_and_rules_hold(tmp_path):
    """A managed `disableBypassPermissionsMode: "disable"` and
    `allowManagedPermissionRulesOnly: true` were not read: a user's
    `bypassPermissions` and allow rules ran calls the administrator meant to
    ask about. Now the mode is off and only the managed file allows."""
    contents = {
        "managed": {
            "permissions": {"disableBypassPermissionsMode": "disable", "allow": ["Bash(make:*)"]},
            "allowManagedPermissionRulesOnly": True,
        },
        "user": {
            "permissions": {
                "defaultMode": "bypassPermissions",
                "allow": ["Bash(curl:*)"],
                "deny": ["Bash(git push:*)"],
            }
        },
    }
    t = table(tmp_path, ["managed", "user"], contents=contents)
    assert t.default == "ask"
    for command, action in [("ls", "defer"), ("curl x", "defer"), ("make", "allow")]:
        assert decide(t, "Bash", {"command": command}).action == action, command
    assert decide(t, "Bash", {"command": "git push"}).action == "block"  # (kept: it narrows)
    # Without the managed file, as before.
    t = table(tmp_path, ["user"], contents=contents)
    assert decide(t, "Bash", {"command": "ls"}).action == "allow"
    bad = {"managed": {"permissions": {"disableBypassPermissionsMode": "yes"}}}
    with pytest.raises(PolicyErrors, match="disableBypassPermissionsMode"):
        table(tmp_path, ["managed"], contents=bad)
