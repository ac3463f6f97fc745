"""A match in play: the match state, the deals so far and the current deal, as one value."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..rules import Rules
from .dealing import deal_layout
from .match import DealReport, MatchState, settle
from .state import DealState


@dataclass(frozen=True, slots=True)
class DealLog:
    """A deal as a record keeps it: who dealt, the cards as dealt, and the moves (actions)."""

    dealer: int
    hands: tuple[int, ...]
    talon: int
    moves: tuple[int, ...] = ()
    #: every talon where the layout has more than one (choose-talon), else ()
    talons: tuple[int, ...] = ()
    #: the draw stock, top card first (draw-stock)
    stock: tuple[int, ...] = ()
    #: the cards set aside (pass-without-taking, fixed-deal), a mask
    aside: int = 0
    #: the card shown to all (``deal.first_card_shown``), or -1
    shown: int = -1


@dataclass(frozen=True, slots=True)
class Game:
    """A whole match: start it, deal, apply moves; every step returns a new Game."""

    rules: Rules
    match: MatchState
    start_totals: tuple[int, ...]
    players: tuple[str, ...] | None = None
    logs: tuple[DealLog, ...] = ()
    reports: tuple[DealReport, ...] = ()
    deal: DealState | None = field(default=None)

    @classmethod
    def start(
        cls,
        rules: Rules,
        totals: Sequence[int] | None = None,
        dealer: int = 0,
        players: Sequence[str] | None = None,
    ) -> Game:
        match = MatchState.start(rules, totals, dealer)
        return cls(
            rules=rules,
            match=match,
            start_totals=match.totals,
            players=tuple(players) if players is not None else None,
        )

    @property
    def over(self) -> bool:
        """The match is won."""
        return self.match.winner is not None

    @property
    def in_deal(self) -> bool:
        """A deal is under way (dealt and not yet over)."""
        return self.deal is not None and not self.deal.over

    def new_deal(
        self,
        hands: Sequence[int],
        talon: int,
        *,
        talons: Sequence[int] | None = None,
        stock: Sequence[int] = (),
        aside: int = 0,
        shown: int = -1,
    ) -> Game:
        """Start the next deal with these cards; the dealer is the match's. The other layouts'
        cards (``talons``, ``stock``, ``aside``, ``shown``) as :meth:`DealState.new` takes them."""
        if self.over:
            raise ValueError("the match is over: no deal may follow its win")
        if self.in_deal:
            raise ValueError("the current deal is not over")
        dealer = self.match.dealer
        below = self.rules.bidding_silence_below
        silent = 0
        if below is not None:
            for seat, total in enumerate(self.match.totals):
                if total < below:
                    silent |= 1 << seat
        state = DealState.new(
            self.rules,
            dealer,
            hands,
            talon,
            talons=talons,
            stock=stock,
            aside=aside,
            shown=shown,
            silent=silent,
            golden=self.match.golden_played < self.rules.golden_deals,
        )
        log = DealLog(
            dealer,
            tuple(hands),
            talon,
            talons=tuple(talons) if talons is not None else (),
            stock=tuple(stock),
            aside=aside,
            shown=shown,
        )
        return replace(self, deal=state, logs=(*self.logs, log))

    def shuffle_and_deal(self, rng: random.Random) -> Game:
        dealt = deal_layout(self.rules, rng, self.match.dealer)
        many = len(dealt.talons) > 1
        return self.new_deal(
            dealt.hands,
            dealt.talon,
            talons=dealt.talons if many else None,
            stock=dealt.stock,
            aside=dealt.aside,
            shown=dealt.shown,
        )

    def apply(self, move: int | str, checked: bool = True) -> Game:
        """Apply a move to the current deal; when the deal ends, score it into the match."""
        if self.deal is None or self.deal.over:
            raise ValueError("no deal is under way")
        if checked:
            action = self.deal.check(move)
            state = self.deal.apply(action)
        else:
            action = self.deal.parse(move)
            state = self.deal.apply_unchecked(action)
        last = self.logs[-1]
        logs = (*self.logs[:-1], replace(last, moves=(*last.moves, action)))
        game = replace(self, deal=state, logs=logs)
        outcome = state.outcome
        if outcome is None:
            return game
        match, report = settle(self.match, outcome)
        return replace(game, match=match, reports=(*self.reports, report))
