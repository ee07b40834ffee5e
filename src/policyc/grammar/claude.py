"""The Claude Code front-end: settings files -> `Bundle`, with Claude Code's meaning.

Each settings file is a source. Ranks follow Claude Code's precedence
(managed 4 > local 3 > project 2 > user 1); project and local settings are
untrusted until the workspace is trusted, so their allow rules are withheld
while their deny and ask rules apply. Every malformed entry is an error that
names the file, the JSON pointer and the reason: one bad rule never drops the
file or the other rules.

Claude Code's rules are translated to policyc's where they differ:

- `Bash(ls *)`: a trailing ` *` with no other `*` also matches the bare
  command, so it becomes `Bash(ls:*)`.
- Paths (Read, Edit, ...): `//x` is absolute (`/x`), `~/x` is the home
  directory, `/x` is relative to the settings' root (`settings_root`: the
  project's folder, or `~/.claude` for user settings), `./x` and `x/y` are
  relative to the working directory, and a pattern without a
  slash matches at any depth below it (`*.env` -> `./**/*.env`). A deny or
  ask on `/x` under a system folder (`Read(/etc/passwd)`) holds the
  absolute path too (`_meant_absolute`).
- `permissions.additionalDirectories` allow Read under each: `~/x` under
  the home directory, a relative one (`../docs`) under the working
  directory, as Claude Code resolves them.
- `Edit(...)` rules govern every tool that edits files (Edit, Write,
  MultiEdit, NotebookEdit); `Read(...)` rules every tool that reads them
  (Read, Glob, Grep).
- `WebFetch(domain:x)` denied or asked also holds what Bash's curl, wget
  and HTTPie fetch from x (Bash's `fetch` tool is WebFetch), which Claude
  Code lets run.
- `mcp__server` names every tool of the server (`mcp__server__*`), in an
  allow list too (a tool-name glob agentpolicy bundles may not allow; the
  imported settings declare it allowable).
- `Agent(Explore)` names a subagent (the call's `subagent_type`), under the
  tool's name before Claude Code 2.1 (`Task`) too; `Skill(pdf)` a skill.
- `Tool(param:value)` (Claude Code 2.1.178) matches a value of one of the
  tool's input fields. `Bash(command:npm test *)` is `Bash(npm test *)`
  (and `Agent(subagent_type:Explore)` is `Agent(Explore)`),
  read as every Bash rule is, part by part (where Claude Code compares the
  text as sent: `npm test && rm -rf /` matches its allow). Any other is an
  error (`param_rule`): a call is held to one field of its tool here, so
  `Agent(model:opus)` or `Bash(run_in_background:true)` would be a rule
  that never matches. `Bash(NAME:*)` stays the older prefix rule where NAME
  is a command (`timeout`, `command`), as before that syntax.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from ..errors import ErrorSink, PolicyError, Span
from ..runtime.jsonio import loads
from ..runtime.model import Rule
from ..runtime.rules import RuleSyntaxError, parse_rules
from .ast import AliasDecl, Bundle, RuleLists, RuleRef, SourceDecl, ToolDecl
from .jsonbundle import _positions

SCOPES = {"managed": 4, "local": 3, "project": 2, "user": 1}
WORKSPACE_SCOPES = ("project", "local")

# Claude Code's tools: (matcher, field, splitter); None = bare rules only.
VOCABULARY: dict[str, tuple[str | None, str | None, str | bool]] = {
    "Bash": ("glob", "command", "shell"),
    "Read": ("path", "file_path", "path"),
    "Edit": ("path", "file_path", "path"),
    "Write": ("path", "file_path", "path"),
    "MultiEdit": ("path", "file_path", "path"),
    "NotebookEdit": ("path", "notebook_path", "path"),
    "Glob": ("path", "path", "tree"),
    "Grep": ("path", "path", "tree"),
    "WebFetch": ("domain", "url", "url"),
    "WebSearch": (None, None, False),
    # `Agent(Explore)`: the subagent of that name (Claude Code's documented
    # way to disable one); `Task` is the tool's name before Claude Code 2.1.
    "Agent": ("glob", "subagent_type", False),
    "Task": ("glob", "subagent_type", False),
    # `Skill(pdf)`, `Skill(plugin:docx)`: the skill of that name (the Agent
    # SDK's `skills` option allows each so).
    "Skill": ("glob", "skill", False),
}
ALIASES = {
    "Edit": ("Edit", "Write", "MultiEdit", "NotebookEdit"),
    "Read": ("Read", "Glob", "Grep"),
    "Agent": ("Agent", "Task"),
    "Task": ("Agent", "Task"),
}
PATH_TOOLS = frozenset({"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"})

# permissions.defaultMode -> the bundle's default, and the tool the mode lets
# run without asking in the working directories (the working directory and
# additionalDirectories), as Claude Code's modes do: an edit of `~/.bashrc`
# under acceptEdits, or a read of `~/.ssh/id_rsa` in plan mode, asks there.
MODES: dict[str, tuple[str, str]] = {
    "default": ("ask", ""),  # ask for anything no rule decides
    "manual": ("ask", ""),  # (Claude Code 2.1.200's name for default)
    "acceptEdits": ("ask", "Edit"),  # edits run without asking; everything else asks
    "auto": ("ask", "Edit"),  # as acceptEdits; the rest is its classifier's, not read here
    "plan": ("deny", "Read"),  # read-only: reads run, everything else is refused
    "dontAsk": ("deny", ""),  # what would ask is refused
    "bypassPermissions": ("allow", ""),  # everything runs (deny and ask rules still apply)
}
_STRICTER = {"deny": 0, "ask": 1, "allow": 2}
# What Claude Code never lets a mode's blanket edit through to (its protected
# paths): repository state, editor settings and its own, shell start-up
# files. They ask, as there, even under acceptEdits.
_PROTECTED = (
    "./**/.git/**",
    "./**/.claude/**",
    "./**/.vscode/**",
    "./**/.idea/**",
    "./**/.husky/**",
    "./**/.gitconfig",
    "./**/.gitmodules",
    "./**/.mcp.json",
    "./**/.bashrc",
    "./**/.bash_profile",
    "./**/.zshrc",
    "./**/.zprofile",
    "./**/.profile",
)


# Claude Code's tools' input fields, which `Tool(param:value)` rules name.
# A tool not listed is taken to have any: its specifier has no matcher here.
_AGENT_FIELDS = frozenset(
    {"subagent_type", "prompt", "description", "model", "name", "run_in_background", "isolation"}
    | {"resume", "team_name", "mode"}
)
_INPUT_FIELDS = {
    "Bash": {"command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"},
    "Read": {"file_path", "offset", "limit", "pages"},
    "Edit": {"file_path", "old_string", "new_string", "replace_all"},
    "Write": {"file_path", "content"},
    "MultiEdit": {"file_path", "edits"},
    "NotebookEdit": {"notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"},
    "Glob": {"pattern", "path"},
    "Grep": {"pattern", "path", "glob", "type", "output_mode", "multiline", "head_limit"},
    "WebFetch": {"url", "prompt"},
    # (a plugin's agent is named `plugin:agent`: a name not listed here is one)
    "Agent": _AGENT_FIELDS,
    "Task": _AGENT_FIELDS,
    "Skill": {"skill", "args"},
}
# Bash fields that are also commands: `Bash(timeout:*)` is the prefix rule.
_COMMAND_FIELDS = frozenset({"command", "timeout"})


def param_rule(tool: str, spec: str) -> tuple[str, str] | None:
    """(field, value) when a specifier is Claude Code's `param:value` form
    (`Agent(model:opus)`), else None: a name before the first `:` that is
    one of the tool's input fields (any name for a tool not listed), except
    the older `Bash(NAME:*)` prefix rule where NAME is a command."""
    field, colon, value = spec.partition(":")
    if not colon or not field.isidentifier() or not field.isascii():
        return None
    if tool in VOCABULARY and field not in _INPUT_FIELDS.get(tool, ()):
        return None  # `Bash(npm:*)`, `WebFetch(domain:x)`
    if tool == "Bash" and field in _COMMAND_FIELDS and value == "*":
        return None
    return field, value


def _is_matched_field(tool: str, field: str) -> bool:
    """Is `field` the one a glob rule on `tool` is matched against (Bash's
    `command`, Agent's `subagent_type`)? A path or a host given so is not
    read as one: Claude Code compares its text as sent."""
    match, matched, _ = VOCABULARY.get(tool, (None, None, False))
    return match == "glob" and field == matched


def _directory_rule(directory: str) -> str:
    """The Read rule for what is under an additional working directory: as
    Claude Code resolves one (`~` is the home directory; a relative path is
    under the working directory, `../docs` beside it), then `/**`."""
    folder = directory.strip()
    if folder.startswith("/"):
        return "/" + folder.strip("/") + "/**" if folder.strip("/") else "/**"
    folder = folder.rstrip("/")
    if folder == "~" or folder.startswith("~/"):
        return folder + "/**"
    return "./" + folder.removeprefix("./") + "/**" if folder not in ("", ".") else "./**"


# Top folders of Linux and macOS that a project rarely holds: `Read(/etc/x)`
# and `Read(/Users/me/.ssh/**)` are meant at the root (`tmp`, `bin`, `lib`,
# `dev`, `opt` and `run` are also folders projects hold, and are left out).
_SYSTEM_FOLDERS = frozenset(
    "etc home Users root usr var proc sys private Library Volumes System Applications "
    "boot mnt srv media snap nix".split()
)


def _meant_absolute(spec: str) -> str | None:
    """A deny or ask path rule `/x` whose first folder is a system one
    (`Read(/etc/passwd)`): the absolute path too. Claude Code reads `/x`
    under the project (`//x` is absolute), so such a deny never met the
    file it names; it is held to both here. None for any other."""
    if spec[:1] != "/" or spec[:2] == "//":
        return None
    first = spec[1:].partition("/")[0]
    return spec if first in _SYSTEM_FOLDERS else None


def translate_spec(tool: str, spec: str, root: str | None = None) -> str:
    """A Claude Code specifier in policyc's terms (see the module docstring).
    `root`: where its settings anchor `/x` (`settings_root`); None, the
    settings file's own folder (`@/x`)."""
    bang = "!" if spec.startswith("!") else ""
    body = spec[len(bang) :]
    if tool == "Bash" and body.endswith(" *") and body.count("*") == 1:
        body = body[:-2] + ":*"
    elif tool in PATH_TOOLS:
        if body.startswith("//"):
            body = "/" + body.lstrip("/")
        elif body.startswith("/"):
            body = ("@" if root is None else root.rstrip("/")) + body
        elif body == "~" or body.startswith("~/") or body.startswith("./"):
            pass
        elif "/" not in body.rstrip("/"):
            body = "./**/" + body
        else:
            body = "./" + body
    return bang + body


def settings_root(scope: str, path: Path) -> str | None:
    """Where Claude Code anchors a settings file's `/x` path rules: user
    settings at their own folder (`~/.claude`: None, `@/x`), the others at
    the folder Claude Code was started in, the project's (which holds
    `.claude/settings.json`): that folder when the file is in a `.claude`
    folder, else the call's working directory (`.`). Anchored at
    `.claude/`, `Edit(/src/**)` in a project's settings never matched."""
    if scope == "user":
        return None
    folder = path.resolve().parent
    if scope in WORKSPACE_SCOPES and folder.name == ".claude":
        return str(folder.parent)
    return "."


class _Settings:
    def __init__(self, scope: str, path: Path, trusted: bool, errors: ErrorSink) -> None:
        self.scope, self.path, self.trusted, self.errors = scope, path, trusted, errors
        self.raw = b""
        self.text = ""
        self.where: dict[str, int] = {}
        self.allowed_globs: set[str] = set()  # mcp__server__* allowed by this file

    def span(self, pointer: str) -> Span:
        return Span.at_offset(str(self.path), self.text, self.where.get(pointer, 0))

    def error(self, kind: str, message: str, pointer: str, help: str = "") -> None:
        self.errors.add(
            PolicyError(kind, f"{message} (at {pointer or '/'})", self.span(pointer), help)
        )

    def read(self) -> dict | None:
        try:
            self.raw = self.path.read_bytes()
            self.text = self.raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.errors.add(
                PolicyError("unreadable", f"cannot read {self.path}: {exc}", Span(str(self.path)))
            )
            return None
        try:
            data = loads(self.text)
        except json.JSONDecodeError as exc:
            self.errors.add(
                PolicyError(
                    "bad_json",
                    f"not valid JSON: {exc.msg}",
                    Span.at_offset(str(self.path), self.text, exc.pos),
                    "a settings file is one JSON object",
                )
            )
            return None
        self.where = _positions(self.text)
        if not isinstance(data, dict):
            self.error("bad_type", "a settings file is a JSON object", "")
            return None
        return data

    def rules(self, permissions: dict, action: str) -> list[RuleRef]:
        entries = permissions.get(action, [])
        at = f"/permissions/{action}"
        if not isinstance(entries, list):
            self.error("bad_type", f"permissions.{action} must be a list of rule strings", at)
            return []
        out = []
        for i, entry in enumerate(entries):
            pointer = f"{at}/{i}"
            if not isinstance(entry, str):
                self.error("bad_type", "a rule must be a string", pointer)
                continue
            try:
                parsed = parse_rules(entry)
            except RuleSyntaxError as exc:
                self.error(exc.kind, f"{exc.describe()}", pointer, exc.help)
                continue
            if len(parsed) != 1:
                self.error(
                    "invalid_rule",
                    f"{entry!r} is not one rule",
                    pointer,
                    "write one rule per entry",
                )
                continue
            tool, spec = parsed[0].tool, parsed[0].spec
            odd = next((c for c in tool if not (c.isascii() and (c.isalnum() or c in "_-*"))), "")
            if odd:
                # `Skill:deploy`, `Bash:rm` were tools of those names: rules
                # that never matched. Claude Code names its tools (and an MCP
                # server's, `mcp__server__tool`) with letters, digits, `_`, `-`.
                head, _, rest = tool.partition(odd)
                self.error(
                    "bad_tool_name",
                    f"{tool!r} is no tool's name (it holds {odd!r}): the rule would never match",
                    pointer,
                    f"a rule names a value in parentheses: {head}({rest})"
                    if odd == ":" and head and rest
                    else "tool names hold letters, digits, `_` and `-`",
                )
                continue
            if tool.startswith("mcp__") and tool.count("__") == 1 and spec is None:
                tool += "__*"  # every tool of the server
            if "*" in tool and action == "allow":
                if not (tool.startswith("mcp__") and tool.endswith("__*") and tool.count("*") == 1):
                    self.error(
                        "tool_glob",
                        f"{entry} is a tool-name glob, which an allow list takes only as mcp__server",
                        pointer,
                        "name the tools, or the whole server as mcp__server",
                    )
                    continue
                self.allowed_globs.add(tool)
            param = param_rule(tool, spec) if spec is not None else None
            if param is not None and _is_matched_field(tool, param[0]):
                # `Bash(command:npm test *)`: the command, read part by part;
                # `Agent(subagent_type:Explore)`: `Agent(Explore)`.
                spec = param[1]
            elif param is not None:
                self.error(
                    "param_rule",
                    f"{entry} matches {tool}'s input field {param[0]!r} (Claude Code's "
                    "Tool(param:value)), which policyc does not read: it would never match",
                    pointer,
                    f"deny or ask for {tool} as a whole, or drop the rule"
                    + ("; a command is named so: Bash(npm test *)" if tool == "Bash" else ""),
                )
                continue
            if tool == "WebFetch" and spec is not None:
                host = spec.removeprefix("domain:")
                if host[:1] == "[" and host[-1:] == "]":
                    host = ""  # an IPv6 address (`domain:[::1]`)
                if any(c in host for c in "/:?#@"):
                    # `WebFetch(https://example.com/docs/*)` read as its host
                    # allowed all of example.com; Claude Code compares hosts.
                    self.error(
                        "bad_domain",
                        f"{entry} names more than a host: a URL's scheme, port or path is "
                        "not compared, so the rule would hold the whole host",
                        pointer,
                        "name the host: WebFetch(domain:example.com), or *.example.com "
                        "for its subdomains",
                    )
                    continue
            meant = None
            if spec is not None:
                if action != "allow" and tool in PATH_TOOLS:
                    meant = _meant_absolute(spec)
                spec = translate_spec(tool, spec, settings_root(self.scope, self.path))
            out.append(RuleRef(Rule(tool, spec), self.span(pointer)))
            if meant is not None:
                out.append(RuleRef(Rule(tool, meant), self.span(pointer)))
        return out


def read_claude_settings(
    scoped: list[tuple[str, str | Path]], trust_workspace: bool = False
) -> tuple[Bundle, bytes]:
    """Settings files -> a bundle with Claude Code's tools, and the bytes read (for the digest)."""
    errors = ErrorSink()
    sources: list[SourceDecl] = []
    modes: list[tuple[int, str, bool]] = []  # (rank, mode, trusted) of each file that sets one
    bypass_disabled = False  # `disableBypassPermissionsMode: "disable"` in some file
    managed_only = False  # managed `allowManagedPermissionRulesOnly`: only its allows count
    working_dirs: list[str] = ["./**"]  # the working directory and trusted additional ones
    raw_inputs = b""
    seen: set[str] = set()
    allowed_globs: set[str] = set()
    for scope, path in scoped:
        if scope not in SCOPES:
            errors.add(
                PolicyError(
                    "unknown_scope",
                    f"unknown settings scope {scope!r}",
                    Span(str(path)),
                    "scopes are managed, local, project and user",
                )
            )
            continue
        if scope in seen:
            errors.add(
                PolicyError(
                    "duplicate_source", f"two settings files for the {scope} scope", Span(str(path))
                )
            )
            continue
        seen.add(scope)
        trusted = trust_workspace or scope not in WORKSPACE_SCOPES
        settings = _Settings(scope, Path(path), trusted, errors)
        data = settings.read()
        if data is None:
            continue
        raw_inputs += settings.raw
        permissions = data.get("permissions", {})
        if not isinstance(permissions, dict):
            settings.error("bad_type", "permissions must be an object", "/permissions")
            continue
        lists = {
            action: tuple(settings.rules(permissions, action))
            for action in ("deny", "ask", "allow")
        }
        allowed_globs |= settings.allowed_globs
        mode = permissions.get("defaultMode")
        if mode is not None:
            if mode not in MODES:
                settings.error(
                    "bad_mode",
                    f"unknown defaultMode {mode!r}",
                    "/permissions/defaultMode",
                    "modes are " + ", ".join(MODES),
                )
            elif not (mode == "auto" and scope in WORKSPACE_SCOPES):  # (ignored there)
                modes.append((SCOPES[scope], mode, trusted))
        disable = permissions.get("disableBypassPermissionsMode")
        if disable is not None:
            if disable != "disable":
                settings.error(
                    "bad_mode",
                    f"disableBypassPermissionsMode is {disable!r}",
                    "/permissions/disableBypassPermissionsMode",
                    'its one value is "disable"',
                )
            bypass_disabled = True  # (any file's: it only narrows)
        only = data.get("allowManagedPermissionRulesOnly")
        if only is not None and not isinstance(only, bool):
            settings.error(
                "bad_type",
                "allowManagedPermissionRulesOnly must be true or false",
                "/allowManagedPermissionRulesOnly",
            )
        managed_only = managed_only or scope == "managed" and only is True
        dirs = permissions.get("additionalDirectories", [])
        if not isinstance(dirs, list) or not all(isinstance(d, str) for d in dirs):
            settings.error(
                "bad_type",
                "additionalDirectories must be a list of paths",
                "/permissions/additionalDirectories",
            )
            dirs = []
        # An additional working directory is readable as the working directory is.
        extra_reads = tuple(
            RuleRef(
                Rule("Read", _directory_rule(d)),
                settings.span("/permissions/additionalDirectories"),
            )
            for d in dirs
            if d.strip()
        )
        if trusted:
            working_dirs += [_directory_rule(d) for d in dirs if d.strip()]
        resolved = Path(path).resolve()
        sources.append(
            SourceDecl(
                name=scope,
                rank=SCOPES[scope],
                trusted=trusted,
                path=str(resolved),
                hash="sha256:" + hashlib.sha256(settings.raw).hexdigest(),
                rules=RuleLists(lists["deny"], lists["ask"], lists["allow"] + extra_reads),
                span=Span(str(path)),
            )
        )
    errors.check()
    if managed_only:
        # Claude Code keeps the managed file's rules alone: here the other
        # files' allows are dropped (their denies and asks only narrow, and stay).
        sources = [
            source
            if source.name == "managed"
            else dataclasses.replace(source, rules=RuleLists(source.rules.deny, source.rules.ask))
            for source in sources
        ]
    if bypass_disabled:  # (a file asking for it gets the mode below it)
        modes = [entry for entry in modes if entry[1] != "bypassPermissions"]
    default, mode_tool = _mode(modes)
    host_allow = [RuleRef(Rule(mode_tool, d)) for d in dict.fromkeys(working_dirs) if mode_tool]
    host_ask = [RuleRef(Rule("Edit", p)) for p in _PROTECTED] if mode_tool == "Edit" else []
    tools = tuple(
        ToolDecl(
            name,
            match,
            field,
            split,
            "Edit" if name == "Bash" else "",
            "Read" if name == "Bash" else "",
            fetch="WebFetch" if name == "Bash" else "",
        )
        for name, (match, field, split) in VOCABULARY.items()
    ) + tuple(ToolDecl(name, allow_glob=True) for name in sorted(allowed_globs))
    aliases = tuple(AliasDecl(name, names) for name, names in ALIASES.items())
    bundle = Bundle(
        file="claude-settings",
        default=default,
        tools=tools,
        aliases=aliases,
        sources=tuple(sources),
        host=RuleLists((), tuple(host_ask), tuple(host_allow)),
    )
    return bundle, raw_inputs


def _mode(modes: list[tuple[int, str, bool]]) -> tuple[str, str]:
    """The default and the tool the mode lets run in the working directories:
    the highest-ranked file's mode, as in Claude Code; but a file not
    trusted (a repository's, without --trust-workspace) only narrows what a
    trusted one set (`dontAsk` over `default`), never widens it, and lets no
    tool run: its `bypassPermissions` made every call with no rule run."""
    default, tool = "ask", ""
    for _, mode, trusted in sorted(modes, key=lambda entry: entry[0]):
        given, given_tool = MODES[mode]
        if trusted:
            default, tool = given, given_tool
        elif _STRICTER[given] < _STRICTER[default]:
            default, tool = given, ""
    return default, tool


def combine(bundle: Bundle, settings: Bundle) -> Bundle:
    """A policyc bundle plus imported settings: its tools, aliases and host rules win."""
    names = {t.name for t in bundle.tools}
    aliases = {a.name for a in bundle.aliases}
    return dataclasses.replace(
        bundle,
        tools=bundle.tools + tuple(t for t in settings.tools if t.name not in names),
        aliases=bundle.aliases + tuple(a for a in settings.aliases if a.name not in aliases),
        sources=bundle.sources + settings.sources,
        default=bundle.default or settings.default,
    )
