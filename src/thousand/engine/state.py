"""The immutable deal state: the checked API for people, bots, records and the server."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rules
from .actions import MAX_ACTION, NAMED_WORDS, MoveSyntaxError, action_text, parse_action
from .deal import Deal, Phase
from .dealing import Dealt, deal_layout
from .errors import IllegalAction
from .flags import BLIND_HIGH
from .legality import explain, whereabouts
from .scoring import DealOutcome, score


class DealState:
    """One deal, as a value: :meth:`apply` returns a new state and never changes this one.

    Three faces for every action (check, ask, do): :meth:`check` raises :class:`IllegalAction`
    with the rule broken, :meth:`is_legal` answers yes or no, :meth:`apply` checks and applies.
    :meth:`apply_unchecked` skips the check, and :meth:`core` hands search a mutable copy.
    """

    __slots__ = ("_d", "_legal")

    _d: Deal
    _legal: list[int] | None

    def __init__(self, deal: Deal) -> None:
        self._d = deal
        self._legal = None

    @classmethod
    def new(
        cls,
        rules: Rules,
        dealer: int,
        hands: Sequence[int],
        talon: int,
        *,
        talons: Sequence[int] | None = None,
        stock: Sequence[int] = (),
        aside: int = 0,
        shown: int = -1,
        silent: int = 0,
        golden: bool = False,
    ) -> DealState:
        """A deal as dealt: ``hands`` are card masks by seat, ``talon`` a card mask; the other
        layouts' cards, and the seats kept silent, as :meth:`Deal.new` takes them."""
        return cls(
            Deal.new(
                rules,
                dealer,
                hands,
                talon,
                talons=talons,
                stock=stock,
                aside=aside,
                shown=shown,
                silent=silent,
                golden=golden,
            )
        )

    @classmethod
    def from_dealt(
        cls, rules: Rules, dealer: int, dealt: Dealt, *, silent: int = 0, golden: bool = False
    ) -> DealState:
        """A deal from the cards dealt, whole (:func:`~thousand.engine.dealing.deal_layout`);
        ``silent`` and ``golden`` as :meth:`new` takes them."""
        return cls(Deal.from_dealt(rules, dealer, dealt, silent=silent, golden=golden))

    @classmethod
    def shuffled(cls, rules: Rules, dealer: int, rng: random.Random) -> DealState:
        """A freshly shuffled deal from a seeded generator."""
        return cls.from_dealt(rules, dealer, deal_layout(rules, rng, dealer))

    def core(self) -> Deal:
        """A mutable copy of the full state, for search (the fast, unchecked path)."""
        return self._d.copy()

    # -- reading ------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._d.rules

    @property
    def phase(self) -> Phase:
        return self._d.phase

    @property
    def over(self) -> bool:
        return self._d.to_act < 0

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is, or None once the deal is over."""
        return None if self._d.to_act < 0 else self._d.to_act

    @property
    def dealer(self) -> int:
        return self._d.dealer

    @property
    def seats(self) -> int:
        return self._d.n

    @property
    def active(self) -> tuple[int, ...]:
        return self._d.order

    @property
    def dealt(self) -> tuple[int, ...]:
        return self._d.dealt

    @property
    def hands(self) -> tuple[int, ...]:
        return tuple(self._d.hands)

    @property
    def talon(self) -> int:
        return self._d.talon

    @property
    def talon_shown(self) -> bool:
        """Whether the talon (the chosen one, in choose-talon) has been shown."""
        return self._d.talon_open

    @property
    def cards_dealt(self) -> Dealt:
        """Every card of the deal as dealt, whole: hands, talons, stock, aside, shown card."""
        return self._d.cards_dealt

    @property
    def talons(self) -> tuple[int, ...]:
        """Every talon as dealt (two in choose-talon; () where there is none)."""
        return self._d.talons

    @property
    def stock(self) -> tuple[int, ...]:
        """The draw stock left, top card first (draw-stock; () elsewhere)."""
        return tuple(self._d.stock)

    @property
    def aside(self) -> int:
        """The cards set aside as dealt (pass-without-taking, fixed-deal; 0 elsewhere)."""
        return self._d.aside

    @property
    def shown(self) -> int | None:
        """The card shown to all and dealt to forehand (``deal.first_card_shown``)."""
        return None if self._d.shown < 0 else self._d.shown

    @property
    def discarded(self) -> int:
        """The cards the declarer laid face down on its tricks (fixed-deal, choose-talon)."""
        return self._d.discarded

    @property
    def crawling(self) -> bool:
        """Whether the trick under way is a crawl, its cards face down (``play.crawl``)."""
        return self._d.crawling

    @property
    def sitter(self) -> int | None:
        """The dealer who sits out this deal, or None."""
        return None if self._d.sitter < 0 else self._d.sitter

    @property
    def auction(self) -> tuple[tuple[int, int], ...]:
        """(seat, bid) in order; a bid of 0 is a pass."""
        return tuple(self._d.auction)

    @property
    def high_bid(self) -> int | None:
        return self._d.high_bid or None

    @property
    def blinds(self) -> int:
        """``bidding.blind``: the mask of the seats whose first bid was blind."""
        return self._d.blinds

    @property
    def blind_contract(self) -> bool:
        """Whether the high bid (once the auction is won, the contract) was bid blind."""
        return bool(self._d.special & BLIND_HIGH)

    @property
    def named(self) -> str | None:
        """The named contract won in the auction (``special.*``): misere, open or slam."""
        return NAMED_WORDS[self._d.named] if self._d.named else None

    @property
    def declarer(self) -> int | None:
        return None if self._d.declarer < 0 else self._d.declarer

    @property
    def bid(self) -> int | None:
        return self._d.bid or None

    @property
    def contract(self) -> int | None:
        """The contract in force (the bid until the declarer names its contract)."""
        return self._d.contract or None

    @property
    def given(self) -> tuple[int | None, ...]:
        """The card the declarer passed to each seat (None where none)."""
        return tuple(None if c < 0 else c for c in self._d.given)

    @property
    def trump(self) -> int | None:
        return None if self._d.trump < 0 else self._d.trump

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The current trick as (seat, card) pairs, leader first."""
        d = self._d
        out = []
        seat = d.leader
        for c in d.trick:
            out.append((seat, c))
            seat = d.next_seat(seat)
        return tuple(out)

    @property
    def completed_tricks(self) -> tuple[tuple[int, tuple[int, ...], int], ...]:
        """Every finished trick as (leader, cards in play order, winner)."""
        return tuple(self._d.completed)

    @property
    def trick_trump(self) -> int | None:
        """The trump the trick under way is played under (None: none, or no trick under way;
        a crawl has none)."""
        d = self._d
        if not d.trick or d.crawling or d.trick_trump < 0:
            return None
        return d.trick_trump

    @property
    def completed_trumps(self) -> tuple[int | None, ...]:
        """The trump each finished trick was played under (None: no trump, as in a crawl)."""
        return tuple(None if t < 0 else t for t in self._d.completed_trumps)

    @property
    def plays(self) -> tuple[tuple[int, int], ...]:
        """Every move of the play so far as (seat, action), in order: the cards, the face-down
        crawl cards and the marriages declared from the hand."""
        return self._d.plays

    @property
    def won(self) -> tuple[int, ...]:
        """The cards each seat has captured in tricks."""
        return tuple(self._d.won)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._d.tricks)

    @property
    def marriages(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self._d.marriages)

    @property
    def outcome(self) -> DealOutcome | None:
        """The scored deal once it is over."""
        return score(self._d) if self.over else None

    # -- acting -------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, as ints (see :mod:`thousand.engine.actions`)."""
        if self._legal is None:
            self._legal = self._d.legal_actions()
        return list(self._legal)

    def legal_moves(self) -> list[str]:
        """The legal actions as record tokens."""
        return [action_text(a) for a in self.legal_actions()]

    def parse(self, move: int | str) -> int:
        """An action from an int or a record token (syntax only): :class:`MoveSyntaxError` for
        what is no move at all, whatever the deal (an :class:`IllegalAction` is a move that the
        rules forbid here)."""
        if isinstance(move, int):
            if not 0 <= move <= MAX_ACTION:
                raise MoveSyntaxError(f"{move} is not an action")
            return move
        return parse_action(move)

    def is_legal(self, move: int | str) -> bool:
        try:
            action = self.parse(move)
        except MoveSyntaxError:
            return False
        if self._legal is None:
            self._legal = self._d.legal_actions()
        return action in self._legal

    def check(self, move: int | str) -> int:
        """The action, if legal; otherwise :class:`IllegalAction` saying which rule forbids it
        (its message for the seat to act, its ``detail`` for a referee), or
        :class:`MoveSyntaxError` for what is no move at all."""
        action = self.parse(move)
        if self._legal is None:
            self._legal = self._d.legal_actions()
        if action not in self._legal:
            try:
                reason = explain(self._d, action)
                detail = reason + whereabouts(self._d, action)
            except (ValueError, IndexError):
                reason = detail = f"{action} is not an action"
            raise IllegalAction(reason, detail)
        return action

    def apply(self, move: int | str) -> DealState:
        """Check and apply a move; this state is left as it was."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._d.legal_actions()
        action = move if type(move) is int and move in legal else self.check(move)
        d = self._d.copy()
        d.apply(action)
        return DealState(d)

    def apply_unchecked(self, action: int) -> DealState:
        d = self._d.copy()
        d.apply(action)
        return DealState(d)

    # -- values -------------------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return self._d.key()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<DealState {self.phase.name} to_act={self.to_act}>"
