"""`policyc bench`: time a compiled policy on your own calls.

Users size their agents with this: how long does the artifact take to load,
how long does the first decision per tool take (it builds that tool's walk),
and what are the p50/p90/p99 per tool on the calls the agent really makes?
Calls come from a JSONL file (one `{"tool", "args", "confined"?,
"subjects"?, "cwd"?}` per line, the call shape `decide_batch` takes), from
Claude Code's session transcripts (the tool calls a session made, as the
hook decides them) or, without either, from a workload generated out of
the policy's own rules: a call each rule would match, plus misses and a
tool no rule names, each value of the shape its tool's matcher reads.
Calls that name no working directory take `cwd` (the generated ones: the
current directory), so a path rule anchored at it can be met. With
`repeats=1` each call is decided once among the others, its data mostly
out of the CPU caches, as in an agent that calls a tool now and then.
Beside the times it counts what the calls got (allowed, deferred to a
human, blocked, and how many could not be evaluated, with the commonest
reasons), so a user sees what share of their agent's calls would stop for
approval, and notices a calls file whose args the policy never matches.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from .runtime.jsonio import loads

CALL_MEMBERS = {"tool", "args", "confined", "subjects", "cwd"}
# What a call can get; "failed": it could not be evaluated (and was blocked).
ACTIONS = ("allow", "defer", "block", "failed")


class CallsError(ValueError):
    """A calls file that cannot be read; names the line."""


def _json_lines(path: str | Path):
    """(line number, value) of each non-blank line of a JSONL file."""
    try:
        # Lines end at "\n" only: `splitlines` would also break a JSON string
        # holding a raw U+2028, which JSON allows.
        lines = Path(path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as exc:
        raise CallsError(f"cannot read {path}: {exc}") from None
    for number, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        try:
            yield number, loads(line)
        except json.JSONDecodeError as exc:
            raise CallsError(f"{path}:{number}:{exc.colno}: not JSON ({exc.msg})") from None


def read_calls(path: str | Path) -> list[dict]:
    calls = []
    for number, call in _json_lines(path):
        if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
            raise CallsError(f'{path}:{number}:1: a call is an object with a "tool" string')
        unknown = set(call) - CALL_MEMBERS
        if unknown:
            raise CallsError(
                f"{path}:{number}:1: unknown member(s) {sorted(unknown)}; a call takes {sorted(CALL_MEMBERS)}"
            )
        calls.append(call)
    if not calls:
        raise CallsError(f"{path}: no calls")
    return calls


def read_claude_transcripts(paths: list[str | Path]) -> list[dict]:
    """The tool calls recorded in Claude Code session transcripts, as the hook decides them.

    Claude Code keeps a session's transcript at
    `~/.claude/projects/<project>/<session>.jsonl`, a JSON object a line. A
    line of `"type": "assistant"` is one of the model's turns: its
    `message.content` blocks of `"type": "tool_use"` are the tool calls it
    made, each with the tool's `name` and its `input`, and the line has the
    session's `cwd`. Each becomes the call `policyc hook claude` decides for
    it (the tool's name as Claude Code gives it, the input as args, the
    cwd). The other lines (the user's turns, tool results, summaries) hold
    no call and are passed over. A call is taken once by its tool_use `id`:
    a resumed session's transcript starts with the calls of the one it
    resumes, and a turn may be written over several lines.
    """
    calls = []
    seen: set[str] = set()
    for path in paths:
        for number, line in _json_lines(path):
            if not isinstance(line, dict):
                raise CallsError(f"{path}:{number}:1: a transcript's line is a JSON object")
            if line.get("type") != "assistant":
                continue
            message = line.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, list):
                continue
            cwd = line.get("cwd")
            for block in content:
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                name = block.get("name")
                if not isinstance(name, str) or not name:
                    raise CallsError(f"{path}:{number}:1: a tool_use block names no tool")
                known = block.get("id")
                if isinstance(known, str):
                    if known in seen:
                        continue
                    seen.add(known)
                call = {"tool": name, "args": block.get("input")}
                if isinstance(cwd, str):
                    call["cwd"] = cwd
                calls.append(call)
    if not calls:
        named = paths[0] if len(paths) == 1 else f"{len(paths)} transcripts"
        raise CallsError(f"{named}: no tool calls (tool_use blocks of assistant lines)")
    return calls


# Splitters that read a path relative to the working directory: a
# generated call to such a tool carries one, else a rule anchored at it
# could not be met and the call would only time the refusal.
_NEEDS_CWD = ("shell", "path", "tree")


def _example(match: str, pattern: str) -> tuple[str, str]:
    """A value a specifier matches, and one a little beyond it.

    Beyond: longer by a word for a command (a `P:*` rule still matches it, an
    exact one does not), a sibling name for a path, another host for a URL.
    """
    if match == "domain":
        host = pattern.removeprefix("domain:").replace("*", "x")
        return f"https://{host}/x", f"https://x{host}/x"
    if match == "path":
        value = pattern.replace("**", "x").replace("*", "x").replace("?", "x")
        return value, value + ".bak"
    value = pattern.removesuffix(":*").replace("*", "x")
    return value, value + " x"


_NONE_NAMES = {"domain": "https://no-rule-names-this.example/", "path": "./no/rule/names/this"}


def generated_calls(table, k: int = 5000, seed: int = 1, cwd: str | None = None) -> list[dict]:
    """Calls derived from the policy's own rules: hits, near misses, unknown tools.

    Each value has the shape its tool's matcher reads (a command, a path, a
    URL), so a splitter splits it as it would an agent's; with `cwd`, calls
    to a tool whose splitter reads paths carry it.
    """
    rng = random.Random(seed)
    pool: list[dict] = []

    def add(tool: str, args: dict) -> None:
        spec = table.tools.get(tool)
        call = {"tool": tool, "args": args}
        if cwd is not None and spec is not None and spec.split in _NEEDS_CWD:
            call["cwd"] = cwd
        pool.append(call)

    lists = table._policy
    for index in (lists.deny, lists.ask, lists.allow):
        for rule in index.rules:
            spec = table.tools.get(rule.tool)
            if rule.glob:
                add(rule.tool.replace("*", "x"), {})
            elif spec is None or not spec.match:
                add(rule.tool, {})
            elif rule.spec is None:  # a bare rule: any value of the tool's
                add(rule.tool, {spec.field: _NONE_NAMES.get(spec.match, "no rule names this")})
            else:
                for value in _example(spec.match, rule.pattern):
                    add(rule.tool, {spec.field: value})
    for name, spec in table.tools.items():
        if spec.match:
            add(name, {spec.field: _NONE_NAMES.get(spec.match, "no rule names this")})
    add("a_tool_no_rule_names", {})
    return [rng.choice(pool) for _ in range(k)]


def _options(call: dict) -> dict:
    return {k: call[k] for k in ("confined", "subjects", "cwd") if k in call}


def _time_call(decide, call: dict, repeats: int) -> float:
    tool, args = call["tool"], call.get("args")
    kwargs = _options(call)
    clock = time.perf_counter_ns
    if kwargs:
        start = clock()
        for _ in range(repeats):
            decide(tool, args, **kwargs)
    else:  # as an agent calls it: `**{}` would time a slower call than it makes
        start = clock()
        for _ in range(repeats):
            decide(tool, args)
    return (clock() - start) / repeats


def loop_overhead_ns(repeats: int, samples: int = 1000) -> float:
    """The timing loop's own cost per decision, with no call in it.

    Subtracted from each call's time, so a decision counts its call (the
    benchmark suite takes off the same, from here). Not an empty function's time: a
    `lambda *a, **k: None` cost more than the compiled `decide` it was
    subtracted from (it packs its arguments), and the p50 read 0.03 µs
    where the benchmark suite read ~0.1 on the same policy.
    """
    clock = time.perf_counter_ns
    times = []
    for _ in range(samples):
        start = clock()
        for _ in range(repeats):
            pass
        times.append((clock() - start) / repeats)
    return statistics.median(times)


def run(artifact: str, calls: list[dict] | None, repeats: int = 3, cwd: str | None = None) -> dict:
    """Load, time and count. `cwd`: the working directory of the calls that
    name none (for the generated ones, the current directory by default)."""
    from .runtime import load

    start = time.perf_counter()
    table = load(artifact)
    load_s = time.perf_counter() - start
    inner = getattr(table, "table", table)  # a generated module's ordinary table
    tools = inner.tools
    if calls is None:
        calls = generated_calls(inner, cwd=cwd or os.getcwd())
    elif cwd is not None:
        calls = [
            call | {"cwd": cwd}
            if "cwd" not in call and getattr(tools.get(call["tool"]), "split", None) in _NEEDS_CWD
            else call
            for call in calls
        ]
    first: dict[str, float] = {}
    for call in calls:  # the first decision per tool builds its walk: time it apart
        if call["tool"] not in first:
            first[call["tool"]] = _time_call(table.decide, call, 1)
    empty = loop_overhead_ns(repeats)
    per_tool: dict[str, list[float]] = {}
    started = time.perf_counter()
    for call in calls:
        per_tool.setdefault(call["tool"], []).append(
            max(0.0, _time_call(table.decide, call, repeats) - empty)
        )
    elapsed = time.perf_counter() - started

    def stats(samples: list[float]) -> dict:
        ordered = sorted(samples)
        pick = lambda p: ordered[min(len(ordered) - 1, int(p * len(ordered)))]  # noqa: E731
        return {
            "calls": len(ordered),
            "p50_us": pick(0.5) / 1000,
            "p90_us": pick(0.9) / 1000,
            "p99_us": pick(0.99) / 1000,
        }

    # What each call got, decided once more outside the timing.
    actions: dict[str, dict[str, int]] = {}
    overall = dict.fromkeys(ACTIONS, 0)
    why_failed: Counter[str] = Counter()
    for call in calls:
        verdict = table.decide(call["tool"], call.get("args"), **_options(call))
        got = "failed" if verdict.failed else verdict.action
        actions.setdefault(call["tool"], dict.fromkeys(ACTIONS, 0))[got] += 1
        overall[got] += 1
        if verdict.failed:
            why_failed[verdict.reason] += 1

    everything = [s for samples in per_tool.values() for s in samples]
    from .runtime import fast
    from .runtime.generated import GeneratedTable

    return {
        "artifact": str(artifact),
        # What decided: the runtime's compiled walks, its pure-Python ones (a
        # machine that had no C compiler when policyc was installed), or a
        # generated module's functions.
        "walks": "generated" if isinstance(table, GeneratedTable) else fast.WALKS,
        "load_ms": load_s * 1000,
        "first_decision_ms": {tool: ns / 1e6 for tool, ns in sorted(first.items())},
        "calls": len(calls),
        "decisions_per_second": len(calls) * repeats / elapsed,
        "overall": stats(everything) | {"actions": overall},
        # What kept calls from being evaluated, commonest first: a calls file
        # whose args the tools do not read, or a working directory missing.
        "failed_reasons": [
            {"reason": reason, "calls": n} for reason, n in why_failed.most_common(5)
        ],
        "tools": {
            tool: stats(samples) | {"actions": actions[tool]}
            for tool, samples in sorted(per_tool.items())
        },
    }


def render(report: dict) -> str:
    lines = [
        f"{report['artifact']}: loaded in {report['load_ms']:.1f} ms; {report['calls']} calls; "
        f"{report['decisions_per_second']:,.0f} decisions/s; walks: {report['walks']}",
        "",
        f"{'tool':32} {'calls':>7} {'p50 µs':>8} {'p90 µs':>8} {'p99 µs':>8} {'first ms':>9}"
        + "".join(f" {action:>7}" for action in ACTIONS),
    ]
    rows = list(report["tools"].items()) + [("(all)", report["overall"])]
    for tool, s in rows:
        first = report["first_decision_ms"].get(tool)
        lines.append(
            f"{tool[:32]:32} {s['calls']:>7} {s['p50_us']:>8.2f} {s['p90_us']:>8.2f} {s['p99_us']:>8.2f} "
            f"{'' if first is None else f'{first:.2f}':>9}"
            + "".join(f" {s['actions'][action]:>7}" for action in ACTIONS)
        )
    failed = report["overall"]["actions"]["failed"]
    if failed:
        lines += [
            "",
            f"{failed} of {report['calls']} calls could not be evaluated (blocked; their times are"
            " the refusal's), commonest reasons first:",
        ]
        lines += [f"  {r['calls']:>7}  {r['reason']}" for r in report["failed_reasons"]]
    return "\n".join(lines)
