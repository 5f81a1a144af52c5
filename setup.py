"""Build hooks: every install compiles the message catalogs (``.po`` → ``.mo``, beside them in
the built package; an editable install compiles them in memory on first use instead). And
``BURRACO_COMPILE=1`` compiles the rules engine (and the environment's hot
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
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """The package as usual, and each language's ``burraco.mo`` from its ``burraco.po``."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        built = Path(self.build_lib) / "burraco" / "locale"
        for po in sorted(built.glob("*/LC_MESSAGES/burraco.po")):
            with po.open("rb") as source:
                catalog = read_po(source, abort_invalid=True)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)


ext_modules = []
if os.environ.get("BURRACO_COMPILE") == "1":
    from mypyc.build import mypycify

    listed = Path(__file__).parent / "scripts" / "compiled-modules.txt"
    modules = [line.strip() for line in listed.read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    ext_modules = mypycify([f"src/{m}" for m in modules], opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildWithCatalogs})
