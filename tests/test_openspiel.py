"""Thousand as an OpenSpiel game, with OpenSpiel's own ISMCTS playing it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import thousand.openspiel as tos
from thousand.bots.levels import make_bot
from thousand.bots.sampler import Sampler
from thousand.engine.actions import WRITE_OFF
from thousand.engine.dealing import dealt_from_deck
from thousand.engine.state import DealState
from thousand.engine.views import view
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


THREE_SEATS = [t for t in TEMPLATES if template_rules(t).players_count == 3]


def played_to(template: str, seed: int, moves: int) -> tos.ThousandState:
    """A deal of ``template`` dealt from ``seed`` and played ``moves`` moves on by the medium
    bot (fewer where it ends first)."""
    game = pyspiel.load_game(f"python_thousand(template={template})")
    state = dealt_state(game, np.random.RandomState(seed))
    assert isinstance(state, tos.ThousandState) and state.deal is not None
    bots = [make_bot("medium", seed * 3 + s) for s in range(3)]
    for _ in range(moves):
        if state.is_terminal() or state.current_player() < 0:
            break
        player = state.current_player()
        state.apply_action(bots[player].choose(view(DealState(state.deal), player)))
    return state


class FailingSampler(Sampler):
    """A sampler that finds no world, as the real one sometimes does where one exists."""

    def draw(self, tries: int = 40) -> None:
        return None


def hidden_part(state: tos.ThousandState, player: int) -> tuple[int, ...]:
    """What ``player`` cannot see of the deal as dealt: the other hands and the talons."""
    assert state.deal is not None
    dealt = state.deal.cards_dealt
    others = tuple(h for seat, h in enumerate(dealt.hands) if seat != player)
    return (*others, *dealt.talons, dealt.aside)


@pytest.mark.parametrize("template", THREE_SEATS)
@pytest.mark.parametrize("moves", [2, 12])
def test_a_failed_sample_never_hands_the_bot_the_true_hidden_cards(
    template: str, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the sampler failing every time, the resampler still gives worlds that show the
    player exactly its view, drawn from that view alone: the true hidden cards are not what it
    hands over (it handed over the true state), and they vary from call to call."""
    monkeypatch.setattr(tos, "Sampler", FailingSampler)
    state = played_to(template, 11, moves)
    player = state.current_player()
    assert player >= 0
    resample = tos.resampler(5)
    truth = hidden_part(state, player)
    worlds = []
    for _ in range(12):
        world = resample(state, player)
        assert world.seat_view_json(player) == state.seat_view_json(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.deal is not None and world.dealt != state.dealt
        layout = Layout.of(template_rules(template))
        assert dealt_from_deck(layout, world.dealt, 0) == world.deal.cards_dealt
        worlds.append(hidden_part(world, player))
    assert truth not in worlds
    assert len(set(worlds)) > 6


@pytest.mark.parametrize("template", ["polish-2card", "soviet-book"])
def test_the_auction_is_resampled_where_the_talon_is_handed_over_untaken(
    template: str,
) -> None:
    """Where the talon is handed over without being taken the sampler draws a world of the
    auction too (polish-2card's card set aside a hidden slot, soviet-book's shown card with
    forehand), and the resampler hands over worlds that show the player its view."""
    state = played_to(template, 2, 1)
    player = state.current_player()
    seen = view(DealState(state.deal), player)  # type: ignore[arg-type]
    drawn = Sampler(seen, random.Random(0)).draw()
    assert drawn is not None and view(DealState(drawn), player) == seen
    resample = tos.resampler(1)
    worlds = [resample(state, player) for _ in range(8)]
    assert all(w.seat_view_json(player) == state.seat_view_json(player) for w in worlds)
    assert hidden_part(state, player) not in [hidden_part(w, player) for w in worlds]


def test_no_world_found_is_an_error_never_the_true_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tos, "Sampler", FailingSampler)
    monkeypatch.setattr(tos, "SHUFFLE_TRIES", 0)
    state = played_to("russian", 3, 5)
    with pytest.raises(tos.NoWorldFound, match="no deal consistent with seat"):
        tos.resampler(0)(state, state.current_player())


def test_while_dealing_the_resampler_keeps_only_the_players_own_cards() -> None:
    game = pyspiel.load_game("python_thousand")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    for _ in range(15):
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    world = tos.resampler(2)(state, 1)
    assert world.seat_view_json(1) == state.seat_view_json(1)
    assert len(world.dealt) == 15 and len(set(world.dealt)) == 15
    others = [i for i in range(15) if tos._owner(template_rules("russian"), i) != 1]
    assert [world.dealt[i] for i in others] != [state.dealt[i] for i in others]
