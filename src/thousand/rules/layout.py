"""What a layout of rules.md part 4 deals: one :class:`Layout`, derived once from the rules.

Every part that needs to know how many cards go where (the dealing, the deal state machine,
records, storage, bots, clients) asks the layout; nobody counts cards from the parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ..cards import DECK_SIZE

if TYPE_CHECKING:
    from .model import Rules

# How the talon reaches the declarer (rules.md part 4), fixed when the deal is made.
TAKE_AND_PASS: Final = 0
"""1.4: take the talon, pass a card to each other active seat (also dealer-sits-out)."""
NO_TALON: Final = 1
"""no-talon and draw-stock: play starts right after the auction."""
FIXED_DEAL: Final = 2
"""fixed-deal: take the talon, hand one card over, discard one."""
CHOOSE_TALON: Final = 3
"""choose-talon: pick one of two talons, take it, discard two."""
WITHOUT_TAKING: Final = 4
"""pass-without-taking: hand the talon's cards over, then take the card set aside."""
KEEP_ONE: Final = 5
"""keep-one: keep one talon card, hand the others over."""

# Where a card of the deck goes (:meth:`Layout.places`): a seat (0 and up), or one of these.
ASIDE: Final = -1
"""set aside (pass-without-taking, fixed-deal)"""
STOCK: Final = -2
"""the draw stock (draw-stock)"""
TALON: Final = -3
"""the first talon; the second (choose-talon) is ``TALON - 1``"""


@dataclass(frozen=True, slots=True)
class Layout:
    """How many cards go where in every deal under some rules, and which procedure follows.

    ``players`` seats; each active seat gets ``hand_size`` cards (the dealer none where
    ``dealer_sits_out``); ``talons`` talons of ``talon_size`` cards each; the rest is the draw
    stock (``stock_size``) or set aside (``aside_size``); with ``shown`` forehand's first card
    is shown to all.
    """

    players: int
    hand_size: int
    talons: int
    talon_size: int
    stock_size: int
    aside_size: int
    shown: bool
    dealer_sits_out: bool
    procedure: int

    @classmethod
    def of(cls, rules: Rules) -> Layout:
        """The layout of ``rules``, memoised: every deal and every view asks, so the same
        rules object is found by identity first (hashing the rules' every field is slower)."""
        entry = _BY_IDENTITY.get(id(rules))
        if entry is not None and entry[0] is rules:
            return entry[1]
        found = _LAYOUTS.get(rules)
        if found is None:
            if len(_LAYOUTS) >= _MEMO_SIZE:
                _LAYOUTS.clear()
            found = _LAYOUTS[rules] = cls.derive(rules)
        if len(_BY_IDENTITY) >= _MEMO_SIZE:
            _BY_IDENTITY.clear()
        _BY_IDENTITY[id(rules)] = (rules, found)
        return found

    @classmethod
    def derive(cls, rules: Rules) -> Layout:
        """The layout of ``rules`` worked out afresh (rules still being checked may not be
        hashable yet; :meth:`of` remembers the layouts of checked rules)."""
        layout = rules.players_layout
        n = rules.players_count
        sits_out = layout == "dealer-sits-out"
        no_talon = layout in ("no-talon", "draw-stock")
        talon_size = 0 if no_talon else rules.deal_talon_size
        talons = 0 if not talon_size else 2 if rules.talon_distribution == "choose-talon" else 1
        active = n - (1 if sits_out else 0)
        rest = DECK_SIZE - active * rules.deal_hand_size - talons * talon_size
        stock = rest if layout == "draw-stock" else 0
        return cls(
            players=n,
            hand_size=rules.deal_hand_size,
            talons=talons,
            talon_size=talon_size,
            stock_size=stock,
            aside_size=rest - stock,
            shown=rules.deal_first_card_shown,
            dealer_sits_out=sits_out,
            procedure=_procedure(rules),
        )

    @property
    def active(self) -> int:
        """How many seats are dealt a hand: all but a dealer who sits out."""
        return self.players - (1 if self.dealer_sits_out else 0)

    @property
    def stock_tricks(self) -> int:
        """draw-stock: how many tricks, from the first, are played while the stock lasts (after
        each, every active seat draws a card); any card may be played to them. 0 elsewhere."""
        return self.stock_size // self.active

    @property
    def left_over(self) -> int:
        """The cards that no hand and no talon takes: the stock, or the cards set aside
        (negative where the hands and talons would need more than the deck)."""
        return self.stock_size + self.aside_size

    def sitter(self, dealer: int) -> int | None:
        """The seat that sits this deal out (the dealer, in dealer-sits-out), or None."""
        return dealer if self.dealer_sits_out else None

    def seats(self, dealer: int) -> tuple[int, ...]:
        """The seats dealt a hand, forehand (the seat after the dealer) first."""
        seats = tuple((dealer + 1 + i) % self.players for i in range(self.players))
        return seats[:-1] if self.dealer_sits_out else seats

    def hand_size_of(self, seat: int, dealer: int) -> int:
        """How many cards ``seat`` is dealt when ``dealer`` deals."""
        return 0 if seat == self.sitter(dealer) else self.hand_size

    def places(self, dealer: int) -> tuple[int, ...]:
        """Where each card of the deck goes, top first, when ``dealer`` deals (rules.md 1.2,
        part 4): a seat, :data:`TALON` (``TALON - i`` for talon ``i``), :data:`STOCK` or
        :data:`ASIDE`. The active seats take their hands in blocks from forehand on; then the
        talons, then the stock or the cards set aside. With a shown card, forehand's first card
        is the deck's first and the talon comes right after forehand's cards, never first or
        last. (Memoised: every deal asks.)"""
        key = (self, dealer)
        found = _PLACES.get(key)
        if found is None:
            places: list[int] = []
            talons = 0
            for i, seat in enumerate(self.seats(dealer)):
                places += [seat] * self.hand_size
                if i == 0 and self.shown and self.talons:
                    places += [TALON] * self.talon_size
                    talons = 1
            for t in range(talons, self.talons):
                places += [TALON - t] * self.talon_size
            places += [STOCK] * self.stock_size + [ASIDE] * self.aside_size
            found = _PLACES[key] = tuple(places)
        return found

    def blocks(self, dealer: int) -> tuple[tuple[int, int, int], ...]:
        """:meth:`places` as blocks: (start, end, place) for each run of deck positions that
        go to one place, top first (memoised)."""
        key = (self, dealer)
        found = _BLOCKS.get(key)
        if found is None:
            places = self.places(dealer)
            runs: list[tuple[int, int, int]] = []
            start = 0
            for i in range(1, len(places) + 1):
                if i == len(places) or places[i] != places[start]:
                    runs.append((start, i, places[start]))
                    start = i
            found = _BLOCKS[key] = tuple(runs)
        return found


_MEMO_SIZE: Final = 4096
_LAYOUTS: dict[Rules, Layout] = {}
#: by ``id(rules)``, holding the rules so that the id stays theirs
_BY_IDENTITY: dict[int, tuple[Rules, Layout]] = {}
_PLACES: dict[tuple[Layout, int], tuple[int, ...]] = {}
_BLOCKS: dict[tuple[Layout, int], tuple[tuple[int, int, int], ...]] = {}


def _procedure(rules: Rules) -> int:
    """Which procedure of part 4 a deal under ``rules`` follows (the layout wins)."""
    layout = rules.players_layout
    if layout == "no-talon" or layout == "draw-stock":
        return NO_TALON
    if layout == "fixed-deal":
        return FIXED_DEAL
    dist = rules.talon_distribution
    if dist == "choose-talon":
        return CHOOSE_TALON
    if dist == "pass-without-taking":
        return WITHOUT_TAKING
    if dist == "keep-one":
        return KEEP_ONE
    return TAKE_AND_PASS
