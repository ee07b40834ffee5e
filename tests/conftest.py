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
