"""Programs that fetch secrets and run a command with them in its
environment: op, doppler, infisical, aws-vault, chamber, dotenvx, dotenv,
envchain and sops. Held, as envdir is. Read for `takers`."""

from __future__ import annotations

from .words import (
    FEEDERS,
    HELD,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    is_input,
    new_word,
    option_names,
    part_of,
)

# Programs that fetch secrets and run a command with them in its
# environment: (subcommands that run one, getopt spec of their options,
# operands before the command (None: up to `--`), options whose value is a
# shell string they run, options naming a file they write, whether the
# command must be one shell string). Held, as for envdir: the variables are
# theirs. Their parsers differ on options after the command (cobra,
# kingpin and click take them; envchain does not), so without `--` before
# the command an option-like word after its name is refused. (1Password CLI
# 2, Doppler CLI 3, Infisical CLI 0.3x, aws-vault 7, chamber 2 and 3,
# dotenvx 1, python-dotenv 1, envchain 1, sops 3.)
_VAULT_BOOLS = "--debug --no-color --silent --json --quiet --verbose"
_VAULTS = {
    "op": (
        frozenset({("run",), ("plugin", "run")}),
        getopt_spec(
            "",
            "h",
            "",
            "--env-file --account --config --session --encoding --format",
            "--help",
            "--no-masking --cache --iso-timestamps " + _VAULT_BOOLS,
        ),
        0,
        frozenset(),
        frozenset(),
        False,
    ),
    "doppler": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec(
            "pc",
            "h",
            "",
            "--project --config --token --fallback --fallback-passphrase --mount "
            "--mount-format --mount-template --mount-max-reads --name-transformer "
            "--only-secrets --dynamic-ttl --command --scope --configuration --api-host "
            "--dashboard-host --attempts",
            "--help",
            "--preserve-env --no-fallback --fallback-readonly --fallback-only "
            "--no-exit-on-write-failure --forward-signals --watch --no-cache "
            "--enable-file-fallback --no-check-version --no-verify-tls --no-timing "
            "--print-config --no-read-env " + _VAULT_BOOLS,
        ),
        0,
        option_names("--command"),
        option_names("--mount"),
        False,
    ),
    "infisical": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec(
            "t",
            "h",
            "",
            "--env --path --projectId --token --tags --domain --watch-interval --command "
            "--log-level",
            "--help",
            "--expand --include-imports --recursive --secret-overriding --watch --telemetry "
            + _VAULT_BOOLS,
        ),
        0,
        option_names("--command"),
        frozenset(),
        False,
    ),
    "aws-vault": (
        frozenset((w,) for w in option_names("exec")),
        getopt_spec(
            "dt",
            "njsh",
            "",
            "--duration --region --mfa-token --prompt --backend --keychain "
            "--secret-service-collection --pass-dir --pass-prefix --file-dir",
            "--no-session --server --ec2-server --ecs-server --lazy --stdout --help "
            + _VAULT_BOOLS,
        ),
        1,
        frozenset(),
        frozenset(),
        False,
    ),
    "chamber": (
        frozenset((w,) for w in option_names("exec")),
        getopt_spec(
            "br",
            "hv",
            "",
            "--backend --retries --kms-key-alias --min-throttle-delay --strict-value",
            "--pristine --strict --help --verbose",
        ),
        None,
        frozenset(),
        frozenset(),
        False,
    ),
    "dotenvx": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec(
            "f",
            "oqvdh",
            "",
            "--env-file --env --env-vault-file --convention --ignore --log-level --env-keys-file",
            "--overload --strict --quiet --verbose --debug --help --ops-off",
        ),
        0,
        frozenset(),
        frozenset(),
        False,
    ),
    "dotenv": (
        frozenset((w,) for w in option_names("run")),
        getopt_spec("", "h", "", "", "--override --no-override --help"),
        0,
        frozenset(),
        frozenset(),
        False,
    ),
    "envchain": (None, getopt_spec(), 1, frozenset(), frozenset(), False),
    "sops": (
        frozenset((w,) for w in option_names("exec-env exec-file")),
        getopt_spec(
            "",
            "",
            "",
            "--user --input-type --output-type --filename",
            "--background --no-fifo --pristine --same-process",
        ),
        1,
        frozenset(),
        frozenset(),
        True,
    ),
}


def _vault_commands(words: list[Word], name: str) -> list | None:
    """What `op run -- CMD`, `doppler run --command STRING`, `aws-vault exec
    PROFILE -- CMD`, `sops exec-env FILE STRING` and their kin run: held."""
    subcommands, spec, before, strings, files, one_string = _VAULTS[name]
    values = [w.value for w in words]
    start = 1
    if subcommands is not None:
        for subcommand in subcommands:
            if tuple(values[1 : 1 + len(subcommand)]) == subcommand:
                start = 1 + len(subcommand)
        if start == 1:
            if values[1:2] and values[1].startswith("-"):
                for subcommand in subcommands:
                    if subcommand[0] in values:
                        # `op --account x run`: a global option before it, which we do not read
                        raise SplitError(
                            f"{name} with options before {subcommand[0]} cannot be evaluated statically"
                        )
            return None  # another subcommand: `op item get`, `doppler secrets`
    elif values[1:2] and values[1].startswith("-"):
        return None  # `envchain --set NAMESPACE VAR`: no command
    options, operands = getopt(words[start - 1 :], name, spec, permute=False)
    first = len(words) - len(operands)  # where the operands start in `words`
    dashed = first > start and words[first - 1].value == "--"
    if before is None:  # chamber: services up to `--`, the command after it
        ends = [k for k, w in enumerate(operands) if w.value == "--"]
        if not ends:  # chamber wants `--` there; we do not guess where the command starts
            raise SplitError(f"{name} without -- before the command cannot be evaluated statically")
        leading, command, dashed = operands[: ends[0]], operands[ends[0] + 1 :], True
    else:
        leading, command = operands[:before], operands[before:]
        if command and not dashed and command[0].value == "--":
            command, dashed = command[1:], True
    if any(map(is_input, leading)):  # `xargs aws-vault exec`: its input may hold `-- rm`
        raise SplitError(f"{name} given arguments by {FEEDERS} cannot be evaluated statically")
    taken: list = [HELD]
    taken += [("string", v) for o, v in options if o in strings]
    taken += [("file", v) for o, v in options if o in files]
    if one_string:
        if len(command) > 1 or any(map(is_input, command)):
            raise SplitError(
                f"{name} with more than one command word cannot be evaluated statically"
            )
        taken += [("string", w) for w in command]
    elif command:
        if not dashed and name != "envchain" and any(w.value[:1] == "-" for w in command[1:]):
            raise SplitError(
                f"{name} with an option after the command cannot be evaluated statically "
                "(put -- before the command)"
            )
        taken.append(("words", command))
    return taken if len(taken) > 1 else None


def _default(words: list[Word], path: str) -> Word:
    """The file a command reads when it names none, as a word spanning the
    command (what the prompt shows)."""
    return new_word(Word, (path, words[0].start, words[-1].end, False, False))


def _dotenv_commands(words: list[Word], name: str) -> list | None:
    """Two programs are named dotenv: python-dotenv (`dotenv run CMD`, read
    as the other secret runners; `list`, `get`, `set`, `unset` print or
    change the file) and npm's dotenv-cli (`dotenv -e .env -- CMD`), whose
    command is taken after `--` and refused without it. Each reads its
    `-e` files (dotenv-cli), else `.env` (`-c`: `.env*` too)."""
    values = [w.value for w in words]
    if values[1:2] in ([], ["--help"], ["--version"]):
        return None
    if values[1] in ("list", "get", "set", "unset"):  # python-dotenv's, on ./.env
        env = _default(words, ".env")
        return [HELD, ("reads", env)] + ([("edits", env)] if values[1] in ("set", "unset") else [])
    if "run" in values and "--" not in values[: values.index("run")]:
        return (_vault_commands(words, name) or [HELD]) + [("reads", _default(words, ".env"))]
    if "--" not in values:
        raise SplitError(f"{name} without -- before the command cannot be evaluated statically")
    end = values.index("--")
    named = [words[k + 1] for k in range(1, end - 1) if values[k] == "-e"]
    if not named or "-c" in values[1:end]:
        named.append(_default(words, ".env*" if "-c" in values[1:end] else ".env"))
    taken = [HELD, *[("reads", word) for word in named]]
    return taken + [("words", words[end + 1 :])] if end + 1 < len(words) else taken


def _dotenvx_commands(words: list[Word], name: str) -> list | None:
    """dotenvx: `run` as the other secret runners; it and its other
    commands (`get`, which prints the values, `set`, `encrypt`, `decrypt`,
    which change the file) read the files `-f` names (`--env-file`: any
    program's, see `shell._env_files`), else `.env`."""
    values = [w.value for w in words]
    if values[1:2] in ([], ["--help"], ["-h"], ["--version"], ["-V"], ["help"]):
        return None
    taken = (_vault_commands(words, name) if values[1] == "run" else None) or [HELD]
    named = [words[k + 1] for k in range(1, len(words) - 1) if values[k] == "-f"]
    named += [part_of(w, w.value[2:]) for w in words[1:] if w.value[:2] == "-f" and w.value[2:]]
    if not named and not any(value.startswith("--env-file") for value in values):
        named = [_default(words, ".env")]
    taken += [("reads", word) for word in named]
    if values[1] in ("set", "encrypt", "decrypt"):
        taken += [("edits", word) for word in named]
    return taken


TAKERS = {
    **dict.fromkeys(_VAULTS, _vault_commands),
    "dotenv": _dotenv_commands,
    "dotenvx": _dotenvx_commands,
}
