"""Why a move is illegal, in a player's words (the message of :class:`IllegalAction`): each
phase's module says why for its own moves (``auction.explain``, ``talon.explain_passing``,
``tricks.explain``, ...), as it says which are legal; this module says what is due when a move
of another phase is sent, and hands the rest to the phase.

:func:`explain` is what the seat to act is told: it reads only what that seat may know (its
own cards, the public state), so a refusal is the same wherever the hidden cards lie.
:func:`whereabouts` adds, for a referee who sees every card (a record's replay, the tests),
where a card the seat does not hold lies.
"""

from __future__ import annotations

from . import actions as A
from . import auction, choose_talon, contra, redeal, talon, tricks
from .choose_talon import discards_due
from .deal import Deal, Phase


def _what_is_due(d: Deal) -> str:
    seat = d.to_act
    if d.phase is Phase.AUCTION:
        return f"seat {seat} must bid or pass"
    if d.phase is Phase.PASSING:
        if d.pool:
            return f"the declarer (seat {seat}) must hand a talon card to each opponent"
        return f"the declarer (seat {seat}) must pass a card to each opponent"
    if d.phase is Phase.TALON:
        return f"the declarer (seat {seat}) must choose a talon (talon 0 or talon 1)"
    if d.phase is Phase.REDEAL:
        return f"seat {seat} must say whether it wants a redeal (redeal or pass)"
    if d.phase is Phase.CONTRA:
        return f"seat {seat} must double or decline (contra, recontra or pass)"
    if d.phase is Phase.REBUY:
        return f"seat {seat} may take the contract over (rebuy) or pass"
    if d.phase is Phase.CONCESSION:
        return f"the declarer (seat {seat}) must decide before the talon (concede, buyback or pass)"
    if d.phase is Phase.DISCARD:
        return f"the declarer (seat {seat}) must discard {discards_due(d)} more card(s)"
    if d.phase is Phase.CONTRACT:
        return f"the declarer (seat {seat}) must name its contract (contract {d.bid} or more)"
    return f"seat {seat} must play a card"


def whereabouts(d: Deal, action: int) -> str:
    """For a referee: where the card of a play or a give that the seat to act does not hold
    lies (" (seat 2's hand)"), or "" for any other move. Never for a seat: it names hidden
    cards."""
    if d.phase is Phase.DONE:
        return ""
    seat = d.to_act
    if d.phase is Phase.PLAY and A.is_play(action):
        c = A.played_card(action)
        owner = _holder(d, c)
        if owner == seat:
            return ""
        return f" (seat {owner}'s hand)" if owner is not None else " (it was played)"
    if d.phase is Phase.PASSING and A.is_give(action) and not d.pool:
        owner = _holder(d, A.give_parts(action)[0])
        return f" (seat {owner} holds it)" if owner not in (None, seat) else ""
    return ""


def _holder(d: Deal, c: int) -> int | None:
    return next((s for s in range(d.n) if d.hands[s] >> c & 1), None)


def explain(d: Deal, action: int) -> str:
    """The reason ``action`` is illegal in ``d`` (assumes it is), from what the seat to act may
    know: its own cards and the public state, never another seat's hand or a hidden talon."""
    if d.phase is Phase.DONE:
        return "the deal is over: no move may follow its end"
    seat = d.to_act
    kind_ok = {
        Phase.AUCTION: A.is_bid(action)
        or A.is_blind(action)
        or A.is_named(action)
        or action == A.PASS,
        Phase.PASSING: A.is_give(action) or action in (A.WRITE_OFF, A.REDEAL),
        Phase.CONTRACT: A.is_contract(action),
        Phase.PLAY: A.is_play(action) or A.is_crawl(action) or A.is_announce(action),
        Phase.TALON: A.is_talon(action),
        Phase.DISCARD: A.is_discard(action) or action in (A.WRITE_OFF, A.REDEAL),
        Phase.REDEAL: action in (A.REDEAL, A.PASS),
        Phase.CONTRA: action in (A.CONTRA, A.RECONTRA, A.PASS),
        Phase.CONCESSION: action in (A.CONCEDE, A.BUYBACK, A.PASS),
        Phase.REBUY: action in (A.REBUY, A.PASS),
    }[d.phase]
    if not kind_ok:
        auction_move = A.is_bid(action) or A.is_blind(action) or A.is_named(action)
        auction_move = auction_move or action == A.PASS
        if d.phase is not Phase.AUCTION and auction_move:
            forced = " (the forced dealer bid)" if d.high_bid == 0 else ""
            return (
                f"the auction is over: seat {d.declarer} is declarer at {d.bid}{forced}; "
                f"{_what_is_due(d)}"
            )
        if action == A.WRITE_OFF:
            return f"the write-off window is closed: {_what_is_due(d)}"
        return f"{_what_is_due(d)}, not {A.action_text(action)!r}"
    phase = d.phase
    if phase is Phase.PLAY:
        return tricks.explain(d, seat, action)
    if phase is Phase.AUCTION:
        return auction.explain(d, seat, action)
    if phase is Phase.PASSING:
        return talon.explain_passing(d, seat, action)
    if phase is Phase.CONTRACT:
        return talon.explain_contract(d, action - A.CONTRACT)
    if phase is Phase.TALON:
        return choose_talon.explain_choice(d, action)
    if phase is Phase.DISCARD:
        return choose_talon.explain_discard(d, seat, action)
    if phase is Phase.REDEAL:
        return redeal.explain(d, seat, action)
    if phase is Phase.CONTRA:
        return contra.explain(d, seat, action)
    if phase is Phase.CONCESSION:  # bidding.forced_concession and talon.buyback, in the deal
        if action == A.CONCEDE:
            return "only a declarer forced to the minimum may concede (`bidding.forced_concession`)"
        return "no buyback at this table (`talon.buyback` false)"
    return f"{_what_is_due(d)}, not {A.action_text(action)!r}"
