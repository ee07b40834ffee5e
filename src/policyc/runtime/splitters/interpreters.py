"""Interpreters: the script they run and the files they load first.

An interpreter shows the file it is given to run when the file is not
code: `python3 .env` prints .env's first line in a SyntaxError, `node`,
`deno`, `tclsh`, `julia` and `Rscript` likewise, `lua` a word of it, and
`php .env` all of it (text outside `<?php` is output). So the script is a
read subject, held to the read tool's deny and ask rules as `cat`'s files
are, and so is a file an option loads before it (`node -r ./x.js`,
`julia -L x.jl`, `racket -f x.rkt`). A code string, a module or the input
(`-c`, `-m`, `-e`, `-`) names none, but for python's modules that read and
show the files they are given (`python3 -m base64 .env`); what the script
itself reads is not read here. The script's arguments are not read: a
variable among them (`python3 x.py "$NAME"`) would otherwise stand for any
file and meet every deny rule on reading. (ruby and perl, whose `-n` and `-p` read every
operand, are `programs.FILE_READERS`.)

Each interpreter's options, read as clusters (`-uc`, `-rjson`), then its
long options (a word matched whole: elixir's `-pa`, sbcl's `--script`). An
option not known is read as taking no value: a word read as the script
when it was a value only adds a file to read, but a value option left out
would hide the script behind its value, so each table lists its values.
"""

from __future__ import annotations

from collections import namedtuple  # (not typing's: it imports re, see `shell`)

from .programs import PYTHONS
from .words import option_names

_NONE: frozenset = frozenset()
# Each interpreter's options: letters taking a value (attached, or the next
# word), letters taking one attached only (`julia -O2`), letters after
# which no script is named (`-c CODE`), letters whose value is the script
# (`php -f x.php`), letters whose value is a file read first (`node -r
# x.js`); the same four sets of long options. Then its subcommands: True
# where the script follows (`deno run x.ts`), False where none is named
# (`deno eval CODE`); another first operand is the script (`deno x.ts`),
# unless `operand` is False (sbcl runs none unless `--script` names it).
# Last, python's modules whose operands are files they read and show, or
# a script they run: `python3 -m base64 .env`, `-m json.tool x.json`,
# `-m tokenize .env`, `-m pdb x.py` (each operand is read; what they write,
# json.tool's second operand, gzip's and the archives', is not read here).
Options = namedtuple(
    "Options",
    "values attached none script loads long_values long_none long_script long_loads verbs operand "
    "modules",
    defaults=("", "", "", "", "", _NONE, _NONE, _NONE, _NONE, {}, True, _NONE),
)


_NODE = Options(
    values="C",
    none="epi",
    loads="r",
    long_values=option_names(
        "--conditions --input-type --inspect-port --title --env-file --watch-path "
        "--redirect-warnings --report-dir --diagnostic-dir --cpu-prof-dir --heap-prof-dir "
        "--stack-size --openssl-config --icu-data-dir --experimental-config-file"
    ),
    long_none=option_names("--eval --print --interactive --run"),
    long_loads=option_names("--require --import --loader --experimental-loader"),
)
_LUA = Options(values="lej", attached="O")  # `lua -e 'x=1' x.lua` runs both

KINDS = {
    "python": Options(
        values="WX",
        none="cm",
        long_values=option_names("--check-hash-based-pycs"),
        modules=option_names(
            "json.tool base64 tokenize ast quopri uu gzip zipfile tarfile py_compile "
            "compileall pdb cProfile profile trace pickletools dis tabnanny doctest sqlite3 "
            "filecmp runpy"
        ),
    ),
    "node": _NODE,
    "tsx": _NODE._replace(  # `tsx watch x.ts`, `tsx --tsconfig t.json x.ts`
        verbs={"watch": True}, long_values=_NODE.long_values | {"--tsconfig"}
    ),
    "ts-node": Options(
        values="POCID",
        none="epi",
        loads="r",
        long_values=option_names(
            "--project --compiler-options --compiler --ignore --ignore-diagnostics --cwd "
            "--scope-dir --transpiler"
        ),
        long_none=option_names("--eval --print --interactive"),
        long_loads=option_names("--require"),
    ),
    "deno": Options(
        values="cL",
        long_values=option_names(
            "--config --log-level --import-map --lock --cert --location --seed --ext"
        ),
        verbs={
            **dict.fromkeys(
                "run test check bench compile serve info doc lint fmt bundle cache".split(), True
            ),
            **dict.fromkeys(
                "eval repl task upgrade init add remove jupyter types completions coverage "
                "clean outdated publish uninstall install lsp vendor x help update".split(),
                False,
            ),
        },
    ),
    "bun": Options(
        values="F",
        none="ep",
        loads="r",
        long_values=option_names(
            "--port --conditions --title --filter --cwd --shell --elide-lines "
            "--unhandled-rejections --install --max-http-header-size --env-file"
        ),
        long_none=option_names("--eval --print"),
        long_loads=option_names("--preload"),
        verbs={
            **dict.fromkeys(("run", "test", "build"), True),
            **dict.fromkeys(
                "install i add a remove rm update x create c init upgrade pm link unlink "
                "outdated publish repl exec patch audit info why completions feedback help".split(),
                False,
            ),
        },
    ),
    "php": Options(
        values="cdtz",
        none="rBREaS",
        script="fF",
        long_values=option_names("--php-ini --define"),
        long_none=option_names("--run --process-begin --process-code --process-end --interactive"),
        long_script=option_names("--file --process-file"),
    ),
    "lua": _LUA,
    # names as `programs.program_name` gives them: in lower case
    "rscript": Options(none="e"),
    "r": Options(script="f", long_script=option_names("--file"), operand=False),
    "julia": Options(
        values="ptJCH",
        attached="Og",
        none="eE",
        loads="L",
        long_values=option_names(
            "--sysimage --home --threads --procs --machine-file --cpu-target --gcthreads "
            "--heap-size-hint"
        ),
        long_none=option_names("--eval --print"),
        long_loads=option_names("--load"),
    ),
    "elixir": Options(
        values="e",
        long_values=option_names(
            "-pa -pz --erl --sname --name --cookie --boot --erl-config --vm-args "
            "--logger-otp-reports --logger-sasl-reports"
        ),
        long_none=option_names("--eval --rpc-eval"),
        long_loads=option_names("-r -pr"),
    ),
    "tclsh": Options(long_values=option_names("-encoding")),
    "guile": Options(
        values="eLCx",
        none="c",
        script="s",
        loads="l",
        long_values=option_names("--language --listen"),
    ),
    "racket": Options(values="elpSWXGAN", script="ru", loads="ft"),
    "sbcl": Options(
        long_values=option_names(
            "--eval --core --dynamic-space-size --control-stack-size --tls-limit"
        ),
        long_script=option_names("--script"),
        long_loads=option_names("--load"),
        operand=False,
    ),
    "ocaml": Options(
        long_values=option_names("-I -open -ppx -w -warn-error -alert"),
        long_loads=option_names("-init"),
    ),
    "runghc": Options(values="f"),
    "irb": Options(values="rI"),
    "jvm": Options(
        none="e",
        long_values=option_names("-cp -classpath --classpath -D"),
        verbs={"run": True, "compile": True},
    ),
    "swift": Options(
        long_values=option_names(
            "-module-name -target -sdk -I -L -F -Xcc -Xlinker -Xfrontend -swift-version"
        ),
        verbs=dict.fromkeys("build run test package repl sdk help".split(), False),
    ),
}
_RUNNERS = {
    **dict.fromkeys((*PYTHONS, "pypy", "pypy3", "ipython", "ipython3"), "python"),
    **dict.fromkeys(("node", "nodejs"), "node"),
    **dict.fromkeys(
        ("lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4", "lua51", "lua53", "lua54"),
        "lua",
    ),
    **dict.fromkeys(("tclsh", "wish", "jimsh"), "tclsh"),
    **dict.fromkeys(("runghc", "runhaskell"), "runghc"),
    **dict.fromkeys(("scala", "groovy", "kotlin"), "jvm"),
    **{kind: kind for kind in KINDS if kind not in ("python", "jvm", "runghc")},
}
SCRIPT_RUNNERS = frozenset(_RUNNERS)
# Those whose script is their first word when no option comes first
# (`python3 x.py`): read on the plain path without a call.
FIRST_WORD_SCRIPT = frozenset(
    name for name, kind in _RUNNERS.items() if not KINDS[kind].verbs and KINDS[kind].operand
)


# Each runner's table as plain values, with its long names together: read
# into locals, `python3 -m pytest -q` splits in ~3,500 fewer instructions
# than through the named fields (callgrind).
_TABLES = {
    name: (
        *KINDS[kind],
        KINDS[kind].long_values
        | KINDS[kind].long_none
        | KINDS[kind].long_script
        | KINDS[kind].long_loads,
    )
    for name, kind in _RUNNERS.items()
}


def script_files(words: list[str], program: str) -> list[tuple[int, int]]:
    """Where the files an interpreter loads and runs are named among its
    words: each word's index and where in it the name starts (`python3 -u
    x.py`: [(2, 0)]; `php -fx.php`: [(1, 2)]; `node -r ./a.js b.js`: [(2,
    0), (3, 0)]). None for a code string, a module, the input."""
    (
        values,
        attached,
        none,
        script,
        loads,
        long_values,
        long_none,
        long_script,
        long_loads,
        verbs,
        operand,
        modules,
        long_names,
    ) = _TABLES[program]
    found: list[tuple[int, int]] = []
    i, n = 1, len(words)
    while i < n:
        word = words[i]
        if word == "--":
            if i + 1 < n and operand:
                found.append((i + 1, 0))
            return found
        if word[:1] != "-" or word == "":
            if word in verbs:
                if not verbs[word]:
                    return found
                verbs = {}  # past the verb, options again, then the script
                i += 1
                continue
            if operand:
                found.append((i, 0))
            return found
        if word == "-":
            return found  # the input
        option, eq, _ = word.partition("=")
        if word[:2] == "--" or option in long_names:
            if option in long_none:
                return found
            if option in long_script or option in long_loads:
                at = (i, len(option) + 1) if eq else (i + 1, 0) if i + 1 < n else None
                if at is not None:
                    found.append(at)
                if option in long_script:
                    return found
                i += 1 if eq else 2
                continue
            i += 2 if option in long_values and not eq else 1
            continue
        step = 1
        for k in range(1, len(word)):
            letter = word[k]
            if letter in none:
                if letter == "m" and modules:
                    found += _module_files(words, i, k, modules)
                return found
            if letter in script or letter in loads:
                if k + 1 < len(word):
                    found.append((i, k + 1))
                elif i + 1 < n:
                    found.append((i + 1, 0))
                    step = 2
                if letter in script:
                    return found
                break
            if letter in attached:
                break
            if letter in values:
                step = 1 if k + 1 < len(word) else 2  # `-Wignore`, `-W ignore`
                break
        i += step
    return found


def _module_files(words: list[str], i: int, k: int, modules: frozenset) -> list[tuple[int, int]]:
    """The operands of `python -m MODULE …` (`-m` at `words[i][k]`) when the
    module reads the files they name: each word after it but its options."""
    if k + 1 < len(words[i]):
        module, start = words[i][k + 1 :], i + 1
    elif i + 1 < len(words):
        module, start = words[i + 1], i + 2
    else:
        return []
    if module not in modules:
        return []
    found = []
    options = True
    for at in range(start, len(words)):
        word = words[at]
        if options and word[:1] == "-" and word != "-":
            options = word != "--"
        elif word != "-" or not options:
            found.append((at, 0))
    return found
