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
    last_option,
    opens_shell,
)

# Wrappers, and how their options are read: as their getopt reads them
# (options first; a short option's optional value only attached, so
# `prlimit -n rm` runs rm). Each: (getopt spec, operands before the
# command, held). Held: the command runs as another user, under another
# root or namespaces, or with variables of the wrapper's; it stays a
# subject as written and deny and ask rules see the command, as for sudo.
# Not held: the command runs as it is, decided as if it ran alone. An
# option not listed is refused. (coreutils 9, findutils 4.9, util-linux
# 2.38 to 2.40, sudo 1.9, OpenBSD doas, polkit 121 to 124, systemd 252 to
# 256, Expect 5.45, proxychains-ng 4, torsocks 2, fakeroot 1.31, gosu,
# su-exec, daemontools, runit and s6; the others' versions where they are.)
WRAPPERS: dict[str, tuple[tuple, int, bool]] = {
    # coreutils and bash: timeout's duration, and the rest.
    "timeout": (
        # (-p and -f are coreutils 9.5's short forms: older ones refuse them and run nothing)
        getopt_spec(
            "ks",
            "vfp",
            "",
            "--kill-after --signal",
            "--verbose --foreground --preserve-status --help --version",
        ),
        1,
        False,
    ),
    "time": (getopt_spec("", "p"), 0, False),
    "nice": (getopt_spec("n", "", "", "--adjustment", "--help --version"), 0, False),
    "nohup": (getopt_spec("", "", "", "", "--help --version"), 0, False),
    "stdbuf": (
        getopt_spec("ioe", "", "", "--input --output --error", "--help --version"),
        0,
        False,
    ),
    "command": (getopt_spec("", "pvV"), 0, False),
    "builtin": (getopt_spec(), 0, False),
    "exec": (getopt_spec("a", "cl"), 0, False),
    # env: `-` is -i; the signal options take a value only after `=`; the
    # variables it sets are read by `strip_wrappers`.
    "env": (
        getopt_spec(
            "uC",
            "i0v-",
            "",
            "--unset --chdir",
            "--ignore-environment --null --debug --list-signal-handling --help --version",
            "--block-signal --default-signal --ignore-signal",
        ),
        0,
        False,
    ),
    # xargs: -e, -i and -l take a value only attached, --eof, --replace and
    # --max-lines only after `=`; what it reads is `…` (see `strip_wrappers`).
    "xargs": (
        getopt_spec(
            "nPLdsEaI",
            "0rtxpo",
            "eil",
            "--max-args --max-procs --delimiter --max-chars --arg-file --process-slot-var",
            "--null --no-run-if-empty --verbose --exit --interactive --open-tty",
            "--replace --eof --max-lines",
        ),
        0,
        False,
    ),
    # util-linux: a session, I/O and CPU scheduling (taskset's and chrt's
    # mask and priority come first).
    "setsid": (getopt_spec("", "cfwhV", "", "", "--ctty --fork --wait --help --version"), 0, False),
    "ionice": (
        getopt_spec("cn", "tVh", "", "--class --classdata", "--ignore --version --help"),
        0,
        False,
    ),
    "taskset": (getopt_spec("", "acV", "", "", "--all-tasks --cpu-list --version"), 1, False),
    "chrt": (
        getopt_spec(
            "TPD",
            "bdfioraRv",
            "",
            "--sched-runtime --sched-period --sched-deadline",
            "--batch --deadline --fifo --idle --other --rr --reset-on-fork --all-tasks --verbose",
        ),
        1,
        False,
    ),
    # macOS (taskpolicy: macOS 13 and 14), busybox's and toybox's applets,
    # and heaptrack 1.3 to 1.5 (its `-o` report is not read as a write).
    "caffeinate": (getopt_spec("tw", "dimsu"), 0, False),
    "taskpolicy": (getopt_spec("gcdtlp", "xbBas"), 0, False),
    "busybox": (getopt_spec(), 0, False),
    "toybox": (getopt_spec(), 0, False),
    "heaptrack": (
        getopt_spec(
            "op",
            "dhvr",
            "",
            "--output --pid",
            "--debug --use-inject --raw --record-only --help --version",
        ),
        0,
        False,
    ),
    # (xvfb-run -e FILE writes the X server's errors there; --dbus-daemon,
    # a program dbus-run-session runs, is refused as an option not listed)
    "xvfb-run": (
        getopt_spec(
            "efnpsw",
            "al",
            "",
            "--error-file --auth-file --server-num --xauth-protocol --server-args --wait",
            "--auto-servernum --listen-tcp",
        ),
        0,
        False,
    ),
    "dbus-run-session": (getopt_spec("", "", "", "--config-file"), 0, False),
    # Another user: sudo (its -s and -i run the command through the user's
    # shell, escaped word by word: the same words; alone, a shell on the
    # input, refused), doas and pkexec. sudo's -e (sudoedit) is refused.
    "sudo": (
        getopt_spec(
            "aCcDgpRrTtUu",
            "ABbEHiKklNnPSsVv",
            "h",
            "--auth-type --close-from --login-class --chdir --group --prompt --chroot --role "
            "--type --command-timeout --other-user --user",
            "--askpass --background --bell --set-home --login --remove-timestamp "
            "--reset-timestamp --list --no-update --non-interactive --preserve-groups --stdin "
            "--shell --version --validate",
            "--preserve-env --host",
        ),
        0,
        True,
    ),
    "doas": (getopt_spec("uCa", "nL"), 0, True),
    "pkexec": (getopt_spec("", "", "", "--user", "--disable-internal-agent --keep-cwd"), 0, True),
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
    # daemontools' softlimit and s6's s6-setuidgid (a user, as setuidgid).
    "softlimit": (getopt_spec("adlfcmoprst"), 0, False),
    "s6-setuidgid": (getopt_spec(), 1, True),
    # Tor's torify and tsocks 1.8 (a SOCKS proxy, as torsocks); catatonit
    # 0.2 (an init for containers, as tini).
    "torify": (getopt_spec(), 0, False),
    "tsocks": (getopt_spec(), 0, False),
    "catatonit": (getopt_spec("", "ghLPV"), 0, False),
    # Confinement and another root: AppArmor 3's aa-exec (a profile),
    # fakechroot 2.20 (a chroot by preloaded library, as fakeroot), and
    # daemonize 1.7 (as a daemon, maybe as another user).
    "aa-exec": (
        getopt_spec(
            "pn", "ivdh", "", "--profile --namespace", "--immediate --verbose --debug --help"
        ),
        0,
        True,
    ),
    "fakechroot": (
        getopt_spec(
            "ldecb",
            "shv",
            "",
            "--lib --elfloader --environment --config-dir --bindir",
            "--use-system-libs --help --version",
        ),
        0,
        True,
    ),
    "daemonize": (getopt_spec("ceoplu", "av"), 0, True),
}


def strip_wrappers(words: list[Word]) -> tuple[list[Word], bool, list[Word], list[Word]]:
    """Drop wrappers from the front; report whether one may change what runs,
    the variables env and sudo set (`NAME=VALUE` words), and the files
    they read (xargs' `-a FILE`, whose lines are the command's words)."""
    guarded = False
    variables: list[Word] = []
    read: list[Word] = []
    while words:
        head = words[0]
        if head.expands:
            return words, guarded, variables, read
        name = program_name(head.value)
        if name not in WRAPPERS:
            return words, guarded, variables, read
        spec, before, held = WRAPPERS[name]
        if name == "nice" and len(words) > 1 and _is_adjustment(words[1].value):
            words = words[:1] + words[2:]  # `nice -10 make`: the old form of -n
        if len(words) > 1 and words[1].value[:1] != "-":
            options, operands = [], words[1:]  # no options (most calls): getopt's answer
        else:
            options, operands = getopt(words, name, spec, permute=False)
        if any(map(is_input, operands[:before])):  # `xargs chroot`: its root and command
            raise SplitError(f"{name} given arguments by {FEEDERS} cannot be evaluated statically")
        command = operands[before:]
        guarded = guarded or held
        if name in ("env", "sudo"):
            # Each argument with `=` before the command sets a variable, quoted
            # or not, whatever its name (`env a-b=1 rm`, `sudo A=1 rm` run rm).
            k = 0
            while k < len(command) and "=" in command[k].value:
                variable = command[k].value.split("=", 1)[0]
                if not (is_name(variable) and is_safe_assignment(variable)):
                    guarded = True
                variables.append(command[k])
                k += 1
            command = command[k:]
        if not command and (
            name in _SHELL_WHEN_ALONE
            and last_option(options, "-h", "--help", "--version") is None
            or name == "sudo"
            and last_option(options, "-s", "--shell", "-i", "--login") is not None
        ):
            raise opens_shell(name)
        if name == "xargs":
            read += [value for option, value in options if option in ("-a", "--arg-file")]
        if name == "xargs" and command:
            replaced = _replacement(options)
            if replaced is not None:
                # xargs puts each line it reads wherever R stands, inside
                # any word: each word holding R is what it reads, `…`
                # (`xargs -I{} sh -c 'echo {}'` runs what the line says).
                command = [input_word(w.end) if replaced in w.value else w for w in command]
            elif not is_input(command[-1]):
                # xargs appends the words it reads to the command: an exact
                # rule must not allow `git push` for `xargs git push` (fed
                # `--force`). `…` stands for them; `git push:*` still matches.
                # (Once: `xargs xargs rm` appends them once too.)
                command = command + [input_word(head.end)]
        words = command
    return words, guarded, variables, read


def _is_adjustment(value: str) -> bool:
    """`-10`, `--5`, `-+3`: nice's adjustment written as an option."""
    digits = value[2:] if value[:2] in ("--", "-+") else value[1:]
    return value[:1] == "-" and digits.isascii() and digits.isdigit()


def _replacement(options: list) -> str | None:
    """The string xargs replaces with each line it reads (`-I R`, `-iR`,
    `--replace=R`; `{}` by default), or None: it appends what it reads."""
    found = None
    for option, value in options:
        if option == "-I":
            found = value.value
        elif option in ("-i", "--replace"):
            found = value.value if value is not None and value.value else "{}"
    return found


# Wrappers that, given no command, start a shell (the user's, or root's)
# that reads its commands from the input: `echo 'rm -rf /' | unshare -r`.
# (systemd-run's alone is its --shell; its --help and --version run none.)
_SHELL_WHEN_ALONE = frozenset(
    {"fakeroot", "fakechroot", "unshare", "nsenter", "chroot", "run0", "pkexec", "systemd-run"}
)

# Programs `strip_wrappers` reads past.
STRIPPABLE = frozenset(WRAPPERS)
