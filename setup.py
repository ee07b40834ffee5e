"""Builds the optional compiled walks (src/policyc/runtime/_walks.pyx).

Everything else is declared in pyproject.toml. The extension is optional: a
machine without a C compiler installs policyc with its pure-Python walks,
which give the same answers (see policyc/runtime/fast.py).
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

walks = Extension("policyc.runtime._walks", ["src/policyc/runtime/_walks.pyx"], optional=True)
setup(ext_modules=cythonize([walks], quiet=True))
