"""Why a move is illegal, in a player's words (the message of :class:`IllegalAction`).

:func:`explain` is what the seat to act is told: it reads only what that seat may know (its
own cards, the public state), so a refusal is the same wherever the hidden cards lie.
:func:`whereabouts` adds, for a referee who sees every card (a record's replay, the tests),
where a card the seat does not hold lies.
"""

from __future__ import annotations

from ..cards import (
    ACE,
    CARD_TEXT,
    KING,
    QUEEN,
    SUIT_MASKS,
    SUIT_NAMES,
    hand_text,
    marriage_suits,
)
from . import actions as A
from .auction import bid_limit, blind_limit, lowest_bid, must_bid, named_worth, on_grid
from .choose_talon import discards_due
from .choose_talon import may_write_off as may_write_off_discarding
from .deal import Deal, Phase
from .flags import ANNOUNCED
from .talon import contract_limit, may_write_off
from .tricks import ABOVE, declarable, follow_mask, lead_mask, may_crawl


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
    if d.phase is Phase.AUCTION:
        return _explain_auction(d, seat, action)
    if d.phase is Phase.PASSING:
        return _explain_passing(d, seat, action)
    if d.phase is Phase.CONTRACT:
        return _explain_contract(d, action - A.CONTRACT)
    if d.phase is Phase.TALON:
        return f"talon {action - A.TALON} is not one of the {len(d.talons)} talons"
    if d.phase is Phase.REDEAL:
        return f"seat {seat}'s redeal is mandatory: its only move is redeal"
    if d.phase is Phase.CONCESSION:
        if action == A.CONCEDE:
            return "only a declarer forced to the minimum may concede (`bidding.forced_concession`)"
        return "no buyback at this table (`talon.buyback` false)"
    if d.phase is Phase.CONTRA:
        if action == A.CONTRA:
            return f"seat {seat} is the declarer: it may only redouble (recontra) or pass"
        return f"seat {seat} may not redouble: only the declarer redoubles a contra"
    if d.phase is Phase.DISCARD:
        return _explain_discard(d, seat, action)
    if A.is_crawl(action):
        return _explain_crawl(d, seat, action - A.CRAWL)
    if A.is_announce(action):
        suit = action - A.ANNOUNCE
        if d.rules.marriage_announce != "from-hand":
            return "a marriage is declared by leading its K or Q here (`marriage.announce` on-lead)"
        if d.trick:
            return f"seat {seat} may declare only when on lead"
        if d.special & ANNOUNCED:
            return f"seat {seat} already declared a marriage on this lead"
        if d.named == 1 and seat == d.declarer:
            return _MISERE_NO_MARRIAGE.format(seat=seat)
        return f"seat {seat} may not declare the {SUIT_NAMES[suit]} marriage now"
    if d.crawling:
        return f"the trick is a crawl: seat {seat} must answer it face down (crawl CARD)"
    return _explain_play(d, seat, action)


def _explain_discard(d: Deal, seat: int, action: int) -> str:
    if action == A.REDEAL:
        return "the declarer may not ask for a redeal with this talon now"
    if action == A.WRITE_OFF:
        if not d.rules.writeoff_allowed:
            return "write-off is not allowed at this table (`writeoff.allowed` false)"
        if not may_write_off_discarding(d):
            return "the write-off window closed with the first discard"
        return "write-off is not allowed here"
    c = action - A.DISCARD
    return f"the declarer (seat {seat}) discards {CARD_TEXT[c]}, which it does not hold"


def _explain_crawl(d: Deal, seat: int, c: int) -> str:
    name = CARD_TEXT[c]
    if not d.hands[seat] >> c & 1:
        return f"seat {seat} crawls {name}, which it does not hold"
    if d.trick:
        return f"seat {seat} may not crawl: the trick was led face up"
    if not d.rules.play_crawl:
        return "the crawl is not played at this table (`play.crawl` false)"
    if seat != d.declarer:
        return f"seat {seat} may not crawl: only the declarer crawls"
    if d.completed:
        return f"seat {seat} may not crawl: the crawl is only for the first trick"
    if not may_crawl(d, seat):
        return f"seat {seat} may not crawl holding an ace"
    return f"seat {seat} may not crawl {name}"


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
    return _explain_auction(d, seat, A.BID + amount).replace("bid ", "blind ", 1)


_MISERE_NO_MARRIAGE = "seat {seat} plays misère: the declarer declares no marriage"

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


def _explain_auction(d: Deal, seat: int, action: int) -> str:
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


def _explain_passing(d: Deal, seat: int, action: int) -> str:
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


def _explain_contract(d: Deal, amount: int) -> str:
    if amount < d.bid:
        return f"contract {amount} is below the bid {d.bid}: the contract never goes down"
    limit = max(contract_limit(d), d.bid)
    if amount > limit:
        return (
            f"contract {amount} is above the limit {limit} "
            f"(120 plus the marriages the declarer holds, or the bid itself)"
        )
    return f"contract {amount} breaks the bidding steps (bid {d.bid}, limit {limit})"


def _explain_play(d: Deal, seat: int, action: int) -> str:
    declaring = action >= A.DECLARE
    c = A.played_card(action)
    hand = d.hands[seat]
    name = CARD_TEXT[c]
    if not hand >> c & 1:
        return f"seat {seat} plays {name}, which it does not hold"
    if declaring:
        if d.named == 1 and seat == d.declarer and not d.trick and d.hands[seat] >> c & 1:
            return _MISERE_NO_MARRIAGE.format(seat=seat)
        return _explain_declare(d, seat, c)
    if not d.trick:
        lead = lead_mask(d, seat)
        if not lead >> c & 1:
            return (
                f"seat {seat} declared a marriage on its last lead and must now lead a trump "
                f"({SUIT_NAMES[d.trump]})"
            )
        return f"seat {seat} may not lead {name}"
    allowed = follow_mask(d, seat)
    led = d.trick[0] // 6
    suited = hand & SUIT_MASKS[led]
    if suited:
        if c // 6 != led:
            return f"seat {seat} must follow suit ({SUIT_NAMES[led]})"
        return (
            f"seat {seat} must beat {CARD_TEXT[d.trick_best]} with a higher "
            f"{SUIT_NAMES[led][:-1]} ({hand_text(allowed)})"
        )
    trump = d.trick_trump
    trumps = hand & SUIT_MASKS[trump] if trump >= 0 else 0
    if trumps and c // 6 != trump:
        return (
            f"seat {seat} is void in {SUIT_NAMES[led]} and must play a trump "
            f"({SUIT_NAMES[trump]}: {hand_text(allowed)})"
        )
    if trumps and allowed & ABOVE[d.trick_best] == allowed:
        return (
            f"seat {seat} is void in {SUIT_NAMES[led]} and must over-trump "
            f"{CARD_TEXT[d.trick_best]} ({hand_text(allowed)})"
        )
    return f"seat {seat} may play only {hand_text(allowed)}"


def _explain_declare(d: Deal, seat: int, c: int) -> str:
    name = CARD_TEXT[c]
    suit = c // 6
    rank = c % 6
    rules = d.rules
    if rank == ACE and rules.marriage_aces != "off":
        if d.trick:
            return f"seat {seat} marks {name}+ on a follow: the four aces are declared on a lead"
        if d.hands[seat] & 0x820820 != 0x820820:
            return f"seat {seat} leads {name}+ without all four aces"
        if rules.marriage_trick_required and not d.tricks[seat]:
            return f"seat {seat} leads {name}+ but has not won a trick yet in this deal"
        return f"seat {seat} may not declare the four aces now"
    if rank not in (QUEEN, KING):
        what = "four aces" if rank == ACE else "a marriage"
        return f"seat {seat} leads {name}+: only a K or Q declares {what}"
    if d.trick:
        return f"seat {seat} marks {name}+ on a follow: a marriage is declared only on the lead"
    partner = 6 * suit + (KING if rank == QUEEN else QUEEN)
    if not d.hands[seat] >> partner & 1:
        return (
            f"seat {seat} leads {name}+ without {CARD_TEXT[partner]}: "
            f"it does not hold the {SUIT_NAMES[suit]} marriage"
        )
    rules = d.rules
    if rules.marriage_trick_required and not d.tricks[seat]:
        return f"seat {seat} leads {name}+ but has not won a trick yet in this deal"
    if d.hands[seat].bit_count() < rules.marriage_min_hand:
        return (
            f"seat {seat} leads {name}+ holding fewer than {rules.marriage_min_hand} cards "
            f"(`marriage.min_hand`)"
        )
    if suit not in declarable(d, seat) or not lead_mask(d, seat) >> c & 1:
        return f"seat {seat} may not declare the {SUIT_NAMES[suit]} marriage now"
    return f"seat {seat} may not lead {name}+"
