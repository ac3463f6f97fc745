"""Which engine this install runs: compiled with mypyc, or pure Python (README, Performance)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..bots import solver
from ..engine import deal

NOTICE = (
    "thousand: this install runs the pure-Python engine (no C compiler was found when it was "
    "installed): the bots think about three times as slowly; see the README's Performance "
    "section"
)


def compiled() -> bool:
    """Whether the engine and the solver run compiled (mypyc)."""
    return not any(Path(m.__file__ or "").suffix == ".py" for m in (deal, solver))


def installed() -> bool:
    """Whether the package runs from an install (site-packages), not from a source checkout."""
    return "site-packages" in Path(deal.__file__ or "").parts


def warn_if_slow() -> None:
    """Say once, on stderr, that a wheel fell back to pure Python (an editable checkout is pure
    Python on purpose, and is not told)."""
    if installed() and not compiled():
        print(NOTICE, file=sys.stderr)
