"""Quick play's matching rule on its own: neighbours in rating sit together when each accepts
their spread, the allowance widens with the wait, and a player whose wait is over sits with
the players its allowance takes and bots."""

from __future__ import annotations

import random

from thousand.server.quickplay_rule import GAP_FIRST, GAP_GROWTH, Waiter, tables_to_form


def waiter(ticket: str, rating: int, joined: float = 0.0, wait: float = 300.0) -> Waiter:
    return Waiter(ticket, rating, joined, wait)


def people(waiting: list[Waiter], seats: int, now: float) -> list[tuple[tuple[str, ...], int]]:
    return [
        (tuple(w.ticket for w in f.people), f.bots) for f in tables_to_form(waiting, seats, now)
    ]


def test_three_of_one_rating_make_a_table_without_bots() -> None:
    waiting = [waiter("a", 1000, 0.0), waiter("b", 1000, 1.0), waiter("c", 1000, 2.0)]
    assert people(waiting, 3, now=2.0) == [(("a", "b", "c"), 0)]


def test_too_few_players_wait_while_their_wait_lasts() -> None:
    waiting = [waiter("a", 1000), waiter("b", 1000)]
    assert people(waiting, 3, now=10.0) == []


def test_the_tightest_neighbours_sit_together() -> None:
    waiting = [
        waiter("low1", 1000),
        waiter("low2", 1010),
        waiter("low3", 1020),
        waiter("high1", 1500),
        waiter("high2", 1510),
        waiter("high3", 1560),
    ]
    formed = people(waiting, 3, now=0.0)
    assert sorted(formed) == [(("high1", "high2", "high3"), 0), (("low1", "low2", "low3"), 0)]


def test_far_apart_ratings_are_not_matched_until_the_allowance_has_grown() -> None:
    spread = 1500
    waiting = [waiter("a", 1000), waiter("b", 1000), waiter("far", 1000 + spread)]
    needed = (spread - GAP_FIRST) / GAP_GROWTH  # seconds of waiting that accept the spread
    assert people(waiting, 3, now=needed - 1) == []
    assert people(waiting, 3, now=needed) == [(("a", "b", "far"), 0)]


def test_a_lone_player_gets_bots_when_its_wait_is_over() -> None:
    waiting = [waiter("a", 1000, 0.0, wait=5.0)]
    assert people(waiting, 3, now=4.9) == []
    assert people(waiting, 3, now=5.0) == [(("a",), 2)]
    assert people(waiting, 4, now=5.0) == [(("a",), 3)]


def test_a_player_out_of_patience_takes_whom_its_allowance_accepts() -> None:
    waiting = [
        waiter("late", 1000, 0.0, wait=2.0),
        waiter("near", 1040, 1.0),
        waiter("far", 3000, 1.0),
    ]
    assert people(waiting, 3, now=2.0) == [(("late", "near"), 1)]


def test_each_player_sits_at_one_table_at_most() -> None:
    rng = random.Random(7)
    for _ in range(200):
        seats = rng.choice([2, 3, 4])
        waiting = [
            waiter(f"t{i}", rng.randrange(600, 1800, 10), rng.uniform(0, 60), rng.uniform(0, 60))
            for i in range(rng.randrange(0, 15))
        ]
        formed = tables_to_form(waiting, seats, now=60.0)
        seen = [w.ticket for f in formed for w in f.people]
        assert len(seen) == len(set(seen))
        for f in formed:
            assert 1 <= len(f.people) <= seats and len(f.people) + f.bots == seats
            spread = max(w.rating for w in f.people) - min(w.rating for w in f.people)
            assert spread <= min(w.allowance(60.0) for w in f.people)
        # nobody whose wait is over is left waiting
        left = {w.ticket for w in waiting} - set(seen)
        assert not [w for w in waiting if w.ticket in left and w.out_of_patience(60.0)]
