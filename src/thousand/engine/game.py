"""A match in play: the match state, the deals so far and the current deal, as one value."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..rules import Rules
from ..rules.layout import Layout
from .dealing import Dealt, deal_layout
from .match import DealReport, MatchState, settle
from .state import DealState


@dataclass(frozen=True, slots=True)
class DealLog:
    """A deal as a record keeps it: who dealt, the cards as dealt (whole), and the moves
    (actions)."""

    dealer: int
    dealt: Dealt
    moves: tuple[int, ...] = ()


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

    def new_deal(self, dealt: Dealt) -> Game:
        """Start the next deal with these cards, dealt whole; the dealer is the match's.
        ValueError, saying what is wrong, unless they are dealt as the rules' layout deals."""
        if self.over:
            raise ValueError("the match is over: no deal may follow its win")
        if self.in_deal:
            raise ValueError("the current deal is not over")
        dealer = self.match.dealer
        dealt.check(Layout.of(self.rules), dealer)
        below = self.rules.bidding_silence_below
        silent = 0
        if below is not None:
            for seat, total in enumerate(self.match.totals):
                if total < below:
                    silent |= 1 << seat
        state = DealState.from_dealt(
            self.rules,
            dealer,
            dealt,
            silent=silent,
            golden=self.match.golden_played < self.rules.golden_deals,
        )
        log = DealLog(dealer, dealt)
        return replace(self, deal=state, logs=(*self.logs, log))

    def shuffle_and_deal(self, rng: random.Random) -> Game:
        return self.new_deal(deal_layout(self.rules, rng, self.match.dealer))

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
