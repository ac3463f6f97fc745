"""The levels a table offers for a bot seat, and the bot that plays each."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .base import Bot, count_in_name
from .heuristic import HeuristicBot
from .ismcts_bot import make_ismcts, simulations_of
from .pimc import AUCTION_SLACK, RaiseValue, SlackOn, make_expert, make_hard
from .random_bot import RandomBot

LEVELS = ("easy", "medium", "hard", "expert")
"""The bot levels, weakest first, as the command line, the server and the arena name them."""

_MAKERS: dict[str, Callable[[int | None], Bot]] = {
    "easy": RandomBot,
    "medium": HeuristicBot,
    "hard": make_hard,
    "expert": make_expert,
}

VARIANTS: dict[str, Callable[[int | None], Bot]] = {
    "expert-no-inference": partial(make_expert, infer=False),
    "expert-no-tiebreak": partial(make_expert, tiebreak=0),
    "expert-no-policy": partial(make_expert, policy=False),
    "expert-12-samples": partial(make_expert, samples=12),
    "expert-by-share": partial(make_expert, by_points=False),
    "expert-by-points-35": partial(make_expert, defender_points=35),
    "expert-by-points-10": partial(make_expert, defender_points=10),
    "expert-defender-by-fate": partial(make_expert, defender_points=27, defender_points_failed=41),
    "expert-no-own-points": partial(make_expert, own_points=False),
    "expert-raise-own": partial(make_expert, raise_value=RaiseValue.OWN),
    "expert-raise-all": partial(make_expert, raise_value=RaiseValue.ALL),
    "expert-before-own-points": partial(make_expert, by_points=False, own_points=False),
    # the expert itself since 2026-12-05, kept for the commands of the README that name it
    "expert-no-slack": partial(make_expert, auction_slack=0),
    "expert-slack-15": partial(make_expert, auction_slack=15),
    "expert-slack-every-bid": partial(make_expert, auction_slack=AUCTION_SLACK),
    "expert-slack-opening": partial(
        make_expert, auction_slack=AUCTION_SLACK, slack_on=SlackOn.OPENING
    ),
    "expert-contract-slack-10": partial(make_expert, contract_slack=10),
    "expert-policy-by-role": partial(make_expert, policy_match=(0.7, 0.85)),
    "expert-fate-first": partial(make_expert, defend_by_points=False),
    "expert-64-samples": partial(make_expert, samples=64),
    "expert-policy-draws-4": partial(make_expert, policy_draws=4),
    "expert-auction-policy": partial(make_expert, auction_policy=True),
    "expert-give-policy": partial(make_expert, give_policy=True),
    "expert-defender-marriages": partial(make_expert, defender_marriages=0.5),
    "expert-pass-by-share": partial(make_expert, pass_by_stake=False),
    "expert-marriage-gift-50": partial(make_expert, marriage_gift=0.5),
    # three parts measured one at a time with intervals holding zero, together
    "expert-three-parts": partial(
        make_expert, marriage_gift=0.5, policy_match=(0.95, 0.95), node_budget=4_000_000
    ),
    "expert-tiebreak-32": partial(make_expert, tiebreak=32),
    "expert-exact-below-16": partial(make_expert, exact_below=16),
    "expert-contract-inference": partial(make_expert, contract_inference=True),
    "expert-policy-match-95": partial(make_expert, policy_match=(0.95, 0.95)),
    # the expert itself since 2026-12-07, kept for the commands of the README that name it
    "expert-pass-by-stake": partial(make_expert, pass_by_stake=True),
    # the expert itself since 2026-12-07 (late), kept for the commands of the README that name it
    "expert-defend-by-points": partial(make_expert, defend_by_points=True),
}
"""The expert with one part switched off, or one on that it lacks, for the arena's ablation
(never a table's level)."""

NODES_PREFIX = "expert-nodes-"
"""The arena's name of the expert with another node budget: ``expert-nodes-N`` stops its solver
at N nodes a decision in either build (for measuring what a budget costs; never a table's
level)."""


def node_budget_of(name: str) -> int | None:
    """N for a bot named ``expert-nodes-N`` (N a positive integer); None for any other name."""
    return count_in_name(name, NODES_PREFIX)


ALIASES = {"random": "easy", "heuristic": "medium", "pimc": "hard", "pimc-expert": "expert"}
"""Bot names that the arena and the command line accept beside the levels."""


def available_levels() -> tuple[str, ...]:
    """The levels that have a bot today, weakest first."""
    return tuple(level for level in LEVELS if level in _MAKERS)


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A fresh bot of ``level``, its randomness seeded by ``seed``; ``ismcts-N`` is OpenSpiel's
    ISMCTS with N simulations a move (where OpenSpiel is installed)."""
    if simulations_of(level) is not None:
        return make_ismcts(level, seed)
    budget = node_budget_of(level)
    if budget is not None:
        return make_expert(seed, node_budget=budget)
    maker = _MAKERS.get(ALIASES.get(level, level)) or VARIANTS.get(level)
    if maker is None:
        known = ", ".join(available_levels())
        raise ValueError(f"unknown bot level '{level}': the levels are {known}")
    return maker(seed)
