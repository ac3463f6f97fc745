"""Deal scoring (rules.md 1.7 and 1.4 rule 2): a finished deal becomes a :class:`DealOutcome`.

What depends only on the deal is scored here; what depends on the running totals (the penalties
of 1.8, the barrel of 1.9, ``scoring.only_bids_above``) is the match's business
(:mod:`thousand.engine.match`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..cards import ACE, NINE, marriage_suits, points_of
from ..rules import Rules
from .contra import factor
from .deal import Deal, Phase
from .flags import BLIND_HIGH, RASPASY

Result = Literal[
    "made", "failed", "written-off", "conceded", "bought-back", "redealt", "passed-on", "raspasy"
]
"""A scored deal's result (a record's ``result``, less ``unfinished``)."""
PLAYED_RESULTS: tuple[Result, ...] = ("made", "failed")


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """What a finished deal did, before the match's rules: a value.

    ``scores`` is each seat's change from the deal itself (the contract won or lost, the
    defenders' deal scores, the write-off amounts), before penalties and the barrel.
    """

    dealer: int
    declarer: int | None
    bid: int | None
    contract: int | None
    result: Result
    card_points: tuple[int, ...] | None
    marriages: tuple[tuple[int, ...], ...]
    deal_points: tuple[int, ...] | None
    tricks: tuple[int, ...] | None
    scores: tuple[int, ...]
    #: per seat, what the deal adds to the change apart from the deal score and that
    #: ``scoring.only_bids_above`` does not stop (``marriage.four_nines_bonus``); () for none
    extras: tuple[int, ...] = ()
    #: the dealer who sat out the deal (``players.layout`` dealer-sits-out), or None
    sitter: int | None = None
    #: a golden deal (``golden.deals``)
    golden: bool = False
    #: the contract was bid blind (``bidding.blind``)
    blind: bool = False

    @property
    def played(self) -> bool:
        """Whether tricks were played to the end (made or failed)."""
        return self.result in PLAYED_RESULTS


def round_points(points: int, to: int) -> int:
    """Card points rounded half up to a multiple of ``to`` (73 → 75, 72 → 70 for 5)."""
    return (points + to // 2) // to * to


def writeoff_share(rules: Rules, contract: int, opponents: int) -> int:
    """What each opponent gains from a write-off (``writeoff.opponents_get``)."""
    mode = rules.writeoff_opponents_get
    if mode == "half-bid":
        return contract // 2
    if mode == "equal-split":
        return contract // opponents
    return rules.writeoff_fixed


_NINES = [sum(1 << (6 * s + NINE) for s in range(4))]


def four_nines(rules: Rules, dealt: tuple[int, ...]) -> tuple[int, ...]:
    """``marriage.four_nines_bonus`` for each seat dealt the four 9s; () where none is."""
    bonus = rules.marriage_four_nines_bonus
    nines = _NINES[0]
    if not bonus or not any(h & nines == nines for h in dealt):
        return ()
    return tuple(bonus if h & nines == nines else 0 for h in dealt)


def sitter_score(rules: Rules, talon: int) -> int:
    """What a sitting dealer scores from the talon (``four.sitter_scores``)."""
    mode = rules.four_sitter_scores
    if mode == "nothing":
        return 0
    pairs = sum(rules.marriage_values[s] for s in marriage_suits(talon))
    if mode == "aces-50-and-marriage":
        aces = sum(1 for s in range(4) if talon >> (6 * s + ACE) & 1)
        return 50 * aces + pairs
    points = round_points(points_of(talon), rules.scoring_round_to)
    return points + pairs if mode == "talon-points-and-marriage" else points


def half_marriages(rules: Rules, d: Deal, bonus: list[int]) -> None:
    """``marriage.half_bonus``: a seat that captured both the K and Q of a suit in tricks, that
    marriage not declared, adds the bonus to its deal score (once per such suit)."""
    declared = {s for seat in d.marriages for s in seat}
    for seat in range(d.n):
        won = d.won[seat]
        for suit in marriage_suits(won):
            if suit not in declared:
                bonus[seat] += rules.marriage_half_bonus


def named_made(d: Deal, side: list[int], check: int) -> bool:
    """Whether a named contract is made: misère, the declarer's side took no trick; slam, it
    took every trick; open hand, its deal score reached ``bidding.min``."""
    taken = sum(d.tricks[s] for s in side)
    if d.named == 1:
        return taken == 0
    if d.named == 3:
        return taken == len(d.completed)
    return check >= d.rules.bidding_min


def score(d: Deal) -> DealOutcome:
    """Score a finished deal."""
    if d.phase is not Phase.DONE or d.result is None:
        raise ValueError("the deal is not over")
    rules = d.rules
    n = d.n
    marriages = tuple(d.marriages)
    sitter = d.sitter if d.sitter >= 0 else None
    if d.result in ("redealt", "passed-on"):
        return DealOutcome(
            d.dealer,
            None,
            None,
            None,
            d.result,
            None,
            marriages,
            None,
            None,
            (0,) * n,
            sitter=sitter,
        )
    if d.special & RASPASY:  # raspasy: each seat loses its own rounded card points
        points = [points_of(m) for m in d.won]
        rounded = [round_points(p, rules.scoring_round_to) for p in points]
        return DealOutcome(
            d.dealer,
            None,
            None,
            None,
            "raspasy",
            tuple(points),
            marriages,
            tuple(rounded),
            tuple(d.tricks),
            tuple(-r for r in rounded),
            (),
            sitter,
            d.golden,
        )
    decl = d.declarer
    partner = d.partner(decl)
    extras = four_nines(rules, d.dealt)
    # The declarer's opponents: the other active seats, less its partner (part 2, partnerships).
    others = [s for s in d.order if s != decl and s != partner]
    if d.result == "bought-back":
        # talon.buyback: the declarer pays the cost and the same dealer deals again
        scores = [0] * n
        scores[decl] = -rules.talon_buyback_cost
        return DealOutcome(
            d.dealer,
            decl,
            d.bid,
            d.contract,
            "redealt",
            None,
            marriages,
            None,
            None,
            tuple(scores),
            (),
            sitter,
            d.golden,
        )
    if d.result == "conceded":
        # bidding.forced_concession: the contract lost, the others gain it split or each whole
        each = rules.bidding_forced_concession == "each-full"
        share = d.contract if each else d.contract // len(others)
        scores = [share if s in others else 0 for s in range(n)]
        scores[decl] = -d.contract
        return DealOutcome(
            d.dealer,
            decl,
            d.bid,
            d.contract,
            "conceded",
            None,
            marriages,
            None,
            None,
            tuple(scores),
            (),
            sitter,
            d.golden,
        )
    if d.result == "written-off":
        share = writeoff_share(rules, d.contract, len(others))
        scores = [share if s in others else 0 for s in range(n)]
        scores[decl] = -d.contract
        return DealOutcome(
            d.dealer,
            decl,
            d.bid,
            d.contract,
            "written-off",
            None,
            marriages,
            None,
            None,
            tuple(scores),
            extras,
            sitter,
            d.golden,
        )
    card_points = [points_of(m) for m in d.won]
    marriage_points = [d.marriage_points(s) for s in range(n)]
    bonus = [0] * n
    if rules.play_last_trick_bonus and d.completed:
        bonus[d.completed[-1][2]] += rules.play_last_trick_bonus
    if rules.marriage_half_bonus:
        half_marriages(rules, d, bonus)
    deal_points = [
        round_points(card_points[s], rules.scoring_round_to) + marriage_points[s] + bonus[s]
        for s in range(n)
    ]
    if sitter is not None:
        deal_points[sitter] = sitter_score(rules, d.talon)
    side = [decl] if partner < 0 or partner == sitter else [decl, partner]
    if rules.scoring_round_before_check:
        check = sum(deal_points[s] for s in side)
    else:
        check = sum(card_points[s] + marriage_points[s] + bonus[s] for s in side)
    if d.named:
        made = named_made(d, side, check)
    else:
        made = check >= d.contract
    stake = d.contract * factor(d) if d.special else d.contract
    if d.golden and rules.golden_contract_doubled:
        stake *= 2
    scores = [deal_points[s] if s in others else 0 for s in range(n)]
    if rules.scoring_pooled_defenders and others:
        pooled = sum(deal_points[s] for s in others) // len(others)
        for s in others:
            scores[s] = pooled
    if sitter is not None and partner < 0:
        scores[sitter] = deal_points[sitter]
    if made:
        gains = rules.scoring_declarer_gains
        if gains == "contract" or d.named:  # a named contract gains its worth, no more
            scores[decl] = stake
        elif gains == "max-of-contract-and-score":
            scores[decl] = max(stake, sum(deal_points[s] for s in side))
        else:
            scores[decl] = sum(deal_points[s] for s in side) + stake
        slam = rules.play_slam
        if slam != "off" and not d.named and len(d.completed) == sum(d.tricks[s] for s in side):
            scores[decl] += rules.play_slam_bonus if slam == "fixed" else d.contract
    else:
        scores[decl] = -stake
        mode = rules.scoring_failed_contract
        if mode != "lost":
            share = d.contract // len(others) if mode == "split-to-defenders" else d.contract
            for s in others:
                scores[s] += share
    return DealOutcome(
        d.dealer,
        decl,
        d.bid,
        d.contract,
        "made" if made else "failed",
        tuple(card_points),
        marriages,
        tuple(deal_points),
        tuple(d.tricks),
        tuple(scores),
        extras,
        sitter,
        d.golden,
        bool(d.special & BLIND_HIGH),
    )
