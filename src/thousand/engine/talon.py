"""Take-and-pass (rules.md 1.4): write-off, passing a card to each opponent, the contract."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import CARD_TEXT, card_list, hand_text, marriage_suits
from . import actions as A
from .actions import CONTRACT, GIVE, REDEAL, WRITE_OFF
from .auction import amounts_between
from .redeal import talon_redeal

if TYPE_CHECKING:
    from .deal import Deal


def receivers_left(d: Deal) -> list[int]:
    """The seats still due a card from the declarer, in seat order."""
    return [s for s in d.order if s != d.declarer and d.given[s] < 0]


def may_write_off(d: Deal) -> bool:
    """The write-off window: after the talon is taken, before the first card is passed."""
    return d.rules.writeoff_allowed and d.given.count(-1) == d.n


def may_redeal(d: Deal) -> bool:
    """A talon redeal (``redeal.bad_talon``, ``redeal.two_nines_in_talon``): right after the
    talon is shown, before the first card is passed."""
    rules = d.rules
    if rules.redeal_bad_talon == "off" and rules.redeal_two_nines_in_talon == "off":
        return False
    return d.given.count(-1) == d.n and talon_redeal(d)


def legal_gives(d: Deal, cards: int) -> list[int]:
    """The write-off and the talon redeal while their window is open, then a give of each of
    ``cards`` (a mask) to each seat still due one: passing gives from the declarer's hand, the
    hand-over of rules.md part 4 from the talon's pool."""
    acts = [WRITE_OFF] if may_write_off(d) else []
    if may_redeal(d):
        acts.append(REDEAL)
    listed = card_list(cards)
    for seat in receivers_left(d):
        base = GIVE + seat * 24
        acts += [base + c for c in listed]
    return acts


def apply_give(d: Deal, action: int, from_pool: bool) -> None:
    """One of :func:`legal_gives`: the card leaves the pool (``from_pool``) or the declarer's
    hand; the phase ends when every seat due a card has one."""
    if action == WRITE_OFF:
        d.finish("written-off")
        return
    if action == REDEAL:
        d.finish("redealt")
        return
    seat, c = divmod(action - GIVE, 24)
    if from_pool:
        d.pool ^= 1 << c
    else:
        d.hands[d.declarer] ^= 1 << c
    d.hands[seat] |= 1 << c
    given = d.given = (*d.given[:seat], c, *d.given[seat + 1 :])
    if given.count(-1) == d.n - d.k + 1:
        d.end_passing()


def legal_passing(d: Deal) -> list[int]:
    return legal_gives(d, d.hands[d.declarer])


def apply_passing(d: Deal, action: int) -> None:
    apply_give(d, action, from_pool=False)


def contract_limit(d: Deal) -> int:
    """The highest contract the declarer may name (``contract.raise_limit``): achievable counts
    the marriages in its hand now, or as dealt while the talon is unseen."""
    limit = d.rules.contract_raise_limit
    if isinstance(limit, int):
        return limit
    values = d.rules.marriage_values
    hand = d.hands[d.declarer] if d.talon_open else d.dealt[d.declarer]
    return 120 + sum(values[s] for s in marriage_suits(hand))


def legal_contract(d: Deal) -> list[int]:
    lo = d.bid
    hi = contract_limit(d)
    return [CONTRACT + lo] + [CONTRACT + x for x in amounts_between(d.rules, lo + 1, hi)]


def apply_contract(d: Deal, action: int) -> None:
    d.contract = action - CONTRACT
    if d.rules.contract_before_talon and not d.talon_open:
        d.reveal()
    else:
        d.start_play()


def explain_passing(d: Deal, seat: int, action: int) -> str:
    if action == A.WRITE_OFF:
        if not d.rules.writeoff_allowed:
            return "write-off is not allowed at this table (`writeoff.allowed` false)"
        if not may_write_off(d):
            return "the write-off window closed when the declarer passed its first card"
        return "write-off is not allowed here"
    if action == A.REDEAL:
        return "the declarer may not ask for a redeal with this talon now"
    c, target = A.give_parts(action)
    if d.pool and not d.pool >> c & 1:
        where = (
            "it was already handed over"
            if any(g == c for g in d.given)
            else "the declarer gives only talon cards"
        )
        return f"{CARD_TEXT[c]} is not in the talon ({where}; left: {hand_text(d.pool)})"
    if not d.pool and not d.hands[seat] >> c & 1:
        return f"the declarer (seat {seat}) gives {CARD_TEXT[c]}, which it does not hold"
    if target == seat:
        return f"the declarer (seat {seat}) gives {CARD_TEXT[c]} to itself"
    if target >= d.n or target not in d.order:
        return f"seat {target} takes no part in this deal"
    if d.given[target] >= 0:
        return f"seat {target} already got a card from the declarer"
    return f"give {CARD_TEXT[c]} {target} is not allowed here"


def explain_contract(d: Deal, amount: int) -> str:
    if amount < d.bid:
        return f"contract {amount} is below the bid {d.bid}: the contract never goes down"
    limit = max(contract_limit(d), d.bid)
    if amount > limit:
        return (
            f"contract {amount} is above the limit {limit} "
            f"(120 plus the marriages the declarer holds, or the bid itself)"
        )
    return f"contract {amount} breaks the bidding steps (bid {d.bid}, limit {limit})"
