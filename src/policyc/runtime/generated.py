"""Support for generated decision modules (the code-generating backend).

`policyc compile --emit python` writes a Python module whose per-tool
functions walk literal tries to precomputed verdicts (see
`policyc.compiler.codegen`). A generated module imports only the names in
`EXPORTS` from here. This module gives it:

- `GeneratedTable`: the `Table` interface over the generated functions, with
  the artifact body embedded for everything the functions do not answer
  (confined calls, subjects, grant sets, values an inner glob matches,
  tools no rule names), decided by the ordinary runtime, built on first need;
- `glob_hit`: the inner-glob test of a walk (the runtime's own);
- `field_value`: how a matcher reads its field (for args a function does not read itself);
- `load_module`: import a generated file after checking its digests.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

from .artifact import ArtifactError, body_digest, table_from_body
from .batch import HeldTwins, make_batch
from .matchers import field_value as field_value
from .verdict import Verdict, failed_verdict
from .walks import glob_hit as glob_hit  # re-exported for generated modules

EXPORTS = ("GeneratedTable", "Verdict", "field_value", "glob_hit")
FORMAT = "policyc-generated-1"


class GeneratedTable:
    """Decides with generated per-tool functions; the runtime answers the rest."""

    def __init__(self, body: str, body_sha256: str, functions: dict) -> None:
        if body_digest(body.encode("utf-8")) != body_sha256:
            raise ArtifactError(
                "the generated module's body does not match its digest (corrupt or edited)"
            )
        self._body = body
        self._functions = functions
        self._table = None
        # `load`'s path options (where `~` points, whether the path splitter
        # resolves symlinks), for the table when it is built: the functions
        # leave every call of a tool with a splitter to it.
        self._path_options: dict = {}
        self.digest = body_sha256
        # (`full`: `decide` itself, which never raises; it runs the tool's
        # function again before the table, for the few calls it leaves.)
        self.decide_batch = make_batch(self.decide, HeldTwins(), functions, self, self.decide)

    @property
    def _sets(self) -> list:
        """The grant sets active (none until the embedded table is built)."""
        return () if self._table is None else self._table._sets

    @property
    def table(self):
        """The ordinary runtime table over the embedded body, built on first need."""
        if self._table is None:
            self._table = table_from_body(json.loads(self._body), self.digest, **self._path_options)
        return self._table

    # Not keyword-only, as `Table.decide` (CPython specialises such calls).
    def decide(self, tool, args, confined=None, subjects=None, scope=None, cwd=None) -> Verdict:
        try:
            if (
                subjects is None
                and confined is None
                and (self._table is None or not self._table._sets)
            ):
                fn = self._functions.get(tool)
                if fn is not None:
                    verdict = fn(args)
                    if verdict is not None:
                        return verdict
            return self.table.decide(
                tool, args, confined=confined, subjects=subjects, scope=scope, cwd=cwd
            )
        except Exception as exc:  # fail closed, as the table runtime does
            conf = confined if isinstance(confined, str) else ""
            if not isinstance(tool, str):
                return failed_verdict("tool", "the tool name is not a string", conf)
            return failed_verdict(tool, f"internal error ({type(exc).__name__})", conf)

    def __getattr__(self, name: str):
        # offer, removes, activate, revoke, grants, tools, sources, withheld, ...
        return getattr(self.table, name)


def _source_digest(text: str) -> str:
    """sha256 of a generated module's source, less its first line (which holds this digest)."""
    return hashlib.sha256(text.split("\n", 1)[1].encode("utf-8")).hexdigest()


def load_module(
    path: str | Path, *, home: str | None = None, follow_symlinks: bool = False
) -> GeneratedTable:
    """Import a generated module and return its table; refuse an edited or foreign file.

    `home` and `follow_symlinks` as `policyc.runtime.load` takes them.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ArtifactError(f"cannot read the generated module: {exc}") from None
    first = text.split("\n", 1)[0]
    if not first.startswith(f"# {FORMAT} sha256="):
        raise ArtifactError(
            f"not a policyc generated module (its first line is not `# {FORMAT} ...`)"
        )
    if first.split("sha256=", 1)[1].strip() != _source_digest(text):
        raise ArtifactError("the generated module does not match its digest (corrupt or edited)")
    name = f"policyc_generated_{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ArtifactError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise ArtifactError(f"the generated module failed to import: {exc!r}") from None
    table = module.TABLE
    table._path_options = {"home": home, "follow_symlinks": follow_symlinks}
    return table
