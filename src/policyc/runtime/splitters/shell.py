"""The `shell` splitter: a POSIX/bash command string into the commands it runs.

Hand-written, standard library only. We measured the alternatives on our
adversarial corpus (`python -m benchmarks.shell_parsers`; the README's
"Splitting" section has the numbers):
bashlex parses the grammar but is pure Python and several times slower, and
rejects some inputs bash accepts; tree-sitter-bash is fast C but its tree
attaches a trailing redirect to a whole `&&` list and accepts unterminated
quotes with an error node we would have to audit node by node. What a policy
needs is narrower than a full parse: every simple command that can run, with
its redirect targets, and a refusal for anything whose effect cannot be
known statically.

Each simple command becomes a subject `{"args": {FIELD: CANONICAL}, "text":
SOURCE}`: CANONICAL is its words after quote removal, wrappers and safe
assignments stripped, joined with single spaces and re-quoted only where a
word needs it (as `shlex.join`), so `'git'  status` and `git status` read the
same; SOURCE is the command as written, for the prompt. Redirect targets
become subjects of the file tools. Anything we cannot evaluate raises
`SplitError` with a specific reason, and the call is blocked (fail closed).
"""

from __future__ import annotations

from collections import namedtuple

MAX_LENGTH = 10_000  # characters; a longer command is refused
MAX_DEPTH = 4  # nested `bash -c` strings

SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"})
SEPARATORS = frozenset({";", "&", "&&", "||", "|", "|&", "\n"})
WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
QUIET_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
RESERVED_SKIP = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!"})
RESERVED_END = frozenset({"fi", "done"})
RESERVED_REFUSED = {
    "case": "a case statement",
    "function": "a function definition",
    "coproc": "a coprocess",
    "select": "a select loop",
}

# Assignments that change neither which program runs nor what it loads:
# locale, time zone, terminal and colour settings. Any other assignment
# (PATH, LD_PRELOAD, NODE_OPTIONS, PYTHONPATH, GIT_*, PAGER, EDITOR, HOME,
# BASH_ENV, ...) can, so a command behind one is held to deny and ask rules
# only (a constraint) and must be allowed as written, assignment included.
SAFE_ASSIGNMENTS = frozenset(
    {
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "COLUMNS",
        "LINES",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
    }
)
SAFE_ASSIGNMENT_PREFIXES = ("LC_",)

# The general path's regular expressions, compiled on its first use (see
# `_compile_patterns`).
_ASSIGNMENT = _BRACES = _BRACE_LISTS = _BRACE_GROUP = None
_PLAIN = _DOUBLE_PLAIN = _OPERATOR = _QUICK_TOKEN = None
_WORD_END = frozenset(" \t\n;&|()<>")


class SplitError(ValueError):
    """The command cannot be evaluated statically; the reason is read to the model."""


_Word = namedtuple("Word", "value start end expands quoted", defaults=(False, False))


class Word(_Word):
    """A word after quote removal, where it stands, whether it holds an
    unquoted or double-quoted `$` expansion, and whether any of it was quoted."""

    __slots__ = ()


# `Word(...)` goes through the named tuple's `__new__`, a Python frame; the
# lexer makes most of its words with this instead (all five fields given).
_new_word = tuple.__new__


_Redirect = namedtuple("Redirect", "op target start end")


class Redirect(_Redirect):
    """A redirect; `target` is None for descriptor duplication and here-documents."""

    __slots__ = ()


class Command:
    """One simple command as it is being read."""

    __slots__ = ("words", "redirects", "heredoc")

    def __init__(self) -> None:
        self.words: list[Word] = []
        self.redirects: list[Redirect] = []
        self.heredoc = False  # stdin comes from a here-document or here-string


# -- lexing -------------------------------------------------------------------


def _read_word(s: str, i: int) -> tuple[Word, int]:
    start, n = i, len(s)
    plain = _PLAIN.match(s, i)
    if plain is not None and (plain.end() == n or s[plain.end()] in _WORD_END):
        end = plain.end()  # one plain run
        return _new_word(Word, (plain.group(), start, end, False, False)), end
    out: list[str] = []
    expands = quoted = False
    while i < n:
        plain = _PLAIN.match(s, i)
        if plain is not None:
            out.append(plain.group())
            i = plain.end()
            continue
        c = s[i]
        if c in _WORD_END:
            break
        if c == "\\":
            if i + 1 < n and s[i + 1] == "\n":
                i += 2  # line continuation
                continue
            out.append(s[i + 1] if i + 1 < n else "\\")
            i += 2
            quoted = True
        elif c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                raise SplitError("unterminated single quote")
            out.append(s[i + 1 : j])
            i = j + 1
            quoted = True
        elif c == '"':
            i, expanded = _read_double(s, i + 1, out)
            expands = expands or expanded
            quoted = True
        elif c == "`":
            raise SplitError("command substitution (backticks) cannot be evaluated statically")
        elif c == "$":
            nxt = s[i + 1 : i + 2]
            if nxt == "(":
                raise SplitError("command substitution $(...) cannot be evaluated statically")
            if nxt == "'":
                raise SplitError("ANSI-C quoting $'...' is not supported")
            if nxt == '"':
                i += 1  # $"..." is a translated string: read it as "..."
                continue
            expands = expands or bool(nxt) and (nxt.isalnum() or nxt in "_{@*#?$!-")
            out.append("$")
            i += 1
        else:
            out.append(c)
            i += 1
    return Word("".join(out), start, i, expands, quoted), i


def _read_double(s: str, i: int, out: list[str]) -> tuple[int, bool]:
    expands = False
    n = len(s)
    while i < n:
        run = _DOUBLE_PLAIN.match(s, i)  # characters that stand for themselves here
        if run.end() > i:
            out.append(run.group())
            i = run.end()
            if i == n:
                break
        c = s[i]
        if c == '"':
            return i + 1, expands
        if c == "\\" and i + 1 < n and s[i + 1] in '$`"\\\n':
            if s[i + 1] != "\n":
                out.append(s[i + 1])
            i += 2
            continue
        if c == "`":
            raise SplitError("command substitution (backticks) cannot be evaluated statically")
        if c == "$":
            nxt = s[i + 1 : i + 2]
            if nxt == "(":
                raise SplitError("command substitution $(...) cannot be evaluated statically")
            if nxt and (nxt.isalnum() or nxt in "_{@*#?$!-"):
                expands = True
        out.append(c)
        i += 1
    raise SplitError("unterminated double quote")


def _compile_patterns() -> None:
    """Compile the general path's patterns. Importing `re` costs a hook process
    about 6 ms (`python -m benchmarks.hook_startup`), and the plain path, which
    most commands take, does without it."""
    global _ASSIGNMENT, _BRACES, _BRACE_LISTS, _BRACE_GROUP
    global _PLAIN, _DOUBLE_PLAIN, _OPERATOR, _QUICK_TOKEN
    import re

    _ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
    # What bash may brace-expand: `{` (not `${`), then a comma or a `..`,
    # then `}`, braces between them or not (bash reads `a{},}` as `a} a`).
    _BRACES = re.compile(r"(?<!\$)\{.*?(?:,|\.\.).*?\}", re.DOTALL)
    # The braces policyc expands: lists of plain alternatives, not nested.
    _BRACE_LISTS = re.compile(r"(?:[^{}]*\{[^{},]*(?:,[^{},]*)+\})+[^{}]*")
    _BRACE_GROUP = re.compile(r"\{([^{}]*)\}")
    # characters that stand for themselves in a word
    _PLAIN = re.compile(r"[^ \t\n;&|()<>'\"\\$`]+")
    # characters that stand for themselves between double quotes
    _DOUBLE_PLAIN = re.compile(r'[^"\\$`]*')
    _OPERATOR = re.compile(r"&>>|<<<|<<-|&&|\|\||\|&|;;|&>|>>|>\||>&|<<|<>|<&|<\(|>\(|[;&|()<>]")
    # The common tokens, each in one step with the blanks before it: group 1,
    # an unquoted word of plain characters that ends where a word ends (not
    # a comment, `#...`, nor a descriptor's number before a redirect, `2>`);
    # group 2, a list or pipeline operator (not `;;` nor the redirects `&>`,
    # `&>>`). The loop in `lex` reads every other token.
    _QUICK_TOKEN = re.compile(
        r"[ \t]*(?:((?![0-9]+[<>])[^ \t\n;&|()<>'\"\\$`#][^ \t\n;&|()<>'\"\\$`]*)(?=[ \t\n;&|()<>]|\Z)"
        r"|(&&|\|\||\|&|\||;(?!;)|&(?![>&])))"
    )


def lex(s: str, quick: bool = True) -> list:
    """Words, operators (str) and here-document markers, in order.

    The common tokens (plain words, list and pipeline operators) are read
    by one regex match each (`_QUICK_TOKEN`): 9-37% less time than the
    loop on six commands an agent makes (2026-12-03). `quick=False` reads
    every token in the loop, as the tests do to check that regex against it.
    """
    if _PLAIN is None:
        _compile_patterns()
    tokens: list = []
    append = tokens.append
    pending: list[tuple[str, bool, bool]] = []  # here-documents waiting for their body
    i, n = 0, len(s)
    quick_token = _QUICK_TOKEN.match if quick else None
    while i < n:
        if quick_token is not None:
            found = quick_token(s, i)
            if found is not None:
                i = found.end()
                word = found.group(1)
                if word is not None:
                    append(_new_word(Word, (word, found.start(1), i, False, False)))
                else:
                    append((found.group(2), found.start(2), i))
                continue
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if c == "\\" and s[i + 1 : i + 2] == "\n":
            i += 2
            continue
        if c == "#":
            end = s.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == "\n":
            tokens.append(("\n", i, i + 1))
            i += 1
            for delimiter, strip_tabs, literal in pending:
                i = _skip_heredoc(s, i, delimiter, strip_tabs, literal)
            pending = []
            continue
        if "0" <= c <= "9":  # ASCII only, as bash: `²>x` runs `²`
            j = i + 1
            while j < n and "0" <= s[j] <= "9":
                j += 1
            if j < n and s[j] in "<>":
                i = j  # a file descriptor number before a redirect: `2>`, `2>&1`
                op = _operator(s, i)
                tokens.append((op, i, i + len(op)))
                i += len(op)
                continue
        op = _operator(s, i)
        if op:
            if op in ("<(", ">("):
                raise SplitError("process substitution cannot be evaluated statically")
            if op == ";;":
                raise SplitError("a case statement cannot be evaluated statically")
            if op in ("<<", "<<-"):
                j = i + len(op)
                while j < n and s[j] in " \t":
                    j += 1
                word, after = _read_word(s, j)
                if not word.value:
                    raise SplitError("a here-document without a delimiter")
                pending.append((word.value, op == "<<-", word.quoted))
                tokens.append(("<<", i, after))
                i = after
                continue
            tokens.append((op, i, i + len(op)))
            i += len(op)
            continue
        word, i = _read_word(s, i)
        tokens.append(word)
    if pending:
        raise SplitError("unterminated here-document")
    return tokens


def _operator(s: str, i: int) -> str:
    if s[i] not in ";&|()<>":
        return ""
    found = _OPERATOR.match(s, i)
    return found.group() if found else ""


def _skip_heredoc(s: str, i: int, delimiter: str, strip_tabs: bool, literal: bool) -> int:
    """Skip a here-document's body; its unquoted body may not hold command substitution."""
    while i <= len(s):
        end = s.find("\n", i)
        line = s[i:] if end < 0 else s[i:end]
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            return len(s) if end < 0 else end + 1
        if not literal and ("$(" in line or "`" in line):
            raise SplitError(
                "command substitution in a here-document cannot be evaluated statically"
            )
        if end < 0:
            break
        i = end + 1
    raise SplitError("unterminated here-document")


# -- parsing ------------------------------------------------------------------


def commands(tokens: list, s: str) -> list[Command]:
    """Flatten lists, pipelines, subshells and groups into simple commands."""
    out: list[Command] = []
    current = Command()
    depth = 0
    i = 0
    after_separator = True  # bash refuses an empty command before `;`, `&&`, `|` ...
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if type(tok) is Word:
            words = current.words
            if not words:
                word = tok.value
                if not current.redirects and not tok.quoted and word in _FIRST_WORD_SPECIAL:
                    if word == "{" or word in RESERVED_SKIP:
                        i += 1
                        continue
                    if word == "}" or word in RESERVED_END:
                        after_separator = False  # `{ ls; };` and `fi;` are fine
                        i += 1
                        continue
                    if word in RESERVED_REFUSED:
                        raise SplitError(f"{RESERVED_REFUSED[word]} cannot be evaluated statically")
                    i = _skip_for_header(tokens, i)  # `for`
                    continue
            elif len(words) == 1 and not tok.quoted and tok.value.startswith("()"):
                raise SplitError("a function definition cannot be evaluated statically")
            words.append(tok)
            after_separator = False
            i += 1
            continue
        op, start, end = tok
        if op in SEPARATORS:
            if op != "\n" and after_separator and not current.words and not current.redirects:
                raise SplitError(f"syntax error: nothing before `{op}`")
            _finish(current, out)
            current = Command()
            after_separator = op != "\n" or after_separator
        elif op == "(":
            if current.words:
                if len(current.words) == 1:
                    raise SplitError("a function definition cannot be evaluated statically")
                raise SplitError("unexpected `(`")
            depth += 1
        elif op == ")":
            if depth == 0:
                raise SplitError("unbalanced `)`")
            depth -= 1
            _finish(current, out)
            current = Command()
            after_separator = False
        elif op == "<<":
            current.heredoc = True
            current.redirects.append(Redirect(op, None, start, end))
            after_separator = False
        else:  # a redirect: its target is the next word, unless it duplicates a descriptor
            target = tokens[i + 1] if i + 1 < len(tokens) else None
            if not isinstance(target, Word):
                raise SplitError(f"redirect `{op}` without a target")
            if op in (">&", "<&") and (_is_number(target.value) or target.value == "-"):
                current.redirects.append(Redirect(op, None, start, target.end))
            else:
                if op == "<<<":
                    current.heredoc = True
                current.redirects.append(
                    Redirect(op, None if op == "<<<" else target, start, target.end)
                )
            i += 2
            continue
        i += 1
    if depth:
        raise SplitError("unbalanced `(`")
    _finish(current, out)
    return out


def _is_number(word: str) -> bool:
    """ASCII digits only, as bash reads a descriptor: `>&²` writes a file named `²`."""
    return word.isascii() and word.isdigit()


# What an unquoted first word can be that is not a command name.
_FIRST_WORD_SPECIAL = RESERVED_SKIP | RESERVED_END | frozenset(RESERVED_REFUSED) | {"{", "}", "for"}


def _skip_for_header(tokens: list, i: int) -> int:
    """`for NAME in WORDS; do` (or `for ((...))`): the header runs nothing; skip to `do`."""
    i += 1
    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, Word) and tok.value == "do" and not tok.quoted:
            return i + 1
        i += 1
    raise SplitError("a for loop without `do`")


def _finish(command: Command, out: list[Command]) -> None:
    if command.words or command.redirects:
        out.append(command)


# -- subjects -----------------------------------------------------------------


_ShellConfig = namedtuple(
    "ShellConfig",
    "field write_tool write_field read_tool read_field",
    defaults=("command", "edit", "path", "read", "path"),
)


class ShellConfig(_ShellConfig):
    """Where a shell call's parts go: the command field, and the file tools."""

    __slots__ = ()


DEFAULT_CONFIG = ShellConfig()


# A command with none of these (and only ASCII) is plain words and list/pipeline operators.
_NOT_PLAIN = frozenset("'\"\\$`#<>(){}!*?[]~=\r\v\f")
# The list and pipeline operators, longest first; NUL, which no command holds, stands in for each.
_PLAIN_SEPARATORS = ("||", "&&", "|&", ";", "&", "|", "\n")
# What `shlex.quote` leaves unquoted (its `[^\w@%+=:,./-]` test, ASCII).
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-")
_SAFE_TEXT = _SAFE | frozenset(" \t")
_SAFE_SPACE = _SAFE | frozenset(" ")
# The characters the operators are made of.
_SEPARATOR_CHARS = frozenset("|&;\n")


def quote_join(words: list[str]) -> str:
    """`shlex.join`, without importing shlex (and `re`) for words that need no quotes."""
    if "" not in words:
        # Most commands: no word needs quotes, so the words joined hold only
        # safe characters and the spaces between them (three C passes, where
        # the loop below costs a test per word).
        joined = " ".join(words)
        if joined.count(" ") == len(words) - 1 and _SAFE_SPACE.issuperset(joined):
            return joined
    from shlex import quote

    return " ".join([word if word and _SAFE.issuperset(word) else quote(word) for word in words])


def _split_plain(command: str, config: ShellConfig) -> list[dict] | None:
    """The fast path for the commonest input: no quotes, expansions, redirects or groups.

    Returns None whenever the general path is needed (a wrapper, a shell, an
    assignment, a path to a program, a program named in capitals, a reserved
    word, an empty command).
    String methods only: see `_compile_patterns`.
    """
    if not command.isascii() or not _NOT_PLAIN.isdisjoint(command):
        return None
    if _SEPARATOR_CHARS.isdisjoint(command):
        pieces = [command]  # one command: nothing to mark (most calls)
    else:
        marked = command  # `split` refused NUL already
        for separator in _PLAIN_SEPARATORS:
            marked = marked.replace(separator, "\0")
        pieces = marked.split("\0")
    out = []
    last = len(pieces) - 1
    for k, piece in enumerate(pieces):
        stripped = piece.strip(" \t")
        if not stripped:
            if k == last:
                continue
            return None  # maybe a syntax error: let the general path say
        words = [word for word in stripped.replace("\t", " ").split(" ") if word]
        head = words[0]
        if head in _SPECIAL or "/" in head or head.lower() != head:
            return None
        if head in _READ_ARGUMENTS:  # `git -C . push`, `find -exec`, `uv run`
            if head == "git":  # the commonest: tested here, not by a call (measured)
                if len(words) > 1 and words[1][0] == "-":
                    return None
            elif _READ_ARGUMENTS[head](words):
                return None
        # Words of safe characters only need no quoting: join them as they are.
        text = " ".join(words) if _SAFE_TEXT.issuperset(stripped) else quote_join(words)
        out.append({"args": {config.field: text}, "text": stripped})
    return out


def split(command: str, config: ShellConfig = DEFAULT_CONFIG, depth: int = 0) -> list[dict]:
    if len(command) > MAX_LENGTH:
        raise SplitError(f"the command is longer than {MAX_LENGTH} characters")
    if depth > MAX_DEPTH:
        raise SplitError(f"shell strings nested deeper than {MAX_DEPTH} levels")
    if "\x00" in command:
        raise SplitError("the command holds a NUL character")
    plain = _split_plain(command, config)
    return plain if plain is not None else split_general(command, config, depth)


def split_general(command: str, config: ShellConfig = DEFAULT_CONFIG, depth: int = 0) -> list[dict]:
    """The full path: lex, flatten, and read every simple command."""
    out: list[dict] = []
    for cmd in commands(lex(command), command):
        out.extend(_subjects(cmd, command, config, depth))
    return out


def _is_safe_assignment(name: str) -> bool:
    return name in SAFE_ASSIGNMENTS or name.startswith(SAFE_ASSIGNMENT_PREFIXES)


def _subjects(cmd: Command, source: str, config: ShellConfig, depth: int) -> list[dict]:
    """The command's own subjects first, then its redirect targets."""
    if not cmd.redirects:
        return _command_subjects(cmd, source, config, depth)
    return _command_subjects(cmd, source, config, depth) + _redirect_subjects(cmd, source, config)


def _redirect_subjects(cmd: Command, source: str, config: ShellConfig) -> list[dict]:
    out: list[dict] = []
    for redirect in cmd.redirects:
        target = redirect.target
        if target is None:
            continue
        if target.expands:
            raise SplitError("a redirect target with a variable cannot be evaluated statically")
        bare = _unquoted(target, source)
        if _globs(bare):
            raise SplitError("a redirect target with a glob cannot be evaluated statically")
        if _BRACES.search(bare):
            raise SplitError(
                "a redirect target with a brace expansion cannot be evaluated statically"
            )
        if target.value in QUIET_TARGETS:
            continue
        text = source[redirect.start : redirect.end].strip()
        if redirect.op.lstrip("0123456789") in WRITE_REDIRECTS or redirect.op.endswith(">&"):
            out.append(
                {
                    "args": {config.write_field: target.value},
                    "text": text,
                    "tool": config.write_tool,
                }
            )
        else:
            out.append(
                {"args": {config.read_field: target.value}, "text": text, "tool": config.read_tool}
            )
    return out


def _command_subjects(cmd: Command, source: str, config: ShellConfig, depth: int) -> list[dict]:
    out: list[dict] = []
    words = cmd.words
    if not words:
        return out
    if cmd.redirects:
        start = min([words[0].start] + [r.start for r in cmd.redirects])
        end = max([words[-1].end] + [r.end for r in cmd.redirects])
    else:
        start, end = words[0].start, words[-1].end
    text = source[start:end].strip()

    guarded = False  # an assignment or wrapper that may change what runs came first
    assignments = []
    k = 0
    while (
        k < len(words)
        and not words[k].quoted
        and "=" in words[k].value
        and _ASSIGNMENT.match(words[k].value)
    ):
        assignments.append(words[k].value)
        k += 1
    if assignments and any(not _is_safe_assignment(a.split("=", 1)[0]) for a in assignments):
        guarded = True
    if "{" in source:
        words = _expand_braces(words, k, source)
    if k == len(words):  # assignments alone: nothing runs, but later commands may see them
        if guarded:
            return out + [{"args": {config.field: quote_join(assignments)}, "text": text}]
        return out
    if _program(words[k].value) in _STRIPPABLE:
        rest, wrapped = _strip_wrappers(words[k:])
        guarded = guarded or wrapped
    else:
        rest = words[k:] if k else words
    if not rest:
        return out + [{"args": {config.field: quote_join([w.value for w in words])}, "text": text}]
    head = rest[0]
    if _is_input(head):
        raise SplitError("a command xargs reads from its input cannot be evaluated statically")
    if head.expands or "$" in head.value and not head.quoted:
        raise SplitError("a variable in command position cannot be evaluated statically")
    if _globs(_unquoted(head, source)):
        raise SplitError("a glob in command position cannot be evaluated statically")
    name = head.value.rsplit("/", 1)[-1]
    program = name.lower()
    if program == "eval":
        raise SplitError("eval cannot be evaluated statically")
    if program in SHELLS:
        if cmd.heredoc:
            raise SplitError(f"a here-document feeding {name} cannot be evaluated statically")
        script = _shell_script(rest, program)
        if script is None and _is_input(rest[-1]):
            # `xargs bash`: its input may be `-c 'rm -rf /'`
            raise SplitError(f"{name} given its arguments by xargs cannot be evaluated statically")
        if script is not None:
            if script.expands:
                raise SplitError(
                    f"a {name} -c string with a variable cannot be evaluated statically"
                )
            inner = split(script.value, config, depth + 1)
            if guarded:
                for subject in inner:
                    subject["constrain"] = True
                out.append(
                    {"args": {config.field: quote_join([w.value for w in words])}, "text": text}
                )
            return out + inner
    later: list[dict] = []
    if program in _COMMAND_TAKERS:
        taken = _COMMAND_TAKERS[program](rest, program)
        if taken is not None:
            inner = _taken_subjects(taken, source, config, depth)
            if program in _PRIVILEGED_TAKERS or guarded:
                # As for `sudo bash -c`: deny and ask rules see what runs;
                # an allow must name the command as written.
                for subject in inner:
                    if "tool" not in subject:
                        subject["constrain"] = True
            if program in _PRIVILEGED_TAKERS:
                later = inner  # `su` stays a subject as written, as `sudo` does
            else:  # `watch`, `flock`, `script`: as `bash -c`, what runs is decided
                if guarded:
                    out.append(
                        {"args": {config.field: quote_join([w.value for w in words])}, "text": text}
                    )
                return out + inner
    if program in _LATER:
        # Commands kept to run later: a trap's at its signal (an EXIT trap
        # runs before this very command line ends), an alias's wherever it
        # is used. Their commands are subjects too: a trap's in full, as it
        # will run; an alias's to deny and ask rules (it may never run).
        for string in _LATER[program](rest):
            if string.expands:
                raise SplitError(
                    f"a command kept by {program} with a variable cannot be evaluated statically"
                )
            kept = split(string.value, config, depth + 1)
            if program == "alias":
                for subject in kept:
                    subject["constrain"] = True
            later += kept
    elif program == "find":
        later = _find_subjects(rest, source, config, depth)
        if guarded:  # `sudo find ... -exec`: held to deny and ask rules, as for `sudo bash -c`
            for subject in later:
                subject["constrain"] = True
    canonical = quote_join([w.value for w in rest])
    if guarded:
        # Deny and ask rules see the command past the assignment or wrapper;
        # an allow must name the command as written.
        out.append({"args": {config.field: quote_join([w.value for w in words])}, "text": text})
        out.append({"args": {config.field: canonical}, "text": text, "constrain": True})
    else:
        out.append({"args": {config.field: canonical}, "text": text})
    if "/" in head.value and name:
        # `/bin/rm` is `rm` to a deny rule; an allow must name the path as written.
        bare = quote_join([name] + [w.value for w in rest[1:]])
        out.append({"args": {config.field: bare}, "text": text, "constrain": True})
    if program in _RUNNERS and len(rest) > 1:
        # `uv run rm -rf /` runs rm: deny and ask rules see it; an allow
        # must name the runner as written (`uv run:*` still allows it).
        guesses = _runner_commands(rest, _RUNNERS[program], program)
        if guesses and depth + 1 > MAX_DEPTH:
            raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
        for words in guesses:
            command = Command()
            command.words = words
            for subject in _command_subjects(command, source, config, depth + 1):
                subject["constrain"] = True
                later.append(subject)
    if program == "git" and len(rest) > 1 and rest[1].value.startswith("-"):
        # `git -C . push` is a push to a deny or ask rule on `git push`; an
        # allow must name the options as written (`-c` can run commands).
        at = _git_command_at(rest)
        if 1 < at < len(rest):
            bare = quote_join(["git"] + [w.value for w in rest[at:]])
            out.append({"args": {config.field: bare}, "text": text, "constrain": True})
    if program != name:
        # `RM -rf /` runs rm where the file system ignores case (macOS): deny
        # and ask rules see the name in lower case; an allow must name it as
        # written. (Wrappers, shells and eval are known in any case above.)
        folded = quote_join([program] + [w.value for w in rest[1:]])
        out.append({"args": {config.field: folded}, "text": text, "constrain": True})
    return out + later if later else out


def _program(word: str) -> str:
    """The program a command word names, for telling wrappers, shells and eval:
    in lower case, as macOS's file system finds `SUDO` or `/BIN/BASH`."""
    return word.rsplit("/", 1)[-1].lower()


def _unquoted(word: Word, source: str) -> str:
    """The word as brace expansion and globbing see it: its quoted characters
    (and the quotes, and a backslash's) turned to NUL, which no command holds."""
    if not word.quoted:
        return word.value
    raw = source[word.start : word.end]  # terminated quotes: the lexer read them
    out = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            j = i + 2
        elif c == "'":
            j = raw.index("'", i + 1) + 1
        elif c == '"':
            j = i + 1
            while raw[j] != '"':
                j += 2 if raw[j] == "\\" else 1
            j += 1
        else:
            out.append(c)
            i += 1
            continue
        out.append("\0" * (min(j, n) - i))
        i = j
    return "".join(out)


def _globs(bare: str) -> bool:
    """Would bash expand pathnames from this (unquoted) text? `[` alone (the
    `test` command) is not a pattern; `[...]` is."""
    if "*" in bare or "?" in bare:
        return True
    at = bare.find("[")
    return at >= 0 and "]" in bare[at + 1 :]


def _expand_braces(words: list[Word], first: int, source: str) -> list[Word]:
    """Brace expansion, which bash makes before anything else: `mkdir src/{a,b}`
    runs `mkdir src/a src/b`, and `r{m,} -rf /` runs `rm r -rf /`.

    Words from `first` on (assignments before a command are not expanded).
    A word of plain characters with lists of alternatives (`x{a,,b}y`) is
    expanded, as bash would, empty results dropped; anything else that bash
    would expand (a sequence `{1..9}`, nested or quoted parts, a variable,
    more than 64 words) cannot be evaluated here and is refused.
    """
    out: list[Word] | None = None
    for at in range(first, len(words)):
        word = words[at]
        if (
            "{" not in word.value
            or "}" not in word.value
            or not _BRACES.search(_unquoted(word, source))
        ):
            if out is not None:
                out.append(word)
            continue
        if word.quoted or word.expands or not _BRACE_LISTS.fullmatch(word.value):
            raise SplitError(
                "a brace expansion other than lists of plain words (`src/{a,b}`) "
                "cannot be evaluated statically"
            )
        results = [""]
        for k, part in enumerate(_BRACE_GROUP.split(word.value)):
            if k % 2 == 0:
                results = [r + part for r in results]
            else:
                results = [r + alt for r in results for alt in part.split(",")]
            if len(results) > _MAX_BRACE_WORDS:
                raise SplitError(
                    f"a brace expansion of more than {_MAX_BRACE_WORDS} words is not supported"
                )
        if out is None:
            out = words[:at]
        out.extend(_new_word(Word, (r, word.start, word.end, False, False)) for r in results if r)
    return words if out is None else out


_MAX_BRACE_WORDS = 64


def _trap_action(words: list[Word]) -> list[Word]:
    """The command `trap ACTION SIGNAL...` sets (none for `-`, `''`, `-p`, `-l`)."""
    args = words[1:]
    if args and args[0].value == "--" and not args[0].quoted:
        args = args[1:]
    elif args and args[0].value.startswith("-") and not args[0].quoted:
        return []  # `-p`, `-l`, `-P` print; `-` alone resets
    if len(args) < 2 or args[0].value in ("", "-"):
        return []  # a lone operand is a signal to reset
    return [args[0]]


def _alias_values(words: list[Word]) -> list[Word]:
    """The commands `alias NAME=VALUE...` defines."""
    out = []
    for word in words[1:]:
        name, eq, value = word.value.partition("=")
        if eq and name and value:
            out.append(_new_word(Word, (value, word.start, word.end, word.expands, word.quoted)))
    return out


_LATER = {"trap": _trap_action, "alias": _alias_values}

# find's actions that run a command, up to a `;` argument (or `{} +`).
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
# find's actions that write the file named by their next argument.
_FIND_WRITE = frozenset({"-fprint", "-fprint0", "-fls", "-fprintf"})


def _find_subjects(words: list[Word], source: str, config: ShellConfig, depth: int) -> list[dict]:
    """What `find ... -exec COMMAND ;` runs for each file, and the files
    `-fprint FILE` writes. find reads its arguments after the shell removed
    the quotes, so `\\;`, `';'` and `"-exec"` count as written unquoted. A
    `-exec` with no end makes find refuse its whole expression: nothing runs.
    """
    if _is_input(words[-1]):  # `xargs find .`: its input may be `-exec rm {} ;`
        raise SplitError("find given arguments by xargs cannot be evaluated statically")
    out: list[dict] = []
    i, n = 1, len(words)
    while i < n:
        value = words[i].value
        if value in _FIND_WRITE and i + 1 < n:
            target = words[i + 1].value
            if words[i + 1].expands or _globs(_unquoted(words[i + 1], source)):
                raise SplitError(
                    f"find {value} with a variable or a glob cannot be evaluated statically"
                )
            if target not in QUIET_TARGETS:
                out.append(
                    {
                        "args": {config.write_field: target},
                        "text": source[words[i].start : words[i + 1].end],
                        "tool": config.write_tool,
                    }
                )
            i += 2
            continue
        if value not in _FIND_EXEC:
            i += 1
            continue
        end = i + 1
        while end < n and not (
            words[end].value == ";" or words[end].value == "+" and words[end - 1].value == "{}"
        ):
            end += 1
        if end == n:
            return out
        inner = words[i + 1 : end]
        if inner and "{}" in inner[0].value:
            raise SplitError("find running the files it finds cannot be evaluated statically")
        if inner:
            if depth + 1 > MAX_DEPTH:
                raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
            command = Command()
            command.words = inner
            out += _command_subjects(command, source, config, depth + 1)
        i = end + 1
    return out


def _options(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Programs that run a command in an environment they set up: `uv run pytest`,
# `npx tsc`, `poetry run python x.py`. Each: the subcommands that run one
# (None: the program itself does), its options that take a value, those
# that do not, and those we refuse (a shell string). An option not listed
# leaves where the command starts unknown: deny and ask rules then see the
# command from each later word that is not an option (`uv run --new x
# pytest`: `x pytest` and `pytest`), a stricter reading, never a looser one.
_PYTHON_RUN = (
    _options(
        "--with --with-editable --with-requirements -p --python --package --project "
        "--directory --extra --no-extra --group --only-group --no-group --env-file --index "
        "--index-url --default-index --extra-index-url -f --find-links --color "
        "--config-file --cache-dir --python-preference --resolution --prerelease "
        "--link-mode -P --upgrade-package --reinstall-package --refresh-package "
        "--no-binary-package --no-build-package --keyring-provider --index-strategy "
        "--exclude-newer -C --config-setting --allow-insecure-host --python-platform"
    ),
    _options(
        "-q -qq --quiet -v -vv -vvv --verbose -n --no-cache --offline --frozen --locked "
        "--no-sync --isolated --all-extras --no-dev --dev --only-dev --no-project --active "
        "--no-active --all-packages --exact --inexact --refresh --reinstall -U --upgrade "
        "--no-editable --compile-bytecode --native-tls --preview --no-config --no-env-file "
        "--no-progress --no-build-isolation --no-build --no-binary --no-python-downloads "
        "--managed-python --no-managed-python -s --script -m --module --gui-script "
        "--no-default-groups --all-groups"
    ),
    frozenset(),
)
_NODE_EXEC = (
    _options("-p --package --prefix -w --workspace --filter -F -C --dir"),
    _options(
        "-y --yes --no -q --quiet --silent --ws --workspaces --include-workspace-root "
        "-r --recursive --parallel --no-bail --report-summary --bun"
    ),
    _options("-c --call --shell-mode"),
)
_RUNNERS: dict[str, tuple[frozenset | None, frozenset[str], frozenset[str], frozenset[str]]] = {
    "uv": (frozenset({"run"}), *_PYTHON_RUN),
    "poetry": (
        frozenset({"run"}),
        _options("-C --directory -P --project"),
        _options(
            "-q --quiet -v -vv -vvv --verbose -n --no-interaction --ansi --no-ansi "
            "--no-plugins --no-cache"
        ),
        frozenset(),
    ),
    "pipenv": (
        frozenset({"run"}),
        _options("--python"),
        _options("-v --verbose -q --quiet"),
        frozenset(),
    ),
    "pdm": (
        frozenset({"run"}),
        _options("-p --project"),
        _options("-v --verbose -q --quiet -g --global -s --site-packages"),
        frozenset(),
    ),
    "conda": (
        frozenset({"run"}),
        _options("-n --name -p --prefix --cwd"),
        _options("--no-capture-output --live-stream -v --verbose --dev --debug-wrapper-scripts"),
        frozenset(),
    ),
    "pipx": (
        frozenset({"run"}),
        _options("--spec --python --index-url --pip-args"),
        _options("--no-cache -v --verbose -q --quiet"),
        frozenset(),
    ),
    "npx": (None, *_NODE_EXEC),
    "bunx": (None, *_NODE_EXEC),
    "npm": (frozenset({"exec", "x"}), *_NODE_EXEC),
    "pnpm": (frozenset({"exec", "dlx"}), *_NODE_EXEC),
    "yarn": (frozenset({"exec", "dlx"}), *_NODE_EXEC),
    "bun": (frozenset({"x"}), *_NODE_EXEC),
    "bundle": (
        frozenset({"exec"}),
        _options("--gemfile"),
        _options("--keep-file-descriptors"),
        frozenset(),
    ),
}
_RUNNERS["mamba"] = _RUNNERS["micromamba"] = _RUNNERS["conda"]
# Each guess is read in full (it may be `bash -c ...` or another runner), so
# guesses nest: at most 8 at each of MAX_DEPTH levels.
_MAX_RUNNER_GUESSES = 8


def _runner_commands(words: list[Word], spec: tuple, name: str) -> list[list[Word]]:
    """The command a runner runs (`pytest` of `uv run -q pytest -x`), or,
    past an option we do not know, each command it may be."""
    subcommands, with_value, flags, refused = spec
    i, n = 1, len(words)
    while i < n:
        value = words[i].value
        if value == "--" and subcommands is None:
            return [words[i + 1 :]] if i + 1 < n else []
        if value.startswith("-") and len(value) > 1 and value != "--":
            option = value.split("=", 1)[0]
            if option in refused:
                raise SplitError(f"{name} with option {value} cannot be evaluated statically")
            if option in flags:
                i += 1
            elif option in with_value:
                i += 1 if "=" in value else 2
            elif option[:2] in with_value and not option.startswith("--"):
                i += 1  # a short option with its value attached: `-p3.12`
            else:
                guesses = [words[j:] for j in range(i + 1, n) if not words[j].value.startswith("-")]
                if len(guesses) > _MAX_RUNNER_GUESSES:
                    raise SplitError(
                        f"{name} with option {value} and {len(guesses)} words after it "
                        "cannot be evaluated statically"
                    )
                return guesses
            continue
        if subcommands is not None:
            if value not in subcommands:
                return []  # another subcommand (`uv pip install`): nothing runs
            subcommands = None
            i += 1
            continue
        return [words[i:]]
    return []


def _getopt(words: list[Word], name: str, spec: tuple, permute: bool) -> tuple[list, list]:
    """Options and operands as GNU getopt_long reads them: `(option, value)`
    pairs (value a Word, or None) and the operands. `spec` is (short options
    with a value, short flags, short options whose value is attached or
    absent, and the same three sets of long options). `permute`: options may
    follow operands (getopt's default), else the first operand ends them.
    An option not in `spec` is refused: what follows it cannot be known."""
    short_value, short_flags, short_optional, long_value, long_flags, long_optional = spec
    options: list = []
    operands: list = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        value = word.value
        if value == "--":
            operands += words[i + 1 :]
            break
        if value.startswith("--"):
            option, eq, attached = value.partition("=")
            if option in long_value and (eq or i + 1 < n):
                options.append((option, _part_of(word, attached) if eq else words[i + 1]))
                i += 1 if eq else 2
                continue
            if option in long_optional or option in long_flags and not eq:
                options.append((option, _part_of(word, attached) if eq else None))
                i += 1
                continue
        elif value.startswith("-") and len(value) > 1:
            k = 1
            while k < len(value):
                c = value[k]
                if c in short_value or c in short_optional:
                    if k + 1 < len(value):
                        options.append(("-" + c, _part_of(word, value[k + 1 :])))
                    elif c in short_value and i + 1 < n:
                        options.append(("-" + c, words[i + 1]))
                        i += 1
                    elif c in short_value:
                        break  # no value: refused below
                    else:
                        options.append(("-" + c, None))
                    k = len(value)
                elif c in short_flags:
                    options.append(("-" + c, None))
                    k += 1
                else:
                    break
            if k == len(value):
                i += 1
                continue
        elif value == "-" and "-" in short_flags:  # `su -`
            options.append(("-", None))
            i += 1
            continue
        else:
            if not permute:
                operands += words[i:]
                break
            operands.append(word)
            i += 1
            continue
        raise SplitError(f"{name} with option {value} cannot be evaluated statically")
    return options, operands


def _part_of(word: Word, value: str) -> Word:
    """The value of `--option=value` or `-oVALUE`, as a word of its own."""
    return _new_word(Word, (value, word.start, word.end, word.expands, word.quoted))


def _option(options: list, *names: str):
    """The value of the last of these options given (getopt's), or None."""
    found = None
    for option, value in options:
        if option in names:
            found = value if value is not None else True
    return found


# Programs that run a command they are given as a string or as words:
# each returns what runs as ("string", Word) for a shell string, ("words",
# [Word]) for a command run as it is, ("file", Word) for a file it writes
# (script's log, flock's lock), or None where it runs no command of the
# caller's (`su` alone).
def _su_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "cgGsw" + ("u" if name == "runuser" else ""),
        "lmpPf-",
        "",
        frozenset(
            {"--command", "--session-command", "--shell", "--group", "--supp-group"}
            | {"--whitelist-environment", "--user"}
        ),
        frozenset({"--login", "--preserve-environment", "--pty", "--fast"}),
        frozenset(),
    )
    options, operands = _getopt(words, name, spec, permute=True)
    if _option(options, "-s", "--shell") is not None:
        raise SplitError(
            f"{name} -s (a program to run as the shell) cannot be evaluated statically"
        )
    if name == "runuser" and _option(options, "-u", "--user") is not None:
        return [("words", operands)] if operands else None  # `runuser -u USER -- CMD ARGS`
    taken = []
    string = _option(options, "-c", "--command", "--session-command")
    if string is not None:
        taken.append(("string", string))
    if operands and _is_input(operands[-1]):  # `xargs su root`: its input may be `-c CMD`
        raise SplitError(f"{name} given arguments by xargs cannot be evaluated statically")
    if len(operands) > 1:  # after the user: arguments to the user's shell (`-c STRING`)
        script = _shell_script(operands, "sh")
        if script is not None:
            taken.append(("string", script))
    return taken or None


def _script_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "cEIOBTmo",
        "aefq",
        "t",
        frozenset(
            {"--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing"}
            | {"--logging-format", "--output-limit"}
        ),
        frozenset({"--append", "--return", "--flush", "--force", "--quiet"}),
        frozenset({"--timing"}),
    )
    options, operands = _getopt(words, name, spec, permute=True)
    string = _option(options, "-c", "--command")
    if string is None:
        return None  # an interactive shell
    taken = [("string", string)]
    logs = [v for o, v in options if o in ("-I", "-O", "-B", "-T", "--log-in", "--log-out")]
    logs += [v for o, v in options if o in ("--log-io", "--log-timing", "-t", "--timing") and v]
    logs += operands[:1]
    if not operands and _option(options, "-O", "--log-out", "-B", "--log-io") is None:
        logs.append(_new_word(Word, ("typescript", 0, 0, False, False)))  # the default, in the cwd
    return taken + [("file", log) for log in logs]


def _watch_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "nq",
        "bcCeghprtwx",
        "d",
        frozenset({"--interval", "--equexit"}),
        frozenset({"--beep", "--color", "--no-color", "--errexit", "--chgexit", "--precise"})
        | frozenset({"--no-rerun", "--no-title", "--no-wrap", "--exec"}),
        frozenset({"--differences"}),
    )
    options, operands = _getopt(words, name, spec, permute=False)
    if not operands:
        return None
    if _is_input(operands[-1]):  # joined with its input, then run by sh
        raise SplitError(f"{name} given arguments by xargs cannot be evaluated statically")
    if _option(options, "-x", "--exec") is not None:
        return [("words", operands)]
    # Without -x, watch joins its arguments with spaces and hands them to `sh -c`.
    joined = " ".join(w.value for w in operands)
    expands = any(w.expands for w in operands)
    return [("string", _new_word(Word, (joined, 0, 0, expands, True)))]


def _flock_commands(words: list[Word], name: str) -> list | None:
    spec = (
        "wE",
        "sexnoFu",
        "",
        frozenset({"--wait", "--timeout", "--conflict-exit-code"}),
        frozenset({"--shared", "--exclusive", "--unlock", "--nonblock", "--nb", "--close"})
        | frozenset({"--no-fork", "--verbose", "--fcntl"}),
        frozenset(),
    )
    _, operands = _getopt(words, name, spec, permute=False)
    if len(operands) < 2:
        return None  # `flock FD`: a lock on an open file, no command
    lock = ("file", operands[0])  # created if it is missing
    if operands[1].value in ("-c", "--command"):
        if len(operands) != 3:
            raise SplitError(f"{name} -c takes one command string")
        return [("string", operands[2]), lock]
    return [("words", operands[1:]), lock]


_COMMAND_TAKERS = {
    "su": _su_commands,
    "runuser": _su_commands,
    "script": _script_commands,
    "watch": _watch_commands,
    "flock": _flock_commands,
}
_PRIVILEGED_TAKERS = frozenset({"su", "runuser"})


def _taken_subjects(taken: list, source: str, config: ShellConfig, depth: int) -> list[dict]:
    if depth + 1 > MAX_DEPTH:
        raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
    out: list[dict] = []
    for kind, word in taken:
        if kind == "string":
            if word.expands:
                raise SplitError("a command string with a variable cannot be evaluated statically")
            out += split(word.value, config, depth + 1)
        elif kind == "words":
            command = Command()
            command.words = word
            out += _command_subjects(command, source, config, depth + 1)
        else:
            if word.expands or _globs(_unquoted(word, source) if word.end else word.value):
                raise SplitError(
                    "a log file with a variable or a glob cannot be evaluated statically"
                )
            if word.value not in QUIET_TARGETS:
                out.append(
                    {
                        "args": {config.write_field: word.value},
                        "text": source[word.start : word.end] or word.value,
                        "tool": config.write_tool,
                    }
                )
    return out


# git's options before its command (git 2.39 to 2.47): those that take the
# next argument as their value (or `--name=value`), and those that do not.
_GIT_WITH_VALUE = frozenset(
    {
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--super-prefix",
        "--attr-source",
        "--shallow-file",
    }
)
_GIT_FLAGS = frozenset(
    {
        "-p",
        "--paginate",
        "-P",
        "--no-pager",
        "--bare",
        "--no-replace-objects",
        "--no-lazy-fetch",
        "--no-optional-locks",
        "--no-advice",
        "--literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
        "--exec-path",
        "--html-path",
        "--man-path",
        "--info-path",
        "--list-cmds",
        "-v",
        "--version",
        "-h",
        "--help",
    }
)


def _git_command_at(words: list[Word]) -> int:
    """Where git's command (`push` in `git -C . push`) stands, past its options."""
    i, n = 1, len(words)
    while i < n and words[i].value.startswith("-"):
        option, eq, _ = words[i].value.partition("=")
        if option in _GIT_WITH_VALUE:
            i += 1 if eq else 2
        elif option in _GIT_FLAGS and (not eq or option in ("--exec-path", "--list-cmds")):
            i += 1
        else:
            raise SplitError(f"git with option {words[i].value} cannot be evaluated statically")
    return i


def _shell_script(words: list[Word], name: str) -> Word | None:
    """The string of `bash -c STRING` (options may come first, clustered: `-lc`).

    The shell reads its options after quote removal, so `'-c'` is `-c`.
    """
    i = 1
    seen_c = False
    while i < len(words):
        value = words[i].value
        if value.startswith("--") and len(value) > 2:
            option, eq, _ = value.partition("=")
            if option == "--command":  # fish: the string is the option's value
                return _value_of(words, i, eq)
            if option == "--init-command":
                raise SplitError(f"{name} --init-command cannot be evaluated statically")
            i += 2 if option in _SHELL_LONG_WITH_VALUE and not eq else 1
            continue
        if value == "--":  # the end of the options: the string, or a script file
            if seen_c and i + 1 < len(words):
                return words[i + 1]
            break
        if value.startswith(("-", "+")) and len(value) > 1:
            if name == "fish" and "C" in value[1:]:
                raise SplitError("fish -C (a command to run first) cannot be evaluated statically")
            seen_c = seen_c or "c" in value[1:]
            if "o" in value[1:] or "O" in value[1:]:
                i += 1  # -o OPTION takes a value
            i += 1
            continue
        return words[i] if seen_c else None
    if seen_c:
        raise SplitError("`-c` without a command string")
    return None


def _value_of(words: list[Word], i: int, eq: str) -> Word:
    if eq:
        return _part_of(words[i], words[i].value.partition("=")[2])
    if i + 1 < len(words):
        return words[i + 1]
    raise SplitError("`--command` without a command string")


# The shells' long options that take the next word as their value (bash's
# startup files). fish's command to run first (`-C`, `--init-command`) is
# refused: a second string to read is not worth the code for a shell agents
# rarely use.
_SHELL_LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file"})


# Wrappers that run their command without changing what it is. Options that
# take a value are listed so the value is not mistaken for the command.
_WRAPPERS: dict[str, tuple[frozenset[str], frozenset[str], int]] = {
    # name: (options taking a value, options without, leading operands before the command)
    "timeout": (
        frozenset({"-s", "--signal", "-k", "--kill-after"}),
        # (-p and -f are coreutils 9.5's short forms: older ones refuse them and run nothing)
        frozenset({"-p", "--preserve-status", "-f", "--foreground", "-v", "--verbose"}),
        1,
    ),
    "time": (frozenset(), frozenset({"-p"}), 0),
    "nice": (frozenset({"-n", "--adjustment"}), frozenset(), 0),
    "nohup": (frozenset(), frozenset(), 0),
    "setsid": (frozenset(), frozenset({"-c", "--ctty", "-f", "--fork", "-w", "--wait"}), 0),
    "ionice": (
        frozenset({"-c", "--class", "-n", "--classdata"}),
        frozenset({"-t", "--ignore"}),
        0,
    ),
    "taskset": (frozenset(), frozenset({"-a", "--all-tasks", "-c", "--cpu-list"}), 1),
    "chrt": (
        frozenset({"-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"}),
        frozenset(
            {
                "-b",
                "--batch",
                "-d",
                "--deadline",
                "-f",
                "--fifo",
                "-i",
                "--idle",
                "-o",
                "--other",
                "-r",
                "--rr",
                "-R",
                "--reset-on-fork",
                "-a",
                "--all-tasks",
                "-v",
                "--verbose",
            }
        ),
        1,
    ),
    "caffeinate": (frozenset({"-t", "-w"}), frozenset({"-d", "-i", "-m", "-s", "-u"}), 0),
    "busybox": (frozenset(), frozenset(), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), frozenset(), 0),
    "command": (frozenset(), frozenset({"-p", "-v", "-V"}), 0),
    "builtin": (frozenset(), frozenset(), 0),
    "exec": (frozenset({"-a"}), frozenset({"-c", "-l"}), 0),
    "env": (
        frozenset({"-u", "--unset", "-C", "--chdir"}),
        # The signal options take a value only after `=`.
        frozenset(
            {"-i", "--ignore-environment", "-0", "--null", "-", "-v", "--debug"}
            | {"--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling"}
        ),
        0,
    ),
    "xargs": (
        frozenset(
            {
                "-n",
                "--max-args",
                "-P",
                "--max-procs",
                "-L",
                "-d",
                "--delimiter",
                "-s",
                "--max-chars",
                "-E",
                "-a",
                "--arg-file",
                "-I",
                "--process-slot-var",
            }
        ),
        # `--replace`, `--eof` and `--max-lines` take a value only after `=`
        # (`-i`, `-e` and `-l` only attached: see _XARGS_ATTACHED).
        frozenset(
            {
                "-0",
                "--null",
                "-r",
                "--no-run-if-empty",
                "-t",
                "--verbose",
                "-x",
                "--exit",
                "-p",
                "--interactive",
                "-o",
                "--open-tty",
                "--replace",
                "--eof",
                "--max-lines",
            }
        ),
        0,
    ),
}
_XARGS_ATTACHED = frozenset({"-i", "-e", "-l"})


def _input_words(at: int) -> Word:
    """The words xargs appends, as one word `…` (no source: start == end)."""
    return _new_word(Word, ("…", at, at, False, False))


def _is_input(word: Word) -> bool:
    return word.start == word.end and word.value == "…"


def _replaces(options: list[Word]) -> bool:
    """Does xargs put its input where `{}` stands (-I, -i, --replace), not at the end?"""
    return any(w.value.startswith(("-I", "-i", "--replace")) for w in options)


# Wrappers that change who runs the command: it stays a subject as written,
# and the command they run is a constraint (deny and ask rules see it).
_PRIVILEGE = {
    "sudo": (
        frozenset(
            {
                "-u",
                "--user",
                "-g",
                "--group",
                "-h",
                "--host",
                "-p",
                "--prompt",
                "-C",
                "--close-from",
                "-D",
                "--chdir",
                "-r",
                "--role",
                "-t",
                "--type",
                "-T",
                "--command-timeout",
            }
        ),
        frozenset(
            {
                "-E",
                "--preserve-env",
                "-H",
                "--set-home",
                "-n",
                "--non-interactive",
                "-k",
                "--reset-timestamp",
                "-S",
                "--stdin",
                "-b",
                "--background",
                "-P",
                "--preserve-groups",
                "--",
            }
        ),
    ),
    "doas": (frozenset({"-u", "-C"}), frozenset({"-n", "-s", "--"})),
    "pkexec": (frozenset({"--user"}), frozenset({"--disable-internal-agent", "--keep-cwd"})),
}


def _strip_wrappers(words: list[Word]) -> tuple[list[Word], bool]:
    """Drop wrappers from the front; report whether one may change what runs."""
    guarded = False
    while words:
        head = words[0]
        if head.expands:
            return words, guarded
        name = _program(head.value)
        if name in _WRAPPERS:
            with_value, flags, operands = _WRAPPERS[name]
            i = _skip_options(words, 1, with_value, flags, name)
            if name == "env":
                # env sets every argument with `=` before the command, quoted
                # or not, whatever its name (`env a-b=1 rm` runs rm).
                while i < len(words) and "=" in words[i].value:
                    variable = words[i].value.split("=", 1)[0]
                    if not (_ASSIGNMENT.match(words[i].value) and _is_safe_assignment(variable)):
                        guarded = True
                    i += 1
            i += operands
            if name == "xargs" and i < len(words) and not _replaces(words[1:i]):
                # xargs appends the words it reads to the command: an exact
                # rule must not allow `git push` for `xargs git push` (fed
                # `--force`). `…` stands for them; `git push:*` still matches.
                # (Once: `xargs xargs rm` appends them once too.)
                if not _is_input(words[-1]):
                    words = words[i:] + [_input_words(head.end)]
                    continue
            words = words[i:]
            continue
        if name in _PRIVILEGE:
            with_value, flags = _PRIVILEGE[name]
            i = _skip_options(words, 1, with_value, flags, name)
            return words[i:], True
        return words, guarded
    return words, guarded


def _skip_options(
    words: list[Word], i: int, with_value: frozenset[str], flags: frozenset[str], name: str
) -> int:
    while i < len(words):
        w = words[i]
        value = w.value
        # A quoted option is an option: the program sees `'-u'` as `-u`.
        if not value.startswith("-") or value == "-" and "-" not in flags:
            break
        if value == "--":
            return i + 1
        option = value.split("=", 1)[0]
        if option in flags:
            i += 1
        elif option in with_value:
            i += 1 if "=" in value else 2
        elif option[:2] in with_value and len(option) > 2 and not option.startswith("--"):
            i += 1  # a short option with its value attached: `-n10`, `-oL`
        elif name == "xargs" and option[:2] in _XARGS_ATTACHED:
            i += 1  # `-i`, `-i{}`: an optional value is attached or absent
        elif name == "nice" and option[1:].lstrip("-").isdigit():
            i += 1  # nice -10
        elif name == "timeout" and option.startswith("-") and option[1:2].isdigit():
            break  # a negative number is not an option here
        else:
            raise SplitError(f"{name} with option {value} cannot be evaluated statically")
    return i


# Command names the fast path leaves to the general one.
_SPECIAL = frozenset(_WRAPPERS) | frozenset(_PRIVILEGE) | SHELLS | RESERVED_SKIP | RESERVED_END
_SPECIAL |= frozenset(RESERVED_REFUSED) | {"for", "eval", "{", "}", "time"}
_SPECIAL |= frozenset(_COMMAND_TAKERS)
# Programs whose arguments can change what runs, and when the plain path must
# leave such a command to the general one.
_READ_ARGUMENTS = {
    "git": None,  # `git -C`: tested in _split_plain itself, the commonest case (measured)
    "find": lambda words: not (_FIND_EXEC.isdisjoint(words) and _FIND_WRITE.isdisjoint(words)),
}
for _name, _spec in _RUNNERS.items():
    _READ_ARGUMENTS[_name] = (
        (lambda words: len(words) > 1)
        if _spec[0] is None
        else (lambda words, runs=_spec[0]: not runs.isdisjoint(words))
    )
del _name, _spec
_STRIPPABLE = frozenset(_WRAPPERS) | frozenset(_PRIVILEGE)
