"""What one seat may know (rules.md 1.10): the one door through which secret state leaves.

:func:`view` builds a :class:`SeatView` for a seat (or, with seat None, for a spectator) from
exactly what that seat may see: its own cards, the auction, the talon once it is shown, the
card passed to it (and, for the declarer, the cards it passed), the cards played to tricks, the
declared marriages, the trump, every seat's card count and the match's public counters. Other
seats' cards are never read, so they cannot leak. Bots and clients receive views, never states.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..cards import ACE, CARD_TEXT, KING, QUEEN, SUITS, hand_text
from ..rules import Rules
from .actions import (
    ANNOUNCE,
    BLIND,
    CRAWL,
    DECLARE,
    DISCARD,
    NAMED_AMOUNT,
    NAMED_WORDS,
    PASS,
    TALON,
    WRITE_OFF,
    MoveKind,
    action_text,
    amount_of,
    bid,
    give_parts,
    move_kind,
    named_kind,
)
from .deal import Phase
from .match import MatchState
from .state import DealState

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The match's public counters, per seat (rules.md 1.8 and 1.9)."""

    totals: tuple[int, ...]
    sticks: tuple[int, ...]
    no_wins: tuple[int, ...]
    writeoffs: tuple[int, ...]
    on_barrel: tuple[bool, ...]
    barrel_left: tuple[int, ...]
    falls: tuple[int, ...]
    deals: int
    winner: int | None
    #: ``penalty.cross``: each seat's crosses not yet paid for
    crosses: tuple[int, ...] = ()
    #: the target in force (raised by ``game.tiebreak`` continue); 0 where unknown
    target: int = 0

    @classmethod
    def of(cls, match: MatchState) -> MatchInfo:
        return cls(
            totals=match.totals,
            sticks=match.sticks,
            no_wins=match.no_wins,
            writeoffs=match.writeoffs,
            on_barrel=match.on_barrel,
            barrel_left=match.barrel_left,
            falls=match.falls,
            deals=match.deals,
            winner=match.winner,
            crosses=match.crosses,
            target=match.target,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "sticks": list(self.sticks),
            "no_wins": list(self.no_wins),
            "writeoffs": list(self.writeoffs),
            "on_barrel": list(self.on_barrel),
            "barrel_left": list(self.barrel_left),
            "falls": list(self.falls),
            "deals": self.deals,
            "winner": self.winner,
            "crosses": list(self.crosses),
            "target": self.target,
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know about a deal (and the match, when given); seat None is a
    spectator, who knows only what every seat knows.

    Cards are ints and sets of cards masks, as everywhere in the engine; :meth:`to_json` writes
    them as canonical text.
    """

    seat: int | None
    rules: Rules
    phase: Phase
    dealer: int
    active: tuple[int, ...]
    to_act: int | None
    #: this seat's cards now (the declarer's include the talon it took); None for a spectator
    hand: int | None
    #: this seat's cards as dealt; None for a spectator
    dealt: int | None
    card_counts: tuple[int, ...]
    #: (seat, amount) in order; 0 is a pass
    auction: tuple[tuple[int, int], ...]
    high_bid: int | None
    declarer: int | None
    bid: int | None
    #: the contract in force (the bid until the declarer names its contract)
    contract: int | None
    #: the talon once it is shown to this seat, else None
    talon: int | None
    #: the card the declarer passed to this seat, if any
    received: int | None
    #: for the declarer, the card it passed to each seat (None where none); else None
    passed: tuple[int | None, ...] | None
    #: the current trick, (seat, card) from the leader
    trick: tuple[tuple[int, int], ...]
    #: finished tricks as (leader, cards in play order, winner); see also
    #: :attr:`completed_seats` and :attr:`completed_trumps`
    completed_tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    #: the suits of the marriages each seat declared, in order
    marriages: tuple[tuple[int, ...], ...]
    trump: int | None
    tricks_won: tuple[int, ...]
    #: the deal's result once it is over (made, failed, written-off, ...)
    result: str | None
    match: MatchInfo | None
    #: the legal actions, only when this seat is to act; () otherwise
    legal_actions: tuple[int, ...]
    #: the card shown to all and dealt to forehand (``deal.first_card_shown``), else None
    shown: int | None = None
    #: draw-stock: the cards left in the stock, and its face-up bottom card while it is there
    stock_count: int = 0
    stock_face_up: int | None = None
    #: for the declarer, the cards it discarded onto its tricks (fixed-deal, choose-talon)
    discarded: int | None = None
    #: the dealer who sits out this deal (dealer-sits-out), else None
    sitter: int | None = None
    #: the seats whose face-down crawl cards in the current trick this seat cannot see yet
    crawl_hidden: tuple[int, ...] = ()
    #: how many talons were dealt (two in choose-talon)
    talons_count: int = 1
    #: ``bidding.blind``: the mask of the seats whose first bid was blind (public)
    blind_bids: int = 0
    #: the named contract (``special.*``) once the auction is won: misere, open or slam
    named: str | None = None
    #: ``special.open_hand``: the declarer's hand, shown to everyone after the auction
    open_hand: int | None = None
    #: while this seat may write the deal off: what a write-off would change each seat's total
    #: by (the write-off's own penalty included); else None
    writeoff_changes: tuple[int, ...] | None = None
    #: each finished trick's seats, the seat of each card in play order
    completed_seats: tuple[tuple[int, ...], ...] = ()
    #: the trump each finished trick was played under (None: none, as in a crawl)
    completed_trumps: tuple[int | None, ...] = ()
    #: the trump the trick under way is played under (None: none, or no trick under way)
    trick_trump: int | None = None
    #: how many cards each talon was dealt (() where there is no talon)
    talon_sizes: tuple[int, ...] = ()
    #: how many cards each seat was dealt
    dealt_counts: tuple[int, ...] = ()
    #: how many cards were set aside as dealt (pass-without-taking, fixed-deal's unused cards)
    aside_count: int = 0
    #: every move of the play so far as (seat, action), in order, as this seat may know it: a
    #: marriage declared by a lead or from the hand (``marriage.announce``) is its own action;
    #: another seat's face-down crawl card in the trick under way is :data:`FACE_DOWN`
    plays: tuple[tuple[int, int], ...] = ()

    @property
    def seats(self) -> int:
        return len(self.card_counts)

    @property
    def legal_moves(self) -> tuple[str, ...]:
        """The legal actions as record tokens."""
        return tuple(action_text(a) for a in self.legal_actions)

    @property
    def moves(self) -> tuple[dict[str, Any], ...]:
        """The legal actions as typed move objects (see :func:`move_json`)."""
        return tuple(move_json(a) for a in self.legal_actions)

    def tricks_in_play_order(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Every trick so far (the one under way last, if started) as (seat, card) in play
        order."""
        done = tuple(
            tuple(zip(seats, cards, strict=True))
            for seats, (_, cards, _) in zip(
                self.completed_seats, self.completed_tricks, strict=True
            )
        )
        return (*done, self.trick) if self.trick else done

    def auction_actions(self) -> tuple[int, ...]:
        """The auction's moves as actions, in order: a pass, a bid, or a blind seat's first bid
        as a blind bid (``bidding.blind``)."""
        return tuple(action for _, action in _auction_moves(self.auction, self.blind_bids))

    def play_order(self, leader: int) -> tuple[int, ...]:
        """The active seats in play order from ``leader``."""
        return _play_order(self.active, leader, len(self.active))

    def tricks_trumps(self) -> tuple[int | None, ...]:
        """The trump of each trick of :meth:`tricks_in_play_order`."""
        return (*self.completed_trumps, self.trick_trump) if self.trick else self.completed_trumps

    @property
    def is_to_act(self) -> bool:
        return self.seat is not None and self.seat == self.to_act

    @property
    def played(self) -> int:
        """Every card played to a trick so far, as a mask."""
        m = 0
        for _, cards, _ in self.completed_tricks:
            for c in cards:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m

    def marriage_cards(self) -> tuple[tuple[int, int, int, int], ...]:
        """Each declared marriage as (seat, suit, king, queen) (not the four aces: see
        :attr:`marriages`, where they are suit 4)."""
        return tuple(
            (seat, s, 6 * s + KING, 6 * s + QUEEN)
            for seat, suits in enumerate(self.marriages)
            for s in suits
            if s < 4
        )

    def to_json(self, *, rules: bool = True) -> dict[str, Any]:
        """A JSON-ready dict, cards as canonical text (what a server sends a seat)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "phase": self.phase.name.lower(),
            "dealer": self.dealer,
            "active": list(self.active),
            "to_act": self.to_act,
            "hand": _cards(self.hand),
            "dealt": _cards(self.dealt),
            "card_counts": list(self.card_counts),
            "auction": _auction_json(self.auction, self.blind_bids),
            "high_bid": self.high_bid,
            "declarer": self.declarer,
            "bid": self.bid,
            "contract": self.contract,
            "talon": _cards(self.talon),
            "received": None if self.received is None else CARD_TEXT[self.received],
            "passed": None
            if self.passed is None
            else [None if c is None else CARD_TEXT[c] for c in self.passed],
            "trick": [{"seat": s, "card": CARD_TEXT[c]} for s, c in self.trick],
            "completed_tricks": [
                {
                    "leader": lead,
                    "cards": [CARD_TEXT[c] for c in cards],
                    "winner": win,
                    "seats": list(seats),
                    "trump": None if trump is None else SUITS[trump],
                }
                for (lead, cards, win), seats, trump in zip(
                    self.completed_tricks, self.completed_seats, self.completed_trumps, strict=True
                )
            ],
            "trick_trump": None if self.trick_trump is None else SUITS[self.trick_trump],
            "marriages": [
                {"seat": seat, "suit": SUITS[s], "cards": [CARD_TEXT[k], CARD_TEXT[q]]}
                for seat, s, k, q in self.marriage_cards()
            ]
            + [
                {"seat": seat, "suit": "a", "cards": [CARD_TEXT[6 * s + 5] for s in range(4)]}
                for seat, suits in enumerate(self.marriages)
                for s in suits
                if s == 4
            ],
            "trump": None if self.trump is None else SUITS[self.trump],
            "tricks_won": list(self.tricks_won),
            "result": self.result,
            "match": None if self.match is None else self.match.to_json(),
            "legal_actions": list(self.legal_moves),
            "moves": list(self.moves),
            "shown": None if self.shown is None else CARD_TEXT[self.shown],
            "stock_count": self.stock_count,
            "stock_face_up": None if self.stock_face_up is None else CARD_TEXT[self.stock_face_up],
            "discarded": _cards(self.discarded),
            "sitter": self.sitter,
            "crawl_hidden": list(self.crawl_hidden),
            "talons_count": self.talons_count,
            "talon_sizes": list(self.talon_sizes),
            "dealt_counts": list(self.dealt_counts),
            "aside_count": self.aside_count,
            "plays": [
                {"seat": seat, "action": {"kind": MoveKind.CRAWL.value}}
                if action == FACE_DOWN
                else {"seat": seat, "action": move_json(action)}
                for seat, action in self.plays
            ],
            "named": self.named,
            "open_hand": _cards(self.open_hand),
            "writeoff_changes": None
            if self.writeoff_changes is None
            else list(self.writeoff_changes),
        }
        if rules:
            out["rules"] = {
                k: dict(v) if isinstance(v, dict) else v for k, v in _rules_json(self.rules).items()
            }
        return out


FACE_DOWN = -1
"""In :attr:`SeatView.plays`: another seat's crawl card, face down until its trick is
complete."""


@lru_cache(maxsize=32)
def _rules_json(rules: Rules) -> dict[str, object]:
    return rules.to_json()


def _cards(mask: int | None) -> list[str] | None:
    if mask is None:
        return None
    text = hand_text(mask)
    return text.split(" ") if text else []


def _auction_moves(auction: tuple[tuple[int, int], ...], blinds: int) -> list[tuple[int, int]]:
    """The auction's moves as (seat, action): a blind seat's first move is a blind bid."""
    out: list[tuple[int, int]] = []
    spoke = 0
    for s, a in auction:
        blind = bool(blinds >> s & 1) and not spoke >> s & 1
        spoke |= 1 << s
        out.append((s, _auction_action(a, blind)))
    return out


def _auction_json(auction: tuple[tuple[int, int], ...], blinds: int) -> list[dict[str, Any]]:
    """The auction's moves as record tokens: a blind seat's first move is ``blind N``."""
    out: list[dict[str, Any]] = []
    for s, action in _auction_moves(auction, blinds):
        out.append({"seat": s, "move": action_text(action), "action": move_json(action)})
    return out


def _auction_action(amount: int, blind: bool) -> int:
    if amount == 0:
        return PASS
    return BLIND + amount if blind and amount <= NAMED_AMOUNT else bid(amount)


def move_json(action: int) -> dict[str, Any]:
    """A move as a typed object: its token, its kind (:class:`MoveKind`) and its parts.

    ``{"token": "give Qs 2", "kind": "give", "card": "Qs", "seat": 2}``,
    ``{"token": "120", "kind": "bid", "amount": 120}``,
    ``{"token": "misere", "kind": "named", "named": "misere"}``,
    ``{"token": "Qh+", "kind": "play", "card": "Qh", "declare": true, "marriage": "h"}``: a card
    (``card``), the seat a card is handed to (``seat``), the points of a bid, blind bid or
    contract (``amount``), the named contract (``named``), whether a lead declares a marriage
    (``declare``, on every play) and which (``marriage``: a suit, or ``a`` for the four aces),
    the talon chosen (``talon``, from 0). Clients label a move by its kind and read its parts;
    they never parse the token.
    """
    kind = move_kind(action)
    out: dict[str, Any] = {"token": action_text(action), "kind": kind.value}
    if kind is MoveKind.PLAY:
        declare = action >= DECLARE
        c = action - DECLARE if declare else action
        out["card"] = CARD_TEXT[c]
        out["declare"] = declare
        if declare:
            out["marriage"] = "a" if c % 6 == ACE else SUITS[c // 6]
    elif kind is MoveKind.GIVE:
        c, seat = give_parts(action)
        out["card"] = CARD_TEXT[c]
        out["seat"] = seat
    elif kind is MoveKind.CRAWL:
        out["card"] = CARD_TEXT[action - CRAWL]
    elif kind is MoveKind.DISCARD:
        out["card"] = CARD_TEXT[action - DISCARD]
    elif kind is MoveKind.TALON:
        out["talon"] = action - TALON
    elif kind is MoveKind.DECLARE:
        out["marriage"] = SUITS[action - ANNOUNCE]
    elif kind in (MoveKind.BID, MoveKind.BLIND, MoveKind.CONTRACT):
        out["amount"] = amount_of(action)
    elif kind is MoveKind.NAMED:
        out["named"] = NAMED_WORDS[named_kind(action)]
    return out


def move_event(seat: int, action: int, recipient: int | None, open_pass: bool) -> dict[str, Any]:
    """A move as ``recipient`` (None: a spectator) may learn it: the one place that decides who
    sees what of a move. ``move`` is its token and ``action`` its typed object
    (:func:`move_json`). A card handed between two other seats is not named, unless the rules
    open the passing (``open_pass``, ``talon.open_pass``): ``move`` is null, ``to`` says who
    received a card and ``action`` holds only the kind and that seat. Nor is another seat's
    face-down card (``crawl``, ``discard``): ``move`` is null, ``face_down`` names the move word
    and ``action`` holds only the kind. A crawl's cards are seen in the view once its trick is
    complete."""
    typed = move_json(action)
    out: dict[str, Any] = {"kind": "move", "seat": seat, "move": typed["token"]}
    kind = move_kind(action)
    if kind is MoveKind.GIVE:
        _, to = give_parts(action)
        out["to"] = to
        if not open_pass and recipient not in (seat, to):
            out["move"] = None
            typed = {"kind": kind.value, "seat": to}
    elif kind in (MoveKind.CRAWL, MoveKind.DISCARD) and recipient != seat:
        out["move"] = None
        out["face_down"] = kind.value
        typed = {"kind": kind.value}
    out["action"] = typed
    return out


def talon_visible(state: DealState, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator, or any seat) sees the talon (``talon.shown``)."""
    declarer = state.declarer
    if declarer is None or not state.talon_shown:
        return False
    if seat is not None and seat == declarer:
        return True
    if state.blind_contract:  # bidding.blind: the talon stays hidden from the defenders
        return False
    mode = state.rules.talon_shown
    if mode == "always":
        return True
    if mode == "never":
        return False
    bids = sum(1 for _, a in state.auction if a)
    return not (state.bid == state.rules.bidding_min and bids <= 1)


def view(state: DealState, seat: int | None, match: MatchState | None = None) -> SeatView:
    """What ``seat`` may know of ``state`` (None: a spectator), with the match's counters."""
    n = state.seats
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not a seat (0..{n - 1})")
    declarer = state.declarer
    given = state.given
    open_pass = state.rules.talon_open_pass
    if seat is None:
        hand = dealt = received = None
    else:
        hand = state.hands[seat]
        dealt = state.dealt[seat]
        received = given[seat]
    passed: tuple[int | None, ...] | None = None
    if declarer is not None and (open_pass or (seat is not None and seat == declarer)):
        passed = given
    outcome = state.outcome
    to_act = state.to_act
    mine = seat is not None and seat == to_act
    trick = state.trick
    hidden: tuple[int, ...] = ()
    plays = state.plays
    if state.crawling:  # face down until the crawl's last card
        hidden = tuple(s for s, _ in trick if s != seat)
        trick = tuple((s, c) for s, c in trick if s == seat)
        shown = len(plays) - len(state.trick)  # the crawl's cards are the last plays
        plays = (*plays[:shown], *((s, a if s == seat else FACE_DOWN) for s, a in plays[shown:]))
    stock = state.stock
    completed = state.completed_tricks
    return SeatView(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        dealer=state.dealer,
        active=state.active,
        to_act=to_act,
        hand=hand,
        dealt=dealt,
        card_counts=tuple(h.bit_count() for h in state.hands),
        auction=state.auction,
        high_bid=state.high_bid,
        declarer=declarer,
        bid=state.bid,
        contract=state.contract,
        talon=state.talon if talon_visible(state, seat) else None,
        received=received,
        passed=passed,
        trick=trick,
        completed_tricks=completed,
        marriages=state.marriages,
        trump=state.trump,
        tricks_won=state.tricks_won,
        result=None if outcome is None else outcome.result,
        match=MatchInfo.of(match) if match is not None else None,
        legal_actions=tuple(state.legal_actions()) if mine else (),
        shown=state.shown,
        stock_count=len(stock),
        stock_face_up=stock[-1] if stock else None,
        discarded=state.discarded if declarer is not None and seat == declarer else None,
        sitter=state.sitter,
        crawl_hidden=hidden,
        talons_count=len(state.talons),
        blind_bids=state.blinds,
        named=state.named,
        open_hand=state.hands[declarer] if declarer is not None and state.named == "open" else None,
        completed_seats=tuple(
            _play_order(state.active, lead, len(cards)) for lead, cards, _ in completed
        ),
        completed_trumps=state.completed_trumps,
        trick_trump=state.trick_trump,
        talon_sizes=tuple(t.bit_count() for t in state.talons),
        dealt_counts=tuple(h.bit_count() for h in state.dealt),
        aside_count=state.aside.bit_count(),
        plays=plays,
    )


def _play_order(active: tuple[int, ...], leader: int, count: int) -> tuple[int, ...]:
    """The seats of a trick's ``count`` cards in play order: the active seats from ``leader``."""
    i = active.index(leader)
    return tuple(active[(i + j) % len(active)] for j in range(count))


def spectator_view(state: DealState, match: MatchState | None = None) -> SeatView:
    """What every seat sees, and nothing more."""
    return view(state, None, match)


def game_view(game: Game, seat: int | None) -> SeatView:
    """A seat's view of a match's current (or just finished) deal, with the match's counters."""
    if game.deal is None:
        raise ValueError("no deal has been dealt yet")
    seen = view(game.deal, seat, game.match)
    if WRITE_OFF in seen.legal_actions:  # what the declarer weighs before it writes off
        report = game.apply(WRITE_OFF).reports[-1]
        seen = replace(seen, writeoff_changes=report.changes)
    return seen
