"""Skills: a SKILL.md's `allowed-tools` as a grant set for the skill's source.

    ---
    name: commit
    description: Commit staged work
    allowed-tools: Bash(git add:*), Bash(git commit:*), Read
    ---

`allowed-tools` may be a comma-separated line (commas inside a rule's
parentheses are part of it) or a YAML list. Activating the skill grants those
rules while it is active (shadowing ask rules of sources it does not rank
below) and reports the ones it refuses, with the reason; `revoke` takes the
grant back. Standard library only, like the runtime that applies it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .runtime.engine import Refusal, Table
from .runtime.model import Rule, Source


class SkillError(ValueError):
    """A SKILL.md without readable front matter."""


def _split_tools(text: str) -> list[str]:
    out, depth, current = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    out.append("".join(current).strip())
    return [t for t in out if t]


def front_matter(text: str) -> dict[str, object]:
    """The `---` block's `key: value` lines and `- item` lists (the subset skills use)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise SkillError("no front matter: the file must start with a `---` line")
    out: dict[str, object] = {}
    key = None
    for line in lines[1:]:
        if line.strip() == "---":
            return out
        if line.lstrip().startswith("- ") and key is not None:
            items = out.setdefault(key, [])
            if isinstance(items, list):
                items.append(line.lstrip()[2:].strip().strip("'\""))
            continue
        if ":" in line and not line.startswith((" ", "\t")):
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            out[key] = value.strip("'\"") if value else []
    raise SkillError("unterminated front matter: no closing `---` line")


def read_skill(path: str | Path) -> tuple[str, list[str], bytes]:
    """(skill name, allowed-tools rule strings, the file's bytes)."""
    raw = Path(path).read_bytes()
    meta = front_matter(raw.decode("utf-8"))
    name = meta.get("name") or Path(path).parent.name
    tools = meta.get("allowed-tools", [])
    rules = _split_tools(tools) if isinstance(tools, str) else [str(t) for t in tools]
    return str(name), rules, raw


def activate_skill(
    table: Table,
    path: str | Path,
    *,
    rank: int = 0,
    trusted: bool = True,
    scope: str | None = None,
) -> tuple[Source, list[Rule], list[Refusal]]:
    """Activate a skill's allowed-tools; returns its source (to revoke), granted and refused."""
    name, rules, raw = read_skill(path)
    source = Source(
        f"skill:{name}",
        rank,
        trusted,
        str(Path(path).resolve()),
        "sha256:" + hashlib.sha256(raw).hexdigest(),
    )
    granted, refused = table.activate(source, allow=rules, scope=scope)
    return source, granted, refused
