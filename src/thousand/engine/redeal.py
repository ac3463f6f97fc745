"""Redeals asked for by a seat (rules.md part 2, deal and redeal): the ``redeal`` move.

A dealt hand's redeal (``redeal.four_nines``, ``redeal.three_nines``, ``redeal.four_jacks``,
``redeal.weak_hand``) is asked before the auction's first move, the entitled seats in turn from
forehand: each may move ``redeal`` or decline with ``pass`` (where the rule is mandatory, only
``redeal``). A talon redeal (``redeal.bad_talon``, ``redeal.two_nines_in_talon``) is the
declarer's, right after the talon is shown. A redeal ends the deal: the same dealer deals again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import ACE, JACK, NINE, marriage_suits, points_of
from ..rules import Rules
from .actions import PASS, REDEAL

if TYPE_CHECKING:
    from .deal import Deal

_NINES = sum(1 << (6 * s + NINE) for s in range(4))
_JACKS = sum(1 << (6 * s + JACK) for s in range(4))
_ACES = sum(1 << (6 * s + ACE) for s in range(4))


def hand_rules_on(rules: Rules) -> bool:
    return (
        rules.redeal_four_nines != "off"
        or rules.redeal_three_nines != "off"
        or rules.redeal_four_jacks != "off"
        or rules.redeal_weak_hand != "off"
    )


def weak(rules: Rules, hand: int) -> bool:
    """``redeal.weak_hand``: strict = no marriage, no ace, at most 10 card points; loose = no
    marriage, no ace; counted = card points below ``redeal.weak_hand_below``."""
    mode = rules.redeal_weak_hand
    if mode == "off":
        return False
    if mode == "counted":
        return points_of(hand) < rules.redeal_weak_hand_below
    if marriage_suits(hand) or hand & _ACES:
        return False
    return mode == "loose" or points_of(hand) <= 10


def entitlement(rules: Rules, hand: int) -> str:
    """``mandatory``, ``optional`` or ``off``: what a dealt hand entitles its seat to."""
    modes = []
    nines = (hand & _NINES).bit_count()
    if nines == 4:
        modes.append(rules.redeal_four_nines)
    if nines == 3:
        modes.append(rules.redeal_three_nines)
    if hand & _JACKS == _JACKS:
        modes.append(rules.redeal_four_jacks)
    if weak(rules, hand):
        modes.append("optional")
    if "mandatory" in modes:
        return "mandatory"
    return "optional" if "optional" in modes else "off"


def askers(rules: Rules, dealt: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, ...]:
    """The seats entitled to a dealt hand's redeal, from forehand."""
    return tuple(s for s in order if entitlement(rules, dealt[s]) != "off")


def legal(d: Deal) -> list[int]:
    seat = d.to_act
    if entitlement(d.rules, d.dealt[seat]) == "mandatory":
        return [REDEAL]
    return [REDEAL, PASS]


def apply(d: Deal, action: int) -> None:
    if action == REDEAL:
        d.finish("redealt")
        return
    left = d.askers[1:]
    d.askers = left
    if left:
        d.to_act = left[0]
    else:
        d.start_auction()


def talon_redeal(d: Deal) -> bool:
    """Whether the declarer may ask for a redeal now that the talon is shown (before the first
    card is handed over): a bad talon, or two 9s in it, at any contract or only at the minimum."""
    rules = d.rules
    talon = d.talon
    for mode, hit in (
        (rules.redeal_bad_talon, points_of(talon) < rules.redeal_bad_talon_below),
        (rules.redeal_two_nines_in_talon, (talon & _NINES).bit_count() == 2),
    ):
        if mode != "off" and hit and (mode == "any" or d.bid == rules.bidding_min):
            return True
    return False


def explain(d: Deal, seat: int, action: int) -> str:
    """Why a pass is not allowed: the seat's redeal is mandatory."""
    return f"seat {seat}'s redeal is mandatory: its only move is redeal"
