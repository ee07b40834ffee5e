"""The shell splitter's words, and the error it raises: shared by the
parser (`shell`) and the readers of what programs run (`programs`)."""

from __future__ import annotations

from collections import namedtuple


class SplitError(ValueError):
    """The command cannot be evaluated statically; the reason is read to the model."""


_Word = namedtuple("Word", "value start end expands quoted", defaults=(False, False))


class Word(_Word):
    """A word after quote removal, where it stands, whether it holds an
    unquoted or double-quoted `$` expansion, and whether any of it was quoted."""

    __slots__ = ()


# `Word(...)` goes through the named tuple's `__new__`, a Python frame; the
# lexer makes most of its words with this instead (all five fields given).
new_word = tuple.__new__
