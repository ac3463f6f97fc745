"""Combinations of valid values that cannot be played are refused with the reason (part 2)."""

from __future__ import annotations

import pytest

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
