"""The compiled runtime against the reference interpreter, on random policies.

Both are built from the same random JSON bundle; then the same random
sequence of decisions, batches, grant sets, revocations and offers runs
through both, and every verdict must be equal in every field.
"""

from __future__ import annotations

import json
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policyc.compiler import compile_bundle
from policyc.errors import PolicyErrors
from policyc.grammar import parse_bundle
from policyc.grammar.printer import format_policy
from policyc.reference import ReferenceBuildError, ReferenceEngine
from policyc.runtime import Source, fast, load

from .strategies import (
    PREFIX_SPECS,
    TAIL_SPECS,
    as_host_types,
    bundles,
    calls,
    grant_sets,
    operations,
    prefix_values,
    values,
    walk_bundles,
)

# Every test here runs with the compiled walks and with the pure ones (conftest).
pytestmark = pytest.mark.usefixtures("walks")

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def build_both(data: dict):
    bundle = parse_bundle(json.dumps(data), "b.json")
    try:
        compiled = load(compile_bundle(bundle, "test"))
        compiled_error = None
    except PolicyErrors as exc:
        compiled, compiled_error = None, exc.kind
    try:
        reference = ReferenceEngine(bundle)
        reference_error = None
    except ReferenceBuildError as exc:
        reference, reference_error = None, exc.kind
    assert compiled_error == reference_error
    return bundle, compiled, reference


def _grants(result):
    granted, refused = result
    return [str(r) for r in granted], [(str(r.rule), r.reason) for r in refused]


def run_both(compiled, reference, ops):
    for op in ops:
        kind = op[0]
        if kind == "decide":
            _, call, scope = op
            kwargs = dict(confined=call.get("confined"), subjects=call.get("subjects"), scope=scope)
            got = compiled.decide(call["tool"], call["args"], **kwargs)
            want = reference.decide(call["tool"], call["args"], **kwargs)
            assert got == want, (call, scope)
        elif kind == "batch":
            _, batch, scope = op
            assert compiled.decide_batch(batch, scope=scope) == reference.decide_batch(
                batch, scope=scope
            ), batch
        elif kind == "grant":
            g = op[1]
            source = Source(g["source"]["name"], g["source"]["rank"], g["source"]["trusted"])
            args = dict(allow=g["allow"], deny=g["deny"], ask=g["ask"], scope=g["scope"])
            assert _grants(compiled.activate(source, **args)) == _grants(
                reference.activate(source, **args)
            ), g
        elif kind == "revoke":
            _, name, scope = op
            assert compiled.revoke(name, scope) == reference.revoke(name, scope)
        elif kind == "offer":
            _, tools, scope = op
            assert compiled.offer(tools, scope=scope) == reference.offer(tools, scope=scope)


def _assert_walks_agree(data: dict, commands: list[str]) -> None:
    _, compiled, reference = build_both(data)
    if compiled is None:
        return
    # Each value, then one going a token past it, then the value again: the
    # walk keeps verdicts of values inner globs match by trie node, whether
    # the value ends there, and which globs match, and such pairs share two.
    for command in (v for c in commands for v in (c, c + " z", c)):
        args = {"command": command}
        assert compiled.decide("bash", args) == reference.decide("bash", args), command
        hosts = as_host_types(args)  # a host's OrderedDict of a str subclass: decided alike
        assert compiled.decide("bash", hosts) == reference.decide("bash", args), command


@settings(max_examples=500, deadline=None)
@given(
    data=walk_bundles(),
    commands=st.lists(values, min_size=1, max_size=8),
    probe=st.sampled_from([fast._PROBE_LENGTHS, 0]),
)
def test_the_precomputed_walk_agrees_with_the_reference(data, commands, probe):
    """Dense in the walk's cases: word prefixes, exacts, carve-outs, inner globs by
    head and tail; prefix keys probed by length or walked in the character trie."""
    with patch.object(fast, "_PROBE_LENGTHS", probe):
        _assert_walks_agree(data, commands)


@settings(max_examples=300, deadline=None)
@given(
    data=walk_bundles(PREFIX_SPECS, matcher="prefix"),
    commands=st.lists(prefix_values, min_size=1, max_size=8),
    probe=st.sampled_from([fast._PROBE_LENGTHS, 0]),
)
def test_prefix_walks_agree_with_the_reference(data, commands, probe):
    """Prefix keys of several lengths: probed (with the shortest-length filter) or walked."""
    with patch.object(fast, "_PROBE_LENGTHS", probe):
        _assert_walks_agree(data, commands)


@settings(max_examples=300, deadline=None)
@given(
    data=walk_bundles(TAIL_SPECS),
    commands=st.lists(values, min_size=1, max_size=8),
    cap=st.sampled_from([fast._MERGE_CAP, 0]),
)
def test_the_walk_agrees_on_globs_by_tail_at_every_depth(data, commands, cap):
    """Each node's tails map holds its ancestors' too; past the merge cap a node
    takes the tool's whole map (a superset). Either way the verdicts are exact."""
    with patch.object(fast, "_MERGE_CAP", cap):
        _assert_walks_agree(data, commands)


@SETTINGS
@given(data=bundles(), ops=operations)
def test_compiled_runtime_agrees_with_the_reference(data, ops):
    _, compiled, reference = build_both(data)
    if compiled is not None:
        run_both(compiled, reference, ops)


@settings(max_examples=150, deadline=None)
@given(data=bundles(), probe=st.lists(calls(), min_size=1, max_size=5))
def test_the_policy_format_round_trips(data, probe):
    """JSON bundle -> printed .policy -> parsed: the same AST and the same table."""
    bundle = parse_bundle(json.dumps(data), "b.json")
    printed = format_policy(bundle)
    again = parse_bundle(printed, "b.policy")
    assert again == bundle
    try:
        a = compile_bundle(bundle, "x")
    except PolicyErrors as exc:
        try:
            compile_bundle(again, "x")
        except PolicyErrors as exc2:
            assert [e.kind for e in exc2.errors] == [e.kind for e in exc.errors]
            return
        raise AssertionError("the printed form compiled where the JSON form did not") from None
    b = compile_bundle(again, "x")
    assert a == b
    table = load(a)
    for call in probe:
        assert table.decide(call["tool"], call["args"]).action in ("allow", "block", "defer")


@settings(max_examples=300, deadline=None)
@given(
    data=bundles(),
    tool=st.one_of(st.text(max_size=5), st.integers(), st.none()),
    args=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=7), inner, max_size=3)
        ),
        max_leaves=8,
    ),
    confined=st.one_of(st.none(), st.text(max_size=3), st.integers()),
    subjects=st.one_of(
        st.none(),
        st.text(max_size=3),
        st.lists(st.dictionaries(st.text(max_size=8), st.text(max_size=3)), max_size=3),
    ),
)
def test_decide_never_raises_and_never_allows_what_it_cannot_read(
    data, tool, args, confined, subjects
):
    _, compiled, _ = build_both(data)
    if compiled is None:
        return
    verdict = compiled.decide(tool, args, confined=confined, subjects=subjects)
    assert verdict.action in ("allow", "block", "defer")
    if not isinstance(tool, str):
        assert verdict.action == "block" and verdict.failed
    if isinstance(subjects, str):
        assert verdict.action == "block" and verdict.failed
    json.loads(verdict.record())


@SETTINGS
@given(
    data=bundles(),
    sets=st.lists(grant_sets(), min_size=1, max_size=2),
    probe=st.lists(calls(), min_size=1, max_size=6),
)
def test_grant_sets_agree_with_the_reference(data, sets, probe):
    """Grant sets first, then decisions: shadowing, refusals and set denies."""
    _, compiled, reference = build_both(data)
    if compiled is None:
        return
    ops = [("grant", dict(g, scope=None)) for g in sets]
    ops += [("decide", call, None) for call in probe]
    ops.append(("batch", probe, None))
    run_both(compiled, reference, ops)


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(walk_bundles(), walk_bundles(TAIL_SPECS)),
    commands=st.lists(values, min_size=1, max_size=6),
    shapes=st.lists(
        st.sampled_from(["plain", "plain", "plain", "pair", "cwd", "confined", "refused"]),
        min_size=6,
        max_size=6,
    ),
)
def test_batches_of_walked_calls_agree_with_the_reference(data, commands, shapes):
    """A batch takes each tool's walk straight: plain calls, calls a walk cannot
    decide, a walk's refusal (a tool whose splitter needs subjects), and other
    shapes mixed, each held as the reference holds it."""
    data["matchers"]["edit"] = {"split": True}  # called without subjects: refused, failed
    _, compiled, reference = build_both(data)
    if compiled is None:
        return
    batch, as_dicts = [], []
    for command, shape in zip(commands, shapes, strict=False):
        call = {"tool": "bash", "args": {"command": command}}
        if shape == "cwd":
            call["cwd"] = "/w"
        elif shape == "confined":
            call["confined"] = "box"
        elif shape == "refused":
            call["tool"] = "edit"
        as_dicts.append(call)
        batch.append(("bash", call["args"]) if shape == "pair" else call)
    want = reference.decide_batch(as_dicts)
    assert compiled.decide_batch(batch) == want  # the first builds the walks
    assert compiled.decide_batch(batch) == want  # the second takes them straight
    # The plain calls alone: a batch every call of which a walk decides (the
    # compiled front's whole path, holds included), once the walks are built.
    plain = [call for call in as_dicts if set(call) == {"tool", "args"}]
    assert compiled.decide_batch(plain) == reference.decide_batch(plain)


def _bash_globs(rules: dict[str, list[str]], default: str) -> dict:
    """A bundle of one trusted source: `rules` by list, `bash` on the glob matcher."""
    return {
        "matchers": {"bash": {"match": "glob", "field": "command"}},
        "sources": [
            {"name": "s", "rank": 0, "trusted": True} | {a: " ".join(r) for a, r in rules.items()}
        ],
        "default": default,
    }


def test_a_wide_token_trie_walks_as_the_reference_does():
    """A thousand tokens under one node, of one to twelve characters, some
    Latin-1 and some not: in the compiled walk's table many share a run of
    slots, short Latin-1 tokens are compared in the slot and the others in
    the table's copy, and most nodes are leaves. Every token, and values that
    miss it by a character (one more, one less, one changed), a value of a
    wider kind around a Latin-1 token, and the tails filter's last tokens."""
    import random

    rng = random.Random(5)
    alphabet = "ab-.é0Ω𝄞"
    tokens = sorted({"".join(rng.choices(alphabet, k=rng.randint(1, 12))) for _ in range(1200)})
    rules = {"deny": [], "ask": [], "allow": []}
    for i, token in enumerate(tokens):
        kind = i % 7
        if kind == 0:
            rules["deny"].append(f"bash(git {token}:*)")
        elif kind == 1:
            rules["ask"].append(f"bash(git {token} go)")
        elif kind == 2:
            rules["allow"].append(f"bash(git * {token})")  # a tail: the filter's
        elif kind == 3:
            rules["allow"].append(f"bash(!git {token} -n)")
        else:
            rules["allow"].append(f"bash(git {token})")
    _, compiled, reference = build_both(_bash_globs(rules, "ask"))
    for token in tokens[::4]:
        changed = token[:-1] + ("b" if token[-1] != "b" else "a")
        for command in (
            f"git {token}",
            f"git {token} go",
            f"git {token} -n",
            f"git {token}b",
            f"git {token[:-1]}",
            f"git {changed}",
            f"git {token} 𝄞",
            f"git x {token}",
            f"git x y{token}",
            f"{token}",
        ):
            args = {"command": command}
            assert compiled.decide("bash", args) == reference.decide("bash", args), command


def test_tokens_of_every_length_walk_as_the_reference_does():
    """The compiled walk packs a token's characters eight to a word, mixing
    each full word into its hash. Tokens of 1 to 24 characters (ASCII, and
    with a Latin-1 `é`), each followed by nothing or by text of 1 to 9
    characters, so the space and the value's end fall at every place in a
    word; and values that miss each token by one character, at every
    position."""
    letters = "abcdefghijklmnopqrstuvwx"
    tokens = [letters[:n] for n in range(1, 25)] + ["é" + letters[: n - 1] for n in range(1, 25)]
    rules = {"deny": [], "ask": [], "allow": []}
    for i, token in enumerate(tokens):
        if i % 3 == 0:
            rules["deny"].append(f"bash(git {token}:*)")
        elif i % 3 == 1:
            rules["ask"].append(f"bash(git {token})")
        else:
            rules["allow"].append(f"bash(git {token} -n:*) bash(git * {token})")
    _, compiled, reference = build_both(_bash_globs(rules, "allow"))
    commands = []
    for token in tokens:
        commands += [f"git {token}", f"{token}", f"git x {token}"]
        commands += [f"git {token} {'-n' + 'y' * k}"[: len(token) + 5 + k] for k in range(10)]
        commands += [f"git {token}{' z' * k}" for k in range(1, 6)]
        for at in range(len(token)):
            commands.append(f"git {token[:at]}Z{token[at + 1 :]} -n")
    for command in commands:
        args = {"command": command}
        assert compiled.decide("bash", args) == reference.decide("bash", args), command


def test_prefix_keys_of_every_length_are_found_as_the_reference_finds_them():
    """A prefix matcher with up to four key lengths looks each length up in a
    table: the compiled walk hashes the value's first characters as it goes,
    packed eight to a word and a word mixed in per eight, and looks the hash
    up at each length some key has. Keys of lengths around every word
    boundary up to 25 (ASCII and Latin-1), and values that are each key,
    a key and more, a key less one character, a key changed at each
    place, and the same values with a wide character after them."""
    letters = "abcdefghijklmnopqrstuvwxy"
    groups = [(1, 7, 8, 9), (15, 16, 17, 24), (5, 8, 16, 25), (2, 3, 12, 20), (4, 9, 10, 11)]
    for group in groups:
        keys = [letters[:n] for n in group] + ["é" + letters[: n - 1] for n in group[:2]]
        rules = {
            "deny": [f"read({keys[0]}:*)", f"read({keys[2]}:*)", f"read({keys[-1]}:*)"],
            "ask": [f"read({keys[1]}:*)", f"read({keys[4]}:*)"],
            "allow": [f"read({keys[3]}:*)", f"read({keys[0]}xyz)"],
        }
        bundle = {
            "matchers": {"read": {"match": "prefix", "field": "path"}},
            "sources": [
                {"name": "s", "rank": 0, "trusted": True}
                | {a: " ".join(r) for a, r in rules.items()}
            ],
            "default": "allow",
        }
        _, compiled, reference = build_both(bundle)
        values = [""]
        for key in keys:
            values += [key, key + "z", key[:-1], key + "/more/of/the/path", key + "xyz"]
            values += [key[:at] + "Z" + key[at + 1 :] for at in range(len(key))]
        values += [value + "Ω" for value in values]
        for value in values:
            args = {"path": value}
            assert compiled.decide("read", args) == reference.decide("read", args), value


def test_a_last_token_the_tails_filter_cannot_tell_apart_is_looked_up():
    """The compiled walk's tails filter keys a value's last token by its
    characters folded into one word, a byte a turn, so characters eight
    apart share a byte: swapped, they give the same key (`abcdefghbXY` and
    `bbcdefghaXY`, and wide ones alike). A value whose last token passes
    the filter with a tail's is looked up and not matched; the tail's own
    last token is. A Latin-1 value's last eight characters are read in one
    load, a wider value's a character at a time: the same last token keys
    alike in both (`git 𝄞 ...`)."""
    lasts = ["abcdefghbXY", "𝄞bcdefghéXY", "abcdefgh", "ab"]
    rules = {"deny": [f"bash(git * {last})" for last in lasts], "allow": ["bash(git:*)"]}
    _, compiled, reference = build_both(_bash_globs(rules, "ask"))
    commands = []
    for last in lasts:
        swapped = last[8:9] + last[1:8] + last[:1] + last[9:]
        for other in (last, swapped, last[:-1], last + "Z", last[:-1] + "𝄞"):
            commands += [f"git q {other}", f"git {other}", f"git q r {other}", f"git q {other} "]
            commands += [f"git 𝄞 {other}"]
    for command in commands:
        args = {"command": command}
        assert compiled.decide("bash", args) == reference.decide("bash", args), command
    # (a filter that let a wrong token through unchecked would block the
    # second; one that turned a tail's own token away would allow the first)
    assert reference.decide("bash", {"command": "git q abcdefghbXY"}).action == "block"
    assert reference.decide("bash", {"command": "git q bbcdefghaXY"}).action == "allow"
    assert reference.decide("bash", {"command": "git q ébcdefgh𝄞XY"}).action == "allow"


def test_a_last_token_after_a_space_and_a_bang_is_found_whole():
    """The compiled walk finds a Latin-1 value's last token in its last eight
    characters at once, by a test for a space in each byte of the word. The
    shorter test, `(x - 0x01..) & ~x` after the xor with spaces, would also
    mark the byte above a space where it holds `!` (a space plus one), and
    the last mark is taken for the last space: with it, `git q !abc` would
    key its last token as `abc`, and the tail that ends in `!abc` would go
    unmatched (that mutation fails this test)."""
    rules = {
        "deny": ["bash(git * !abc)", "bash(git * x!y)", "bash(git * !)"],
        "allow": ["bash(git:*)"],
    }
    _, compiled, reference = build_both(_bash_globs(rules, "ask"))
    commands = []
    for last in ("!abc", "x!y", "!", "!!abc", "abc", "!ab", "!abcdefgh", "a!abc"):
        commands += [f"git q {last}", f"git {last}", f"git q  {last}", f"git qqqqqqqq {last}"]
    for command in commands:
        args = {"command": command}
        assert compiled.decide("bash", args) == reference.decide("bash", args), command
    assert reference.decide("bash", {"command": "git q !abc"}).action == "block"
    assert reference.decide("bash", {"command": "git q abc"}).action == "allow"


def test_a_wide_token_is_not_taken_for_the_latin_one_its_bytes_spell():
    """The compiled walk packs a token a byte a character: "šb" (U+0161, b)
    spills into the same word as "ac", and at the same length. A wide token
    is compared character by character, never by the packed word."""
    for rule, command in (("git ac", "git šb"), ("git šb", "git ac"), ("ac", "šb")):
        data = {
            "matchers": {"bash": {"match": "glob", "field": "command"}},
            "sources": [{"name": "s", "rank": 0, "trusted": True, "deny": f"bash({rule})"}],
            "default": "allow",
        }
        _, compiled, reference = build_both(data)
        for value in (command, rule, f"{command} x", f"{rule} x"):
            args = {"command": value}
            want = reference.decide("bash", args)
            assert compiled.decide("bash", args) == want, value
            assert want.action == ("block" if value == rule else "allow"), value


def test_a_wide_prefix_is_not_taken_for_the_latin_one_its_bytes_spell():
    """The same for prefix keys, which the compiled walk hashes a character
    at a time along the value and looks up at each key length."""
    for key, value in (("ac", "šb"), ("šb", "ac"), ("x ac", "x šb"), ("abababac", "abababšb")):
        data = {
            "matchers": {"bash": {"match": "prefix", "field": "command"}},
            "sources": [{"name": "s", "rank": 0, "trusted": True, "deny": f"bash({key}:*)"}],
            "default": "allow",
        }
        _, compiled, reference = build_both(data)
        for command in (value, key, f"{value}x", f"{key}x", value[:-1]):
            args = {"command": command}
            want = reference.decide("bash", args)
            assert compiled.decide("bash", args) == want, command
            assert want.action == ("block" if command.startswith(key) else "allow"), command


def test_an_inner_glob_carve_out_cancels_the_rule_it_reaches_on_a_settled_value():
    """Values that inner globs match are settled from the node's bag plus the
    globs'; a carve-out that is itself an inner glob must count there (the
    random tests once found `bash(* b) bash(!* b)` allowing `a b`)."""
    data = {
        "matchers": {"bash": {"match": "glob", "field": "command"}},
        "sources": [
            {"name": "s", "rank": 0, "trusted": True, "allow": "bash(* b) bash(!* b) bash(a *)"}
        ],
        "default": "ask",
    }
    _, compiled, reference = build_both(data)
    for value in ("a b", "x b", "a c", "a b c", "a"):
        args = {"command": value}
        for _ in range(2):  # settled the first time, looked up the second
            assert compiled.decide("bash", args) == reference.decide("bash", args), value
    assert reference.decide("bash", {"command": "x b"}).action == "defer"
    assert reference.decide("bash", {"command": "a c"}).action == "allow"


def test_values_that_many_inner_globs_match_are_settled_as_the_reference_does():
    """The compiled walk keeps the verdicts of values that inner globs match
    by the specs of up to six matching globs, on the stack; a value that
    more match is settled by fast.py alone. Values matched by one to nine
    globs, of every action, each decided three times (settled, then kept),
    and with one token more or less (another node, another count)."""
    actions = ("deny", "ask", "allow")
    rules = {action: [] for action in actions}
    for i in range(9):
        rules[actions[i % 3]].append(f"bash(git * {'x ' * i}end)")
        rules[actions[(i + 1) % 3]].append(f"bash(git {'y ' * i}* z)")
    rules["allow"].append("bash(!git * x end)")
    _, compiled, reference = build_both(_bash_globs(rules, "ask"))
    commands = []
    for i in range(1, 12):
        commands += [
            "git " + "x " * i + "end",
            "git q " + "x " * i + "end",
            "git " + "y " * i + "q z",
            "git " + "y " * i + "x end",
        ]
    for _ in range(3):
        for command in commands:
            args = {"command": command}
            assert compiled.decide("bash", args) == reference.decide("bash", args), command


def test_more_settled_values_than_the_walk_keeps_are_settled_again_alike():
    """The compiled walk keeps 4,096 settled verdicts, then empties its
    table. Values of 5,000 kinds (each matched by the inner glob of its own
    node), decided twice in turn: every answer the reference's."""
    rules = {"deny": [], "ask": [], "allow": []}
    for i in range(5000):
        rules[("deny", "ask", "allow")[i % 3]].append(f"bash(run t{i} * end)")
    _, compiled, reference = build_both(_bash_globs(rules, "allow"))
    commands = [f"run t{i} a{i % 7} end" for i in range(5000)]
    wants = [reference.decide("bash", {"command": c}) for c in commands[::97]]
    for _ in range(2):
        got = [compiled.decide("bash", {"command": c}) for c in commands]
        assert got[::97] == wants
        assert [v.action for v in got] == [("block", "defer", "allow")[i % 3] for i in range(5000)]


def test_a_value_ending_on_a_node_and_one_going_past_it_are_kept_apart():
    """The same node, the same inner glob: `git x` ends on the node, where
    the exact `git x` denies, and `git x q` goes past it, where only the
    glob allows. The compiled walk keeps their verdicts by the token count
    too; decided in either order, each keeps its own."""
    rules = {"deny": ["bash(git x)"], "allow": ["bash(*x*)", "bash(git x y)"]}
    for order in (("git x q", "git x"), ("git x", "git x q")):
        _, compiled, reference = build_both(_bash_globs(rules, "ask"))
        for _ in range(2):
            for command in order:
                args = {"command": command}
                assert compiled.decide("bash", args) == reference.decide("bash", args), command
    assert reference.decide("bash", {"command": "git x"}).action == "block"
    assert reference.decide("bash", {"command": "git x q"}).action == "allow"


def test_inner_globs_of_every_kind_of_character_match_as_the_reference_does():
    """The compiled walk reads a node's inner globs from C blocks, a byte a
    character where all of a run's are Latin-1 and four bytes where not,
    and compares them with values of any kind of str. Heads and tails
    Latin-1 and wide, on the root, on a node and under a last token (one
    ending in a space: an empty last token); globs matched in full (two
    stars); values that start and end as a glob but are too short for it
    (head and tail overlapping); and values a kind wider than the glob or
    narrower."""
    rules = {
        "deny": [
            "bash(git é * x)",
            "bash(git * 𝄞)",
            "bash(š*)",
            "bash(run * a b)",
            "bash(git ab*)",
        ],
        "ask": ["bash(Ωmega * z)", "bash(git *é*)", "bash(git * x )"],
        "allow": ["bash(git:*)", "bash(run:*)", "bash(git * ab)", "bash(!git é * ab)"],
    }
    _, compiled, reference = build_both(_bash_globs(rules, "allow"))
    heads = ["git é", "git", "Ωmega", "run", "š", "ac", "git š", "git 𝄞", "git ab", "git 𝄞b"]
    middles = ["", " q", " é", " 𝄞", " q q", "é", " 𝄞 q"]
    ends = ["", " x", " 𝄞", " ab", " z", " a b", " x ", " b", "x", " é"]
    for head in heads:
        for middle in middles:
            for end in ends:
                args = {"command": head + middle + end}
                for _ in range(2):  # settled, then kept
                    want = reference.decide("bash", args)
                    assert compiled.decide("bash", args) == want, args["command"]
    # (the cases the blocks must tell apart, as the reference answers them)
    assert reference.decide("bash", {"command": "git é q x"}).action == "block"
    # (too short for the deny's `git é * x`: only `git *é*` matches)
    assert reference.decide("bash", {"command": "git é x"}).action == "defer"
    assert reference.decide("bash", {"command": "git q 𝄞"}).action == "block"
    assert reference.decide("bash", {"command": "Ωmega q z"}).action == "defer"
    assert reference.decide("bash", {"command": "git q x "}).action == "defer"
    assert reference.decide("bash", {"command": "šq"}).action == "block"
    # (a wide value against a Latin-1 run: by characters, not by bytes)
    assert reference.decide("bash", {"command": "git 𝄞b"}).action == "allow"
    assert reference.decide("bash", {"command": "run 𝄞 q b"}).action == "allow"


SPLIT_BUNDLE = {
    "matchers": {
        "bash": {"match": "glob", "field": "command", "split": "shell"},
        "read": {"match": "path", "field": "file_path"},
        "edit": {"match": "path", "field": "file_path"},
        "fetch": {"match": "domain", "field": "url"},
        "grep": {"match": "path", "field": "path", "split": "tree"},
    },
    "sources": [
        {
            "name": "org",
            "rank": 2,
            "trusted": True,
            "deny": "read(/etc/**) read(./secret/**) read(!./secret/pub/**) bash(rm:*) "
            "fetch(evil.example) grep(./secret/)",
        },
        {
            "name": "team",
            "rank": 1,
            "trusted": True,
            "ask": "bash(git push:*) edit(./src/gen/**) grep(./src/gen/**)",
        },
    ],
    "allow": "read(./src/**) read(!./src/private) edit(./src/**) bash(git status) bash(ls:*) "
    "bash(cat:*) fetch grep(./**)",
    "default": "ask",
}
SPLIT_VALUES = {
    "read": [
        "src/a.py",
        "../etc/passwd",
        "secret/PUB/k",
        "/ETC/x",
        "secret/pub/k",
        "src/Private/k",
        "SRC/a",
    ],
    "edit": ["src/a.py", "src/gen/b.py", "docs/c.md", "../x", "src/GEN/b.py"],
    "bash": ["git status", "ls -la > src/out.txt", "cat src/a.py", "git push", "echo $(x)", "rm x"],
    "fetch": [
        "https://example.com/x",
        "https://EVIL.example/",
        "https://www.evil.example/",
        "https://api.example.com/",
        "javascript:alert(1)",
    ],
    "grep": ["secret", "src", "src/gen", "secret/../src", "/etc", "~", "src/gen/x"],
}
SPLIT_FIELDS = {
    "bash": "command",
    "read": "file_path",
    "edit": "file_path",
    "fetch": "url",
    "grep": "path",
}


@settings(max_examples=200, deadline=None)
@given(
    calls=st.lists(
        st.tuples(
            st.sampled_from(sorted(SPLIT_VALUES)),
            st.integers(0, 6),
            st.sampled_from([None, "/repo", "/repo/src"]),
            st.integers(0, 2),  # another argument, which no splitter reads
            st.sampled_from([None, "s1"]),
        ),
        min_size=1,
        max_size=30,
    ),
    grant_at=st.integers(0, 30),
    revoke_at=st.integers(0, 30),
)
def test_split_calls_made_again_agree_with_the_reference(calls, grant_at, revoke_at):
    """The verdict of a call a built-in splitter splits is kept by its tool,
    the value the splitter reads and the working directory: calls made
    again, with other arguments, other working directories, in a scope where
    a grant set comes into force and is taken back, each as the reference
    decides it."""
    _, compiled, reference = build_both(SPLIT_BUNDLE)
    for step, (tool, pick, cwd, other, scope) in enumerate(calls * 2):
        if step == grant_at:
            for engine in (compiled, reference):
                engine.activate(
                    Source("skill:d", 1, True),
                    allow="edit(./docs/**)",
                    deny="fetch(example.com)",  # (and its subdomains: read broadly)
                    scope="s1",
                )
        if step == revoke_at:
            for engine in (compiled, reference):
                engine.revoke("skill:d", scope="s1")
        values = SPLIT_VALUES[tool]
        args = {SPLIT_FIELDS[tool]: values[pick % len(values)], "other": other}
        got = compiled.decide(tool, args, scope=scope, cwd=cwd)
        assert got == reference.decide(tool, args, scope=scope, cwd=cwd), (tool, args, cwd)


@SETTINGS
@given(
    kind=st.sampled_from(["prefix", "glob"]),
    specs_=st.lists(
        st.one_of(
            st.text(alphabet="ab :*", min_size=1, max_size=6),
            st.sampled_from(["!a", "!a b:*", "a b:*", "a * b", ":*", "a", "* b", "ab*:*"]),
        ),
        max_size=12,
    ),
    known=st.text(alphabet="ab :", max_size=6),
)
def test_the_index_finds_the_first_rule_an_open_value_may_match(kind, specs_, known):
    # The runtime's index of literal starts against the reference's test of
    # each rule in turn (a pattern that can still match what begins so).
    from policyc.reference import may_match
    from policyc.runtime.index import ListIndex
    from policyc.runtime.model import Rule

    index = ListIndex()
    index.rules = [Rule("bash", spec) for spec in specs_] + [Rule("zz", "a"), Rule("bash")]
    want = next(
        (
            rid
            for rid, rule in enumerate(index.rules)
            if rule.tool == "bash"
            and rule.spec is not None
            and not rule.spec.startswith("!")
            and may_match(kind, rule.spec, known)
        ),
        -1,
    )
    assert index.open_first("bash", kind, known) == want


def test_command_rules_build_and_grant_alike_in_both_backends():
    """A command rule of a shell-split tool is written as the splitter writes
    a part (`Bash(rm -rf "/")` is `rm -rf /`), and refused when it holds an
    operator or an open quote: at build, and in a grant, by both backends
    alike, with the same reasons."""
    data = {
        "matchers": {"bash": {"match": "glob", "field": "command", "split": "shell"}},
        "default": "allow",
        "deny": 'bash(rm -rf "/") bash( chmod:*)',
    }
    _, compiled, reference = build_both(data)
    for command in ["rm -rf /", "chmod 777 x", "rm -fr /"]:
        got = compiled.decide("bash", {"command": command}, cwd="/r")
        assert got == reference.decide("bash", {"command": command}, cwd="/r"), command
        assert got.action == "block", command
    source = Source("skill:a", 1, True)
    rules = dict(deny="bash(a | b) bash(x:*) bash(git  push)", ask='bash(echo "x)', allow="")
    got = _grants(compiled.activate(source, **rules))
    assert got == _grants(reference.activate(source, **rules))
    assert [rule for rule, _ in got[1]] == ["bash(a | b)", 'bash(echo "x)']
    assert all("never matches" in reason for _, reason in got[1])
    for deny in ["bash(curl * | sh)", 'bash(echo "x)']:
        text = json.dumps({**data, "deny": deny})
        with pytest.raises(PolicyErrors):
            load(compile_bundle(parse_bundle(text, "b.json"), "test"))
        with pytest.raises(ReferenceBuildError):
            ReferenceEngine(parse_bundle(text, "b.json"))
