"""`policyc hook claude`: a Claude Code PreToolUse command hook.

Claude Code runs the hook once per tool call, with the call as JSON on stdin:

    {"session_id": "...", "cwd": "/repo", "permission_mode": "default",
     "hook_event_name": "PreToolUse", "tool_name": "Bash",
     "tool_input": {"command": "git status"}, "tool_use_id": "toolu_..."}

and reads the decision from stdout (exit code 0):

    {"hookSpecificOutput": {"hookEventName": "PreToolUse",
     "permissionDecision": "allow" | "deny" | "ask",
     "permissionDecisionReason": "..."}}

Anything wrong (unreadable stdin, another event, a missing or refused
artifact, an internal fault) is a `deny` whose reason says what is wrong:
never a traceback, never an allow. This module imports only the runtime, so
the hook starts about as fast as Python does.
"""

from __future__ import annotations

import sys

from .runtime.jsonio import loads, quote
from .runtime.verdict import SEVERITY

DECISIONS = {"allow": "allow", "block": "deny", "defer": "ask"}


def _answer(decision: str, reason: str) -> str:
    # Written out rather than `json.dumps`, whose import costs the hook ~7 ms.
    return (
        '{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        f'"permissionDecision": {quote(decision)}, '
        f'"permissionDecisionReason": {quote(reason)}}}}}'
    )


def decide(stdin: bytes, artifact: str, log: str | None = None) -> str:
    """The hook's stdout for one payload. Never raises."""
    try:
        try:
            payload = loads(stdin)
        except ValueError as exc:
            return _answer(
                "deny", f"policyc hook: the payload is not JSON ({exc}); the call is refused"
            )
        if not isinstance(payload, dict):
            return _answer(
                "deny", "policyc hook: the payload is not a JSON object; the call is refused"
            )
        event = payload.get("hook_event_name")
        if event != "PreToolUse":
            return _answer(
                "deny",
                f"policyc hook: expected a PreToolUse event, got {event!r}; the call is refused",
            )
        tool = payload.get("tool_name")
        if not isinstance(tool, str) or not tool:
            return _answer("deny", "policyc hook: the payload names no tool; the call is refused")
        cwd = payload.get("cwd")
        from .runtime import ArtifactError, load

        try:
            table = load(artifact)
        except ArtifactError as exc:
            return _answer(
                "deny", f"policyc hook: refused artifact {artifact}: {exc}; the call is refused"
            )
        tool_input = payload.get("tool_input")
        verdict = _decide(table, tool, tool_input, cwd if isinstance(cwd, str) else None)
        if log:
            session = payload.get("session_id")
            call = payload.get("tool_use_id")
            record = verdict.record(
                run_id=session if isinstance(session, str) else "",
                call_id=call if isinstance(call, str) else "",
            )
            try:
                with open(log, "a", encoding="utf-8") as fh:
                    fh.write(record + "\n")
            except OSError as exc:  # the decision stands; say the log failed
                print(
                    f"policyc hook: cannot append to {log}: {exc.strerror or exc}", file=sys.stderr
                )
        reason = verdict.reason
        if verdict.action != "allow" and verdict.subject:
            reason += _hint(table, tool, tool_input, cwd, verdict)
        return _answer(DECISIONS[verdict.action], reason)
    except Exception as exc:  # fail closed, whatever happened
        return _answer(
            "deny", f"policyc hook: internal error ({type(exc).__name__}); the call is refused"
        )


# A call of Claude Code's Agent tool (Task before 2.1) that names no agent
# runs its default one: general-purpose, or a fork of the session where
# forking is on. `Agent(general-purpose)` denied must meet it, so it is
# decided as each, and the stricter verdict stands.
_AGENT_TOOLS = ("Agent", "Task")
_DEFAULT_AGENTS = ("general-purpose", "fork")


def _decide(table, tool: str, tool_input: object, cwd: str | None):
    if tool not in _AGENT_TOOLS or not isinstance(tool_input, dict):
        return table.decide_once(tool, tool_input, cwd=cwd)
    if tool_input.get("subagent_type"):  # (an empty name is none)
        return table.decide_once(tool, tool_input, cwd=cwd)
    verdicts = [
        table.decide_once(tool, {**tool_input, "subagent_type": agent}, cwd=cwd)
        for agent in _DEFAULT_AGENTS
    ]
    return max(verdicts, key=lambda v: SEVERITY[v.action])


def _hint(table, tool: str, tool_input: object, cwd: object, verdict) -> str:
    """Why the rule met the command, when its text does not say (for the
    model, and the person asked): a value not known before the command runs
    (`rm $F` denied by `Bash(rm -rf:*)`, `cat $F` by `Read(./.env)`), or a
    folder whose every file the command reads or changes (`grep -r x src`
    under `Read(**/.env)`), or the files of some names under one (`black
    .` under `Edit(./migrations/**)`, `find . -name x -delete`). The
    verdict and its record keep SPEC's reason; only the hook's message says
    more. Empty when there is nothing to add."""
    from .runtime.matchers import field_value
    from .runtime.paths import stand_in_text
    from .runtime.splitters.words import every_file_folder

    _, parts = table.explain(tool, tool_input, cwd=cwd if isinstance(cwd, str) else None)
    quoted = quote(verdict.subject)
    folders: list[str] = []
    named = ""
    for part in parts:
        got = part["verdict"]
        if got is None or got.rule != verdict.rule or part["text"] != verdict.subject:
            continue
        if part["by_open"]:
            return (
                f" (policyc: part of {quoted} is not known before it runs, a variable or what"
                f" xargs reads, and may make it a command {verdict.rule} names; write the"
                " value out)"
            )
        spec = table.tools.get(part["tool"])
        value = field_value(part["args"], spec.field) if spec is not None and spec.field else None
        folder = every_file_folder(value) if value is not None else None
        if folder is not None and folder not in folders:
            folders.append(folder)
        elif folder is None and value is not None and stand_in_text(value) is None:
            return ""  # the command names a file the rule meets: its text says so
        elif folder is None and value is not None and not named:
            # `black .`, `find . -name x -delete`, `git add -A`: files under a folder
            named = stand_in_text(value) or ""
    if "/" in folders:
        return (
            f" (policyc: a file {quoted} names is not known before it runs, a variable or what"
            " xargs reads, so it may be any file; write the path out)"
        )
    if folders:
        under = ", ".join(folders[:-1]) + " or " + folders[-1] if len(folders) > 1 else folders[0]
        return (
            f" (policyc: {quoted} reads or changes every file under {under}, which may hold"
            f" one {verdict.rule} names; name the files, or use a tool that skips it)"
        )
    if named:
        return (
            f" (policyc: {quoted} reads or changes {named}, which may hold one"
            f" {verdict.rule} names; name the files)"
        )
    return ""


def main(argv: list[str]) -> int:
    """`policyc hook claude --artifact ART [--log FILE]`, parsed by hand to start fast."""
    artifact = log = None
    args = list(argv)
    if not args or args[0] != "claude":
        print("usage: policyc hook claude --artifact ART [--log FILE]", file=sys.stderr)
        return 2
    i = 1
    while i < len(args):
        if args[i] in ("--artifact", "--log") and i + 1 < len(args):
            if args[i] == "--artifact":
                artifact = args[i + 1]
            else:
                log = args[i + 1]
            i += 2
        else:
            print(f"policyc hook: unknown argument {args[i]!r}", file=sys.stderr)
            return 2
    if artifact is None:
        # Still answer Claude Code, and refuse: a hook without a policy allows nothing.
        sys.stdout.write(
            _answer("deny", "policyc hook: no --artifact given; the call is refused") + "\n"
        )
        return 0
    try:
        stdin = sys.stdin.buffer.read()
    except Exception:
        stdin = b""
    sys.stdout.write(decide(stdin, artifact, log) + "\n")
    return 0


def run(argv: list[str]) -> None:
    """`main`, then leave the process at once.

    The interpreter's orderly shutdown frees every object the table built,
    about 2 ms of a hook run (measured by `python -m benchmarks.hook_startup`),
    on the user's path for nothing. So the output is flushed and the process
    exits without it. Nothing else is pending: the log file is closed by
    then. If the answer cannot be written, exit 2, which Claude Code reads
    as a refusal (any other non-zero code lets the call run).

    The cyclic collector is off for the whole run: the process decides one
    call and ends, so it has no cycles worth finding. Since bulk builds age
    what they make (`runtime.bulk`), this matters only where they cannot:
    on CPython 3.12, the collector's first pass after the load rescans
    every object the table built (the first decision after a 100,000-rule
    load: 45.6 ms on 3.12.1, 0.2 ms on 3.11.7, fresh processes).
    """
    import gc

    gc.disable()
    try:
        code = main(argv)
    except BaseException as exc:  # main answers every input; this is for what cannot happen
        # Any exit code but 2 would let Claude Code run the call: refuse instead.
        try:
            sys.stdout.write(
                _answer("deny", f"policyc hook: internal error ({type(exc).__name__})") + "\n"
            )
            code = 0
        except BaseException:
            code = 2
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        code = 2
    import os

    os._exit(code)
