"""Full deals consistent with a seat's view: the hidden cards placed at random, so that the
deal, replayed move by move, is legal and shows this seat exactly its view.

The constraints come from the view: the seat's own cards, every card played and who played it,
the voids shown in play (rules.md 1.5), the card the declarer passed to this seat (or, for the
declarer, every card it passed), the talon where it was shown, and the partner card of every
declared marriage. Rules that the shortcut of voids does not cover (must-beat, bid caps by
marriage, ...) are enforced by replaying the deal through the engine: a sample whose replay
breaks a rule is thrown away and drawn again. Where the talon is handed over without being
taken (pass-without-taking, keep-one) and in fixed-deal, deals are drawn in the play only.
"""

from __future__ import annotations

import random

from ..cards import KING, QUEEN, card_list
from ..engine.actions import DISCARD, NAMED_AMOUNT, contract, give
from ..engine.deal import Deal, Phase
from ..engine.views import SeatView
from ..rules.layout import FIXED_DEAL, KEEP_ONE, WITHOUT_TAKING, Layout
from .knowledge import known_held, played_by, voids

_PAIRS = tuple((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4))

HANDOVER = (WITHOUT_TAKING, KEEP_ONE)
"""The procedures whose talon is handed over without being taken (sampled in the play only)."""

TALON = -1
"""The slot of the talon while it is still hidden (in the auction)."""


def history(view: SeatView, given: tuple[int, ...], discard: int = 0) -> list[int]:
    """The deal's actions so far, from the view and the card passed to each seat (``given``,
    -1 where none): the auction, the passing, the discards, the contract, then the play's moves
    as the view gives them (another seat's face-down crawl card is
    :data:`~thousand.engine.views.FACE_DOWN`, which no deal accepts: that moment is not
    sampled)."""
    acts = list(view.auction_actions())
    if view.declarer is None:
        return acts
    declarer = view.declarer
    before_talon = view.rules.contract_before_talon and view.named is None
    if before_talon and view.phase in (Phase.PLAY, Phase.DONE):
        assert view.contract is not None
        acts.append(contract(view.contract))  # contract.before_talon: named before the talon
    for seat in view.active:
        if seat != declarer and given[seat] >= 0:
            acts.append(give(given[seat], seat))
    acts += [DISCARD + c for c in card_list(discard)]
    if view.phase in (Phase.PLAY, Phase.DONE) and view.rules.contract_raise and not before_talon:
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
) -> Deal | None:
    """The deal with these cards, replayed to the view's moment; None if a move is illegal.
    ``discard``: the declarer's discards (fixed-deal), made after the cards it passed."""
    try:
        d = Deal.new(view.rules, view.dealer, dealt, talon, aside=aside, shown=shown)
    except ValueError:
        return None
    for action in history(view, given, discard):
        if action not in d.legal_actions():
            return None
        d.apply(action)
    return d


class Sampler:
    """Draws deals consistent with one view (build one per decision)."""

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        if view.seat is None or view.hand is None or view.dealt is None:
            raise ValueError("a spectator's view has no hand to sample around")
        self.view = view
        self.rng = rng
        self.me = view.seat
        self.played = played_by(view)
        self.voids = voids(view)
        self.known = known_held(view)
        self.hidden_talon = view.declarer is None
        self.layout = Layout.of(view.rules)
        self.talon_size = sum(view.talon_sizes) if self.hidden_talon else 0
        seen = view.hand | view.played
        for k in self.known:
            seen |= k
        if view.talon is not None and view.declarer != self.me:
            seen |= view.talon & ~view.played  # placed below, with the declarer or a defender
        self.pool = ((1 << 24) - 1) & ~seen
        #: pass-without-taking and keep-one in the play: see :meth:`_attempt_handover`
        self.handover = view.phase is Phase.PLAY and self.layout.procedure in HANDOVER
        #: fixed-deal in the play: see :meth:`_attempt_fixed_deal`
        self.fixed_deal = view.phase is Phase.PLAY and self.layout.procedure == FIXED_DEAL

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
        view = self.view
        me = self.me
        declarer = view.declarer
        n = view.seats
        rng = self.rng
        hands = [self.known[s] for s in range(n)]
        hands[me] = view.hand or 0
        need = [view.card_counts[s] - hands[s].bit_count() for s in range(n)]
        need[me] = 0
        allowed = [~self.voids[s] & ((1 << 24) - 1) for s in range(n)]
        pool = self.pool
        given = [-1] * n
        if declarer is not None:
            if view.passed is not None:
                given = [-1 if c is None else c for c in view.passed]
            if view.received is not None:
                given[me] = view.received
            if view.talon is not None and declarer != me:
                placed = self._place_talon(hands, need, allowed, given)
                if placed is None:
                    return None
                pool = placed
        pool = self._force_marriages(hands, need, pool)
        if pool < 0:
            return None
        slots = [s for s in range(n) if need[s] > 0]
        talon = 0
        talon_need = self.talon_size
        cards = card_list(pool)
        rng.shuffle(cards)
        # The most constrained cards first.
        cards.sort(key=lambda c: sum(1 for s in slots if allowed[s] >> c & 1))
        for c in cards:
            options = [s for s in slots if need[s] > 0 and allowed[s] >> c & 1]
            weights = [need[s] for s in options]
            if talon_need > 0:
                options.append(TALON)
                weights.append(talon_need)
            if not options:
                return None
            s = rng.choices(options, weights)[0]
            if s == TALON:
                talon |= 1 << c
                talon_need -= 1
            else:
                hands[s] |= 1 << c
                need[s] -= 1
        if any(need) or talon_need:
            return None
        return self._rebuild(hands, talon, given)

    def _marriage_needs(self) -> dict[int, int]:
        """The marriage points each other seat must have held: for a bid above 120 where bids
        are capped by marriages (``bidding.marriage_cap``), and for a contract raised above 120
        (``contract.raise_limit`` achievable)."""
        view = self.view
        rules = view.rules
        needs: dict[int, int] = {}
        cap = rules.bidding_marriage_cap
        if cap != "off":
            for seat, amount in view.auction:
                if seat != self.me and 120 < amount <= NAMED_AMOUNT:
                    extra = amount - 120 if cap == "plus-marriages" else 1
                    needs[seat] = max(needs.get(seat, 0), extra)
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
            needs[declarer] = max(needs.get(declarer, 0), view.contract - 120)
        return needs

    def _force_marriages(self, hands: list[int], need: list[int], pool: int) -> int:
        """Place marriages where the bidding or the contract shows them; the pool left, or -1
        when they cannot be placed."""
        values = self.view.rules.marriage_values
        for seat, points in self._marriage_needs().items():
            mine = hands[seat] | self.played[seat]
            have = sum(values[s] for s in range(4) if mine & _PAIRS[s] == _PAIRS[s])
            suits = [
                s
                for s in range(4)
                if mine & _PAIRS[s] != _PAIRS[s] and (_PAIRS[s] & ~mine) & ~pool == 0
            ]
            self.rng.shuffle(suits)
            for s in suits:
                if have >= points:
                    break
                cards = _PAIRS[s] & ~mine
                count = cards.bit_count()
                if need[seat] < count:
                    continue
                hands[seat] |= cards
                need[seat] -= count
                pool &= ~cards
                have += values[s]
            if have < points:
                return -1
        return pool

    def _place_talon(
        self, hands: list[int], need: list[int], allowed: list[int], given: list[int]
    ) -> int | None:
        """A defender's view with the talon shown: the talon cards still out are with the
        declarer, except perhaps the one passed to the other defender. Returns the pool left."""
        view = self.view
        declarer = view.declarer
        assert declarer is not None and view.talon is not None
        me = self.me
        rest = view.talon & ~view.played & ~(view.hand or 0)
        for k in self.known:
            rest &= ~k
        others = [s for s in view.active if s not in (me, declarer)]
        pool = self.pool
        for other in others:
            shown = view.talon & self.played[other]
            if shown:
                given[other] = shown.bit_length() - 1
                continue
            # The declarer's cards before passing: 10 less the one passed to this seat.
            chances = rest.bit_count() / max(1, len(card_list(view.dealt or 0)) + 2)
            must = rest & ~allowed[declarer]  # the declarer has shown it cannot hold these
            if must and (must & (must - 1) or not self._has_received(other)):
                return None
            if must or (rest and self._has_received(other) and self.rng.random() < chances):
                c = self.rng.choice(card_list(must or rest & allowed[other]) or [-1])
                if c >= 0 and need[other] > 0:
                    hands[other] |= 1 << c
                    need[other] -= 1
                    given[other] = c
                    rest &= ~(1 << c)
        for c in card_list(rest):
            if need[declarer] <= 0:
                return None
            hands[declarer] |= 1 << c
            need[declarer] -= 1
        for other in others:
            if given[other] < 0:
                allowed[other] &= ~view.talon
        return pool

    def _has_received(self, seat: int) -> bool:
        """Whether the declarer has passed ``seat`` a card: it holds more than it was dealt."""
        view = self.view
        held = view.card_counts[seat] + self.played[seat].bit_count()
        return view.declarer is not None and held > view.dealt_counts[seat]

    def _rebuild(self, hands: list[int], talon: int, given: list[int]) -> Deal | None:
        """The deal as dealt behind these current hands, replayed to the view's moment."""
        view = self.view
        declarer = view.declarer
        n = view.seats
        rng = self.rng
        dealt = [hands[s] | self.played[s] for s in range(n)]
        if declarer is None:
            return replay_deal(view, dealt, talon, tuple(given))
        for s in view.active:
            if s == declarer:
                continue
            if given[s] < 0 and self._has_received(s):
                # The card passed to another seat is unknown to this one: any of its cards.
                options = card_list(dealt[s])
                if not options:
                    return None
                given[s] = rng.choice(options)
            if given[s] >= 0:
                dealt[s] &= ~(1 << given[s])
                dealt[declarer] |= 1 << given[s]
        if view.talon is not None:
            talon = view.talon
        else:
            options = card_list(dealt[declarer])
            rng.shuffle(options)
            for c in options[: sum(view.talon_sizes)]:
                talon |= 1 << c
        dealt[declarer] &= ~talon
        if self.me != declarer:
            dealt[self.me] = view.dealt or 0
        return replay_deal(view, dealt, talon, tuple(given))

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
        full = (1 << 24) - 1
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
        cards = card_list(pool)
        rng.shuffle(cards)
        slots = [s for s in range(n) if need[s] > 0]
        cards.sort(key=lambda c: sum(1 for s in slots if allowed[s] >> c & 1))
        for c in cards:
            options = [s for s in slots if need[s] > 0 and allowed[s] >> c & 1]
            if not options:
                return None
            s = rng.choices(options, [need[s] for s in options])[0]
            hands[s] |= 1 << c
            need[s] -= 1
        if any(need):
            return None
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
            options = card_list(held[s] & ~(1 << shown if s == forehand and shown >= 0 else 0))
            if s == declarer:
                if self.me == declarer:
                    extra = card_list(held[s] & ~(view.dealt or 0))
                    if len(extra) != 1:
                        return None
                    kept = extra[0]
                elif kept < 0:
                    kept = rng.choice(options)
                dealt[s] &= ~(1 << kept)
            else:
                if given[s] < 0:
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
        """fixed-deal, in the play: the other seat's cards, the unused cards and, for the
        opponent, the declarer's discard. A talon card shown to the opponent and not handed to
        it is with the declarer or its discard, never among the unused cards."""
        view = self.view
        me = self.me
        declarer = view.declarer
        assert declarer is not None
        other = 1 - me
        rng = self.rng
        full = (1 << 24) - 1
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
        if given[opponent] < 0:
            return None
        dealt[opponent] &= ~(1 << given[opponent])
        before = held[declarer] | discard | 1 << given[opponent]  # its ten after the talon
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
