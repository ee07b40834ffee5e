"""policyc: compile agent tool-call policies into decision tables.

    import policyc
    artifact = policyc.compile_file("team.policy")        # bytes
    table = policyc.load(artifact)                        # policyc.runtime.Table
    table.decide("bash", {"command": "git status"}).action

The runtime (`policyc.runtime`) imports only the standard library; this
top-level package brings in the compiler lazily, on first use.
"""

from __future__ import annotations

__version__ = "0.1.0"


def compile_text(text: str, file: str = "<input>", fmt: str | None = None) -> bytes:
    """Compile bundle text (`fmt` ".policy" or ".json"; default by file name)."""
    from .compiler import compile_bundle
    from .compiler.artifact import inputs_digest
    from .grammar import parse_bundle

    bundle = parse_bundle(text, file, fmt)
    return compile_bundle(bundle, inputs_digest(text.encode("utf-8")))


def compile_file(path) -> bytes:  # str or PathLike
    """Compile a bundle file to artifact bytes. Raises `PolicyErrors`."""
    from .compiler import compile_bundle
    from .compiler.artifact import inputs_digest
    from .grammar import read_bundle

    bundle, raw = read_bundle(path)
    return compile_bundle(bundle, inputs_digest(raw))


def load(artifact, *, home=None, follow_symlinks=False):  # noqa: ANN001 - path, bytes or PathLike
    """Load an artifact; see `policyc.runtime.load`."""
    from .runtime import load as _load

    return _load(artifact, home=home, follow_symlinks=follow_symlinks)


__all__ = ["__version__", "compile_file", "compile_text", "load"]
