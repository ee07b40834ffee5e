"""A deliberately literal interpreter of SPEC: the test oracle.

Nothing here is indexed, cached or precomputed. Every decision walks the
lists as SPEC sections 5-8 say, with its own matchers (a plain backtracking
`*` matcher, no regular expressions), so the compiled runtime is checked
against something that shares none of its tricks. Only the rule-list grammar
(tested on its own against the conformance corpus) and the value types are
shared. Do not optimise this module: being slow and obvious is its job.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grammar.ast import Bundle
from .runtime.checks import canonical_rule, command_words
from .runtime.domains import domain_matches, domain_spec
from .runtime.engine import Refusal
from .runtime.index import ToolSpec
from .runtime.model import HOST, Rule, Source
from .runtime.paths import broad_for, dotdot_problem, path_matches, resolve_base
from .runtime.rules import parse_rules
from .runtime.splitters import SplitError, cwd_tools, fetch_hosts, make_splitter, option_tools
from .runtime.verdict import Verdict, failed_verdict


class ReferenceBuildError(Exception):
    def __init__(self, kind: str, text: str = ""):
        super().__init__(text or kind)
        self.kind = kind
        self.text = text


def star_match(pattern: str, text: str) -> bool:
    """`*` matches any run of characters; every other character itself."""
    if not pattern:
        return not text
    if pattern[0] == "*":
        return any(star_match(pattern[1:], text[i:]) for i in range(len(text) + 1))
    return bool(text) and text[0] == pattern[0] and star_match(pattern[1:], text[1:])


def glob_spec_matches(spec: str, value: str) -> bool:
    if spec == ":*":
        return True
    if spec.endswith(":*"):
        head = spec[:-2]
        return star_match(head, value) or star_match(head + " *", value)
    return star_match(spec, value)


def star_prefix(pattern: str, text: str) -> bool:
    """Whether `text` is how some string the pattern matches begins."""
    for i, char in enumerate(text):
        if i >= len(pattern):
            return False
        if pattern[i] == "*":
            return True  # the star may take the rest of the text, and more
        if pattern[i] != char:
            return False
    return True


def may_match(kind: str, spec: str, known: str) -> bool:
    """Whether some value the command may have, `known` and then anything
    (or `known` less its last space: the rest may be empty), matches the spec."""
    ended = known.rstrip(" ")
    if kind == "glob":
        if spec == ":*":
            return True
        forms = [spec[:-2], spec[:-2] + " *"] if spec.endswith(":*") else [spec]
        return any(star_prefix(form, known) for form in forms) or glob_spec_matches(spec, ended)
    if kind == "prefix":
        if spec.endswith(":*"):
            key = spec[:-2]
            return key.startswith(known) or known.startswith(key)
        return spec.startswith(known) or spec == ended
    return False


def prefix_spec_matches(spec: str, value: str) -> bool:
    if spec.endswith(":*"):
        return value.startswith(spec[:-2])
    return value == spec


@dataclass
class _Set:
    scope: str | None
    source: Source
    deny: list[Rule]
    ask: list[Rule]
    allow: list[Rule]


class ReferenceEngine:
    def __init__(self, bundle: Bundle, home: str | None = None):
        import os

        self.home = home if home is not None else os.path.expanduser("~")
        self.aliases = {a.name: list(a.tools) for a in bundle.aliases}
        for name, tools in self.aliases.items():
            if not name or "*" in name or not tools or any(not t or "*" in t for t in tools):
                raise ReferenceBuildError("invalid_rule")
        names = [s.name for s in bundle.sources]
        if any(not n for n in names):
            raise ReferenceBuildError("unnamed_source")
        if len(set(names)) != len(names):
            raise ReferenceBuildError("duplicate_source")
        self.matchers = {t.name: (t.match, t.field) for t in bundle.tools if t.match}
        self.splitters = {t.name for t in bundle.tools if t.split}
        self._specs = {
            t.name: ToolSpec(t.match, t.field, t.split, t.write, t.read, t.allow_glob, t.fetch)
            for t in bundle.tools
        }
        self.default = bundle.default
        deny: list[Rule] = []
        ask: list[Rule] = []
        allow: list[Rule] = []
        self.withheld: list[Rule] = []
        for decl in sorted(bundle.sources, key=lambda s: -s.rank):
            src = Source(decl.name, decl.rank, decl.trusted, decl.path, decl.hash)
            deny += [Rule(r.rule.tool, r.rule.spec, src, r.rule.note) for r in decl.rules.deny]
            ask += [Rule(r.rule.tool, r.rule.spec, src, r.rule.note) for r in decl.rules.ask]
            target = allow if decl.trusted else self.withheld
            target += [Rule(r.rule.tool, r.rule.spec, src, r.rule.note) for r in decl.rules.allow]
        deny += [Rule(r.rule.tool, r.rule.spec, HOST, r.rule.note) for r in bundle.host.deny]
        ask += [Rule(r.rule.tool, r.rule.spec, HOST, r.rule.note) for r in bundle.host.ask]
        allow += [Rule(r.rule.tool, r.rule.spec, HOST, r.rule.note) for r in bundle.host.allow]
        specs = self._specs
        self.deny = [canonical_rule(r, specs) for r in self._base(self._expand(deny), bundle)]
        self.ask = [canonical_rule(r, specs) for r in self._base(self._expand(ask), bundle)]
        self.allow = [canonical_rule(r, specs) for r in self._base(self._expand(allow), bundle)]
        self.builtin_splitters = self._splitters(self.deny, self.ask, self.allow)
        if self.default is None:
            raise ReferenceBuildError("no_default")
        for name, rules in (("deny", self.deny), ("ask", self.ask), ("allow", self.allow)):
            for rule in rules:
                err = self._build_error(rule, name)
                if err:
                    raise ReferenceBuildError(*err)
        self.sets: list[_Set] = []

    def _splitters(self, deny: list[Rule], ask: list[Rule], allow: list[Rule]) -> dict:
        """By tool, its splitter, for these lists (a grant set's rules too)."""
        specs = self._specs
        anchored = cwd_tools(deny + ask + allow, specs)
        shapes = option_tools(deny + ask, specs)
        hosts = fetch_hosts(deny + ask, specs)
        return {
            name: fn
            for name, spec in specs.items()
            if (fn := make_splitter(name, spec, specs, anchored, shapes, hosts)) is not None
        }

    def _base(self, rules: list[Rule], bundle: Bundle) -> list[Rule]:
        """`@/` path patterns against the folder of their source's file."""
        kinds = {t.name: t.match for t in bundle.tools}
        out = []
        for r in rules:
            if r.spec is not None and kinds.get(r.tool) == "path":
                spec = resolve_base(r.spec, r.source.path)
                if spec is None:
                    raise ReferenceBuildError("no_base_dir")
                r = Rule(r.tool, spec, r.source, r.note)
            out.append(r)
        return out

    def _expand(self, rules: list[Rule]) -> list[Rule]:
        out = []
        for r in rules:
            if r.tool in self.aliases:
                for t in self.aliases[r.tool]:
                    out.append(Rule(t, r.spec, r.source, r.note))
            else:
                out.append(r)
        return out

    def _build_error(self, rule: Rule, list_name: str) -> tuple[str, str] | None:
        if rule.tool == "":
            return ("invalid_rule", f"agentpolicy: rule has no tool name: {rule}")
        if "*" in rule.tool and rule.spec is not None:
            return ("tool_glob", f"agentpolicy: tool-name glob: {rule} takes no specifier")
        if (
            "*" in rule.tool
            and list_name == "allow"
            and not self._specs.get(rule.tool, ToolSpec()).allow_glob
        ):
            return (
                "tool_glob",
                f"agentpolicy: tool-name glob: {rule} is not honoured in the allow list",
            )
        if rule.spec is not None and rule.tool not in self.matchers:
            return ("no_matcher", f"agentpolicy: no matcher for the rule's tool: {rule}")
        pattern = (
            rule.spec[1:] if rule.spec is not None and rule.spec.startswith("!") else rule.spec
        )
        if (
            pattern is not None
            and self.matchers[rule.tool][0] == "domain"
            and domain_spec(pattern) is None
        ):
            return ("bad_domain", f"policyc: {rule} names no host")
        if (
            pattern is not None
            and self.matchers[rule.tool][0] == "path"
            and pattern.startswith("@/")
        ):
            return ("no_base_dir", f"policyc: {rule} is anchored at a source folder no grant has")
        if pattern is not None and self.matchers[rule.tool][0] == "path":
            why = dotdot_problem(pattern)
            if why is not None:
                return ("bad_path", f"policyc: {rule}: {why}")
        tool = self._specs.get(rule.tool, ToolSpec())
        if pattern is not None and tool.split == "shell" and tool.match in ("prefix", "glob"):
            words = command_words(pattern)
            if words == "quote":
                return ("bad_quotes", f"policyc: {rule} never matches: a quote is not closed")
            if words == "operator":
                return (
                    "bad_operator",
                    f"policyc: {rule} never matches: it holds a shell operator, and each part "
                    "of a command is held to the rules alone (`a && b` runs when each part is "
                    "allowed)",
                )
        return None

    # -- SPEC section 2 ---------------------------------------------------

    def _matches(self, tool: str, spec: str, args: object, broad: bool = False) -> bool:
        kind, field = self.matchers[tool]
        if not isinstance(args, dict):
            return False
        if field not in args or not isinstance(args[field], str):
            return False
        value = args[field]
        if kind == "prefix":
            return prefix_spec_matches(spec, value)
        if kind == "path":
            # Path and domain patterns have their own corpus; the reference
            # shares them, as it shares the rule grammar.
            # policyc's: deny and ask rules read broadly (`broad_for`).
            return path_matches(spec, value, self._cwd, self.home, broad)
        if kind == "domain":
            return domain_matches(spec, value, broad)
        return glob_spec_matches(spec, value)

    # -- SPEC section 5 ---------------------------------------------------

    def _active(self, scope: str | None) -> list[_Set]:
        return [s for s in self.sets if s.scope is None or s.scope == scope]

    def _lists(self, scope: str | None) -> tuple[list[Rule], list[Rule], list[Rule]]:
        deny, ask, allow = list(self.deny), list(self.ask), list(self.allow)
        for s in self._active(scope):
            deny += s.deny
            ask += s.ask
            allow += s.allow
        return deny, ask, allow

    def _fires(self, rule: Rule, rules: list[Rule], tool: str, args: object, action: str) -> bool:
        if not star_match(rule.tool, tool):
            return False
        if rule.spec is not None and rule.spec.startswith("!"):
            return False
        broad = broad_for(action, False)
        if rule.spec is not None and not self._matches(rule.tool, rule.spec, args, broad):
            return False
        for other in rules:
            if (
                other.spec is not None
                and other.spec.startswith("!")
                and other.tool == rule.tool
                and other.source.rank >= rule.source.rank
                and self._matches(other.tool, other.spec[1:], args, not broad)
            ):
                return False
        return True

    @staticmethod
    def _cite(rule: Rule) -> str:
        if rule.note and (rule.source.trusted or rule.source.name == ""):
            return f"{rule}: {rule.note}"
        return str(rule)

    def _from_rule(
        self, action: str, reason: str, rule: Rule, tool: str, confined: str = ""
    ) -> Verdict:
        return Verdict(
            action,
            reason,
            rule=str(rule),
            source=rule.source.name,
            source_hash=rule.source.hash,
            note=rule.note,
            tool=tool,
            confined=confined,
        )

    def _subject(self, tool, args, is_confined, confined, constrain, scope) -> Verdict | None:
        deny, ask, allow = self._lists(scope)
        for rule in deny:
            if self._fires(rule, deny, tool, args, "deny"):
                return self._from_rule("block", "denied by " + self._cite(rule), rule, tool)
        skipped = None
        for rule in ask:
            if not self._fires(rule, ask, tool, args, "ask"):
                continue
            shadowed = False
            for s in self._active(scope):
                if s.source.name != rule.source.name and s.source.rank >= rule.source.rank:
                    if any(self._fires(a, allow, tool, args, "allow") for a in s.allow):
                        shadowed = True
            if shadowed:
                continue
            if is_confined and rule.spec is None:
                if skipped is None:
                    skipped = rule
                continue
            return self._from_rule("defer", "approval required by " + self._cite(rule), rule, tool)
        if constrain:
            return None
        if skipped is not None:
            if confined:
                reason = f"confined by {confined}, so {skipped} does not ask"
            else:
                reason = f"confined, so {skipped} does not ask"
            return self._from_rule("allow", reason, skipped, tool)
        for rule in allow:
            if self._fires(rule, allow, tool, args, "allow"):
                return self._from_rule("allow", "allowed by " + self._cite(rule), rule, tool)
        if self.default == "allow":
            return Verdict("allow", "allowed by default", tool=tool)
        if self.default == "deny":
            return Verdict("block", f"no rule allows {tool}: denied by default", tool=tool)
        return Verdict("defer", f"no rule allows {tool}: approval required by default", tool=tool)

    def _open(self, tool, known, v, scope) -> Verdict | None:
        """policyc's addition to SPEC section 6 (README, "Splitting"): a
        subject whose value goes on, after `known`, with text not known
        here is decided by the first deny rule, else ask rule, naming its
        tool that some such value may match, carve-outs and grant sets'
        shadowing aside, unless its own verdict is as strict."""
        if v is not None and v.action == "block":
            return v
        kind = self.matchers.get(tool, (None, None))[0]
        deny, ask, _ = self._lists(scope)
        for rule in deny:
            if rule.tool == tool and rule.spec is not None and not rule.spec.startswith("!"):
                if may_match(kind, rule.spec, known):
                    return self._from_rule("block", "denied by " + self._cite(rule), rule, tool)
        if v is not None and v.action == "defer":
            return v
        for rule in ask:
            if rule.tool == tool and rule.spec is not None and not rule.spec.startswith("!"):
                if may_match(kind, rule.spec, known):
                    return self._from_rule(
                        "defer", "approval required by " + self._cite(rule), rule, tool
                    )
        return v

    # -- SPEC section 6 ---------------------------------------------------

    def decide(self, tool, args, *, confined=None, subjects=None, scope=None, cwd=None) -> Verdict:
        conf = confined or ""
        self._cwd = cwd if isinstance(cwd, str) else None
        if not isinstance(tool, str):
            return failed_verdict("tool", "the tool name is not a string", conf)
        if subjects is None:
            if tool in self.splitters:
                # The built-in splitters are input transformations with their own
                # corpus; the reference shares them and interprets what they return.
                # (naively: built again for the scope's lists when grant sets are active)
                splitters = (
                    self._splitters(*self._lists(scope))
                    if self._active(scope)
                    else self.builtin_splitters
                )
                splitter = splitters.get(tool)
                if splitter is None:
                    return failed_verdict(
                        tool, "the tool has a splitter and no subjects were given", conf
                    )
                try:
                    subjects = splitter(args, (self._cwd, self.home, False))
                except SplitError as exc:
                    return failed_verdict(tool, str(exc), conf)
            else:
                subjects = [{"args": args}]
        if isinstance(subjects, (BaseException, str)):
            return failed_verdict(tool, str(subjects) or type(subjects).__name__, conf)
        if not isinstance(subjects, list):
            return failed_verdict(tool, "the splitter's subjects are not a list", conf)
        if len(subjects) == 0:
            return failed_verdict(tool, "splitter returned no subjects", conf)
        decided = []
        for s in subjects:
            if not isinstance(s, dict):
                return failed_verdict(tool, "a subject is not an object", conf)
            text = s.get("text") or ""
            target = s.get("tool") or tool
            if not isinstance(text, str) or not isinstance(target, str):
                return failed_verdict(tool, "a subject's text or tool is not a string", conf)
            if target != tool:
                v = self._subject(
                    target, s.get("args"), False, None, bool(s.get("constrain")), scope
                )
            else:
                v = self._subject(
                    tool,
                    s.get("args"),
                    confined is not None,
                    confined,
                    bool(s.get("constrain")),
                    scope,
                )
            if s.get("open") is not None:
                if not isinstance(s["open"], str):
                    return failed_verdict(tool, "a subject's open text is not a string", conf)
                v = self._open(target, s["open"], v, scope)
            decided.append((text, v))
        if all(s.get("constrain") for s in subjects):
            decided.append(
                ("", self._subject(tool, args, confined is not None, confined, False, scope))
            )
        order = {"allow": 0, "defer": 1, "block": 2}
        best = None
        for text, v in decided:
            if v is None:
                continue
            if best is None or order[v.action] > order[best[1].action]:
                best = (text, v)
        text, v = best
        reason = v.reason
        if v.action == "block" and len(decided) > 1 and text:
            others = []
            for t, _ in decided:
                if t and t != text and t not in others:
                    others.append(t)

            def q(s: str) -> str:
                return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

            reason += f" on {q(text)}; nothing in this command ran"
            if others:
                if len(others) == 1:
                    reason += ", including " + q(others[0])
                else:
                    reason += (
                        ", including "
                        + ", ".join(q(o) for o in others[:-1])
                        + " and "
                        + q(others[-1])
                    )
        return v.replace(tool=tool, subject=text, confined=conf, reason=reason)

    # -- SPEC section 7 ---------------------------------------------------

    def decide_batch(self, calls, *, scope=None) -> list[Verdict]:
        verdicts = [
            self.decide(
                c.get("tool"),
                c.get("args"),
                confined=c.get("confined"),
                subjects=c.get("subjects"),
                scope=scope,
                cwd=c.get("cwd"),
            )
            for c in calls
        ]
        out = []
        for i, v in enumerate(verdicts):
            others_defer = any(
                (o.action == "defer" or o.failed) for j, o in enumerate(verdicts) if j != i
            )
            if v.action == "allow" and others_defer:
                v = v.replace(action="defer", held=True, reason="held for approval: " + v.reason)
            out.append(v)
        return out

    def offer(self, tools, *, scope=None) -> list[str]:
        deny, _, _ = self._lists(scope)
        kept = []
        for tool in tools:
            removed = False
            for rule in deny:
                if (rule.spec is None) and star_match(rule.tool, tool):
                    reached = any(
                        c.spec is not None
                        and c.spec.startswith("!")
                        and c.tool == rule.tool
                        and c.source.rank >= rule.source.rank
                        for c in deny
                    )
                    if not reached:
                        removed = True
            if not removed:
                kept.append(tool)
        return kept

    # -- SPEC section 8 ---------------------------------------------------

    def activate(self, source: Source, *, allow="", deny="", ask="", scope=None):
        specs = self._specs
        lists = {
            name: [canonical_rule(r, specs) for r in self._expand(parse_rules(text, source))]
            for name, text in (("deny", deny), ("ask", ask), ("allow", allow))
        }
        kept: dict[str, list[Rule]] = {"deny": [], "ask": [], "allow": []}
        refused = []
        for name in ("deny", "ask", "allow"):
            for rule in lists[name]:
                err = self._build_error(rule, name)
                if err:
                    refused.append(Refusal(rule, err[1]))
                    continue
                if name == "allow":
                    if rule.spec is not None and rule.spec.startswith("!"):
                        refused.append(
                            Refusal(rule, f"agentpolicy: cannot grant a carve-out: {rule}")
                        )
                        continue
                    if not source.trusted:
                        refused.append(
                            Refusal(rule, f"withheld: the source {source.name} is not trusted")
                        )
                        continue
                    why = None
                    for d in self.deny:
                        if d.spec is None and star_match(d.tool, rule.tool):
                            reached = any(
                                c.spec is not None
                                and c.spec.startswith("!")
                                and c.tool == d.tool
                                and c.source.rank >= d.source.rank
                                for c in self.deny
                            )
                            if not reached:
                                why = f"denied by {d}: a grant never beats a deny"
                                break
                    if why is None:
                        for a in self.ask:
                            if (
                                a.spec is None
                                and star_match(a.tool, rule.tool)
                                and a.source.rank > source.rank
                            ):
                                why = (
                                    f"{a} from {a.source.name} outranks the grant"
                                    if a.source.name
                                    else f"{a} outranks the grant"
                                )
                                break
                    if why:
                        refused.append(Refusal(rule, why))
                        continue
                kept[name].append(rule)
        new = _Set(scope, source, kept["deny"], kept["ask"], kept["allow"])
        for i, s in enumerate(self.sets):
            if s.scope == scope and s.source.name == source.name:
                self.sets[i] = new
                break
        else:
            self.sets.append(new)
        return list(kept["allow"]), refused

    def revoke(self, name: str, scope=None) -> int:
        before = len(self.sets)
        self.sets = [s for s in self.sets if not (s.scope == scope and s.source.name == name)]
        return before - len(self.sets)
