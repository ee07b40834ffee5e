"""The compiled walks built another way than pip built them here, tested again.

`_walks.pyx` takes its fetch hint and its two bit counts from three macros:
GCC's and Clang's builtins, MSVC's intrinsics on its 64-bit targets, and
plain C for any other compiler. pip builds them with GCC here. Each test
below builds the extension again in a copy of the tree, checks the build is
the one it asked for (`_walks.BUILT_BY`, `_walks.PLAIN_C`), and runs the
differential tests' compiled walks against it:

- with `-DPOLICYC_PLAIN_C`, which forces the plain C;
- with Clang (macOS's compiler family), where `clang` is installed; CI
  installs it (`.ci/run`), and elsewhere the test is skipped and says so.

MSVC's branch is the one nothing here compiles.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BUILDS = {
    # name: (environment added to the build's, (BUILT_BY, PLAIN_C) wanted or None: any)
    "plain C": ({"CFLAGS": "-DPOLICYC_PLAIN_C"}, (None, "True")),
    "clang": ({"CC": "clang"}, ("clang", "False")),
}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_another_build_walks_as_the_reference_does(tmp_path, build):
    from policyc.runtime import fast

    if fast.COMPILED is None:
        pytest.skip("the compiled walks are not built here (no C compiler at install)")
    pytest.importorskip("Cython", reason="Cython builds the walks (the test extra installs it)")
    added, (built_by, plain) = BUILDS[build]
    if "CC" in added and shutil.which(added["CC"]) is None:
        pytest.skip(f"{added['CC']} is not installed (on Debian: apt-get install {added['CC']})")

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
    for name, value in added.items():
        env[name] = (env.get(name, "") + " " + value).strip() if name == "CFLAGS" else value
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
            "print(w.__file__, w.BUILT_BY, w.PLAIN_C, fast.WALKS)",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert which.returncode == 0, which.stderr
    path, by, is_plain, walks = which.stdout.split()
    assert Path(path).is_relative_to(copy), path
    assert (is_plain, walks) == (plain, "compiled")
    assert built_by is None or by == built_by, by

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
