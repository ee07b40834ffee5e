"""Builds the optional compiled walks (src/policyc/runtime/_walks.pyx).

Everything else is declared in pyproject.toml. The extension is optional: a
machine without a C compiler (or a build without Cython) installs policyc
with its pure-Python walks, which give the same answers (see
policyc/runtime/fast.py).
"""

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # built without isolation and without Cython: the pure walks
    extensions = []
else:
    walks = Extension("policyc.runtime._walks", ["src/policyc/runtime/_walks.pyx"])
    extensions = cythonize([walks], quiet=True)
    for extension in extensions:
        # Set here, not above: cythonize drops the flag from the extensions it returns.
        extension.optional = True
setup(ext_modules=extensions)
