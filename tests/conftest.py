from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@pytest.fixture
def compile_json():
    """Compile a JSON bundle dict and load it with the runtime."""
    import policyc

    def build(bundle: dict):
        return policyc.load(policyc.compile_text(json.dumps(bundle), "bundle.json"))

    return build


@pytest.fixture(scope="module", params=["compiled", "pure"], autouse=False)
def walks(request):
    """The runtime's walks a module's tests run with: each in turn (see policyc.runtime.fast).

    The compiled walks are built by pip where a C compiler is at hand; where
    they are not, their run is skipped, and says so (CI requires them).
    """
    from policyc.runtime import fast

    if request.param == "compiled" and fast.COMPILED is None:
        pytest.skip(
            "the compiled walks are not built (no C compiler at install, or POLICYC_PURE_WALKS)"
        )
    before = fast.WALKS
    fast.WALKS = request.param
    yield request.param
    fast.WALKS = before
