"""Every conformance case, on every backend."""

from __future__ import annotations

import json

import pytest

from policyc.conformance import FixtureError, Report, fixture_kind, run_file

from .conftest import CORPUS

FILES = sorted(CORPUS.rglob("*.json"))


def test_the_vendored_corpus_is_present():
    names = {p.name for p in (CORPUS / "agentpolicy").glob("*.json")}
    assert names == {"grammar.json", "matchers.json", "decisions.json"}


@pytest.mark.parametrize("backend", ["compiled", "reference"])
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus(path, backend):
    report = run_file(path, backend)
    failures = "\n".join(f"{f.case}: {f.detail}" for f in report.failures)
    assert not report.failures, failures
    assert report.passed == len(json.loads(path.read_text())["cases"])


def test_unknown_members_are_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"cases": [{"name": "x", "input": "", "rules": [], "extra": 1}]}))
    with pytest.raises(FixtureError, match="extra"):
        run_file(path)


def test_unknown_members_in_a_want_are_refused(tmp_path):
    case = {
        "name": "x",
        "policy": {"default": "allow"},
        "calls": [{"tool": "t", "args": {}, "want": {"action": "allow", "verdict": "yes"}}],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"cases": [case]}))
    with pytest.raises(FixtureError, match="verdict"):
        run_file(path)


def test_a_wrong_want_is_reported_not_passed(tmp_path):
    case = {
        "name": "wrong on purpose",
        "policy": {"default": "deny"},
        "calls": [{"tool": "t", "args": {}, "want": {"action": "allow"}}],
    }
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps({"cases": [case]}))
    for backend in ("compiled", "reference"):
        report = run_file(path, backend, Report())
        assert report.passed == 0 and len(report.failures) == 1
        assert "denied by default" in report.failures[0].detail


def test_fixture_kind_is_read_from_content():
    assert fixture_kind({"cases": [{"input": "x"}]}) == "grammar"
    assert fixture_kind({"cases": [{"matcher": "glob"}]}) == "matchers"
    assert fixture_kind({"cases": [{"policy": {}}]}) == "decisions"
    with pytest.raises(FixtureError):
        fixture_kind({"cases": [{"what": 1}]})
    with pytest.raises(FixtureError):
        fixture_kind([])
