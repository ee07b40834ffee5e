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
