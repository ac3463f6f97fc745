"""The deal state machine: the mutable core that both the checked API and search run on.

A :class:`Deal` is mutated in place by :meth:`Deal.apply`, which does not check legality: it is
the fast path for search and self-play. :class:`thousand.engine.state.DealState` wraps a deal
that is never mutated again, and is the checked, immutable API that people and bots use.

Which phase follows which is said once, here; what is legal in a phase, and what a move does,
lives in one module per phase (``auction``, ``talon``, ``tricks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final, Literal

from ..rules import Rules
from ..rules.layout import (
    CHOOSE_TALON,
    FIXED_DEAL,
    KEEP_ONE,
    NO_TALON,
    TAKE_AND_PASS,
    WITHOUT_TAKING,
    Layout,
)
from . import auction, choose_talon, contra, flags, handover, redeal, talon, tricks
from .actions import BUYBACK as BUYBACK_ACTION
from .actions import CONCEDE as CONCEDE_ACTION
from .actions import NAMED_AMOUNT
from .actions import PASS as PASS_ACTION
from .actions import REBUY as REBUY_ACTION
from .dealing import Dealt


class Phase(IntEnum):
    """Where a deal stands. AUCTION → PASSING → CONTRACT → PLAY → DONE (some phases skipped);
    TALON (choose a talon) and DISCARD (lay cards on one's tricks) only in some layouts; REDEAL
    (seats entitled to a redeal of their dealt hands are asked) before the auction."""

    AUCTION = 0
    PASSING = 1
    CONTRACT = 2
    PLAY = 3
    DONE = 4
    TALON = 5
    DISCARD = 6
    REDEAL = 7
    CONTRA = 8
    CONCESSION = 9
    REBUY = 10


_PLAY: Final = Phase.PLAY


DealEnd = Literal["played", "written-off", "conceded", "bought-back", "redealt", "passed-on"]
"""How a deal ended (``Deal.result``), before scoring says whether a played deal was made."""

_SEATINGS: dict[tuple[int, int, bool], tuple[tuple[int, ...], tuple[int, ...], int]] = {}


def _order(n: int, dealer: int, sits_out: bool = False) -> tuple[int, ...]:
    """The active seats clockwise from forehand (the seat after the dealer)."""
    return _seating(n, dealer, sits_out)[0]


def next_seats(n: int, dealer: int, sits_out: bool) -> tuple[int, ...]:
    """Each of the ``n`` seats' next active seat in a deal dealt by ``dealer`` (a sitting
    dealer's is forehand): who plays after whom in a trick."""
    return _seating(n, dealer, sits_out)[1]


def _seating(n: int, dealer: int, sits_out: bool) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The active seats from forehand, each seat's next active seat (a sitting dealer's is
    forehand), and the mask of the active seats (memoised: every deal asks)."""
    key = (n, dealer, sits_out)
    found = _SEATINGS.get(key)
    if found is None:
        seats = tuple((dealer + 1 + i) % n for i in range(n))
        order = seats[:-1] if sits_out else seats
        k = len(order)
        nxt = tuple(order[(order.index(s) + 1) % k] if s in order else order[0] for s in range(n))
        mask = 0
        for s in order:
            mask |= 1 << s
        found = _SEATINGS[key] = (order, nxt, mask)
    return found


class Deal:
    """The full state of one deal, all cards known. Mutable; copy before you branch."""

    __slots__ = (
        "active_mask",
        "askers",
        "auction",
        "bid",
        "blinds",
        "completed",
        "completed_trumps",
        "contract",
        "dealer",
        "dealt",
        "declarer",
        "discarded",
        "fixed",
        "given",
        "hands",
        "high_bid",
        "k",
        "lead_trump_due",
        "leader",
        "marriages",
        "n",
        "named",
        "nxt",
        "order",
        "passed",
        "phase",
        "plays",
        "pool",
        "reentered",
        "result",
        "rules",
        "special",
        "stock",
        "talon",
        "talon_open",
        "to_act",
        "trick",
        "trick_best",
        "trick_best_seat",
        "trick_trump",
        "tricks",
        "trump",
        "won",
    )

    rules: Rules
    n: int
    dealer: int
    order: tuple[int, ...]
    active_mask: int
    dealt: tuple[int, ...]
    talon: int
    hands: list[int]
    phase: Phase
    to_act: int
    high_bid: int
    passed: int
    auction: tuple[tuple[int, int], ...]
    declarer: int
    bid: int
    contract: int
    given: tuple[int, ...]
    result: DealEnd | None
    leader: int
    trick: list[int]
    trick_trump: int
    trick_best: int
    trick_best_seat: int
    trump: int
    won: list[int]
    tricks: list[int]
    marriages: tuple[tuple[int, ...], ...]
    completed: tuple[tuple[int, tuple[int, ...], int], ...]
    #: the trump in force for each completed trick, in order (-1: none, as in a crawl)
    completed_trumps: tuple[int, ...]
    #: every move of the play so far as (seat, action), in order: the cards, the face-down
    #: crawl cards and the marriages declared (by a lead or from the hand)
    plays: tuple[tuple[int, int], ...]
    lead_trump_due: int
    k: int
    nxt: tuple[int, ...]
    #: what a deal never changes, in one slot so that copies stay cheap: (the procedure, the
    #: silent seats, golden, the cards as dealt); read through :attr:`proc`, :attr:`silent`,
    #: :attr:`golden` and :attr:`cards_dealt`
    fixed: tuple[int, int, bool, Dealt]
    talon_open: bool
    stock: list[int]
    pool: int
    discarded: int
    special: int
    #: the seats still to be asked whether they want a dealt hand's redeal (Phase.REDEAL)
    askers: tuple[int, ...]
    #: ``bidding.reentry``: the seats that have used their one return to the auction
    reentered: int
    #: ``bidding.blind``: the seats whose first bid was blind
    blinds: int
    #: the named contract (``special.*``): 0 none, 1 misère, 2 open hand, 3 slam
    named: int

    @classmethod
    def new(
        cls,
        rules: Rules,
        dealer: int,
        hands: Sequence[int],
        talon_mask: int,
        *,
        talons: Sequence[int] | None = None,
        stock: Sequence[int] = (),
        aside: int = 0,
        shown: int = -1,
        silent: int = 0,
        golden: bool = False,
    ) -> Deal:
        """A deal as dealt: ``hands`` are masks per seat, ``talon_mask`` the talon's cards.

        Some layouts of rules.md part 4 need more: ``talons`` (choose-talon's two talons; then
        ``talon_mask`` is 0 until one is chosen), ``stock`` (draw-stock, cards top first, the
        last one face up), ``aside`` (a mask: the card set aside in pass-without-taking, the
        unused cards in fixed-deal) and ``shown`` (the card shown to all and dealt to forehand).
        ``silent`` is the mask of the seats that may not bid unless forced
        (``bidding.silence_below``, from the match's totals); ``golden`` makes it a golden deal
        (``golden.deals``: no auction, forehand declares at the target minus the barrel).
        """
        layout = Layout.of(rules)
        all_talons = tuple(talons) if talons is not None else ((talon_mask,) if talon_mask else ())
        dealt = Dealt(tuple(hands), all_talons, tuple(stock), aside, shown, layout.sitter(dealer))
        return cls.from_dealt(rules, dealer, dealt, silent=silent, golden=golden)

    @classmethod
    def from_dealt(
        cls, rules: Rules, dealer: int, dealt: Dealt, *, silent: int = 0, golden: bool = False
    ) -> Deal:
        """A deal as dealt: ``dealt`` holds every card (its sitter must be the layout's);
        ``silent`` and ``golden`` as :meth:`new` takes them."""
        n = rules.players_count
        if len(dealt.hands) != n:
            raise ValueError(f"{len(dealt.hands)} hands for {n} seats")
        dealt.check_deck()
        layout = Layout.of(rules)
        if dealt.sitter != layout.sitter(dealer):
            raise ValueError(
                f"seat {dealt.sitter} sits out, the layout has {layout.sitter(dealer)} sit out"
            )
        hands = dealt.hands
        stock = dealt.stock
        d = cls()
        d.rules = rules
        d.n = n
        d.dealer = dealer
        order, nxt, active = _seating(n, dealer, layout.dealer_sits_out)
        d.order = order
        d.nxt = nxt
        d.active_mask = active
        d.k = len(order)
        d.dealt = hands
        d.talon = dealt.talon
        d.fixed = (layout.procedure, silent, golden, dealt)
        d.talon_open = False
        d.stock = list(stock)
        d.pool = 0
        d.discarded = 0
        d.special = (flags.CRAWL if rules.play_crawl else 0) | (flags.STOCK if stock else 0)
        d.hands = list(hands)
        d.phase = Phase.AUCTION
        d.to_act = order[0]
        d.high_bid = 0
        d.passed = 0
        d.auction = ()
        d.declarer = -1
        d.bid = 0
        d.contract = 0
        d.given = (-1,) * n
        d.result = None
        d.leader = -1
        d.trick = []
        d.trick_trump = -1
        d.trick_best = -1
        d.trick_best_seat = -1
        d.trump = stock[-1] // 6 if stock else -1
        d.won = [0] * n
        d.tricks = [0] * n
        d.marriages = ((),) * n
        d.completed = ()
        d.completed_trumps = ()
        d.plays = ()
        d.lead_trump_due = 0
        d.reentered = 0
        d.blinds = 0
        d.named = 0
        d.askers = ()
        if redeal.hand_rules_on(rules):
            d.askers = redeal.askers(rules, d.dealt, order)
            if d.askers:
                d.phase = Phase.REDEAL
                d.to_act = d.askers[0]
        if golden and not d.askers:
            d.start_auction()
        return d

    def copy(self) -> Deal:
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.n = self.n
        d.dealer = self.dealer
        d.order = self.order
        d.active_mask = self.active_mask
        d.dealt = self.dealt
        d.talon = self.talon
        d.hands = self.hands[:]
        d.phase = self.phase
        d.to_act = self.to_act
        d.high_bid = self.high_bid
        d.passed = self.passed
        d.auction = self.auction
        d.declarer = self.declarer
        d.bid = self.bid
        d.contract = self.contract
        d.given = self.given
        d.result = self.result
        d.leader = self.leader
        d.trick = self.trick[:]
        d.trick_trump = self.trick_trump
        d.trick_best = self.trick_best
        d.trick_best_seat = self.trick_best_seat
        d.trump = self.trump
        d.won = self.won[:]
        d.tricks = self.tricks[:]
        d.marriages = self.marriages
        d.completed = self.completed
        d.completed_trumps = self.completed_trumps
        d.plays = self.plays
        d.lead_trump_due = self.lead_trump_due
        d.k = self.k
        d.nxt = self.nxt
        d.fixed = self.fixed
        d.talon_open = self.talon_open
        d.stock = self.stock[:] if self.stock else self.stock
        d.pool = self.pool
        d.discarded = self.discarded
        d.special = self.special
        d.askers = self.askers
        d.reentered = self.reentered
        d.blinds = self.blinds
        d.named = self.named
        return d

    def key(self) -> tuple[object, ...]:
        """Every field of the deal as one hashable value (its lists as tuples): two deals are
        the same state exactly when their keys are equal. A test changes each field in turn and
        expects another key, so a field added to ``__slots__`` must be added here."""
        return (
            self.active_mask,
            self.askers,
            self.auction,
            self.bid,
            self.blinds,
            self.completed,
            self.completed_trumps,
            self.contract,
            self.dealer,
            self.dealt,
            self.declarer,
            self.discarded,
            self.fixed,
            self.given,
            tuple(self.hands),
            self.high_bid,
            self.k,
            self.lead_trump_due,
            self.leader,
            self.marriages,
            self.n,
            self.named,
            self.nxt,
            self.order,
            self.passed,
            self.phase,
            self.plays,
            self.pool,
            self.reentered,
            self.result,
            self.rules,
            self.special,
            tuple(self.stock),
            self.talon,
            self.talon_open,
            self.to_act,
            tuple(self.trick),
            self.trick_best,
            self.trick_best_seat,
            self.trick_trump,
            tuple(self.tricks),
            self.trump,
            tuple(self.won),
        )

    # -- the seats ---------------------------------------------------------------------------

    @property
    def active(self) -> tuple[int, ...]:
        """The seats that take part in this deal, forehand first."""
        return self.order

    def spoke(self, seat: int) -> bool:
        """Whether ``seat`` has bid or passed in this deal's auction."""
        return any(s == seat for s, _ in self.auction)

    def marriage_points(self, seat: int) -> int:
        """The value of the marriages ``seat`` has declared."""
        rules = self.rules
        values = rules.marriage_values
        total = sum(values[s] if s < 4 else rules.marriage_aces_value for s in self.marriages[seat])
        return total * 2 if self.golden and rules.golden_marriages_doubled else total

    def next_seat(self, seat: int) -> int:
        """The next active seat clockwise."""
        return self.nxt[seat]

    @property
    def proc(self) -> int:
        """The procedure of rules.md part 4 the deal follows (``TAKE_AND_PASS``, ...)."""
        return self.fixed[0]

    @property
    def talons(self) -> tuple[int, ...]:
        """Every talon as dealt."""
        return self.fixed[3].talons

    @property
    def cards_dealt(self) -> Dealt:
        """Every card as dealt, whole."""
        return self.fixed[3]

    @property
    def aside(self) -> int:
        """The cards set aside as dealt."""
        return self.fixed[3].aside

    @property
    def shown(self) -> int:
        """The card shown to all, or -1."""
        return self.fixed[3].shown

    @property
    def silent(self) -> int:
        """The seats that may not bid unless forced (``bidding.silence_below``), as a mask."""
        return self.fixed[1]

    @property
    def crawling(self) -> bool:
        """Whether the trick under way is a crawl."""
        return bool(self.special & flags.CRAWLING)

    @property
    def sitter(self) -> int:
        """The dealer who sits out this deal, or -1."""
        return self.dealer if self.k < self.n else -1

    def partner(self, seat: int) -> int:
        """``seat``'s partner across the table (``players.partnerships`` across), or -1."""
        if self.rules.players_partnerships == "across":
            return (seat + 2) % 4
        return -1

    # -- legal actions and moves -------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act ([] once the deal is over)."""
        phase = self.phase
        if phase is _PLAY:
            return tricks.legal(self)
        if phase is Phase.AUCTION:
            return auction.legal(self)
        if phase is Phase.PASSING:
            if self.pool:
                return handover.legal(self)
            return talon.legal_passing(self)
        if phase is Phase.CONTRACT:
            return talon.legal_contract(self)
        if phase is Phase.TALON:
            return choose_talon.legal_choice(self)
        if phase is Phase.DISCARD:
            return choose_talon.legal_discard(self)
        if phase is Phase.REDEAL:
            return redeal.legal(self)
        if phase is Phase.CONTRA:
            return contra.legal(self)
        if phase is Phase.REBUY:
            return [REBUY_ACTION, PASS_ACTION]
        if phase is Phase.CONCESSION:
            acts = [CONCEDE_ACTION] if self.may_concede() else []
            if self.rules.talon_buyback:
                acts.append(BUYBACK_ACTION)
            return [*acts, PASS_ACTION]
        return []

    def apply(self, action: int) -> None:
        """Apply an action in place, unchecked: the caller vouches that it is legal."""
        phase = self.phase
        if phase is _PLAY:
            tricks.apply(self, action)
        elif phase is Phase.AUCTION:
            auction.apply(self, action)
        elif phase is Phase.PASSING:
            if self.pool:
                handover.apply(self, action)
            else:
                talon.apply_passing(self, action)
        elif phase is Phase.CONTRACT:
            talon.apply_contract(self, action)
        elif phase is Phase.TALON:
            choose_talon.apply_choice(self, action)
        elif phase is Phase.DISCARD:
            choose_talon.apply_discard(self, action)
        elif phase is Phase.REDEAL:
            redeal.apply(self, action)
        elif phase is Phase.CONTRA:
            contra.apply(self, action)
        elif phase is Phase.REBUY:
            self.apply_rebuy(action)
        elif phase is Phase.CONCESSION:
            if action == CONCEDE_ACTION:
                self.finish("conceded")
            elif action == BUYBACK_ACTION:
                self.finish("bought-back")
            else:
                self.after_auction()
        else:
            raise ValueError("the deal is over: no move may follow it")

    # -- phase transitions (the one place that says which phase follows which) ---------------

    def start_auction(self) -> None:
        """Nobody (more) asks for a redeal: forehand speaks first; in a golden deal there is no
        auction, forehand declares at the target minus the barrel threshold."""
        self.phase = Phase.AUCTION
        self.to_act = self.order[0]
        if self.golden:
            rules = self.rules
            self.end_auction(self.order[0], rules.game_target - (rules.barrel_threshold or 0))

    @property
    def golden(self) -> bool:
        """Whether this is a golden deal (``golden.deals``)."""
        return self.fixed[2]

    def end_auction(self, declarer: int, amount: int) -> None:
        """The auction is won: the contract first (``contract.before_talon``), or the talon."""
        self.declarer = declarer
        if amount > NAMED_AMOUNT:  # a named contract: its worth is the bid and the contract
            self.named = amount - NAMED_AMOUNT
            amount = auction.named_worth(self.rules, self.named)
        self.bid = amount
        self.contract = amount
        self.to_act = declarer
        if self.proc != NO_TALON and (self.rules.talon_buyback or self.may_concede()):
            self.phase = Phase.CONCESSION  # decisions before the talon is shown
            return
        self.after_auction()

    def may_concede(self) -> bool:
        """``bidding.forced_concession``: the declarer was forced to the minimum."""
        return self.rules.bidding_forced_concession != "off" and self.forced_minimum()

    def forced_minimum(self) -> bool:
        """Whether the declarer was forced to the minimum contract: the forced dealer bid, or a
        forced seat's bid of ``bidding.min`` that nobody else bid over."""
        rules = self.rules
        forced = rules.bidding_forced
        bids = [(s, a) for s, a in self.auction if a]
        if forced == "none" or self.named or self.bid != rules.bidding_min or len(bids) > 1:
            return False
        if forced == "dealer":
            return not bids
        if forced == "forehand":
            return self.declarer == self.order[0]
        # last-seat: the only bid came after every other seat had passed
        return len(self.auction) == self.k and self.auction[-1][1] != 0

    def after_auction(self) -> None:
        """The contract first (``contract.before_talon``), or the talon, or play."""
        if self.proc == NO_TALON:
            self.start_play()
        elif self.rules.contract_before_talon and not self.named:
            self.phase = Phase.CONTRACT
        else:
            self.reveal()

    def reveal(self) -> None:
        """Show the talon and start its procedure (rules.md 1.4 and part 4)."""
        proc = self.proc
        self.to_act = self.declarer
        if proc == CHOOSE_TALON:
            self.phase = Phase.TALON
            return
        self.talon_open = True
        if proc in (WITHOUT_TAKING, KEEP_ONE):
            self.pool = self.talon
        else:
            self.hands[self.declarer] |= self.talon
        self.phase = Phase.PASSING
        if self.rules.talon_rebuy and proc == TAKE_AND_PASS and not self.askers:
            # talon.rebuy: the others, from the declarer's left, may take the contract over
            asked = contra.defenders(self)
            if asked:
                self.phase = Phase.REBUY
                self.askers = asked
                self.to_act = asked[0]

    def apply_rebuy(self, action: int) -> None:
        """A ``rebuy`` takes the contract over at ``talon.rebuy_contract``, with the talon; a
        ``pass`` asks the next seat; when nobody rebuys, the declarer goes on."""
        if action == REBUY_ACTION:
            old, new = self.declarer, self.to_act
            self.hands[old] &= ~self.talon
            self.hands[new] |= self.talon
            self.declarer = new
            self.bid = self.contract = self.rules.talon_rebuy_contract
            self.special &= ~flags.BLIND_HIGH  # a rebought contract is not blind
            self.named = 0  # nor a named one
            self.askers = (-1,)  # asked already: no second round
            self.phase = Phase.PASSING
            self.to_act = new
            return
        left = self.askers[1:]
        self.askers = left
        if left:
            self.to_act = left[0]
        else:
            self.askers = (-1,)
            self.phase = Phase.PASSING
            self.to_act = self.declarer

    def end_passing(self) -> None:
        """Every card is handed over: the kept or set-aside cards join the declarer's hand."""
        proc = self.proc
        if proc == FIXED_DEAL:
            self.start_discard()
            return
        if proc == KEEP_ONE:
            self.hands[self.declarer] |= self.pool
        elif proc == WITHOUT_TAKING:
            self.hands[self.declarer] |= self.aside | self.pool
        self.pool = 0
        self.end_exchange()

    def start_discard(self) -> None:
        self.phase = Phase.DISCARD
        self.to_act = self.declarer

    def end_exchange(self) -> None:
        """The talon's business is done: the contract move where the rules ask for it."""
        rules = self.rules
        if rules.contract_raise and not rules.contract_before_talon and not self.named:
            self.phase = Phase.CONTRACT
        else:
            self.start_play()

    def start_play(self) -> None:
        """The contract is final: contra and recontra where the rules have them, then play."""
        if self.rules.bidding_contra != "off":
            asked = contra.defenders(self)
            if asked:
                self.phase = Phase.CONTRA
                self.askers = asked
                self.to_act = asked[0]
                return
        self.begin_play()

    def start_raspasy(self) -> None:
        """``redeal.all_pass`` raspasy: no declarer; where the talon has a card for each active
        seat, each takes one (from forehand, lowest card first), so that the tricks are eight;
        forehand leads; no trump and no marriage."""
        self.special |= flags.RASPASY
        talon = self.talon
        if self.proc == TAKE_AND_PASS and talon.bit_count() == self.k:
            for seat in self.order:
                low = talon & -talon
                self.hands[seat] |= low
                talon ^= low
            self.talon_open = True
        self.phase = Phase.PLAY
        self.leader = self.order[0]
        self.to_act = self.order[0]
        self.trick_trump = -1

    def begin_play(self) -> None:
        self.phase = Phase.PLAY
        self.leader = self.declarer
        self.to_act = self.declarer
        self.trick_trump = self.trump

    def finish(self, result: DealEnd) -> None:
        """End the deal with ``result``."""
        self.phase = Phase.DONE
        self.result = result
        self.to_act = -1
