"""Runtime behaviour beyond the vendored corpus: scopes, records, fail-closed paths."""

from __future__ import annotations

import json
from collections import OrderedDict

import pytest

from policyc.runtime import VERDICT_NS, RuleSyntaxError, Source, Verdict

# Every test here runs with the compiled walks and with the pure ones (conftest).
pytestmark = pytest.mark.usefixtures("walks")

BUNDLE = {
    "matchers": {
        "bash": {"match": "glob", "field": "command"},
        "read": {"match": "prefix", "field": "path"},
    },
    "sources": [
        {
            "name": "team",
            "rank": 1,
            "trusted": True,
            "ask": "bash",
            "notes": {"bash": "the team reviews commands"},
            "hash": "sha256:abc",
        },
    ],
    "allow": "read",
    "default": "deny",
}


@pytest.fixture
def table(compile_json):
    return compile_json(BUNDLE)


def test_the_verdict_record(table):
    verdict = table.decide("bash", {"command": "ls"}, confined=None)
    assert VERDICT_NS == "agentpolicy:verdict"
    record = json.loads(verdict.record(run_id="run_1", turn=2, call_id="call_1"))
    assert record == {
        "run_id": "run_1",
        "turn": 2,
        "call_id": "call_1",
        "tool": "bash",
        "action": "defer",
        "rule": "bash",
        "source": "team",
        "source_hash": "sha256:abc",
        "note": "the team reviews commands",
        "reason": "approval required by bash: the team reviews commands",
        "by": "policy",
    }


def test_a_scoped_grant_set_decides_only_its_scope(table):
    granted, refused = table.activate(
        Source("skill:commit", 1, True), allow="bash(git commit:*)", scope="session-1"
    )
    assert [str(r) for r in granted] == ["bash(git commit:*)"] and refused == []
    call = {"command": "git commit -m x"}
    assert table.decide("bash", call, scope="session-1").action == "allow"
    assert table.decide("bash", call, scope="session-2").action == "defer"
    assert table.decide("bash", call).action == "defer"
    assert table.revoke("skill:commit") == 0  # the unscoped key holds nothing
    assert table.revoke("skill:commit", scope="session-1") == 1
    assert table.decide("bash", call, scope="session-1").action == "defer"


def test_each_scope_decides_against_its_own_lists_call_after_call(table):
    # A scope's first call builds its lists; the calls after it go straight
    # to its walks (the compiled front's path), each scope to its own.
    table.activate(Source("skill:commit", 1, True), allow="bash(git commit:*)", scope="a")
    call = {"command": "git commit -m x"}
    batch = [{"tool": "bash", "args": call}, {"tool": "read", "args": {"path": "/a"}}]
    for _ in range(3):
        for scope, action in ((None, "defer"), ("a", "allow"), ("b", "defer")):
            assert table.decide("bash", call, scope=scope).action == action, scope
            # The allowed read is held beside a deferral, and only then.
            held = [v.action for v in table.decide_batch(batch, scope=scope)]
            assert held == [action, "defer" if action == "defer" else "allow"], scope
    table.revoke("skill:commit", scope="a")
    for scope in (None, "a", "b", "a"):
        assert table.decide("bash", call, scope=scope).action == "defer", scope
        assert [v.action for v in table.decide_batch(batch, scope=scope)] == ["defer"] * 2


def test_a_grant_set_decides_batches_too(table):
    # A batch of walked calls decides against the lists the scope's sets make,
    # not the policy's walks, as single decisions do.
    calls = [{"tool": "bash", "args": {"command": "git commit -m x"}}, ("read", {"path": "/a"})]
    plain = [{"tool": "bash", "args": {"command": "git commit -m x"}}]
    assert [v.action for v in table.decide_batch(plain)] == ["defer"]
    table.activate(Source("skill:commit", 1, True), allow="bash(git commit:*)")
    assert [v.action for v in table.decide_batch(plain)] == ["allow"]
    assert [v.action for v in table.decide_batch(calls)] == ["allow", "allow"]
    table.revoke("skill:commit")
    assert [v.action for v in table.decide_batch(plain)] == ["defer"]


@pytest.mark.parametrize("tool", [["bash"], {"bash": 1}, None, 7])
def test_a_tool_that_is_not_a_name_is_blocked_not_raised(table, tool):
    verdict = table.decide(tool, {"command": "ls"})
    assert verdict.action == "block" and verdict.failed
    assert [v.action for v in table.decide_batch([{"tool": tool, "args": {}}])] == ["block"]


def test_a_scope_keeps_its_lists_when_another_scope_changes(table, monkeypatch):
    # Each scope's lists and walks are built from the sets in force for it;
    # a change elsewhere leaves them be, scopes with the same sets share
    # them, and a scope whose sets changed gets new ones.
    built = []
    build = type(table)._build_lists
    monkeypatch.setattr(
        type(table),
        "_build_lists",
        lambda self, active: built.append(len(active)) or build(self, active),
    )
    commit = {"command": "git commit -m x"}
    push = {"command": "git push"}
    table.activate(Source("skill:commit", 1, True), allow="bash(git commit:*)", scope="a")
    assert table.decide("bash", commit, scope="a").action == "allow"
    assert table.decide("bash", commit, scope="b").action == "defer"  # no sets: the policy's
    assert built == [1]
    table.activate(Source("skill:push", 1, True), allow="bash(git push)", scope="b")
    assert table.decide("bash", commit, scope="a").action == "allow"
    assert table.decide("bash", push, scope="a").action == "defer"
    assert built == [1]  # scope a's sets did not change: its lists stay
    assert table.decide("bash", push, scope="b").action == "allow"
    assert table.decide("bash", commit, scope="b").action == "defer"
    assert built == [1, 1]
    table.activate(Source("skill:all", 1, True), allow="bash(ls)")  # every scope's sets change
    assert not table._by_sets  # no scope has the sets those lists were built for
    for scope in ("a", "b", "c"):
        assert table.decide("bash", {"command": "ls"}, scope=scope).action == "allow"
    assert built == [1, 1, 2, 2, 1]
    assert table.decide("bash", {"command": "ls"}, scope="d").action == "allow"
    assert built == [1, 1, 2, 2, 1]  # c and d have the same sets: they share
    assert len(table._by_sets) == 3
    assert table.revoke("skill:commit", scope="a") == 1
    assert table.decide("bash", commit, scope="a").action == "defer"
    assert table.decide("bash", push, scope="b").action == "allow"
    assert built == [1, 1, 2, 2, 1]  # a now has c's sets: it shares theirs; b kept its own
    assert len(table._by_sets) == 2  # the lists of revoked sets are gone


def test_a_scope_walks_tools_its_sets_do_not_name_with_the_policys_walks(table):
    # No set rule can fire on such a tool, so no set shadows its asks: the
    # policy's walk decides it; a set rule naming the tool (a glob too) ends that.
    table.activate(Source("skill:docs", 1, True), allow="read(/docs:*)", scope="a")
    lists, policy = table._lists_for("a"), table._policy
    assert lists.fast_path("bash") is policy.fast_path("bash")
    assert lists.subject_path("bash") is policy.subject_path("bash")
    assert lists.fast_path("read") is not policy.fast_path("read")
    # The policy's rules come first in a scope's lists, and keep their verdicts,
    # and the rows of the tools no set names are the policy's.
    assert lists.verdicts["allow"][0] is policy.verdicts["allow"][0]
    assert lists.verdicts["allow"][1].rule == "read(/docs:*)"
    assert lists.ask.by_tool["bash"] is policy.ask.by_tool["bash"]
    assert lists.allow.by_tool["read"] is not policy.allow.by_tool["read"]
    ls = {"command": "ls"}
    assert table.decide("bash", ls, scope="a") == table.decide("bash", ls)
    assert table.decide("bash", ls, scope="a").action == "defer"
    table.activate(Source("guard", 1, True), deny="b*", scope="a")
    lists = table._lists_for("a")
    assert lists.fast_path("bash") is not policy.fast_path("bash")
    assert table.decide("bash", ls, scope="a").action == "block"
    assert table.decide("bash", ls).action == "defer"


def test_a_set_carve_out_guards_the_rules_it_reaches_beside_the_policys(compile_json):
    # A scope's lists rebuild the rows and guards of the tools a set names and
    # share the rest: the policy's carve-out keeps guarding `read`, the set's
    # (ranked above the policy's deny) cancels it for `bash` in that scope only.
    table = compile_json(
        {
            "matchers": {
                "bash": {"match": "glob", "field": "command"},
                "read": {"match": "prefix", "field": "path"},
            },
            "sources": [
                {
                    "name": "team",
                    "rank": 1,
                    "trusted": True,
                    "deny": "bash(rm:*) read(/etc:*) read(!/etc/hosts)",
                    "allow": "bash read",
                },
            ],
            "default": "ask",
        }
    )
    table.activate(Source("ops", 2, True), deny="bash(!rm -i:*)", scope="a")
    lists, policy = table._lists_for("a"), table._policy
    assert lists.deny.by_tool["read"] is policy.deny.by_tool["read"]
    assert lists.deny.by_tool["bash"] is not policy.deny.by_tool["bash"]
    for scope, rm_i in (("a", "allow"), ("b", "block"), (None, "block")):
        assert table.decide("bash", {"command": "rm -i x"}, scope=scope).action == rm_i
        assert table.decide("bash", {"command": "rm -rf x"}, scope=scope).action == "block"
        assert table.decide("read", {"path": "/etc/hosts"}, scope=scope).action == "allow"
        assert table.decide("read", {"path": "/etc/passwd"}, scope=scope).action == "block"
        # the general path (no walks) says the same
        assert table.decide_once("bash", {"command": "rm -i x"}, scope=scope).action == rm_i


def test_a_grant_sets_deny_meets_what_the_policys_own_would():
    """A grant set's `bash(rm -rf:*)` met `rm -rf x` and missed `rm -fr x`,
    which the policy's own meets (its options are read as the shapes of the
    policy's deny and ask rules, computed at load); a set's deny on the
    fetch tool missed `curl "$URL"` (a host not known is held to the hosts
    of the policy's rules). A scope's lists now split calls as their own
    rules need, in both backends."""
    import policyc
    from policyc.grammar import parse_bundle
    from policyc.reference import ReferenceEngine

    text = (
        "default allow\n"
        "tool bash glob(command) split shell fetch=web\ntool web domain(url)\n"
        "tool read path(path) split path\ntool edit path(path) split path\n"
        "deny bash(git push --force:*)\n"
    )
    compiled = policyc.load(policyc.compile_text(text, "t.policy"))
    reference = ReferenceEngine(parse_bundle(text, "t.policy"))
    for table in (compiled, reference):
        source = Source("guard", 1, True)
        table.activate(source, deny="bash(rm -rf:*) web(evil.example)", scope="a")
        table.activate(source, deny="read(./secrets/**)", scope="b")
        for command, scope, action in [
            ("rm -fr build", "a", "block"),
            ("rm -r -f build", "a", "block"),
            ("rm -rf build", "a", "block"),
            ("rm -fr build", None, "allow"),  # (no set in that scope)
            ("git push -f", "a", "block"),  # (the policy's own, as before)
            ("curl https://evil.example", "a", "block"),
            ('curl "$URL"', "a", "block"),  # its host may be evil.example
            ('curl "$URL"', None, "allow"),
            ("curl https://ok.example", "a", "allow"),
        ]:
            verdict = table.decide("bash", {"command": command}, scope=scope, cwd="/r")
            assert verdict.action == action, (command, scope, table)
        # (a set's path rule anchored at the working directory: as the policy's)
        assert table.decide("read", {"path": "secrets/key"}, scope="b").action == "block"
        assert table.decide("read", {"path": "/r/secrets/k"}, scope="b", cwd="/r").action == (
            "block"
        )
    assert compiled._lists_for("c").splitters is compiled._policy.splitters
    compiled.activate(Source("skill:x", 1, True), allow="bash(make:*)", scope="c")
    assert compiled._lists_for("c").splitters is compiled._policy.splitters  # (nothing to add)


def test_activating_the_same_key_replaces_the_set(table):
    table.activate(Source("skill:x", 1, True), allow="bash(a)")
    table.activate(Source("skill:x", 1, True), allow="bash(b)")
    assert table.decide("bash", {"command": "a"}).action == "defer"
    assert table.decide("bash", {"command": "b"}).action == "allow"
    assert len(table.grants()) == 1


def test_a_set_deny_applies_at_once_even_untrusted(table):
    granted, refused = table.activate(
        Source("repo-skill", 0, False), deny="read(/secrets:*)", allow="read"
    )
    assert granted == [] and [r.reason for r in refused] == [
        "withheld: the source repo-skill is not trusted"
    ]
    assert table.decide("read", {"path": "/secrets/key"}).action == "block"
    assert table.decide("read", {"path": "/src/x"}).action == "allow"


def test_grant_set_input_errors_raise(table):
    with pytest.raises(ValueError):
        table.activate(Source("", 0, True), allow="read")
    with pytest.raises(RuleSyntaxError):
        table.activate(Source("s", 0, True), allow="bash(")


@pytest.mark.parametrize(
    "subjects,reason",
    [
        ("unterminated quote", "bash call could not be evaluated: unterminated quote"),
        (ValueError("parse failed"), "bash call could not be evaluated: parse failed"),
        ([], "bash call could not be evaluated: splitter returned no subjects"),
        ({"args": {}}, "bash call could not be evaluated: the splitter's subjects are not a list"),
        ([1], "bash call could not be evaluated: a subject is not an object"),
    ],
)
def test_subjects_that_cannot_be_evaluated_block(table, subjects, reason):
    verdict = table.decide("bash", {"command": "x"}, subjects=subjects)
    assert (verdict.action, verdict.reason, verdict.failed) == ("block", reason, True)


def test_a_split_tool_without_subjects_fails_closed(compile_json):
    table = compile_json(
        {"matchers": {"bash": {"split": True}}, "allow": "bash", "default": "allow"}
    )
    verdict = table.decide("bash", {"command": "rm -rf /"})
    assert verdict.action == "block"
    assert (
        verdict.reason
        == "bash call could not be evaluated: the tool has a splitter and no subjects were given"
    )


def test_an_unevaluable_sibling_holds_the_batch(table):
    verdicts = table.decide_batch(
        [
            {"tool": "read", "args": {"path": "x"}},
            {"tool": "bash", "args": {"command": "x"}, "subjects": "cannot parse"},
        ]
    )
    assert [v.action for v in verdicts] == ["defer", "block"]
    assert verdicts[0].held and verdicts[0].reason == "held for approval: allowed by read"


@pytest.mark.parametrize("bad", [None, 3, ("bash",), "ab c", [1, 2, 3]])
def test_a_batch_entry_that_is_not_a_call_fails_closed(table, bad):
    verdicts = table.decide_batch([{"tool": "read", "args": {"path": "x"}}, bad])
    assert [v.action for v in verdicts] == ["defer", "block"]
    assert verdicts[0].held
    assert verdicts[1].failed
    assert verdicts[1].reason == (
        "tool call could not be evaluated: not a {tool, args} object nor a (tool, args) pair"
    )


@pytest.mark.parametrize("where", ["fast", "general"])
def test_an_internal_fault_blocks(table, monkeypatch, where):
    def boom(*args, **kwargs):
        raise RuntimeError("bug")

    if where == "fast":
        monkeypatch.setitem(table._fast, "read", boom)  # the tool's precomputed walk
        verdict = table.decide("read", {"path": "x"})
    else:
        monkeypatch.setattr(table, "_decide_subject", boom)
        verdict = table.decide("read", {"path": "x"}, confined="box")
    assert verdict.action == "block"
    assert verdict.reason == "read call could not be evaluated: internal error (RuntimeError)"


def test_a_walk_that_cannot_be_built_blocks(table, monkeypatch):
    """A tool's first call builds its walk (the compiled one allocates its
    tables in C memory): a build that fails, out of memory say, blocks the
    call, and holds the allowed call beside it in a batch."""
    from policyc.runtime import fast

    def boom(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(fast.walks, "glob_walker", boom)
    if fast.COMPILED is not None:
        monkeypatch.setattr(fast.COMPILED, "glob_walker", boom)
    verdict = table.decide("bash", {"command": "ls"})
    assert verdict.action == "block" and verdict.failed
    assert verdict.reason == "bash call could not be evaluated: internal error (MemoryError)"
    batch = [{"tool": "read", "args": {"path": "x"}}, {"tool": "bash", "args": {"command": "ls"}}]
    verdicts = table.decide_batch(batch)
    assert [v.action for v in verdicts] == ["defer", "block"]
    assert verdicts[0].held and verdicts[1].failed


def test_verdicts_are_immutable(table):
    verdict = table.decide("read", {"path": "x"})
    with pytest.raises(AttributeError):
        verdict.action = "block"  # type: ignore[misc]
    assert table.decide("read", {"path": "x"}).action == "allow"


def test_rules_are_immutable_and_compared_without_their_notes():
    from policyc.runtime import Rule

    source = Source("team", 2)
    rule = Rule("bash", "git push:*", source, "ask first")
    fields = (rule.tool, rule.spec, rule.source, rule.note)
    assert fields == ("bash", "git push:*", source, "ask first")
    assert Rule("bash").spec is None and Rule("bash").note == ""
    with pytest.raises(AttributeError):
        rule.spec = "rm:*"  # type: ignore[misc]
    assert rule.spec == "git push:*"
    twin = Rule("bash", "git push:*", source)
    assert twin == rule and hash(twin) == hash(rule)
    assert Rule("bash", "git push:*", Source("other", 2)) != rule
    assert str(rule) == "bash(git push:*)"


def test_verdict_copies_change_only_the_named_fields():
    # `replace` and `as_call` build by position; each field must land where
    # the named tuple's own `_replace` puts it.
    fields = Verdict._fields
    original = Verdict(*(f"{name}-value" for name in fields))
    for name in fields:
        assert original.replace(**{name: "new"}) == original._replace(**{name: "new"})
        assert type(original.replace(**{name: "new"})) is Verdict
    changes = {"tool": "t", "subject": "s", "confined": "c", "reason": "r"}
    assert original.as_call("t", "s", "c", "r") == original._replace(**changes)
    assert type(original.as_call("t", "s", "c", "r")) is Verdict
    assert original.replace(**changes) == original._replace(**changes)
    with pytest.raises(ValueError, match="unexpected field names"):
        original.replace(colour="red")


def test_unknown_tool_names_are_cached_boundedly(compile_json):
    table = compile_json({"deny": "mcp__*", "default": "allow"})
    for i in range(5000):
        assert table.decide(f"mcp__s{i}", {}).action == "block"
    assert table.decide("other", {}).action == "allow"
    assert len(table._policy.deny._unknown) <= 4096


def test_warm_builds_every_walk_up_front_and_changes_no_verdict(compile_json):
    calls = [
        ("bash", {"command": "git status"}),
        ("bash", {"command": "rm -rf /"}),
        ("read", {"path": "/etc/hosts"}),
        ("read", {"path": "x"}),
        ("unknown", {}),
    ]
    cold = compile_json(BUNDLE)
    warm = compile_json(BUNDLE)
    assert not warm._policy.paths
    assert warm.warm() is warm
    assert set(warm._policy.paths) >= {"bash", "read"}
    assert [warm.decide(t, a) for t, a in calls] == [cold.decide(t, a) for t, a in calls]


def test_a_walk_makes_its_tools_rule_verdicts_first_and_uses_those(compile_json):
    # Made together before the build's nodes, so that they lie together in
    # memory; the walk must hand back those very objects.
    table = compile_json(
        {
            "matchers": {"bash": {"match": "glob", "field": "command"}},
            "deny": "bash(rm:*) bash(!rm -i:*) read mcp__*",
            "allow": "bash(git status) bash(ls:*) bash(npm * test)",
            "default": "ask",
        }
    )
    deny, allow = table._policy.deny, table._policy.allow
    assert [str(deny.rules[i]) for i in deny.rule_ids("bash")] == ["bash(rm:*)"]
    assert deny.rule_ids("mcp__*") == [3] and deny.rule_ids("git") == []
    assert [str(allow.rules[i]) for i in allow.rule_ids("bash")] == [
        "bash(git status)",
        "bash(ls:*)",
        "bash(npm * test)",
    ]
    made = table._policy.verdicts
    assert not made["allow"] and not made["deny"]
    verdict = table.decide("bash", {"command": "ls -la"})
    assert sorted(made["allow"]) == [0, 1, 2] and sorted(made["deny"]) == [0]
    assert verdict is made["allow"][1]
    assert table.decide("bash", {"command": "npm x test"}) is made["allow"][2]


def test_a_hosts_dict_and_str_subclasses_are_read_as_their_values(compile_json):
    """An OrderedDict of a str subclass reads as the plain value: read as "no
    value", `rm -rf /` escaped the deny rule and a bare allow let it run."""

    class Text(str):
        pass

    table = compile_json(
        {
            "matchers": {
                "bash": {"match": "glob", "field": "command"},
                "read": {"match": "path", "field": "path"},
            },
            "deny": "bash(rm:*) read(./secret/**)",
            "allow": "bash read",
            "default": "allow",
        }
    )
    for args in (OrderedDict(command="rm -rf /"), {"command": Text("rm -rf /")}):
        assert table.decide("bash", args).action == "block"
        assert table.decide_once("bash", args).action == "block"
    assert table.decide(Text("bash"), {"command": "rm -rf /"}).reason == "denied by bash(rm:*)"
    batch = table.decide_batch([OrderedDict(tool="bash", args=OrderedDict(command="rm -rf /"))])
    assert [v.action for v in batch] == ["block"]
    # a working directory given as a str subclass anchors `./` rules like a str
    verdict = table.decide("read", {"path": "/w/secret/x"}, cwd=Text("/w"))
    assert verdict.reason == "denied by read(./secret/**)"
    # a str subclass that names a tool on its first call decides as the name
    # does (its walk is built for the plain name, which is interned)
    fresh = compile_json(
        {
            "matchers": {"bash": {"match": "glob", "field": "command"}},
            "deny": "bash(rm:*)",
            "allow": "bash",
            "default": "ask",
        }
    )
    for tool in (Text("bash"), "bash"):
        assert fresh.decide(tool, {"command": "rm -rf /"}).reason == "denied by bash(rm:*)"
        assert fresh.decide(tool, {"command": "ls"}).action == "allow"


def _bash_globs(compile_json, **lists: str):
    """A table of `bash` rules on the glob matcher, `ask` by default."""
    return compile_json(
        {"matchers": {"bash": {"match": "glob", "field": "command"}}, **lists, "default": "ask"}
    )


def test_inner_globs_are_found_under_their_heads_whole_words(compile_json):
    # The index files `git push x*` under `git push` and looks that up at each
    # space of the value; a value whose words only start the same way, or
    # that a tail glob does not end, falls to the other rules.
    table = _bash_globs(
        compile_json,
        deny="bash(git push x*) bash(git * --force) bash(npm  run b*)",
        allow="bash(git:*) bash(npm:*)",
    )

    def action(command: str) -> str:
        return table.decide("bash", {"command": command}).action

    assert action("git push xyz") == "block"
    assert action("git push origin xyz") == "allow"
    assert action("git pushx xyz") == "allow"
    assert action("git status --force") == "block"
    assert action("git status --forced") == "allow"
    assert action("npm  run build") == "block"  # two spaces: the key holds one
    assert action("npm run build") == "allow"
    # The general path (`decide_once`, no walk) says the same.
    for command in ("git push xyz", "git status --force", "npm  run build"):
        assert table.decide_once("bash", {"command": command}).action == "block"


def test_a_value_inner_globs_match_is_settled_by_what_decides_it(compile_json):
    # The walk keeps the verdict of such a value by its trie node, whether the
    # value ends there, and which inner globs match: `a bc` and `a bc e` share
    # the node and the glob `a b*`, but only `a bc` meets the exact deny.
    table = _bash_globs(
        compile_json,
        deny="bash(a bc) bash(a * zz)",
        allow="bash(a b*) bash(!a bc d)",
        ask="bash(a bc d *)",
    )
    commands = ["a bc", "a bc e", "a bc d", "a bcd", "a bc zz", "a bc d e", "a bc d zz", "a b"]
    expected = {c: table.decide_once("bash", {"command": c}) for c in commands}
    assert [expected[c].action for c in commands] == [
        "block",  # the exact deny
        "allow",  # the glob allow
        "defer",  # the carve-out cancels the glob allow: the default
        "allow",
        "block",
        "defer",  # the ask glob
        "block",
        "allow",
    ]
    for order in (commands, commands[::-1], commands * 2):
        for command in order:
            assert table.decide("bash", {"command": command}) == expected[command], command


def test_a_warm_decision_hands_back_its_verdict_and_allocates_nothing(walks, compile_json):
    # The ask: precomputed immutable verdicts, no allocation on the
    # common path. Once a tool's walk is built and a value's kind settled, a
    # decision hands back the same verdict object; the compiled walks make
    # nothing at all on the way (the pure ones split the value into a list).
    import tracemalloc

    table = compile_json(
        {
            "matchers": {
                "bash": {"match": "glob", "field": "command"},
                "read": {"match": "prefix", "field": "path"},
            },
            "allow": "bash(git status) bash(ls:*) bash(npm run * --dry-run) read(/repo:*)",
            "ask": "bash(git push:*) bash(!git push --dry-run)",
            "deny": "bash(rm:*) read(/repo/.env) mcp__*",
            "default": "ask",
        }
    ).warm()
    calls = [
        ("bash", {"command": "git status"}),  # exact
        ("bash", {"command": "ls -la /tmp"}),  # word prefix
        ("bash", {"command": "npm run build --dry-run"}),  # inner glob
        ("bash", {"command": "git push --dry-run"}),  # carve-out: the default
        ("bash", {"command": "rm -rf /"}),
        ("bash", {"command": "make " + "word " * 60}),  # long, no rule names it
        ("bash", {}),  # no field
        ("read", {"path": "/repo/src/a.py"}),
        ("read", {"path": "/repo/.env"}),
        ("mcp__srv__drop", {}),  # a tool-name glob, for a tool no rule names
        ("web_fetch", {"url": "https://x"}),
    ]
    first = [table.decide(tool, args) for tool, args in calls]
    assert [v.action for v in first] == ["allow", "allow", "allow", "defer", "block"] + [
        "defer", "defer", "allow", "block", "block", "defer",
    ]  # fmt: skip
    for (tool, args), verdict in zip(calls, first, strict=True):
        assert table.decide(tool, args) is verdict, (tool, args)
    if walks != "compiled":
        return

    def made_while(fn, tool, args) -> int:
        # The most memory traced while `fn` ran, over what was traced before:
        # the least of five tries, so the interpreter's own noise drops out.
        sizes = []
        for _ in range(5):
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            fn(tool, args)
            sizes.append(tracemalloc.get_traced_memory()[1] - before)
        return min(sizes)

    tracemalloc.start()
    try:
        for tool, args in calls:
            # What the measurement itself makes, with a call that makes nothing.
            baseline = made_while({}.get, tool, args)
            assert made_while(table.decide, tool, args) <= baseline, (tool, args)
    finally:
        tracemalloc.stop()


def test_one_star_globs_need_room_for_head_and_tail(compile_json):
    # A glob with one `*` and no `:*` is tested by its head, its tail and the
    # length both need: `ab*b` starts and ends `ab`, but needs three characters.
    # Carve-outs ending alike share a tails group (`x * y --dry-run`): a value
    # ending in `--dry-run` goes on only if it ends as one of them does.
    short = {
        "deny": "bash(ab*b)",
        "allow": "bash(a:*) bash(ab:*)",
    }
    tails = {
        "deny": "bash(x * q --dry-run) bash(!x * y --dry-run) bash(x:*)",
        "ask": "bash(!x * y --dry-run) bash(x:*)",
        "allow": "bash(z * --dry-run)",
    }
    expected = {
        "ab": "allow",  # `ab*b` needs 3 characters: the word prefix decides
        "abb": "block",
        "ab b": "block",
        "x 1 q --dry-run": "block",
        "x 1 y --dry-run": "defer",  # the carve-out cancels both `x:*` rules
        "x 1 w --dry-run": "block",
        "z 1 --dry-run": "allow",
        "z --dry-run": "defer",  # `z * --dry-run` needs its two spaces
    }
    for lists in (short, tails):
        table = _bash_globs(compile_json, **lists)
        for command, action in expected.items():
            once = table.decide_once("bash", {"command": command})
            if command.startswith("a") == (lists is short):
                assert once.action == action, command
            assert table.decide("bash", {"command": command}) == once, command


def test_bulk_builds_pause_the_collector_and_restore_the_hosts_setting(compile_json):
    import gc

    import policyc
    from policyc.runtime.bulk import gc_paused

    seen = []
    assert gc_paused(lambda: seen.append(gc.isenabled()) or "built") == "built"
    assert seen == [False] and gc.isenabled()
    with pytest.raises(ZeroDivisionError):
        gc_paused(lambda: 1 / 0)
    assert gc.isenabled()  # on again after a build that failed
    artifact = policyc.compile_text(json.dumps(BUNDLE), "bundle.json")
    policyc.load(artifact).warm()
    assert gc.isenabled()
    gc.disable()  # a host that runs without it keeps it off
    try:
        policyc.load(policyc.compile_text(json.dumps(BUNDLE), "bundle.json")).warm()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_what_a_bulk_build_made_is_filed_as_old_without_a_collection():
    import gc
    import weakref

    from policyc.runtime.bulk import gc_paused

    class Node:
        pass

    def build():
        built = [[Node() for _ in range(100)] for _ in range(100)]
        cycle = Node()
        cycle.me = cycle  # garbage once the build returns: a cycle only a collection frees
        return built, weakref.ref(cycle)

    collections = []

    def count(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    # CPython 3.12 starts with some tuples of its own frozen: nothing may be
    # thawed there, so builds are left to the collector, as when a host has
    # frozen its own objects (checked below where nothing is frozen).
    frozen = gc.get_freeze_count()
    gc.collect()
    built, cycle = gc_paused(build)
    # (Watched from here: CPython 3.12 may run a collection already due when
    # the build started, inside it.)
    gc.callbacks.append(count)
    try:
        young, middle, old = (gc.get_objects(generation=g) for g in range(3))
        if frozen == 0:
            assert collections == []  # no collection scanned what was built
            assert any(obj is built[0] for obj in old)
            assert not any(obj is built[0] for obj in young + middle)
            assert gc.get_count()[0] < 100  # the build's allocations are not counted against it
            assert cycle() is not None  # its garbage waits for a full collection
        else:
            assert gc.get_freeze_count() == frozen  # nothing thawed
        del young, middle, old
        gc.collect()  # a full collection still finds the garbage the build left
        assert cycle() is None
    finally:
        gc.callbacks.remove(count)
    if frozen:
        return  # (thawing below would thaw the interpreter's own too)

    del built
    gc.freeze()  # a host that froze its objects (before a fork) keeps them frozen
    try:
        frozen = gc.get_freeze_count()
        built, _ = gc_paused(build)
        assert gc.get_freeze_count() == frozen
        assert not any(obj is built[0] for obj in gc.get_objects(generation=2))
    finally:
        gc.unfreeze()


def test_walks_with_grant_sets_skip_only_asks_a_set_really_allows():
    # The walks of a scope with grant sets settle the shadowing of SPEC 7: an
    # ask is skipped when a set ranked at or above it allows the value, not
    # when the set's allow rule is cancelled by a carve-out that reaches it.
    import policyc
    from policyc.grammar import parse_bundle
    from policyc.reference import ReferenceEngine

    text = json.dumps(
        {
            "matchers": {"bash": {"match": "glob", "field": "command"}},
            "sources": [
                {"name": "managed", "rank": 3, "trusted": True, "allow": "bash(!deploy prod)"},
                {
                    "name": "team",
                    "rank": 0,
                    "trusted": True,
                    "ask": "bash(deploy:*) bash(ship:*) bash(deploy * now)",
                },
                {
                    "name": "ops",
                    "rank": 2,
                    "trusted": True,
                    "ask": "bash(ship it:*) bash(ship * at)",
                },
            ],
            "default": "deny",
        }
    )
    table = policyc.load(policyc.compile_text(text, "b.json"))
    reference = ReferenceEngine(parse_bundle(text, "b.json"))
    skill = Source("skill", 1, True)
    for engine in (table, reference):
        engine.activate(skill, allow="bash(deploy:*) bash(ship:*)")
    commands = ["deploy prod", "deploy dev", "deploy prod x", "ship it now", "ship now"]
    commands += ["deploy prod now", "deploy x now", "ship x at", "ship it at"]  # inner globs
    got = [table.decide("bash", {"command": c}).action for c in commands]
    assert got == ["defer", "allow", "allow", "defer", "allow"] + ["allow"] * 2 + ["defer"] * 2
    for command in commands:
        args = {"command": command}
        assert table.decide("bash", args) == reference.decide("bash", args), command
        assert table.decide("bash", args) == table.decide_once("bash", args), command


def test_the_table_walks_with_the_walks_asked_for(walks, compile_json):
    """The compiled run of these tests decides through the compiled walks, not the pure ones."""
    from types import FunctionType, MethodType

    table = compile_json({**BUNDLE, "deny": "bash(rm:*) read(/etc:*)"}).warm()
    # `decide` and `decide_batch` go through the compiled fronts, or are the Python ones.
    assert (type(table.decide) is MethodType) == (walks == "pure")
    assert (type(table.decide_batch) is FunctionType) == (walks == "pure")
    for tool, args, action in (
        ("bash", {"command": "rm -rf /"}, "block"),
        ("bash", {"command": "ls"}, "defer"),
        ("read", {"path": "/etc/passwd"}, "block"),
        ("read", {"path": "/repo/a"}, "allow"),
    ):
        walk = table._fast[tool]
        assert (type(walk) is FunctionType) == (walks == "pure"), (tool, walks)
        assert walk(args).action == action


def test_a_batch_holds_only_its_allowed_calls(walks, compile_json):
    # Warm, so that the batch takes the walks (the compiled front's path): an
    # allowed call is held beside a deferral or a failure; the others stay.
    bundle = {
        "matchers": {"bash": {"match": "glob", "field": "command"}, "edit": {"split": True}},
        "allow": "bash(ls:*)",
        "ask": "bash(git push:*)",
        "deny": "bash(rm:*)",
        "default": "deny",
    }
    table = compile_json(bundle).warm()
    ls, push, rm = ({"tool": "bash", "args": {"command": c}} for c in ("ls -l", "git push", "rm x"))
    refused = {"tool": "edit", "args": {}}  # a splitter tool without subjects: failed
    alone = table.decide_batch([ls, rm])
    assert [(v.action, v.held) for v in alone] == [("allow", False), ("block", False)]
    for holder in (push, refused):
        got = table.decide_batch([ls, holder, rm, ls])
        want = table.decide(holder["tool"], holder["args"])
        assert got[1] == want and not want.held  # the holder as it is
        assert got[2] == table.decide("bash", rm["args"])  # a block is not held
        for v in (got[0], got[3]):
            assert (v.action, v.held) == ("defer", True)
            assert v.reason == "held for approval: " + table.decide("bash", ls["args"]).reason
        assert got[0] is got[3]  # one held twin per verdict
