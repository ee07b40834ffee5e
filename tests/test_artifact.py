"""The artifact: round trip, determinism, and every refusal of `load`."""

from __future__ import annotations

import json

import pytest

import policyc
from policyc.runtime import ArtifactError, load
from policyc.runtime.artifact import BODY_MARK, body_digest

BUNDLE = {
    "matchers": {
        "bash": {"match": "glob", "field": "command"},
        "read": {"match": "prefix", "field": "path"},
    },
    "aliases": {"Bash": ["bash"]},
    "sources": [
        {
            "name": "managed",
            "rank": 3,
            "trusted": True,
            "deny": "Bash(curl:*)",
            "notes": {"Bash(curl:*)": "proxied"},
        },
        {
            "name": "repo",
            "rank": 1,
            "trusted": False,
            "allow": "Bash(npm test)",
            "deny": "read(!.env.example)",
        },
    ],
    "deny": "read(.env:*) mcp__*",
    "ask": "bash",
    "allow": "read bash(git status:*) bash(git * main)",
    "default": "ask",
}


@pytest.fixture
def artifact() -> bytes:
    return policyc.compile_text(json.dumps(BUNDLE), "b.json")


def test_compilation_is_deterministic(artifact):
    again = policyc.compile_text(json.dumps(BUNDLE), "b.json")
    assert again == artifact


def test_header_and_body(artifact):
    doc = json.loads(artifact)
    assert doc["magic"] == "policyc"
    assert doc["format_version"] == 1
    assert doc["compiler"].startswith("policyc ")
    assert len(doc["inputs_sha256"]) == 64
    assert artifact.endswith(b"}\n") and artifact.count(b"\n") == 1


def test_inputs_digest_follows_the_input(artifact):
    other = dict(BUNDLE, default="deny")
    assert (
        json.loads(policyc.compile_text(json.dumps(other), "b.json"))["inputs_sha256"]
        != json.loads(artifact)["inputs_sha256"]
    )


def test_round_trip_through_a_file(tmp_path, artifact):
    path = tmp_path / "a.json"
    path.write_bytes(artifact)
    table = load(path)
    assert table.decide("bash", {"command": "curl x"}).reason == "denied by bash(curl:*): proxied"
    assert (
        table.decide("bash", {"command": "git push origin main"}).action == "defer"
    )  # the bare ask wins over allow
    assert [str(r) for r in table.withheld] == ["bash(npm test)"]
    assert [s.name for s in table.sources] == ["", "managed", "repo"]
    assert load(str(path)).decide("read", {"path": ".env"}).action == "block"


def _rewrite_header(artifact: bytes, **changes) -> bytes:
    at = artifact.find(BODY_MARK)
    header = json.loads(artifact[:at] + b"}")
    header.update(changes)
    head = json.dumps(header, separators=(",", ":")).encode()[:-1]
    return head + artifact[at:]


def test_refuses_a_wrong_magic(artifact):
    with pytest.raises(ArtifactError, match="not a policyc artifact"):
        load(_rewrite_header(artifact, magic="opa"))


def test_refuses_an_unknown_format_version(artifact):
    with pytest.raises(ArtifactError, match="format version 3"):
        load(_rewrite_header(artifact, format_version=3))
    with pytest.raises(ArtifactError, match="format version"):
        load(_rewrite_header(artifact, format_version="1"))
    with pytest.raises(ArtifactError, match="format version"):
        load(_rewrite_header(artifact, format_version=True))


def test_an_artifact_a_runtime_would_read_looser_is_marked_for_it_to_refuse():
    """A shell tool whose fetches go to a URL tool (`fetch=web`) is version 2:
    a runtime that reads only 1 would drop the setting and let `curl
    https://evil.com` past `deny web(evil.com)`; it refuses the artifact.
    Without one, the artifact stays version 1, as before."""
    text = "default allow\ntool bash glob(command) split shell fetch=web\ntool web domain(url)\n"
    text += "deny web(evil.com)\n"
    fetching = policyc.compile_text(text, "t.policy")
    assert json.loads(fetching.split(BODY_MARK)[0] + b"}")["format_version"] == 2
    assert load(fetching).decide("bash", {"command": "curl evil.com"}).action == "block"
    plain = policyc.compile_text(text.replace(" fetch=web", ""), "t.policy")
    assert json.loads(plain.split(BODY_MARK)[0] + b"}")["format_version"] == 1
    assert load(plain).decide("bash", {"command": "curl evil.com"}).action == "allow"


def test_refuses_a_body_that_does_not_match_its_digest(artifact):
    tampered = artifact.replace(b'"default":"ask"', b'"default":"allow"')
    assert tampered != artifact
    with pytest.raises(ArtifactError, match="digest"):
        load(tampered)


def test_a_body_over_a_mebibyte_is_checked_by_the_same_digest():
    # Bodies from 1 MiB on are digested by OpenSSL's SHA-256, smaller ones by
    # the interpreter's own: the two must agree, and a tampered large body
    # must be refused like a small one.
    import hashlib

    for size in (0, 1, 1024 * 1024 - 1, 1024 * 1024, 3 * 1024 * 1024 + 7):
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        assert body_digest(data) == hashlib.sha256(data).hexdigest()
    bundle = json.loads(json.dumps(BUNDLE))
    bundle["sources"][0]["notes"]["Bash(curl:*)"] = "proxied " + "p" * (1024 * 1024)
    big = policyc.compile_text(json.dumps(bundle), "b.json")
    assert len(big) > 1024 * 1024
    verdict = load(big).decide("bash", {"command": "curl x"})
    assert verdict.action == "block" and verdict.rule == "bash(curl:*)"
    tampered = big.replace(b"proxied ppp", b"proxied ppq", 1)
    assert tampered != big
    with pytest.raises(ArtifactError, match="digest"):
        load(tampered)


def test_refuses_a_truncated_file(artifact):
    for cut in (1, 10, len(artifact) // 2, len(artifact) - 3):
        with pytest.raises(ArtifactError):
            load(artifact[:cut])


def test_refuses_empty_and_non_json(tmp_path):
    for blank in (b"", b" \n\t\r\n"):
        with pytest.raises(ArtifactError, match="empty"):
            load(blank)
    with pytest.raises(ArtifactError, match="not JSON"):
        load(b"\x00\xff garbage")
    with pytest.raises(ArtifactError, match="not a policyc artifact"):
        load(b"[1, 2]")


def test_refuses_a_body_that_is_not_a_table():
    body = b'{"default":"ask"}'
    doc = (
        b'{"magic":"policyc","format_version":1,"compiler":"x","inputs_sha256":"","body_sha256":"'
        + body_digest(body).encode()
        + b'"'
        + BODY_MARK
        + body
        + b"}\n"
    )
    with pytest.raises(ArtifactError, match="does not describe a decision table"):
        load(doc)


def test_refuses_an_unreadable_path(tmp_path):
    with pytest.raises(ArtifactError, match="cannot read"):
        load(tmp_path / "missing.json")
