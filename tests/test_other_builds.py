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

MSVC's branch is compiled, not run, by Clang as MSVC's stand-in for Windows
on x64 and ARM64 (the last test below).
"""

from __future__ import annotations

import ast
import os
import re
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


# MSVC's branch, compiled (not run: no Windows here) by Clang as MSVC's
# stand-in, for Windows on x64 and on ARM64. Clang's windows-msvc targets
# predefine what MSVC does (_MSC_VER, _M_X64 or _M_ARM64, no __GNUC__) and
# take MSVC's intrinsics with MSVC's signatures. The blocks of C that
# `_walks.pyx` hands the compiler are compiled as the module's are, after
# Clang's own intrinsics headers, with what Clang defines and MSVC does not
# undefined; each test checks the blocks took MSVC's branch.
WINDOWS = {"x64": "x86_64-pc-windows-msvc", "ARM64": "aarch64-pc-windows-msvc"}

# No Windows SDK here: Clang's intrinsics headers include three of its
# headers, and need only these declarations from them.
SDK_STUBS = {
    "stdlib.h": "void *malloc(unsigned long long); void free(void *);\n",
    "malloc.h": (
        "void *_aligned_malloc(unsigned long long, unsigned long long);\n"
        "void _aligned_free(void *);\n"
    ),
    "setjmp.h": "typedef struct { unsigned long long part[2]; } jmp_buf[16];\n",
}

MSVC_DRIVER = """\
#include <intrin.h>
#if defined(_M_X64)
#include <xmmintrin.h>
#endif
#if defined(_M_ARM64) && __clang_major__ < 18
/* MSVC's intrin.h declares it; Clang's does from Clang 18 on. */
void __prefetch(const void *);
#endif
/* From here on, the blocks see what MSVC defines. */
#undef __clang__
#undef __BYTE_ORDER__
#ifdef __GNUC__
#error "Clang defined __GNUC__ for an MSVC target"
#endif
{blocks}
#if POLICYC_PLAIN || !POLICYC_WORDS_READ || defined(policyc_ctz64)
#error "the blocks did not take MSVC's branch"
#endif
const char policyc_built_by[] = POLICYC_BUILT_BY;
int lowest(unsigned long long x) {{ return policyc_ctz64(x); }}
int highest(unsigned long long x) {{ return policyc_clz64(x); }}
void fetch(const void *address) {{ policyc_prefetch(address); }}
"""


def _verbatim_c() -> str:
    """The C of `_walks.pyx`'s `cdef extern from *` blocks, as Cython hands it on."""
    text = (ROOT / "src" / "policyc" / "runtime" / "_walks.pyx").read_text()
    bodies = re.findall(r'^cdef extern from \*:\n    """\n(.*?)^    """', text, re.S | re.M)
    # Each body is a Python string literal: `\\` in it is one backslash in C.
    blocks = [ast.literal_eval('"""' + body + '"""') for body in bodies]
    joined = "\n".join(blocks)
    for name in ("POLICYC_PLAIN", "POLICYC_WORDS_READ", "POLICYC_BUILT_BY"):
        assert f"#define {name}" in joined, f"no block of _walks.pyx defines {name}"
    return joined


@pytest.mark.parametrize("arch", sorted(WINDOWS))
def test_the_msvc_branch_compiles_for_windows(tmp_path, arch):
    if shutil.which("clang") is None:
        pytest.skip("clang is not installed (on Debian: apt-get install clang)")
    stubs = tmp_path / "sdk"
    stubs.mkdir()
    for name, text in SDK_STUBS.items():
        (stubs / name).write_text(text)
    source = tmp_path / "msvc.c"
    source.write_text(MSVC_DRIVER.format(blocks=_verbatim_c()))
    target = WINDOWS[arch]
    built = subprocess.run(
        ["clang", f"--target={target}", "-O2", "-Wall", "-isystem", str(stubs)]
        + ["-c", str(source), "-o", str(tmp_path / "msvc.obj")],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert "warning" not in built.stderr, built.stderr[-3000:]
    assert b"msvc\0" in (tmp_path / "msvc.obj").read_bytes()  # BUILT_BY
