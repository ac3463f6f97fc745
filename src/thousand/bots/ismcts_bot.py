"""OpenSpiel's ISMCTS (the Python one, ``open_spiel.python.algorithms.ismcts``) as a bot of this
project: a yardstick from outside it. Needs the ``open_spiel`` package (the ``test`` and
``bench`` extras); it is imported only when such a bot moves.

The bot sees only its seat's view. From it, it draws one deal consistent with the view
(:class:`.sampler.Sampler`, replayed through the engine to the view's moment; in the auction,
where the sampler may fail, the hidden cards shuffled until the replayed auction shows the view),
as a state of the OpenSpiel game ``python_thousand`` (:mod:`thousand.openspiel`) dealt by the
view's dealer, and hands it to ISMCTS with :func:`thousand.openspiel.resampler`, which draws a
fresh world for every simulation from the view alone. The action ISMCTS picks is an engine action.
Random rollouts evaluate the leaves; the returns are points (a deal's change), so the UCT
constant is in points (:data:`UCT_C`).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from ..cards import DECK_SIZE, card_list
from ..engine.views import SeatView
from ..rules import TEMPLATES, Rules, template_rules
from ..rules.layout import Layout
from .base import Limit, count_in_name, derive_seed
from .pimc import pimc_layout, rebuilt_layout
from .sampler import Sampler, history

PREFIX = "ismcts-"
"""The arena's name of the bot: ``ismcts-N`` runs N simulations a move."""

UCT_C = 100.0
"""The exploration constant of UCT, in points (about the size of one deal's change)."""

SHUFFLES = 2000
"""How many shuffles :func:`state_from_view` tries in the auction where the sampler fails."""


class OpenSpielMissing(ValueError):
    """OpenSpiel is not installed."""


def simulations_of(name: str) -> int | None:
    """N for a bot named ``ismcts-N`` (N a positive integer); None for any other name."""
    return count_in_name(name, PREFIX)


def plays(rules: Rules) -> bool:
    """Whether the bot plays this table's deals: where a world is drawn from the view at every
    moment. The layouts the sampler rebuilds by their own procedure
    (:func:`~thousand.bots.pimc.rebuilt_layout`: polish-2card, soviet-book, tysiac-2p,
    two-player-a, two-player-b) are left out: :func:`thousand.openspiel.resampler` found no
    world at some moment of each when the bot was added, and has not been tried there since."""
    return pimc_layout(rules) and not rebuilt_layout(rules)


def require_openspiel() -> None:
    """Raise :class:`OpenSpielMissing`, in one sentence, where OpenSpiel cannot be imported."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import ismcts  # noqa: F401
    except ImportError:
        raise OpenSpielMissing(
            "the ismcts bots need OpenSpiel: install the package open_spiel"
            " (pip install 'thousand[bench]')"
        ) from None


_GAMES: dict[str, Any] = {}


def _game_for(rules: Rules) -> Any:
    """The OpenSpiel game ``python_thousand`` of the template whose rules these are."""
    from .. import openspiel as tos

    for template in TEMPLATES:
        if template_rules(template) == rules:
            if template not in _GAMES:
                _GAMES[template] = tos.ThousandGame({"template": template})
            return _GAMES[template]
    raise ValueError("the ismcts bots play the templates' rules only, not custom ones")


def _reference(seen: SeatView) -> str:
    """The view as the OpenSpiel game's information state writes it (no match counters)."""
    bare = replace(seen, match=None, writeoff_changes=None)
    return json.dumps(bare.to_json(rules=False), sort_keys=True)


def state_from_view(game: Any, seen: SeatView, rng: random.Random) -> Any:
    """A state of ``game`` (a :class:`thousand.openspiel.ThousandState`) whose deal is drawn
    consistent with ``seen`` and which shows its seat exactly ``seen``; it carries the deck
    order and the moves, so that :func:`thousand.openspiel.resampler` can draw from it.
    Raises :class:`thousand.openspiel.NoWorldFound` where none is found."""
    from .. import openspiel as tos

    assert seen.seat is not None
    me = seen.seat
    rules = seen.rules
    want = _reference(seen)
    for _ in range(tos.SAMPLER_DRAWS):
        d = Sampler(seen, rng).draw()
        if d is None:
            continue
        order = tos.deck_order(rules, d.cards_dealt, seen.dealer)
        if order is None:
            continue
        for discard in {0, d.discarded}:
            found = _replayed(game, seen.dealer, order, history(seen, d.given, discard), me, want)
            if found is not None:
                return found
    if seen.declarer is None:
        found = _auction_world(game, seen, rng, want)
        if found is not None:
            return found
    raise tos.NoWorldFound(f"no deal consistent with seat {me}'s view was found")


def _replayed(
    game: Any, dealer: int, order: list[int], moves: list[int], me: int, want: str
) -> Any | None:
    """The state dealt as ``order`` by ``dealer`` after ``moves``, if they are legal and it shows
    seat ``me`` the view ``want``; else None."""
    from .. import openspiel as tos

    state = tos.ThousandState(game)
    state.dealer = dealer
    state.dealt = list(order)
    state.deal = tos._deal_from_order(game.rules, state.dealt, dealer)
    for action in moves:
        if action not in state.deal.legal_actions():
            return None
        state.deal.apply(action)
        state.moves.append(action)
    return state if state.seat_view_json(me) == want else None


def _auction_world(game: Any, seen: SeatView, rng: random.Random, want: str) -> Any | None:
    """In the auction: the seat's own cards in its places of the deck, the others shuffled in
    the rest, kept when the replayed auction shows the view (at most :data:`SHUFFLES` tries)."""
    assert seen.seat is not None
    places = Layout.of(seen.rules).places(seen.dealer)
    mine = card_list(seen.dealt if seen.dealt is not None else seen.hand or 0)
    others = card_list(((1 << DECK_SIZE) - 1) & ~sum(1 << c for c in mine))
    moves = list(seen.auction_actions())
    for _ in range(SHUFFLES):
        rng.shuffle(mine)
        rng.shuffle(others)
        a, b = iter(mine), iter(others)
        order = [next(a) if p == seen.seat else next(b) for p in places]
        found = _replayed(game, seen.dealer, order, moves, seen.seat, want)
        if found is not None:
            return found
    return None


class IsmctsBot:
    """OpenSpiel's ISMCTS with ``simulations`` simulations a move, seeded: the same seed and the
    same view give the same move."""

    def __init__(self, simulations: int, seed: int | None = None, uct_c: float = UCT_C) -> None:
        require_openspiel()
        self.name = f"{PREFIX}{simulations}"
        self.simulations = simulations
        self.seed = 0 if seed is None else seed
        self.uct_c = uct_c

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from .. import openspiel as tos

        base = self.seed if limit is None or limit.seed is None else limit.seed
        seed = derive_seed(base, _reference(view))
        rng = random.Random(seed)
        game = _game_for(view.rules)
        state = state_from_view(game, view, rng)
        np_rng = np.random.RandomState(seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(1, np_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations, random_state=np_rng)
        bot.set_resampler(tos.resampler(rng.getrandbits(32)))
        action = int(bot.step(state))
        if action not in legal:
            raise RuntimeError(f"ISMCTS chose {action}, which is not legal here")
        return action


def make_ismcts(name: str, seed: int | None = None) -> IsmctsBot:
    """The bot ``ismcts-N``."""
    n = simulations_of(name)
    if n is None:
        raise ValueError(f"unknown bot {name!r}: an ismcts bot is named ismcts-N, N simulations")
    return IsmctsBot(n, seed)
