"""The compiler: an explicit, ordered table of named stages.

    Bundle --expand_aliases--> Bundle --merge_sources--> MergedPolicy
           --resolve_anchors--> MergedPolicy --canonical_commands--> MergedPolicy
           --validate--> MergedPolicy --order_rows--> MergedPolicy
           --build_index--> DecisionTable --encode_artifact--> bytes
           --check_examples--> bytes

Each stage is a plain function, callable alone (tests do). `compile_bundle`
runs them in order; a stage that finds problems raises `PolicyErrors` with
every problem it found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..grammar.ast import Bundle
from ..runtime.bulk import gc_paused
from .artifact import encode_artifact
from .examples import check_examples
from .index import build_index, order_rows
from .ir import DecisionTable
from .merge import canonical_commands, expand_aliases, merge_sources, resolve_anchors
from .validate import validate


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable
    doc: str


STAGES: tuple[Stage, ...] = (
    Stage(
        "expand_aliases", expand_aliases, "one rule per aliased tool; the alias table is checked"
    ),
    Stage(
        "merge_sources", merge_sources, "sources by rank; rules stamped; untrusted allows withheld"
    ),
    Stage("resolve_anchors", resolve_anchors, "`@/` path patterns against their source's folder"),
    Stage(
        "canonical_commands",
        canonical_commands,
        "command rules written as the shell splitter writes a part",
    ),
    Stage("validate", validate, "the build errors of SPEC section 4"),
    Stage("order_rows", order_rows, "deny, ask, allow; merge order within each list"),
    Stage("build_index", build_index, "carve-outs into row guards; a per-tool index per list"),
)


def build_table(bundle: Bundle) -> DecisionTable:
    """Run the stages up to the decision table."""
    value: object = bundle
    for stage in STAGES:
        value = stage.run(value)
    assert isinstance(value, DecisionTable)
    return value


def compile_bundle(bundle: Bundle, inputs_sha256: str) -> bytes:
    """All stages: bundle in, checked artifact bytes out."""
    return gc_paused(_all_stages, bundle, inputs_sha256)


def _all_stages(bundle: Bundle, inputs_sha256: str) -> bytes:
    table = build_table(bundle)
    artifact = encode_artifact(table, inputs_sha256)
    return check_examples(artifact, bundle)


STAGE_NAMES = tuple(s.name for s in STAGES) + ("encode_artifact", "check_examples")
