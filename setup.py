"""Build hook: ``BURRACO_COMPILE=1`` compiles the rules engine (and the environment's hot
path) with mypyc: the modules listed in ``scripts/compiled-modules.txt``.

Everything else is declared in pyproject.toml.  Without the variable the package is the pure
Python one (what ``pip install`` and ``pip install -e`` give); with it, the wheel also holds the
engine's modules as C extensions, which Python imports in place of the sources beside them.
The build needs mypy (pinned in the ``dev`` extra), so build without isolation from a venv
that has it: ``scripts/build-compiled``.
"""

import os
from pathlib import Path

from setuptools import setup

ext_modules = []
if os.environ.get("BURRACO_COMPILE") == "1":
    from mypyc.build import mypycify

    listed = Path(__file__).parent / "scripts" / "compiled-modules.txt"
    modules = [line.strip() for line in listed.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    ext_modules = mypycify([f"src/{m}" for m in modules], opt_level="3")

setup(ext_modules=ext_modules)
