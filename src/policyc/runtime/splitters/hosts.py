"""Programs that run a command on another host, in a container or in a
sandbox: ssh, scp, sftp, rsync, docker, podman, nerdctl, the compose
programs, kubectl and oc, lxc and incus, and bwrap. Held:
the command runs elsewhere, as another user or under another root. Read
for `takers`."""

from __future__ import annotations

from .programs import DOCKER_TAKES, program_name
from .words import (
    FEEDERS,
    HELD,
    SplitError,
    Word,
    files_in,
    getopt,
    getopt_spec,
    is_input,
    joined_string,
    last_option,
    opens_shell,
    option_names,
    part_of,
    value_of,
)

# ssh (OpenSSH 8 and 9): options with a value, and flags.
_SSH_SPEC = getopt_spec("BbcDEeFiJLlmOoPpQRSWw", "1246AaCfGgKkMNnqsTtVvXxYy")
# `-o` options that run a local command or load code (`-o ProxyCommand=...`),
# or name a remote command apart from the words (RemoteCommand).
_SSH_REFUSED = option_names(
    "proxycommand localcommand knownhostscommand remotecommand pkcs11provider securitykeyprovider"
)


def ssh_commands(words: list[Word], name: str, shell: bool = True) -> list | None:
    """The command `ssh [options] HOST [options] COMMAND...` runs on the host:
    its words joined with spaces, read by the remote user's shell. Held: it
    runs elsewhere, as another user. With no command, the remote shell
    reads its commands from ssh's input (`echo 'rm -rf ~' | ssh host`, a
    here-document): refused, as a local shell reading its input is, unless
    `shell` is false (a platform's CLI gave the command apart)."""
    options, operands = _ssh_words(words, name)
    taken: list = [HELD]
    taken += [("file", value) for option, value in options if option == "-E"]  # its log
    no_shell = not shell or last_option(options, *_SSH_NO_SHELL) is not None
    if not operands or len(operands) == 1 and no_shell:
        return taken if len(taken) > 1 else None  # (no host: ssh prints its usage)
    if len(operands) == 1:
        raise opens_shell(name, " (give it the command to run, or -n for none)")
    if is_input(operands[0]):
        raise SplitError(f"{name} given a command by {FEEDERS} cannot be evaluated statically")
    taken.append(joined_string(operands[1:], name))
    return taken


# What makes ssh run no remote shell on its input: no command (-N), a
# subsystem (-s), forwarding its input to a port (-W), a master's control
# command (-O), queries (-Q, -G, -V), or its input taken from /dev/null (-n).
_SSH_NO_SHELL = ("-N", "-s", "-W", "-O", "-Q", "-G", "-V", "-n")


def _ssh_words(words: list[Word], name: str) -> tuple[list, list[Word]]:
    """ssh's options and its operands (the host, then the command's words):
    ssh reads its options again after the host, up to the command."""
    options, operands = getopt(words, name, _SSH_SPEC, permute=False)
    if operands:
        more, rest = getopt([words[0]] + operands[1:], name, _SSH_SPEC, permute=False)
        options += more
        operands = operands[:1] + rest
    _check_ssh_options(options, name)
    return options, operands


def remote_shell(words: list[Word]) -> bool:
    """Whether `words` are an ssh that opens the host's shell on its input:
    in a terminal of tmux or screen, that shell reads what is typed there
    (`send-keys`, `stuff`), which is read for what it runs."""
    if not words or words[0].expands or program_name(words[0].value) != "ssh":
        return False
    options, operands = _ssh_words(words, "ssh")
    return len(operands) == 1 and last_option(options, *_SSH_NO_SHELL) is None


def _check_ssh_options(options: list, name: str) -> None:
    """Refuse `-o` options that run a local command or load code, and a
    config file other than none (`-F FILE`: its ProxyCommand, LocalCommand
    or `Match exec` run here; `printf 'ProxyCommand rm -rf ~' > c; ssh -F c
    host` ran rm). (-I, a PKCS#11 library to load, is refused as an option
    not in the spec.)"""
    for option, value in options:
        if option == "-F" and value.value not in ("none", "/dev/null"):
            raise SplitError(
                f"{name} -F {value.value} (a config file) cannot be evaluated statically"
            )
        keyword = value.value.replace("=", " ").split()[:1] if option == "-o" else []
        if keyword and keyword[0].lower() in _SSH_REFUSED:
            raise SplitError(f"{name} -o {value.value} cannot be evaluated statically")


# scp's and sftp's options (OpenSSH 8 and 9; their getopt permutes): -S
# names the program run in ssh's place, and sftp's -D a local sftp server.
_COPY_SPECS = {
    "scp": getopt_spec("cDFiJlPSoX", "12346ABCOTdfGpqRrstv"),
    "sftp": getopt_spec("cDiloSsbBFJPRX", "1246AafhNpqrvC"),
}


def _copy_commands(words: list[Word], name: str) -> list | None:
    """The local programs `scp -S PROGRAM` and `sftp -S PROGRAM` or `-D
    SERVER` run; held, as ssh's command is. sftp given no file to fetch
    reads its commands from its input (or `-b -`), where `!CMD` runs CMD
    here: refused, as a shell reading its input is; a batch file (`-b
    FILE`) is read, as a shell's script file is."""
    options, operands = getopt(words, name, _COPY_SPECS[name], permute=True)
    _check_ssh_options(options, name)
    taken = [("words", [value]) for option, value in options if option == "-S"]
    if name == "sftp":
        taken += [("string", value) for option, value in options if option == "-D"]
        batch = last_option(options, "-b")
        if batch is not None and batch.value != "-":
            taken.append(("reads", batch))
        elif operands and (batch is not None or len(operands) == 1 and _no_file(operands[0])):
            raise opens_shell(name, " (give it -b FILE, or HOST:PATH to fetch)")
    return [HELD] + taken if taken else None


def _no_file(word: Word) -> bool:
    """An sftp destination that names no file to fetch: `HOST`, `HOST:`, `HOST:DIR/`."""
    _, colon, path = word.value.partition(":")
    return not colon or not path or path.endswith("/")


# ftp (inetutils 2, tnftp 2023) and lftp (4.9): ftp given a host reads its
# commands from its input, and lftp runs those of `-c`, `-e` and its input;
# both run `!CMD` here. Refused; ftp's uploads (`-u URL FILE…`) are read,
# its fetches of URLs (`ftp ftp://host/x`) run none, and a script of
# lftp's (`-f FILE`) is read, as a shell's script file is.
_FTP_VALUES = option_names("-u -P -o -s -r -q -T")
_LFTP_VALUES = option_names("-p -u -U -d")


def _ftp_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if name == "lftp":
        script = None
        for k, value in enumerate(values[1:], 1):
            if value in ("-c", "-e"):
                raise SplitError(
                    f"{name} {value} (its own commands) cannot be evaluated statically"
                )
            if value == "-f" and k + 1 < len(words):
                script = words[k + 1]
        if script is not None:
            return [HELD, ("reads", script)]
        if any(v in ("-h", "--help", "-v", "--version") for v in values[1:]):
            return None
        raise opens_shell(name, " (give it -f FILE)")
    operands: list[Word] = []  # past options and their values (`-u URL`)
    k = 1
    while k < len(words):
        if values[k] in _FTP_VALUES:
            k += 2
            continue
        if values[k][:1] != "-":
            operands.append(words[k])
        k += 1
    if "-u" in values:  # `ftp -u URL FILE…` sends the files
        return [HELD] + [("reads", w) for w in operands] if operands else None
    if operands and all("://" in w.value or ":" in w.value.partition("/")[0] for w in operands):
        return None  # fetches (`ftp ftp://host/x`, `ftp host:path`)
    if any(v in ("-h", "--help", "-V", "--version", "-?") for v in values[1:]):
        return None
    raise opens_shell(name, " (give it URLs to fetch, or -u URL FILE to send)")


# rsync's options whose value is a command: -e/--rsh runs on this machine
# (rsync splits it into words itself), --rsync-path on the remote one.
_RSYNC_COMMANDS = option_names("-e --rsh --rsync-path")


def _rsync_commands(words: list[Word], name: str) -> list | None:
    """The commands `rsync -e 'ssh -p 2222'` and `--rsync-path` name. Only
    these options are looked for (rsync has some 150): a word equal to one
    of them is taken as it, wherever it stands."""
    taken: list = []
    for k, word in enumerate(words[1:], 1):
        option, eq, _ = word.value.partition("=")
        if option in _RSYNC_COMMANDS:
            taken.append(("string", value_of(words, k, eq)))
        elif option.startswith("-e") and not option.startswith("--") and len(option) > 2:
            taken.append(("string", part_of(word, word.value[2:])))  # `-essh`
        elif option[:1] == "-" and option[1:2] != "-" and "e" in option[2:]:
            raise SplitError(f"{name} {word.value} cannot be evaluated statically")  # `-ave ssh`
    return [HELD] + taken if taken else None


# docker and podman (their CLIs' flag parsing: clusters, `--name=value`,
# options before the image or container): the global options, and those of
# the subcommands that run a command in a container.
_DOCKER_GLOBAL = getopt_spec(
    "cHl",
    "Dv",
    "",
    "--config --context --host --log-level --tlscacert --tlscert --tlskey",
    "--debug --tls --tlsverify",
)
_DOCKER_EXEC = getopt_spec(
    "euw",
    "dit",
    "",
    "--detach-keys --env --env-file --user --workdir",
    "--detach --interactive --privileged --tty",
)
DOCKER_RUN = getopt_spec(
    "acehlmpuvw",
    "diPqt",
    "",
    "--add-host --annotation --attach --blkio-weight --blkio-weight-device --cap-add "
    "--cap-drop --cgroup-parent --cgroupns --cidfile --cpu-period --cpu-quota "
    "--cpu-rt-period --cpu-rt-runtime --cpu-shares --cpus --cpuset-cpus --cpuset-mems "
    "--detach-keys --device --device-cgroup-rule --device-read-bps --device-read-iops "
    "--device-write-bps --device-write-iops --dns --dns-option --dns-search --domainname "
    "--entrypoint --env --env-file --expose --gpus --group-add --health-cmd "
    "--health-interval --health-retries --health-start-period --health-start-interval "
    "--health-timeout --hostname --ip --ip6 --ipc --isolation --kernel-memory --label "
    "--label-file --link --link-local-ip --log-driver --log-opt --mac-address --memory "
    "--memory-reservation --memory-swap --memory-swappiness --mount --name --network --net "
    "--network-alias --net-alias --oom-score-adj --pid --pids-limit --platform --publish "
    "--pull --restart --runtime --security-opt --shm-size --stop-signal --stop-timeout "
    "--storage-opt --sysctl --tmpfs --ulimit --user --userns --uts --volume --volume-driver "
    "--volumes-from --workdir",
    "--detach --disable-content-trust --init --interactive --no-healthcheck "
    "--oom-kill-disable --privileged --publish-all --quiet --read-only --rm --sig-proxy --tty",
)
_COMPOSE_GLOBAL = getopt_spec(
    "fp",
    "",
    "",
    "--file --project-name --profile --env-file --project-directory --ansi --progress --parallel",
    "--compatibility --dry-run --all-resources",
)
_COMPOSE_EXEC = getopt_spec(
    "euw",
    "dTit",
    "",
    "--env --user --workdir --index",
    "--detach --no-TTY --privileged --dry-run --interactive --tty",
)

_COMPOSE_RUN = getopt_spec(
    "elpuvw",
    "dTitP",
    "",
    "--env --env-from-file --label --name --publish --user --volume --workdir --entrypoint "
    "--cap-add --cap-drop --pull",
    "--detach --rm --no-TTY --interactive --tty --no-deps --service-ports --use-aliases "
    "--build --quiet-pull --remove-orphans --quiet-build --dry-run",
)


# nerdctl 1 and 2 (containerd's docker-compatible CLI): its global options.
_NERDCTL_GLOBAL = getopt_spec(
    "anH",
    "",
    "",
    "--address --host --namespace --snapshotter --storage-driver --cni-path "
    "--cni-netconfpath --data-root --cgroup-manager --insecure-registry --hosts-dir "
    "--host-gateway-ip --bridge-ip --cdi-spec-dirs --userns-remap --global-dns "
    "--global-dns-opts --global-dns-search",
    "--debug --debug-full --experimental --kube-hide-dupe",
)
# docker-compose (Compose v1's program, and v2's standalone one) and
# podman-compose take `compose`'s words: `docker-compose exec web CMD`.
_COMPOSE_PROGRAMS = frozenset({"docker-compose", "podman-compose"})


def _host_paths(word: Word, read: bool, write: bool) -> list:
    """A host folder or file a container is given, and what is under it."""
    under = part_of(word, files_in(word.value))
    paths = [("reads", word), ("reads", under)] if read else []
    return paths + ([("edits", word), ("edits", under)] if write else [])


def _mounted(options: list) -> list:
    """The host paths `-v SRC:DST[:ro]` and `--mount type=bind,src=SRC[,ro]`
    give the container (read, and written unless read-only), and the file
    `--env-file` sends it. A volume's name (`-v data:/x`) is no path; a
    path with a variable may be any (`shell._any_if_variable`)."""
    taken: list = []
    for option, value in options:
        if option in ("-v", "--volume"):
            source, _, rest = value.value.partition(":")
            # A path, or a variable (`$PWD`), which no volume's name starts with.
            if (source[:1] in ("/", ".", "~") or source[:1] == "$" and value.expands) and rest:
                write = "ro" not in rest.partition(":")[2].split(",")
                taken += _host_paths(part_of(value, source), True, write)
        elif option == "--mount":
            fields = dict(f.partition("=")[::2] for f in value.value.split(","))
            source = fields.get("source") or fields.get("src") or ""
            if fields.get("type") == "bind" and source:
                readonly = "readonly" in fields or "ro" in fields
                write = not readonly or fields.get("readonly", fields.get("ro")) == "false"
                taken += _host_paths(part_of(value, source), True, write)
        elif option == "--env-file":
            taken.append(("reads", value))
    return taken


_DOCKER_CP = getopt_spec("", "aLq", "", "", "--archive --follow-link --quiet")


def _in_container(word: Word) -> bool:
    """`CONTAINER:PATH`, as docker cp tells it from a local path."""
    return ":" in word.value.partition("/")[0]


def _docker_cp(rest: list[Word], name: str) -> list | None:
    """`docker cp SRC CONTAINER:DST` reads SRC; `docker cp CONTAINER:SRC DST`
    writes DST. `-` is a tar stream."""
    _, operands = getopt(rest, name, _DOCKER_CP, permute=True)
    return _copied(operands, lambda word: _in_container(word) or word.value == "-")


def _copied(operands: list[Word], elsewhere) -> list | None:
    """A copy between this host and another place (`docker cp`, `kubectl
    cp`): its local source is read, or its local target written, a
    folder's files too; `elsewhere` tells the other place's words."""
    if len(operands) != 2:
        return None  # its usage
    source, target = operands
    if not elsewhere(target):
        return [HELD] + _host_paths(target, False, True)
    if not elsewhere(source):
        return [HELD] + _host_paths(source, True, False)
    return None


def _docker_commands(words: list[Word], name: str) -> list | None:
    """What `docker exec CONTAINER CMD...`, `docker run [--entrypoint P] IMAGE
    [CMD...]` (and `container exec`/`run`/`create`, `compose exec SERVICE
    CMD...`) run in the container. Held: it runs in another root. An image's
    own command (`docker run IMAGE`) is not the caller's: as written. Also
    podman, nerdctl, docker-compose and podman-compose."""
    if DOCKER_TAKES.isdisjoint(w.value for w in words):
        return None  # `docker ps -a`, `docker build .`: read as written
    if name in _COMPOSE_PROGRAMS:
        words = [words[0], part_of(words[0], "compose")] + words[1:]
    spec = _NERDCTL_GLOBAL if name == "nerdctl" else _DOCKER_GLOBAL
    _, rest = getopt(words, name, spec, permute=False)
    if rest and rest[0].value == "container":
        rest = rest[1:]
    if not rest:
        return None
    sub = rest[0].value
    if sub == "cp":
        return _docker_cp(rest, name)
    if sub == "compose":
        _, rest = getopt(rest, name, _COMPOSE_GLOBAL, permute=False)
        if not rest or rest[0].value not in ("exec", "run"):
            return None
        spec = _COMPOSE_EXEC if rest[0].value == "exec" else _COMPOSE_RUN
        options, operands = getopt(rest, name, spec, permute=False)
        command = operands[1:]
        entrypoint = last_option(options, "--entrypoint")
        if entrypoint is not None and entrypoint.value:
            command = [entrypoint] + command
        taken = [HELD] + ([("words", command)] if command else []) + _mounted(options)
        return taken if len(taken) > 1 else None
    if sub == "exec":
        options, operands = getopt(rest, name, _DOCKER_EXEC, permute=False)
        taken = [HELD] + ([("words", operands[1:])] if len(operands) > 1 else [])
        taken += _mounted(options)  # its --env-file
        return taken if len(taken) > 1 else None
    if sub in ("run", "create"):
        options, operands = getopt(rest, name, DOCKER_RUN, permute=False)
        command = operands[1:]
        entrypoint = last_option(options, "--entrypoint")
        if entrypoint is not None and entrypoint.value:
            command = [entrypoint] + command
        taken = [HELD] + ([("words", command)] if command else []) + _mounted(options)
        taken += [("string", v) for o, v in options if o == "--health-cmd"]
        return taken if len(taken) > 1 else None
    return None


# kubectl's options that take a value, before and after `exec`.
_KUBECTL_SPEC = getopt_spec(
    "cnfs",
    "itq",
    "",
    "--container --namespace --filename --pod-running-timeout --context --kubeconfig "
    "--server --user --cluster --token --as --as-group --request-timeout",
    "--stdin --tty --quiet --insecure-skip-tls-verify",
)


_KUBECTL_CP = (
    _KUBECTL_SPEC[0],
    _KUBECTL_SPEC[1],
    _KUBECTL_SPEC[2],
    _KUBECTL_SPEC[3] | {"--retries"},
    _KUBECTL_SPEC[4] | {"--no-preserve"},
    _KUBECTL_SPEC[5],
)


def _in_pod(word: Word) -> bool:
    """`POD:PATH` or `NAMESPACE/POD:PATH`, as `kubectl cp SRC POD:DST` (or
    `POD:SRC DST`) tells it from a local path."""
    return ":" in word.value and word.value[:1] not in ("/", ".", "~")


# OpenShift's `oc rsh [OPTIONS] POD [COMMAND...]` (oc 4): a shell in the
# pod, or the command (oc's `exec` is kubectl's).
_OC_RSH = getopt_spec(
    "cf",
    "tTq",
    "",
    "--container --filename --shell --timeout --namespace --context --kubeconfig --server",
    "--tty --no-tty --quiet",
)


def _kubectl_commands(words: list[Word], name: str) -> list | None:
    """`kubectl exec POD -- CMD...` runs CMD in the pod: held. (Older kubectl
    also took `exec POD CMD...`; read so too.) Also oc, and its `rsh`."""
    values = [w.value for w in words]
    if name == "oc" and "rsh" in values:
        _, operands = getopt(words, name, _OC_RSH, permute=False)
        if operands and operands[0].value == "rsh":
            _, operands = getopt(operands, name, _OC_RSH, permute=False)  # POD COMMAND...
            if len(operands) < 2:
                raise opens_shell("oc rsh")  # the pod's shell, on oc's input
            return [HELD, ("words", operands[1:])]
    end = values.index("--") if "--" in values else len(values)
    if "cp" in values[1:end]:
        _, operands = getopt(words[:end], name, _KUBECTL_CP, permute=True)
        if operands and operands[0].value == "cp":
            return _copied(operands[1:] + words[end + 1 :], _in_pod)
    if end + 1 < len(words) and not {"run", "debug"}.isdisjoint(values[1:end]):
        # `kubectl run NAME --image=I -- CMD`: the options of run and debug
        # are many and not read; the command is all after `--`.
        return [HELD, ("words", words[end + 1 :])]
    if "exec" not in values[1:end]:
        return None  # `kubectl get pods -o yaml`: read as written
    _, operands = getopt(words[:end], name, _KUBECTL_SPEC, permute=True)
    if not operands or operands[0].value != "exec":
        return None  # `exec` was an option's value
    if end == len(words) and len(operands) > 2:
        return [HELD, ("words", operands[2:])]  # the old form, `exec POD CMD`
    return [HELD, ("words", words[end + 1 :])] if end + 1 < len(words) else None


# LXD's lxc and Incus (5 and 6; cobra: options anywhere before `--`): the
# global options and exec's. `lxc exec INSTANCE [--] COMMAND...` runs the
# command in the instance; `lxc shell INSTANCE` opens a login shell there.
_LXC_SPEC = getopt_spec(
    "e",
    "hqvntT",
    "",
    "--project --cwd --env --group --mode --user",
    "--debug --force-local --help --quiet --verbose --version --sub-commands "
    "--force-interactive --force-noninteractive --disable-stdin",
)


def _lxc_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if "exec" not in values and "shell" not in values:
        return None  # `lxc list`, `incus launch images:debian/12 c1`: as written
    end = values.index("--") if "--" in values else len(values)
    _, operands = getopt(words[:end], name, _LXC_SPEC, permute=True)
    if not operands or operands[0].value not in ("exec", "shell"):
        return None  # `exec` or `shell` was an option's value or an operand
    if operands[0].value == "shell":
        raise opens_shell(f"{name} shell")
    command = words[end + 1 :] if end < len(words) else operands[2:]
    return [HELD, ("words", command)] if command else None


# bubblewrap 0.6 to 0.11: how many values each option takes. The command
# runs in the sandbox it builds (another root, namespaces, argv[0]): held.
_BWRAP_VALUES = {
    **dict.fromkeys(
        option_names(
            "--help --version --unshare-all --share-net --unshare-user --unshare-user-try "
            "--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup "
            "--unshare-cgroup-try --die-with-parent --as-pid-1 --new-session --clearenv "
            "--disable-userns --assert-userns-disabled --level-prefix"
        ),
        0,
    ),
    **dict.fromkeys(
        option_names(
            "--argv0 --userns --userns2 --pidns --uid --gid --hostname --chdir --unsetenv "
            "--lock-file --sync-fd --remount-ro --proc --dev --tmpfs --mqueue --dir --seccomp "
            "--add-seccomp-fd --block-fd --userns-block-fd --info-fd --json-status-fd "
            "--cap-add --cap-drop --perms --size --exec-label --file-label --overlay-src "
            "--tmp-overlay --ro-overlay"
        ),
        1,
    ),
    **dict.fromkeys(
        option_names(
            "--setenv --bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try "
            "--bind-fd --ro-bind-fd --file --bind-data --ro-bind-data --symlink --chmod"
        ),
        2,
    ),
    "--overlay": 3,
}


def _bwrap_commands(words: list[Word], name: str) -> list | None:
    """The command bwrap runs in its sandbox, after its options. `--args FD`
    (more options from a descriptor) and options not listed are refused."""
    i = 1
    while i < len(words) and words[i].value.startswith("--"):
        option = words[i].value
        if option == "--":
            i += 1
            break
        if option not in _BWRAP_VALUES:
            raise SplitError(f"{name} with option {option} cannot be evaluated statically")
        i += 1 + _BWRAP_VALUES[option]
    return [HELD, ("words", words[i:])] if i < len(words) else None


TAKERS = {
    "ftp": _ftp_commands,
    "lftp": _ftp_commands,
    "ssh": ssh_commands,
    "scp": _copy_commands,
    "sftp": _copy_commands,
    "rsync": _rsync_commands,
    "docker": _docker_commands,
    "podman": _docker_commands,
    "kubectl": _kubectl_commands,
    "oc": _kubectl_commands,
    "bwrap": _bwrap_commands,
    "lxc": _lxc_commands,
    "incus": _lxc_commands,
}
TAKERS.update(dict.fromkeys(("nerdctl", *_COMPOSE_PROGRAMS), _docker_commands))
