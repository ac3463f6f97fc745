"""Thousand as an OpenSpiel game (``pyspiel``'s Python game API), so that OpenSpiel's own
algorithms (ISMCTS, CFR, ...) run on this engine. Needs the ``open_spiel`` package.

One OpenSpiel game is one deal of a template (``python_thousand(template=russian)``): chance deals
the 24 cards one at a time (uniformly: no bottom-card guard), the dealer is seat 0, the players
then make the engine's own actions (the ints of :mod:`thousand.engine.actions`), and the returns
are each seat's deal change (rules.md 1.7, before the match's penalties). Information states are
the seats' views (:mod:`thousand.engine.views`), so nothing hidden leaks into them.

:func:`resampler` gives ISMCTS deals consistent with a seat's view, drawn from that view
alone: the true hidden cards never reach the bot. It asks :class:`thousand.bots.sampler.Sampler`
first (:data:`SAMPLER_DRAWS` times, as it may fail where a world exists, and always fails
before the play where the talon is handed over without being taken); then it shuffles the
cards this seat cannot see among the places it cannot see, replays the deal's moves on them
(the cards in moves it cannot see shuffled alike) and keeps the first shuffle whose replay is
legal and shows this seat exactly its view (:func:`shuffled_world`, at most
:data:`SHUFFLE_TRIES` shuffles). Where both fail it raises :class:`NoWorldFound`: it never hands
over the true state.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from .bots.sampler import Sampler
from .cards import CARD_TEXT, DECK_SIZE, card_list
from .engine.actions import (
    CRAWL,
    DECLARE,
    DISCARD,
    MAX_ACTION,
    action_text,
    give,
    give_parts,
    is_crawl,
    is_discard,
    is_give,
    is_play,
)
from .engine.deal import Deal
from .engine.dealing import Dealt, dealt_from_deck
from .engine.scoring import score
from .engine.state import DealState
from .engine.views import SeatView, view
from .rules import Rules, template_rules
from .rules.layout import ASIDE, STOCK, TALON, Layout

SHORT_NAME = "python_thousand"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Thousand (one deal)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"template": "russian"},
)


def _info(rules: Rules) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=MAX_ACTION + 1,
        max_chance_outcomes=DECK_SIZE,
        num_players=rules.players_count,
        min_utility=-float(rules.bidding_max + 240),
        max_utility=float(rules.bidding_max + 240),
        utility_sum=None,
        max_game_length=DECK_SIZE + 200,
    )


class ThousandGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of Thousand under a template."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.template = str(params.get("template", "russian"))
        self.rules = template_rules(self.template)
        super().__init__(_GAME_TYPE, _info(self.rules), params)

    def new_initial_state(self) -> ThousandState:
        return ThousandState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ThousandObserver:
        return ThousandObserver(self.rules)


class ThousandState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt (chance) or played (the engine's :class:`Deal`)."""

    def __init__(self, game: ThousandGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        #: the seat that deals (0 in a game OpenSpiel starts; a bot's state may name another)
        self.dealer = 0
        #: the deck in the order chance dealt it, top first
        self.dealt: list[int] = []
        self.deal: Deal | None = None
        #: the players' actions since the deal was dealt
        self.moves: list[int] = []

    # -- whose turn, and what may be done ------------------------------------------------------

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.to_act < 0:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.deal.to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        return sorted(self.deal.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(DECK_SIZE) if c not in self.dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self.dealt.append(int(action))
            if len(self.dealt) == DECK_SIZE:
                self.deal = _deal_from_order(self.rules, self.dealt, self.dealer)
        else:
            self.deal.apply(int(action))
            self.moves.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_TEXT[action]}"
        return action_text(int(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.to_act < 0

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.rules.players_count
        assert self.deal is not None
        return [float(x) for x in score(self.deal).scores]

    def seat_view_json(self, player: int) -> str:
        """A seat's view as canonical JSON (its information state)."""
        if self.deal is None:
            mine = [
                c for i, c in enumerate(self.dealt) if _owner(self.rules, i, self.dealer) == player
            ]
            return json.dumps({"dealing": len(self.dealt), "mine": sorted(mine)})
        seen = view(DealState(self.deal), player)
        return json.dumps(seen.to_json(rules=False), sort_keys=True)

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.dealt)} cards out"
        return json.dumps(view(DealState(self.deal), None).to_json(rules=False), sort_keys=True)


def _owner(rules: Rules, index: int, dealer: int = 0) -> int:
    """Who gets the ``index``-th card dealt by ``dealer``, as the layout deals: a seat, or a
    negative number for a talon, the stock or the cards set aside."""
    return Layout.of(rules).places(dealer)[index]


def _deal_from_order(rules: Rules, order: list[int], dealer: int = 0) -> Deal:
    return Deal.from_dealt(rules, dealer, dealt_from_deck(Layout.of(rules), order, dealer))


class ThousandObserver:
    """The PyObserver of OpenSpiel: a seat's view as a string, and a small tensor (its hand,
    the cards played, the talon if shown)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tensor = np.zeros(3 * DECK_SIZE, np.float32)
        self.dict = {
            "hand": self.tensor[:DECK_SIZE],
            "played": self.tensor[DECK_SIZE : 2 * DECK_SIZE],
            "talon": self.tensor[2 * DECK_SIZE :],
        }

    def set_from(self, state: ThousandState, player: int) -> None:
        self.tensor.fill(0)
        if state.deal is None:
            for i, c in enumerate(state.dealt):
                if _owner(self.rules, i, state.dealer) == player:
                    self.tensor[c] = 1
            return
        seen = view(DealState(state.deal), player)
        for c in range(DECK_SIZE):
            self.tensor[c] = (seen.hand or 0) >> c & 1
            self.tensor[DECK_SIZE + c] = seen.played >> c & 1
            self.tensor[2 * DECK_SIZE + c] = (seen.talon or 0) >> c & 1

    def string_from(self, state: ThousandState, player: int) -> str:
        return state.seat_view_json(player)


#: how many times :func:`resampler` asks the sampler for a world (40 attempts each)
SAMPLER_DRAWS = 3
#: how many shuffles :func:`shuffled_world` tries
SHUFFLE_TRIES = 2000


class NoWorldFound(RuntimeError):
    """No deal consistent with a seat's view was found (the true one is never handed over)."""


def resampler(seed: int = 0) -> Any:
    """A callback for ISMCTS (``bot.set_resampler``): a state whose deal is drawn consistent with
    the current player's view, at the same moment, from that view alone (see the module's
    notes)."""
    rng = random.Random(seed)

    def resample(state: ThousandState, player: int) -> ThousandState:
        if state.deal is None:
            return _dealing_world(state, player, rng)
        seen = view(DealState(state.deal), player)
        want = state.seat_view_json(player)
        for _ in range(SAMPLER_DRAWS):
            d = Sampler(seen, rng).draw()
            order = None if d is None else deck_order(state.rules, d.cards_dealt, state.dealer)
            if d is not None and order is not None:
                fresh = ThousandState(state.get_game())
                fresh.dealer = state.dealer
                fresh.dealt = order
                fresh.deal = d
                # (the sampler's moves are not kept: ISMCTS resamples the real state only)
                if fresh.seat_view_json(player) == want:
                    return fresh
        found = shuffled_world(state, player, rng, SHUFFLE_TRIES)
        if found is None:
            raise NoWorldFound(
                f"no deal consistent with seat {player}'s view was found"
                f" ({SAMPLER_DRAWS} sampler draws, {SHUFFLE_TRIES} shuffles)"
            )
        return found

    return resample


def _visible(seen: SeatView) -> int:
    """The cards ``seen`` shows (a mask): where they lie is known to the seat."""
    mask = (seen.hand or 0) | (seen.dealt or 0) | seen.played | (seen.talon or 0)
    mask |= (seen.discarded or 0) | (seen.open_hand or 0)
    for c in (seen.received, seen.shown, seen.stock_face_up, *(seen.passed or ())):
        if c is not None:
            mask |= 1 << c
    return mask


def _relabelled(action: int, to: list[int]) -> int:
    """``action`` with its card ``c`` (if any) replaced by ``to[c]``."""
    if is_play(action):
        base = DECLARE if action >= DECLARE else 0
        return base + to[action - base]
    if is_give(action):
        c, seat = give_parts(action)
        return give(to[c], seat)
    if is_crawl(action):
        return CRAWL + to[action - CRAWL]
    if is_discard(action):
        return DISCARD + to[action - DISCARD]
    return action


def shuffled_world(
    state: ThousandState, player: int, rng: random.Random, tries: int = SHUFFLE_TRIES
) -> ThousandState | None:
    """A state of a deal drawn at random among those that ``player`` cannot tell from
    ``state``: the cards it cannot see are shuffled among the places it cannot see (the cards of
    the moves shuffled alike), and a shuffle counts only when the deal, replayed through the
    engine, is legal and shows ``player`` exactly its view. Each such deal is as likely as any
    other, whatever the true one; None after ``tries`` shuffles that do not count."""
    assert state.deal is not None
    rules = state.rules
    seen = view(DealState(state.deal), player)
    want = state.seat_view_json(player)
    hidden = card_list(((1 << DECK_SIZE) - 1) & ~_visible(seen))
    for _ in range(tries):
        drawn = hidden[:]
        rng.shuffle(drawn)
        to = list(range(DECK_SIZE))
        for c, d in zip(hidden, drawn, strict=True):
            to[c] = d
        fresh = ThousandState(state.get_game())
        fresh.dealer = state.dealer
        fresh.dealt = [to[c] for c in state.dealt]
        fresh.deal = _deal_from_order(rules, fresh.dealt, state.dealer)
        for action in state.moves:
            moved = _relabelled(action, to)
            if moved not in fresh.deal.legal_actions():
                break
            fresh.deal.apply(moved)
            fresh.moves.append(moved)
        else:
            if fresh.seat_view_json(player) == want:
                return fresh
    return None


def _dealing_world(state: ThousandState, player: int, rng: random.Random) -> ThousandState:
    """While chance deals: the cards dealt so far to places other than ``player`` shuffled
    among the cards not yet dealt to it."""
    fresh = ThousandState(state.get_game())
    fresh.dealer = state.dealer
    mine = {i for i in range(len(state.dealt)) if _owner(state.rules, i, state.dealer) == player}
    others = [c for c in range(DECK_SIZE) if c not in {state.dealt[i] for i in mine}]
    rng.shuffle(others)
    fresh.dealt = [state.dealt[i] if i in mine else others.pop() for i in range(len(state.dealt))]
    return fresh


def deck_order(rules: Rules, dealt: Dealt, dealer: int = 0) -> list[int] | None:
    """A deck, top first, that the layout deals as ``dealt`` with ``dealer`` dealing: each place's
    cards in order of rank and suit, the stock in its order, the shown card first; None where
    the layout deals no such deck."""
    layout = Layout.of(rules)
    cards: dict[int, list[int]] = {p: card_list(m) for p, m in enumerate(dealt.hands)}
    for i, m in enumerate(dealt.talons):
        cards[TALON - i] = card_list(m)
    cards[STOCK] = list(dealt.stock)
    cards[ASIDE] = card_list(dealt.aside)
    order: list[int] = []
    for start, end, place in layout.blocks(dealer):
        block = cards.get(place, [])  # (a place this deal has not: no such deck)
        if start == 0 and dealt.shown >= 0 and dealt.shown in block:
            block.remove(dealt.shown)
            block.insert(0, dealt.shown)
        order += block[: end - start]
        del block[: end - start]
    if len(order) != DECK_SIZE or dealt_from_deck(layout, order, dealer) != dealt:
        return None
    return order


_registered = False


def register() -> None:
    """Register ``python_thousand`` with OpenSpiel (once)."""
    global _registered
    if not _registered:
        pyspiel.register_game(_GAME_TYPE, ThousandGame)
        _registered = True


register()
