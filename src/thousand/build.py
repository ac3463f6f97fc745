"""Which engine this install runs: compiled with mypyc, or pure Python (README, Performance)."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

#: the modules that a compiled install runs compiled (a sample: the build compiles them together)
_COMPILED = ("thousand.engine.deal", "thousand.bots.solver")


def _origin(module: str) -> Path:
    spec = find_spec(module)
    return Path(spec.origin if spec is not None and spec.origin is not None else "")


def compiled() -> bool:
    """Whether the engine and the solver run compiled (mypyc)."""
    return not any(_origin(m).suffix == ".py" for m in _COMPILED)


def installed() -> bool:
    """Whether the package runs from an install (site-packages), not from a source checkout."""
    return "site-packages" in _origin(_COMPILED[0]).parts
