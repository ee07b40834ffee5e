"""Hypothesis strategies: random bundles, calls, grant sets and batches.

The alphabets are small on purpose, so random specifiers and argument values
collide often: `a b:*` meets `a b c`, carve-outs meet the rules they cancel,
tool-name globs meet real tools.
"""

from __future__ import annotations

from collections import OrderedDict

from hypothesis import strategies as st

TOOLS = ["bash", "read", "edit", "web"]
OTHER_TOOLS = ["mcp__a__x", "mcp__b__y", "zz"]
GLOB_TOOLS = ["mcp__*", "mcp__a__*", "*", "b*h", "*d"]
FIELDS = {"bash": "command", "read": "path", "edit": "path", "web": "url"}
ALIASES = {"Bash": ["bash"], "Files": ["read", "edit"]}

values = st.one_of(
    st.sampled_from(
        [
            "a",
            "a b",
            "a b c",
            "b",
            "ab",
            "a:b",
            "",
            "a*b",
            " b",
            "a  b",
            "a && b",
            "a; b > c",
            "X=1 a",
            "a a b",
            "a c b",
            "b a b",
            "a b a b c",
            # a value not known here (a variable, xargs' input): held to what it may complete
            "a $X",
            "a b$X c",
            "b | xargs a",
        ]
    ),
    # (two letters past ASCII: the compiled walk reads each kind of str)
    st.text(alphabet="ab :*é𝄞", max_size=6),
)
spec_bodies = st.one_of(
    st.text(alphabet="ab :*é", min_size=1, max_size=6),
    st.sampled_from(["a:*", ":*", "*", "a b:*", "a *", "* b", "a*b", "a", "a b", "b:*", "a * b:*"]),
    # inner globs whose tail holds a space (the walk files them by the tail's last token)
    st.sampled_from(["a * b", "* a b", "a b * b", "*b b", "a * b c"]),
)


@st.composite
def specs(draw, carve_ok: bool = True) -> str:
    body = draw(spec_bodies)
    if carve_ok and draw(st.integers(0, 5)) == 0:
        return "!" + body
    if body == "!":
        return "a"
    return body


@st.composite
def rule_text(draw, action: str, ctx: dict | None = None, valid_bias: bool = True) -> str:
    """One rule token. Mostly buildable under `ctx` (the bundle's matchers and
    aliases); sometimes not, since the engines must agree on errors too."""
    ctx = ctx or {"matched": set(TOOLS), "aliases": ALIASES}
    roll = draw(st.integers(0, 99))
    if roll < 8 and action != "allow":
        return draw(st.sampled_from(GLOB_TOOLS))
    if roll < 10 and not valid_bias:
        return draw(st.sampled_from(GLOB_TOOLS)) + ("(a)" if draw(st.booleans()) else "")
    names = TOOLS + [a for a in ctx["aliases"] if ctx["aliases"]] + OTHER_TOOLS
    tool = draw(st.sampled_from(names))
    if roll < 30 or tool in OTHER_TOOLS:
        return tool
    governed = ctx["aliases"].get(tool, [tool])
    if roll < 97 and not all(t in ctx["matched"] for t in governed):
        return tool
    return f"{tool}({draw(specs())})"


@st.composite
def rule_list(draw, action: str, ctx: dict | None = None, max_size: int = 5) -> str:
    return " ".join(draw(st.lists(rule_text(action, ctx), max_size=max_size)))


@st.composite
def notes_for(draw, lists: dict) -> dict:
    out = {}
    for text in lists.values():
        for token in _tokens(text):
            if draw(st.integers(0, 5)) == 0:
                out[token] = draw(st.sampled_from(["why", "use fetch", 'say "no"']))
    return out


def _tokens(text: str) -> list[str]:
    from policyc.runtime.rules import tokens

    return [t for _, t in tokens(text)]


@st.composite
def sources(draw, ctx: dict) -> list[dict]:
    out = []
    for i in range(draw(st.integers(0, 3))):
        lists = {a: draw(rule_list(a, ctx)) for a in ("deny", "ask", "allow")}
        src = {
            "name": f"s{i}",
            "rank": draw(st.integers(-1, 3)),
            "trusted": draw(st.booleans()),
            **{k: v for k, v in lists.items() if v},
        }
        notes = draw(notes_for(lists))
        if notes:
            src["notes"] = notes
        if draw(st.booleans()):
            src["hash"] = f"sha256:{i}"
        out.append(src)
    return out


@st.composite
def bundles(draw) -> dict:
    matchers = {}
    for tool in TOOLS:
        kind = draw(st.sampled_from([None, "prefix", "prefix", "glob", "glob", "glob"]))
        entry: dict = {}
        if kind:
            entry = {"match": kind, "field": FIELDS[tool]}
        roll = draw(st.integers(0, 4))
        if roll == 0:
            entry["split"] = True
        elif roll == 1 and tool == "bash" and "match" in entry:
            entry["split"] = "shell"  # the built-in splitter, run by both engines
            if draw(st.booleans()):
                entry["fetch"] = "web"  # where what curl fetches goes
        if entry:
            matchers[tool] = entry
    aliases = ALIASES if draw(st.booleans()) else {}
    ctx = {"matched": {t for t, m in matchers.items() if "match" in m}, "aliases": aliases}
    host = {a: draw(rule_list(a, ctx)) for a in ("deny", "ask", "allow")}
    bundle = {
        "matchers": matchers,
        "aliases": aliases,
        "sources": draw(sources(ctx)),
        **{k: v for k, v in host.items() if v},
        "default": draw(st.sampled_from(["allow", "deny", "ask"] * 6 + [None])),
    }
    notes = draw(notes_for(host))
    if notes:
        bundle["notes"] = notes
    if bundle["default"] is None:
        del bundle["default"]
    return bundle


class Text(str):
    """A str subclass, as a Python host may pass one."""


def as_host_types(args: object) -> object:
    """The same args as a host's OrderedDict of str subclasses: decided alike."""
    if not isinstance(args, dict):
        return args
    return OrderedDict((k, Text(v) if isinstance(v, str) else v) for k, v in args.items())


json_args = st.one_of(
    st.fixed_dictionaries({}, optional={f: values for f in ("command", "path", "url")}),
    st.fixed_dictionaries(
        {"command": st.one_of(st.integers(), st.none(), st.lists(values, max_size=1))}
    ),
    st.sampled_from([None, 3, "a b", [], [{"command": "a"}], True]),
)
# Args from JSON, and now and then the same through the Python API's types.
call_args = st.one_of(json_args, json_args.map(as_host_types))

call_tools = st.one_of(
    st.sampled_from(TOOLS), st.sampled_from(TOOLS + OTHER_TOOLS + ["Bash", "mcp__a__zz"])
)


@st.composite
def subject_lists(draw):
    roll = draw(st.integers(0, 9))
    if roll == 0:
        return "command substitution is not supported"
    if roll == 1:
        return []
    out = []
    for _ in range(draw(st.integers(1, 3))):
        subject: dict = {"args": draw(json_args)}
        if draw(st.integers(0, 3)):
            subject["text"] = draw(st.sampled_from(["a", "b", "a b", 'q"t', "x\\y", ""]))
        if draw(st.integers(0, 2)) == 0:
            subject["tool"] = draw(call_tools)
        if draw(st.integers(0, 3)) == 0:
            subject["constrain"] = True
        if draw(st.integers(0, 4)) == 0:  # its value goes on past what is known
            subject["open"] = draw(st.sampled_from(["", "a", "a ", "a b ", "b", "ab", " ", 3]))
        out.append(subject)
    return out


@st.composite
def calls(draw) -> dict:
    call: dict = {"tool": draw(call_tools), "args": draw(call_args)}
    confined = draw(st.sampled_from([None, None, "", "box"]))
    if confined is not None:
        call["confined"] = confined
    if draw(st.integers(0, 2)) == 0:
        call["subjects"] = draw(subject_lists())
    return call


@st.composite
def grant_sets(draw) -> dict:
    return {
        "source": {
            "name": draw(st.sampled_from(["skill:a", "skill:b", "s0", "s1"])),
            "rank": draw(st.integers(-1, 2)),
            "trusted": draw(st.integers(0, 3)) > 0,
        },
        "allow": " ".join(
            draw(
                st.lists(
                    st.one_of(st.sampled_from(TOOLS), rule_text("allow", valid_bias=False)),
                    max_size=3,
                )
            )
        ),
        "deny": " ".join(draw(st.lists(rule_text("deny"), max_size=2))),
        "ask": " ".join(draw(st.lists(rule_text("ask"), max_size=2))),
        "scope": draw(st.sampled_from([None, None, "A", "B"])),
    }


operations = st.lists(
    st.one_of(
        st.tuples(st.just("decide"), calls(), st.sampled_from([None, "A"])),
        st.tuples(
            st.just("batch"),
            st.lists(calls(), min_size=1, max_size=4),
            st.sampled_from([None, "A"]),
        ),
        st.tuples(st.just("grant"), grant_sets()),
        st.tuples(
            st.just("revoke"),
            st.sampled_from(["skill:a", "skill:b", "s0"]),
            st.sampled_from([None, "A"]),
        ),
        st.tuples(
            st.just("offer"),
            st.lists(st.sampled_from(TOOLS + OTHER_TOOLS), max_size=5),
            st.sampled_from([None, "A"]),
        ),
    ),
    min_size=1,
    max_size=12,
)


# Inner globs whose tail holds a space, hanging on the root and on nodes one
# and two tokens deep (and words that make those nodes), so that one value
# passes several nodes with such globs.
TAIL_SPECS = st.sampled_from(
    ["* a b", "* b", "*b b", "a * b c", "a * b", "a * a b", "a b * b", "a b * a b", "a:*", "a b:*"]
).flatmap(lambda spec: st.sampled_from([spec, spec, "!" + spec]))  # carve-outs too


@st.composite
def walk_bundles(draw, spec_strategy=None, matcher: str | None = None) -> dict:
    """One tool, many rules: the plain calls below reach the precomputed walk every time."""
    spec_strategy = specs() if spec_strategy is None else spec_strategy
    lists = st.lists(spec_strategy.map(lambda spec: f"bash({spec})"), max_size=6).map(" ".join)
    matcher = matcher or draw(st.sampled_from(["glob", "prefix"]))
    return {
        "matchers": {"bash": {"match": matcher, "field": "command"}},
        "sources": [
            {"name": f"s{i}", "rank": draw(st.integers(0, 2)), "trusted": True}
            | {a: draw(lists) for a in ("deny", "ask", "allow")}
            for i in range(draw(st.integers(1, 3)))
        ],
        "default": draw(st.sampled_from(["allow", "deny", "ask"])),
    }


# Prefix keys of several lengths, nested and not, so that a value starts a
# long key but not the short ones (and the other way round). Some longer than
# eight characters or past Latin-1: the compiled walk compares those against
# a copy of their characters, the others by a packed word.
PREFIX_SPECS = st.sampled_from(
    ["a:*", "b:*", "ab:*", "ba:*", "bb:*", "a b:*", "aab:*", "b a:*", "ab", "b a", "a"]
    + ["abababab:*", "ababababa:*", "a b a b c:*", "é:*", "a𝄞:*", "a𝄞 a b a b", "ababababa"]
).flatmap(lambda spec: st.sampled_from([spec, spec, "!" + spec]))  # carve-outs too

# Values for those keys: short ones, and ones as long as the long keys.
prefix_values = st.one_of(
    values,
    st.text(alphabet="ab é𝄞", max_size=12),
    st.sampled_from(["abababab", "ababababa", "ababababab", "a b a b c d", "a𝄞 a b a b", "éa"]),
)
