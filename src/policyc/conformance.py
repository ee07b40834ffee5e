"""The conformance runner: fixture files of three kinds, against a backend.

Kinds are recognised from the content (grammar cases have `input`, matcher
cases `matcher`, decision cases `policy`). A member the harness does not know
is an error, so a fixture naming something nothing checks fails loudly.

Backends: `compiled` (bundle -> compiler -> artifact bytes -> runtime, the
real path) and `reference` (the literal interpreter in `policyc.reference`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .errors import PolicyErrors
from .grammar.jsonbundle import parse_json_bundle
from .runtime.jsonio import loads
from .runtime.model import Source
from .runtime.rules import RuleSyntaxError, parse_rules

BACKENDS = ("compiled", "reference")

MEMBERS = {
    "grammar_case": {"name", "input", "rules", "error"},
    "grammar_rule": {"tool", "spec"},
    "grammar_error": {"kind", "token"},
    "matcher_case": {"name", "matcher", "spec", "args", "raw", "match"},
    "decisions_file": {"matchers", "cases", "home"},  # home: policyc's extension, for `~` paths
    "decision_case": {
        "name",
        "matchers",
        "aliases",
        "policy",
        "build_error",
        "grants",
        "calls",
        "batch",
        "offer",
    },
    "matcher": {"match", "field", "split", "write", "read"},
    "policy": {"sources", "allow", "deny", "ask", "default"},
    "source": {"name", "rank", "trusted", "allow", "deny", "ask", "notes", "path", "hash"},
    "grant": {"source", "allow", "deny", "ask", "granted", "refused"},
    "grant_source": {"name", "rank", "trusted", "path", "hash"},
    "refusal": {"rule", "reason"},
    "call": {
        "tool",
        "args",
        "subjects",
        "subjects_error",
        "confined",
        "cwd",
        "want",
    },  # cwd: policyc's
    "subject": {"args", "text", "tool", "constrain"},
    "want": {"action", "held", "rule", "source", "reason", "subject", "confined"},
    "offer": {"tools", "want"},
    # policyc's own kind: Claude Code settings files (by scope) and the calls they decide
    "claude_file": {"cases", "home"},
    "claude_case": {"name", "settings", "trust_workspace", "calls", "build_error"},
}


class FixtureError(Exception):
    """A fixture file the harness cannot read as one of the known kinds."""


def _check(obj: object, kind: str, where: str) -> dict:
    if not isinstance(obj, dict):
        raise FixtureError(f"{where}: expected an object for {kind}")
    unknown = set(obj) - MEMBERS[kind]
    if unknown:
        raise FixtureError(f"{where}: unknown member(s) {sorted(unknown)} in {kind}")
    return obj


@dataclass
class Failure:
    file: str
    case: str
    detail: str


@dataclass
class Report:
    passed: int = 0
    failures: list[Failure] = field(default_factory=list)

    def add(self, ok: bool, file: str, case: str, detail: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failures.append(Failure(file, case, detail))


def fixture_kind(data: object) -> str:
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise FixtureError("a fixture file is an object with a `cases` array")
    cases = data["cases"]
    if not cases:
        raise FixtureError("the fixture has no cases")
    first = cases[0]
    if isinstance(first, dict) and "input" in first:
        return "grammar"
    if isinstance(first, dict) and "matcher" in first:
        return "matchers"
    if isinstance(first, dict) and "policy" in first:
        return "decisions"
    if isinstance(first, dict) and "settings" in first:
        return "claude"
    raise FixtureError(
        "cannot tell the fixture kind: cases have no `input`, `matcher`, `policy` or `settings`"
    )


# -- engines ---------------------------------------------------------------


def build_engine(bundle_data: dict, backend: str, home: str | None = None):
    """A decider for a JSON bundle on a backend. Raises PolicyErrors / ReferenceBuildError."""
    bundle = parse_json_bundle(json.dumps(bundle_data), "<case>")
    if backend == "reference":
        from .reference import ReferenceEngine

        return ReferenceEngine(bundle, home=home)
    from .compiler import compile_bundle
    from .runtime import load

    table = load(compile_bundle(bundle, "conformance"))
    if home is not None:
        table.home = home
    return table


def _want(verdict) -> dict:
    return {k: v for k, v in verdict.to_dict().items() if v}


# -- the three kinds --------------------------------------------------------


def run_grammar(data: dict, file: str, report: Report) -> None:
    for i, case in enumerate(data["cases"]):
        case = _check(case, "grammar_case", f"{file}: case {i}")
        name = case.get("name", f"case {i}")
        if "error" in case:
            want: dict = {"error": _check(case["error"], "grammar_error", f"{file}: {name}")}
        else:
            want = {"rules": [_check(r, "grammar_rule", f"{file}: {name}") for r in case["rules"]]}
        try:
            rules = parse_rules(case["input"])
            got: dict = {
                "rules": [
                    {"tool": r.tool, **({"spec": r.spec} if r.spec is not None else {})}
                    for r in rules
                ]
            }
        except RuleSyntaxError as exc:
            got = {"error": {"kind": exc.kind, "token": exc.token}}
        report.add(got == want, file, name, f"want {want}\n      got  {got}")


def run_matchers(data: dict, file: str, report: Report, backend: str) -> None:
    for i, case in enumerate(data["cases"]):
        case = _check(case, "matcher_case", f"{file}: case {i}")
        name = (
            case.get("name")
            or f"{case['matcher']} {case['spec']!r} on {case.get('args', case.get('raw'))!r}"
        )
        if "raw" in case:
            try:
                args = json.loads(case["raw"])
            except ValueError:
                args = case["raw"]  # not JSON: no object, so no member to read
        else:
            args = case["args"]
        engine = build_engine(
            {
                "matchers": {"t": {"match": case["matcher"], "field": "command"}},
                "allow": f"t({case['spec']})",
                "default": "deny",
            },
            backend,
        )
        got = engine.decide("t", args).action == "allow"
        report.add(
            got == case["match"],
            file,
            name,
            f"want match={case['match']}, got {got}",
        )


def _decide_calls(engine, calls: list[dict], where: str) -> list:
    prepared = []
    for call in calls:
        _check(call, "call", where)
        item = {"tool": call["tool"], "args": call.get("args")}
        if "confined" in call:
            item["confined"] = call["confined"]
        if "subjects" in call:
            item["subjects"] = [_check(s, "subject", where) for s in call["subjects"]]
        if "subjects_error" in call:
            item["subjects"] = str(call["subjects_error"])
        if "cwd" in call:
            item["cwd"] = call["cwd"]
        prepared.append(item)
    return engine.decide_batch(prepared)


def run_decisions(data: dict, file: str, report: Report, backend: str) -> None:
    from .reference import ReferenceBuildError

    data = _check(data, "decisions_file", file)
    default_matchers = data.get("matchers", {})
    for i, case in enumerate(data["cases"]):
        case = _check(case, "decision_case", f"{file}: case {i}")
        name = case.get("name", f"case {i}")
        where = f"{file}: {name}"
        policy = _check(case["policy"], "policy", where)
        for s in policy.get("sources", []):
            _check(s, "source", where)
        matchers = case.get("matchers", default_matchers)
        for m in matchers.values():
            _check(m, "matcher", where)
        bundle = {"matchers": matchers, "aliases": case.get("aliases", {}), **policy}
        try:
            engine = build_engine(bundle, backend, data.get("home"))
            built_kind = None
        except PolicyErrors as exc:
            built_kind = exc.kind
        except ReferenceBuildError as exc:
            built_kind = exc.kind
        if "build_error" in case:
            report.add(
                built_kind == case["build_error"],
                file,
                name,
                f"want build error {case['build_error']}, got {built_kind or 'a successful build'}",
            )
            continue
        if built_kind is not None:
            report.add(False, file, name, f"want a build, got build error {built_kind}")
            continue
        problems: list[str] = []
        for grant in case.get("grants", []):
            _check(grant, "grant", where)
            src = _check(grant["source"], "grant_source", where)
            source = Source(
                src["name"],
                src.get("rank", 0),
                src.get("trusted", False),
                src.get("path", ""),
                src.get("hash", ""),
            )
            granted, refused = engine.activate(
                source,
                allow=grant.get("allow", ""),
                deny=grant.get("deny", ""),
                ask=grant.get("ask", ""),
            )
            got_granted = [str(r) for r in granted]
            got_refused = [{"rule": str(r.rule), "reason": r.reason} for r in refused]
            want_refused = [_check(r, "refusal", where) for r in grant.get("refused", [])]
            if got_granted != grant.get("granted", []):
                problems.append(
                    f"grant {source.name}: granted want {grant.get('granted', [])}, got {got_granted}"
                )
            if got_refused != want_refused:
                problems.append(
                    f"grant {source.name}: refused want {want_refused}, got {got_refused}"
                )
        for j, call in enumerate(case.get("calls", [])):
            (verdict,) = _decide_calls(engine, [call], where)
            want = _check(call["want"], "want", where)
            if _want(verdict) != want:
                problems.append(
                    f"call {j + 1} ({call['tool']}): want {want}\n      got  {_want(verdict)}"
                )
        if "batch" in case:
            verdicts = _decide_calls(engine, case["batch"], where)
            for j, (call, verdict) in enumerate(zip(case["batch"], verdicts, strict=True)):
                want = _check(call["want"], "want", where)
                if _want(verdict) != want:
                    problems.append(
                        f"batch call {j + 1} ({call['tool']}): want {want}\n      got  {_want(verdict)}"
                    )
        if "offer" in case:
            offer = _check(case["offer"], "offer", where)
            got = engine.offer(offer["tools"])
            if got != offer["want"]:
                problems.append(f"offer: want {offer['want']}, got {got}")
        report.add(not problems, file, name, "\n    ".join(problems))


def run_claude(data: dict, file: str, report: Report, backend: str) -> None:
    """Cases of Claude Code settings: imported as Claude Code means them, then decided."""
    import tempfile

    from .compiler import compile_bundle
    from .grammar.claude import read_claude_settings
    from .reference import ReferenceBuildError, ReferenceEngine
    from .runtime import load

    data = _check(data, "claude_file", file)
    home = data.get("home")
    for i, case in enumerate(data["cases"]):
        case = _check(case, "claude_case", f"{file}: case {i}")
        name = case.get("name", f"case {i}")
        where = f"{file}: {name}"
        with tempfile.TemporaryDirectory() as tmp:
            scoped = []
            for scope, settings in case["settings"].items():
                path = Path(tmp) / f"{scope}.json"
                path.write_text(json.dumps(settings))
                scoped.append((scope, str(path)))
            try:
                bundle, _ = read_claude_settings(
                    scoped, trust_workspace=case.get("trust_workspace", False)
                )
                if backend == "reference":
                    engine = ReferenceEngine(bundle, home=home)
                else:
                    engine = load(compile_bundle(bundle, "conformance"), home=home)
                built = None
            except (PolicyErrors, ReferenceBuildError) as exc:
                built = exc.kind
        if "build_error" in case:
            report.add(
                built == case["build_error"], file, name, f"want {case['build_error']}, got {built}"
            )
            continue
        if built is not None:
            report.add(False, file, name, f"want a build, got build error {built}")
            continue
        problems = []
        for j, call in enumerate(case.get("calls", [])):
            (verdict,) = _decide_calls(engine, [call], where)
            want = _check(call["want"], "want", where)
            got = {k: v for k, v in _want(verdict).items() if k in want or k == "action"}
            if got != want:
                problems.append(
                    f"call {j + 1} ({call['tool']}): want {want}\n      got  {_want(verdict)}"
                )
        report.add(not problems, file, name, "\n    ".join(problems))


def run_file(path: str | Path, backend: str = "compiled", report: Report | None = None) -> Report:
    report = report or Report()
    path = Path(path)
    try:
        data = loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FixtureError(f"{path}: cannot read the fixture: {exc}") from None
    kind = fixture_kind(data)
    if kind == "grammar":
        run_grammar(data, str(path), report)
    elif kind == "matchers":
        run_matchers(data, str(path), report, backend)
    elif kind == "claude":
        run_claude(data, str(path), report, backend)
    else:
        run_decisions(data, str(path), report, backend)
    return report
