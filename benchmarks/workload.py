"""Seeded policies and calls for the benchmarks.

`synthetic_bundle(n)`: n rules on `bash` (glob matcher on `command`) across
three sources of rank 3, 1 and 0 — exact, word-prefix (`P:*`) and inner-glob
specifiers, about 5% carve-outs — plus about 30 rules on other tools (prefix
matcher on paths, bare rules, tool-name globs). `realistic_bundle()`: a few
hundred rules of the kind teams write. `calls(bundle, k)`: hits, misses, long
commands and other tools, mixed.
"""

from __future__ import annotations

import random

VERBS = {
    "git": [
        "status",
        "diff",
        "log",
        "push",
        "pull",
        "commit",
        "add",
        "checkout",
        "rebase",
        "stash",
        "fetch",
        "tag",
    ],
    "npm": ["test", "run", "install", "ci", "publish", "audit", "exec"],
    "docker": ["run", "build", "ps", "exec", "compose", "push", "pull", "rm"],
    "kubectl": ["get", "apply", "delete", "logs", "describe", "exec"],
    "cargo": ["build", "test", "run", "publish", "clippy", "fmt"],
    "python": ["-m", "manage.py", "setup.py", "-c"],
    "make": ["test", "build", "lint", "install", "clean", "release"],
    "terraform": ["plan", "apply", "destroy", "init", "fmt"],
    "aws": ["s3", "ec2", "iam", "lambda", "sts"],
    "rm": ["-rf", "-r", "-f", "-i"],
    "curl": ["-s", "-X", "-o", "-L"],
    "ls": ["-la", "-l", "-R"],
}
PROGRAMS = list(VERBS)
FLAGS = [
    "--force",
    "--dry-run",
    "-v",
    "--all",
    "--prod",
    "-q",
    "--no-verify",
    "main",
    "origin",
    ".",
]

OTHER_RULES = {
    "deny": "read(/etc/shadow) read(/root:*) edit(/etc:*) mcp__*__delete_* web_fetch(!https://docs.example.com:*)",
    "ask": "edit(/repo/.github:*) mcp__* web_fetch",
    "allow": "read(/repo:*) edit(/repo/src:*) edit(/repo/tests:*) read(/usr/share:*) grep glob",
}
MATCHERS = {
    "bash": {"match": "glob", "field": "command"},
    "read": {"match": "prefix", "field": "path"},
    "edit": {"match": "prefix", "field": "path"},
    "web_fetch": {"match": "prefix", "field": "url"},
}


def _words(rng: random.Random) -> str:
    program = rng.choice(PROGRAMS)
    return f"{program} {rng.choice(VERBS[program])}"


def _spec(rng: random.Random, i: int) -> str:
    roll = rng.random()
    base = _words(rng)
    if roll < 0.35:
        return f"{base} t{i}"  # exact
    if roll < 0.85:
        return f"{base} t{i}:*"  # word prefix
    if roll < 0.92:
        return f"{base} * {rng.choice(FLAGS)}{i}"  # inner glob, literal tail
    return f"{base} t{i} *"  # inner glob, open tail


def synthetic_bundle(n: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    lists = {rank: {"deny": [], "ask": [], "allow": []} for rank in (3, 1, 0)}
    for i in range(n):
        rank = rng.choice((3, 1, 0))
        action = rng.choices(("deny", "ask", "allow"), weights=(2, 1, 4))[0]
        spec = _spec(rng, i)
        if rng.random() < 0.05:
            spec = "!" + spec.removesuffix(":*") + " --dry-run"
        lists[rank][action].append(f"bash({spec})")
    names = {3: "managed", 1: "project", 0: "user"}
    sources = [
        {
            "name": names[rank],
            "rank": rank,
            "trusted": True,
            **{a: " ".join(r) for a, r in lists[rank].items() if r},
        }
        for rank in (3, 1, 0)
    ]
    return {"matchers": MATCHERS, "sources": sources, **OTHER_RULES, "default": "ask"}


def realistic_bundle() -> dict:
    """A few hundred rules, written the way teams write them."""
    allow, ask, deny = [], [], []
    for program, verbs in VERBS.items():
        for verb in verbs:
            if program in ("rm", "curl"):
                deny.append(f"bash({program} {verb}:*)")
            elif verb in ("push", "publish", "apply", "delete", "destroy", "release"):
                ask.append(f"bash({program} {verb}:*)")
            else:
                allow.append(f"bash({program} {verb}:*)")
                allow.append(f"bash({program} {verb})")
        allow.append(f"bash({program} --version) bash({program} --help)")
    for i in range(120):
        allow.append(f"bash(make target{i}) bash(npm run script{i}:*)")
    deny += [
        "bash(git push * --force:*)",
        "bash(* | sh) bash(* | bash) bash(git push:*) bash(!git push --dry-run:*)",
    ]
    ask += ["bash(sudo:*) bash(ssh:*) bash(scp:*)"]
    sources = [
        {"name": "managed", "rank": 3, "trusted": True, "deny": " ".join(deny)},
        {"name": "project", "rank": 1, "trusted": True, "ask": " ".join(ask)},
        {"name": "user", "rank": 0, "trusted": True, "allow": " ".join(allow)},
    ]
    return {"matchers": MATCHERS, "sources": sources, **OTHER_RULES, "default": "ask"}


def _rule_specs(bundle: dict) -> list[str]:
    from policyc.runtime.rules import parse_rules

    out = []
    for source in bundle["sources"]:
        for action in ("deny", "ask", "allow"):
            out += [
                r.pattern
                for r in parse_rules(source.get(action, ""))
                if r.tool == "bash" and r.spec
            ]
    return out


def glob_values(bundle: dict, k: int = 3000) -> list[tuple[str, dict]]:
    """`bash` calls that the policy's inner globs match: each glob rule's
    `*` filled with `x`, up to `k` of them, in the rules' order. `policyc
    bench` makes many of its calls this way; the suite's calls rarely are."""
    specs = [
        spec.removesuffix(":*")
        for spec in _rule_specs(bundle)
        if "*" in spec.removesuffix(":*") and not spec.startswith("!")
    ]
    return [("bash", {"command": spec.replace("*", "x")}) for spec in specs[:k]]


# What each kind of call in `calls` is, for the benchmark's table by kind.
KINDS = {
    "named": "bash, a command some rule names",
    "unnamed": "bash, words no rule names",
    "long": "bash, a long command",
    "path": "read and edit",
    "url": "web_fetch",
    "other": "MCP tools",
}


def labelled_calls(bundle: dict, k: int = 10_000, seed: int = 11) -> list[tuple[str, str, dict]]:
    """`calls`, each with its kind (a key of KINDS) first."""
    rng = random.Random(seed)
    specs = _rule_specs(bundle)
    out: list[tuple[str, str, dict]] = []
    for _ in range(k):
        roll = rng.random()
        if roll < 0.45 and specs:  # a hit: a command some rule names
            spec = rng.choice(specs).removesuffix(":*").replace("*", rng.choice(FLAGS))
            if rng.random() < 0.5:
                spec += " " + rng.choice(FLAGS)
            out.append(("named", "bash", {"command": spec}))
        elif roll < 0.70:  # a miss: words no rule names
            command = f"{_words(rng)} x{rng.randrange(10**6)} {rng.choice(FLAGS)}"
            out.append(("unnamed", "bash", {"command": command}))
        elif roll < 0.75:  # a long command
            body = " ".join(rng.choice(FLAGS) for _ in range(60))
            out.append(("long", "bash", {"command": f"{_words(rng)} {body}"}))
        elif roll < 0.85:
            tool = rng.choice(("read", "edit"))
            path = rng.choice(
                ("/repo/src/", "/repo/.github/", "/etc/", "/root/", "/usr/share/", "/tmp/")
            )
            out.append(("path", tool, {"path": path + f"f{rng.randrange(1000)}"}))
        elif roll < 0.92:
            url = rng.choice(("https://docs.example.com/a", "https://evil.example.net/x"))
            out.append(("url", "web_fetch", {"url": url}))
        else:
            server = rng.choice(("github", "linear", "fs"))
            verb = rng.choice(("get_issue", "delete_repo", "list"))
            out.append(("other", f"mcp__{server}__{verb}", {}))
    return out


def calls(bundle: dict, k: int = 10_000, seed: int = 11) -> list[tuple[str, dict]]:
    """`k` seeded calls mixing hits, misses, long commands and other tools."""
    return [(tool, args) for _, tool, args in labelled_calls(bundle, k, seed)]
