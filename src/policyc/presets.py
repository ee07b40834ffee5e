"""Starting bundles modelled on Codex's modes, over a read / edit / execute split.

- suggest: reads run; edits and commands ask, unless the call runs confined.
- auto-edit: reads and edits run; commands ask, unless the call runs confined.
- full-auto: every named tool runs; the sandbox is the host's to arrange.

In all three, a tool the split does not name asks, so a tool added later does
not run unseen. The asks are bare rules, which a confined call skips (SPEC
section 5): a command that runs in a sandbox does not ask.
"""

from __future__ import annotations

PRESETS = ("suggest", "auto-edit", "full-auto")
CLAUDE_SPLIT = {
    "read": ["Read", "Glob", "Grep", "WebSearch"],
    "edit": ["Edit", "Write", "MultiEdit", "NotebookEdit"],
    "execute": ["Bash", "WebFetch"],
}


def preset(name: str, read: list[str], edit: list[str], execute: list[str]) -> str:
    """The preset as `.policy` text, ready to extend."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; presets are {', '.join(PRESETS)}")
    allow = list(read)
    ask: list[str] = []
    if name == "suggest":
        ask += edit + execute
    elif name == "auto-edit":
        allow += edit
        ask += execute
    else:
        allow += edit + execute
    lines = [
        f"# policyc preset: {name} (see policyc/presets.py). Extend it: add tools, sources, rules.",
        "# A tool the split does not name asks.",
        "default ask",
    ]
    if allow:
        lines.append("allow " + " ".join(allow))
    if ask:
        lines.append("ask " + " ".join(ask))
        lines.append('because "the preset asks before this tool changes anything"')
    return "\n".join(lines) + "\n"
