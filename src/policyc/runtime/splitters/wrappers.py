"""Wrappers: programs that run the command after their own options and
operands (timeout, env, xargs, sudo, chroot, ...). `strip_wrappers` reads
past them to the command, and says whether one may change what runs.
"""

from __future__ import annotations

from .programs import is_name, is_safe_assignment, program_name
from .words import (
    FEEDERS,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    input_word,
    is_input,
)

# Wrappers that run their command without changing what it is. Options that
# take a value are listed so the value is not mistaken for the command.
WRAPPERS: dict[str, tuple[frozenset[str], frozenset[str], int]] = {
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
    # (xvfb-run -e FILE writes the X server's errors there; --dbus-daemon,
    # a program dbus-run-session runs, is refused as an option not listed)
    "xvfb-run": (
        frozenset(
            {"-e", "--error-file", "-f", "--auth-file", "-n", "--server-num", "-p"}
            | {"--xauth-protocol", "-s", "--server-args", "-w", "--wait"}
        ),
        frozenset({"-a", "--auto-servernum", "-l", "--listen-tcp"}),
        0,
    ),
    "dbus-run-session": (frozenset({"--config-file"}), frozenset(), 0),
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


def _replacement(options: list[Word]) -> str | None:
    """The string xargs replaces with each line it reads (`-I R`, `-iR`,
    `--replace=R`; `{}` by default), or None: it appends what it reads."""
    found = None
    for k, word in enumerate(options):
        value = word.value
        if value == "-I":
            found = options[k + 1].value if k + 1 < len(options) else found
        elif value.startswith("-I"):
            found = value[2:]
        elif value.startswith("-i"):
            found = value[2:] or "{}"
        elif value.startswith("--replace"):
            found = value.partition("=")[2] or "{}"
    return found


# Wrappers that change who runs the command: it stays a subject as written,
# and the command they run is a constraint (deny and ask rules see it).
PRIVILEGE = {
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


# Wrappers whose options are read as their getopt reads them (options first,
# an optional value only attached: `prlimit -n rm` runs rm): (getopt spec,
# operands before the command, held). Held: the command runs as another
# user, under another root or namespaces, or with variables of the
# wrapper's; it stays a subject as written and deny and ask rules see the
# command, as for sudo. An option not listed is refused. (util-linux 2.38
# to 2.40, coreutils 9, systemd 252 to 256, Expect 5.45, proxychains-ng 4,
# torsocks 2, fakeroot 1.31, gosu, su-exec and daemontools.)
GETOPT_WRAPPERS: dict[str, tuple[tuple, int, bool]] = {
    "prlimit": (
        getopt_spec(
            "po",
            "Vh",
            "cdefilmnqrstuvxy",
            "--pid --output",
            "--version --help --noheadings --raw --verbose",
            "--as --core --cpu --data --fsize --locks --memlock --msgqueue --nice --nofile "
            "--nproc --rss --rtprio --rttime --sigpending --stack",
        ),
        0,
        False,
    ),
    "unbuffer": (getopt_spec("", "p"), 0, False),
    "catchsegv": (getopt_spec(), 0, False),
    "systemd-inhibit": (
        getopt_spec("", "", "", "--what --who --why --mode", "--no-ask-password"),
        0,
        False,
    ),
    "proxychains": (getopt_spec("f", "q"), 0, False),
    "proxychains4": (getopt_spec("f", "q"), 0, False),
    "torsocks": (
        getopt_spec("upaP", "i6dq", "", "--user --pass --address --port", "--isolate --ipv6"),
        0,
        False,
    ),
    "chroot": (getopt_spec("", "", "", "--userspec --groups", "--skip-chdir"), 1, True),
    "gosu": (getopt_spec(), 1, True),
    "su-exec": (getopt_spec(), 1, True),
    "setuidgid": (getopt_spec(), 1, True),
    "envuidgid": (getopt_spec(), 1, True),
    "envdir": (getopt_spec(), 1, True),
    "run0": (
        getopt_spec(
            "ugD",
            "",
            "",
            "--machine --unit --property --description --slice --user --group --nice --chdir "
            "--setenv --background --shell-prompt-prefix",
            "--no-ask-password --slice-inherit --pty --pty-late --pipe",
        ),
        0,
        True,
    ),
    "setpriv": (
        getopt_spec(
            "",
            "",
            "",
            "--inh-caps --ambient-caps --ruid --euid --rgid --egid --reuid --regid --groups "
            "--bounding-set --securebits --pdeathsig --ptracer --selinux-label "
            "--apparmor-profile --landlock-access --landlock-rule --seccomp-filter",
            "--nnp --no-new-privs --clear-groups --keep-groups --init-groups --reset-env",
        ),
        0,
        True,
    ),
    "unshare": (
        getopt_spec(
            "RwSGl",
            "fmuinpCTUrc",
            "",
            "--map-user --map-users --map-group --map-groups --owner --propagation "
            "--setgroups --setuid --setgid --root --wd --monotonic --boottime --load-interp",
            "--fork --forward-signals --map-root-user --map-current-user --map-auto "
            "--map-subids --keep-caps",
            "--mount --uts --ipc --net --pid --user --cgroup --time --kill-child "
            "--mount-proc --mount-binfmt",
        ),
        0,
        True,
    ),
    "nsenter": (
        getopt_spec(
            "tNSG",
            "aecFZ",
            "muinpCUTrwW",
            "--target --net-socket --setuid --setgid",
            "--all --env --no-fork --join-cgroup --preserve-credentials --keep-caps "
            "--user-parent --follow-context",
            "--mount --uts --ipc --net --pid --cgroup --user --time --root --wd --wdns",
        ),
        0,
        True,
    ),
    "fakeroot": (
        getopt_spec("lfisb", "u", "", "--lib --faked --fd-base", "--unknown-is-real"),
        0,
        True,
    ),
    # numactl 2.0 (memory and CPU placement); cgexec (libcgroup 2 and 3: a
    # control group); tini 0.19 and dumb-init 1.2 (an init for containers);
    # sshpass 1.09 (a password for the ssh it runs, read on); trickle 1.07
    # (bandwidth); eatmydata 105 and faketime 0.9 (fsync off, a fake clock).
    "numactl": (
        getopt_spec(
            "ipPwCNmoLSfMIc",
            "alHsuDdtTVbvh",
            "",
            "--interleave --preferred --preferred-many --weighted-interleave --physcpubind "
            "--cpunodebind --membind --offset --length --shm --file --shmmode --shmid --cpubind",
            "--all --localalloc --hardware --show --huge --dump --dump-nodes --strict --touch "
            "--verify --balancing --version --help",
        ),
        0,
        False,
    ),
    "cgexec": (getopt_spec("g", "hb", "", "", "--sticky"), 0, False),
    "tini": (getopt_spec("ep", "hsvwgl"), 0, False),
    "dumb-init": (
        getopt_spec("r", "cvVh", "", "--rewrite", "--single-child --verbose --version --help"),
        0,
        False,
    ),
    "sshpass": (getopt_spec("fdpP", "ehVv"), 0, False),
    "trickle": (getopt_spec("duwtln", "hvVs"), 0, False),
    "eatmydata": (getopt_spec(), 0, False),
    "faketime": (getopt_spec("p", "mf", "", "", "--exclude-monotonic --disable-shm"), 1, False),
    # systemd-run (systemd 252 to 256): the command runs as a service of the
    # system's manager (as root) or the user's, with the unit's properties.
    "systemd-run": (
        getopt_spec(
            "CHMEpu",
            "hrtPqGdS",
            "",
            "--capsule --host --machine --setenv --property --unit --description --slice "
            "--service-type --uid --gid --nice --working-directory --on-active --on-boot "
            "--on-startup --on-unit-active --on-unit-inactive --on-calendar --timer-property "
            "--path-property --socket-property --expand-environment --json",
            "--help --version --user --system --scope --remain-after-exit --send-sighup --pty "
            "--pipe --quiet --collect --same-dir --shell --wait --no-block --no-ask-password "
            "--slice-inherit --ignore-failure --background --shell-prompt-prefix",
        ),
        0,
        True,
    ),
    # chpst (runit 2.1, daemontools' setuidgid, envdir, softlimit and more
    # in one): a user, an environment directory, a root, argv[0].
    "chpst": (getopt_spec("uUbe/nlLmdofpcrtC", "vP012V"), 0, True),
}


def strip_wrappers(words: list[Word]) -> tuple[list[Word], bool]:
    """Drop wrappers from the front; report whether one may change what runs."""
    guarded = False
    while words:
        head = words[0]
        if head.expands:
            return words, guarded
        name = program_name(head.value)
        if name in WRAPPERS:
            with_value, flags, operands = WRAPPERS[name]
            i = _skip_options(words, 1, with_value, flags, name)
            if name == "env":
                # env sets every argument with `=` before the command, quoted
                # or not, whatever its name (`env a-b=1 rm` runs rm).
                while i < len(words) and "=" in words[i].value:
                    variable = words[i].value.split("=", 1)[0]
                    if not (is_name(variable) and is_safe_assignment(variable)):
                        guarded = True
                    i += 1
            i += operands
            if name == "xargs" and i < len(words):
                replaced = _replacement(words[1:i])
                if replaced is not None:
                    # xargs puts each line it reads wherever R stands, inside
                    # any word: each word holding R is what it reads, `…`
                    # (`xargs -I{} sh -c 'echo {}'` runs what the line says).
                    words = [input_word(w.end) if replaced in w.value else w for w in words[i:]]
                    continue
                # xargs appends the words it reads to the command: an exact
                # rule must not allow `git push` for `xargs git push` (fed
                # `--force`). `…` stands for them; `git push:*` still matches.
                # (Once: `xargs xargs rm` appends them once too.)
                if not is_input(words[-1]):
                    words = words[i:] + [input_word(head.end)]
                    continue
            words = words[i:]
            continue
        if name in PRIVILEGE:
            with_value, flags = PRIVILEGE[name]
            i = _skip_options(words, 1, with_value, flags, name)
            # What follows is read on: `sudo nice rm -rf /` runs rm.
            words, guarded = words[i:], True
            continue
        if name in GETOPT_WRAPPERS:
            spec, before, held = GETOPT_WRAPPERS[name]
            _, operands = getopt(words, name, spec, permute=False)
            if any(map(is_input, operands[:before])):  # `xargs chroot`: its root and command
                raise SplitError(
                    f"{name} given arguments by {FEEDERS} cannot be evaluated statically"
                )
            words, guarded = operands[before:], guarded or held
            continue
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


# Programs `strip_wrappers` reads past.
STRIPPABLE = frozenset(WRAPPERS) | frozenset(PRIVILEGE) | frozenset(GETOPT_WRAPPERS)
