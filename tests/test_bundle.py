"""The bundle front-ends: every error kind with its span, and the happy paths."""

from __future__ import annotations

import json

import pytest

import policyc
from policyc.compiler.examples import ExamplesFailed
from policyc.errors import PolicyErrors
from policyc.grammar import parse_bundle
from policyc.grammar.printer import format_policy

# (name, text, kind, line, col) -- the first error's kind and where it points.
POLICY_ERRORS = [
    ("unknown statement", "default ask\nfrobnicate now\n", "syntax_error", 2, 1),
    (
        "fetch on another splitter",
        "default ask\ntool read path(path) split path fetch=web\n",
        "bad_split_param",
        2,
        33,
    ),
    (
        "unclosed block",
        "default ask\nsource s rank 1 trusted {\n  deny bash\n",
        "unexpected_end",
        3,
        12,
    ),
    ("unbalanced", "default ask\ndeny Bash(git\n", "unbalanced_parentheses", 2, 6),
    ("stray close", "default ask\ndeny Bash git)\n", "unbalanced_parentheses", 2, 11),
    ("no tool name", "default ask\nallow read (x)\n", "missing_tool_name", 2, 12),
    ("text after", "default ask\nallow Bash(a)x\n", "text_after_specifier", 2, 7),
    ("empty spec", "default ask\nask   Bash()\n", "empty_specifier", 2, 7),
    ("empty carve-out", "default ask\ndeny Read(!)\n", "empty_carve_out", 2, 6),
    ("bad default", "default maybe\n", "bad_default", 1, 9),
    ("default twice", "default ask\ndefault deny\n", "duplicate_default", 2, 1),
    (
        "tool twice",
        "default ask\ntool bash glob(command)\ntool bash prefix(command)\n",
        "duplicate_tool",
        3,
        1,
    ),
    ("alias twice", "default ask\nalias A = a\nalias A = b\n", "duplicate_alias", 3, 1),
    (
        "unknown splitter",
        "default ask\ntool bash glob(command) split bashlex\n",
        "unknown_splitter",
        2,
        31,
    ),
    ("trust unsaid", "default ask\nsource s rank 1 {\n}\n", "missing_trust", 2, 1),
    (
        "trust twice",
        "default ask\nsource s rank 1 trusted untrusted {\n}\n",
        "conflicting_trust",
        2,
        25,
    ),
    (
        "source twice",
        "default ask\nsource s rank 1 trusted {\n}\nsource s rank 2 trusted {\n}\n",
        "duplicate_source",
        4,
        1,
    ),
    ("bad string", 'default ask\nallow read\nbecause "\\q"\n', "bad_string", 3, 9),
    ("empty note", 'default ask\nallow read\nbecause ""\n', "empty_note", 3, 1),
    (
        "bad json",
        'default ask\nexample "x" {\n  call bash {"command": }\n  want allow\n}\n',
        "bad_json",
        3,
        13,
    ),
    (
        "bad action",
        'default ask\nexample "x" {\n  call bash {}\n  want deny\n}\n',
        "bad_action",
        4,
        8,
    ),
    ("no call", 'default ask\nexample "x" {\n  want allow\n}\n', "incomplete_example", 2, 1),
    (
        "two calls",
        'default ask\nexample "x" {\n  call a {}\n  call b {}\n  want allow\n}\n',
        "duplicate_call",
        4,
        3,
    ),
    ("no default", "allow read\n", "no_default", 1, 1),
    ("no matcher", "default ask\nallow Bash(git:*)\n", "no_matcher", 2, 7),
    ("glob allowed", "default ask\nallow mcp__*\n", "tool_glob", 2, 7),
    ("glob with spec", "default ask\ndeny mcp__*(x)\n", "tool_glob", 2, 6),
    ("alias glob", "default ask\nalias Files = read *\n", "invalid_rule", 2, 1),
]

JSON_ERRORS = [
    ("syntax", '{"default": "ask",\n "allow": "read"\n "deny": ""}', "bad_json", 3, 2),
    (
        "fetch without the shell splitter",
        '{"default": "ask",\n "matchers": {"bash": {"match": "glob", "field": "c", "fetch": "web"}}}',
        "bad_split_param",
        2,
        23,
    ),
    ("unknown member", '{"default": "ask",\n "alow": "read"}', "unknown_member", 2, 10),
    (
        "bad type",
        '{"default": "ask",\n "sources": [{"name": "s", "rank": "high", "trusted": true}]}',
        "bad_type",
        2,
        36,
    ),
    (
        "orphan note",
        '{"default": "ask",\n "sources": [{"name": "s", "rank": 1, "trusted": true, "deny": "bash",\n   "notes": {"Bash": "x"}}]}',
        "orphan_note",
        3,
        22,
    ),
    ("rule grammar", '{"default": "ask",\n "deny": "read Bash()"}', "empty_specifier", 2, 16),
    (
        "no matcher",
        '{"default": "ask", "matchers": {"bash": {"match": "glob", "field": "command"}},\n "deny": "Bash(rm:*)"}',
        "no_matcher",
        2,
        11,
    ),
    (
        "bad matcher",
        '{"default": "ask", "matchers": {"bash": {"match": "regex", "field": "command"}}}',
        "bad_matcher",
        1,
        51,
    ),
    (
        "unnamed source",
        '{"default": "ask",\n "sources": [{"rank": 1, "trusted": true}]}',
        "unnamed_source",
        2,
        14,
    ),
    ("bad default", '{"default": "maybe"}', "bad_default", 1, 13),
    ("alias naming nothing", '{"default": "ask", "aliases": {"Bash": []}}', "invalid_rule", 1, 40),
]


@pytest.mark.parametrize(
    "name,text,kind,line,col", POLICY_ERRORS, ids=[c[0] for c in POLICY_ERRORS]
)
def test_policy_errors(name, text, kind, line, col):
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(text, "t.policy")
    first = info.value.errors[0]
    assert (first.kind, first.span.line, first.span.col) == (kind, line, col)
    assert first.span.file == "t.policy"
    rendered = info.value.render()
    assert rendered.startswith(f"t.policy:{line}:{col}: {kind}: ")
    assert "^" in rendered


def test_an_error_on_a_long_line_shows_the_part_around_it():
    # A minified bundle is one line: the excerpt is cut around the column,
    # and the caret still points at the offending text.
    text = (
        '{"default": "ask", "allow": "'
        + "Read " * 400
        + '", "deny": "Bash()", "ask": "'
        + "Read " * 40
        + '"}'
    )
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(text, "t.json")
    first = info.value.errors[0]
    _, excerpt, caret, *_ = first.render().split("\n")
    assert len(excerpt) <= 2 + 2 + 100 and excerpt.startswith("  …") and excerpt.endswith("…")
    at = caret.index("^")
    assert caret.strip("^ ") == "" and excerpt[at:].startswith(text[first.span.col - 1 :][:5])
    for wanted in (1, len(text)):  # either end of the line: one marker, caret in place
        error = type(first)("k", "m", type(first.span)("f", 1, wanted, 1, text))
        _, excerpt, caret = error.render().split("\n")
        assert excerpt[caret.index("^")] == text[wanted - 1]


@pytest.mark.parametrize("name,text,kind,line,col", JSON_ERRORS, ids=[c[0] for c in JSON_ERRORS])
def test_json_errors(name, text, kind, line, col):
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(text, "t.json")
    first = info.value.errors[0]
    assert (first.kind, first.span.line, first.span.col) == (kind, line, col)


def test_every_error_of_a_file_is_reported():
    text = "default ask\ndeny Bash()\nallow Read(!)\ntool x glob(f) split nope\n"
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(text, "t.policy")
    assert [e.kind for e in info.value.errors] == [
        "unknown_splitter",
        "empty_specifier",
        "empty_carve_out",
    ] or sorted(e.kind for e in info.value.errors) == [
        "empty_carve_out",
        "empty_specifier",
        "unknown_splitter",
    ]
    assert len(info.value.errors) == 3


def test_every_build_error_is_reported():
    text = "allow Bash(x) mcp__*\ndeny Read(y)\n"
    with pytest.raises(PolicyErrors) as info:
        policyc.compile_text(text, "t.policy")
    assert [e.kind for e in info.value.errors] == [
        "no_default",
        "no_matcher",
        "no_matcher",
        "tool_glob",
    ]


def test_a_failing_example_stops_compilation_and_names_the_example():
    text = 'default deny\nallow read\nexample "edits run" {\n  call edit {"path": "x"}\n  want allow\n}\n'
    with pytest.raises(ExamplesFailed) as info:
        policyc.compile_text(text, "t.policy")
    (error,) = info.value.errors
    assert error.kind == "example_failed"
    assert "edits run" in error.message
    assert "no rule allows edit: denied by default" in error.help
    assert error.span.line == 3


def test_examples_check_every_field_they_name():
    base = "default ask\ntool bash glob(command)\nallow bash(git:*)\n"
    ok = (
        base
        + 'example "e" {\n  call bash {"command": "git log"}\n  want allow rule "bash(git:*)" reason "allowed by bash(git:*)"\n}\n'
    )
    policyc.compile_text(ok, "t.policy")
    wrong = (
        base
        + 'example "e" {\n  call bash {"command": "git log"}\n  want allow rule "bash(git log)"\n}\n'
    )
    with pytest.raises(
        ExamplesFailed, match="rule: want 'bash\\(git log\\)', got 'bash\\(git:\\*\\)'"
    ):
        policyc.compile_text(wrong, "t.policy")


def test_comments_and_notes():
    text = (
        "# a comment line\n"
        "default ask   # trailing comment\n"
        "tool bash glob(command)\n"
        "source org rank 2 trusted {\n"
        "  deny bash(curl:*) bash(echo #x)   # the second spec keeps its #\n"
        '  because "no network"\n'
        "}\n"
    )
    bundle = parse_bundle(text, "t.policy")
    (src,) = bundle.sources
    assert [str(r.rule) for r in src.rules.deny] == ["bash(curl:*)", "bash(echo #x)"]
    assert {r.rule.note for r in src.rules.deny} == {"no network"}
    table = policyc.load(policyc.compile_text(text, "t.policy"))
    assert (
        table.decide("bash", {"command": "echo #x"}).reason == "denied by bash(echo #x): no network"
    )


def test_the_json_and_policy_forms_compile_to_the_same_table():
    data = {
        "matchers": {"bash": {"match": "glob", "field": "command"}},
        "aliases": {"Bash": ["bash"]},
        "sources": [
            {
                "name": "org",
                "rank": 2,
                "trusted": True,
                "deny": "Bash(rm:*)",
                "notes": {"Bash(rm:*)": "no"},
            }
        ],
        "ask": "bash(git push:*)",
        "allow": "read",
        "default": "deny",
    }
    from_json = parse_bundle(json.dumps(data), "b.json")
    printed = format_policy(from_json)
    from_policy = parse_bundle(printed, "b.policy")
    assert from_policy == from_json
    a = policyc.compile_text(json.dumps(data), "b.json")
    b = policyc.compile_text(printed, "b.policy")
    assert json.loads(a)["body_sha256"] == json.loads(b)["body_sha256"]


def test_the_shipped_example_bundle_compiles_and_its_examples_pass():
    from importlib import resources

    text = resources.files("policyc").joinpath("examples/team.policy").read_text()
    bundle = parse_bundle(text, "team.policy")
    assert len(bundle.examples) >= 5
    table = policyc.load(policyc.compile_text(text, "team.policy"))
    assert table.decide("read", {"path": "/repo/.env.example"}).source == "managed"


def test_the_readme_bundle_example_compiles():
    """The complete example in the README is a real bundle, examples included."""
    from .conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## The bundle format") :]
    block = section[section.index("```\n") + 4 :]
    block = block[: block.index("```")]
    table = policyc.load(policyc.compile_text(block, "README.policy"))
    assert table.decide("bash", {"command": "curl x && ls"}).action == "block"
