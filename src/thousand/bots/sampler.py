"""Full deals consistent with a seat's view: the hidden cards placed at random, so that the
deal, replayed move by move, is legal and shows this seat exactly its view.

The constraints come from the view: the seat's own cards, every card played and who played it,
the voids shown in play (rules.md 1.5), the card the declarer passed to this seat (or, for the
declarer, every card it passed), the talon where it was shown, and the partner card of every
declared marriage. Rules that the shortcut of voids does not cover (must-beat, bid caps by
marriage, ...) are enforced by replaying the deal through the engine: a sample whose replay
breaks a rule is thrown away and drawn again. Where the talon is handed over without being
taken (pass-without-taking, keep-one), in fixed-deal and in choose-talon (tysiac-2p), deals are
rebuilt by the layout's own procedure in the play; before it, the other hands and the hidden
slots are drawn: the talon while unseen (keep-one's too, where the contract comes first),
pass-without-taking's card set aside and fixed-deal's unused cards in the auction, keep-one's
card shown kept with forehand (choose-talon's two talons drawn as one hidden slot and split, the
declarer's deals from its discards on; fixed-deal's declarer's from its hand-over on); in
choose-talon the talon chosen is the deal's first (which one it was, no view says), the other
is drawn with the hidden cards. In draw-stock (two-player-a) deals are drawn in the play once
the stock is drawn, when every card left is in a hand. In no-talon (four-player-a) every card
is in a hand: the other seats' hands are drawn, in the auction and in the play, and the history
replayed has no contract move.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import FULL_DECK, KING, QUEEN, card_list
from ..engine.actions import DISCARD, NAMED_AMOUNT, contract, give
from ..engine.actions import TALON as TAKE_TALON
from ..engine.deal import Deal, Phase
from ..engine.views import SeatView
from ..rules.layout import CHOOSE_TALON, FIXED_DEAL, KEEP_ONE, NO_TALON, WITHOUT_TAKING, Layout
from .knowledge import known_held, not_held, played_by, voids

_PAIRS = tuple((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4))

HANDOVER = (WITHOUT_TAKING, KEEP_ONE)
"""The procedures whose talon is handed over without being taken."""

TALON = -1
"""The slot of the talon while it is still hidden (in the auction)."""

TAKEN = (Phase.DISCARD, Phase.CONTRACT, Phase.PLAY, Phase.DONE)
"""choose-talon: the phases after a talon is taken."""

DECLARERS_OWN = (Phase.PASSING, Phase.DISCARD, Phase.CONTRACT)
"""fixed-deal: the declarer's decisions between the auction and the play."""


def history(view: SeatView, given: tuple[int, ...], discard: int = 0) -> list[int]:
    """The deal's actions so far, from the view and the card passed to each seat (``given``,
    -1 where none): the auction, the passing, the discards, the contract (where the layout has
    a contract move: not in no-talon nor draw-stock), then the play's moves as the view gives
    them (another seat's face-down crawl card is :data:`~thousand.engine.views.FACE_DOWN`,
    which no deal accepts: that moment is not sampled)."""
    acts = list(view.auction_actions())
    if view.declarer is None:
        return acts
    declarer = view.declarer
    procedure = Layout.of(view.rules).procedure
    # no-talon and draw-stock have no contract move: the play starts after the auction
    has_contract = procedure != NO_TALON
    before_talon = has_contract and view.rules.contract_before_talon and view.named is None
    if before_talon and view.phase in (Phase.PASSING, Phase.PLAY, Phase.DONE):
        assert view.contract is not None
        acts.append(contract(view.contract))  # contract.before_talon: named before the talon
    for seat in view.active:
        if seat != declarer and given[seat] >= 0:
            acts.append(give(given[seat], seat))
    if procedure == CHOOSE_TALON and view.phase in TAKEN:
        acts.append(TAKE_TALON)  # choose-talon: the talon taken is the deal's first
    acts += [DISCARD + c for c in card_list(discard)]
    raised = has_contract and view.rules.contract_raise and not before_talon
    if view.phase in (Phase.PLAY, Phase.DONE) and raised:
        assert view.contract is not None
        acts.append(contract(view.contract))
    acts += [action for _, action in view.plays]
    return acts


def replay_deal(
    view: SeatView,
    dealt: list[int],
    talon: int,
    given: tuple[int, ...],
    aside: int = 0,
    shown: int = -1,
    discard: int = 0,
    talons: tuple[int, ...] | None = None,
    stock: tuple[int, ...] = (),
) -> Deal | None:
    """The deal with these cards, replayed to the view's moment; None if a move is illegal.
    ``discard``: the declarer's discards (fixed-deal, choose-talon), made after the cards it
    passed; ``talons``: choose-talon's two talons (then ``talon`` is 0); ``stock``: the draw
    stock, top card first."""
    try:
        d = Deal.new(
            view.rules,
            view.dealer,
            dealt,
            talon,
            talons=talons,
            stock=stock,
            aside=aside,
            shown=shown,
        )
    except ValueError:
        return None
    for action in history(view, given, discard):
        if action not in d.legal_actions():
            return None
        d.apply(action)
    return d


def dealable(cards: int, allowed: list[int], counts: list[int]) -> bool:
    """Whether ``cards`` can be dealt to slots, slot ``i`` taking ``counts[i]`` of them, each a
    card of ``allowed[i]`` (Hall's condition over every set of slots)."""
    k = len(allowed)
    if cards.bit_count() != sum(counts):
        return False
    for sub in range(1, 1 << k):
        outside = 0
        room = 0
        for i in range(k):
            if sub >> i & 1:
                room += counts[i]
            elif counts[i]:
                outside |= allowed[i]
        if (cards & ~outside).bit_count() > room:
            return False
    return True


def assign(
    cards: int, allowed: list[int], counts: list[int], rng: random.Random
) -> list[int] | None:
    """The ``cards`` dealt at random to slots, slot ``i`` taking ``counts[i]`` of them, each a
    card of ``allowed[i]``; None where no such deal exists. Every card is placed where the rest
    can still be placed (Hall's condition, checked over every set of slots), so a deal is found
    whenever one exists, the most constrained cards first."""
    k = len(allowed)
    need = list(counts)
    if cards.bit_count() != sum(need):
        return None
    out = [0] * k

    def feasible(rest: int) -> bool:
        return dealable(rest, allowed, need)

    if not feasible(cards):
        return None
    order = card_list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: sum(1 for i in range(k) if need[i] and allowed[i] >> c & 1))
    rest = cards
    for c in order:
        rest &= ~(1 << c)
        options = []
        weights = []
        for i in range(k):
            if need[i] and allowed[i] >> c & 1:
                need[i] -= 1
                if feasible(rest):
                    options.append(i)
                    weights.append(need[i] + 1)
                need[i] += 1
        if not options:
            return None
        i = rng.choices(options, weights)[0]
        out[i] |= 1 << c
        need[i] -= 1
    return out


class Sampler:
    """Draws deals consistent with one view (build one per decision)."""

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        if view.seat is None or view.hand is None or view.dealt is None:
            raise ValueError("a spectator's view has no hand to sample around")
        self.view = view
        self.rng = rng
        self.me = view.seat
        self.played = played_by(view)
        #: the cards each seat has shown it does not hold: its voids and what the follow rules
        #: (must-beat, over-trumping) exclude
        self.voids = [v | x for v, x in zip(voids(view), not_held(view), strict=True)]
        self.known = known_held(view)
        self.layout = Layout.of(view.rules)
        procedure = self.layout.procedure
        before_play = view.phase is not Phase.PLAY
        handover = procedure in HANDOVER
        #: the talon is a slot of hidden cards: in the auction, at a contract named before the
        #: talon (contract.before_talon, keep-one) and, where it is handed over untaken, until
        #: it is shown
        self.hidden_talon = view.declarer is None or (
            view.talon is None
            and (
                (handover and before_play)
                or (view.phase is Phase.CONTRACT and view.rules.contract_before_talon)
            )
        )
        self.talon_size = sum(view.talon_sizes) if self.hidden_talon else 0
        #: fixed-deal in the auction: the cards that take no part, a hidden slot like the talon;
        #: pass-without-taking before the play: the card set aside for the declarer
        fixed = procedure == FIXED_DEAL
        aside_hidden = (fixed and self.hidden_talon) or (
            procedure == WITHOUT_TAKING and before_play
        )
        self.unused_size = view.aside_count if aside_hidden else 0
        seen = view.hand | view.played
        for k in self.known:
            seen |= k
        if view.shown is not None:
            seen |= 1 << view.shown  # keep-one: dealt face up to forehand
        if view.talon is not None and (view.declarer != self.me or handover):
            seen |= view.talon & ~view.played  # placed below, with the declarer or a defender
        self.pool = FULL_DECK & ~seen
        #: by seat, the cards of the marriages its bid shows (kept in its hand as dealt)
        self.protect = [0] * view.seats
        #: pass-without-taking and keep-one in the play: see :meth:`_attempt_handover`
        self.handover = view.phase is Phase.PLAY and self.layout.procedure in HANDOVER
        #: fixed-deal in the play, and the declarer's hand-over, discard and contract: see
        #: :meth:`_attempt_fixed_deal`
        self.fixed_deal = fixed and (
            not before_play or (view.phase in DECLARERS_OWN and view.declarer == self.me)
        )
        #: choose-talon in the play, and the declarer's discards and contract: see
        #: :meth:`_attempt_choose_talon`
        self.choose_talon = self.layout.procedure == CHOOSE_TALON and (
            view.phase is Phase.PLAY
            or (view.phase in (Phase.DISCARD, Phase.CONTRACT) and view.declarer == self.me)
        )
        #: draw-stock in the play, the stock drawn: see :meth:`_attempt_drawn_stock`
        self.drawn_stock = (
            view.phase is Phase.PLAY and bool(self.layout.stock_size) and not view.stock_count
        )

    def draw(self, tries: int = 40) -> Deal | None:
        """One consistent deal at the view's moment, or None after ``tries`` failed attempts."""
        for _ in range(tries):
            d = self._attempt()
            if d is not None:
                return d
        return None

    # -- one attempt ----------------------------------------------------------------------------

    def _attempt(self) -> Deal | None:
        if self.handover:
            return self._attempt_handover()
        if self.fixed_deal:
            return self._attempt_fixed_deal()
        if self.choose_talon:
            return self._attempt_choose_talon()
        if self.drawn_stock:
            return self._attempt_drawn_stock()
        view = self.view
        me = self.me
        declarer = view.declarer
        n = view.seats
        hands = [self.known[s] for s in range(n)]
        hands[me] = view.hand or 0
        forehand = view.active[0]
        if view.shown is not None and forehand != me and not view.played >> view.shown & 1:
            hands[forehand] |= 1 << view.shown
        need = [view.card_counts[s] - hands[s].bit_count() for s in range(n)]
        need[me] = 0
        allowed = [~self.voids[s] & FULL_DECK for s in range(n)]
        given = [-1] * n
        if declarer is not None:
            if view.passed is not None:
                given = [-1 if c is None else c for c in view.passed]
            if view.received is not None:
                given[me] = view.received
        if declarer is None or view.talon is None or declarer == me:
            return self._complete(hands, need, allowed, given, self.pool)
        # A defender's view with the talon shown: the other defender received one of the talon
        # cards still out, or none; each choice is tried (a likely one first) until one fits.
        for choice in self._talon_choices(allowed):
            h, nd, al, g = list(hands), list(need), list(allowed), list(given)
            pool = self._place_talon(h, nd, al, g, choice)
            if pool is None:
                continue
            d = self._complete(h, nd, al, g, pool)
            if d is not None:
                return d
        return None

    def _complete(
        self, hands: list[int], need: list[int], allowed: list[int], given: list[int], pool: int
    ) -> Deal | None:
        """The pool dealt to the hands (and the hidden talon), the deal rebuilt and replayed."""
        n = self.view.seats

        # the hidden slots beside the hands: the talon, and fixed-deal's unused cards or
        # pass-without-taking's card set aside
        hidden = [size for size in (self.talon_size, self.unused_size) if size]

        def fits(rest: int, left: list[int]) -> bool:
            slots = [s for s in range(n) if left[s] > 0]
            masks = [allowed[s] for s in slots] + [rest] * len(hidden)
            return dealable(rest, masks, [left[s] for s in slots] + hidden)

        pool = self._force_marriages(hands, need, pool, allowed, given, fits)
        if pool < 0:
            return None
        slots = [s for s in range(n) if need[s] > 0]
        masks = [allowed[s] for s in slots] + [pool] * len(hidden)
        placed = assign(pool, masks, [need[s] for s in slots] + hidden, self.rng)
        if placed is None:
            return None
        for s, m in zip(slots, placed, strict=False):
            hands[s] |= m
        talon = placed[len(slots)] if self.talon_size else 0
        unused = placed[-1] if self.unused_size else 0
        return self._rebuild(hands, talon, given, unused)

    def _talon_rest(self) -> int:
        """The talon cards shown to this defender that are still out, in no known hand."""
        view = self.view
        assert view.talon is not None
        rest = view.talon & ~view.played & ~(view.hand or 0)
        for k in self.known:
            rest &= ~k
        return rest

    def _talon_choices(self, allowed: list[int]) -> list[int]:
        """The talon card the other defender may have received (-1: none, or it played it),
        the likely choice first: none, or with the chance that the declarer passed one of the
        talon cards, one of them."""
        view = self.view
        declarer = view.declarer
        assert declarer is not None and view.talon is not None
        others = [s for s in view.active if s not in (self.me, declarer)]
        if len(others) != 1 or view.talon & self._holds(others[0]):
            return [-1]
        other = others[0]
        rest = self._talon_rest()
        must = rest & ~allowed[declarer]  # the declarer has shown it cannot hold these
        received = self._has_received(other)
        if must:
            if must & (must - 1) or not received or not must & allowed[other]:
                return []
            return [must.bit_length() - 1]
        if not received:
            return [-1]
        cards = card_list(rest & allowed[other])
        self.rng.shuffle(cards)
        chances = rest.bit_count() / max(1, len(card_list(view.dealt or 0)) + 2)
        if cards and self.rng.random() < chances:
            return [cards[0], -1, *cards[1:]]
        return [-1, *cards]

    def _place_talon(
        self, hands: list[int], need: list[int], allowed: list[int], given: list[int], choice: int
    ) -> int | None:
        """A defender's view with the talon shown: the talon cards still out are with the
        declarer, except ``choice`` (-1: none), the one passed to the other defender. Returns
        the pool left."""
        view = self.view
        declarer = view.declarer
        assert declarer is not None and view.talon is not None
        rest = self._talon_rest()
        others = [s for s in view.active if s not in (self.me, declarer)]
        for other in others:
            shown = view.talon & self._holds(other)
            if shown:  # it played the card, or declared a marriage with it
                given[other] = shown.bit_length() - 1
                continue
            if choice >= 0:
                if need[other] <= 0:
                    return None
                hands[other] |= 1 << choice
                need[other] -= 1
                given[other] = choice
                rest &= ~(1 << choice)
        for c in card_list(rest):
            if need[declarer] <= 0:
                return None
            hands[declarer] |= 1 << c
            need[declarer] -= 1
        for other in others:
            if given[other] < 0:
                allowed[other] &= ~view.talon
        return self.pool

    def _marriage_needs_by_hand(self) -> tuple[dict[int, int], dict[int, int]]:
        """The marriage points each other seat must have held: in its hand as dealt, for a bid
        above 120 where bids are capped by marriages (``bidding.marriage_cap``); in its hand
        when it named the contract, for a contract raised above 120 (``contract.raise_limit``
        achievable; its hand as dealt where the contract comes before the talon)."""
        view = self.view
        rules = view.rules
        dealt: dict[int, int] = {}
        held: dict[int, int] = {}
        cap = rules.bidding_marriage_cap
        if cap != "off":
            for seat, amount in view.auction:
                if seat != self.me and 120 < amount <= NAMED_AMOUNT:
                    extra = amount - 120 if cap == "plus-marriages" else 1
                    dealt[seat] = max(dealt.get(seat, 0), extra)
        declarer = view.declarer
        if (
            declarer is not None
            and declarer != self.me
            and rules.contract_raise
            and rules.contract_raise_limit == "achievable"
            and view.phase in (Phase.PLAY, Phase.DONE)
            and view.contract is not None
            and view.bid is not None
            and view.contract > max(view.bid, 120)
        ):
            needs = dealt if rules.contract_before_talon and view.named is None else held
            needs[declarer] = max(needs.get(declarer, 0), view.contract - 120)
        return dealt, held

    def _marriage_needs(self) -> dict[int, int]:
        """The marriage points each other seat must have held, as dealt or when it named the
        contract, whichever is more (see :meth:`_marriage_needs_by_hand`)."""
        dealt, held = self._marriage_needs_by_hand()
        return {s: max(dealt.get(s, 0), held.get(s, 0)) for s in dealt.keys() | held.keys()}

    def _force_marriages(
        self,
        hands: list[int],
        need: list[int],
        pool: int,
        allowed: list[int] | None = None,
        given: list[int] | None = None,
        fits: Callable[[int, list[int]], bool] | None = None,
    ) -> int:
        """Place marriages where the bidding or the contract shows them; the pool left, or -1
        when they cannot be placed. A marriage in a hand as dealt may be made of cards the seat
        still holds or played (never a talon card, nor the card the declarer passed it), the
        cards the declarer passed (to this seat, and one placed with the other defender as the
        card it received), and cards of the pool; the cards such a marriage needs are kept out
        of the talon and of the card passed when :meth:`_rebuild` picks them. ``fits(pool,
        need)``: whether the pool left can still be dealt (a choice that leaves it undealable is
        not made)."""
        view = self.view
        n = view.seats
        full = FULL_DECK
        allowed = allowed or [full] * n
        given = given or [-1] * n
        declarer = view.declarer
        self.protect = [0] * n
        dealt_needs, held_needs = self._marriage_needs_by_hand()
        talon = view.talon or 0
        for seat, points in dealt_needs.items():
            mine = hands[seat] | self.played[seat]
            if seat == declarer:
                # the cards it passed, but where it handed the talon over untaken
                passed = self.layout.procedure not in HANDOVER
                gone = [c for s, c in enumerate(given) if s != seat and c >= 0 and passed]
                mine |= sum(1 << c for c in gone)
                mine &= ~talon
                others = [
                    s
                    for s in view.active
                    if s not in (seat, self.me) and given[s] < 0 and self._has_received(s)
                ]
            else:
                mine &= ~talon & ~(1 << given[seat] if given[seat] >= 0 else 0)
                others = []
            # (other seat, its card, whether it is placed from the pool, placed, kept): the
            # marriages of the seat's own cards and the pool, or with one card that went to the
            # other defender (held or played by it, or one of the pool placed with it)
            options = [
                (-1, -1, False, placed, kept)
                for placed, kept in self._marriage_options(
                    mine, points, pool, need[seat], allowed[seat]
                )
            ]
            for other in others:
                theirs = (hands[other] | self.played[other]) & ~talon
                extra = pool & allowed[other] if need[other] > 0 else 0
                for c in card_list(theirs | extra):
                    options += [
                        (other, c, not theirs >> c & 1, placed, kept)
                        for placed, kept in self._marriage_options(
                            mine | 1 << c, points, pool & ~(1 << c), need[seat], allowed[seat]
                        )
                    ]
            self.rng.shuffle(options)
            chosen = None
            for option in options:
                other, c, from_pool, placed, _ = option
                left = list(need)
                left[seat] -= placed.bit_count()
                if from_pool:
                    left[other] -= 1
                if fits is None or fits(pool & ~placed & ~(1 << c if from_pool else 0), left):
                    chosen = option
                    break
            if chosen is None:
                return -1
            other, c, from_pool, placed, kept = chosen
            taken = placed | (1 << c if from_pool else 0)
            if other >= 0:
                given[other] = c
                if from_pool:
                    hands[other] |= 1 << c
                    need[other] -= 1
            hands[seat] |= placed
            need[seat] -= placed.bit_count()
            pool &= ~taken
            self.protect[seat] |= kept
        for seat, points in held_needs.items():
            mine = hands[seat] | self.played[seat]
            found = self._marriage_options(mine, points, pool, need[seat], allowed[seat])
            if not found:
                return -1
            placed, _ = self.rng.choice(found)
            hands[seat] |= placed
            need[seat] -= placed.bit_count()
            pool &= ~placed
        return pool

    def _marriage_options(
        self, mine: int, points: int, pool: int, room: int, allowed: int
    ) -> list[tuple[int, int]]:
        """Marriages worth ``points`` made of ``mine`` and at most ``room`` cards of ``pool``
        (each of ``allowed``): every set of marriages that does and holds no smaller set that
        does, as the cards to place and every card of the marriages."""
        values = self.view.rules.marriage_values
        suits = [s for s in range(4) if _PAIRS[s] & ~mine & ~(pool & allowed) == 0]
        have = [s for s in suits if _PAIRS[s] & ~mine == 0]
        if sum(values[s] for s in have) >= points:
            return [(0, sum(_PAIRS[s] for s in have))]
        fits: list[tuple[int, int, int]] = []
        for sub in range(1, 1 << len(suits)):
            chosen = [s for i, s in enumerate(suits) if sub >> i & 1]
            if sum(values[s] for s in chosen) < points:
                continue
            cards = sum(_PAIRS[s] for s in chosen)
            placed = cards & ~mine
            if placed.bit_count() <= room:
                fits.append((sub, placed, cards))
        # the sets of marriages none of whose subsets would do, one at random
        best = [
            (p, c) for sub, p, c in fits if not any(o != sub and o & sub == o for o, _, _ in fits)
        ]
        return best

    def _holds(self, seat: int) -> int:
        """The cards ``seat`` is known to have held in the play: played, or shown by a marriage."""
        return self.played[seat] | self.known[seat]

    def _has_received(self, seat: int) -> bool:
        """Whether the declarer has passed ``seat`` a card: it holds more than it was dealt."""
        view = self.view
        held = view.card_counts[seat] + self.played[seat].bit_count()
        return view.declarer is not None and held > view.dealt_counts[seat]

    def _rebuild(
        self, hands: list[int], talon: int, given: list[int], unused: int = 0
    ) -> Deal | None:
        """The deal as dealt behind these current hands, replayed to the view's moment
        (``unused``: fixed-deal's cards that take no part, drawn in the auction, or the card
        set aside in pass-without-taking, drawn before the play)."""
        view = self.view
        declarer = view.declarer
        n = view.seats
        rng = self.rng
        shown = -1 if view.shown is None else view.shown
        dealt = [hands[s] | self.played[s] for s in range(n)]
        if declarer is None:
            if self.layout.talons > 1:  # choose-talon: the hidden cards split into its talons
                cards = card_list(talon)
                rng.shuffle(cards)
                size = self.layout.talon_size
                talons = tuple(
                    sum(1 << c for c in cards[i * size : (i + 1) * size])
                    for i in range(self.layout.talons)
                )
                return replay_deal(view, dealt, 0, tuple(given), talons=talons)
            return replay_deal(view, dealt, talon, tuple(given), unused, shown)
        for s in view.active:
            if s == declarer:
                continue
            if given[s] < 0 and self._has_received(s):
                # The card passed to another seat is unknown to this one: any of its cards, but
                # one of a marriage its bid shows.
                options = card_list(dealt[s] & ~self.protect[s])
                if not options:
                    return None
                given[s] = rng.choice(options)
            if given[s] >= 0:
                dealt[s] &= ~(1 << given[s])
                dealt[declarer] |= 1 << given[s]
        if view.talon is not None:
            talon = view.talon
        elif not self.talon_size:  # else drawn as a hidden slot
            options = card_list(dealt[declarer] & ~self.protect[declarer])
            rng.shuffle(options)
            for c in options[: sum(view.talon_sizes)]:
                talon |= 1 << c
        dealt[declarer] &= ~talon
        if self.me != declarer:
            dealt[self.me] = view.dealt or 0
        return replay_deal(view, dealt, talon, tuple(given), unused, shown)

    # -- the talon handed over without being taken (rules.md part 4) ----------------------------

    def _attempt_handover(self) -> Deal | None:
        """pass-without-taking (polish-2card) and keep-one (soviet-book), in the play: every
        card is in a hand, each defender's holds the talon card it received and the declarer's
        the card set aside (or the talon card it kept). A talon card shown to this seat goes to
        the seat that played it, else at random to the other seats it may still be with."""
        view = self.view
        me = self.me
        declarer = view.declarer
        assert declarer is not None
        n = view.seats
        rng = self.rng
        keep_one = self.layout.procedure == KEEP_ONE
        full = FULL_DECK
        hands = [self.known[s] for s in range(n)]
        hands[me] = view.hand or 0
        allowed = [~self.voids[s] & full for s in range(n)]
        given = [-1] * n
        if view.passed is not None:
            given = [-1 if c is None else c for c in view.passed]
        if view.received is not None and me != declarer:
            given[me] = view.received
        kept = -1
        taken = view.hand or 0
        if view.talon is not None and me != declarer:
            rest = card_list(view.talon & ~(1 << given[me]))
            slots = [s for s in view.active if s not in (me, declarer)]
            if keep_one:
                slots.append(declarer)
            if len(rest) != len(slots):
                return None
            order = [rest, rest[::-1]] if len(rest) == 2 else [rest]
            rng.shuffle(order)
            for cards in order:
                if all(self._may_hold(s, c, allowed) for s, c in zip(slots, cards, strict=True)):
                    break
            else:
                return None
            for s, c in zip(slots, cards, strict=True):
                taken |= 1 << c
                if not self.played[s] >> c & 1:
                    hands[s] |= 1 << c
                if s == declarer:
                    kept = c
                else:
                    given[s] = c
        forehand = view.active[0]
        if view.shown is not None and forehand != me and not view.played >> view.shown & 1:
            hands[forehand] |= 1 << view.shown
        pool = self.pool & ~taken
        for h in hands:
            pool &= ~h
        need = [view.card_counts[s] - hands[s].bit_count() for s in range(n)]
        need[me] = 0
        pool = self._force_marriages(hands, need, pool)
        if pool < 0:
            return None
        slots = [s for s in range(n) if need[s] > 0]
        placed = assign(pool, [allowed[s] for s in slots], [need[s] for s in slots], rng)
        if placed is None:
            return None
        for s, m in zip(slots, placed, strict=True):
            hands[s] |= m
        return self._rebuild_handover(hands, given, kept, keep_one)

    def _may_hold(self, seat: int, c: int, allowed: list[int]) -> bool:
        """Whether ``seat`` may have received talon card ``c``: it played it, or nobody did and
        it has shown no void in its suit."""
        owners = [s for s in range(self.view.seats) if (self.played[s] | self.known[s]) >> c & 1]
        return owners == [seat] if owners else bool(allowed[seat] >> c & 1)

    def _rebuild_handover(
        self, hands: list[int], given: list[int], kept: int, keep_one: bool
    ) -> Deal | None:
        """The deal as dealt behind these hands: the talon cards back from their receivers."""
        view = self.view
        declarer = view.declarer
        assert declarer is not None
        rng = self.rng
        held = [hands[s] | self.played[s] for s in range(view.seats)]
        shown = -1 if view.shown is None else view.shown
        forehand = view.active[0]
        dealt = list(held)
        for s in view.active:
            options = card_list(
                held[s] & ~(1 << shown if s == forehand and shown >= 0 else 0) & ~self.protect[s]
            )
            if s == declarer:
                if self.me == declarer:
                    extra = card_list(held[s] & ~(view.dealt or 0))
                    if len(extra) != 1:
                        return None
                    kept = extra[0]
                elif kept < 0:
                    if not options:
                        return None
                    kept = rng.choice(options)
                dealt[s] &= ~(1 << kept)
            else:
                if given[s] < 0:
                    if not options:
                        return None
                    given[s] = rng.choice(options)
                dealt[s] &= ~(1 << given[s])
        talon = 0
        for s in view.active:
            if s != declarer:
                talon |= 1 << given[s]
        aside = 0
        if keep_one:
            talon |= 1 << kept
        else:
            aside = 1 << kept
        if self.me != declarer:
            dealt[self.me] = view.dealt or 0
        return replay_deal(view, dealt, talon, tuple(given), aside, shown)

    # -- fixed-deal (two players, unused cards, a discard; rules.md part 4) ---------------------

    def _attempt_fixed_deal(self) -> Deal | None:
        """fixed-deal, in the play (and for the declarer, from its hand-over on): the other
        seat's cards, the unused cards and, for the opponent, the declarer's discard. A talon
        card shown to the opponent and not handed to it is with the declarer or its discard,
        never among the unused cards."""
        view = self.view
        me = self.me
        declarer = view.declarer
        assert declarer is not None
        other = 1 - me
        rng = self.rng
        full = FULL_DECK
        hands = [self.known[s] for s in range(2)]
        hands[me] = view.hand or 0
        allowed = ~self.voids[other] & full
        discard = view.discarded or 0
        given = [-1, -1]
        if view.passed is not None:
            given = [-1 if c is None else c for c in view.passed]
        if view.received is not None and me != declarer:
            given[me] = view.received
        talon_rest = 0
        if view.talon is not None and me != declarer:
            talon_rest = view.talon & ~(view.hand or 0) & ~view.played & ~hands[other]
        pool = full & ~(view.hand or 0) & ~view.played & ~hands[other] & ~discard & ~talon_rest
        need = view.card_counts[other] - hands[other].bit_count()
        unused_need = view.aside_count
        discard_need = pool.bit_count() + talon_rest.bit_count() - need - unused_need
        if discard_need < 0 or (me == declarer and discard_need):
            return None
        hands_need = [0, 0]
        hands_need[other] = need
        # a marriage the raise shows may hold a talon card (the talon is the declarer's)
        either = self._force_marriages(hands, hands_need, pool | talon_rest)
        if either < 0:
            return None
        talon_rest &= either
        pool &= either
        need = hands_need[other]
        unused = 0
        # the talon cards first: the declarer's hand or its discard only
        cards = card_list(talon_rest)
        rng.shuffle(cards)
        rest = card_list(pool)
        rng.shuffle(rest)
        for c in cards + rest:
            options, weights = [], []
            if need > 0 and allowed >> c & 1:
                options.append(0)
                weights.append(need)
            if discard_need > 0:
                options.append(1)
                weights.append(discard_need)
            if unused_need > 0 and not talon_rest >> c & 1:
                options.append(2)
                weights.append(unused_need)
            if not options:
                return None
            slot = rng.choices(options, weights)[0]
            if slot == 0:
                hands[other] |= 1 << c
                need -= 1
            elif slot == 1:
                discard |= 1 << c
                discard_need -= 1
            else:
                unused |= 1 << c
                unused_need -= 1
        if need or discard_need or unused_need:
            return None
        held = [hands[s] | self.played[s] for s in range(2)]
        dealt = list(held)
        opponent = 1 - declarer
        before = held[declarer] | discard  # its ten after the talon
        if given[opponent] >= 0:
            dealt[opponent] &= ~(1 << given[opponent])
            before |= 1 << given[opponent]
        elif view.phase is not Phase.PASSING:
            return None
        if view.talon is not None:
            talon = view.talon
        else:
            options = card_list(before)
            rng.shuffle(options)
            talon = 0
            for c in options[: sum(view.talon_sizes)]:
                talon |= 1 << c
        dealt[declarer] = before & ~talon
        dealt[me] = view.dealt or 0
        return replay_deal(view, dealt, talon, tuple(given), unused, discard=discard)

    # -- choose-talon (two players, two talons, two discards; rules.md part 4) ------------------

    def _attempt_choose_talon(self) -> Deal | None:
        """choose-talon, two seats, in the play (and for the declarer, from its first discard
        on): the talon taken is shown to both and is the deal's first; the other talon is drawn
        from the cards hidden from this seat. For the declarer the hidden cards are the
        opponent's hand and the other talon; for the
        opponent, the declarer's hand, its two discards (face down: they may be the talon's
        cards too) and the other talon, never of the talon taken."""
        view = self.view
        me = self.me
        declarer = view.declarer
        if declarer is None or view.talon is None or view.seats != 2:
            return None
        other = 1 - me
        full = FULL_DECK
        taken = view.talon
        hand = view.hand or 0
        hands = [self.known[s] for s in range(2)]
        hands[me] = hand
        need = view.card_counts[other] - hands[other].bit_count()
        allowed = ~self.voids[other] & full
        other_talon = sum(view.talon_sizes) - taken.bit_count()
        discard = view.discarded or 0
        if me == declarer:
            pool = full & ~hand & ~view.played & ~discard & ~taken & ~hands[other]
            placed = assign(pool, [allowed, pool], [need, other_talon], self.rng)
            if placed is None:
                return None
            hands[other] |= placed[0]
            unused = placed[1]
        else:
            held = view.played | hands[other]
            # the talon taken: with the declarer, in its hand or among its discards
            rest = taken & ~held
            pool = full & ~hand & ~held & ~taken
            discards = view.dealt_counts[other] + taken.bit_count() - view.card_counts[other]
            discards -= self.played[other].bit_count()
            slots = assign(
                rest | pool, [allowed, full, pool], [need, discards, other_talon], self.rng
            )
            if slots is None:
                return None
            hands[other] |= slots[0]
            discard = slots[1]
            unused = slots[2]
        dealt = [hands[s] | self.played[s] for s in range(2)]
        dealt[declarer] = (dealt[declarer] | discard) & ~taken
        dealt[me] = view.dealt or 0
        return replay_deal(view, dealt, 0, (-1, -1), discard=discard, talons=(taken, unused))

    # -- draw-stock, the stock drawn (two players; rules.md part 4) -------------------------------

    def _attempt_drawn_stock(self) -> Deal | None:
        """draw-stock, in the play once the stock is drawn: the other seat holds every card
        neither played nor in this seat's hand. The deal as dealt behind it: after trick ``t``
        of the stock's, its winner drew the stock's card ``2 t``, the other seat card
        ``2 t + 1``; each seat's draws are cards it held, none played before it was drawn, and
        the face-up card drawn last is of the first trick's trump. Which of its cards a seat
        drew when, and so which the other seat was dealt, stays open: no later move depends
        on it."""
        view = self.view
        me = self.me
        if view.seats != 2 or not view.completed_trumps or view.completed_trumps[0] is None:
            return None
        other = 1 - me
        rng = self.rng
        hand = view.hand or 0
        held = [0, 0]  # by seat, every card it held in the deal
        held[me] = hand | self.played[me]
        held[other] = FULL_DECK & ~held[me]
        drawn = [0, 0]  # by seat, the cards it drew from the stock
        drawn[me] = held[me] & ~(view.dealt or 0)
        size = self.layout.stock_size
        tricks = view.tricks_in_play_order()
        if size % 2 or len(tricks) < size // 2:
            return None
        # the trick at which each card was played (never: past the last)
        when = dict.fromkeys(range(24), len(tricks))
        for t, trick in enumerate(tricks):
            for _, c in trick:
                when[c] = t
        stock = [-1] * size
        slots: list[list[int]] = [[], []]  # each seat's stock positions, in order
        for t in range(size // 2):
            winner = view.completed_tricks[t][2]
            slots[winner].append(2 * t)
            slots[1 - winner].append(2 * t + 1)
        trump = view.completed_trumps[0]
        if len(slots[me]) != drawn[me].bit_count():
            return None
        for seat in (me, other):
            if seat == me:
                cards = card_list(drawn[me])
            else:
                cards = card_list(held[other])
                rng.shuffle(cards)
            for pos in reversed(slots[seat]):  # the last drawn first: the face-up card
                # drawn after trick pos // 2, so played after it
                fits = [c for c in cards if when[c] > pos // 2 and c not in stock]
                if pos == size - 1:
                    fits = [c for c in fits if c // 6 == trump]
                if not fits:
                    return None
                c = fits[0] if seat == other else rng.choice(fits)
                stock[pos] = c
                drawn[seat] |= 1 << c
        dealt = [held[s] & ~drawn[s] for s in range(2)]
        if dealt[me] != view.dealt:
            return None
        return replay_deal(view, dealt, 0, (-1, -1), stock=tuple(stock))
