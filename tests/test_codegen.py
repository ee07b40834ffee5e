"""The generated-code backend: golden output, determinism, integrity, and agreement."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import policyc
from policyc.compiler.codegen import generate_module
from policyc.errors import PolicyErrors
from policyc.grammar import parse_bundle
from policyc.reference import ReferenceBuildError, ReferenceEngine
from policyc.runtime import ArtifactError, fast, load
from policyc.runtime.generated import EXPORTS

from .strategies import (
    PREFIX_SPECS,
    TAIL_SPECS,
    as_host_types,
    bundles,
    calls,
    values,
    walk_bundles,
)

GOLDEN = Path(__file__).parent / "golden"
SMALL = """\
default ask
tool bash glob(command)
tool read prefix(path)
source org rank 2 trusted {
  deny bash(rm:*) read(/etc:*)
  deny read(!/etc/hosts)
  ask bash(git push * main)
}
allow bash(git status) bash(git log:*) read
"""


def _module(text: str = SMALL, file: str = "small.policy") -> str:
    return generate_module(policyc.compile_text(text, file))


def test_golden_module():
    """Regenerate with: python -c 'from tests.test_codegen import _module; print(_module(), end="")' > tests/golden/small_policy.py"""
    assert _module() == (GOLDEN / "small_policy.py").read_text()


def test_generation_is_deterministic():
    assert _module() == _module()


def test_the_module_imports_only_the_exported_names():
    tree = ast.parse(_module())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert len(imports) == 1
    (node,) = imports
    assert isinstance(node, ast.ImportFrom) and node.module == "policyc.runtime.generated"
    assert {a.name for a in node.names} <= set(EXPORTS)


def test_loads_like_an_artifact_and_decides_like_it(tmp_path):
    path = tmp_path / "small_policy.py"
    path.write_text(_module())
    generated = load(path)
    table = load(policyc.compile_text(SMALL, "small.policy"))
    probes = [
        ("bash", {"command": "git status"}),
        ("bash", {"command": "git push -f main"}),
        ("bash", {"command": "rm -rf /"}),
        ("read", {"path": "/etc/hosts"}),
        ("read", {"path": "/etc/passwd"}),
        ("read", {"path": "/src"}),
        ("mcp__x", {}),
        ("bash", None),
    ]
    for tool, args in probes:
        assert generated.decide(tool, args) == table.decide(tool, args)
        assert generated.decide(tool, args, confined="box") == table.decide(
            tool, args, confined="box"
        )
    batch = [{"tool": t, "args": a} for t, a in probes]
    assert generated.decide_batch(batch) == table.decide_batch(batch)
    assert generated.offer(["bash", "read"]) == ["bash", "read"]


def test_an_edited_module_is_refused(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(_module().replace("'allow'", "'block'"))
    with pytest.raises(ArtifactError, match="digest"):
        load(path)
    path.write_text("print('hello')\n")
    with pytest.raises(ArtifactError, match="not a policyc generated module"):
        load(path)


@settings(max_examples=120, deadline=None)
@given(
    data=bundles(),
    probe=st.lists(calls(), min_size=1, max_size=8),
    lengths=st.sampled_from([fast._PROBE_LENGTHS, 0]),
)
def test_generated_code_agrees_with_the_reference(tmp_path_factory, data, probe, lengths):
    """Prefix tools generated either way: probed by key length, or a character trie."""
    bundle = parse_bundle(json.dumps(data), "b.json")
    try:
        artifact = policyc.compile_text(json.dumps(data), "b.json")
    except PolicyErrors:
        return
    try:
        reference = ReferenceEngine(bundle)
    except ReferenceBuildError:
        raise AssertionError("the reference refused a bundle the compiler built") from None
    path = tmp_path_factory.mktemp("gen") / "m.py"
    with patch.object(fast, "_PROBE_LENGTHS", lengths):
        path.write_text(generate_module(artifact))
    generated = load(path)
    for call in probe:
        kwargs = dict(confined=call.get("confined"), subjects=call.get("subjects"))
        assert generated.decide(call["tool"], call["args"], **kwargs) == reference.decide(
            call["tool"], call["args"], **kwargs
        )


@settings(max_examples=200, deadline=None)
@given(
    data=st.one_of(
        walk_bundles(), walk_bundles(TAIL_SPECS), walk_bundles(PREFIX_SPECS, matcher="prefix")
    ),
    commands=st.lists(values, min_size=1, max_size=8),
    lengths=st.sampled_from([fast._PROBE_LENGTHS, 0]),
)
def test_generated_walks_agree_with_the_reference(tmp_path_factory, data, commands, lengths):
    """Dense in the walks' cases (one tool, many rules, plain calls), as for the runtime."""
    try:
        artifact = policyc.compile_text(json.dumps(data), "b.json")
    except PolicyErrors:
        return
    reference = ReferenceEngine(parse_bundle(json.dumps(data), "b.json"))
    path = tmp_path_factory.mktemp("gen") / "m.py"
    with patch.object(fast, "_PROBE_LENGTHS", lengths):
        path.write_text(generate_module(artifact))
    generated = load(path)
    for command in commands:
        args = {"command": command}
        assert generated.decide("bash", args) == reference.decide("bash", args), command
        assert generated.decide("bash", as_host_types(args)) == reference.decide("bash", args)
    batch = [{"tool": "bash", "args": {"command": command}} for command in commands]
    assert generated.decide_batch(batch) == reference.decide_batch(batch)
