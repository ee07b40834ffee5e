"""JSON for the hook's start-up path: the json module's own C scanner, without the json module.

`import json` imports `re` (and with it `enum` and `functools`): about 7 ms
of a `policyc hook` process that otherwise starts in about 12 ms (measured,
`python -m benchmarks.hook_startup`). The scanner and string encoder that
`json` itself uses live in the `_json` extension, which imports nothing; this
module calls them directly and falls back to `json` where `_json` is missing
(another Python implementation). The accepted language and the errors are
the json module's: the same scanner reads the text, and an error raises its
`JSONDecodeError` (a ValueError).
"""

from __future__ import annotations

try:
    import _json
except ImportError:  # pragma: no cover - CPython always builds _json
    _json = None


class _Context:
    """The settings `json.JSONDecoder()` passes its scanner, defaults all."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


_WHITESPACE = " \t\n\r"


def loads(data: bytes | str) -> object:
    """`json.loads` for UTF-8 bytes or text.

    Text nested deeper than the scanner can recurse raises JSONDecodeError
    too, not RecursionError: every caller reports a JSONDecodeError as the
    input's fault, and a RecursionError escaped them as a traceback.
    """
    text = data.decode("utf-8") if isinstance(data, bytes | bytearray) else data
    try:
        return _scan(text)
    except RecursionError:
        import json

        raise json.JSONDecodeError("nested too deeply to read", text, 0) from None


def _scan(text: str) -> object:
    if _json is None or text.startswith("\ufeff"):  # pragma: no cover - no _json
        return _json_loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _json.make_scanner(_Context)(text, start)
    except Exception:
        # The scanner reports a syntax error through `json.decoder`, which it
        # expects imported: on this (error) path, let `json` read the text and
        # raise its own JSONDecodeError.
        return _json_loads(text)
    if end < len(text.rstrip(_WHITESPACE)):
        return _json_loads(text)  # "Extra data"
    return value


def quote(text: str) -> str:
    """A JSON string literal for `text` (non-ASCII escaped, as `json.dumps` does by default)."""
    if _json is None:  # pragma: no cover
        import json

        return json.dumps(text)
    return _json.encode_basestring_ascii(text)


def _json_loads(text: str) -> object:
    import json

    return json.loads(text)
