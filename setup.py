"""Build hook: a wheel compiles the engine's hot modules and the solver with mypyc.

``pip install .`` builds them where a C compiler and the Python headers are present, and falls
back to pure Python, with a one-line notice, where they are not (the package is the same either
way; compiled, the bots think about three times as fast). An editable install (``pip install
-e .``) stays pure Python, so that an edit to the source takes effect at once.
``THOUSAND_COMPILE=1`` insists on compiling (no compiler is an error), ``THOUSAND_COMPILE=0``
never compiles.
"""

import os
import sys
import sysconfig
import tempfile

from setuptools import setup

COMPILED = [
    "src/thousand/cards.py",
    "src/thousand/engine/actions.py",
    "src/thousand/engine/auction.py",
    "src/thousand/engine/choose_talon.py",
    "src/thousand/engine/contra.py",
    "src/thousand/engine/deal.py",
    "src/thousand/engine/dealing.py",
    "src/thousand/engine/flags.py",
    "src/thousand/engine/handover.py",
    "src/thousand/engine/redeal.py",
    "src/thousand/engine/scoring.py",
    "src/thousand/engine/state.py",
    "src/thousand/engine/talon.py",
    "src/thousand/engine/tricks.py",
    "src/thousand/bots/solver.py",
]

NOTICE = (
    "thousand: {why}; installing the pure-Python engine (the same game, slower bots: see the "
    "README's Performance section)"
)


def notice(why: str) -> None:
    print(NOTICE.format(why=why), file=sys.stderr)


def compiler_works() -> bool:
    """Whether a C compiler here builds a Python extension's source (the headers included)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    cc = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.c")
        with open(source, "w") as f:
            f.write("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            cc.compile([source], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception:
            return False
    return True


def extensions() -> list[object]:
    choice = os.environ.get("THOUSAND_COMPILE", "auto")
    if choice == "0":
        return []
    if choice != "1" and "bdist_wheel" not in sys.argv:
        return []  # an editable install, or only the metadata: pure Python
    if choice != "1" and not compiler_works():
        notice("no working C compiler (or no Python headers) was found")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if choice == "1":
            raise
        notice("mypyc is not in the build environment")
        return []
    return list(mypycify(COMPILED, opt_level="3"))


setup(ext_modules=extensions())
