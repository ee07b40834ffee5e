"""A bounded memo for pure functions of hashable arguments.

`functools.lru_cache` would do, but importing functools costs a hook process
about 0.7 ms of its start-up (`python -X importtime`), and the runtime needs
neither recency order nor statistics: when the memo is full it starts over.
Concurrent callers may compute a value twice; they never see a wrong one.
"""

from __future__ import annotations

_MISSING = object()


def memo(maxsize: int):
    def wrap(fn):
        table: dict = {}

        def cached(*args):
            hit = table.get(args, _MISSING)
            if hit is _MISSING:
                hit = fn(*args)
                if len(table) >= maxsize:
                    table.clear()
                table[args] = hit
            return hit

        cached.__wrapped__ = fn
        cached.__doc__ = fn.__doc__
        cached.__name__ = fn.__name__
        return cached

    return wrap
