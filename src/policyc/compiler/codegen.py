"""Stage `generate_module`: artifact bytes -> Python source (the generated backend).

The tries the runtime builds per tool on first use (`runtime.fast`) are built
here once, for every tool the policy names, and written out as literals;
each tool gets a function specialised to its matcher, its field and whether
any inner glob hangs on its trie. The embedded artifact body answers the rest
through the ordinary runtime. Output is deterministic (sorted keys, verdicts
numbered in first-use order), so the same artifact gives the same bytes.
"""

from __future__ import annotations

import json
from importlib import resources

import jinja2

from .. import __version__
from ..runtime.artifact import read_header, table_from_body
from ..runtime.fast import FULL
from ..runtime.generated import _source_digest


class _Pool:
    """Verdicts numbered in first-use order; None is -1 (the module's last entry)."""

    def __init__(self) -> None:
        self.index: dict[int, int] = {}
        self.items: list = []

    def __call__(self, verdict) -> int:
        if verdict is None:
            return -1
        key = id(verdict)
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(verdict)
        return self.index[key]


def _chain_literal(chain, groups: dict) -> str:
    """A node's inner-glob chain: None, or a tuple of names of shared groups."""
    if chain is None:
        return "None"
    names = []
    for group in chain:
        if group not in groups:
            groups[group] = f"G{len(groups)}"
        names.append(groups[group])
    return "(" + "".join(f"{name}, " for name in names) + ")"


def _tails_literal(tails, maps: dict) -> str:
    """A node's tails map: None, or the name of a shared map."""
    if tails is None:
        return "None"
    if id(tails) not in maps:
        literal = repr({last: tuple(entries) for last, entries in sorted(tails.items())})
        maps[id(tails)] = (f"M{len(maps)}", literal, tails)  # kept alive: ids stay unique
    return maps[id(tails)][0]


def _token_trie(node, pool: _Pool, groups: dict, maps: dict) -> str:
    """A frozen token-trie node (see runtime.fast) as a literal, verdicts by number."""
    get, end, past, chain, tails = node[:5]  # (the sixth, the children dict, is `get`'s)
    children = ", ".join(
        f"{token!r}: {_token_trie(child, pool, groups, maps)}"
        for token, child in sorted(get.__self__.items())
    )
    walk = f"{{{children}}}.get" if children else "_NO"
    chain_text = _chain_literal(chain, groups)
    return f"({walk}, {pool(end)}, {pool(past)}, {chain_text}, {_tails_literal(tails, maps)})"


def _prefix_trie(node, pool: _Pool) -> str:
    children, past, is_key = node
    inner = ", ".join(
        f"{char!r}: ({label!r}, {_prefix_trie(child, pool)})"
        for char, (label, child) in sorted(children.items())
    )
    return f"({{{inner}}}, {pool(past)}, {is_key})"


def _has_globs(node) -> bool:
    return node[3] is not None or any(_has_globs(c) for c in node[0].__self__.values())


def generate_module(artifact: bytes) -> str:
    header, body = read_header(artifact)
    table = table_from_body(json.loads(body), header["body_sha256"])
    pool = _Pool()
    groups: dict = {}  # inner-glob groups, shared between the nodes that reach them
    maps: dict = {}  # tails maps, shared likewise
    tools = []
    for name in sorted(table._known):
        path = table._policy.fast_path(name)
        if path is FULL:
            continue  # a built-in splitter: the runtime decides it subject by subject
        i = len(tools)
        entry = {
            "index": i,
            "key": repr(name),
            "name": name,
            "kind": None,
            "none": pool(path.refusal or path.none),
        }
        if path.refusal is not None:
            entry["summary"] = "has a splitter; called without subjects it is refused"
        elif path.kind == "glob":
            entry.update(
                kind="glob",
                field=repr(path.field),
                depth=path.depth,
                trie=_token_trie(path.root, pool, groups, maps),
                globs=_has_globs(path.root),
                tail_ends=f"frozenset({sorted(path.tail_ends)!r})",
                summary=f"glob matcher on {path.field}",
            )
        elif path.kind == "prefix":
            exact = ", ".join(f"{k!r}: {pool(v)}" for k, v in sorted(path.exact.items()))
            entry.update(
                kind="prefix",
                field=repr(path.field),
                exact=f"{{{exact}}}",
                summary=f"prefix matcher on {path.field}",
            )
            if path.lengths is not None:  # few key lengths: probed, longest first
                keys = ", ".join(f"{k!r}: {pool(v)}" for k, v in sorted(path.by_key.items()))
                entry.update(
                    kind="probe",
                    lengths=repr(tuple(path.lengths)),
                    shortest=path.lengths[-1] if path.lengths else 0,
                    heads=None if path.heads is None else repr(sorted(path.heads)),
                    by_key=f"{{{keys}}}",
                    base=pool(path.root[1]),
                )
            else:
                entry["trie"] = _prefix_trie(path.root, pool)
        else:
            entry["summary"] = "no matcher: one verdict for every call"
        tools.append(entry)
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(
            lambda name: (
                resources.files("policyc.compiler")
                .joinpath("templates", name)
                .read_text(encoding="utf-8")
            )
        ),
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    text = env.get_template("module.py.j2").render(
        version=__version__,
        verdicts=[repr(tuple(v)) for v in pool.items],
        globs=[{"name": name, "entries": repr(group)} for group, name in groups.items()],
        tails=[{"name": name, "entries": literal} for name, literal, _ in maps.values()],
        tools=tools,
        body_sha256=header["body_sha256"],
        body=repr(body.decode("utf-8")),
    )
    return text.replace("SOURCE_SHA256", _source_digest(text), 1)
