"""Positions for the rule tests: deals from hand strings, scripted tricks and hand-built outcomes.

Seats in these positions follow one convention unless a test says otherwise: seat 0 deals, so
seat 1 is forehand (and usually the declarer), seat 2 middlehand, and a trick led by seat 1 goes
1, 2, 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from thousand.cards import CARD_TEXT, cards_of, mask_of, parse_card, parse_cards
from thousand.engine import DealOutcome, DealReport, DealState, MatchState, settle
from thousand.engine.scoring import Result
from thousand.rules import Rules, template_rules

RUSSIAN = template_rules("russian")

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)

# A deal for auction and talon tests (dealer 0): seat 0 holds the spades marriage, seat 1 the
# hearts marriage (and the queen of diamonds, whose king is in the talon), seat 2 no marriage.
STD_HANDS = (
    "Ks Qs Ts Js Ad Qc Jh",
    "Ah Kh Qh Qd 9c Jc 9s",
    "Ac Tc Kc Td Jd 9d As",
)
STD_TALON = "Kd Th 9h"


def cards(text: str) -> int:
    """A hand string as a card mask."""
    return mask_of(parse_cards(text))


def russian(overrides: Mapping[str, object] | None = None) -> Rules:
    """The ``russian`` template with some parameters changed."""
    return RUSSIAN.with_overrides(overrides) if overrides else RUSSIAN


def new_deal(
    hands: Sequence[str] = STD_HANDS,
    talon: str = STD_TALON,
    *,
    dealer: int = 0,
    rules: Rules = RUSSIAN,
) -> DealState:
    """A deal as dealt, from hand strings by seat."""
    return DealState.new(rules, dealer, [cards(h) for h in hands], cards(talon))


def apply(state: DealState, *moves: str) -> DealState:
    """Apply record tokens one after another (each checked)."""
    for move in moves:
        state = state.apply(move)
    return state


def play(state: DealState, text: str) -> DealState:
    """Apply card tokens written in one string (``"As 9s Js"``)."""
    return apply(state, *text.split())


def legal(state: DealState) -> set[str]:
    """The legal moves as a set of record tokens."""
    moves = state.legal_moves()
    assert len(moves) == len(set(moves)), moves
    return set(moves)


def bids(*amounts: int) -> set[str]:
    return {str(a) for a in amounts}


def contracts(*amounts: int) -> set[str]:
    return {f"contract {a}" for a in amounts}


def tokens(text: str) -> set[str]:
    """A set of card tokens written in one string."""
    return set(text.split())


def auction_moves(rules: Rules, dealer: int, declarer: int, bid: int) -> list[str]:
    """The shortest auction that makes ``declarer`` the declarer at ``bid``."""
    order = [(dealer + 1 + i) % rules.players_count for i in range(rules.players_count)]
    if declarer == dealer and rules.bidding_forced == "dealer":
        assert bid == rules.bidding_min, "a forced dealer plays at bidding.min"
        return ["pass"] * (len(order) - 1)
    return [str(bid) if seat == declarer else "pass" for seat in order]


def setup(
    final: Sequence[str],
    *,
    declarer: int = 1,
    dealer: int = 0,
    bid: int = 100,
    contract: int | None = None,
    gives: Mapping[int, str] | None = None,
    rules: Rules = RUSSIAN,
) -> tuple[list[int], int, list[str]]:
    """The dealt hands, the talon and the moves up to the first lead, for ``final``: the hands
    by seat after passing (8, 8, 8).

    Each defender's passed card is ``gives[seat]`` or else the lowest card of its final hand;
    the talon is the two passed cards and the declarer's lowest card; the declarer bids ``bid``
    and names ``contract`` (default: the bid) where the rules ask for a contract.
    """
    masks = [cards(h) for h in final]
    defenders = [s for s in range(len(final)) if s != declarer]
    chosen = gives or {}
    given = {s: parse_card(chosen[s]) if s in chosen else cards_of(masks[s])[0] for s in defenders}
    kept = masks[declarer]
    talon = mask_of([*given.values(), cards_of(kept)[0]])
    hands = [masks[s] & ~(1 << given[s]) if s in given else 0 for s in range(len(final))]
    hands[declarer] = (kept | mask_of(given.values())) & ~talon
    moves = auction_moves(rules, dealer, declarer, bid)
    moves += [f"give {CARD_TEXT[c]} {s}" for s, c in given.items()]
    if rules.contract_raise:
        moves.append(f"contract {contract if contract is not None else bid}")
    return hands, talon, moves


def after_passing(
    final: Sequence[str],
    *,
    declarer: int = 1,
    dealer: int = 0,
    bid: int = 100,
    contract: int | None = None,
    gives: Mapping[int, str] | None = None,
    rules: Rules = RUSSIAN,
) -> DealState:
    """The deal at the first lead, with ``final`` the hands by seat after passing (see
    :func:`setup`)."""
    hands, talon, moves = setup(
        final,
        declarer=declarer,
        dealer=dealer,
        bid=bid,
        contract=contract,
        gives=gives,
        rules=rules,
    )
    state = apply(DealState.new(rules, dealer, hands, talon), *moves)
    assert state.to_act == declarer and not state.trick
    assert list(state.hands) == [cards(h) for h in final], "after_passing built the wrong hands"
    return state


def trick_moves(tricks: Iterable[str]) -> list[str]:
    """The card tokens of scripted tricks, in play order."""
    return [token for trick in tricks for token in trick.split(":")[1].split()]


def hands_from_tricks(tricks: Sequence[str], seats: int = 3) -> tuple[str, ...]:
    """The hands (after passing) that scripted tricks ``"1: As 9s Js"`` need, by seat."""
    held: list[list[str]] = [[] for _ in range(seats)]
    for trick in tricks:
        leader_text, plays = trick.split(":")
        seat = int(leader_text)
        for token in plays.split():
            held[seat].append(token.rstrip("+"))
            seat = (seat + 1) % seats
    for hand in held:
        for token in hand:
            parse_card(token)
    return tuple(" ".join(hand) for hand in held)


def play_tricks(state: DealState, tricks: Iterable[str]) -> DealState:
    """Play scripted tricks, checking that each is led by the seat it names."""
    for trick in tricks:
        leader_text, plays = trick.split(":")
        assert state.to_act == int(leader_text), (trick, state.to_act)
        assert not state.trick
        state = play(state, plays)
    return state


def scripted(
    tricks: Sequence[str],
    *,
    declarer: int = 1,
    dealer: int = 0,
    bid: int = 100,
    contract: int | None = None,
    rules: Rules = RUSSIAN,
    upto: int | None = None,
) -> DealState:
    """A deal whose play is ``tricks`` (all eight of them): the state after ``upto`` tricks
    (default: all, so the deal is over)."""
    start = after_passing(
        hands_from_tricks(tricks),
        declarer=declarer,
        dealer=dealer,
        bid=bid,
        contract=contract,
        rules=rules,
    )
    return play_tricks(start, tricks[: len(tricks) if upto is None else upto])


def outcome_of(state: DealState) -> DealOutcome:
    out = state.outcome
    assert out is not None, "the deal is not over"
    return out


# -- hand-built outcomes for the match pipeline (1.8, 1.9) ------------------------------------


def played(
    scores: Sequence[int],
    *,
    declarer: int = 0,
    contract: int = 100,
    made: bool = True,
    tricks: Sequence[int] = (3, 3, 2),
    deal_points: Sequence[int] | None = None,
    dealer: int = 2,
) -> DealOutcome:
    """A played deal: ``scores`` are the deal's changes before penalties and the barrel.

    ``deal_points`` defaults to the defenders' scores and, for the declarer, the contract when
    made and 0 when failed.
    """
    if deal_points is None:
        deal_points = [
            (contract if made else 0) if s == declarer else scores[s] for s in range(len(scores))
        ]
    n = len(scores)
    return DealOutcome(
        dealer,
        declarer,
        contract,
        contract,
        "made" if made else "failed",
        tuple(deal_points),
        ((),) * n,
        tuple(deal_points),
        tuple(tricks),
        tuple(scores),
    )


def written_off(declarer: int, contract: int, share: int | None = None, n: int = 3) -> DealOutcome:
    """A written-off deal: the declarer loses the contract, each opponent gains ``share``."""
    each = contract // 2 if share is None else share
    scores = tuple(-contract if s == declarer else each for s in range(n))
    return DealOutcome(
        (declarer + 2) % n,
        declarer,
        contract,
        contract,
        "written-off",
        None,
        ((),) * n,
        None,
        None,
        scores,
    )


def redealt(result: Result = "redealt", n: int = 3) -> DealOutcome:
    return DealOutcome(0, None, None, None, result, None, ((),) * n, None, None, (0,) * n)


def settle_all(
    match: MatchState, outcomes: Iterable[DealOutcome]
) -> tuple[MatchState, list[DealReport]]:
    """Settle deals one after another; the match after them and every report."""
    reports = []
    for out in outcomes:
        match, report = settle(match, out)
        reports.append(report)
    return match, reports


def events(report: DealReport) -> list[tuple[int, str]]:
    return [(e.seat, e.event) for e in report.events]


# -- scripted deals (all under seat 0 dealing, seat 1 declaring at 100 unless a test changes it) --
# Each trick is "leader: cards in play order"; the hands after passing follow from the tricks.

# Example 11 played out: seat 1 declares diamonds, then hearts on a lead that seat 2 ruffs with
# the 9 of diamonds. Card points 43 / 62 / 15, marriages 180 for seat 1.
DEAL_E11 = (
    "1: As 9s Qs",
    "1: Kd+ Jd Tc",
    "1: Kh+ 9d Ah",
    "2: Ts Ks Qh",
    "1: Ac 9c Kc",
    "1: Ad Jc 9h",
    "0: Th Qd Qc",
    "0: Jh Td Js",
)

# Example 2, first case: the declarer takes 98 card points (15 to seat 0, 7 to seat 2), no trump.
DEAL_2A = (
    "1: As Tc Th",
    "1: Ts Qc Kh",
    "1: Ks Jc Qh",
    "1: Qs Td Jh",
    "1: Js Jd 9h",
    "1: 9s Ad Ah",
    "1: 9c Kc Ac",
    "0: Qd 9d Kd",
)

# Example 2, second case: 57 card points and the spades marriage (seat 2 takes 63, seat 0 none).
DEAL_2B = (
    "1: As 9c 9d",
    "1: Ks+ Jc Jd",
    "1: Ts Qc Qd",
    "1: Qs Kc Kd",
    "1: Js Qh Jh",
    "1: 9s Kh 9h",
    "1: Tc Ac Th",
    "2: Ah Ad Td",
)

# Example 2, third case: 58 card points and the spades marriage (seat 2 takes 62, seat 0 none).
DEAL_2C = (
    "1: As Js 9d",
    "1: Ks+ 9c Jd",
    "1: Ts Jc Qd",
    "1: Qs Qc Kd",
    "1: 9s Kc Th",
    "1: Tc Ac Qh",
    "2: Ah Kh 9h",
    "2: Jh Ad Td",
)

# Example 3: defender seat 2 takes 67 card points and declares clubs; the declarer takes 53 and
# the last trick.
DEAL_EX3 = (
    "1: 9h Ah Th",
    "2: Kc+ Kh Jc",
    "2: Ac Qh 9c",
    "2: Tc Kd 9d",
    "2: Qc Qd Jh",
    "2: 9s Ks As",
    "1: Ts Js Qs",
    "1: Ad Jd Td",
)

# Card points 16 / 97 / 7: rounded 15 / 95 / 5, which add up to 115.
DEAL_UNEVEN = (
    "1: As Tc Th",
    "1: Ts Kc Kh",
    "1: Ks 9c Qh",
    "1: Qs Td Jh",
    "1: Js Jd 9h",
    "1: 9s Ad Ah",
    "1: Jc Qc Ac",
    "0: Qd 9d Kd",
)

# -- positions at the first lead (hands after passing, by seat 0, 1, 2) ----------------------

# Hearts: seat 1 holds Q 9, seat 2 A J, seat 0 K 10. No trump.
BEAT = ("Kh Th Js 9s Kd Qd Jd 9d", "Qh 9h Kc Qc Jc 9c Ks Qs", "Ah Jh Ac Tc As Ts Ad Td")

# After "1: As Js 9h", "1: Kd+ Td Jh", "2: 9c Ac Jc" diamonds are trump and seat 0 leads the ace
# of hearts: seat 1 (void) holds Qd 9d, seat 2 (void) holds Ad Jd.
OVERTRUMP = ("Ah Th Kh Qh Jh 9h Ac Tc", "As Ts 9s Kd Qd 9d Qc Jc", "Ad Td Jd Ks Qs Js Kc 9c")
OVERTRUMP_TRICKS = ("1: As Js 9h", "1: Kd+ Td Jh", "2: 9c Ac Jc")

# After "1: As Js 9h", "1: Kd+ Td Ad" diamonds are trump and seat 0 leads the ace of hearts:
# seat 1 (void) holds Qd 9d, seat 2 (void) holds only Jd among the trumps.
UNDERTRUMP = ("Ah Th Kh Qh Jh 9h Ac Ad", "As Ts 9s Kd Qd 9d Qc Jc", "Td Jd Ks Qs Js Kc Tc 9c")
UNDERTRUMP_TRICKS = ("1: As Js 9h", "1: Kd+ Td Ad")

# Example 12, third case: after "1: Ac 9c Jc", "1: Qd+ Ad Jd" diamonds are trump and seat 2
# leads the king of spades; seat 0 is void in spades, seat 1 holds As 9s.
SPADES_RUFFED = ("Jd 9d Tc Qc Jc Kh Qh Jh", "Ac Kd Qd As 9s Ah Th 9h", "Ad Td Ts Ks Qs Js Kc 9c")
SPADES_RUFFED_TRICKS = ("1: Ac 9c Jc", "1: Qd+ Ad Jd")

# Example 12, second case: after "1: As Js 9s", "1: Kh+ Th 9h", "2: 9c Jc Ac" hearts are trump,
# seat 1 leads the queen of hearts and seat 2 holds Ah Jh.
TRUMP_LED = ("9h Tc Kc Qc Jc Ts Qs 9s", "As Kh Qh Ac Kd Qd Jd 9d", "Ah Th Jh 9c Ks Js Ad Td")
TRUMP_LED_TRICKS = ("1: As Js 9s", "1: Kh+ Th 9h", "2: 9c Jc Ac")

# Seat 1 holds the four aces.
FOUR_ACES = ("Th Kh Qh Jh Ts Ks Qs Js", "Ac Ad Ah As 9c 9d 9h 9s", "Tc Kc Qc Jc Td Kd Qd Jd")
