"""The random bot: a uniform choice among the legal actions, from its own seeded generator."""

from __future__ import annotations

import random

from ..engine.views import SeatView
from .base import Limit


class RandomBot:
    """Picks uniformly among ``view.legal_actions``. The same seed and the same views give the
    same choices. A ``limit`` with a seed decides this one choice from that seed alone (the
    bot's own generator is left as it was); time and iterations do not concern it."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        actions = view.legal_actions
        if not actions:
            raise ValueError("this seat has no legal action: it is not its turn")
        rng = self._rng if limit is None or limit.seed is None else random.Random(limit.seed)
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
