"""The reference matchers (SPEC section 2) and tool-name globs.

A matcher reads one string member of the args object. Each function here is
total: any JSON value gives True or False, never an exception.

For the index, `classify` sorts a specifier into the cheapest structure that
decides it exactly:

    kind      prefix matcher            glob matcher
    exact     `git status`              `git status` (no `*`)
    prefix    `git:*` (characters)      -
    word      -                         `git:*` (`git` or `git ...`)
    any       `:*`                      `:*`
    pattern   -                         anything with an inner `*`
"""

from __future__ import annotations

from .domains import domain_spec
from .memo import memo
from .paths import plain_str
from .star import StarPattern

MATCHERS = ("prefix", "glob", "path", "domain")


def field_value(args: object, field: str) -> str | None:
    """The string a matcher reads, or None when it matches nothing.

    A dict or str subclass (an OrderedDict from a host, say) reads as the
    plain value it holds, through the base type's methods, as the reference
    reads it: read as "no value", a deny rule would not match it.
    """
    if type(args) is dict:
        value = args.get(field)
    elif isinstance(args, dict):
        value = dict.get(args, field)
    else:
        return None
    return value if type(value) is str else plain_str(value)


class GlobSpec:
    """The glob matcher's spec: `*` anywhere, a trailing `:*` at a word boundary.

    `fullmatch` answers True or None, as a compiled regex would.
    """

    __slots__ = ("forms", "anything")

    def __init__(self, spec: str) -> None:
        self.anything = spec == ":*"
        if spec.endswith(":*"):
            head = spec[:-2]
            self.forms = (StarPattern(head), StarPattern(head + " *"))
        else:
            self.forms = (StarPattern(spec),)

    def fullmatch(self, value: str) -> bool | None:
        if self.anything:
            return True
        # A loop, not `any` over a generator: that cost each check ~0.5 us
        # more than the match itself (timeit, one form: 959 -> 448 ns).
        for form in self.forms:
            if form.match(value):
                return True
        return None


def literal_ends(spec: str) -> tuple[str, str]:
    """The literal text a glob spec's matches must start and end with.

    `git * main` -> ("git ", " main"); a trailing `:*` leaves the end open.
    """
    body = spec[:-2] if spec.endswith(":*") else spec
    head = body[: body.index("*")] if "*" in body else body
    if spec.endswith(":*") or body.endswith("*"):
        return head, ""
    return head, body[body.rindex("*") + 1 :]


@memo(maxsize=65536)  # built on first use: loading a table builds nothing
def compile_glob(spec: str) -> GlobSpec:
    return GlobSpec(spec)


def classify(kind: str, spec: str) -> tuple[str, str]:
    """Sort a spec into (index kind, key); see the module docstring."""
    if kind == "path":
        return "path", spec
    if kind == "domain":
        parsed = domain_spec(spec)
        if parsed is None:
            return "never", ""
        return ("exact", parsed[1]) if parsed[0] == "exact" else ("subdomain", parsed[1])
    if spec == ":*":
        return "any", ""
    if kind == "prefix":
        if spec.endswith(":*"):
            return "prefix", spec[:-2]
        return "exact", spec
    if "*" not in spec:
        return "exact", spec
    if spec.endswith(":*") and "*" not in spec[:-2]:
        return "word", spec[:-2]
    return "pattern", spec


_TOOL_GLOBS: dict[str, StarPattern] = {}


def tool_matches(name: str, tool: object) -> bool:
    """The one tool-name test: same name, or a glob (`*` = any run) matching it.

    Nothing folds case. The offer and the decision both use this.
    """
    if type(tool) is not str:
        return False
    if "*" not in name:
        return name == tool
    compiled = _TOOL_GLOBS.get(name)
    if compiled is None:
        compiled = StarPattern(name)
        if len(_TOOL_GLOBS) < 4096:
            _TOOL_GLOBS[name] = compiled
    return compiled.match(tool)
