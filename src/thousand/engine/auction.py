"""The auction (rules.md 1.3 and the ``bidding.*`` parameters)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from ..cards import SUIT_NAMES, marriage_suits
from ..rules import Rules
from . import actions as A
from .actions import BID, BLIND, MISERE, NAMED_AMOUNT, PASS
from .flags import BLIND_HIGH

if TYPE_CHECKING:
    from .deal import Deal

_GRID_TOP = 1000


_GRIDS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def amount_grid(rules: Rules) -> tuple[int, ...]:
    """Every amount that keeps the bidding steps: multiples of ``bidding.step`` below
    ``bidding.big_step_from``, of ``bidding.big_step`` from there."""
    key = (rules.bidding_step, rules.bidding_big_step, rules.bidding_big_step_from)
    grid = _GRIDS.get(key)
    if grid is None:
        step, big, start = key
        grid = tuple(x for x in range(_GRID_TOP + 1) if x % (step if x < start else big) == 0)
        _GRIDS[key] = grid
    return grid


def amounts_between(rules: Rules, lo: int, hi: int) -> tuple[int, ...]:
    """The amounts on the grid from ``lo`` to ``hi``, both included."""
    grid = amount_grid(rules)
    return grid[bisect_left(grid, lo) : bisect_right(grid, hi)]


_BIDS: dict[tuple[int, int, int, int, int], tuple[int, ...]] = {}


def bid_actions(rules: Rules, lo: int, hi: int) -> tuple[int, ...]:
    """The bid actions from ``lo`` to ``hi`` on the grid (memoised: the auction's hot path)."""
    key = (rules.bidding_step, rules.bidding_big_step, rules.bidding_big_step_from, lo, hi)
    acts = _BIDS.get(key)
    if acts is None:
        acts = _BIDS[key] = tuple(BID + x for x in amounts_between(rules, lo, hi))
    return acts


def on_grid(rules: Rules, amount: int) -> bool:
    step = rules.bidding_step if amount < rules.bidding_big_step_from else rules.bidding_big_step
    return amount % step == 0


def bid_limit(d: Deal, seat: int) -> int:
    """The highest bid ``seat`` may make (``bidding.max`` and ``bidding.marriage_cap``)."""
    rules = d.rules
    cap = rules.bidding_max
    mode = rules.bidding_marriage_cap
    if mode == "off":
        return cap
    suits = marriage_suits(d.dealt[seat])
    if mode == "needs-marriage":
        return cap if suits else min(cap, 120)
    return min(cap, 120 + sum(rules.marriage_values[s] for s in suits))


def blind_limit(rules: Rules) -> int:
    """The highest blind bid: ``bidding.max``, or 120 under a marriage cap (a seat that has not
    looked at its hand cannot show a marriage)."""
    return rules.bidding_max if rules.bidding_marriage_cap == "off" else min(rules.bidding_max, 120)


def may_bid_blind(d: Deal, seat: int) -> bool:
    """``bidding.blind`` first-bid: ``seat`` has not spoken yet and is not kept silent."""
    return d.rules.bidding_blind == "first-bid" and not d.spoke(seat) and not d.silent >> seat & 1


def named_worth(rules: Rules, kind: int) -> int:
    """What a named contract (1 misère, 2 open hand, 3 slam) is worth; 0 where it is not played."""
    worth = (None, rules.special_misere, rules.special_open_hand, rules.special_slam)[kind]
    return worth or 0


def named_bids(d: Deal, seat: int) -> list[int]:
    """The named bids ``seat`` may make: those the table plays, above the high bid (a named bid
    outranks every number; misère < open hand < slam)."""
    rules = d.rules
    if d.silent >> seat & 1:
        return []
    return [
        MISERE + kind - 1
        for kind in (1, 2, 3)
        if NAMED_AMOUNT + kind > d.high_bid and named_worth(rules, kind)
    ]


def lowest_bid(d: Deal) -> int:
    return d.high_bid + 1 if d.high_bid else d.rules.bidding_min


def must_bid(d: Deal, seat: int) -> bool:
    """Whether ``seat`` may not pass now (``bidding.forced`` forehand or last-seat)."""
    forced = d.rules.bidding_forced
    if forced == "forehand":
        return seat == d.order[0] and not d.spoke(seat)
    if forced == "last-seat":
        return d.high_bid == 0 and d.passed.bit_count() == d.k - 1
    return False


def legal(d: Deal) -> list[int]:
    seat = d.to_act
    rules = d.rules
    lo = d.high_bid + 1 if d.high_bid else rules.bidding_min
    hi = rules.bidding_max if rules.bidding_marriage_cap == "off" else bid_limit(d, seat)
    acts = [*bid_actions(rules, lo, hi)]
    if rules.bidding_blind != "off" and may_bid_blind(d, seat):
        acts.extend(a - BID + BLIND for a in bid_actions(rules, lo, blind_limit(rules)))
    if rules.special_misere or rules.special_slam or rules.special_open_hand:
        acts.extend(named_bids(d, seat))
    forced = rules.bidding_forced
    if not acts or (forced != "forehand" and forced != "last-seat") or not must_bid(d, seat):
        if d.silent >> seat & 1:
            return [PASS]  # bidding.silence_below: silent unless forced
        acts.append(PASS)
    return acts


def apply(d: Deal, action: int) -> None:
    seat = d.to_act
    bit = 1 << seat
    if action == PASS:
        if d.passed & bit:  # bidding.reentry: a second pass is final
            d.reentered |= bit
        d.passed |= bit
        d.auction = (*d.auction, (seat, 0))
    else:
        if d.passed & bit:  # bidding.reentry: back in, once
            d.passed &= ~bit
            d.reentered |= bit
        if action < BLIND:  # a named bid (special.*): above every number
            amount = NAMED_AMOUNT + action - MISERE + 1
            d.special &= ~BLIND_HIGH
        elif action < BID:  # bidding.blind: a blind first bid
            amount = action - BLIND
            d.blinds |= bit
            d.special |= BLIND_HIGH
        else:
            amount = action - BID
            d.special &= ~BLIND_HIGH
        d.high_bid = amount
        d.auction = (*d.auction, (seat, amount))
    _next(d, seat)


def _next(d: Deal, seat: int) -> None:
    left = d.active_mask & ~d.passed
    count = left.bit_count()
    if count == 1 and d.high_bid:
        d.end_auction(left.bit_length() - 1, d.high_bid)
        return
    if not count:
        _all_passed(d)
        return
    if count == 1:
        last = left.bit_length() - 1
        forced = d.rules.bidding_forced
        if forced == "dealer" and last == d.dealer:
            d.end_auction(last, d.rules.bidding_min)
            return
        if forced != "last-seat" or d.spoke(last):
            _all_passed(d)
            return
        d.to_act = last
        return
    if d.rules.bidding_reentry:
        # a seat that passed once may bid once more when its turn comes round again
        left |= d.passed & ~d.reentered & d.active_mask
    s = d.next_seat(seat)
    while not left >> s & 1:
        s = d.next_seat(s)
    d.to_act = s


def _all_passed(d: Deal) -> None:
    """Nobody bid and nothing is forced: ``redeal.all_pass`` decides."""
    mode = d.rules.redeal_all_pass
    if mode == "raspasy":
        d.start_raspasy()
        return
    d.finish("redealt" if mode == "redeal" else "passed-on")


def _explain_blind(d: Deal, seat: int, amount: int) -> str:
    rules = d.rules
    if rules.bidding_blind == "off":
        return "no blind bids at this table (`bidding.blind` off)"
    if d.spoke(seat):
        return f"seat {seat} has spoken already: only a seat's first bid may be blind"
    if d.silent >> seat & 1:
        return (
            f"seat {seat} may not bid: its total is below {rules.bidding_silence_below}"
            " (`bidding.silence_below`)"
        )
    limit = blind_limit(rules)
    if amount > limit and limit < rules.bidding_max:
        return (
            f"blind {amount} is above {limit}, the highest blind bid (`bidding.marriage_cap`"
            f" {rules.bidding_marriage_cap}: a blind bidder shows no marriage)"
        )
    return explain(d, seat, A.BID + amount).replace("bid ", "blind ", 1)


_NAMED_PARAMS = ("", "special.misere", "special.open_hand", "special.slam")


def _explain_named(d: Deal, seat: int, kind: int) -> str:
    word = A.NAMED_WORDS[kind]
    if not named_worth(d.rules, kind):
        return f"no {word} bid at this table (`{_NAMED_PARAMS[kind]}` none)"
    if d.silent >> seat & 1:
        return (
            f"seat {seat} may not bid: its total is below {d.rules.bidding_silence_below}"
            " (`bidding.silence_below`); it may only pass"
        )
    high = d.high_bid - A.NAMED_AMOUNT
    return f"{word} does not outrank the current bid {A.NAMED_WORDS[high]} (misere < open < slam)"


def explain(d: Deal, seat: int, action: int) -> str:
    """Why bid or pass ``action`` of ``seat`` is not allowed in the auction."""
    rules = d.rules
    if A.is_blind(action):
        return _explain_blind(d, seat, action - A.BLIND)
    if A.is_named(action):
        return _explain_named(d, seat, A.named_kind(action))
    if action == A.PASS:
        if rules.bidding_forced == "forehand":
            return (
                f"forehand (seat {seat}) may not pass its first turn: it must bid "
                f"(`bidding.forced` forehand)"
            )
        return (
            f"seat {seat} may not pass: all the others passed, it must bid "
            f"(`bidding.forced` last-seat)"
        )
    amount = action - A.BID
    if d.high_bid > A.NAMED_AMOUNT:
        word = A.NAMED_WORDS[d.high_bid - A.NAMED_AMOUNT]
        return f"bid {amount} is below the named bid {word}: a named bid outranks every number"
    if d.silent >> seat & 1 and not must_bid(d, seat):
        return (
            f"seat {seat} may not bid: its total is below {rules.bidding_silence_below}"
            " (`bidding.silence_below`); it may only pass"
        )
    if d.high_bid == 0 and amount < rules.bidding_min:
        return f"bid {amount} is below the lowest bid {rules.bidding_min} (first bid)"
    if amount < lowest_bid(d):
        return f"bid {amount} does not exceed the current bid {d.high_bid}"
    limit = bid_limit(d, seat)
    if amount > limit:
        if limit < rules.bidding_max:
            held = ", ".join(
                f"{SUIT_NAMES[s]} {rules.marriage_values[s]}" for s in marriage_suits(d.dealt[seat])
            )
            return (
                f"bid {amount} is above seat {seat}'s limit {limit} "
                f"(`bidding.marriage_cap` {rules.bidding_marriage_cap}; marriages in its dealt "
                f"hand: {held or 'none'})"
            )
        return f"bid {amount} is above {rules.bidding_max}, the highest bid"
    if not on_grid(rules, amount):
        step = (
            rules.bidding_step if amount < rules.bidding_big_step_from else rules.bidding_big_step
        )
        return f"bid {amount} is not a multiple of {step}"
    if must_bid(d, seat):
        return f"seat {seat} must bid"
    return f"bid {amount} is not allowed here"
