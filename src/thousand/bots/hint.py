"""A hint: the expert bot's move for a seat's view, and why (:class:`~.pimc.Why`).

The bot is given the seat's view alone, as every bot is, so a hint knows no card the seat
cannot see. The server asks for one in a worker process (``POST /tables/{id}/hint``).
"""

from __future__ import annotations

from ..engine.views import SeatView
from .base import Limit
from .pimc import Why, make_expert


def expert_hint(view: SeatView, seed: int, time_s: float | None) -> tuple[int, Why]:
    """The expert's action for ``view`` (its randomness seeded by ``seed``, thinking at most
    ``time_s`` seconds) and why it chose it."""
    bot = make_expert(seed)
    action = bot.choose(view, Limit(time_s, seed=seed))
    return action, bot.why
