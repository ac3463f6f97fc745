"""Combinations of valid values that cannot be played are refused with the reason (part 2)."""

from __future__ import annotations

import random

import pytest

from thousand.engine import Game
from thousand.rules import Rules, RulesError, template_rules


def test_the_lowest_bid_must_be_a_bid_the_steps_allow() -> None:
    with pytest.raises(RulesError) as e:
        Rules().with_overrides({"bidding.min": 105, "bidding.step": 10}, supported_only=False)
    assert e.value.problems == [
        "rules bidding.min = 105 is not a multiple of bidding.step = 10: nobody could bid the"
        " lowest bid"
    ]
    with pytest.raises(
        RulesError, match=r"bidding\.min = 110 is not a multiple of bidding\.big_step"
    ):
        Rules().with_overrides(
            {"bidding.min": 110, "bidding.big_step_from": 100, "bidding.big_step": 20},
            supported_only=False,
        )
    assert Rules().with_overrides({"bidding.min": 60, "bidding.step": 10}).bidding_min == 60


def test_only_a_dealer_who_sits_out_alone_scores_the_talon() -> None:
    with pytest.raises(RulesError) as e:
        Rules().with_overrides({"four.sitter_scores": "talon-points"}, supported_only=False)
    assert e.value.problems == [
        "rules four.sitter_scores = 'talon-points' needs players.layout = 'dealer-sits-out' and"
        " players.partnerships = 'none' (they are 'standard' and 'none'): only a dealer who sits"
        " out for itself scores the talon"
    ]
    four = template_rules("four-player", supported_only=False)
    assert four.four_sitter_scores == "talon-points-and-marriage"
    with pytest.raises(RulesError, match="they are 'dealer-sits-out' and 'across'"):
        four.with_overrides({"players.partnerships": "across"}, supported_only=False)


def test_the_forced_dealer_bid_cannot_go_with_a_sitting_out_dealer() -> None:
    with pytest.raises(RulesError) as e:
        template_rules("four-player-b", supported_only=False).with_overrides(
            {"bidding.forced": "dealer"}, supported_only=False
        )
    assert e.value.problems == [
        "rules bidding.forced = 'dealer' cannot go with players.layout = 'dealer-sits-out': the"
        " dealer takes no part in the deal"
    ]


# -- what a layout deals must be playable to the end (rules.md parts 2 and 4) --------------------

FIXED_DEAL_NEEDS = (
    "the declarer takes the talon, hands one card to each other seat and discards one"
)


@pytest.mark.parametrize(
    ("base", "overrides", "problem"),
    [
        (
            "russian",
            {"players.layout": "fixed-deal"},
            "rules players.layout = 'fixed-deal' needs players.count = 2, but players.count = 3:"
            f" {FIXED_DEAL_NEEDS}, which takes a talon of 4",
        ),
        (
            "two-player-b",
            {"deal.talon_size": 2},
            "rules players.layout = 'fixed-deal' needs deal.talon_size = 3 with 2 seats,"
            f" but deal.talon_size = 2: {FIXED_DEAL_NEEDS}",
        ),
        (
            "two-player-b",
            {"talon.distribution": "choose-talon"},
            "rules talon.distribution = 'choose-talon' cannot go with"
            " players.layout = 'fixed-deal': fixed-deal deals one talon, which the declarer takes",
        ),
        (
            "russian",
            {"deal.hand_size": 8, "deal.talon_size": 0},
            "rules talon.distribution = 'take-and-pass' needs a talon of 3 with 3 active seats,"
            " but deal.talon_size = 0: the declarer takes it and passes one card to each other"
            " seat",
        ),
        (
            "four-player-b",
            {"deal.hand_size": 8, "deal.talon_size": 0},
            "rules talon.distribution = 'take-and-pass' needs a talon of 3 with 3 active seats,"
            " but deal.talon_size = 0: the declarer takes it and passes one card to each other"
            " seat",
        ),
        (
            "tysiac-2p",
            {"players.count": 4, "deal.hand_size": 6, "deal.talon_size": 0},
            "rules talon.distribution = 'choose-talon' needs a talon, but deal.talon_size = 0:"
            " the declarer picks one of two talons and discards as many cards",
        ),
        (
            "tysiac-2p",
            {"players.layout": "dealer-sits-out"},
            "rules players.layout = 'dealer-sits-out' needs players.count = 3 or 4,"
            " but players.count = 2: one seat cannot play alone",
        ),
        (
            "two-player-a",
            {"players.count": 3, "deal.hand_size": 8},
            "rules players.layout = 'draw-stock' needs a stock, but 3 hands of deal.hand_size 8"
            " take all 24 cards (players.count = 3): the stock's face-up bottom card names the"
            " trump",
        ),
        (
            "four-player-a",
            {"players.partnerships": "none", "players.count": 3},
            "rules deal: 3 hands of deal.hand_size 6 = 18 cards does not fit the 24-card deck"
            " (players.count = 3, players.layout = 'no-talon')",
        ),
    ],
)
def test_a_layout_that_cannot_deal_or_finish_is_refused(
    base: str, overrides: dict[str, object], problem: str
) -> None:
    with pytest.raises(RulesError) as e:
        template_rules(base).with_overrides(overrides)
    assert e.value.problems == [problem]


@pytest.mark.parametrize(
    ("base", "overrides", "seats", "talons", "stock", "aside"),
    [
        # the layout wins over talon.distribution and, without a talon, over deal.talon_size
        ("two-player-b", {"talon.distribution": "keep-one"}, 2, 1, 0, 7),
        ("two-player-b", {"talon.distribution": "pass-without-taking"}, 2, 1, 0, 7),
        ("two-player-b", {"deal.hand_size": 10}, 2, 1, 0, 1),
        ("four-player-a", {"talon.distribution": "pass-without-taking"}, 4, 0, 0, 0),
        ("four-player-a", {"talon.distribution": "keep-one", "deal.talon_size": 3}, 4, 0, 0, 0),
        ("two-player-a", {"talon.distribution": "keep-one", "deal.hand_size": 6}, 2, 0, 12, 0),
        ("two-player-a", {"players.count": 3, "deal.hand_size": 7}, 3, 0, 3, 0),
        # two of three play, the dealer sitting out, with two talons to choose from
        ("tysiac-2p", {"players.count": 3, "players.layout": "dealer-sits-out"}, 3, 2, 0, 0),
        ("tysiac", {"talon.distribution": "choose-talon", "deal.hand_size": 6}, 3, 2, 0, 0),
    ],
)
def test_a_layout_that_deals_and_finishes_is_accepted(
    base: str,
    overrides: dict[str, object],
    seats: int,
    talons: int,
    stock: int,
    aside: int,
) -> None:
    rules = template_rules(base).with_overrides(overrides)
    rng = random.Random(5)
    game = Game.start(rules).shuffle_and_deal(rng)
    assert game.deal is not None and game.deal.seats == seats
    log = game.logs[-1]
    assert (len(log.dealt.talons), len(log.dealt.stock)) == (talons, stock)
    assert log.dealt.aside.bit_count() == aside
    while game.in_deal:
        assert game.deal is not None
        game = game.apply(rng.choice(game.deal.legal_moves()))
    assert len(game.reports) == 1
