"""The rules engine: deals, actions, scoring, matches and views. Pure: no I/O, no clock."""

from ..rules.layout import Layout
from .actions import MoveSyntaxError, action_text, parse_action
from .deal import Deal, Phase
from .dealing import Dealt
from .errors import IllegalAction
from .game import DealLog, Game
from .match import DealReport, Event, MatchState, settle
from .scoring import DealOutcome, round_points
from .state import DealState

__all__ = [
    "Deal",
    "DealLog",
    "DealOutcome",
    "DealReport",
    "DealState",
    "Dealt",
    "Event",
    "Game",
    "IllegalAction",
    "Layout",
    "MatchState",
    "MoveSyntaxError",
    "Phase",
    "action_text",
    "parse_action",
    "round_points",
    "settle",
]
