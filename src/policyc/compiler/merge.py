"""Stages `expand_aliases` and `merge_sources`.

expand_aliases: Bundle -> Bundle (every aliased rule replaced by one rule per tool)
merge_sources:  Bundle -> MergedPolicy (sources by rank, rules stamped, untrusted allows withheld)
"""

from __future__ import annotations

import dataclasses

from ..errors import ErrorSink, PolicyError
from ..grammar.ast import Bundle, RuleLists, RuleRef
from ..runtime.checks import alias_problems, canonical_rule
from ..runtime.index import ToolSpec
from ..runtime.model import HOST, Rule, Source
from ..runtime.paths import resolve_base
from .ir import MergedPolicy, Row


def _expand(refs: tuple[RuleRef, ...], aliases: dict[str, list[str]]) -> tuple[RuleRef, ...]:
    out: list[RuleRef] = []
    for ref in refs:
        names = aliases.get(ref.rule.tool)
        if names is None:
            out.append(ref)
        else:
            out.extend(
                RuleRef(Rule(name, ref.rule.spec, ref.rule.source, ref.rule.note), ref.span)
                for name in names
            )
    return tuple(out)


def _expand_lists(lists: RuleLists, aliases: dict[str, list[str]]) -> RuleLists:
    return RuleLists(
        _expand(lists.deny, aliases), _expand(lists.ask, aliases), _expand(lists.allow, aliases)
    )


def alias_table(bundle: Bundle) -> dict[str, list[str]]:
    return {a.name: list(a.tools) for a in bundle.aliases}


def expand_aliases(bundle: Bundle) -> Bundle:
    errors = ErrorSink()
    for alias in bundle.aliases:
        for problem in alias_problems({alias.name: list(alias.tools)}):
            errors.add(
                PolicyError(
                    "invalid_rule",
                    f"alias table refused: {problem}",
                    alias.span,
                    "an alias maps one plain rule name to one or more tool names, none with `*`",
                )
            )
    errors.check()
    aliases = alias_table(bundle)
    return dataclasses.replace(
        bundle,
        sources=tuple(
            dataclasses.replace(s, rules=_expand_lists(s.rules, aliases)) for s in bundle.sources
        ),
        host=_expand_lists(bundle.host, aliases),
    )


def _stamp(refs: tuple[RuleRef, ...], source: Source) -> list[Row]:
    return [Row(Rule(r.rule.tool, r.rule.spec, source, r.rule.note), r.span) for r in refs]


def merge_sources(bundle: Bundle) -> MergedPolicy:
    errors = ErrorSink()
    seen: set[str] = set()
    for decl in bundle.sources:
        if not decl.name:
            errors.add(
                PolicyError(
                    "unnamed_source",
                    "a source has no name",
                    decl.span,
                    "name every source: the name scopes grants and carve-outs",
                )
            )
        elif decl.name in seen:
            errors.add(
                PolicyError(
                    "duplicate_source",
                    f"two sources are named {decl.name}",
                    decl.span,
                    "give each source its own name",
                )
            )
        seen.add(decl.name)
    errors.check()

    ordered = sorted(bundle.sources, key=lambda s: -s.rank)  # stable: equal ranks keep their order
    deny: list[Row] = []
    ask: list[Row] = []
    allow: list[Row] = []
    withheld: list[Row] = []
    sources = [HOST]
    for decl in ordered:
        source = Source(decl.name, decl.rank, decl.trusted, decl.path, decl.hash)
        sources.append(source)
        deny += _stamp(decl.rules.deny, source)
        ask += _stamp(decl.rules.ask, source)
        (allow if source.trusted else withheld).extend(_stamp(decl.rules.allow, source))
    deny += _stamp(bundle.host.deny, HOST)
    ask += _stamp(bundle.host.ask, HOST)
    allow += _stamp(bundle.host.allow, HOST)
    tools = {
        t.name: ToolSpec(t.match, t.field, t.split, t.write, t.read, t.allow_glob, t.fetch)
        for t in bundle.tools
    }
    return MergedPolicy(
        bundle=bundle,
        default=bundle.default,
        tools=tools,
        aliases=alias_table(bundle),
        sources=tuple(sources),
        deny=tuple(deny),
        ask=tuple(ask),
        allow=tuple(allow),
        withheld=tuple(withheld),
    )


def resolve_anchors(merged: MergedPolicy) -> MergedPolicy:
    """Stage: MergedPolicy -> MergedPolicy with `@/` path patterns made absolute.

    `@/` anchors a path pattern at the folder of the source's own file, which
    is known now and not in the agent, so it is resolved here.
    """
    errors = ErrorSink()

    def resolve(rows: tuple[Row, ...]) -> tuple[Row, ...]:
        out = []
        for row in rows:
            rule = row.rule
            spec = merged.tools.get(rule.tool)
            if rule.spec is not None and spec is not None and spec.match == "path":
                resolved = resolve_base(rule.spec, rule.source.path)
                if resolved is None:
                    errors.add(
                        PolicyError(
                            "no_base_dir",
                            f"{rule} is anchored at its source's folder, and its source has no absolute path",
                            row.span,
                            'give the source `path "/abs/file"`, or anchor the pattern at / ~/ or ./',
                        )
                    )
                    continue
                row = Row(Rule(rule.tool, resolved, rule.source, rule.note), row.span)
            out.append(row)
        return tuple(out)

    result = dataclasses.replace(
        merged,
        deny=resolve(merged.deny),
        ask=resolve(merged.ask),
        allow=resolve(merged.allow),
        withheld=resolve(merged.withheld),
    )
    errors.check()
    return result


def canonical_commands(merged: MergedPolicy) -> MergedPolicy:
    """Stage: MergedPolicy -> MergedPolicy with each command rule of a tool
    the shell splitter splits written as the parts it hands rules are
    (`runtime.checks.canonical_rule`): `Bash(rm -rf "/")` is `Bash(rm -rf
    /)`, which it meets."""

    def canonical(rows: tuple[Row, ...]) -> tuple[Row, ...]:
        return tuple(Row(canonical_rule(row.rule, merged.tools), row.span) for row in rows)

    return dataclasses.replace(
        merged,
        deny=canonical(merged.deny),
        ask=canonical(merged.ask),
        allow=canonical(merged.allow),
        withheld=canonical(merged.withheld),
    )
