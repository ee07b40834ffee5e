"""Built-in splitters: a call's args into the subjects a policy decides.

A bundle names one per tool (`split shell`); `split` alone means the host
supplies the subjects. Each built-in is standard library only. A splitter
that cannot evaluate its input raises `SplitError`, and the call is blocked
with that reason (SPEC section 6: fail closed).
"""

from __future__ import annotations

from collections.abc import Callable

from ..domains import domain_spec, url_host
from ..matchers import field_value
from ..paths import PathError, glob_stand_in, normalize_path, path_anchor
from .options import option_shapes
from .shell import ShellConfig, SplitError
from .shell import split as split_shell
from .words import ANY_FILE

BUILTIN = ("shell", "path", "url", "tree")


# The splitter a matcher implies when its tool declares none. The `path`
# matcher compares resolved paths and the `domain` matcher readable hosts;
# read raw, `/repo/../etc/shadow`, `~/.ssh/key` or a relative path slipped
# past a deny rule, and a rule anchored at an unknown working directory
# matched nothing. Their splitters resolve the value or refuse the call.
IMPLIED_SPLIT = {"path": "path", "domain": "url"}

# Split commands kept per shell tool (entries are never changed).
_CACHED_COMMANDS = 4096

# (args, ctx) -> subjects, where ctx = (cwd, home, follow_symlinks). Each
# built-in's `field` attribute names the one argument it reads.
Splitter = Callable[[object, tuple], list]


def make_splitter(
    tool: str,
    spec,
    tools: dict,
    cwd_tools: frozenset = frozenset(),
    shapes_by_tool: dict | None = None,
    fetch_rules: dict | None = None,
) -> Splitter | None:
    """The subject function for `tool`, or None when the host supplies subjects.

    `cwd_tools` are the tools with path rules anchored at the working
    directory: a path meant for one of them, seen without a working
    directory, fails closed rather than slipping past those rules.
    `shapes_by_tool` (`option_tools`): by tool, the shapes of its deny and
    ask command rules by program, as which its parts are shown too.
    `fetch_rules` (`fetch_hosts`): by tool, the hosts its deny and ask
    rules name, which a URL with a host not known may be.
    """
    if spec.split is True or not spec.split:
        return None
    field = spec.field or {"shell": "command", "url": "url"}.get(spec.split, "path")
    if spec.split in ("path", "tree"):
        return _reads(field, _path_splitter(field, tool in cwd_tools, spec.split == "tree"))
    if spec.split == "url":
        return _reads(field, _url_splitter(field))
    if spec.split != "shell":
        raise ValueError(f"unknown splitter {spec.split!r}")
    write_tool = spec.write or "edit"
    read_tool = spec.read or "read"

    def target_field(name: str, default: str = "path") -> str:
        target = tools.get(name)
        return target.field if target is not None and target.match and target.field else default

    config = ShellConfig(
        field,
        write_tool,
        target_field(write_tool),
        read_tool,
        target_field(read_tool),
        (shapes_by_tool or {}).get(tool, {}),
        spec.fetch,
        target_field(spec.fetch, "url"),
        (fetch_rules or {}).get(spec.fetch, tuple),  # (`tuple()`: no host)
    )
    # A redirect target sent to a tool that normalises its paths is normalised too.
    normalise = {
        name: target_field(name)
        for name in (write_tool, read_tool)
        if tools.get(name) is not None and tools[name].split in ("path", "tree")
    }

    cache: dict[str, list] = {}  # agents repeat commands

    def shell(args: object, ctx: tuple = (None, None, False)) -> list:
        value = field_value(args, field)
        if value is None:
            raise SplitError(f"the {field} argument is missing or not a string")
        subjects = cache.get(value)
        if subjects is None:
            subjects = split_shell(value, config)
            if len(cache) >= _CACHED_COMMANDS:
                # Full: start again, so a long-running agent caches the commands
                # it repeats now, not only the first ones it saw.
                cache.clear()
            cache[value] = subjects
        if not normalise:
            return subjects
        out = []
        # `shopt -s dotglob` (or zsh's globdots, or GLOBIGNORE) lets `*` match `.env`.
        dots = "dotglob" in value or "globdots" in value or "GLOBIGNORE" in value
        for subject in subjects:
            target = normalise.get(subject.get("tool", ""))
            if target is not None:
                if ctx[0] is None and subject["tool"] in cwd_tools:
                    raise SplitError(_NO_CWD.format(tool=subject["tool"]))
                path = glob_stand_in(subject["args"][target], dots)  # `cat .e*`'s files
                # `rm -r DIR`: what is under DIR (`words.files_in`), normalised as DIR is;
                # likewise a glob's stand-in (`paths.glob_stand_in`).
                marker = path[path.rfind("/") + 1 :] if "\x00" in path else ""
                try:
                    normal = normalize_path(path[: -len(marker)] if marker else path, *ctx)
                except PathError as exc:
                    raise SplitError(str(exc)) from None
                if marker:
                    normal = normal.rstrip("/") + "/" + marker
                subject = {**subject, "args": {target: normal}}
            out.append(subject)
        return out

    return _reads(field, shell)


def _reads(field: str, splitter: Splitter) -> Splitter:
    splitter.field = field  # type: ignore[attr-defined]
    return splitter


_NO_CWD = "the working directory is unknown, and rules for {tool} are anchored at it"


def _path_splitter(field: str, needs_cwd: bool, tree: bool = False) -> Splitter:
    def path(args: object, ctx: tuple = (None, None, False)) -> list:
        value = field_value(args, field)
        if value is None:
            if not isinstance(args, dict) or field in args:
                raise SplitError(f"the {field} argument is not a string")
            value = "."  # a call that names no path works in the working directory
        if needs_cwd and ctx[0] is None:
            raise SplitError(_NO_CWD.format(tool="this tool"))
        try:
            normal = normalize_path(value, *ctx)
        except PathError as exc:
            raise SplitError(str(exc)) from None
        subject = {"args": {**args, field: normal}, "text": normal}  # type: ignore[dict-item]
        if not tree:
            return [subject]
        under = normal.rstrip("/") + "/"
        files = {
            "args": {**args, field: under + ANY_FILE},  # type: ignore[dict-item]
            "text": under + "…",
            "constrain": True,
        }
        return [subject, files]

    return path


def _url_splitter(field: str) -> Splitter:
    def url(args: object, ctx: tuple = (None, None, False)) -> list:
        value = field_value(args, field)
        if value is None:
            raise SplitError(f"the {field} argument is missing or not a string")
        host = url_host(value)
        if host is None:
            raise SplitError("the URL has no host that can be read")
        return [{"args": {**args, field: value}, "text": host}]  # type: ignore[dict-item]

    return url


def cwd_tools(rules, tools: dict) -> frozenset:
    """Tools with a path rule (or carve-out) anchored at the working directory."""
    path_tools = {name for name, spec in tools.items() if spec is not None and spec.match == "path"}
    if not path_tools:
        return frozenset()
    return frozenset(
        r.tool
        for r in rules
        if r.tool in path_tools and r.spec is not None and path_anchor(r.pattern) == "cwd"
    )


def option_tools(rules, tools: dict, base: dict | None = None) -> dict[str, dict[str, tuple]]:
    """By shell-split tool, the shapes of its deny and ask command rules
    (`rules`) that name words past their program (`Bash(rm -rf:*)`,
    `Bash(git reset --hard:*)`, `Bash(chmod 777:*)`), by program
    (`options.option_shapes`): a part of one holding options is shown as
    each such rule writes it too. A policy with none, and a part of another
    program, pays nothing for it. `base`: shapes found before (the policy's,
    to which a grant set's rules add)."""
    shells = {name for name, spec in tools.items() if spec is not None and spec.split == "shell"}
    if not shells:
        return {}
    found: dict[str, dict] = {
        tool: {program: dict.fromkeys(shapes) for program, shapes in programs.items()}
        for tool, programs in (base or {}).items()
    }
    for rule in rules:
        spec = rule.spec
        # (a string test first: a load reads every deny and ask rule here)
        if spec is None or " " not in spec and spec[-2:] == ":*" or rule.tool not in shells:
            continue
        shaped = option_shapes(spec)
        if shaped is not None:
            program, shape = shaped
            found.setdefault(rule.tool, {}).setdefault(program, {})[shape] = None
    return {
        tool: {program: tuple(shapes) for program, shapes in programs.items()}
        for tool, programs in found.items()
    }


def fetch_hosts(rules, tools: dict) -> dict[str, Callable[[], tuple]]:
    """By fetch tool (a shell-split tool's `fetch=`), a function giving a
    host for each of its deny and ask rules (`rules`) with a host
    (`*.corp.example`: a host under it), which a command's URL whose host
    is not known may be. Read on first use: a hook that never meets such a
    URL does not import what reads hosts (`re`, `urllib`)."""
    fetchers = {spec.fetch for spec in tools.values() if spec is not None and spec.fetch}
    specs: dict[str, list] = {}
    for rule in rules:
        if rule.tool in fetchers and rule.spec is not None and rule.spec[:1] != "!":
            specs.setdefault(rule.tool, []).append(rule.spec)
    return {tool: _hosts_on_first_use(named) for tool, named in specs.items()}


def _hosts_on_first_use(specs: list[str]) -> Callable[[], tuple]:
    found: list[tuple] = []

    def hosts() -> tuple:
        if not found:  # (domain_spec compiles `re` and imports `urllib` on first use)
            named: dict[str, None] = {}
            for spec in specs:
                parsed = domain_spec(spec)
                if parsed is not None:
                    named[parsed[1] if parsed[0] == "exact" else "unknown." + parsed[1]] = None
            found.append(tuple(named))
        return found[0]

    return hosts


__all__ = [
    "BUILTIN",
    "ShellConfig",
    "SplitError",
    "make_splitter",
    "fetch_hosts",
    "option_tools",
    "split_shell",
]
