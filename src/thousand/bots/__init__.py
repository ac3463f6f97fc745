"""Bots: players that see only a :class:`~thousand.engine.views.SeatView`, never the state."""

from .base import Bot, Limit, derive_seed
from .levels import LEVELS, available_levels, make_bot
from .random_bot import RandomBot

__all__ = [
    "LEVELS",
    "Bot",
    "Limit",
    "RandomBot",
    "available_levels",
    "derive_seed",
    "make_bot",
]
