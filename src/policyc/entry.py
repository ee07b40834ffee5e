"""The `policyc` console script. `policyc hook ...` runs once per tool call, so
it goes straight to the hook, without importing the CLI's argument parser."""

from __future__ import annotations

import sys


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["hook"]:
        from .hook import run

        run(argv[1:])  # does not return
    from .cli import main as cli_main

    return cli_main(argv)
