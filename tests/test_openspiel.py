"""Thousand as an OpenSpiel game, with OpenSpiel's own ISMCTS playing it."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import thousand.openspiel as tos
from thousand.engine.actions import WRITE_OFF
from thousand.engine.dealing import dealt_from_deck
from thousand.rules import TEMPLATES, template_rules
from thousand.rules.layout import Layout


def dealt_state(game: pyspiel.Game, rng: np.random.RandomState) -> pyspiel.State:
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def test_the_game_loads_with_its_parameters() -> None:
    game = pyspiel.load_game("python_thousand(template=tysiac)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 3000
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 24
    state = dealt_state(game, np.random.RandomState(0))
    assert state.current_player() == 1  # forehand, the dealer being seat 0
    assert state.legal_actions() == sorted(state.legal_actions())


def test_information_states_hide_other_hands() -> None:
    game = pyspiel.load_game("python_thousand")
    state = dealt_state(game, np.random.RandomState(3))
    assert isinstance(state, tos.ThousandState) and state.deal is not None
    for seat in range(3):
        text = state.information_state_string(seat)
        for other in range(3):
            if other != seat:
                # No card of another hand appears as this seat's hand.
                assert f'"hand": {_hand(state, other)}' not in text
        assert f'"hand": {_hand(state, seat)}' in text


def _hand(state: tos.ThousandState, seat: int) -> str:
    from thousand.cards import hand_text

    assert state.deal is not None
    return str(hand_text(state.deal.hands[seat]).split(" ")).replace("'", '"')


def test_ismcts_plays_a_whole_deal() -> None:
    game = pyspiel.load_game("python_thousand")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 5.0, 10, random_state=rng)
    bot.set_resampler(tos.resampler(7))
    state = dealt_state(game, rng)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if WRITE_OFF in legal:
            action = next(a for a in legal if a != WRITE_OFF)  # play the deal out
        else:
            action = bot.step(state)
        assert action in legal
        state.apply_action(action)
        moves += 1
    assert moves > 24  # the auction, the passing and all eight tricks
    returns = state.returns()
    assert len(returns) == 3 and any(r != 0 for r in returns)


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_is_dealt_as_its_layout_deals(template: str) -> None:
    """The chance nodes deal the 24 cards as the layout places them (two talons, a stock,
    cards set aside, a shown card, a sitting dealer), and the deal plays to its end."""
    game = pyspiel.load_game(f"python_thousand(template={template})")
    rng = np.random.RandomState(7)
    state = dealt_state(game, rng)
    assert isinstance(state, tos.ThousandState) and state.deal is not None
    rules = template_rules(template)
    layout = Layout.of(rules)
    state.deal.cards_dealt.check(layout, 0)  # raises unless dealt as the layout deals
    assert state.deal.cards_dealt == dealt_from_deck(layout, state.dealt, 0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.returns()) == rules.players_count
