"""Build hook: ``THOUSAND_COMPILE=1`` compiles the engine's hot modules with mypyc.

The default install is pure Python and needs nothing but Python 3.11. The compiled build needs a
C compiler and mypy in the build environment:
``pip install mypy==2.4.1 setuptools && THOUSAND_COMPILE=1 pip install --no-build-isolation .``
"""

import os

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

ext_modules = []
if os.environ.get("THOUSAND_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
