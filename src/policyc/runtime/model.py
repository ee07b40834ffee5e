"""The runtime's small value types: sources and rules.

These are what a rule list parses into and what an artifact stores, so they
live in the runtime (standard library only); the compiler builds on them.
"""

from __future__ import annotations

from collections import namedtuple

# Named tuples and a slotted class rather than dataclasses: importing
# dataclasses (and the inspect module it pulls in) would be most of a
# hook's start-up time.


_Source = namedtuple("Source", "name rank trusted path hash", defaults=("", 0, True, "", ""))


class Source(_Source):
    """Where rules came from. Higher rank = more authority.

    The zero source (no name, rank 0) is the host's own: it counts as
    trusted for notes.
    """

    __slots__ = ()

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "rank": self.rank,
            "trusted": self.trusted,
            "path": self.path,
            "hash": self.hash,
        }


HOST = Source()


class Rule:
    """One token of the rule grammar, stamped with its source and note.

    `spec` is None for a bare rule. Two rules differing only in their notes
    are the same rule, so `note` takes no part in equality. Immutable.
    """

    __slots__ = ("tool", "spec", "source", "note")

    def __init__(
        self, tool: str, spec: str | None = None, source: Source = HOST, note: str = ""
    ) -> None:
        # Through the slots' own setters, bound once below: a load makes a
        # Rule per rule, and at 100,000 rules `object.__setattr__` by name
        # took 154 ms of them, these 107 (best of five, this machine).
        _set_tool(self, tool)
        _set_spec(self, spec)
        _set_source(self, source)
        _set_note(self, note)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Rule is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule):
            return NotImplemented
        return (self.tool, self.spec, self.source) == (other.tool, other.spec, other.source)

    def __hash__(self) -> int:
        return hash((self.tool, self.spec, self.source))

    def __repr__(self) -> str:
        return f"Rule(tool={self.tool!r}, spec={self.spec!r}, source={self.source!r}, note={self.note!r})"

    @property
    def bare(self) -> bool:
        return self.spec is None

    @property
    def glob(self) -> bool:
        return "*" in self.tool

    @property
    def carve_out(self) -> bool:
        return self.spec is not None and self.spec.startswith("!")

    @property
    def pattern(self) -> str | None:
        """The text a matcher reads: the spec, without a carve-out's `!`."""
        if self.spec is None:
            return None
        return self.spec[1:] if self.spec.startswith("!") else self.spec

    def __str__(self) -> str:
        return self.tool if self.spec is None else f"{self.tool}({self.spec})"

    def cited(self, text: str | None = None) -> str:
        """`R`, or `R: note` when the note may be read to the model.

        `text`: `str(self)`, where the caller has made it already.
        """
        if text is None:
            text = str(self)
        if self.note and (self.source.trusted or not self.source.name):
            return f"{text}: {self.note}"
        return text


_set_tool = Rule.tool.__set__  # type: ignore[attr-defined]
_set_spec = Rule.spec.__set__  # type: ignore[attr-defined]
_set_source = Rule.source.__set__  # type: ignore[attr-defined]
_set_note = Rule.note.__set__  # type: ignore[attr-defined]


def rules_from_json(entries: list, sources: list[Source]) -> list[Rule]:
    """Rules from an artifact's `[tool, spec, source id]` entries (and a note).

    What `Rule(...)` does, with the setters held in locals: a load makes every
    rule of the policy here, and at 100,000 rules this took 86 ms where
    calling `Rule` took 113 (best of seven, the README's Intel Xeon).
    """
    new, set_tool, set_spec, set_source, set_note = (
        Rule.__new__,
        _set_tool,
        _set_spec,
        _set_source,
        _set_note,
    )
    out = []
    append = out.append
    for entry in entries:
        rule = new(Rule)
        set_tool(rule, entry[0])
        set_spec(rule, entry[1])
        set_source(rule, sources[entry[2]])
        set_note(rule, entry[3] if len(entry) > 3 else "")
        append(rule)
    return out
