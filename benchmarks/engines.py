"""The engines timed side by side, each behind `decide(tool, args) -> action`.

Actions are normalised to policyc's words: allow, block, defer. The peers get
the same policy translated faithfully (precedence deny > ask > allow >
default, carve-outs as `unless` / negative lookahead, tool-name globs), and
the harness checks every answer they give against the reference interpreter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from policyc.compiler import build_table, compile_bundle
from policyc.grammar import parse_bundle
from policyc.reference import ReferenceEngine
from policyc.runtime import load

Decide = Callable[[str, object], str]


def parse(bundle: dict):
    return parse_bundle(json.dumps(bundle), "bench.json")


def policyc_table(artifact: bytes) -> Decide:
    table = load(artifact)
    decide = table.decide

    def run(tool, args):
        return decide(tool, args).action

    run.raw = decide  # the call a user makes, without the wrapper
    return run


def policyc_pure(artifact: bytes, calls: list) -> Decide | None:
    """The table runtime with its pure-Python walks, as an install without a C
    compiler runs (None where the compiled walks are not built: `policyc` is that).

    Walks are built on a tool's first decision, so every call is made once
    here, while the pure walks are the ones being built.
    """
    from policyc.runtime import fast

    if fast.COMPILED is None or fast.WALKS != "compiled":
        return None
    fast.WALKS = "pure"
    try:
        run = policyc_table(artifact)
        for tool, args in calls:
            run(tool, args)
    finally:
        fast.WALKS = "compiled"
    return run


def reference(bundle: dict) -> Decide:
    engine = ReferenceEngine(parse(bundle))
    return lambda tool, args: engine.decide(tool, args).action


def floor(artifact: bytes) -> Decide:
    """The least any engine can do: look the tool up, return a precomputed verdict."""
    table = load(artifact)
    verdicts = {tool: table.decide(tool, None) for tool in table.tools}
    fallback = table.decide("unknown", None)
    get = verdicts.get

    def run(tool, args):
        return get(tool, fallback)

    run.raw = run
    return run


def answers(decide, calls: list, fields: dict) -> Decide:
    """A second floor: each call's own verdict, looked up.

    Built beforehand from `decide`'s answers to the very calls timed (a
    policyc table, loaded apart from the one timed), in a
    dict per tool by the value of its field: one entry per distinct call, the
    same at every N. What grows with N is only what it returns: at N=10 the
    calls get a dozen verdicts between them, at N=100,000 thousands (one per
    rule that fires), each an object of its own in memory. So this is what a
    decision costs for the verdict it hands back alone, cold or not, which
    any engine that answers with the rule that fired pays too.
    """
    by_tool: dict[str, tuple] = {}
    for tool, args in calls:
        field = fields.get(tool)
        found = by_tool.setdefault(tool, (field, {}))[1]
        found[args.get(field) if isinstance(args, dict) else None] = decide(tool, args)

    def run(tool, args):
        field, found = by_tool[tool]
        return found[args.get(field)]

    run.raw = run
    return run


# -- the policy as rows, for the translations ------------------------------


def rows(bundle: dict):
    """[(list, rule, [carve-out rules reaching it])] in precedence order, and the matchers."""
    table = build_table(parse(bundle))
    merged = table.merged
    out = []
    for action in ("deny", "ask", "allow"):
        lst = [row.rule for row in getattr(merged, action)]
        for rule in lst:
            if rule.carve_out:
                continue
            reaching = [
                c
                for c in lst
                if c.carve_out and c.tool == rule.tool and c.source.rank >= rule.source.rank
            ]
            out.append((action, rule, reaching))
    return out, merged.tools, merged.default


# -- Cedar ------------------------------------------------------------------


STAR = "\\*"  # a literal star in a Cedar `like` pattern


def _cedar_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cedar_like(pattern: str) -> str:
    # In a Cedar `like` pattern `*` is the wildcard and `\*` a literal star
    # (callers escape literal stars first, so backslashes are left as they are).
    return '"' + pattern.replace('"', '\\"') + '"'


def _cedar_match(kind: str, field: str, spec: str) -> str:
    var = f"context.{field}"
    if kind == "prefix":
        if spec.endswith(":*"):
            head = _cedar_like(spec[:-2].replace("*", STAR) + "*")
            return f"{var} like {head}"
        return f"{var} == {_cedar_str(spec)}"
    if spec == ":*":
        return "true"
    if spec.endswith(":*"):
        head = spec[:-2]
        if "*" not in head:
            spaced = _cedar_like(head + " *")
            return f"({var} == {_cedar_str(head)} || {var} like {spaced})"
        return f"({var} like {_cedar_like(head)} || {var} like {_cedar_like(head + ' *')})"
    if "*" not in spec:
        return f"{var} == {_cedar_str(spec)}"
    return f"{var} like {_cedar_like(spec)}"


def cedar(bundle: dict, batch: bool = False):
    import cedarpy

    table, tools, default = rows(bundle)
    policies, kinds = [], []
    for action, rule, reaching in table:
        if "*" in rule.tool:
            cond = [f"context.tool like {_cedar_like(rule.tool)}"]
        else:
            cond = [f"context.tool == {_cedar_str(rule.tool)}"]
        spec = tools.get(rule.tool)
        if rule.spec is not None:
            cond.append(
                f"context has {spec.field} && {_cedar_match(spec.match, spec.field, rule.spec)}"
            )
        unless = [
            f"(context has {spec.field} && {_cedar_match(spec.match, spec.field, c.pattern)})"
            for c in reaching
        ]
        effect = "permit" if action == "allow" else "forbid"
        text = f"{effect}(principal, action, resource) when {{ {' && '.join(cond)} }}"
        if unless:
            text += f" unless {{ {' || '.join(unless)} }}"
        policies.append(text + ";")
        kinds.append(action)
    policy_set = cedarpy.PolicySet.from_str("\n".join(policies))
    entities = cedarpy.Entities.from_json_str("[]")
    fields = {name: s.field for name, s in tools.items() if s.match}
    default_action = {"allow": "allow", "deny": "block", "ask": "defer"}[default]

    def request(tool, args):
        context = {"tool": tool}
        field = fields.get(tool)
        if field and isinstance(args, dict) and isinstance(args.get(field), str):
            context[field] = args[field]
        return {
            "principal": 'Agent::"a"',
            "action": 'Action::"call"',
            "resource": 'Tool::"t"',
            "context": context,
        }

    def action_of(result) -> str:
        if result.allowed:
            return "allow"
        reasons = {kinds[int(r.removeprefix("policy"))] for r in result.diagnostics.reasons}
        if "deny" in reasons:
            return "block"
        if "ask" in reasons:
            return "defer"
        return default_action

    def run(tool, args):
        return action_of(cedarpy.is_authorized(request(tool, args), policy_set, entities))

    def run_batch(calls):
        results = cedarpy.is_authorized_batch(
            [request(t, a) for t, a in calls], policy_set, entities
        )
        return [action_of(r) for r in results]

    return run_batch if batch else run


# -- Casbin -----------------------------------------------------------------

CASBIN_MODEL = """
[request_definition]
r = tool, val, has

[policy_definition]
p = toolre, pattern, bare, kind, eft

[policy_effect]
e = priority(p.eft) || deny

[matchers]
m = regexMatch(r.tool, p.toolre) && (p.bare == "1" || (r.has == "1" && regexMatch(r.val, p.pattern)))
"""


def glob_regex(spec: str) -> str:
    """The glob matcher's spec as a whole-value regex (for casbin's regexMatch)."""

    def star(pattern: str) -> str:
        return ".*".join(re.escape(part) for part in pattern.split("*"))

    if spec == ":*":
        return ".*"
    if spec.endswith(":*"):
        return f"{star(spec[:-2])}(?: .*)?"
    return star(spec)


def _spec_regex(kind: str, spec: str) -> str:
    if kind == "prefix":
        return re.escape(spec[:-2]) + ".*" if spec.endswith(":*") else re.escape(spec)
    return glob_regex(spec)


def casbin(bundle: dict):
    import casbin as casbin_lib

    table, tools, default = rows(bundle)
    model = casbin_lib.model.Model()
    model.load_model_from_text(CASBIN_MODEL)
    enforcer = casbin_lib.Enforcer(model)
    policies = []
    for action, rule, reaching in table:
        tool_re = "(?s)^" + ".*".join(re.escape(p) for p in rule.tool.split("*")) + r"\Z"
        if rule.spec is None:
            pattern, bare = "", "1"
        else:
            kind = tools[rule.tool].match
            body = _spec_regex(kind, rule.spec)
            cancels = "|".join(_spec_regex(kind, c.pattern) for c in reaching)
            guard = f"(?!(?:{cancels})\\Z)" if cancels else ""
            pattern, bare = f"(?s)^{guard}(?:{body})\\Z", "0"
        eft = "allow" if action == "allow" else "deny"
        policies.append([tool_re, pattern, bare, action, eft])
    enforcer.add_policies(policies)  # one batch: adding rules one by one is quadratic
    fields = {name: s.field for name, s in tools.items() if s.match}
    default_action = {"allow": "allow", "deny": "block", "ask": "defer"}[default]
    to_action = {"deny": "block", "ask": "defer", "allow": "allow"}

    def run(tool, args):
        field = fields.get(tool)
        value = args.get(field) if field and isinstance(args, dict) else None
        has = "1" if isinstance(value, str) else "0"
        _, explain = enforcer.enforce_ex(tool, value if has == "1" else "", has)
        return to_action[explain[3]] if explain else default_action

    return run


def compile_artifact(bundle: dict) -> bytes:
    return compile_bundle(parse(bundle), "bench")


def policyc_generated(artifact: bytes, path):
    """The generated-code backend, or None where it is not built yet."""
    try:
        from policyc.compiler.codegen import generate_module
        from policyc.runtime.generated import load_module
    except ImportError:
        return None
    path.write_text(generate_module(artifact))
    module = load_module(path)
    decide = module.decide

    def run(tool, args):
        return decide(tool, args).action

    run.raw = decide
    return run
