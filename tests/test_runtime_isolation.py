"""The runtime imports only the standard library."""

from __future__ import annotations

import subprocess
import sys


def test_runtime_imports_no_compiler_dependencies():
    code = (
        "import sys, policyc.runtime\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in {'lark', 'networkx', 'jinja2'})\n"
        "ours = sorted(m for m in sys.modules if m.startswith('policyc.') and not m.startswith('policyc.runtime'))\n"
        "print(heavy, ours)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[] []"


def test_runtime_modules_import_only_the_standard_library():
    """Every import in policyc/runtime names a stdlib module or the runtime itself."""
    import ast
    from pathlib import Path

    import policyc.runtime

    root = Path(policyc.runtime.__file__).parent
    # `_sha2` is Python 3.12's name for the built-in SHA-256, `_sha256` 3.11's:
    # the runtime tries both, then hashlib, and each Python lists only its own.
    stdlib = sys.stdlib_module_names | {"_sha2", "_sha256"}
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: must stay inside the runtime package
                    assert node.level == 1, f"{path.name} reaches outside the runtime"
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or top == "__future__", f"{path.name} imports {name}"


def test_the_compiled_walks_import_nothing():
    """`_walks.pyx` (built into the runtime where a C compiler is at hand) imports
    no module at run time: what it calls back, fast.py hands it."""
    import re
    from pathlib import Path

    import policyc.runtime

    source = Path(policyc.runtime.__file__).parent / "_walks.pyx"
    if not source.is_file():  # an installed wheel carries the build, not its source
        source = Path(__file__).resolve().parent.parent / "src/policyc/runtime/_walks.pyx"
    text = source.read_text()
    assert "def glob_walker" in text
    assert re.findall(r"^\s*(?:import|from)\s+\S+", text, re.M) == []
