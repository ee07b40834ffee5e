"""Programs that run the commands given them as jobs. concurrently's and
`cargo watch`'s run here, as they are: decided as if each ran alone, as
hyperfine's are. A queue's and a cluster's (`pueue add`, mpirun and
mpiexec, Slurm's srun, salloc and `sbatch --wrap`) run later, on other
machines or as many ranks: held, as nq's are. Read for `takers`.
"""

from __future__ import annotations

from .programs import runner_commands
from .words import (
    HELD,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    joined_string,
    last_option,
    opens_shell,
    option_names,
    part_of,
    value_of,
)

# concurrently 8 and 9 (yargs: options anywhere): each operand a shell
# string, or a script by its shortcut (`npm:build` is `npm run build`).
# --teardown's commands run after the others. -P puts the arguments that
# follow into the commands' `{1}`: refused.
_CONCURRENTLY = getopt_spec(
    "nsplctm",
    "rgPkivVh",
    "",
    "--names --name-separator --success --hide --teardown --kill-signal --kill-timeout "
    "--prefix --prefix-colors --prefix-length --timestamp-format --max-processes "
    "--restart-tries --restart-after --default-input-target",
    "--raw --no-color --group --timings --passthrough-arguments --kill-others "
    "--kill-others-on-fail --handle-input --help --version --pad-prefix",
)
_SHORTCUTS = {
    "npm": "npm run",
    "yarn": "yarn run",
    "pnpm": "pnpm run",
    "bun": "bun run",
    "node": "node --run",
    "deno": "deno task",
}


def _concurrently_commands(words: list[Word], name: str) -> list | None:
    options, commands = getopt(words, name, _CONCURRENTLY, permute=True)
    if last_option(options, "-P", "--passthrough-arguments") is not None:
        raise SplitError(f"{name} --passthrough-arguments cannot be evaluated statically")
    taken: list = []
    for word in commands + [v for o, v in options if o == "--teardown"]:
        prefix, colon, script = word.value.partition(":")
        if colon and prefix in _SHORTCUTS:
            word = part_of(word, f"{_SHORTCUTS[prefix]} {script}")
        taken.append(("string", word))
    return taken or None


# cargo-watch 8: `-x CMD` runs `cargo CMD`, `-s CMD` a shell string, and the
# words after `--` a command; alone, `cargo check`. A shell of its own
# (--use-shell) other than the known ones is refused, as hyperfine's is.
_CARGO_WATCH = getopt_spec(
    "xswiCdBLE",
    "cqNhV",
    "",
    "--exec --shell --watch --ignore --workdir --delay --use-shell --env-file --env --features",
    "--clear --quiet --notify --poll --postpone --no-restart --no-vcs-ignores "
    "--no-dot-ignores --no-process-group --skip-local-deps --ignore-nothing --debug --why "
    "--watch-when-idle --help --version --no-gitignore --no-ignore --all",
)
_KNOWN_SHELLS = option_names("sh bash zsh dash ksh fish none")


def _cargo_commands(words: list[Word], name: str) -> list | None:
    """`cargo [+TOOLCHAIN] watch …`; other cargo commands are read as written."""
    values = [w.value for w in words]
    at = 2 if values[1:2] and values[1][:1] == "+" else 1
    if values[at : at + 1] != ["watch"]:
        return None
    options, command = getopt(words[at:], name, _CARGO_WATCH, permute=True)
    shell = last_option(options, "--use-shell")
    if shell is not None and shell.value.rsplit("/", 1)[-1] not in _KNOWN_SHELLS:
        raise SplitError(f"{name} watch --use-shell {shell.value} cannot be evaluated statically")
    taken: list = []
    for option, value in options:
        if option in ("-x", "--exec"):
            taken.append(("string", part_of(value, "cargo " + value.value)))
        elif option in ("-s", "--shell"):
            taken.append(("string", value))
    if command:
        taken.append(("words", command))
    return taken or None


# pueue 3: `pueue [GLOBAL] add [OPTIONS] [--] COMMAND...`: the daemon runs
# the words joined, with `sh -c`, later. `--after` takes any number of task
# ids: with it, only a command after `--` is known.
_PUEUE = getopt_spec("cp", "vh", "", "--config --profile --color", "--verbose --help --version")
_PUEUE_ADD = getopt_spec(
    "dgaolw",
    "eisphf",
    "",
    "--delay --group --after --priority --label --working-directory",
    "--escape --immediate --stashed --print-task-id --follow --help",
)


def _pueue_commands(words: list[Word], name: str) -> list | None:
    if "add" not in (w.value for w in words):
        return None
    _, rest = getopt(words, name, _PUEUE, permute=False)
    if not rest or rest[0].value != "add":
        return None  # `pueue status`, `pueue log`: read as written
    options, command = getopt(rest, name, _PUEUE_ADD, permute=False)
    if last_option(options, "-a", "--after") is not None:
        values = [w.value for w in rest]
        if "--" not in values:
            raise SplitError(f"{name} add --after without -- cannot be evaluated statically")
        command = rest[values.index("--") + 1 :]
    elif command and command[0].value == "--":
        command = command[1:]
    return [HELD, joined_string(command, name)] if command else None


# Open MPI 4 and 5 and MPICH 4 (mpirun, mpiexec; their single-dash long
# options as well), and Slurm 23 and 24 (srun, salloc): the options that
# take a value, the flags, and those refused (a file of commands, or a
# program run before or after the job). An option not listed makes each
# later word a guess at where the command starts (`runner_commands`), as
# do the two-value ones (`--mca NAME VALUE`, MPICH's `-genv NAME VALUE`).
# A `:` starts another program of the same job (MPMD, heterogeneous jobs).
_MPI = (
    None,
    option_names(
        "-np -n -c -N -H --host -host --hostfile -hostfile --machinefile -machinefile -f "
        "-hosts -x --map-by -map-by --bind-to -bind-to --rank-by -rank-by -wdir --wdir -wd "
        "--prefix -prefix --output-filename -output-filename --npernode -npernode -ppn "
        "--ppn --npersocket -npersocket --personality --launch-agent -launcher -bootstrap"
    ),
    option_names(
        "--oversubscribe -oversubscribe --allow-run-as-root --report-bindings "
        "-report-bindings -q --quiet -v --verbose --tag-output -tag-output "
        "--timestamp-output -timestamp-output --merge-stderr-to-stdout --display-map "
        "-display-map --display-allocation --use-hwthread-cpus -use-hwthread-cpus "
        "--noprefix -genvall -genvnone -l -prepend-rank --help -h --version -V"
    ),
    option_names("--app -app -configfile --configfile -launcher-exec -bootstrap-exec"),
)
_SLURM = (
    None,
    option_names(
        "-A -b -c -C -d -D -e -G -i -J -L -m -n -N -o -p -q -r -S -t -T -w -W -x -M "
        "--account --begin --cpus-per-task --constraint --dependency --chdir --error --gpus "
        "--input --job-name --licenses --distribution --ntasks --nodes --output --partition "
        "--qos --relative --core-spec --time --threads --nodelist --wait --exclude --mem "
        "--mem-per-cpu --mem-per-gpu --gres --gpus-per-node --gpus-per-task --gpus-per-socket "
        "--cpus-per-gpu --ntasks-per-node --ntasks-per-core --ntasks-per-socket "
        "--ntasks-per-gpu --cpu-bind --mem-bind --mpi --export --time-min --signal "
        "--reservation --cluster --clusters --mail-type --mail-user --comment --container "
        "--network --het-group --deadline --delay-boot --gres-flags --hint --partition "
        "--priority --profile --switches --tmp --uid --gid --wckey --cpu-freq --acctg-freq "
        "--sockets-per-node --cores-per-socket --threads-per-core --extra-node-info "
        "--mincpus --nodefile --bell --account"
    ),
    option_names(
        "-E -h -H -k -K -l -O -Q -s -u -v -V -X -Z --pty --overlap --unbuffered --verbose "
        "--quiet --help --usage --version --label --no-kill --oversubscribe --spread-job "
        "--hold --test-only --disable-status --exact --overcommit --contiguous --exclusive "
        "--immediate --kill-on-bad-exit --x11 --no-shell --preserve-env --reboot --requeue "
        "--no-requeue --nice --propagate --no-bell --use-min-nodes"
    ),
    option_names("--prolog --epilog --task-prolog --task-epilog --multi-prog"),
)
_JOB_SPECS = {"mpirun": _MPI, "mpiexec": _MPI, "srun": _SLURM, "salloc": _SLURM}
_SALLOC_QUIET = option_names("-h --help --usage -V --version --test-only --no-shell")


def _job_commands(words: list[Word], name: str) -> list | None:
    """The command of each program of the job (split at `:`), held."""
    taken: list = [HELD]
    start = 0
    for end in [k for k, w in enumerate(words) if w.value == ":"] + [len(words)]:
        part = words[start:end] if start == 0 else [words[0]] + words[start:end]
        taken += [("words", guess) for guess in runner_commands(part, _JOB_SPECS[name], name)]
        start = end + 1
    if len(taken) == 1 and name == "salloc":
        if _SALLOC_QUIET.isdisjoint(w.value.partition("=")[0] for w in words):
            raise opens_shell(name)  # the allocation's shell, on the input
    return taken if len(taken) > 1 else None


def _sbatch_commands(words: list[Word], name: str) -> list | None:
    """`sbatch --wrap=CMD` runs CMD with `sh -c` when the job starts: held.
    (A batch script's file is not read, as `bash x.sh`'s is not.)"""
    for k in range(1, len(words)):  # (a script's argument so spelt is read too: a stricter reading)
        option, eq, _ = words[k].value.partition("=")
        if option == "--wrap":
            return [HELD, ("string", value_of(words, k, eq))]
    return None


TAKERS = {
    "concurrently": _concurrently_commands,
    "cargo": _cargo_commands,
    "pueue": _pueue_commands,
    **dict.fromkeys(_JOB_SPECS, _job_commands),
    "sbatch": _sbatch_commands,
}
