"""Built-in splitters: a call's args into the subjects a policy decides.

A bundle names one per tool (`split shell`); `split` alone means the host
supplies the subjects. Each built-in is standard library only. A splitter
that cannot evaluate its input raises `SplitError`, and the call is blocked
with that reason (SPEC section 6: fail closed).
"""

from __future__ import annotations

from collections.abc import Callable

from ..matchers import field_value
from .shell import ShellConfig, SplitError
from .shell import split as split_shell

BUILTIN = ("shell",)

Splitter = Callable[[object], list]


def make_splitter(tool: str, spec, tools: dict) -> Splitter | None:
    """The subject function for `tool`, or None when the host supplies subjects."""
    if spec.split is True or not spec.split:
        return None
    if spec.split != "shell":
        raise ValueError(f"unknown splitter {spec.split!r}")
    field = spec.field or "command"
    write_tool = spec.write or "edit"
    read_tool = spec.read or "read"

    def target_field(name: str) -> str:
        target = tools.get(name)
        return target.field if target is not None and target.match and target.field else "path"

    config = ShellConfig(
        field, write_tool, target_field(write_tool), read_tool, target_field(read_tool)
    )

    def shell(args: object) -> list:
        value = field_value(args, field)
        if value is None:
            raise SplitError(f"the {field} argument is missing or not a string")
        return split_shell(value, config)

    return shell


__all__ = ["BUILTIN", "ShellConfig", "SplitError", "make_splitter", "split_shell"]
