"""Ratings: the engine's places at a match's end, and the OpenSkill update they make."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from thousand.engine import Game, MatchState
from thousand.rules import TEMPLATES, rules_from_record, template_rules
from thousand.server.ratings import Family, Rating, family_of, rated, seat_stats

from .server_support import SHORT_MATCH


def over(template: str, totals: tuple[int, ...], winner: int) -> MatchState:
    return replace(MatchState.start(template_rules(template), totals=totals), winner=winner)


def test_places_winner_first_then_by_totals() -> None:
    assert over("russian", (1000, 640, 700), 0).places() == (1, 3, 2)
    assert over("russian", (500, 1005, 700), 1).places() == (3, 1, 2)


def test_places_shared_by_equal_totals() -> None:
    assert over("russian", (1000, 500, 500), 0).places() == (1, 2, 2)
    assert over("tysiac-2p", (400, 1000), 1).places() == (2, 1)


def test_places_shared_by_partners() -> None:
    assert over("four-player-a", (1000, 300, 1000, 300), 2).places() == (1, 2, 1, 2)


def test_places_of_four_each_for_themselves() -> None:
    assert over("four-player", (200, 1010, -40, 200), 1).places() == (2, 1, 4, 2)


def test_no_places_while_the_match_goes_on() -> None:
    with pytest.raises(ValueError, match="not over"):
        MatchState.start(template_rules("russian")).places()


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_has_a_family(template: str) -> None:
    rules = template_rules(template)
    family = family_of(rules)
    expected = {2: Family.TWO, 3: Family.THREE, 4: Family.FOUR}[rules.players_count]
    if rules.players_partnerships == "across":
        expected = Family.PARTNERSHIPS
    assert family is expected


def test_families_of_templates() -> None:
    assert family_of(template_rules("russian")) is Family.THREE
    assert family_of(template_rules("tysiac-2p")) is Family.TWO
    assert family_of(template_rules("four-player")) is Family.FOUR
    assert family_of(template_rules("four-player-a")) is Family.PARTNERSHIPS


def test_a_newcomer_shows_1000() -> None:
    assert Rating().shown == 1000


def test_three_newcomers_rated_by_places() -> None:
    after = rated((1, 2, 2), [(0,), (1,), (2,)], [Rating()] * 3)
    assert after[0].mu == pytest.approx(27.869048680749426, abs=1e-9)
    assert after[1].mu == pytest.approx(23.565475659625285, abs=1e-9)
    assert after[1] == after[2]
    assert after[0].sigma < Rating().sigma


def test_partners_move_together() -> None:
    after = rated((1, 2, 1, 2), [(0, 2), (1, 3)], [Rating()] * 4)
    assert after[0] == after[2] and after[1] == after[3]
    assert after[0].mu > 25 > after[1].mu


def test_an_upset_moves_more_than_the_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(20.0, 3.0)
    expected = rated((1, 2), [(0,), (1,)], [strong, weak])
    upset = rated((2, 1), [(0,), (1,)], [strong, weak])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


@pytest.mark.parametrize("template", TEMPLATES)
def test_seat_stats_of_a_played_match(template: str) -> None:
    """A short match of random legal moves: each seat's place is the engine's, the winner's
    side has first place, and every contract made is counted once, for its declarer."""
    game = Game.start(rules_from_record(template, SHORT_MATCH))
    rng = random.Random(7)
    while not game.over:
        if game.deal is None or not game.in_deal:
            game = game.shuffle_and_deal(rng)
        else:
            game = game.apply(rng.choice(game.deal.legal_actions()))
    stats = seat_stats(game)
    places = game.match.places()
    assert [s.place for s in stats] == list(places)
    assert stats[game.match.winner or 0].won
    made = [r.outcome.declarer for r in game.reports if r.outcome.result == "made"]
    assert sum(s.made for s in stats) == len(made)
    for seat, s in enumerate(stats):
        assert s.made == made.count(seat) <= s.declared
