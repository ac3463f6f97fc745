"""PIMC in the layouts it once left to the heuristic bot: four-player-a (no-talon, partners
across, six tricks of four seats), searched in the auction and in the play; tysiac-2p
(choose-talon: two seats of ten, two talons of two, two discards), searched in every phase but
the choice of a talon;
two-player-a (draw-stock), searched in the play once the stock is drawn.

Over seeded deals and every decision: PIMC applies, every sampled deal replays to the seat's
exact view and places no card where the view shows it is not, and the bots play whole deals
with legal moves."""

from __future__ import annotations

import dataclasses
import random

import pytest

from thousand.bots import Limit, make_bot
from thousand.bots.base import Bot
from thousand.bots.heuristic import HeuristicBot, keep_value
from thousand.bots.knowledge import known_held, not_held, played_by, voids
from thousand.bots.pimc import (
    BID_CONFIDENCE,
    SIDE_BID_CONFIDENCE,
    PimcBot,
    bid_confidence,
    pimc_applies,
    pimc_layout,
    rebuilt_layout,
)
from thousand.bots.sampler import Sampler, history, replay_deal
from thousand.cards import FULL_DECK, KING, QUEEN
from thousand.engine import DealState, Game
from thousand.engine.actions import BID, DISCARD, PASS, WRITE_OFF, is_bid, is_discard
from thousand.engine.deal import Deal, Phase
from thousand.engine.views import SeatView, game_view, view
from thousand.rules import template_rules
from thousand.rules.layout import CHOOSE_TALON, NO_TALON, Layout

from .test_bots_every_template import play_deals

FOUR_A = template_rules("four-player-a")


def decisions(rules_name: str, deals: int, seed: str) -> list[tuple[Game, SeatView, int]]:
    """Every position of seeded deals where the seat to act has a choice, played by the
    heuristic with one move in four at random: (game, the seat's view, the seat)."""
    rules = template_rules(rules_name)
    rng = random.Random(seed)
    bot = HeuristicBot(5)
    out = []
    game = Game.start(rules)
    for _ in range(deals):
        if game.over:
            break
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            seen = game_view(game, seat)
            if len(seen.legal_actions) > 1:
                out.append((game, dataclasses.replace(view(game.deal, seat), match=None), seat))
            action = rng.choice(seen.legal_actions) if rng.random() < 0.25 else bot.choose(seen)
            game = game.apply(action)
    return out


def test_the_layout_is_no_talon_with_every_card_in_a_hand() -> None:
    layout = Layout.of(FOUR_A)
    assert (layout.players, layout.hand_size, layout.talons, layout.left_over) == (4, 6, 0, 0)
    assert layout.procedure == NO_TALON and FOUR_A.players_partnerships == "across"
    assert pimc_layout(FOUR_A) and not rebuilt_layout(FOUR_A)
    # draw-stock is no-talon too, with a stock: its play only, once the stock is drawn
    assert rebuilt_layout(template_rules("two-player-a"))


def test_pimc_applies_to_every_choice_of_the_auction_and_the_play() -> None:
    seen = decisions("four-player-a", 30, "applies")
    phases = {v.phase for _, v, _ in seen}
    assert phases == {Phase.AUCTION, Phase.PLAY}
    assert all(pimc_applies(v) for _, v, _ in seen)
    assert sum(v.phase is Phase.PLAY for _, v, _ in seen) > 100


def test_the_history_has_no_contract_move() -> None:
    """No contract move follows the auction in no-talon: the history replayed is the auction
    and the cards played (a contract move in it made every play sample fail)."""
    played = 0
    for game, seen, seat in decisions("four-player-a", 12, "history"):
        if seen.phase is Phase.PLAY:
            assert game.deal is not None
            acts = history(seen, (-1,) * 4)
            assert acts == [*seen.auction_actions(), *(a for _, a in seen.plays)]
            d = replay_deal(seen, list(game.deal.dealt), 0, (-1,) * 4)
            assert d is not None and view(DealState(d), seat) == seen
            played += 1
    assert played > 20


@pytest.mark.parametrize("template", ["four-player-a", "tysiac-2p", "two-player-a"])
def test_every_sample_shows_the_seat_its_view(template: str) -> None:
    """Every sampled deal replays to the seat's exact view: its own hand, every card played
    by whom, every marriage declared, the auction, the talon taken; no other seat holds a card
    its plays show it cannot hold (voids, must-beat), a declared marriage's partner card stays
    with its seat, and every card is in one place only."""
    drawn = 0
    positions = decisions(template, 40, "samples")
    for i, (_, seen, seat) in enumerate(positions):
        if not pimc_applies(seen):
            assert template != "four-player-a"
            assert seen.phase is not Phase.PLAY or seen.stock_count
            continue
        out = [v | x for v, x in zip(voids(seen), not_held(seen), strict=True)]
        known = known_held(seen)
        played = played_by(seen)
        for k in range(2):
            d = Sampler(seen, random.Random(i * 2 + k)).draw()
            assert d is not None, (i, seen.phase)
            drawn += 1
            assert view(DealState(d), seat) == seen
            assert d.hands[seat] == seen.hand
            cards = 0
            for s in range(seen.seats):
                assert d.hands[s] & cards == 0
                cards |= d.hands[s]
                assert d.hands[s] & out[s] == 0
                assert d.hands[s] & known[s] == known[s]
            if template == "four-player-a":
                assert d.talon == 0 and d.dealt == tuple(d.hands[s] | played[s] for s in range(4))
            elif template == "two-player-a":
                # the stock drawn: the other seat holds every card left, its dealt hand of them
                assert not d.stock and d.hands[1 - seat] == FULL_DECK & ~seen.hand & ~seen.played
                assert d.cards_dealt.stock[-1] // 6 == seen.completed_trumps[0]
            elif seen.phase is Phase.AUCTION:
                # two talons of two, of the cards this seat does not hold
                assert [t.bit_count() for t in d.talons] == [2, 2]
                assert d.talons[0] & d.talons[1] == 0 and (d.talons[0] | d.talons[1]) & cards == 0
                cards |= d.talons[0] | d.talons[1]
            else:
                # the talon taken is the first; the other holds none of its cards
                assert d.talons[0] == seen.talon == d.talon
                assert d.talons[1] & seen.talon == 0
                assert cards & d.discarded == 0 and d.talons[1] & (cards | d.discarded) == 0
                if seat == seen.declarer:
                    assert d.discarded == seen.discarded
                cards |= d.discarded | d.talons[1]
            assert cards | seen.played == FULL_DECK
    assert drawn > 200


def test_a_declared_marriage_stays_with_its_seat() -> None:
    """A seat that declared a marriage keeps the partner card in every sample, until played."""
    checked = 0
    for i, (_, seen, seat) in enumerate(decisions("four-player-a", 60, "marriages")):
        for other, suits in enumerate(seen.marriages):
            if other == seat or not suits:
                continue
            d = Sampler(seen, random.Random(i)).draw()
            assert d is not None
            for s in suits:
                pair = (1 << (6 * s + KING)) | (1 << (6 * s + QUEEN))
                assert d.dealt[other] & pair == pair
            checked += 1
    assert checked > 5


def test_a_side_bids_on_a_larger_share() -> None:
    """Partners without a talon bid only where SIDE_BID_CONFIDENCE of the samples make it;
    elsewhere the bot's own confidence holds."""
    seen = next(v for _, v, _ in decisions("four-player-a", 4, "bid") if v.phase is Phase.AUCTION)
    assert bid_confidence(seen, BID_CONFIDENCE) == SIDE_BID_CONFIDENCE == 0.8
    assert bid_confidence(seen, 0.9) == 0.9
    for name in ("russian", "four-player-b"):
        v = next(v for _, v, _ in decisions(name, 4, "bid") if v.phase is Phase.AUCTION)
        assert bid_confidence(v, BID_CONFIDENCE) == BID_CONFIDENCE


def test_pimc_decides_the_auction_and_the_play() -> None:
    """Every choice of four-player-a is sampled (the bot's count of searched decisions grows),
    and a bid is made exactly when the samples' share reaches the side's confidence."""
    bot = PimcBot(1, samples=4)
    rng = random.Random(3)
    game = Game.start(FOUR_A)
    searched = {Phase.AUCTION: 0, Phase.PLAY: 0}
    while sum(searched.values()) < 40 and not game.over:
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            v = game_view(game, seat)
            calls = bot._calls
            action = bot.choose(v)
            if len(v.legal_actions) > 1:
                assert bot._calls == calls + 1
                searched[v.phase] += 1
                if v.phase is Phase.AUCTION and bot.why.kind in ("bid", "pass"):
                    share = bot.why.made / bot.why.samples
                    assert (action != PASS) == (share >= SIDE_BID_CONFIDENCE)
                    assert action == PASS or (is_bid(action) and action - BID == bot.why.amount)
            game = game.apply(action)
    assert searched[Phase.AUCTION] >= 10 and searched[Phase.PLAY] >= 10


def test_expert_infers_nothing_from_a_sides_bid() -> None:
    """Without a talon every sample is plausible to expert's bid inference."""
    expert = make_bot("expert", 1)
    assert isinstance(expert, PimcBot)
    for i, (_, seen, _) in enumerate(decisions("four-player-a", 10, "plausible")[:30]):
        d = Sampler(seen, random.Random(i)).draw()
        assert d is not None and expert._plausible(seen, d)


@pytest.mark.parametrize("template", ["four-player-a", "tysiac-2p", "two-player-a"])
@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_bots_play_whole_deals(template: str, level: str) -> None:
    """Hard and expert play whole deals (the choices of the play searched) with legal moves."""
    n = template_rules(template).players_count
    bots: list[Bot] = [make_bot(level, s) for s in range(n)]
    phases = play_deals(template, bots, 4, Limit(iterations=2))
    assert Phase.PLAY in phases


def test_tysiac_2p_searches_every_phase_but_the_choice_of_a_talon() -> None:
    """choose-talon: the choice of a talon (both unseen, alike) is the heuristic's; the
    auction, the declarer's discards and contract, and the play are searched."""
    rules = template_rules("tysiac-2p")
    assert Layout.of(rules).procedure == CHOOSE_TALON
    assert pimc_layout(rules) and rebuilt_layout(rules)
    seen = decisions("tysiac-2p", 8, "play only")
    phases = {v.phase for _, v, _ in seen}
    assert phases >= {Phase.AUCTION, Phase.TALON, Phase.DISCARD, Phase.CONTRACT, Phase.PLAY}
    searched = (Phase.AUCTION, Phase.DISCARD, Phase.CONTRACT, Phase.PLAY)
    assert all(pimc_applies(v) == (v.phase in searched) for _, v, _ in seen)


def test_the_discard_makes_the_contract_where_one_does() -> None:
    """Given the true deal as its one sample, the declarer's discard keeps the contract made
    wherever one of the discards it weighs (the four least worth keeping, and the heuristic's)
    does; its points count for the declarer."""
    from thousand.bots.pimc import _finish_discards

    bot = PimcBot(0)
    checked = 0
    for game, seen, _ in decisions("tysiac-2p", 40, "discards"):
        if seen.phase is not Phase.DISCARD or WRITE_OFF in seen.legal_actions:
            continue
        assert game.deal is not None
        truth = game.deal.core()
        fallback = bot.heuristic.choose(seen)
        chosen = bot._discard(seen, [truth], fallback)
        assert chosen in seen.legal_actions and is_discard(chosen)
        hand = seen.hand or 0
        least = sorted(
            (a for a in seen.legal_actions if is_discard(a)),
            key=lambda a: keep_value(a - DISCARD, hand, -1),
        )
        weighed = [*least[:4], fallback]
        amount = seen.contract or 0

        def makes(a: int, truth: Deal = truth, amount: int = amount) -> bool:
            return bot._makes(_finish_discards(truth.copy(), a), amount)

        if any(makes(a) for a in weighed):
            assert makes(chosen)
            checked += 1
        else:
            assert chosen == fallback  # nothing to tell the discards apart: the heuristic's
    assert checked > 5


def test_the_discards_are_replayed_for_the_likelihood() -> None:
    """tysiac-2p: expert weighs a sample by the other seat's plays, replayed after the
    declarer's discards (the true deal's weight is POLICY_MATCH to the power of the plays the
    heuristic foresaw, below 1 once the other seat has played a card with a choice)."""
    expert = make_bot("expert", 1)
    assert isinstance(expert, PimcBot)
    weighed = 0
    for game, seen, seat in decisions("tysiac-2p", 10, "likelihood"):
        assert game.deal is not None
        others = [s for s, _ in seen.plays if s != seat]
        if seen.phase is Phase.PLAY and len(others) >= 4:
            weight = expert._likelihood(seen, game.deal.core())
            weighed += weight < 1
    assert weighed > 10


def test_two_player_a_is_searched_once_the_stock_is_drawn() -> None:
    """draw-stock: the solver does not draw from the stock, so the play is searched once the
    stock is drawn (every card left is then in a hand); before, the heuristic decides."""
    rules = template_rules("two-player-a")
    assert pimc_layout(rules) and rebuilt_layout(rules)
    seen = decisions("two-player-a", 20, "stock")
    applies = [pimc_applies(v) for _, v, _ in seen]
    assert applies == [v.phase is Phase.PLAY and not v.stock_count for _, v, _ in seen]
    assert sum(applies) > 30 and len(applies) - sum(applies) > 30


def test_the_stocks_tricks_show_no_void() -> None:
    """draw-stock: while the stock lasts any card may be played, so a card off the suit led
    shows no void then; once the stock is drawn, it does."""
    checked = 0
    for game, seen, _ in decisions("two-player-a", 20, "voids"):
        assert game.deal is not None
        shown = voids(seen)
        for s in range(2):
            assert shown[s] & game.deal.hands[s] == 0
        tricks = seen.tricks_in_play_order()
        stock = [t for t in tricks[:3] if len(t) == 2 and t[0][1] // 6 != t[1][1] // 6]
        if stock and len(tricks) <= 3:
            assert shown == [0, 0]
            checked += 1
    assert checked > 5


def test_a_tysiac_2p_bid_is_the_share_of_samples_that_make_it() -> None:
    """In the auction of tysiac-2p each sample takes the first of its two talons, discards
    and plays: the bot bids where BID_CONFIDENCE of them make the bid, else passes."""
    bot = PimcBot(2, samples=6)
    bids = 0
    for _, seen, _ in decisions("tysiac-2p", 10, "auction"):
        if seen.phase is not Phase.AUCTION or PASS not in seen.legal_actions:
            continue
        action = bot.choose(seen)
        assert bot.why.kind in ("bid", "pass") and bot.why.samples == 6
        share = bot.why.made / bot.why.samples
        assert (action != PASS) == (share >= BID_CONFIDENCE)
        bids += action != PASS
    assert bids > 0
