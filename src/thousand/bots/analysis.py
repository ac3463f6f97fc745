"""Open-card analysis of played deals: what the declarer could have made with every card known,
and which card plays gave points away against the solver."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import action_text
from ..engine.auction import amounts_between
from ..engine.deal import Deal, Phase
from ..engine.game import DealLog
from ..engine.scoring import score
from ..rules import Rules
from .solver import Solver, declarer_points, declarer_side, points_needed


@dataclass(frozen=True, slots=True)
class Slip:
    """A card play that let the declarer's open-card value move the wrong way for its side."""

    trick: int
    seat: int
    played: str
    cost: int
    best: str


@dataclass(frozen=True, slots=True)
class MoveValues:
    """One card play of the play phase against the solver: the declarer's final points (raw:
    cards, marriages, bonus) after each legal action of the seat to act, best play afterwards."""

    #: the move's index among the deal's moves (the position before it is step ``index`` of a
    #: replay, the one after it step ``index + 1``)
    index: int
    trick: int
    seat: int
    #: action -> the declarer's final points after it
    values: dict[int, int]
    played: int
    #: the points the played action gave away against the best one for its side (0: none)
    cost: int
    #: whether the seat plays for the declarer (the declarer, or its partner)
    declarer_side: bool


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    number: int
    result: str
    declarer: int | None
    contract: int | None
    #: the declarer's points (raw: cards, marriages, bonus) with best play from the first lead
    open_value: int | None
    #: the highest contract those points make
    open_contract: int | None
    #: the declarer's points as played
    played_value: int | None
    slips: tuple[Slip, ...]
    #: every card play the solver valued, in order
    moves: tuple[MoveValues, ...] = ()


def analyze_deal(rules: Rules, number: int, log: DealLog) -> DealAnalysis:
    """Replay a deal's moves and solve every position of its play phase."""
    d = Deal.from_dealt(rules, log.dealer, log.dealt)
    moves = list(log.moves)
    while moves and d.phase is not Phase.PLAY and d.phase is not Phase.DONE:
        d.apply(moves.pop(0))
    if d.phase is not Phase.PLAY:
        declarer = d.declarer if d.declarer >= 0 else None
        contract = d.contract if d.contract > 0 else None
        return DealAnalysis(
            number, d.result or "unfinished", declarer, contract, None, None, None, ()
        )
    start = declarer_points(d)
    open_value = start + Solver(d).value()
    slips = []
    valued = []
    trick = 1
    first = len(log.moves) - len(moves)
    for index, action in enumerate(moves, start=first):
        if d.phase is not Phase.PLAY:
            break
        seat = d.to_act
        values = Solver(d).move_values()
        if action in values:
            mine = seat in declarer_side(d)
            best_value = max(values.values()) if mine else min(values.values())
            cost = best_value - values[action] if mine else values[action] - best_value
            if cost > 0:
                best = [a for a, v in values.items() if v == best_value]
                slips.append(Slip(trick, seat, action_text(action), cost, action_text(min(best))))
            have = declarer_points(d)
            final = {a: have + v for a, v in values.items()}
            valued.append(MoveValues(index, trick, seat, final, action, cost, mine))
        before = len(d.completed)
        d.apply(action)
        trick += len(d.completed) - before
    grid = amounts_between(rules, rules.bidding_min, 1000)
    made = max((x for x in grid if points_needed(d, x) <= open_value), default=None)
    over = d.to_act < 0
    played_value = declarer_points(d) if over else None
    return DealAnalysis(
        number,
        score(d).result if over else "unfinished",
        d.declarer,
        d.contract,
        open_value,
        made,
        played_value,
        tuple(slips),
        tuple(valued),
    )
