"""The compiled walks built as a C compiler without GCC's builtins builds them.

`_walks.pyx` takes its fetch hint and its two bit counts from three macros:
GCC's and Clang's builtins, MSVC's intrinsics on its 64-bit targets, and
plain C for any other compiler. Only GCC is at hand here, so this test
builds the extension again with `-DPOLICYC_PLAIN_C`, which forces the plain
C, and runs the differential tests' compiled walks against that build.
(MSVC's branch is the one nothing here compiles.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_plain_c_build_walks_as_the_reference_does(tmp_path):
    from policyc.runtime import fast

    if fast.COMPILED is None:
        pytest.skip("the compiled walks are not built here (no C compiler at install)")
    pytest.importorskip("Cython", reason="Cython builds the walks (the test extra installs it)")

    copy = tmp_path / "policyc"
    shutil.copytree(
        ROOT / "src",
        copy / "src",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "_walks.c", "__pycache__"),
    )
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "scripts", copy / "scripts")
    env = dict(os.environ)
    env["CFLAGS"] = (env.get("CFLAGS", "") + " -DPOLICYC_PLAIN_C").strip()
    built = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-3000:]

    env["PYTHONPATH"] = str(copy / "src")
    which = subprocess.run(
        [
            sys.executable,
            "-c",
            "import policyc.runtime._walks as w; from policyc.runtime import fast;"
            "print(w.__file__, w.PLAIN_C, fast.WALKS)",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert which.returncode == 0, which.stderr
    path, plain, walks = which.stdout.split()
    assert Path(path).is_relative_to(copy), path
    assert (plain, walks) == ("True", "compiled")

    tests = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "compiled",
            "tests/test_differential.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    summary = tests.stdout.strip().splitlines()[-1] if tests.stdout.strip() else ""
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert "passed" in summary and "skipped" not in summary, summary
