"""rules.md part 4 and the parameters that choose it: every layout, pinned in numbers.

Each test builds a deal by hand (cards as text) and plays the moves the spec describes, checking
the legal moves, who holds what, what each seat sees and the deal's outcome.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from thousand.cards import hand_text, mask_of, parse_cards
from thousand.engine import DealState, Game, IllegalAction, MatchState, Phase, settle
from thousand.engine.deal import Deal
from thousand.engine.dealing import Dealt
from thousand.engine.scoring import score, sitter_score
from thousand.engine.views import view
from thousand.rules import TEMPLATES, Rules, template_rules
from thousand.rules.layout import Layout

from .positions import played


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def card(text: str) -> int:
    (c,) = parse_cards(text)
    return c


def apply(state: DealState, *moves: str) -> DealState:
    for move in moves:
        state = state.apply(move)
    return state


# --- pass-without-taking (polish-2card) --------------------------------------------------------

POLISH = template_rules("polish-2card")
POLISH_HANDS = ["Ah 9s Jc Kc Jd Kh Tc", "Qh As Ks 9d Ac Ad Js", "Qd 9h Th Qc Jh Td 9c"]


def polish_deal() -> DealState:
    return DealState.new(
        POLISH, 0, [cards(h) for h in POLISH_HANDS], cards("Qs Kd"), aside=cards("Ts")
    )


def test_pass_without_taking_hands_the_talon_out_then_takes_the_card_set_aside() -> None:
    state = apply(polish_deal(), "pass", "120", "pass")
    assert (state.declarer, state.phase) == (2, Phase.PASSING)
    # the talon is shown to everyone; the declarer gives only its cards, and no write-off
    assert view(state, 0).talon == cards("Qs Kd")
    assert sorted(state.legal_moves()) == ["give Kd 0", "give Kd 1", "give Qs 0", "give Qs 1"]
    assert state.hands[2] == cards(POLISH_HANDS[2])
    state = apply(state, "give Kd 0", "give Qs 1")
    # 8, 8, 8: the card set aside joined the declarer's hand unseen; no contract move
    assert [h.bit_count() for h in state.hands] == [8, 8, 8]
    assert state.hands[2] == cards(POLISH_HANDS[2]) | cards("Ts")
    assert (state.phase, state.contract) == (Phase.PLAY, 120)
    assert view(state, 0).hand == cards(POLISH_HANDS[0]) | cards("Kd")


# --- keep-one, contract before the talon, the shown card (soviet-book) -------------------------

SOVIET = template_rules("soviet-book")
SOVIET_HANDS = ["Kd Ac Qs Tc Ad 9c Qc", "Qd Ks Jd Kc As Ts 9s", "9d Th Ah Js 9h Kh Jh"]


def soviet_deal(dealer: int = 2) -> DealState:
    return DealState.new(
        SOVIET, dealer, [cards(h) for h in SOVIET_HANDS], cards("Qh Td Jc"), shown=card("Kd")
    )


def test_keep_one_names_the_contract_first_then_keeps_one_talon_card() -> None:
    state = soviet_deal()
    # the first card is shown to all and is in forehand's hand
    assert state.shown is not None and view(state, 1).shown == state.shown
    assert view(state, None).shown == card("Kd")
    assert "50" not in state.legal_moves() and "60" in state.legal_moves()
    state = apply(state, "60", "pass", "pass")
    # contract before the talon: 60 to 120 plus the dealt hand's marriages (none), in tens
    assert state.phase is Phase.CONTRACT and not state.talon_shown
    assert view(state, 1).talon is None
    assert state.legal_moves() == [f"contract {x}" for x in range(60, 130, 10)]
    state = apply(state, "contract 60")
    assert state.talon_shown and view(state, 1).talon == cards("Qh Td Jc")
    assert state.legal_moves()[0] == "writeoff"
    assert "give Kd 1" not in state.legal_moves()  # only talon cards are given
    state = apply(state, "give Qh 2", "give Jc 1")
    assert state.hands[0] == cards(SOVIET_HANDS[0]) | cards("Td")
    assert (state.phase, state.contract) == (Phase.PLAY, 60)
    with pytest.raises(IllegalAction):
        state.apply("contract 70")


def test_example_14_soviet_book_score_plus_contract_and_refusal() -> None:
    # contract 80, declarer 95 card points: rounded 100 + 80 = +180; with 70: -80
    def finished(points_cards: str) -> int:
        d = Deal.new(SOVIET, 2, [cards(h) for h in SOVIET_HANDS], cards("Qh Td Jc"))
        d.declarer, d.bid, d.contract = 0, 80, 80
        d.won = [cards(points_cards), 0, 0]
        d.won[1] = cards("9d 9h 9s 9c") | (~d.won[0] & 0xFFFFFF & ~cards("9d 9h 9s 9c"))
        d.tricks = [4, 4, 0]
        d.finish("played")
        out = score(d)
        return out.scores[0]

    assert finished("Ac Ad Ah As Tc Td Th Ts Kc Qc Jc Jd") == 180  # 95 card points
    assert finished("Ac Ad Ah As Tc Td Kc Jc") == -80  # 70 card points
    # refusal at 80: -80 for the declarer, +60 for each opponent
    game = Game.start(SOVIET, dealer=2)
    game = game.new_deal(
        Dealt(tuple(cards(h) for h in SOVIET_HANDS), (cards("Qh Td Jc"),), shown=card("Kd"))
    )
    for move in ("80", "pass", "pass", "contract 80", "writeoff"):
        game = game.apply(move)
    assert game.reports[-1].changes == (-80, 60, 60)


# --- choose-talon (tysiac-2p) ------------------------------------------------------------------

TYSIAC2 = template_rules("tysiac-2p")
T2_HANDS = ["Qs Js Qc Ts 9h Ah Qh Ad Kh 9c", "Kd Qd Tc As Th Jc Td Kc Ac Jd"]


def test_choose_talon_picks_one_the_other_stays_unseen_and_discards_count() -> None:
    state = DealState.new(
        TYSIAC2, 0, [cards(h) for h in T2_HANDS], 0, talons=[cards("9s Ks"), cards("Jh 9d")]
    )
    state = apply(state, "100", "pass")
    assert state.phase is Phase.TALON and state.legal_moves() == ["talon 0", "talon 1"]
    assert view(state, 0).talon is None and view(state, 1).talon is None
    state = apply(state, "talon 1")
    assert view(state, 0).talon == cards("Jh 9d")  # shown; talon 0 is seen by nobody
    assert state.hands[1].bit_count() == 12
    assert state.legal_moves()[0] == "writeoff"
    state = apply(state, "discard 9d")
    assert "writeoff" not in state.legal_moves()
    state = apply(state, "discard Jh")
    assert state.phase is Phase.CONTRACT
    assert view(state, 1).discarded == cards("9d Jh") and view(state, 0).discarded is None
    # the discards are the declarer's card points already: J 2 + 9 0
    assert state.won[1] == cards("9d Jh")
    assert state.legal_moves()[:3] == ["contract 100", "contract 110", "contract 120"]


# --- fixed-deal (two-player-b) -----------------------------------------------------------------

TWO_B = template_rules("two-player-b")


def test_fixed_deal_hands_over_one_card_and_discards_one() -> None:
    hands = [cards("Th Qh As Qs Qd Td Ad"), cards("9c Jd Js Kd Ah Ts Ks")]
    state = DealState.new(TWO_B, 1, hands, cards("Kc Tc Qc"), aside=cards("9h 9d Kh 9s Ac Jh Jc"))
    state = apply(state, "100", "pass")
    assert state.hands[0].bit_count() == 10 and "writeoff" not in state.legal_moves()
    state = apply(state, "give Qd 1")
    assert state.phase is Phase.DISCARD
    state = apply(state, "discard As")
    assert [h.bit_count() for h in state.hands] == [8, 8]
    assert state.phase is Phase.CONTRACT and state.won[0] == cards("As")


# --- draw-stock (two-player-a) -----------------------------------------------------------------

TWO_A = template_rules("two-player-a")


def test_draw_stock_trump_from_the_face_up_card_free_play_and_draws() -> None:
    hands = [cards("Ah 9d 9c Ac Td Qh Tc Js Kc"), cards("Qs Qc 9s Qd Jh Kd Th Ts Ks")]
    stock = parse_cards("Kh 9h Jc As Ad Jd")
    state = DealState.new(TWO_A, 0, hands, 0, stock=stock)
    assert state.trump == 1  # diamonds, the face-up Jd
    assert view(state, 0).stock_face_up == stock[-1] and view(state, 0).stock_count == 6
    state = apply(state, "100", "pass")
    assert state.phase is Phase.PLAY  # no talon, no passing, no contract move
    state = apply(state, "Th")
    # while the stock lasts any card may be played, no duty to follow suit
    assert sorted(state.legal_moves()) == sorted(hand_text(hands[0]).split())
    state = apply(state, "9d")  # the trump wins; the winner draws Kh, the loser 9h
    assert state.completed_tricks[-1][2] == 0
    assert state.hands[0] & cards("Kh") and state.hands[1] & cards("9h")
    assert len(state.stock) == 4
    assert [h.bit_count() for h in state.hands] == [9, 9]


@pytest.mark.parametrize("name", TEMPLATES)
def test_the_layout_counts_the_tricks_played_while_the_stock_lasts(name: str) -> None:
    """``Layout.stock_tricks`` (what the bots read voids by) is what the engine plays: the first
    that many tricks have a stock to draw from, no later trick has one."""
    rules = template_rules(name)
    expected = Layout.of(rules).stock_tricks
    assert expected == (3 if name == "two-player-a" else 0)
    rng = random.Random(7)
    for dealer in range(rules.players_count):
        d = DealState.shuffled(rules, dealer, rng).core()
        stocked: list[bool] = []
        while d.phase is not Phase.DONE:
            if d.phase is Phase.PLAY and not d.trick:
                stocked.append(bool(d.stock))
            d.apply(rng.choice(d.legal_actions()))
        if stocked:
            assert stocked == [t < expected for t in range(len(stocked))]


def test_draw_stock_one_pass_with_no_bid_redeals() -> None:
    hands = [cards("Ah 9d 9c Ac Td Qh Tc Js Kc"), cards("Qs Qc 9s Qd Jh Kd Th Ts Ks")]
    state = DealState.new(TWO_A, 0, hands, 0, stock=parse_cards("Kh 9h Jc As Ad Jd"))
    state = apply(state, "pass")
    assert state.outcome is not None and state.outcome.result == "redealt"


# --- no-talon and partnerships (four-player-a) -------------------------------------------------

FOUR_A = template_rules("four-player-a")


def test_no_talon_four_play_and_the_partner_counts_toward_the_contract() -> None:
    hands = [
        "9h Js Jc Jh Ac Ts",
        "9c 9d As Th Qd Kd",
        "9s Kh Td Qs Qc Ad",
        "Jd Kc Ks Tc Qh Ah",
    ]
    moves = ["pass", "pass", "100", "pass", "9d", "Td", "Jd", "Ac", "Qc", "Kc", "Jc", "9c"]
    moves += ["Ah", "9h", "Th", "Kh", "Qh", "Jh", "Qd", "9s", "Ks", "Ts", "As", "Qs"]
    moves += ["Kd", "Ad", "Tc", "Js"]
    game = Game.start(FOUR_A, dealer=2).new_deal(Dealt(tuple(cards(h) for h in hands)))
    for move in moves[:4]:
        game = game.apply(move)
    assert game.deal is not None and game.deal.phase is Phase.PLAY  # straight to play
    for move in moves[4:]:
        game = game.apply(move)
    report = game.reports[-1]
    out = report.outcome
    # side 1+3: 28 + 42 card points, rounded 30 + 40 = 70 < 100: failed
    assert out.card_points == (0, 28, 50, 42) and out.deal_points == (0, 30, 50, 40)
    assert out.result == "failed"
    assert report.changes == (0, -100, 50, 0)
    assert report.totals == (50, -100, 50, -100)


def test_partnership_changes_beyond_the_contributions_go_to_the_lower_seat() -> None:
    rules = template_rules("four-player-b")
    match = MatchState.start(rules, totals=(845, 0, 845, 0))
    # seats 0 and 2 defend with 20 + 15: the side mounts the barrel at exactly 880
    match, report = settle(match, played([20, -100, 15, 0], declarer=1, tricks=(3, 3, 2, 0)))
    assert report.totals == (880, -100, 880, -100)
    assert report.changes == (20, -100, 15, 0)
    match, report = settle(match, played([30, -100, 25, 0], declarer=3, tricks=(3, 3, 2, 0)))
    # frozen on the barrel: the side's 55 does not count; seat 0 carries the difference
    assert report.totals == (880, -200, 880, -200)
    assert report.changes == (-25, -100, 25, 0)
    assert match.on_barrel == (True, False, True, False)


# --- dealer-sits-out and the sitter's score (four-player) --------------------------------------

FOUR = template_rules("four-player")


def test_dealer_sits_out_three_play_and_two_passes_end_the_auction() -> None:
    hands = ["Ac Qh Td 9d Qd Ks Ts", "Js Qs Ah Th Jh Kc 9c", "", "Jd 9s Kh Tc As Qc Kd"]
    state = DealState.new(FOUR, 2, [cards(h) for h in hands], cards("Ad 9h Jc"))
    assert state.active == (3, 0, 1) and state.sitter == 2 and view(state, 3).sitter == 2
    state = apply(state, "pass", "100", "pass")
    assert state.declarer == 0
    assert sorted({m.split()[2] for m in state.legal_moves() if m.startswith("give")}) == [
        "1",
        "3",
    ]


@pytest.mark.parametrize(
    ("mode", "talon", "points"),
    [
        ("nothing", "Ah Kh Qh", 0),
        ("talon-points", "Ah Kh Qh", 20),  # 11 + 4 + 3 = 18, rounded 20
        ("talon-points-and-marriage", "Ah Kh Qh", 120),  # + hearts 100
        ("talon-points-and-marriage", "Ad 9h Jc", 15),  # 13, rounded 15
        ("aces-50-and-marriage", "Ah Kh Qh", 150),  # one ace 50 + hearts 100
        ("aces-50-and-marriage", "Ac Ad Js", 100),
    ],
)
def test_four_sitter_scores(mode: str, talon: str, points: int) -> None:
    rules = Rules().with_overrides(
        {
            "players.count": 4,
            "players.layout": "dealer-sits-out",
            "bidding.forced": "none",
            "four.sitter_scores": mode,
        }
    )
    assert sitter_score(rules, cards(talon)) == points


def test_the_sitter_scores_nothing_while_on_the_barrel() -> None:
    match = MatchState.start(FOUR, totals=(0, 0, 845, 0))
    sat = played([-100, 20, 40, 30], declarer=0, made=False, tricks=(2, 3, 0, 3), dealer=2)
    out = replace(sat, sitter=2)
    match, report = settle(match, out)
    assert report.totals[2] == 880 and match.on_barrel[2]
    match, report = settle(match, out)
    assert report.changes[2] == 0 and report.outcome.deal_points is not None
    assert report.outcome.deal_points[2] == 0
    assert match.barrel_left[2] == 2  # the sat-out deal used up one barrel deal


# --- the crawl and four nines (estonian) -------------------------------------------------------

ESTONIAN = template_rules("estonian")


def crawl_deal() -> DealState:
    hands = ["Kh Qd Js Jd Ts Tc Qh", "Kc Qc Td 9s Th 9c Qs", "Ah 9d As Jc 9h Kd Ac"]
    state = DealState.new(ESTONIAN, 0, [cards(h) for h in hands], cards("Ad Jh Ks"))
    return apply(state, "pass", "100", "pass")


def test_crawl_face_down_the_declarer_suit_wins() -> None:
    state = crawl_deal()  # seat 2 declares 100: it takes Ad Jh Ks and holds aces: no crawl
    state = apply(state, "give 9d 0", "give 9h 1", "contract 100")
    assert not any(m.startswith("crawl") for m in state.legal_moves())
    hands = ["Kh Qd Js Jd Ts Tc Qh", "Kc Qc Td 9s Th 9c Qs", "Ah 9d As Jc 9h Kd Ac"]
    # seat 0 declares instead: no ace after passing, so it may crawl its first lead
    state = DealState.new(ESTONIAN, 2, [cards(h) for h in hands], cards("Ad Jh Ks"))
    state = apply(state, "100", "pass", "pass", "give Ad 1", "give Ks 2", "contract 100")
    assert "crawl Qh" in state.legal_moves() and "Qh" in state.legal_moves()
    state = apply(state, "crawl Ts")
    # the others answer face down with any card, and see no crawl card but their own
    assert sorted(state.legal_moves()) == sorted(
        f"crawl {c}" for c in hand_text(state.hands[1]).split()
    )
    assert view(state, 1).trick == () and view(state, 1).crawl_hidden == (0,)
    state = apply(state, "crawl Qs")
    assert view(state, 2).trick == () and view(state, 2).crawl_hidden == (0, 1)
    with pytest.raises(IllegalAction):
        state.apply("Ac")
    state = apply(state, "crawl As")  # the highest spade wins: seat 2's ace
    assert state.completed_tricks[-1] == (0, tuple(parse_cards("Ts Qs As")), 2)
    assert not state.crawling and state.to_act == 2


def test_example_13_estonian_above_800_and_four_nines() -> None:
    # a seat at 810 defends and scores 35: it stays at 810
    match = MatchState.start(ESTONIAN, totals=(810, 0, 0))
    _, report = settle(match, played([35, 100, 20], declarer=1))
    assert report.totals == (810, 100, 20) and report.changes == (0, 100, 20)
    # four 9s dealt: +100 that deal, apart from the deal score
    hands = ["9c 9d 9h 9s Ac Ad Ah", "Kc Qc Tc Jc Kd Qd Td", "Kh Qh Th Jh Ks Qs Ts"]
    game = Game.start(ESTONIAN, totals=(810, 0, 0), dealer=2).new_deal(
        Dealt(tuple(cards(h) for h in hands), (cards("Jd As Js"),))
    )
    for move in ("pass", "pass", "100", "give Kh 0", "give Qh 1", "contract 100"):
        game = game.apply(move)
    while game.in_deal:
        assert game.deal is not None
        game = game.apply(game.deal.legal_actions()[0])
    report = game.reports[-1]
    assert report.outcome.extras == (100, 0, 0)
    assert report.changes[0] == 100  # above 800: nothing from defending, but the 100 counts
    assert next(e.event for e in report.events if e.seat == 0) == "four-nines"
