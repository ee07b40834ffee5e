"""Platforms' CLIs that run a command on a machine of theirs, as ssh does:
`heroku run`, `fly ssh console -C`, `gcloud compute ssh --command`, `vagrant
ssh -c`, `gh codespace ssh -- …`, mosh and `machinectl shell`. Held: the
command runs elsewhere, as another user. With no command most open the
machine's shell on their input (`echo 'rm -rf ~' | vagrant ssh`): refused,
as `ssh HOST` is. Read for `takers`.

Only the options each needs to find the command are read: these CLIs have
many, most of them flags or `--name=value`, and a word read as the command
that was an option's value can only add what deny and ask rules see.
"""

from __future__ import annotations

from .hosts import ssh_commands
from .words import (
    HELD,
    SplitError,
    Word,
    getopt,
    getopt_spec,
    joined_string,
    opens_shell,
    option_names,
    part_of,
    value_of,
)


def _option_string(words: list[Word], names: frozenset) -> tuple | None:
    """The value of the last of the options `names` (`-c CMD`, `--command=CMD`,
    `-cCMD` for a one-letter one), as a held string; None if none is given."""
    found = None
    for k in range(1, len(words)):
        value = words[k].value
        if value == "--":
            break
        option, eq, _ = value.partition("=")
        if option in names:
            found = value_of(words, k, eq)
        elif value[:2] in names and value[:2] != "--" and len(value) > 2:
            found = part_of(words[k], value[2:])
    return ("string", found) if found is not None else None


# Heroku CLI 8 to 10 (oclif): `heroku run [FLAGS] COMMAND...` runs COMMAND
# in a one-off dyno's shell; `run:detached` too, in the background.
_HEROKU_RUN = getopt_spec(
    "arse",
    "xh",
    "",
    "--app --remote --size --env --type",
    "--exit-code --no-tty --no-notify --no-launcher --help",
)


def _heroku_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if values[1:2] not in (["run"], ["run:detached"]):
        return None  # `heroku logs`, `heroku ps`: read as written
    _, command = getopt(words[1:], name, _HEROKU_RUN, permute=False)
    return [HELD, joined_string(command, name)] if command else None


# flyctl 0.2 and 0.3: `fly ssh console [-C CMD]`; without -C, the machine's shell.
_FLY_COMMAND = option_names("-C --command")
_FLY_QUIET = option_names("-h --help")


def _fly_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if not any(values[k : k + 2] == ["ssh", "console"] for k in range(1, len(values))):
        return None  # `fly deploy`, `fly ssh issue`: read as written
    command = _option_string(words, _FLY_COMMAND)
    if command is None:
        if _FLY_QUIET.isdisjoint(values):
            raise opens_shell(f"{name} ssh console", " (give it -C COMMAND)")
        return None
    return [HELD, command]


# gcloud 4xx: `gcloud [compute|cloud-shell|... tpu-vm] ssh TARGET [--command
# CMD] [-- SSH_ARGS...]`; what follows `--` is ssh's, a command among it.
_GCLOUD_QUIET = option_names("--help --dry-run")


def _gcloud_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if "ssh" not in values or not {"compute", "cloud-shell", "tpu-vm"}.intersection(values):
        return None  # `gcloud compute instances list`: read as written
    end = values.index("--") if "--" in values else len(values)
    if any(value.startswith("--ssh-flag") for value in values[:end]):
        # flags handed to ssh (`--ssh-flag='-o ProxyCommand=…'`) run here
        raise SplitError(f"{name} --ssh-flag cannot be evaluated statically")
    taken: list = [HELD]
    command = _option_string(words[:end], option_names("--command"))
    if command is not None:
        taken.append(command)
    if end < len(words):
        ssh = [part_of(words[0], "ssh"), part_of(words[0], "host")] + words[end + 1 :]
        taken += (ssh_commands(ssh, name, shell=command is None) or [HELD])[1:]
    elif command is None and _GCLOUD_QUIET.isdisjoint(values):
        raise opens_shell(f"{name} ssh", " (give it --command)")
    return taken if len(taken) > 1 else None


# Vagrant 2: `vagrant ssh [NAME] [-c CMD] [-p] [-t] [-- SSH_ARGS...]`.
def _vagrant_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if values[1:2] != ["ssh"]:
        return None  # `vagrant up`, `vagrant ssh-config`: read as written
    end = values.index("--") if "--" in values else len(values)
    command = _option_string(words[:end], option_names("-c --command"))
    taken: list = [HELD] + ([command] if command is not None else [])
    if end < len(words):
        ssh = [part_of(words[0], "ssh"), part_of(words[0], "host")] + words[end + 1 :]
        taken += (ssh_commands(ssh, name, shell=command is None) or [HELD])[1:]
    elif command is None and not {"-h", "--help"}.intersection(values):
        raise opens_shell(f"{name} ssh", " (give it -c COMMAND)")
    return taken if len(taken) > 1 else None


# GitHub CLI 2: `gh codespace ssh [FLAGS] [-- SSH_ARGS... [COMMAND]]` (`gh cs`).
_GH_SSH = getopt_spec(
    "cR",
    "dh",
    "",
    "--codespace --repo --repo-owner --debug-file --profile --server-port",
    "--debug --help --config",
)


def _gh_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if values[1:2] not in (["codespace"], ["cs"]) or values[2:3] != ["ssh"]:
        return None  # `gh pr list`: read as written
    options, rest = getopt(words[2:], name, _GH_SSH, permute=True)
    if ("--config", None) in options or any(o in ("-h", "--help") for o, _ in options):
        return None  # prints an ssh config, or the help
    ssh = [part_of(words[0], "ssh"), part_of(words[0], "host")] + rest
    return ssh_commands(ssh, f"{name} codespace ssh")


# mosh 1.3 and 1.4: `mosh [OPTIONS] [--] [USER@]HOST [COMMAND...]`. --ssh and
# --client name programs run here; --server one run on the host.
_MOSH = getopt_spec(
    "p",
    "an46",
    "",
    "--client --server --ssh --predict --family --port --bind-server --experimental-remote-ip",
    "--predict-overwrite --no-ssh-pty --no-init --local --help --version",
)


def _mosh_commands(words: list[Word], name: str) -> list | None:
    options, operands = getopt(words, name, _MOSH, permute=False)
    taken: list = [HELD]
    taken += [("string", v) for o, v in options if o in ("--ssh", "--client", "--server")]
    command = operands[1:]
    if command and command[0].value == "--":  # `mosh host -- screen -r` (its manual)
        command = command[1:]
    if command:
        taken.append(("words", command))
    return taken if len(taken) > 1 else None  # with no command, mosh needs a terminal


# systemd's machinectl: `machinectl shell [[USER@]NAME [COMMAND...]]` runs
# COMMAND in the container; with none, a shell there on the input.
_MACHINECTL = getopt_spec(
    "MHEp",
    "qlh",
    "",
    "--machine --host --setenv --uid --property --max-addresses --kill-whom --signal",
    "--quiet --no-pager --no-legend --no-ask-password --help --version --all --full",
)


def _machinectl_commands(words: list[Word], name: str) -> list | None:
    """Options before `shell` and between it and NAME; what follows NAME is
    the command's, as written."""
    values = [w.value for w in words]
    if "shell" not in values:
        return None  # `machinectl list`, `machinectl start c`: read as written
    at = values.index("shell")
    _, before = getopt(words[:at], name, _MACHINECTL, permute=True)
    if before:
        return None  # `shell` was another verb's operand
    _, operands = getopt(words[at:], name, _MACHINECTL, permute=False)
    if len(operands) < 2:
        raise opens_shell(f"{name} shell")
    return [HELD, ("words", operands[1:])]


# Virtual machines' CLIs: Multipass 1.13+, Lima 0.2x and 1.x (`limactl
# shell`, and `lima`, its shell in the default instance), Colima 0.6+, and
# Windows's wsl. With no command each opens the machine's shell.
_MULTIPASS_EXEC = getopt_spec(
    "d", "nvh", "", "--working-directory", "--no-map-working-directory --verbose --help"
)
_LIMACTL_SHELL = getopt_spec(
    "", "h", "", "--workdir --shell --log-level", "--reconnect --debug --tty --help"
)
_COLIMA_SSH = getopt_spec("p", "lh", "", "--profile", "--layer --help --verbose --very-verbose")


def _vm_commands(words: list[Word], name: str) -> list | None:
    """`multipass exec NAME [--] CMD…`, `limactl shell NAME CMD…`, `lima
    CMD…` and `colima ssh [--] CMD…`: the command, held."""
    values = [w.value for w in words]
    if name == "lima":
        command = words[1:]
    else:
        verb, spec, permute = {
            "multipass": ("exec", _MULTIPASS_EXEC, True),
            "limactl": ("shell", _LIMACTL_SHELL, False),
            "colima": ("ssh", _COLIMA_SSH, True),
        }[name]
        if name == "multipass" and values[1:2] == ["shell"]:
            raise opens_shell(f"{name} shell")
        if values[1:2] != [verb]:
            return None  # `multipass list`, `limactl start`, `colima status`: as written
        end = values.index("--") if "--" in values else len(values)
        _, operands = getopt(words[1:end], name, spec, permute=permute)
        named = name != "colima"  # colima's one machine is its profile's
        command = words[end + 1 :] if end < len(words) else operands[named:]
        if named and not operands:
            return None  # no machine named: its usage
    if not command and name != "multipass":  # (`multipass exec VM` alone: its usage)
        raise opens_shell(name if name == "lima" else f"{name} {values[1]}")
    return [HELD, ("words", command)] if command else None


# wsl (Windows 10 and 11): `wsl [-d DISTRO] [-u USER] [--cd DIR] [-e CMD… |
# -- CMD… | CMD…]`. A command line after the options (or `--`) runs in the
# distribution's shell, `-e` without one; its management options run none.
_WSL = getopt_spec("du", "", "", "--distribution --user --cd --shell-type", "--system")
_WSL_MANAGES = option_names(
    "--install --list -l --shutdown --terminate -t --status --update --set-default -s "
    "--export --import --import-in-place --unregister --mount --unmount --help --version -v "
    "--set-version --set-default-version --manage --debug-shell"
)


def _wsl_commands(words: list[Word], name: str) -> list | None:
    values = [w.value for w in words]
    if values[1:2] and values[1] in _WSL_MANAGES:
        return None
    ends = [k for k, value in enumerate(values) if value in ("-e", "--exec", "--")]
    end = ends[0] if ends else len(words)
    _, command = getopt(words[:end], name, _WSL, permute=False)
    if end < len(words):
        if values[end] != "--":  # `-e`: the words, with no shell
            return [HELD, ("words", words[end + 1 :])] if end + 1 < len(words) else None
        command = words[end + 1 :]
    if not command:
        raise opens_shell(name)
    return [HELD, joined_string(command, name)]


TAKERS = {
    "heroku": _heroku_commands,
    "fly": _fly_commands,
    "flyctl": _fly_commands,
    "gcloud": _gcloud_commands,
    "vagrant": _vagrant_commands,
    "gh": _gh_commands,
    "mosh": _mosh_commands,
    "machinectl": _machinectl_commands,
    "multipass": _vm_commands,
    "limactl": _vm_commands,
    "lima": _vm_commands,
    "colima": _vm_commands,
    "wsl": _wsl_commands,
    "wsl.exe": _wsl_commands,
}
