"""The one-line notice that an install fell back to the pure-Python engine."""

from __future__ import annotations

import sys

from ..build import compiled, installed

__all__ = ["NOTICE", "compiled", "installed", "warn_if_slow"]

NOTICE = (
    "thousand: this install runs the pure-Python engine (no C compiler was found when it was "
    "installed): the bots think about three times as slowly; see the README's Performance "
    "section"
)


def warn_if_slow() -> None:
    """Say once, on stderr, that a wheel fell back to pure Python (an editable checkout is pure
    Python on purpose, and is not told)."""
    if installed() and not compiled():
        print(NOTICE, file=sys.stderr)
