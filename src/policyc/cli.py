"""The `policyc` command line.

Exit codes: 0 success (a block or defer verdict is a successful `decide`);
1 a failing check (conformance failures, a bundle's failing examples);
2 usage errors, policy errors and refused artifacts.

Only the runtime is imported up front; the compiler (and its dependencies)
load when a command needs them, so `policyc decide` starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import __version__
from .runtime.jsonio import loads

EXIT_OK, EXIT_CHECK, EXIT_USAGE = 0, 1, 2


def _err(message: str) -> None:
    print(f"policyc: {message}", file=sys.stderr)


def _default_output(bundle: Path, emit: str = "artifact") -> Path:
    suffix = "_policy.py" if emit == "python" else ".artifact.json"
    return bundle.with_name(bundle.stem + suffix)


def cmd_compile(args: argparse.Namespace) -> int:
    from .compiler import compile_bundle
    from .compiler.artifact import inputs_digest, write_atomic
    from .compiler.examples import ExamplesFailed
    from .errors import PolicyErrors
    from .grammar import read_bundle

    settings = getattr(args, "claude_settings", None) or []
    if args.bundle is None and not settings:
        _err("name a bundle, or settings files with --claude-settings SCOPE=PATH")
        return EXIT_USAGE
    if settings and args.bundle is None and not args.output:
        _err("with --claude-settings alone, say where to write the artifact: -o OUT")
        return EXIT_USAGE
    bundle_path = Path(args.bundle) if args.bundle else Path("claude-settings")
    emit = getattr(args, "emit", "artifact")
    out = Path(args.output) if args.output else _default_output(bundle_path, emit)
    started = time.perf_counter()
    try:
        parts = []
        bundle = None
        if args.bundle is not None:
            bundle, raw = read_bundle(bundle_path)
            parts.append(raw)
        if settings:
            from .grammar.claude import combine, read_claude_settings

            scoped = []
            for item in settings:
                scope, sep, path = item.partition("=")
                if not sep or not path:
                    _err(f"--claude-settings takes SCOPE=PATH, not {item!r}")
                    return EXIT_USAGE
                scoped.append((scope, path))
            imported, raw_settings = read_claude_settings(
                scoped, trust_workspace=args.trust_workspace
            )
            parts.append(raw_settings)
            bundle = imported if bundle is None else combine(bundle, imported)
        artifact = compile_bundle(bundle, inputs_digest(*parts))
    except PolicyErrors as exc:
        failing_examples = isinstance(exc, ExamplesFailed)
        if args.json:
            print(json.dumps({"ok": False, "errors": [e.to_json() for e in exc.errors]}, indent=2))
        else:
            print(exc.render(), file=sys.stderr)
            what = "example(s) failed" if failing_examples else "error(s)"
            _err(f"{len(exc.errors)} {what}; nothing was written")
        return EXIT_CHECK if failing_examples else EXIT_USAGE
    if emit == "python":
        from .compiler.codegen import generate_module

        artifact = generate_module(artifact).encode("utf-8")
    try:
        write_atomic(out, artifact)
    except OSError as exc:
        _err(f"cannot write {out}: {exc.strerror or exc}")
        return EXIT_USAGE
    elapsed = (time.perf_counter() - started) * 1000
    rules = sum(
        len(getattr(src.rules, a)) for src in bundle.sources for a in ("deny", "ask", "allow")
    )
    rules += sum(len(getattr(bundle.host, a)) for a in ("deny", "ask", "allow"))
    summary = {
        "ok": True,
        "bundle": str(bundle_path),
        "artifact": str(out),
        "bytes": len(artifact),
        "rules": rules,
        "sources": len(bundle.sources),
        "examples": len(bundle.examples),
        "milliseconds": round(elapsed, 1),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"compiled {bundle_path} -> {out} ({rules} rules, {len(bundle.sources)} sources, "
            f"{len(bundle.examples)} examples checked, {len(artifact)} bytes, {elapsed:.0f} ms)",
            file=sys.stderr,
        )
    return EXIT_OK


def _positive_int(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return number


def _load_table(path: str):
    from .runtime import ArtifactError, load

    try:
        return load(path)
    except ArtifactError as exc:
        _err(f"refused artifact {path}: {exc}")
        return None


def _json_arg(text: str, what: str) -> tuple[bool, object]:
    try:
        return True, loads(text)
    except ValueError as exc:
        _err(f"{what} is not JSON: {exc}")
        return False, None


def _print_verdict(verdict, as_json: bool) -> None:
    if as_json:
        out = verdict.to_dict()
        out["record"] = json.loads(verdict.record())
        print(json.dumps(out, ensure_ascii=False))
        return
    line = f"{verdict.action}: {verdict.reason}"
    extra = []
    if verdict.rule:
        extra.append(f"rule {verdict.rule}")
    if verdict.source:
        extra.append(f"source {verdict.source}")
    if verdict.subject:
        extra.append(f"subject {verdict.subject!r}")
    print(line + (f"  [{', '.join(extra)}]" if extra else ""))


def cmd_decide(args: argparse.Namespace) -> int:
    ok, call_args = _json_arg(args.args, "ARGS_JSON")
    if not ok:
        return EXIT_USAGE
    subjects = None
    if args.subjects is not None:
        ok, subjects = _json_arg(args.subjects, "--subjects")
        if not ok:
            return EXIT_USAGE
    table = _load_table(args.artifact)
    if table is None:
        return EXIT_USAGE
    options = dict(confined=args.confined, subjects=subjects, scope=args.scope, cwd=args.cwd)
    if not args.explain:
        _print_verdict(table.decide(args.tool, call_args, **options), args.json)
        return EXIT_OK
    verdict, rows = table.explain(args.tool, call_args, **options)
    if args.json:
        out = verdict.to_dict()
        out["record"] = json.loads(verdict.record())
        out["subjects"] = [
            {**row, "verdict": None if row["verdict"] is None else row["verdict"].to_dict()}
            for row in rows
        ]
        print(json.dumps(out, ensure_ascii=False))
        return EXIT_OK
    _print_verdict(verdict, False)
    if rows:
        print("split into these, each decided alone (the strictest stands, the first of equals):")
    for n, row in enumerate(rows, 1):
        notes = []
        if row.get("call"):
            notes.append("the call itself, as every part is a constraint")
        elif row["constrain"]:
            notes.append("a constraint: deny and ask rules only")
        if row.get("open") is not None:
            notes.append(f"what follows {json.dumps(row['open'])} is not known here")
        shown = _shown_args(table, row["tool"], row["args"])
        print(f"  {n}. {row['tool']} {shown}" + (f"  ({'; '.join(notes)})" if notes else ""))
        part = row["verdict"]
        print(
            f"     {'no deny or ask rule meets it' if part is None else part.action + ': ' + part.reason}"
        )
    return EXIT_OK


def _shown_args(table, tool: str, args: object) -> str:
    """A subject's value as a person reads it: its matcher's field, with
    a path that stands for files under a folder said so (`paths.stand_in_text`)."""
    from .runtime.matchers import field_value
    from .runtime.paths import stand_in_text

    spec = table.tools.get(tool)
    value = field_value(args, spec.field) if spec is not None and spec.field else None
    if value is None:
        return json.dumps(args, ensure_ascii=False)
    text = stand_in_text(value)
    return json.dumps(value, ensure_ascii=False) if text is None else text


def cmd_conformance(args: argparse.Namespace) -> int:
    from .conformance import FixtureError, Report, run_file

    report = Report()
    for path in args.files:
        try:
            run_file(path, args.backend, report)
        except FixtureError as exc:
            _err(str(exc))
            return EXIT_USAGE
    for failure in report.failures:
        print(f"FAIL {failure.file}: {failure.case}\n    {failure.detail}")
    if args.json:
        print(
            json.dumps(
                {
                    "backend": args.backend,
                    "passed": report.passed,
                    "failed": len(report.failures),
                    "failures": [f.__dict__ for f in report.failures],
                }
            )
        )
    print(f"{report.passed} passed, {len(report.failures)} failed")
    return EXIT_CHECK if report.failures else EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import CallsError, read_calls, read_claude_transcripts, render, run
    from .runtime import ArtifactError

    try:
        if args.calls:
            calls = read_calls(args.calls)
        elif args.claude_transcripts:
            calls = read_claude_transcripts(args.claude_transcripts)
        else:
            calls = None
        report = run(args.artifact, calls, repeats=args.repeats, cwd=args.cwd)
    except CallsError as exc:
        _err(str(exc))
        return EXIT_USAGE
    except ArtifactError as exc:
        _err(f"refused artifact {args.artifact}: {exc}")
        return EXIT_USAGE
    print(json.dumps(report, indent=2) if args.json else render(report))
    return EXIT_OK


def cmd_skill(args: argparse.Namespace) -> int:
    from .skills import SkillError, activate_skill

    table = _load_table(args.artifact)
    if table is None:
        return EXIT_USAGE
    try:
        source, granted, refused = activate_skill(
            table, args.skill, rank=args.rank, trusted=not args.untrusted
        )
    except (OSError, UnicodeDecodeError, SkillError) as exc:
        _err(f"cannot read the skill {args.skill}: {exc}")
        return EXIT_USAGE
    except ValueError as exc:  # a rule that does not parse
        _err(f"{args.skill}: allowed-tools: {exc}")
        return EXIT_USAGE
    if args.json:
        print(
            json.dumps(
                {
                    "source": source.name,
                    "granted": [str(r) for r in granted],
                    "refused": [{"rule": str(r.rule), "reason": r.reason} for r in refused],
                }
            )
        )
    else:
        print(f"{source.name}: {len(granted)} granted, {len(refused)} refused")
        for rule in granted:
            print(f"  granted  {rule}")
        for refusal in refused:
            print(f"  refused  {refusal.rule}: {refusal.reason}")
    return EXIT_OK


def cmd_preset(args: argparse.Namespace) -> int:
    from .presets import CLAUDE_SPLIT, preset

    def names(value: str | None, key: str) -> list[str]:
        return CLAUDE_SPLIT[key] if value is None else [n for n in value.split(",") if n]

    text = preset(
        args.name,
        names(args.read, "read"),
        names(args.edit, "edit"),
        names(args.execute, "execute"),
    )
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return EXIT_OK


DEMO_CALLS = [
    ("bash", {"command": "git status"}),
    ("bash", {"command": "git push --force origin main"}),
    ("bash", {"command": "curl https://example.com"}),
    ("read", {"path": "/repo/.env"}),
    ("read", {"path": "/repo/.env.example"}),
    ("mcp__github__delete_repo", {}),
]


def cmd_demo(args: argparse.Namespace) -> int:
    """Compile the embedded example bundle and decide a few calls with it."""
    import tempfile
    from importlib import resources

    from .runtime import load

    source = resources.files("policyc").joinpath("examples/team.policy")
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / "team.policy"
        bundle.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
        print(f"$ policyc compile team.policy   (the example bundle: {source})", flush=True)
        code = cmd_compile(
            argparse.Namespace(bundle=str(bundle), output=None, json=False, emit="artifact")
        )
        if code:
            return code
        table = load(_default_output(bundle))
        for tool, call in DEMO_CALLS:
            print(f"\n$ policyc decide team.artifact.json {tool} '{json.dumps(call)}'")
            _print_verdict(table.decide(tool, call), False)
        print(
            "\n$ offer: "
            + ", ".join(table.offer(["bash", "read", "edit", "mcp__github__delete_repo"]))
        )
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="policyc",
        description="Compile agent tool-call policies into decision tables, and decide calls with them.",
    )
    parser.add_argument("--version", action="version", version=f"policyc {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("compile", help="compile a bundle (.policy or .json) into an artifact")
    p.add_argument("bundle", nargs="?", help="the bundle file; its format is chosen by extension")
    p.add_argument(
        "--claude-settings",
        action="append",
        metavar="SCOPE=PATH",
        help="a Claude Code settings file (SCOPE: managed, local, project, user); repeatable",
    )
    p.add_argument(
        "--trust-workspace",
        action="store_true",
        help="trust project and local settings (else their allow rules are withheld)",
    )
    p.add_argument(
        "-o", "--output", help="where to write the artifact (default: BUNDLE.artifact.json)"
    )
    p.add_argument(
        "--emit",
        choices=("artifact", "python"),
        default="artifact",
        help="write the JSON artifact (default) or a generated Python module that decides like it",
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary or the errors as JSON")
    p.set_defaults(run=cmd_compile)

    p = sub.add_parser("decide", help="decide one call with a compiled artifact")
    p.add_argument("artifact")
    p.add_argument("tool", help="the tool name, exactly as the agent calls it")
    p.add_argument("args", metavar="ARGS_JSON", help="the call's arguments as JSON")
    p.add_argument(
        "--confined", metavar="X", help="the call runs confined by X ('' = confined, unnamed)"
    )
    p.add_argument(
        "--subjects", metavar="JSON", help="the subjects a splitter returned, as a JSON list"
    )
    p.add_argument("--scope", help="the grant scope the call is decided under")
    p.add_argument(
        "--cwd",
        help="the call's working directory (relative paths and ./ path rules read against it)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="also print what the call was split into and each part's own verdict",
    )
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(run=cmd_decide)

    p = sub.add_parser("conformance", help="run conformance fixture files")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--backend", choices=("compiled", "reference"), default="compiled")
    p.add_argument("--json", action="store_true", help="also print a JSON summary")
    p.set_defaults(run=cmd_conformance)

    p = sub.add_parser("bench", help="time a compiled policy on recorded or generated calls")
    p.add_argument("artifact", help="an artifact (.json) or a generated module (.py)")
    recorded = p.add_mutually_exclusive_group()
    recorded.add_argument(
        "--calls",
        metavar="FILE.jsonl",
        help='one {"tool", "args", "confined"?, "subjects"?, "cwd"?} per line',
    )
    recorded.add_argument(
        "--claude-transcripts",
        nargs="+",
        metavar="SESSION.jsonl",
        help="the tool calls of Claude Code session transcripts "
        "(~/.claude/projects/PROJECT/*.jsonl), decided as the hook decides them",
    )
    p.add_argument(
        "--repeats",
        type=_positive_int,
        default=3,
        help="decisions per call per sample (default 3; 1 times each call once: mostly out of "
        "cache and, for a call a splitter splits, before its verdict is kept)",
    )
    p.add_argument(
        "--cwd",
        metavar="DIR",
        help="the working directory of calls that name none, for tools whose rules are "
        "anchored at it (default for the generated calls: the current directory)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=cmd_bench)

    p = sub.add_parser(
        "hook",
        help="a Claude Code PreToolUse hook: `policyc hook claude --artifact ART [--log FILE]`",
    )
    p.add_argument("agent", choices=("claude",))
    p.add_argument("--artifact", required=True)
    p.add_argument("--log")

    p = sub.add_parser(
        "skill", help="what a skill's allowed-tools would be granted against an artifact"
    )
    p.add_argument("artifact")
    p.add_argument("skill", metavar="SKILL.md")
    p.add_argument("--rank", type=int, default=0, help="the skill source's rank (default 0)")
    p.add_argument("--untrusted", action="store_true", help="the skill's source is not trusted")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_skill)

    p = sub.add_parser("preset", help="print a starting bundle: suggest, auto-edit or full-auto")
    p.add_argument("name", choices=("suggest", "auto-edit", "full-auto"))
    p.add_argument("--read", help="comma-separated tools that read (default: Claude Code's)")
    p.add_argument("--edit", help="comma-separated tools that edit")
    p.add_argument("--execute", help="comma-separated tools that execute")
    p.add_argument("-o", "--output")
    p.set_defaults(run=cmd_preset)

    p = sub.add_parser("demo", help="compile the embedded example bundle and decide a few calls")
    p.set_defaults(run=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"]:  # once per tool call: skip argparse and the help machinery
        from .hook import main as hook_main

        return hook_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
