"""What every bot is: a name and a ``choose`` that maps a view to one of its legal actions."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

from ..engine.views import SeatView

MOVE_TIME = 1.0
"""The seconds a bot may think about one move where people play: the server's ``bot_time``
and ``thousand play`` give it as :attr:`Limit.time_s` (the arena and the benchmarks give none,
so that a seed fixes every choice)."""


@dataclass(frozen=True, slots=True)
class Limit:
    """How much a bot may think: wall-clock seconds, iterations, and the seed of its randomness.

    Any of them may be None (no limit, or the bot's own seed); a bot honours what applies to it.
    """

    time_s: float | None = None
    iterations: int | None = None
    seed: int | None = None


class Bot(Protocol):
    """A player. It receives only what its seat may see (a view), so it cannot cheat."""

    name: str

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        """One of ``view.legal_actions``."""
        ...


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from a base seed and labels (a seat, ...): stable across runs and
    platforms, and unrelated for different labels."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def count_in_name(name: str, prefix: str) -> int | None:
    """N for a bot named ``prefix`` followed by N (N a positive integer, as in ``ismcts-1000``);
    None for any other name."""
    if not name.startswith(prefix):
        return None
    digits = name[len(prefix) :]
    if not digits.isdigit() or int(digits) < 1:
        return None
    return int(digits)
