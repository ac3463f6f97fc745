"""Tricks and marriages (rules.md 1.5, 1.6 and the ``play.*`` and ``marriage.*`` parameters)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..cards import (
    ACE,
    CARD_TEXT,
    HIGH_CARDS,
    KING,
    LOW_CARDS,
    QUEEN,
    SUIT_MASKS,
    SUIT_NAMES,
    hand_text,
)
from . import actions as A
from .actions import ANNOUNCE, CRAWL, DECLARE
from .flags import ANNOUNCED, CRAWLING, KEEP_TRUMP, RASPASY

if TYPE_CHECKING:
    from ..rules import Rules
    from .deal import Deal

ABOVE: Final[tuple[int, ...]] = tuple((SUIT_MASKS[c // 6] >> (c + 1) << (c + 1)) for c in range(24))
"""For each card, the mask of the higher cards of its suit."""

_PAIR: Final[tuple[int, ...]] = tuple(
    (1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4)
)
_ACES: Final = sum(1 << (6 * s + ACE) for s in range(4))


def top_card(mask: int) -> int:
    """The mask's single highest card, as a mask."""
    return 1 << (mask.bit_length() - 1)


FOUR_ACES: Final = 4
"""The "suit" of the four-aces marriage in ``Deal.marriages`` (``a`` in a record)."""


def declarable(d: Deal, seat: int) -> list[int]:
    """Suits whose marriage ``seat`` may declare by leading now (1.6), and ``FOUR_ACES`` where
    ``marriage.aces`` lets it declare its four aces."""
    rules = d.rules
    hand = d.hands[seat]
    if rules.marriage_trick_required and not d.tricks[seat]:
        return []
    if hand.bit_count() < rules.marriage_min_hand:
        return []
    found = [s for s in range(4) if hand & _PAIR[s] == _PAIR[s]]
    if rules.marriage_aces != "off" and hand & _ACES == _ACES:
        found.append(FOUR_ACES)
    return found


def lead_mask(d: Deal, seat: int) -> int:
    """The cards ``seat`` may lead (``play.lead_trump_after_marriage``)."""
    return lead_cards(d.hands[seat], d.trump, bool(d.lead_trump_due >> seat & 1))


def lead_cards(hand: int, trump: int, trump_due: bool) -> int:
    """The cards of ``hand`` that may be led: only its trumps where the seat must lead one
    (``play.lead_trump_after_marriage``, ``trump_due``) and holds one. The one statement of the
    rule, for the deal and the solver alike."""
    if trump_due and trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def beats(c: int, best: int, trump: int) -> bool:
    """Whether card ``c`` takes the trick from its best card so far, ``best``, under ``trump``
    (-1: none): a higher card of ``best``'s suit, or a trump on a card that is none (1.5). The
    one statement of the rule, for the deal and the solver alike."""
    suit = c // 6
    return (suit == best // 6 and c > best) or (suit == trump and best // 6 != suit)


def marriage_trumps(rules: Rules, trump: int, trick_trump: int, suit: int) -> tuple[int, int]:
    """The trump, and the trump of the trick being led, once a marriage of ``suit`` is declared:
    it becomes trump unless one already is under ``marriage.one_trump``, from this trick with
    ``marriage.trump_from`` this-trick, else from the next."""
    if rules.marriage_one_trump and trump >= 0:
        return trump, trick_trump
    return suit, suit if rules.marriage_trump_from == "this-trick" else trick_trump


def follow_mask(d: Deal, seat: int) -> int:
    """The cards ``seat`` may play to a trick already led (1.5 rules 1-4)."""
    return follow_cards(
        d.rules,
        d.hands[seat],
        seat,
        d.trick,
        d.leader,
        d.trick_best,
        d.trick_trump,
        d.declarer,
        d.nxt,
    )


def follow_cards(
    rules: Rules,
    hand: int,
    seat: int,
    trick: list[int],
    leader: int,
    best: int,
    trump: int,
    declarer: int,
    nxt: tuple[int, ...],
) -> int:
    """The cards of ``hand`` that ``seat`` may play to ``trick`` (led by ``leader``, its best
    card ``best``, played under ``trump``, -1 for none; ``nxt`` is each seat's next active seat):
    rules.md 1.5 rules 1-4. The one statement of the follow rules, for the deal and the solver
    alike (the solver keeps its own light state and asks here)."""
    led = trick[0] // 6
    suited = hand & SUIT_MASKS[led]
    if suited:
        if best // 6 != led:
            return suited
        mode = rules.play_must_beat
        if mode == "off":
            return suited
        higher = suited & ABOVE[best]
        if not higher:
            return suited
        return top_card(higher) if mode == "highest" else higher
    if trump < 0:
        return hand
    trumps = hand & SUIT_MASKS[trump]
    mode = rules.play_must_trump
    if not trumps or mode == "off":
        return hand
    if mode == "highest":
        return top_card(trumps)
    if best // 6 != trump:
        return trumps
    higher = trumps & ABOVE[best]
    if higher and rules.play_must_overtrump:
        return higher
    if (
        rules.play_defender_overtrumps_declarer
        and seat != declarer
        and (not rules.play_must_overtrump or rules.play_partial_trumping)
    ):
        mine = _declarer_trump(trick, leader, declarer, nxt, trump)
        if mine >= 0:
            over = trumps & ABOVE[mine]
            if over:
                return over
    if not higher and rules.play_partial_trumping:
        return hand
    return trumps


def _declarer_trump(
    trick: list[int], leader: int, declarer: int, nxt: tuple[int, ...], trump: int
) -> int:
    """The trump the declarer played into the trick, or -1."""
    seat = leader
    for c in trick:
        if seat == declarer:
            return c if c // 6 == trump else -1
        seat = nxt[seat]
    return -1


def may_crawl(d: Deal, seat: int) -> bool:
    """The Estonian crawl (``play.crawl``): the declarer on the first lead, holding no ace."""
    return (
        d.rules.play_crawl and seat == d.declarer and not d.completed and not d.hands[seat] & _ACES
    )


def legal(d: Deal) -> list[int]:
    seat = d.to_act
    if d.trick:
        if d.special:
            m = d.hands[seat]
            if d.special & CRAWLING:
                return [CRAWL + c for c in (*LOW_CARDS[m & 0xFFF], *HIGH_CARDS[m >> 12])]
            if not d.stock:
                m = follow_mask(d, seat)
        else:
            m = follow_mask(d, seat)
        return [*LOW_CARDS[m & 0xFFF], *HIGH_CARDS[m >> 12]]
    leads = lead_mask(d, seat) if d.lead_trump_due else d.hands[seat]
    acts = [*LOW_CARDS[leads & 0xFFF], *HIGH_CARDS[leads >> 12]]
    if d.special and may_crawl(d, seat):
        acts += [CRAWL + c for c in acts]
    if not d.tricks[seat] and d.rules.marriage_trick_required:
        return acts
    if d.special & (ANNOUNCED | RASPASY):
        return acts  # one marriage per lead; none in raspasy
    if d.named == 1 and seat == d.declarer:
        return acts  # special.misere: the declarer declares no marriage
    suits = declarable(d, seat)
    if suits and d.rules.marriage_announce == "from-hand":
        acts += [ANNOUNCE + s for s in suits if s < 4]
    for s in suits:
        if s == FOUR_ACES:
            acts += [c + DECLARE for c in range(ACE, 24, 6) if leads >> c & 1]
            continue
        for c in (6 * s + QUEEN, 6 * s + KING):
            if leads >> c & 1:
                acts.append(c + DECLARE)
    return acts


def apply(d: Deal, action: int) -> None:
    seat = d.to_act
    d.plays = (*d.plays, (seat, action))
    if action >= CRAWL:
        if action >= ANNOUNCE:
            _announce(d, seat, action - ANNOUNCE)
        else:
            _crawl(d, seat, action - CRAWL)
        return
    if action >= DECLARE:
        c = action - DECLARE
        d.hands[seat] ^= 1 << c
        _lead(d, seat, c)
        if c % 6 == ACE:
            _declare_aces(d, seat, c // 6)
        else:
            _declare(d, seat, c // 6)
    else:
        c = action
        d.hands[seat] ^= 1 << c
        trick = d.trick
        if trick:
            if beats(c, d.trick_best, d.trick_trump):
                d.trick_best = c
                d.trick_best_seat = seat
            trick.append(c)
            if len(trick) == d.k:
                _close_trick(d, d.trick_trump)
                return
        else:
            _lead(d, seat, c)
    d.to_act = d.nxt[seat]


def _crawl(d: Deal, seat: int, c: int) -> None:
    """A card face down to a crawl: the highest card of the declarer's suit wins it."""
    d.hands[seat] ^= 1 << c
    if not d.trick:
        _lead(d, seat, c)
        d.special |= CRAWLING
    else:
        if c // 6 == d.trick_best // 6 and c > d.trick_best:
            d.trick_best = c
            d.trick_best_seat = seat
        d.trick.append(c)
        if len(d.trick) == d.k:
            d.special &= ~CRAWLING
            _close_trick(d, -1)  # a crawl is won in the declarer's suit: no trump
            return
    d.to_act = d.nxt[seat]


def _announce(d: Deal, seat: int, suit: int) -> None:
    """``marriage.announce`` from-hand: the marriage is declared, the seat still leads."""
    before = d.trump
    _declare(d, seat, suit)
    d.special |= ANNOUNCED
    if d.rules.marriage_trump_from == "next-trick":
        d.trick_trump = before
        d.special |= KEEP_TRUMP


def _lead(d: Deal, seat: int, c: int) -> None:
    d.leader = seat
    if d.special & KEEP_TRUMP:
        d.special &= ~(KEEP_TRUMP | ANNOUNCED)
    else:
        d.special &= ~ANNOUNCED
        d.trick_trump = d.trump
    d.trick = [c]
    d.trick_best = c
    d.trick_best_seat = seat
    d.lead_trump_due &= ~(1 << seat)


def _declare(d: Deal, seat: int, suit: int) -> None:
    rules = d.rules
    m = d.marriages
    d.marriages = (*m[:seat], (*m[seat], suit), *m[seat + 1 :])
    d.trump, d.trick_trump = marriage_trumps(rules, d.trump, d.trick_trump, suit)
    if rules.play_lead_trump_after_marriage:
        d.lead_trump_due |= 1 << seat


def _declare_aces(d: Deal, seat: int, suit: int) -> None:
    """``marriage.aces``: the four aces score ``marriage.aces_value``; with sets-trump the led
    ace's suit is trump from this very trick."""
    m = d.marriages
    d.marriages = (*m[:seat], (*m[seat], FOUR_ACES), *m[seat + 1 :])
    if d.rules.marriage_aces == "sets-trump":
        d.trump = suit
        d.trick_trump = suit


def _close_trick(d: Deal, trump: int) -> None:
    """The trick is complete: ``trump`` is the trump it was played under (-1: none)."""
    w = d.trick_best_seat
    cards = d.trick
    d.won[w] |= (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) if d.k == 3 else _mask(cards)
    d.tricks[w] += 1
    d.completed = (*d.completed, (d.leader, tuple(cards), w))
    d.completed_trumps = (*d.completed_trumps, trump)
    d.trick = []
    d.leader = w
    d.to_act = w
    d.trick_trump = d.trump
    if d.special and d.stock:
        _draw(d, w)
    if not d.hands[w]:
        d.finish("played")


def _draw(d: Deal, winner: int) -> None:
    """draw-stock: the trick's winner, then the other seats, draw a card from the stock's top
    (the face-up bottom card last). The draws are not moves."""
    seat = winner
    for _ in range(d.k):
        if not d.stock:
            return
        d.hands[seat] |= 1 << d.stock.pop(0)
        seat = d.nxt[seat]


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_MISERE_NO_MARRIAGE = "seat {seat} plays misère: the declarer declares no marriage"


def explain(d: Deal, seat: int, action: int) -> str:
    """Why ``action`` (a play, a crawl or a declaration) of ``seat`` is not allowed now."""
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
