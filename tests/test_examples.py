"""rules.md part 5: every worked example under ``russian`` (1 to 12), with exactly its numbers.

(Examples 13 and 14 belong to ``estonian`` and ``soviet-book``, which the engine does not play
yet.)
"""

from __future__ import annotations

from dataclasses import replace

from thousand.engine import DealOutcome, Game, MatchState, round_points, settle
from thousand.engine.dealing import Dealt
from thousand.engine.views import game_view

from .positions import (
    BEAT,
    DEAL_2A,
    DEAL_2B,
    DEAL_2C,
    DEAL_E11,
    DEAL_EX3,
    DIAMONDS,
    HEARTS,
    RUSSIAN,
    SPADES_RUFFED,
    SPADES_RUFFED_TRICKS,
    STD_HANDS,
    STD_TALON,
    TRUMP_LED,
    TRUMP_LED_TRICKS,
    after_passing,
    cards,
    events,
    legal,
    outcome_of,
    play,
    play_tricks,
    played,
    russian,
    scripted,
    settle_all,
    tokens,
)


def _writeoff_game(totals: tuple[int, int, int], bid: int) -> Game:
    """One deal in which seat 1 (forehand) bids ``bid`` and writes off."""
    game = Game.start(RUSSIAN, totals=totals)
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    for move in (str(bid), "pass", "pass", "writeoff"):
        game = game.apply(move)
    return game


def _mounted(seat: int, totals: tuple[int, int, int]) -> MatchState:
    """A match in which ``seat`` has just mounted the barrel: it gains 35 from 845."""
    start = list(totals)
    start[seat] = 845
    match = MatchState.start(RUSSIAN, totals=start)
    declarer = (seat + 1) % 3
    scores = [20, 20, 20]
    scores[seat] = 35
    scores[declarer] = 100
    match, report = settle(match, played(scores, declarer=declarer, tricks=(3, 3, 2)))
    assert match.on_barrel[seat] and report.totals[seat] == 880
    return match


def test_example_01_rounding() -> None:
    table = {73: 75, 67: 65, 72: 70, 68: 70, 2: 0, 3: 5, 98: 100}
    assert {p: round_points(p, 5) for p in table} == table


def test_example_02_contract_check() -> None:
    # 98 card points, no marriage: rounded 100, made, +100
    out = outcome_of(scripted(DEAL_2A))
    assert out.card_points is not None and out.card_points[1] == 98
    assert out.marriages[1] == ()
    assert out.deal_points is not None and out.deal_points[1] == 100
    assert (out.result, out.scores[1]) == ("made", 100)
    # 57 card points + spades 40: 55 + 40 = 95, failed, -100
    out = outcome_of(scripted(DEAL_2B))
    assert out.card_points is not None and out.card_points[1] == 57
    assert out.deal_points is not None and out.deal_points[1] == 55 + 40
    assert (out.result, out.scores[1]) == ("failed", -100)
    # 58 + 40: 60 + 40, made
    out = outcome_of(scripted(DEAL_2C))
    assert out.card_points is not None and out.card_points[1] == 58
    assert out.deal_points is not None and out.deal_points[1] == 60 + 40
    assert (out.result, out.scores[1]) == ("made", 100)


def test_example_03_defender_with_a_marriage() -> None:
    out = outcome_of(scripted(DEAL_EX3))
    assert out.declarer == 1
    assert out.card_points is not None and out.card_points[2] == 67
    assert out.marriages[2] == (0,)  # clubs
    assert out.deal_points is not None and out.deal_points[2] == 65 + 60
    assert out.scores[2] == 125


def test_example_04_writeoff() -> None:
    game = _writeoff_game((0, 0, 0), 105)
    assert game.match.totals == (52, -105, 52)
    game = _writeoff_game((0, 0, 0), 120)
    assert game.match.totals == (60, -120, 60)
    # a seat's third write-off at bid 110: -110 - 120 for it, +55 for each opponent
    game = Game.start(RUSSIAN)
    auctions = [
        ("100", "pass", "pass"),  # dealer 0: seat 1 is forehand
        ("pass", "pass"),  # dealer 1: seat 1 is the forced dealer at 100
        ("pass", "110", "pass"),  # dealer 2: seat 1 is middlehand
    ]
    for moves in auctions:
        game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
        for move in (*moves, "writeoff"):
            game = game.apply(move)
        assert game.reports[-1].outcome.declarer == 1
    report = game.reports[-1]
    assert report.changes == (55, -230, 55)
    assert events(report) == [(1, "write-off-penalty")]
    assert game.match.writeoffs == (0, 0, 0)


def test_example_05_mounting() -> None:
    match = MatchState.start(RUSSIAN, totals=(845, 0, 0))
    match, report = settle(match, played((55, 100, 20), declarer=1))
    assert report.totals[0] == 880 and match.on_barrel[0]
    assert events(report) == [(0, "barrel-on")]

    match = MatchState.start(RUSSIAN, totals=(860, 0, 0))
    match, report = settle(match, played((160, 20, 20), contract=160))
    assert report.totals[0] == 1020
    assert match.winner == 0 and events(report) == [(0, "win")]

    match = MatchState.start(RUSSIAN, totals=(850, 0, 0))
    match, report = settle(match, played((100, 20, 20)))
    assert report.totals[0] == 880 and match.on_barrel[0]


def test_example_06_on_the_barrel() -> None:
    mounted = _mounted(0, (0, 0, 0))
    assert mounted.barrel_left[0] == 3
    # a defender with a deal score of 45 stays at 880, one deal used
    match, report = settle(mounted, played((45, 100, 20), declarer=1))
    assert (report.totals[0], match.barrel_left[0]) == (880, 2)
    # a declarer that makes 100 stays at 880
    match, report = settle(mounted, played((100, 20, 20)))
    assert (report.totals[0], match.barrel_left[0]) == (880, 2)
    # a declarer that makes 120 reaches 1000 and wins
    match, report = settle(mounted, played((120, 20, 20), contract=120))
    assert report.totals[0] == 1000 and match.winner == 0
    # a defender with 60 card points and the hearts marriage (160) reaches 1000 and wins
    match, report = settle(mounted, played((160, 100, 20), declarer=1, deal_points=(160, 100, 20)))
    assert report.totals[0] == 1000 and match.winner == 0
    # after three deals without that: 760; the third such fall in the match: 0
    match = mounted
    seat_0 = []
    for fall in range(3):
        if fall:
            match = _mount_again(match)
        for _ in range(3):
            match, report = settle(match, played((45, -100, 20), declarer=1, made=False))
        seat_0.append((report.totals[0], [e for e in events(report) if e[0] == 0]))
    assert seat_0 == [
        (760, [(0, "barrel-fall")]),
        (760, [(0, "barrel-fall")]),
        (0, [(0, "barrel-fall"), (0, "three-falls-reset")]),
    ]


def _mount_again(match: MatchState) -> MatchState:
    """Seat 0 at 760 makes 120 and mounts again."""
    match, report = settle(match, played((120, 20, 20), contract=120))
    assert report.totals[0] == 880 and match.on_barrel[0]
    return match


def test_example_07_collision() -> None:
    # A (seat 0) mounts in deal 10, B (seat 1) in deal 12
    match = replace(MatchState.start(RUSSIAN, totals=(845, 700, 0)), deals=9)
    match, report = settle(match, played((35, 100, 20), declarer=1))
    assert match.deals == 10 and events(report) == [(0, "barrel-on")]
    match, report = settle(match, played((20, 20, 100), declarer=2))
    assert match.deals == 11 and report.totals[:2] == (880, 820)
    match, report = settle(match, played((20, 100, 20), declarer=1))
    assert match.deals == 12
    assert report.totals[:2] == (760, 880)
    assert events(report) == [(1, "barrel-on"), (0, "barrel-knocked-off")]
    assert match.on_barrel[:2] == (False, True)
    assert match.falls[0] == 0  # not a fall of A's


def test_example_08_dump_truck() -> None:
    match = MatchState.start(RUSSIAN, totals=(455, -435, 0))
    failed_120 = played((100, -120, 20), declarer=1, contract=120, made=False)
    match, report = settle(match, failed_120)
    assert report.totals == (0, 0, 20)
    assert events(report) == [(0, "dump-truck"), (1, "dump-truck")]


def _example_09_deals() -> list[DealOutcome]:
    stick_deals = {2, 5, 9}
    deals = []
    for deal in range(1, 10):
        declarer = deal % 2  # seats 1 and 0 in turn
        other = 1 - declarer
        scores = [0, 0, 0]
        tricks = [0, 0, 0]
        scores[declarer], tricks[declarer] = 100, 5
        scores[other], tricks[other] = 10, 2
        if deal in stick_deals:
            tricks[other] += 1
        else:
            scores[2], tricks[2] = 10, 1
        deals.append(played(scores, declarer=declarer, tricks=tricks))
    return deals


def test_example_09_sticks() -> None:
    rules = russian({"penalty.no_win": "off"})
    match, reports = settle_all(MatchState.start(rules), _example_09_deals())
    assert [r.changes[2] for r in reports] == [10, 0, 10, 10, 0, 10, 10, 10, -120]
    assert events(reports[8]) == [(2, "stick-penalty")]
    assert match.sticks[2] == 0
    # under russian itself each of those deals is also a no-win deal: that count moves too
    match, reports = settle_all(MatchState.start(RUSSIAN), _example_09_deals())
    assert reports[8].changes[2] == -240
    assert events(reports[8]) == [(2, "stick-penalty"), (2, "no-win-penalty")]
    assert (match.sticks[2], match.no_wins[2]) == (0, 0)


def test_example_10_no_win() -> None:
    deals = [
        played((-100, 20, 20), declarer=0, made=False, tricks=(2, 3, 3)),  # deal 1: fails
        played((20, 100, 20), declarer=1),
        played((20, 20, 100), declarer=2),
        played((-100, 20, 20), declarer=0, made=False, tricks=(2, 3, 3)),  # deal 4: fails
        played((20, 100, 20), declarer=1),
        played((0, 20, 100), declarer=2, tricks=(1, 2, 5)),  # deal 6: defends for 0
    ]
    match, reports = settle_all(MatchState.start(RUSSIAN), deals)
    assert [r.changes[0] for r in reports] == [-100, 20, 20, -100, 20, -120]
    assert events(reports[5]) == [(0, "no-win-penalty")]
    assert match.no_wins[0] == 0


def test_example_11_marriage_timing() -> None:
    state = scripted(DEAL_E11, upto=2)
    assert state.trump == DIAMONDS
    state = play(state, "Kh+")
    assert legal(state) == tokens("9d")  # seat 2, void in hearts, ruffs with the 9 of diamonds
    state = play(state, "9d Ah")
    assert state.completed_tricks[-1][2] == 2  # the 9 of diamonds wins
    assert state.trump == HEARTS  # hearts are trump from the next trick
    state = play(state, "Ts Ks")
    assert legal(state) == tokens("Qh")


def test_example_12_beat_if_you_can() -> None:
    # hearts led with the queen, no trump in the trick, a seat holds A and J of hearts
    state = play(after_passing(BEAT), "Qh")
    assert state.trump is None
    assert state.hands[2] & cards("Ah Jh") == cards("Ah Jh")
    assert legal(state) == tokens("Ah")
    # the same with hearts trump and led
    state = play_tricks(after_passing(TRUMP_LED), TRUMP_LED_TRICKS)
    assert state.trump == HEARTS
    state = play(state, "Qh")
    assert state.hands[2] & cards("Ah Jh") == cards("Ah Jh")
    assert legal(state) == tokens("Ah")
    # spades led, a seat void in spades has trumped in, the next holds A and 9 of spades
    state = play_tricks(after_passing(SPADES_RUFFED), SPADES_RUFFED_TRICKS)
    state = play(state, "Ks 9d")
    assert state.hands[1] & cards("As 9s") == cards("As 9s")
    assert legal(state) == tokens("As 9s")


def test_the_declarers_view_says_what_a_writeoff_costs() -> None:
    # example 4 seen before the write-off: bid 105 costs -105 and gives each opponent 52
    game = Game.start(RUSSIAN)
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    for move in ("105", "pass", "pass"):
        game = game.apply(move)
    assert "writeoff" in game_view(game, 1).legal_moves
    assert game_view(game, 1).writeoff_changes == (52, -105, 52)
    assert game_view(game, 1).to_json()["writeoff_changes"] == [52, -105, 52]
    for seat in (0, 2, None):  # only the declarer weighs it
        assert game_view(game, seat).writeoff_changes is None
    game = game.apply("give Ah 0")  # once a card is passed the window is shut
    assert game_view(game, 1).writeoff_changes is None
    # the third write-off of a seat carries its penalty: -110 - 120
    game = Game.start(RUSSIAN)
    for moves in [("100", "pass", "pass"), ("pass", "pass"), ("pass", "110", "pass")]:
        game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
        for move in moves:
            game = game.apply(move)
        if len(game.reports) < 2:
            game = game.apply("writeoff")
    assert game_view(game, 1).writeoff_changes == (55, -230, 55)
