"""Stage `check_examples`: artifact bytes -> artifact bytes, or the failing examples.

The examples are decided by the runtime loading the very bytes about to be
written, so a passing compile proves the artifact itself gives the verdicts the
bundle promises.
"""

from __future__ import annotations

from ..errors import PolicyError, PolicyErrors
from ..grammar.ast import Bundle
from ..runtime.artifact import load


class ExamplesFailed(PolicyErrors):
    """The bundle compiled, but some of its own examples get another verdict."""


def _got(verdict, key: str) -> object:
    if key == "rule":
        return verdict.rule or ""
    return getattr(verdict, key)


def check_examples(artifact: bytes, bundle: Bundle) -> bytes:
    if not bundle.examples:
        return artifact
    table = load(artifact)
    failures = []
    for example in bundle.examples:
        verdict = table.decide(
            example.tool, example.args, confined=example.confined, subjects=example.subjects
        )
        wrong = {k: (v, _got(verdict, k)) for k, v in example.want.items() if _got(verdict, k) != v}
        if wrong:
            detail = "; ".join(f"{k}: want {w!r}, got {g!r}" for k, (w, g) in wrong.items())
            failures.append(
                PolicyError(
                    "example_failed",
                    f"example {example.name!r} fails: {detail}",
                    example.span,
                    f"the call {example.tool} {example.args!r} gets: {verdict.reason}",
                )
            )
    if failures:
        raise ExamplesFailed(failures)
    return artifact
