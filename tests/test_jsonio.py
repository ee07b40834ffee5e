"""The hook's JSON reader and quoter agree with the json module, value for value and error for error."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from policyc.runtime import jsonio

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def outcome(read, text):
    try:
        return "value", repr(read(text))
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        return "error", str(exc)


@settings(max_examples=300, deadline=None)
@given(value=values, indent=st.sampled_from([None, 1]), pad=st.sampled_from(["", " ", "\n\t"]))
def test_reads_what_json_writes(value, indent, pad):
    text = pad + json.dumps(value, indent=indent, ensure_ascii=False) + pad
    assert outcome(jsonio.loads, text) == outcome(json.loads, text)
    assert outcome(jsonio.loads, text.encode()) == outcome(json.loads, text.encode())


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet='{}[]":,. \n0123456789eE+-truefalsnNaIiy\\u\x01\ufeff', max_size=12))
def test_fails_where_json_fails_with_the_same_message(text):
    assert outcome(jsonio.loads, text) == outcome(json.loads, text)


@given(text=st.text())
def test_quote_is_json_dumps(text):
    assert jsonio.quote(text) == json.dumps(text)
    assert json.loads(jsonio.quote(text)) == text


def test_input_nested_too_deeply_is_an_input_error_everywhere(tmp_path):
    # json raises RecursionError, which no caller reported as the input's
    # fault: it escaped `policyc compile`, `decide` and `load` as a traceback.
    import pytest

    import policyc
    from policyc.errors import PolicyErrors
    from policyc.hook import decide as hook_decide
    from policyc.runtime import ArtifactError

    deep = "[" * 100_000
    with pytest.raises(json.JSONDecodeError, match="nested too deeply"):
        jsonio.loads(deep)
    with pytest.raises(PolicyErrors, match="nested too deeply"):
        policyc.compile_text(deep, "deep.json")
    with pytest.raises(ArtifactError, match="nested too deeply"):
        policyc.load(b'{"policyc":' + deep.encode())
    artifact = tmp_path / "a.json"
    artifact.write_bytes(policyc.compile_text('{"default": "allow"}', "b.json"))
    payload = '{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": ' + deep
    answer = json.loads(hook_decide(payload.encode(), str(artifact)))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "nested too deeply" in answer["hookSpecificOutput"]["permissionDecisionReason"]
