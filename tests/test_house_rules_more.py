"""rules.md part 2: more house rules, each pinned in numbers: ``barrel.reverse`` (the mirror
barrel) with ``barrel.reverse_fallback``."""

from __future__ import annotations

import pytest

from thousand.engine import MatchState, settle
from thousand.engine.views import MatchInfo
from thousand.records.model import Record, RecordError
from thousand.records.replay import replay

from .positions import events, played, russian

REVERSE = russian({"barrel.reverse": True})


def test_reverse_barrel_mount_is_exactly_minus_threshold() -> None:
    match = MatchState.start(REVERSE, totals=(-800, 0, 0))
    match, report = settle(match, played([-100, 40, 60], declarer=0, made=False))
    assert report.totals == (-880, 40, 60) and report.changes == (-80, 40, 60)
    assert match.on_barrel == (True, False, False) and match.barrel_left[0] == 3
    assert events(report) == [(0, "reverse-barrel-on")]
    # the view tells the mirror barrel by its negative total
    assert MatchInfo.of(match).on_barrel[0] and MatchInfo.of(match).totals[0] == -880
    # without the rule the total just goes on down
    plain = MatchState.start(russian(), totals=(-800, 0, 0))
    plain, report = settle(plain, played([-100, 40, 60], declarer=0, made=False))
    assert report.totals == (-900, 40, 60) and not plain.on_barrel[0] and not events(report)


def test_reverse_barrel_frozen_then_falls_to_fallback() -> None:
    match = MatchState.start(REVERSE, totals=(-800, 0, 0))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    # a gain does not lift it, a loss below 120 does not sink it: each uses up a deal
    match, report = settle(match, played([100, 10, 10], declarer=0))
    assert report.totals[0] == -880 and report.changes[0] == 0 and match.barrel_left[0] == 2
    match, report = settle(match, played([50, 60, 10], declarer=1))
    assert report.totals[0] == -880 and match.barrel_left[0] == 1
    match, report = settle(match, played([-100, 60, 60], declarer=0, made=False))
    assert report.totals[0] == -760 and not match.on_barrel[0]
    assert report.changes[0] == 120 and events(report) == [(0, "reverse-barrel-fall")]
    assert match.falls[0] == 0  # a mirror fall is not a fall of the three-falls reset
    # barrel.reverse_fallback sets where it drops
    rules = russian({"barrel.reverse": True, "barrel.reverse_fallback": -500, "barrel.deals": 1})
    match = MatchState.start(rules, totals=(-800, 0, 0))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    match, report = settle(match, played([20, 40, 60], declarer=1))
    assert report.totals[0] == -500 and events(report) == [(0, "reverse-barrel-fall")]


def test_reverse_barrel_losing_ends_the_match() -> None:
    match = MatchState.start(REVERSE, totals=(-800, 300, 200))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    # losing 120 or more on the mirror barrel: minus the target, the match is lost and over
    match, report = settle(match, played([-120, 40, 60], declarer=0, contract=120, made=False))
    assert report.totals == (-1000, 380, 320)
    assert events(report) == [(0, "lose"), (1, "win")]
    assert match.over and match.winner == 1
    # straight past minus the target from off the barrel: no mounting, lost at once
    match = MatchState.start(REVERSE, totals=(-870, 300, 300))
    match, report = settle(match, played([-160, 40, 20], declarer=0, contract=160, made=False))
    assert report.totals == (-1030, 340, 320) and match.winner == 1
    # a tie for the highest total: the declarer's unless it is not among them, then the lower
    match = MatchState.start(REVERSE, totals=(-899, 300, 320))
    match, report = settle(match, played([-200, 20, 0], declarer=0, contract=200, made=False))
    assert report.totals == (-1099, 320, 320)
    assert match.winner == 1 and events(report) == [(0, "lose"), (1, "win")]
    start = (-870, 300, 200)
    deal = played([-150, 20, 120], declarer=2, contract=120)  # a hand-built loss of 150
    match, report = settle(MatchState.start(REVERSE, totals=start), deal)
    assert report.totals == (-1020, 320, 320) and match.winner == 2
    highest = russian({"barrel.reverse": True, "game.tiebreak": "highest"})
    match, report = settle(MatchState.start(highest, totals=start), deal)
    assert match.winner == 1


def test_reverse_barrel_gain_of_120_on_the_barrel_is_frozen() -> None:
    # the mirror is frozen both ways: even a gain of 120 leaves it at minus the threshold
    match = MatchState.start(REVERSE, totals=(-800, 0, 0))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    match, report = settle(match, played([120, 0, 0], declarer=0, contract=120))
    assert report.totals[0] == -880 and match.on_barrel[0] and match.barrel_left[0] == 2


def test_reverse_barrel_riders_coexist_with_each_other_and_the_barrel() -> None:
    match = MatchState.start(REVERSE, totals=(-800, -820, 850))
    match, report = settle(match, played([-100, -60, 40], declarer=0, made=False))
    assert report.totals == (-880, -880, 880)
    assert match.on_barrel == (True, True, True)
    assert events(report) == [(0, "reverse-barrel-on"), (1, "reverse-barrel-on"), (2, "barrel-on")]
    # two seats mounting the ordinary barrel together still collide (1.9 step 4): the lower
    # seat stays, the other drops to 760; the mirror rider takes no part
    match = MatchState.start(REVERSE, totals=(-880 + 10, 870, 850))
    match, report = settle(match, played([-20, 20, 40], declarer=0, made=False))
    assert report.totals == (-880, 880, 760)
    assert match.on_barrel == (True, True, False)
    assert events(report) == [
        (0, "reverse-barrel-on"),
        (1, "barrel-on"),
        (2, "barrel-on"),
        (2, "barrel-knocked-off"),
    ]


def test_reverse_barrel_dump_truck_at_minus_555() -> None:
    rules = russian({"barrel.reverse": True, "game.dump_truck": "both"})
    match = MatchState.start(rules, totals=(-455, 0, 0))
    match, report = settle(match, played([-100, 40, 60], declarer=0, made=False))
    assert report.totals[0] == 0 and events(report) == [(0, "dump-truck")]


def _record(rules: dict[str, object], totals: tuple[int, ...]) -> Record:
    return Record(variant="russian", rules=tuple(rules.items()), start_totals=totals)


def test_reverse_barrel_record_start_totals() -> None:
    rules: dict[str, object] = {"barrel.reverse": True}
    assert replay(_record(rules, (-879, 0, 0))).game.match.totals == (-879, 0, 0)
    with pytest.raises(RecordError) as err:
        replay(_record(rules, (0, -880, 0)))
    assert str(err.value) == (
        "record: start.totals gives seat 1 -880, not above the mirror barrel -880"
    )
    # without the rule a total may start anywhere below the barrel
    assert replay(_record({}, (0, -880, 0))).game.match.totals == (0, -880, 0)
