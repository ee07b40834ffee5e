"""sed's and awk's scripts: the commands they run and the files they read
and write. `sed '1e rm -rf /' f`, `awk 'BEGIN { system("rm -rf /") }'`
and `echo x | awk '{ print | "sh" }'` ran rm past a deny on `rm:*`, and
`sed -n 'w /etc/hosts' f` or `awk '{ print > "/etc/hosts" }'` wrote past
a deny on editing it, though `Bash(sed:*)` and `Bash(awk:*)` are what
users allow as text tools. Each command they run is a part like any
other, as find's `-exec` is (it needs an allow of its own); the files
they name are read and edit subjects held to those tools' deny and ask
rules. What cannot be known from the words is refused: a script with a
variable, sed's `e` with no command and `s///e` (the text being edited,
run as a command), awk's commands and files built at run time, its
indirect calls and a program that names ARGV or ARGC (the files it reads).
A script in a file (`sed -f`, `awk -f`) is not read, as a Makefile is not
(the README). `shell` calls `script_effects` for the programs in SCRIPTED.
"""

from __future__ import annotations

from .programs import SED_LONG_VALUES
from .words import FEEDERS, SplitError, Word, is_input, long_option, part_of

# ---------------------------------------------------------------- sed

# GNU sed 4.9's own reading of a script (compile.c), and BSD sed's where it
# differs (its `-i SUFFIX`). Both read a bracket's delimiter in a regex as
# the bracket's (`s/[/]/x/`); sed before 4.3 did not: read both ways.
_SED_BLANKS = " \t\r\v\f"
_SED_PLAIN = frozenset("=dDgGhHnNpPxzF")  # commands with no argument
_SED_NUMBERED = frozenset("lLqQ")  # an optional number
_SED_LABELLED = frozenset(":btTv")  # a label, to a blank or `;`
_SED_TEXT = frozenset("aic")  # text, to an unescaped newline
_SED_LINE = {"r": "reads", "R": "reads", "w": "edits", "W": "edits"}  # a file, to the newline
_SED_S_FLAGS = frozenset("gpiImM0123456789")
_SED_QUIET = frozenset({"/dev/stdout", "/dev/stderr"})  # GNU's own, not files


class _SedError(SplitError):
    """A script sed refuses, or one this reader does not follow."""


def _sed_skip(script: str, i: int, chars: str) -> int:
    n = len(script)
    while i < n and script[i] in chars:
        i += 1
    return i


def bracket_end(text: str, i: int, escapes: bool = False) -> int:
    """Where the bracket expression at `text[i]` ends (its `]`), or -1, as
    GNU sed reads one: a `]` first (or after `^`) is a member, `[:alpha:]`,
    `[.a.]` and `[=a=]` are read whole, a backslash is a member (gawk and
    mawk read it as an escape: `escapes`)."""
    n = len(text)
    i += 2 if text[i + 1 : i + 2] == "^" else 1
    i += 1 if text[i : i + 1] == "]" else 0
    while i < n:
        c = text[i]
        if c == "]":
            return i
        if c == "\n":
            return -1
        if c == "\\" and escapes:
            i += 2
            continue
        if c == "[" and text[i + 1 : i + 2] in (":", ".", "="):
            close = text.find(text[i + 1] + "]", i + 2)
            if close < 0:
                return -1
            i = close + 2
            continue
        i += 1
    return -1


def _sed_delimited(script: str, i: int, delimiter: str, brackets: bool) -> int:
    """Past a regex, or an s or y command's text, up to `delimiter`; in a
    regex read as sed 4.3 and later read it, a bracket's is the bracket's."""
    n = len(script)
    while i < n:
        c = script[i]
        if c == delimiter:
            return i + 1
        if c == "\\":
            i += 2
            continue
        if c == "\n":
            break
        if c == "[" and brackets:
            i = bracket_end(script, i)
            if i < 0:
                break
        i += 1
    raise _SedError("an unterminated regex, or s or y command")


def _sed_end(script: str, i: int) -> int:
    i = _sed_skip(script, i, _SED_BLANKS)
    if i < len(script) and script[i] not in ";\n}#":
        raise _SedError(f"{script[i]!r} after a command")
    return i


def _sed_address(script: str, i: int, brackets: bool) -> int:
    n = len(script)
    c = script[i] if i < n else ""
    if c == "/" or c == "\\":
        if c == "\\":
            i += 1
            if i >= n or script[i] in "\n\\":
                raise _SedError("a bad regex delimiter")
        i = _sed_delimited(script, i + 1, script[i], brackets)
        return _sed_skip(script, i, "IM" + _SED_BLANKS)
    if c.isdigit() or c == "$" or c in "+~":
        i = _sed_skip(script, i + 1, "0123456789") if c != "$" else i + 1
        j = _sed_skip(script, i, _SED_BLANKS)
        if j < n and script[j] == "~":  # first~step
            return _sed_skip(script, _sed_skip(script, j + 1, _SED_BLANKS), "0123456789")
    return i


def _sed_text_end(script: str, i: int) -> int:
    """Where a, i and c's text ends: at a newline no backslash escapes."""
    n = len(script)
    while i < n and script[i] != "\n":
        i += 2 if script[i] == "\\" else 1
    return min(i, n)


def _sed_line(script: str, i: int) -> tuple[str, int]:
    """An r or w command's file: past blanks, to the end of the line (`;`
    and `}` included, as sed reads it)."""
    i = _sed_skip(script, i, _SED_BLANKS)
    end = script.find("\n", i)
    end = len(script) if end < 0 else end
    return script[i:end], end


def sed_script(script: str, brackets: bool = True) -> list[tuple[str, str]]:
    """What one sed script does that a policy sees: ("string", CMD) for
    `e CMD`, ("reads", FILE) for r and R, ("edits", FILE) for w, W and
    s///w. `e` alone and s///e run the text being edited: refused."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(script)
    while True:
        i = _sed_skip(script, i, _SED_BLANKS + ";\n")
        if i >= n:
            return out
        if script[i] == "#":
            i = script.find("\n", i)
            if i < 0:
                return out
            continue
        start = i
        i = _sed_address(script, i, brackets)
        if i > start:
            j = _sed_skip(script, i, _SED_BLANKS)
            if j < n and script[j] == ",":
                k = _sed_skip(script, j + 1, _SED_BLANKS)
                i = _sed_address(script, k, brackets)
                if i == k:
                    raise _SedError("a missing address after ','")
        i = _sed_skip(script, i, _SED_BLANKS)
        if i < n and script[i] == "!":
            i = _sed_skip(script, i + 1, _SED_BLANKS)
        if i >= n:
            raise _SedError("a missing command")
        command = script[i]
        i += 1
        if command == "{":
            continue
        if command == "}" or command in _SED_PLAIN:
            i = _sed_end(script, i)
        elif command in _SED_NUMBERED:
            i = _sed_end(script, _sed_skip(script, _sed_skip(script, i, _SED_BLANKS), "0123456789"))
        elif command in _SED_LABELLED:
            i = _sed_skip(script, i, _SED_BLANKS)
            while i < n and script[i] not in _SED_BLANKS + ";\n":
                i += 1
        elif command in _SED_TEXT:
            i = _sed_text_end(script, _sed_skip(script, i, _SED_BLANKS))
        elif command == "e":  # its command is read as a's text is
            i = _sed_skip(script, i, _SED_BLANKS)
            if i >= n or script[i] == "\n":
                raise SplitError(
                    "sed's e with no command (the line, run) cannot be evaluated statically"
                )
            if script[i] == "\\":  # `e\` and the command on the next line
                i += 2 if script[i + 1 : i + 2] == "\n" else 1
            start, i = i, _sed_text_end(script, i)
            if "\\" in script[start:i]:
                raise SplitError(
                    "sed's e with a backslash in its command cannot be evaluated statically"
                )
            out.append(("string", script[start:i]))
        elif command in _SED_LINE:
            argument, i = _sed_line(script, i)
            if not argument:
                raise _SedError(f"{command} with no file")
            out.append((_SED_LINE[command], argument))
        elif command == "s" or command == "y":
            delimiter = script[i] if i < n else "\n"
            if delimiter in "\n\\":
                raise _SedError(f"a bad {command} command delimiter")
            i = _sed_delimited(script, i + 1, delimiter, brackets and command == "s")
            i = _sed_delimited(script, i, delimiter, False)
            if command == "y":
                i = _sed_end(script, i)
                continue
            while i < n and script[i] not in ";\n}#":
                flag = script[i]
                if flag == "e":
                    raise SplitError(
                        "sed's s///e (the line, run as a command) cannot be evaluated statically"
                    )
                if flag == "w":
                    argument, i = _sed_line(script, i + 1)
                    if not argument:
                        raise _SedError("s///w with no file")
                    out.append(("edits", argument))
                    break
                if flag not in _SED_S_FLAGS and flag not in _SED_BLANKS:
                    raise _SedError(f"an unknown s option {flag!r}")
                i += 1
        else:
            raise _SedError(f"an unknown command {command!r}")


# GNU sed's short options that take a value (`-i`'s is attached only), and
# its long ones by the shortest prefix getopt_long takes (`--s` is
# ambiguous: --sandbox, --separate, --silent).
_SED_VALUES = frozenset("efl")
_SED_LONG = {**SED_LONG_VALUES, "--sa": "--sandbox"}


def _sed_effects(words: list[Word], name: str) -> list:
    scripts: list[Word] = []  # -e's, in order
    operands: list[Word] = []
    given = sandbox = bsd_suffix = False  # -e or -f given; `-i SUFFIX` may be BSD's
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        value = word.value
        i += 1
        if value == "--":
            operands += words[i:]
            break
        if value[:1] != "-" or value == "-" or is_input(word):
            operands.append(word)
            continue
        if value[:2] == "--":
            option, eq, attached = value.partition("=")
            full = long_option(option, _SED_LONG)
            if full == "--sandbox":
                sandbox = True
            elif full and (i < n or eq):
                given = given or full != "--line-length"
                if full == "--expression":
                    scripts.append(part_of(word, attached) if eq else words[i])
                i += 0 if eq else 1
            continue
        k = 1
        while k < len(value):
            letter = value[k]
            k += 1
            if letter == "i" or letter == "I":  # GNU's suffix is attached; BSD's may not be
                bsd_suffix = k == len(value)
                break
            if letter in _SED_VALUES:
                given = given or letter != "l"
                if letter == "e":
                    if k < len(value):
                        scripts.append(part_of(word, value[k:]))
                    elif i < n:
                        scripts.append(words[i])
                i += 0 if k < len(value) else 1
                break
    if not given and operands:
        scripts.append(operands[0])
    if sandbox or not scripts:  # --sandbox refuses e, r and w
        return []
    for word in scripts:
        if word.expands or is_input(word):
            raise SplitError(
                f"a {name} script with a variable or input from {FEEDERS} "
                "cannot be evaluated statically"
            )
    # GNU sed joins its -e scripts with newlines (`-e 'a\' -e TEXT`).
    joined = "\n".join(word.value for word in scripts)
    found = _sed_found(joined, name)
    if bsd_suffix and not given and len(operands) > 1 and not operands[1].expands:
        # BSD's `sed -i '' SCRIPT FILE`: the second word may be the script.
        # BSD sed has no e; a word that is no script is a file to GNU.
        try:
            found += [(k, v) for k, v in sed_script(operands[1].value) if k != "string"]
        except SplitError:
            pass
    # Where each -e script stands, for the prompt.
    taken = []
    for kind, value in found:
        if kind == "edits" and value in _SED_QUIET:
            continue
        where = next((w for w in scripts + operands[1:2] if value in w.value), scripts[0])
        taken.append((kind, part_of(where, value)))
    return taken


def _sed_found(script: str, name: str) -> list[tuple[str, str]]:
    try:
        found = sed_script(script)
    except _SedError as error:
        raise SplitError(
            f"a {name} script that does not parse here ({error}) cannot be evaluated statically"
        ) from None
    if "[" in script:  # as sed before 4.3 read it
        try:
            found += sed_script(script, False)
        except _SedError:
            pass  # such a sed refuses it
    return found


# ---------------------------------------------------------------- awk

# POSIX awk, gawk 5, mawk 1.3 and BusyBox's: a program's tokens.
_AWK_OPERATORS = (
    "**=", "||", "&&", "|&", ">>", ">=", "<=", "==", "!=", "++", "--", "+=", "-=",
    "*=", "/=", "%=", "^=", "**", "!~",
)  # fmt: skip
_AWK_ENDS_VALUE = frozenset({")", "]", "$", "++", "--"})  # `/` after these divides
_AWK_STARTS_VALUE = frozenset({"print", "printf", "return", "case", "do", "else"})
_AWK_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "/": "/", "a": "\a"}
_AWK_ESCAPES.update({"b": "\b", "f": "\f", "v": "\v"})
_AWK_QUIET = frozenset({"-", "/dev/stdout", "/dev/stderr", "/dev/stdin"})


def _awk_tokens(program: str) -> list[tuple[str, str]]:
    """(kind, text): kind is "str" (decoded), "re", "num", "name", "nl" or
    the operator itself. A `/` starts a regex where no value ends before
    it; where one may have, it divides: a regex read as a division only
    adds tokens, a division read as a regex would hide what follows."""
    tokens: list[tuple[str, str]] = []
    i, n = 0, len(program)
    while i < n:
        c = program[i]
        if c in " \t\r":
            i += 1
        elif c == "\\" and program[i + 1 : i + 2] == "\n":
            i += 2
        elif c == "\n" or c == ";":
            tokens.append(("nl", c))
            i += 1
        elif c == "#":
            end = program.find("\n", i)
            i = n if end < 0 else end
        elif c == '"':
            text, i = _awk_string(program, i + 1)
            tokens.append(("str", text))
        elif c == "/" and not _awk_value_ended(tokens):
            end = _awk_regex_end(program, i + 1)
            tokens.append(("re", program[i + 1 : end]))
            i = end + 1
        elif c.isalpha() or c == "_":
            j = i + 1
            while j < n and (program[j].isalnum() or program[j] == "_"):
                j += 1
            tokens.append(("name", program[i:j]))
            i = j
        elif c.isdigit() or c == "." and program[i + 1 : i + 2].isdigit():
            j = i + 1
            while j < n and (program[j].isalnum() or program[j] == "."):
                j += 1
            tokens.append(("num", program[i:j]))
            i = j
        else:
            operator = next((o for o in _AWK_OPERATORS if program.startswith(o, i)), c)
            tokens.append((operator, operator))
            i += len(operator)
    return tokens


def _awk_value_ended(tokens: list) -> bool:
    if not tokens:
        return False
    kind, text = tokens[-1]
    if kind == "name":
        return text not in _AWK_STARTS_VALUE
    return kind in ("str", "re", "num") or kind in _AWK_ENDS_VALUE


def _awk_string(program: str, i: int) -> tuple[str, int]:
    out: list[str] = []
    n = len(program)
    while i < n:
        c = program[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\n":
            break
        if c == "\\" and i + 1 < n:
            escaped = program[i + 1]
            if escaped == "\n":
                i += 2
                continue
            out.append(_AWK_ESCAPES.get(escaped, "\\" + escaped))
            i += 2
            continue
        out.append(c)
        i += 1
    raise SplitError("an awk program with an unterminated string cannot be evaluated statically")


def _awk_regex_end(program: str, i: int) -> int:
    """Where a regex ends: at the first `/` no backslash escapes. gawk and
    mawk read a bracket's `/` as the bracket's (`/[/]/`), the one true awk
    before 2019 did not, and they read a backslash in one differently: a
    regex where that changes its end would hide code from one reading or
    the other, and is refused."""
    n = len(program)
    plain = bracketed = -1
    k = i
    while k < n and program[k] != "\n":
        c = program[k]
        if c == "/":
            plain = k
            break
        k += 2 if c == "\\" else 1
    k = i
    while k < n and program[k] != "\n":
        c = program[k]
        if c == "/":
            bracketed = k
            break
        if c == "[":
            k = bracket_end(program, k, escapes=True)
            if k < 0:
                break
        k += 2 if c == "\\" else 1
    if plain < 0:
        raise SplitError("an awk program with an unterminated regex cannot be evaluated statically")
    if bracketed != plain:
        raise SplitError(
            "an awk regex with a / in a bracket expression (each awk reads it "
            "differently) cannot be evaluated statically"
        )
    return plain


def _awk_refused(what: str) -> SplitError:
    return SplitError(f"awk's {what} cannot be evaluated statically")


def _awk_literal(tokens: list, k: int, what: str) -> str:
    """The string at `tokens[k]`, which must stand alone: not a variable,
    not joined to another value (`"out_" NR ".txt"`)."""
    if k >= len(tokens) or tokens[k][0] != "str":
        raise _awk_refused(what + " that is not one string")
    if k + 1 < len(tokens) and tokens[k + 1][0] in ("str", "num", "name", "$", "(", "re"):
        raise _awk_refused(what + " that is not one string")
    return tokens[k][1]


def awk_program(program: str) -> list[tuple[str, str]]:
    """What one awk program does that a policy sees: ("string", CMD) for
    `system(CMD)`, `print | CMD` and `CMD | getline`; ("reads", FILE) for
    `getline < FILE`; ("edits", FILE) for `print > FILE` and `>>`."""
    tokens = _awk_tokens(program)
    out: list[tuple[str, str]] = []
    for k, (kind, text) in enumerate(tokens):
        if kind == "name":
            if text in ("ARGV", "ARGC"):
                raise _awk_refused("ARGV or ARGC (the files it reads, which it may change)")
            if text == "system" and k + 1 < len(tokens) and tokens[k + 1][0] == "(":
                command = _awk_literal(tokens, k + 2, "system() with a command")
                if k + 3 >= len(tokens) or tokens[k + 3][0] != ")":
                    raise _awk_refused("system() with a command that is not one string")
                if command:  # `system("")` only flushes the output
                    out.append(("string", command))
            elif text in ("print", "printf"):
                target = _awk_output(tokens, k + 1)
                if target is not None:
                    file = _awk_literal(tokens, target, "print to a file")
                    if file not in _AWK_QUIET:
                        out.append(("edits", file))
            elif text == "getline":
                source = _awk_input(tokens, k + 1)
                if source is not None:
                    file = _awk_literal(tokens, source, "getline from a file")
                    if file not in _AWK_QUIET:
                        out.append(("reads", file))
        elif kind == "|" or kind == "|&":
            if k + 1 < len(tokens) and tokens[k + 1] == ("name", "getline"):
                before = tokens[k - 2][0] if k >= 2 else "nl"
                if k < 1 or tokens[k - 1][0] != "str" or before in ("str", "num", "name", ")"):
                    raise _awk_refused("getline from a command that is not one string")
                out.append(("string", tokens[k - 1][1]))
            else:
                out.append(("string", _awk_literal(tokens, k + 1, "print to a command")))
        elif kind == "@" and k + 2 < len(tokens) and tokens[k + 2][0] == "(":
            raise _awk_refused("indirect call (`@name()`, which may call system)")
    return out


def _awk_output(tokens: list, k: int) -> int | None:
    """Where a print statement's `>` or `>>` file is, if it has one: a `>`
    outside its parentheses redirects it."""
    depth = 0
    while k < len(tokens):
        kind = tokens[k][0]
        if kind in ("(", "["):
            depth += 1
        elif kind in (")", "]"):
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:
            if kind in ("nl", "}", "|", "|&"):
                return None
            if kind in (">", ">>"):
                return k + 1
        k += 1
    return None


def _awk_input(tokens: list, k: int) -> int | None:
    """Where `getline [VAR] < FILE`'s file is, if it has one."""
    if k < len(tokens) and tokens[k][0] == "$":
        k += 2  # `getline $1 < f`
    elif k < len(tokens) and tokens[k][0] == "name":
        k += 1
        if k < len(tokens) and tokens[k][0] == "[":  # `getline a[i] < f`
            depth = 0
            while k < len(tokens):
                depth += {"[": 1, "]": -1}.get(tokens[k][0], 0)
                k += 1
                if depth == 0:
                    break
    if k < len(tokens) and tokens[k][0] == "<":
        return k + 1
    return None


# gawk's, mawk's and BusyBox awk's options that take a value; those whose
# value is a file of code (not read here, as a Makefile is not); gawk's long
# ones by the shortest prefix getopt_long takes.
_AWK_VALUES = frozenset("FvfEilWe")
_AWK_LONG = {
    "--a": "--assign",
    "--e": "--exec",
    "--fil": "--file",
    "--fie": "--field-separator",
    "--i": "--include",
    "--lo": "--load",
    "--so": "--source",
    "--sa": "--sandbox",
}
_AWK_PROGRAM_FILES = frozenset({"-f", "-E", "--file", "--exec"})


def _awk_effects(words: list[Word], name: str) -> list:
    programs: list[Word] = []  # -e's and --source's
    operands: list[Word] = []
    from_file = sandbox = in_place = False
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        value = word.value
        i += 1
        if value == "--":
            operands = words[i:]
            break
        if value[:1] != "-" or value == "-" or is_input(word):
            operands = words[i - 1 :]  # awk's options end at its program
            break
        option, argument = "", None
        if value[:2] == "--":
            long_name, eq, attached = value.partition("=")
            option = long_option(long_name, _AWK_LONG)
            argument = part_of(word, attached) if eq else None
        else:
            for k in range(1, len(value)):
                letter = value[k]
                if letter == "S":
                    sandbox = True
                elif letter in "dDLop":  # an optional value, attached
                    break
                elif letter in _AWK_VALUES:
                    option = "-" + letter
                    argument = part_of(word, value[k + 1 :]) if k + 1 < len(value) else None
                    break
            if option == "-W":  # `-W source=TEXT` is gawk's and mawk's `--source=TEXT`
                if argument is None and i < n:
                    argument, i = words[i], i + 1
                long_name, eq, attached = (argument.value if argument else "").partition("=")
                option = long_option("--" + long_name, _AWK_LONG)
                argument = part_of(argument, attached) if eq else None
        if option == "--sandbox":
            sandbox = True
            continue
        if not option:
            continue  # a flag, or an option whose value is attached or none
        if argument is None:
            if i >= n:
                break
            argument, i = words[i], i + 1
        if option in ("-e", "--source"):
            programs.append(argument)
        elif option in _AWK_PROGRAM_FILES:
            from_file = True
        elif option in ("-i", "--include") and argument.value in ("inplace", "inplace.awk"):
            in_place = True
    if not programs and not from_file and operands:
        programs, operands = operands[:1], operands[1:]
    taken: list = []
    if not sandbox:  # --sandbox refuses system, pipes and redirections
        for word in programs:
            if word.expands or is_input(word):
                raise SplitError(
                    f"an {name} program with a variable or input from {FEEDERS} "
                    "cannot be evaluated statically"
                )
            taken += [(kind, part_of(word, value)) for kind, value in awk_program(word.value)]
    if in_place:  # gawk's `-i inplace` rewrites each file it reads
        taken += [("edits", w) for w in operands if "=" not in w.value]
    return taken


SCRIPTED = {"sed": _sed_effects}
SCRIPTED.update(dict.fromkeys(("awk", "gawk", "mawk", "nawk", "original-awk"), _awk_effects))


def script_effects(program: str, words: list[Word]) -> list:
    """What sed's or awk's script does, in `takers`' kinds ("string",
    "reads", "edits"), each a Word where the script stands."""
    return SCRIPTED[program](words, program)
