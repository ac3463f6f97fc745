"""Bots: players that see only a :class:`~thousand.engine.views.SeatView`, never the state."""

from .base import Bot, Limit, derive_seed
from .random_bot import RandomBot

__all__ = ["Bot", "Limit", "RandomBot", "derive_seed"]
