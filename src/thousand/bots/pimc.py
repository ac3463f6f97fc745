"""The PIMC bot (levels hard and expert): perfect-information Monte Carlo.

For each decision it draws deals consistent with its view (:mod:`thousand.bots.sampler`),
solves each with all cards open (:mod:`thousand.bots.solver`) and picks the action that does
best on average. Bidding, the write-off, the passing, choose-talon's discards and the raise are
decided by simulation too: on each sample the bot plays out "I take the contract at X" to the
open-card result. Ties (common when every sample agrees the contract is made, or lost) go to
the heuristic bot's choice. Expert draws more samples and infers from the bidding (a sample in
which a seat bid far more than its hand is worth is drawn again) and from the play (samples are
kept by how likely the other seats' cards played were under a model of their play), bids or
passes by the points each choice leaves it ahead, breaks the early play's ties by points,
plays, as a defender, for the points it takes itself, and stops at a budget of solver nodes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from ..build import compiled
from ..cards import KING, QUEEN, card_list, rank_of, suit_of
from ..cards import card as card_of
from ..engine.actions import (
    BID,
    CONTRACT,
    DISCARD,
    GIVE,
    NAMED_AMOUNT,
    PASS,
    REDEAL,
    WRITE_OFF,
    contract,
    give,
    give_parts,
    is_bid,
    is_contract,
    is_discard,
    is_give,
)
from ..engine.actions import (
    TALON as TAKE_TALON,
)
from ..engine.contra import factor
from ..engine.deal import Deal, Phase
from ..engine.match import defender_gains
from ..engine.state import DealState
from ..engine.views import SeatView
from ..engine.views import view as seat_view
from ..rules import Rules
from ..rules.layout import CHOOSE_TALON, FIXED_DEAL, NO_TALON, TAKE_AND_PASS, Layout
from .base import Limit
from .heuristic import HeuristicBot, hand_estimate, hand_features, keep_value, pass_plan
from .sampler import HANDOVER, Sampler, history
from .solver import OutOfNodes, Solver, declarer_points, declarer_side, points_needed

SEARCH_SHARE = 0.8
"""The share of a move's time (:attr:`Limit.time_s`) in which a search bot draws and solves
samples; the rest is left for what it does after (choosing from what it solved). A decision
stops where its node budget or this time runs out, whichever comes first: the budget keeps a
seed's choices fixed (the arena gives no time), the time keeps a move within its limit on a
slower machine (the server and ``thousand play`` give 1 s)."""

#: Below this many cards left in hands, the bot solves for exact points, not just make-or-fail.
EXACT_BELOW = 13
#: Bid (or raise to) an amount only when at least this share of the samples makes it.
BID_CONFIDENCE = 0.6
#: In no-talon with partners (four-player-a) a bid needs at least this share
#: (:func:`bid_confidence`): a seat's hand is half its side's cards, so the share spreads with
#: the partner's unseen hand, and the open-card solve lets the partners play as one. Measured
#: over 150 first turns of the auction, 16 samples each: where none to a half of the samples
#: made 100, the true deal made it a third of the time or more; where three in four did, two
#: in three. At 0.6, hard's contracts failed one in three against medium.
SIDE_BID_CONFIDENCE = 0.8
#: Write off when fewer than this share of the samples makes the contract.
WRITE_OFF_BELOW = 0.15
#: How far above the heuristic estimate the raise looks.
REACH = 40
#: In the play, expert draws this many times its samples and keeps those whose other seats'
#: plays its model of their play finds likeliest (policy-based inference).
POLICY_DRAWS = 2
#: The chance the model of another seat's play gives the card the heuristic bot would play.
POLICY_MATCH = 0.8
#: The model of another seat's choice in the auction (expert's auction inference,
#: :func:`bid_chance`): the chance it bids ``amount`` where the heuristic's
#: :meth:`~HeuristicBot.bid_limit` of its dealt hand is ``limit`` is a logistic curve of
#: ``amount - limit``, one half at :data:`BID_CHANCE_SHIFT` below the limit, spread by
#: :data:`BID_CHANCE_SPREAD`, kept within :data:`BID_CHANCE_FLOOR` of 0 and 1. Fitted (by
#: likelihood) to the 15,217 auction turns at which three ``hard`` bots could pass or bid over
#: 1,500 deals each of russian, tysiac, estonian and russian-classic (seeds 50000 on).
BID_CHANCE_SHIFT = 5
BID_CHANCE_SPREAD = 10
BID_CHANCE_FLOOR = 0.03
#: What a defender scores in a deal, on average, in the auction's reckoning by points
#: (:meth:`PimcBot._bid_by_points`).
DEFENDER_POINTS = 20
#: How far above its hand's worth a seat may have bid before expert's inference rejects a sample.
BID_SLACK = 35
#: How far above the worth of its hand (:func:`~.heuristic.hand_estimate`, once the talon is
#: taken and the cards passed) a declarer may have raised its contract before the inference of
#: ``contract_inference`` rejects a sample: over 667 contracts raised by ``expert`` and ``hard``
#: (russian, the arena's records of seeds 310001 on) the contract was at most 21 points above
#: the worth in 99% of them, 38 at most.
CONTRACT_SLACK = 25
#: In the auction by points of the variants ``expert-slack-every-bid`` and
#: ``expert-slack-opening``, how many points short of its bid the open-card solver may leave a
#: declarer (:class:`SlackOn`) and the sample still count the bid made (``auction_slack``): the
#: open-card solve defends perfectly, real defenders do not, and the samples made forehand's
#: opening bid less often than the real deals did (``benchmarks/bench_calibration.py``). Yet
#: bidding with it lost points on every template measured, so ``expert`` counts none
#: (``benchmarks/bench_auction.py``; README, Bots: the auction's slack, dropped).
AUCTION_SLACK = 10


class SlackOn(Enum):
    """Which declarers the auction by points counts as making their bid ``auction_slack``
    points short: every one, or only those whose contract is the opening bid
    (``bidding.min``), the bid ``benchmarks/bench_calibration.py`` calibrated it on."""

    EVERY_BID = "every-bid"
    OPENING = "opening"


WhyKind = Literal["only", "rule", "play", "defend", "bid", "pass", "give", "write_off", "contract"]
"""What kind of reason a :class:`Why` gives."""


@dataclass(frozen=True, slots=True)
class Why:
    """Why the bot chose its last action, as a hint tells it: ``kind`` (``only``: the one legal
    action; ``rule``: the heuristic's rule of thumb; ``play``, ``defend``, ``bid``, ``pass``,
    ``give``, ``write_off``, ``contract``: sampled), and for a sampled choice how many of the
    ``samples`` deals that fit the view went its way (``made``: the declarer makes ``amount``,
    or for ``defend`` the contract fails)."""

    kind: WhyKind
    samples: int = 0
    made: int = 0
    amount: int | None = None


class RaiseValue(Enum):
    """Which declarers' raises the auction by points reckons (:meth:`PimcBot._lead_after`):
    none (every contract at its bid), this seat's own, or every declarer's."""

    NONE = "none"
    OWN = "own"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class Declared:
    """A contract declared in one sample's auction, its raise reckoned: the declaring ``seat``,
    its ``bid``, the ``top`` contract it makes there, and the ``weight`` its gain has in the
    deciding seat's lead (1 for its own, minus one over the other seats for another's)."""

    seat: int
    bid: int
    top: int
    weight: float


@dataclass(frozen=True, slots=True)
class Reckoning:
    """One sample's auction played out (:meth:`PimcBot._lead_after`): the deciding seat's
    ``lead`` over the mean of the others (every contract at its bid), whether it ``made`` the
    contract it declared, the ``amount`` it declared at (None where it did not declare), and
    the contract ``declared``, where its raise is reckoned."""

    lead: float
    made: bool = False
    amount: int | None = None
    declared: Declared | None = None


#: The phases PIMC decides by sampling and solving; the others go to the heuristic.
PIMC_PHASES = (Phase.AUCTION, Phase.PASSING, Phase.DISCARD, Phase.CONTRACT, Phase.PLAY)


def pimc_layout(rules: Rules) -> bool:
    """Whether PIMC plays this table's deals: eight tricks of three active seats after the
    talon is taken and one card passed to each opponent (rules.md 1.4: the standard layout and
    dealer-sits-out); no-talon with every card in a hand and at most eight tricks
    (four-player-a: the auction and the play); or the layouts of :func:`rebuilt_layout`.
    Every template is one of these; the rest of a custom table's layouts is played by the
    heuristic bot."""
    layout = Layout.of(rules)
    return (
        (layout.procedure == TAKE_AND_PASS and layout.talon_size == 3 and layout.hand_size == 7)
        or (layout.procedure == NO_TALON and layout.left_over == 0 and layout.hand_size <= 8)
        or rebuilt_layout(rules)
    )


def rebuilt_layout(rules: Rules) -> bool:
    """The layouts of two seats, or of a talon handed over untaken, whose deals the sampler
    rebuilds by their own procedure: three seats of seven cards with the talon handed over
    without being taken (pass-without-taking with its card set aside, keep-one), all of eight
    tricks; fixed-deal (two seats of seven, a talon of three, the declarer hands one card over
    and discards one); choose-talon (two seats of ten, two talons of two, the declarer takes
    one and discards two: ten tricks; every decision but the choice of a talon, the two being
    unseen and alike); and draw-stock (two seats of nine and a stock of six), in the play once
    the stock is drawn: the solver draws no card, so the auction and the tricks played while
    the stock lasts are the heuristic's."""
    layout = Layout.of(rules)
    if layout.procedure == FIXED_DEAL:
        return layout.players == 2 and layout.hand_size == 7 and layout.talon_size == 3
    if layout.procedure == CHOOSE_TALON:
        return layout.players == 2 and layout.hand_size == 10 and layout.talon_size == 2
    if layout.stock_size:
        return layout.players == 2 and layout.hand_size == 9 and layout.stock_size == 6
    return (
        not layout.dealer_sits_out
        and layout.players == 3
        and layout.procedure in HANDOVER
        and layout.hand_size == 7
    )


def pimc_applies(view: SeatView) -> bool:
    """Whether PIMC decides this move: a layout of :func:`pimc_layout`, a phase of
    :data:`PIMC_PHASES` (with no stock left to draw), and no move the solver does not search
    (a crawl, a marriage declared from the hand); a talon redeal offered with the passing is
    declined, as the heuristic does."""
    if view.phase not in PIMC_PHASES or not pimc_layout(view.rules):
        return False
    if view.stock_count:
        return False  # draw-stock: searched once the stock is drawn
    return all(
        a < GIVE
        or is_give(a)
        or is_discard(a)
        or a in (PASS, WRITE_OFF, REDEAL)
        or is_bid(a)
        or is_contract(a)
        for a in view.legal_actions
    )


class PimcBot:
    """Samples, solves, averages. ``samples`` per decision unless the limit says otherwise."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 12,
        infer: bool = False,
        name: str = "pimc",
        node_budget: int | None = None,
        bid_confidence: float = BID_CONFIDENCE,
        extra_samples: int = 0,
        tiebreak: int = 0,
        policy: bool = False,
        policy_match: tuple[float, float] = (POLICY_MATCH, POLICY_MATCH),
        policy_draws: int = POLICY_DRAWS,
        by_points: bool = False,
        defender_points: int = DEFENDER_POINTS,
        defender_points_failed: int | None = None,
        own_points: bool = False,
        raise_value: RaiseValue = RaiseValue.NONE,
        auction_slack: int = 0,
        slack_on: SlackOn = SlackOn.EVERY_BID,
        contract_slack: int = 0,
        defend_by_points: bool = False,
        auction_policy: bool = False,
        give_policy: bool = False,
        defender_marriages: float = 0.0,
        pass_by_stake: bool = False,
        marriage_gift: float = 0.0,
        exact_below: int = EXACT_BELOW,
        contract_inference: bool = False,
    ) -> None:
        self.seed = seed
        self.samples = samples
        self.infer = infer
        #: bid, raise or name a contract only when at least this share of the samples makes it
        self.bid_confidence = bid_confidence
        #: how many more samples a threshold decision (bid, contract) may draw while it is
        #: close: see :meth:`_close`
        self.extra_samples = extra_samples
        #: in the early play, on how many samples the cards that tie on make-or-fail are told
        #: apart by the points they leave the declarer: see :meth:`_tiebreak`
        self.tiebreak = tiebreak
        #: in the play, weigh the sampled deals by how likely the other seats' cards played so
        #: far were under a model of their play: see :meth:`_weighed`
        self.policy = policy
        #: the chance the model of another seat's play gives the heuristic's card: a
        #: declarer's (its side's) and a defender's (:meth:`_likelihood`)
        self.policy_match = policy_match
        #: weigh the sampled deals by how likely the other seats' bids and passes were too
        #: (:func:`bid_chance`), in every decision after another seat's first turn to bid
        self.auction_policy = auction_policy
        #: in the play, weigh the sampled deals by how likely the declarer's gives were too:
        #: the model gives the cards of the heuristic's :func:`~.heuristic.pass_plan`
        self.give_policy = give_policy
        #: how many times its samples the policy-based inference draws (:meth:`_draw`)
        self.policy_draws = policy_draws
        #: in the auction, bid or pass by the points each leaves this seat ahead of the others
        #: (:meth:`_bid_by_points`), not by the share of samples that make the bid
        self.by_points = by_points
        self.defender_points = defender_points
        #: in the auction by points, what a defender scores where the contract fails (None:
        #: :attr:`defender_points`, made or failed; :meth:`_defender_points`)
        self.defender_points_failed = defender_points_failed
        #: in the auction by points, a defender scores this share of the value of the
        #: marriages it was dealt on top of :attr:`defender_points` (:meth:`_defender_points`)
        self.defender_marriages = defender_marriages
        #: in the passing, a declarer chooses the give by the stake of the best contract it
        #: may then name (:func:`_best_contract`), not by the share that makes its bid
        self.pass_by_stake = pass_by_stake
        #: in the passing by stake, a give that may complete a marriage in its receiver's hand
        #: costs this share of the marriage's value times the share of the samples in which
        #: the receiver holds the other card (:meth:`_marriage_gifts`)
        self.marriage_gift = marriage_gift
        #: in the play, below this many cards left in hands the samples are solved for exact
        #: points, not just make-or-fail (:data:`EXACT_BELOW`)
        self.exact_below = exact_below
        #: expert's inference also rejects a sample in which the declarer raised its contract
        #: far above its hand's worth (:data:`CONTRACT_SLACK`; see :meth:`_plausible`)
        self.contract_inference = contract_inference
        #: in the play, a defender tells apart the cards that tie on make-or-fail by the points
        #: it takes itself (its own deal score), not by the points the declarer is held to:
        #: see :meth:`_own_values`
        self.own_points = own_points
        #: a defender playing for its own points weighs them against the contract's fate by
        #: what each is worth to its lead over the others (a sample the contract fails in is
        #: worth the contract), not the fate first and the points only to break a tie: see
        #: :meth:`_play`
        self.defend_by_points = defend_by_points
        #: in the auction by points, whose contracts are worth the raise the samples say they
        #: make, not only their bid: see :meth:`_declared_stake`
        self.raise_value = raise_value
        #: in the auction by points, a declarer counts as making its bid where the open-card
        #: solver leaves it up to this many points short (:data:`AUCTION_SLACK`)
        self.auction_slack = auction_slack
        #: which declarers' bids the auction's slack counts for (:class:`SlackOn`)
        self.slack_on = slack_on
        #: at its contract, a declarer counts a sample as making an amount where the open-card
        #: solver leaves it up to this many points short (:meth:`_contract`); 0 in expert, where
        #: 10 named higher contracts, made fewer and lost 11 points a deal (README, Bots: the
        #: contract's slack)
        self.contract_slack = contract_slack
        #: the bid limits of the hands met in this decision's samples
        self._limits: dict[int, int] = {}
        self._more: Callable[[], Deal | None] = lambda: None
        #: the most solver nodes one decision may search (it stops drawing samples then); a
        #: count, not a clock, so that a seed still fixes every choice
        self.node_budget = node_budget
        self._spent = 0
        #: when this decision stops drawing and solving samples (a :func:`time.perf_counter`
        #: time; None where the limit gives no time)
        self._deadline: float | None = None
        self.name = name
        self.heuristic = HeuristicBot(seed)
        self._rng = random.Random(seed)
        self._calls = 0
        #: why the last action was chosen (:class:`Why`)
        self.why = Why("rule")
        #: the samples that made the amount, and the samples, of the last share
        self._shared = (0, 0)

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        actions = view.legal_actions
        if not actions:
            raise ValueError("this seat has no legal action: it is not its turn")
        self.why = Why("only")
        if len(actions) == 1:
            return actions[0]
        self.why = Why("rule")
        if not pimc_applies(view):
            return self.heuristic.choose(view)
        self._calls += 1
        self._spent = 0
        self._limits = {}
        seed = limit.seed if limit is not None and limit.seed is not None else None
        rng = random.Random(seed) if seed is not None else self._rng
        count = self.samples
        if limit is not None and limit.iterations is not None:
            count = max(1, limit.iterations)
        self._deadline = None
        if limit is not None and limit.time_s is not None:
            self._deadline = time.perf_counter() + SEARCH_SHARE * limit.time_s
        sampler = Sampler(view, rng)
        deals = self._draw(view, sampler, count)
        self._more = lambda: self._one_more(view, sampler)
        fallback = self.heuristic.choose(view)
        if not deals:
            return fallback
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(view, deals, fallback)
        if phase is Phase.AUCTION:
            return self._bid(view, deals, fallback)
        if phase is Phase.PASSING:
            return self._pass(view, deals, fallback)
        if phase is Phase.DISCARD:
            return self._discard(view, deals, fallback)
        if phase is Phase.CONTRACT:
            return self._contract(view, deals, fallback)
        return fallback

    # -- sampling -----------------------------------------------------------------------------

    def _draw(self, view: SeatView, sampler: Sampler, count: int) -> list[Deal]:
        weigh = self.policy and (
            (view.phase is Phase.PLAY and _others_played(view))
            or (self.auction_policy and _others_bid(view))
        )
        want = self.policy_draws * count if weigh else count
        deals: list[Deal] = []
        rejected = 0
        while len(deals) < want:
            if len(deals) >= count and self._past_deadline():
                break
            d = sampler.draw()
            if d is None:
                break
            if self.infer and rejected < 4 * count and not self._plausible(view, d):
                rejected += 1
                continue
            deals.append(d)
        if weigh and len(deals) > count:
            return self._weighed(view, deals, count, sampler.rng)
        return deals

    def _one_more(self, view: SeatView, sampler: Sampler) -> Deal | None:
        """One more sample for a close decision (expert's inference applied), or None."""
        for _ in range(5):
            d = sampler.draw()
            if d is None:
                return None
            if not self.infer or self._plausible(view, d):
                return d
        return None

    def _plausible(self, view: SeatView, d: Deal) -> bool:
        """Whether every other seat's highest bid fits its sampled hand (expert's inference).
        Without a talon (no-talon, draw-stock) every sample fits: the model of a hand's worth
        is one of the declarer's hand after the talon (and in four-player-a a side's bid
        counts the partner's cards as well)."""
        rules = view.rules
        if not Layout.of(rules).talon_size:
            return True
        top: dict[int, int] = {}
        for seat, amount in view.auction:
            # A named bid (misère, open, slam) says nothing of the hand's points.
            if amount and amount <= NAMED_AMOUNT:
                top[seat] = max(top.get(seat, 0), amount)
        for seat, amount in top.items():
            if seat == view.seat:
                continue
            hand = d.dealt[seat]
            worth = hand_estimate(
                self.heuristic.kept_hand(hand | d.talon, rules, len(d.order) - 1), rules
            )
            if amount > worth + BID_SLACK:
                return False
        if self.contract_inference:
            return not _raised_beyond(view, d)
        return True

    def _weighed(
        self, view: SeatView, deals: list[Deal], count: int, rng: random.Random
    ) -> list[Deal]:
        """``count`` of ``deals`` drawn without replacement with chances in proportion to how
        likely the other seats' plays so far were in each (policy-based inference): the model
        of another seat is the heuristic bot, which plays the card it would have played with
        chance :data:`POLICY_MATCH` and any other legal card alike with the rest. A deal whose
        every play the model foresees is worth more than one where a seat played against it."""
        keyed = []
        for i, d in enumerate(deals):
            weight = self._likelihood(view, d)
            # Efraimidis and Spirakis: the ``count`` largest keys u ** (1 / weight)
            keyed.append((rng.random() ** (1 / weight), i))
        keyed.sort(reverse=True)
        return [deals[i] for _, i in keyed[:count]]

    def _likelihood(self, view: SeatView, d: Deal) -> float:
        """How likely the model made the other seats' plays so far in the sampled deal ``d``
        (their plays replayed from the deal as dealt, each seat's view at its turn asked); with
        :attr:`auction_policy` their bids and passes too (:meth:`_bid_likelihood`), with
        :attr:`give_policy` the declarer's gives."""
        e = Deal.from_dealt(view.rules, d.dealer, d.cards_dealt, silent=d.silent, golden=d.golden)
        weight = 1.0
        plan: list[int] = []  # the cards the model of the declarer gives
        for action in history(view, d.given, d.discarded):
            seat = e.to_act
            legal = e.legal_actions()
            if action not in legal:
                return weight  # not replayed from the deal as dealt
            if seat != view.seat and self.auction_policy and e.phase is Phase.AUCTION:
                weight *= self._bid_likelihood(e, legal, action)
            elif seat != view.seat and self.give_policy and e.phase is Phase.PASSING:
                # the declarer's gives in any order: the model's plan is a set of cards
                cards = {give_parts(a)[0] for a in legal if is_give(a)}
                if not plan:
                    due = len({give_parts(a)[1] for a in legal if is_give(a)})
                    plan = pass_plan(e.hands[seat], e.rules, due)
                foreseen = is_give(action) and give_parts(action)[0] in plan
                match = self.policy_match[0]
                weight *= match if foreseen else (1 - match) / max(1, len(cards) - 1)
            elif e.phase is Phase.PLAY and seat != view.seat and len(legal) > 1:
                seen = seat_view(DealState(e), seat)
                foreseen = self.heuristic.choose(seen) == action
                match = self.policy_match[0 if seat in declarer_side(e) else 1]
                weight *= match if foreseen else (1 - match) / (len(legal) - 1)
            e.apply(action)
        return weight

    def _bid_likelihood(self, e: Deal, legal: list[int], action: int) -> float:
        """How likely the model (:func:`bid_chance`) made the seat to act in ``e``'s auction
        take ``action``: 1 where it could not both pass and bid by points, or where
        ``action`` is a named bid (a misère, say, says nothing of the hand's points)."""
        bids = [a for a in legal if is_bid(a) and a - BID <= NAMED_AMOUNT]
        if PASS not in legal or not bids or (action != PASS and action - BID > NAMED_AMOUNT):
            return 1.0
        if not Layout.of(e.rules).talon_size:
            return 1.0
        chance = bid_chance(min(bids) - BID, self._limit_of(e))
        return 1 - chance if action == PASS else chance

    def _limit_of(self, e: Deal) -> int:
        """The heuristic's :meth:`~HeuristicBot.bid_limit` of the dealt hand of the seat to act
        in ``e``'s auction, kept for the decision (the samples share hands)."""
        hand = e.dealt[e.to_act]
        if hand not in self._limits:
            passes = len(e.active) - 1
            self._limits[hand] = self.heuristic.bid_limit(hand, e.rules, passes)
        return self._limits[hand]

    # -- the play -----------------------------------------------------------------------------

    def _play(self, view: SeatView, deals: list[Deal], fallback: int) -> int:
        me = view.seat
        assert me is not None
        scores: dict[int, float] = {a: 0.0 for a in view.legal_actions}
        makes = dict.fromkeys(view.legal_actions, 0)
        declarer = False
        used = 0
        cards_left = sum(h.bit_count() for h in deals[0].hands)
        exact = cards_left < self.exact_below
        own = self.own_points and view.declarer != me and own_score_counts(view)
        # what the contract's fate weighs against a defender's own points in one sample
        fate = (view.contract or 0) if own and self.defend_by_points else 1000
        for i, d in enumerate(deals):
            if i and self._over():
                break
            solver = self._solver(d)
            need = points_needed(d, d.contract) - declarer_points(d)
            declarer = me in declarer_side(d)  # the declarer's partner plays for it
            mine: dict[int, int] = {}
            try:
                if exact:
                    values = solver.move_values()
                    if own and not declarer:
                        mine = self._own_values(d, me)
                else:
                    values = {a: 1000 * m for a, m in solver.move_makes(need).items()}
            except OutOfNodes:
                break
            finally:
                self._spent += solver.nodes
            used += 1
            for a, v in values.items():
                made = v >= need if exact else v > 0
                makes[a] += made
                if mine:
                    scores[a] += mine[a] - fate * made
                    continue
                score = 1000 * made + v if exact else v
                scores[a] += score if declarer else -score
        if not used:
            return fallback
        worth = None
        if own and self.defend_by_points and not exact:
            worth = self._own_by_points(deals[:used], makes, used, me, fate)
        if worth is not None:
            scores = worth
        elif self.tiebreak and not exact:
            self._tiebreak(deals[:used], scores, declarer, me if own else None)
        chosen = _best(scores, fallback)
        won = makes.get(chosen, 0) if declarer else used - makes.get(chosen, 0)
        self.why = Why("play" if declarer else "defend", used, won, view.contract)
        return chosen

    def _tiebreak(
        self, deals: list[Deal], scores: dict[int, float], declarer: bool, own: int | None = None
    ) -> None:
        """Tell apart the cards that tie on how often the contract is made by the mean points
        they leave the declarer's side over the first :attr:`tiebreak` samples (more for the
        declarer, fewer for a defender): the make-or-fail share decides the declarer's score,
        and the card points decide the defenders', so a tie is settled by them. With ``own``
        (a defender's seat), by the points that defender takes itself (:meth:`_own_values`).
        The mean is under 1000, so it orders only the cards that tied."""
        top = max(scores.values())
        tied = [a for a, s in scores.items() if s >= top - 1e-9]
        if len(tied) < 2:
            return
        totals, count = self._summed_values(deals[: self.tiebreak], tied, own)
        if not count:
            return
        for a in tied:
            mean = totals[a] / count
            scores[a] += mean / 1000 if declarer or own is not None else -mean / 1000

    def _own_by_points(
        self, deals: list[Deal], makes: dict[int, int], used: int, seat: int, fate: int
    ) -> dict[int, float] | None:
        """Each card's worth to defender ``seat`` in the early play: the mean points it takes
        itself after the card (:meth:`_own_values`, over the first :attr:`tiebreak` samples)
        less ``fate`` times the share of the ``used`` samples in which the declarer makes its
        contract after it (``makes``); None where the node budget left no sample to count."""
        totals, count = self._summed_values(deals[: max(1, self.tiebreak)], list(makes), seat)
        if not count:
            return None
        return {a: totals[a] / count - fate * makes[a] / used for a in makes}

    def _summed_values(
        self, deals: list[Deal], actions: list[int], own: int | None
    ) -> tuple[dict[int, int], int]:
        """The points after each of ``actions`` summed over ``deals`` (the declarer's side's,
        or with ``own`` what that defender takes itself: :meth:`_own_values`), and over how
        many deals: those searched before the node budget ran out."""
        totals = dict.fromkeys(actions, 0)
        count = 0
        for d in deals:
            if self._over():
                break
            try:
                if own is not None:
                    values = self._own_values(d, own)
                else:
                    solver = self._solver(d)
                    try:
                        values = solver.move_values()
                    finally:
                        self._spent += solver.nodes
            except OutOfNodes:
                break
            count += 1
            for a in actions:
                totals[a] += values[a]
        return totals, count

    def _own_values(self, d: Deal, seat: int) -> dict[int, int]:
        """What defender ``seat`` itself still takes after each of its legal actions (card
        points, the marriages it declares, the last trick's bonus) if every other seat plays to
        keep it down: the solver asked for that seat's gain alone. A defender's deal score is
        its own, so once the contract's fate is settled these points are what it plays for;
        :class:`OutOfNodes` where the node budget or the time runs out."""
        solver = self._solver(d, side=(seat,))
        try:
            return solver.move_values()
        finally:
            self._spent += solver.nodes

    # -- the auction --------------------------------------------------------------------------

    def _bid(self, view: SeatView, deals: list[Deal], fallback: int) -> int:
        me = view.seat
        assert me is not None
        bids = sorted(a for a in view.legal_actions if is_bid(a))
        if not bids:
            return fallback
        lowest = bids[0] - BID
        if self.by_points and by_points_applies(view) and PASS in view.legal_actions:
            return self._bid_by_points(view, deals, bids[0], fallback)
        share = self._make_share(deals, lambda d: _take(d, me, lowest, self.heuristic), lowest)
        if share is None:
            return fallback
        made, count = self._shared
        if share >= bid_confidence(view, self.bid_confidence) or PASS not in view.legal_actions:
            self.why = Why("bid", count, made, lowest)
            return bids[0]
        self.why = Why("pass", count, made, lowest)
        return PASS

    def _bid_by_points(self, view: SeatView, deals: list[Deal], bid: int, fallback: int) -> int:
        """Bid ``bid`` or pass, whichever leaves this seat more points ahead of the others on
        average over the samples (:meth:`_lead_after`; the raises of :attr:`raise_value`
        counted as :meth:`_declared_stake` says)."""
        me = view.seat
        assert me is not None
        amount = bid - BID
        after: dict[int, list[Reckoning]] = {bid: [], PASS: []}
        made = 0
        for d in deals:
            if after[bid] and self._over():
                break
            try:
                after_bid = self._lead_after(view, d, bid)
                after_pass = self._lead_after(view, d, PASS)
                makes = after_bid.made
                if after_bid.amount != amount:
                    # the hint's count: the samples in which this seat makes the bid itself
                    makes = self._makes(
                        _take(d, me, amount, self.heuristic), amount, self._slack(d, amount)
                    )
            except OutOfNodes:
                break
            made += makes
            after[bid].append(after_bid)
            after[PASS].append(after_pass)
        count = len(after[bid])
        if not count:
            return fallback
        if self._declared_stake(after[bid]) > self._declared_stake(after[PASS]):
            self.why = Why("bid", count, made, amount)
            return bid
        self.why = Why("pass", count, made, amount)
        return PASS

    def _declared_stake(self, reckonings: list[Reckoning]) -> float:
        """The sum of the samples' leads (:meth:`_lead_after`), the raises reckoned: each
        declaring seat names one contract for all the samples in which it declares, as a
        declarer names one: the amount ``x`` (or none) at which its gain summed over them is
        greatest, each sample's contract being its bid or ``x``, whichever is higher, gained
        where the sample's :attr:`Declared.top` reaches it and lost where not. That gain,
        less the bids', counts with its :attr:`Declared.weight`."""
        total = sum(r.lead for r in reckonings)
        seats: dict[int, list[Declared]] = {}
        for r in reckonings:
            if r.declared is not None:
                seats.setdefault(r.declared.seat, []).append(r.declared)
        for contracts in seats.values():
            at_bid = sum(_stake(c.bid, c.top) for c in contracts)
            raises = [0, *sorted({c.top for c in contracts})]
            best = max(sum(_stake(max(c.bid, x), c.top) for c in contracts) for x in raises)
            total += contracts[0].weight * (best - at_bid)
        return total

    def _lead_after(self, view: SeatView, d: Deal, first: int) -> Reckoning:
        """How many points this seat ends the sampled deal ``d`` ahead of the mean of the other
        active seats once it has taken ``first`` (a bid or a pass) and the auction has run on
        to its end; whether this seat declares and makes its contract; the amount it declares
        at (None where another seat declares, or nobody); and, as :attr:`raise_value` says,
        the declarer's contract with the highest it makes there.

        The rest of the auction, this seat's later turns included: each seat bids the lowest it
        may up to its hand's :meth:`~HeuristicBot.bid_limit` (the talon unknown to it, as to
        every bidder) and passes after. The engine says who declares and at what (a forced bid
        included). The declarer's contract is its bid, made or failed as the open-card solver
        says (made where it falls at most :attr:`auction_slack` points short); each defender
        scores :meth:`_defender_points`; a deal nobody declares scores 0."""
        me = view.seat
        assert me is not None
        e = d.copy()
        e.apply(first)
        passes = len(e.active) - 1
        while e.phase is Phase.AUCTION:
            legal = e.legal_actions()
            bids = sorted(a for a in legal if is_bid(a) and a - BID <= NAMED_AMOUNT)
            action = PASS
            if PASS not in legal:
                action = bids[0] if bids else legal[0]
            elif bids and bids[0] - BID <= self._limit_of(e):
                action = bids[0]
            e.apply(action)
        declarer = e.declarer
        if declarer < 0 or e.named:
            return Reckoning(0.0)
        amount = e.bid
        others = passes
        reckoned = self.raise_value is RaiseValue.ALL or (
            self.raise_value is RaiseValue.OWN and declarer == me
        )
        declared = None
        if reckoned:
            top = self._top_contract(_before_contract(d, declarer, amount, self.heuristic))
            weight = 1.0 if declarer == me else -1 / others
            declared = Declared(declarer, amount, top, weight)
            made = top >= amount
        else:
            taken = _take(d, declarer, amount, self.heuristic)
            made = self._makes(taken, amount, self._slack(d, amount))
        stake = amount if made else -amount
        defenders = {s: self._defender_points(d, s, made) for s in e.active if s != declarer}
        if declarer == me:
            return Reckoning(stake - sum(defenders.values()) / others, made, amount, declared)
        rest = stake + sum(p for s, p in defenders.items() if s != me)
        return Reckoning(defenders[me] - rest / others, declared=declared)

    def _defender_points(self, d: Deal, seat: int, made: bool) -> float:
        """What defender ``seat`` scores in the auction's reckoning where the contract is
        ``made`` or not: :attr:`defender_points` (:attr:`defender_points_failed` where it fails
        and that is set), and :attr:`defender_marriages` times the value of the marriages it
        was dealt."""
        points = self.defender_points
        if not made and self.defender_points_failed is not None:
            points = self.defender_points_failed
        if not self.defender_marriages:
            return points
        held = hand_features(d.dealt[seat], d.rules)["marriages"]
        return points + self.defender_marriages * held

    def _slack(self, d: Deal, amount: int) -> int:
        """The auction's slack for a declarer of ``amount`` in ``d``, as :attr:`slack_on` says."""
        if self.slack_on is SlackOn.OPENING and amount != d.rules.bidding_min:
            return 0
        return self.auction_slack

    def _top_contract(self, e: Deal) -> int:
        """The highest contract the declarer of ``e`` (at its contract, or at its first lead
        with its contract named) makes with all cards open, among those it may name up to
        :data:`REACH` above its hand's estimate; one less than the lowest if none."""
        if e.phase is not Phase.CONTRACT:
            return e.contract if self._makes(e, e.contract) else e.contract - 1
        amounts = _within_reach(e.legal_actions(), e.hands[e.declarer], e.rules)
        e.apply(contract(amounts[0]))
        e = _pass_weakest(e, self.heuristic)  # a contract named before the talon
        solver = self._solver(e)
        try:
            return _most_made(e, solver, amounts)
        finally:
            self._spent += solver.nodes

    def _make_share(
        self, deals: list[Deal], setup: Callable[[Deal], Deal], amount: int
    ) -> float | None:
        """The share of the samples in which the declarer makes ``amount`` (None if the node
        budget ran out on the first); while it is close to the threshold, more samples are
        drawn (up to :attr:`extra_samples`)."""
        made = count = 0
        extra = self.extra_samples
        pending = list(deals)
        while pending:
            d = pending.pop(0)
            try:
                made += self._makes(setup(d), amount)
            except OutOfNodes:
                break
            count += 1
            if self._over():
                break
            if not pending and extra and self._close(made, count):
                more = self._more()
                if more is not None:
                    extra -= 1
                    pending.append(more)
        self._shared = (made, count)
        return made / count if count else None

    def _close(self, made: int, count: int) -> bool:
        """Whether ``made`` of ``count`` samples leaves the share within two standard errors of
        the threshold: the decision is still a coin toss, so it is worth more samples."""
        share = made / count
        spread = 2 * math.sqrt(max(share * (1 - share), 0.05) / count)
        return abs(share - self.bid_confidence) < spread

    def _makes(self, e: Deal, amount: int, slack: int = 0) -> bool:
        """Whether the declarer makes ``amount`` from ``e`` (or falls short of it by at most
        ``slack`` points); :class:`OutOfNodes` where the budget or the time runs out first."""
        need = points_needed(e, amount) - slack - declarer_points(e)
        if need <= 0:
            return True
        solver = self._solver(e)
        try:
            return solver.at_least(need)
        finally:
            self._spent += solver.nodes

    def _solver(self, d: Deal, side: tuple[int, ...] | None = None) -> Solver:
        """A solver for ``d`` (and ``side``) that may search what is left of the decision's
        node budget, until its deadline."""
        left = None if self.node_budget is None else max(0, self.node_budget - self._spent)
        return Solver(d, left, side, self._deadline)

    def _over(self) -> bool:
        """Whether this decision has used up its node budget or its time."""
        spent = self.node_budget is not None and self._spent >= self.node_budget
        return spent or self._past_deadline()

    def _past_deadline(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    # -- the talon ----------------------------------------------------------------------------

    def _pass(self, view: SeatView, deals: list[Deal], fallback: int) -> int:
        """The declarer's give: of the four cards least worth keeping, for the first seat still
        due one, the one (the rest passed as the heuristic would) that makes the bid in the
        most samples; with :attr:`pass_by_stake`, the one whose best contract
        (:func:`_best_contract`) is worth the most. A tie goes to the card least worth
        keeping. The write-off where the best share is hopeless (:meth:`_writes_off`)."""
        actions = view.legal_actions
        hand = view.hand or 0
        gives = [a for a in actions if is_give(a)]
        seat = min(give_parts(a)[1] for a in gives)
        mine = sorted(
            (a for a in gives if give_parts(a)[1] == seat),
            key=lambda a: _give_value(give_parts(a)[0], hand),
        )[:4]
        amount = view.contract or 0
        if self.pass_by_stake:
            values, made, count = self._stakes_after(deals, mine)
        else:
            made, count = self._made_after(
                deals, mine, lambda d, a: _finish_passing(d, a, self.heuristic), amount
            )
            values = {a: made[a] / count for a in mine} if count else {}
        if not count:
            return fallback
        if self.marriage_gift and self.pass_by_stake:  # a stake is in points, a share not
            gifts = self._marriage_gifts(view, deals, mine)
            values = {a: values[a] - self.marriage_gift * gifts[a] for a in mine}
        best_action, best_value = fallback, -math.inf
        for a in mine:
            if values[a] > best_value + 1e-9:
                best_action, best_value = a, values[a]
        best_made = made.get(best_action, 0)
        if self._writes_off(view, deals[0], best_made / count):
            self.why = Why("write_off", count, best_made, amount)
            return WRITE_OFF
        self.why = Why("give", count, best_made, amount)
        return best_action

    def _marriage_gifts(
        self, view: SeatView, deals: list[Deal], candidates: list[int]
    ) -> dict[int, float]:
        """For each give of ``candidates``: where it hands over a queen or a king whose partner
        the declarer does not hold, that marriage's value times the share of ``deals`` in which
        the receiver holds the partner (a marriage the give would complete for it); else 0."""
        hand = view.hand or 0
        gifts = dict.fromkeys(candidates, 0.0)
        for a in candidates:
            c, seat = give_parts(a)
            rank, suit = rank_of(c), suit_of(c)
            if rank not in (QUEEN, KING):
                continue
            partner = card_of(KING if rank == QUEEN else QUEEN, suit)
            if hand >> partner & 1 or not deals:
                continue
            held = sum(d.hands[seat] >> partner & 1 for d in deals) / len(deals)
            gifts[a] = view.rules.marriage_values[suit] * held
        return gifts

    def _stakes_after(
        self, deals: list[Deal], candidates: list[int]
    ) -> tuple[dict[int, float], dict[int, int], int]:
        """For each of the declarer's ``candidates`` (a give; the rest passed as the
        heuristic would): the stake of the best contract it may then name over the samples
        (:func:`_best_contract`), the samples in which it makes its bid, and how many samples
        were counted before the node budget ran out."""
        tops: dict[int, list[int]] = {a: [] for a in candidates}
        amounts: dict[int, list[int]] = {}
        count = 0
        for d in deals:
            if count and self._over():
                break
            row: list[int] = []
            try:
                for a in candidates:
                    e = _pass_after(d.copy(), a, self.heuristic)
                    if a not in amounts:
                        amounts[a] = _contract_amounts(e)
                    row.append(self._top_contract(e))
            except OutOfNodes:
                break
            count += 1
            for a, t in zip(candidates, row, strict=True):
                tops[a].append(t)
        if not count:
            return {}, {}, 0
        confidence = self.bid_confidence
        values = {a: _best_contract(tops[a], amounts[a], confidence)[1] for a in candidates}
        made = {a: sum(1 for t in tops[a] if t >= amounts[a][0]) for a in candidates}
        return values, made, count

    def _made_after(
        self,
        deals: list[Deal],
        candidates: list[int],
        finish: Callable[[Deal, int], Deal],
        amount: int,
    ) -> tuple[dict[int, int], int]:
        """For each of the declarer's ``candidates``, the samples in which it makes ``amount``
        once it took that action and ``finish`` (given a copy of the sample and the action)
        brought the deal to the first lead; and how many samples were counted before the
        node budget ran out."""
        made = dict.fromkeys(candidates, 0)
        count = 0
        for d in deals:
            if count and self._over():
                break
            try:
                makes = [self._makes(finish(d.copy(), a), amount) for a in candidates]
            except OutOfNodes:
                break
            count += 1
            for a, m in zip(candidates, makes, strict=True):
                made[a] += m
        return made, count

    def _writes_off(self, view: SeatView, sample: Deal, share: float) -> bool:
        """Whether the declarer writes off, where it may, with ``share`` of the samples made:
        when the share is below :data:`WRITE_OFF_BELOW` and the heuristic also finds the
        contract hopeless, or when :func:`writeoff_pays`."""
        if WRITE_OFF not in view.legal_actions:
            return False
        hopeless = share < WRITE_OFF_BELOW and self.heuristic.hopeless(view)
        return hopeless or writeoff_pays(view, sample, share)

    def _discard(self, view: SeatView, deals: list[Deal], fallback: int) -> int:
        """The declarer's discards (choose-talon's two, fixed-deal's one): of the four cards
        least worth keeping (and the heuristic's choice), the one whose discard (the rest
        discarded as :func:`_finish_discards` does) makes the contract in the most samples; a
        tie goes to the heuristic's choice. The write-off as in the passing."""
        actions = view.legal_actions
        hand = view.hand or 0
        mine = sorted(
            (a for a in actions if is_discard(a)),
            key=lambda a: keep_value(a - DISCARD, hand, -1),
        )[:4]
        if is_discard(fallback) and fallback not in mine:
            mine.append(fallback)
        amount = view.contract or 0
        made, count = self._made_after(deals, mine, _finish_discards, amount)
        if not count:
            return fallback
        best = _best({a: made[a] / count for a in mine}, fallback)
        if self._writes_off(view, deals[0], made[best] / count):
            self.why = Why("write_off", count, made[best], amount)
            return WRITE_OFF
        # the hint's words of a contract: "you make {amount} in {made} of {samples} deals"
        self.why = Why("contract", count, made[best], amount)
        return best

    def _contract(self, view: SeatView, deals: list[Deal], fallback: int) -> int:
        amounts = _within_reach(view.legal_actions, view.hand or 0, view.rules)
        tops: list[int] = []
        extra = self.extra_samples
        pending = list(deals)
        while pending:
            e = pending.pop(0).copy()
            e.apply(contract(amounts[0]))
            e = _pass_weakest(e, self.heuristic)  # a contract named before the talon
            solver = self._solver(e)
            try:
                tops.append(_most_made(e, solver, amounts, self.contract_slack))
            except OutOfNodes:
                break
            finally:
                self._spent += solver.nodes
            if self._over():
                break
            if not pending and extra and self._contract_close(tops, amounts):
                more = self._more()
                if more is not None:
                    extra -= 1
                    pending.append(more)
        if not tops:
            return fallback
        best = _best_contract(tops, amounts, self.bid_confidence)[0]
        self.why = Why("contract", len(tops), sum(1 for t in tops if t >= best), best)
        return contract(best)

    def _contract_close(self, tops: list[int], amounts: list[int]) -> bool:
        """Whether an amount the samples might name has a share still close to the threshold."""
        count = len(tops)
        return any(self._close(sum(1 for t in tops if t >= x), count) for x in amounts[1:])


def bid_confidence(view: SeatView, confidence: float) -> float:
    """The share of samples that must make a bid: ``confidence``, but at least
    :data:`SIDE_BID_CONFIDENCE` where the seat bids for a side without a talon to take."""
    layout = Layout.of(view.rules)
    if layout.procedure == NO_TALON and view.rules.players_partnerships == "across":
        return max(confidence, SIDE_BID_CONFIDENCE)
    return confidence


def own_score_counts(view: SeatView) -> bool:
    """Whether what this seat, a defender, takes itself is all that its play still changes
    once the contract's fate is settled: every seat for itself, the defenders' scores not
    pooled (``scoring.pooled_defenders``), the declarer gaining its contract alone
    (``scoring.declarer_gains``: else the points the declarer is held to count too), and this
    seat gaining its deal score (:func:`~thousand.engine.match.defender_gains`)."""
    rules = view.rules
    if (
        rules.players_partnerships != "none"
        or rules.scoring_pooled_defenders
        or rules.scoring_declarer_gains != "contract"
    ):
        return False
    if view.match is None or view.seat is None:
        return True
    return defender_gains(rules, view.match.totals[view.seat])


def by_points_applies(view: SeatView) -> bool:
    """Whether the auction may be decided by points (:meth:`PimcBot._bid_by_points`): a talon
    to take and every seat for itself."""
    rules = view.rules
    return Layout.of(rules).talon_size > 0 and rules.players_partnerships == "none"


def bid_chance(amount: int, limit: int) -> float:
    """The chance the model of another seat's auction gives it bidding ``amount`` (passing:
    one less this) with a hand whose :meth:`~HeuristicBot.bid_limit` is ``limit``."""
    x = (amount - limit + BID_CHANCE_SHIFT) / BID_CHANCE_SPREAD
    chance = 1 / (1 + math.exp(x))
    return min(1 - BID_CHANCE_FLOOR, max(BID_CHANCE_FLOOR, chance))


def _raised_beyond(view: SeatView, d: Deal) -> bool:
    """Whether, in the sampled deal ``d``, another seat that declared and raised its contract
    above its bid (the talon taken, one card passed to each opponent) raised it more than
    :data:`CONTRACT_SLACK` above the worth of the hand it held then."""
    declarer, amount, bid = view.declarer, view.contract, view.bid
    if declarer is None or declarer == view.seat or amount is None or view.phase is not Phase.PLAY:
        return False
    if Layout.of(view.rules).procedure != TAKE_AND_PASS or view.named:
        return False
    if bid is None or amount <= bid:
        return False
    hand = d.dealt[declarer] | d.talon
    for card in d.given:
        if card >= 0:
            hand &= ~(1 << card)
    return amount > hand_estimate(hand, view.rules) + CONTRACT_SLACK


def _others_bid(view: SeatView) -> bool:
    """Whether another seat has had a turn in the auction that was weighed (and a talon was
    dealt: the model's worth of a hand is one of it with the talon)."""
    if not Layout.of(view.rules).talon_size:
        return False
    return any(seat != view.seat for seat, _ in view.auction)


def _others_played(view: SeatView) -> bool:
    """Whether another seat has played a card in this deal (there is a play to weigh)."""
    return any(seat != view.seat for seat, _ in view.plays)


def writeoff_pays(view: SeatView, sample: Deal, share: float) -> bool:
    """Whether writing off loses the declarer less than playing on, by the engine's figures: a
    write-off changes its total by ``view.writeoff_changes``; playing on gains the contract's
    stake with chance ``share`` and loses it otherwise, the stake being the contract times the
    engine's multiplier of the sampled deal (:func:`thousand.engine.contra.factor`: a blind
    contract counts ``bidding.blind_multiplier`` times, won or lost, a write-off once). Only
    where the engine multiplies the stake: without, the write-off is left to the make-share
    and the heuristic, as before."""
    if view.writeoff_changes is None or view.seat is None or view.contract is None:
        return False
    multiplier = factor(sample)
    if multiplier == 1:
        return False
    stake = view.contract * multiplier
    return (2 * share - 1) * stake < view.writeoff_changes[view.seat]


def _best(scores: dict[int, float], fallback: int) -> int:
    top = max(scores.values())
    best = [a for a, s in scores.items() if s >= top - 1e-9]
    return fallback if fallback in best else best[0]


def _within_reach(legal: Sequence[int], hand: int, rules: Rules) -> list[int]:
    """The contract amounts of the ``legal`` actions worth searching for a declarer holding
    ``hand``: the lowest, and those up to :data:`REACH` above the hand's estimate (amounts far
    above the hand's worth are never made)."""
    amounts = sorted(a - CONTRACT for a in legal if is_contract(a))
    reach = hand_estimate(hand, rules) + REACH
    return [x for x in amounts if x == amounts[0] or x <= reach]


def _best_contract(tops: list[int], amounts: list[int], confidence: float) -> tuple[int, float]:
    """The contract a declarer names of ``amounts`` (its bid first) where ``tops`` are the
    highest it makes in each sample, and that contract's stake: the bid, or a higher amount
    that ``confidence`` of the samples make, whichever is worth the most on average (won where
    made, lost where not)."""
    best, best_value = amounts[0], -math.inf
    for x in amounts:
        share = sum(1 for t in tops if t >= x) / len(tops)
        value = (2 * share - 1) * x
        if (x == amounts[0] or share >= confidence) and value > best_value:
            best, best_value = x, value
    return best, best_value


def _contract_amounts(e: Deal) -> list[int]:
    """The contracts the declarer of ``e`` may name that are worth searching (the lowest
    first): at its contract, those within reach (:func:`_within_reach`); else the contract it
    named (or its bid) alone."""
    if e.phase is not Phase.CONTRACT:
        return [e.contract]
    return _within_reach(e.legal_actions(), e.hands[e.declarer], e.rules)


def _stake(contract: int, top: int) -> int:
    """What a declarer gains at ``contract`` where the most it makes is ``top``."""
    return contract if top >= contract else -contract


def _take(d: Deal, seat: int, amount: int, heuristic: HeuristicBot) -> Deal:
    """A copy of the sampled deal in which ``seat`` wins the auction at ``amount``, passes (or,
    in choose-talon, takes the first talon and discards) its weakest cards and names the
    contract ``amount`` (where the contract comes before the talon, names it first): ready for
    the first lead."""
    return _pass_weakest(_name_bid(_before_contract(d, seat, amount, heuristic)), heuristic)


def _before_contract(d: Deal, seat: int, amount: int, heuristic: HeuristicBot) -> Deal:
    """A copy of the sampled deal in which ``seat`` wins the auction at ``amount`` and passes
    (or, in choose-talon, takes the first talon and discards; in fixed-deal, hands one over
    and discards) its weakest cards: at its contract, or at the first lead where it names
    none."""
    e = d.copy()
    e.end_auction(seat, amount)
    if e.phase is Phase.TALON:  # choose-talon: the talons are unseen and alike
        e.apply(TAKE_TALON)
    return _discard_weakest(_pass_weakest(e, heuristic))


def _finish_passing(e: Deal, first: int, heuristic: HeuristicBot) -> Deal:
    """Apply ``first`` (a give, or -1) and then the heuristic's passing (and fixed-deal's
    discard), up to the first lead (the contract left at the bid)."""
    return _name_bid(_pass_after(e, first, heuristic))


def _pass_after(e: Deal, first: int, heuristic: HeuristicBot) -> Deal:
    """Apply ``first`` (a give, or -1) and then the heuristic's passing (and fixed-deal's
    discard): at the declarer's contract, or at the first lead where none is named."""
    if first >= 0:
        e.apply(first)
    return _discard_weakest(_pass_weakest(e, heuristic))


def _pass_weakest(e: Deal, heuristic: HeuristicBot) -> Deal:
    """The declarer of ``e`` passes the cards least worth keeping, one to each opponent (where
    the talon is handed over untaken, the talon cards)."""
    while e.phase is Phase.PASSING:
        hand = e.hands[e.declarer]
        receiver = next(s for s in e.order if s != e.declarer and e.given[s] < 0)
        cards = [
            c for c, seat in map(give_parts, filter(is_give, e.legal_actions())) if seat == receiver
        ]
        e.apply(give(min(cards, key=lambda x: _give_value(x, hand)), receiver))
    return e


def _give_value(c: int, hand: int) -> int:
    """What card ``c`` is worth to a declarer holding ``hand`` (a talon card handed over
    untaken is not in it): the cheapest goes first."""
    return keep_value(c, hand | 1 << c, -1)


def _finish_discards(e: Deal, first: int = -1) -> Deal:
    """Apply the discard ``first`` (-1: none), then discard the cards least worth keeping, up
    to the first lead (the contract left at the bid)."""
    if first >= 0:
        e.apply(first)
    return _name_bid(_discard_weakest(e))


def _discard_weakest(e: Deal) -> Deal:
    """The declarer of ``e`` discards the cards least worth keeping."""
    while e.phase is Phase.DISCARD:
        hand = e.hands[e.declarer]
        e.apply(DISCARD + min(card_list(hand), key=lambda x: keep_value(x, hand, -1)))
    return e


def _name_bid(e: Deal) -> Deal:
    """At its contract, the declarer of ``e`` names its bid."""
    if e.phase is Phase.CONTRACT:
        e.apply(contract(e.bid))
    return e


def _most_made(e: Deal, solver: Solver, amounts: list[int], slack: int = 0) -> int:
    """The highest of ``amounts`` the declarer makes from ``e`` (its contract named, at the
    first lead; one less than the lowest if none), asked of ``solver``, ``e``'s solver; made
    where it falls at most ``slack`` points short."""
    have = declarer_points(e) + slack
    lo, hi = 0, len(amounts) - 1
    if not solver.at_least(points_needed(e, amounts[0]) - have):
        return amounts[0] - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if solver.at_least(points_needed(e, amounts[mid]) - have):
            lo = mid
        else:
            hi = mid - 1
    return amounts[lo]


def make_hard(seed: int | None = None) -> PimcBot:
    """Level hard: 12 samples a decision."""
    return PimcBot(seed, samples=12, name="pimc")


EXPERT_NODES = 1_200_000
"""Expert's node budget a decision in the compiled build (the solver stops where it is spent):
about a third of a second of solving, so that a decision stays under a second."""

EXPERT_NODES_PURE = 200_000
"""Expert's node budget a decision in pure Python, where a node costs several times as much
(2 to 4 µs, by the layout and the decision): on the project's 2-core machine the slowest
decisions took 1.1 s at 300,000 (russian-classic, tysiac-2p) and up to 0.96 s at 240,000,
which left no room for a slower machine (README, Bots: the latency per template)."""


EXPERT_TIEBREAK = 8
"""On how many samples expert breaks the early play's make-or-fail ties by points."""


def make_expert(
    seed: int | None = None,
    *,
    infer: bool = True,
    samples: int = 32,
    tiebreak: int = EXPERT_TIEBREAK,
    policy: bool = True,
    policy_match: tuple[float, float] = (POLICY_MATCH, POLICY_MATCH),
    policy_draws: int = POLICY_DRAWS,
    by_points: bool = True,
    defender_points: int = DEFENDER_POINTS,
    defender_points_failed: int | None = None,
    own_points: bool = True,
    raise_value: RaiseValue = RaiseValue.NONE,
    auction_slack: int = 0,
    slack_on: SlackOn = SlackOn.EVERY_BID,
    contract_slack: int = 0,
    defend_by_points: bool = True,
    auction_policy: bool = False,
    give_policy: bool = False,
    defender_marriages: float = 0.0,
    pass_by_stake: bool = True,
    marriage_gift: float = 0.0,
    exact_below: int = EXACT_BELOW,
    contract_inference: bool = False,
    node_budget: int | None = None,
) -> PimcBot:
    """Level expert: up to 32 samples a decision within a node budget, inference from the
    bidding and the play, the auction decided by points (:meth:`PimcBot._bid_by_points`), the
    give chosen by the stake of the best contract after it (:meth:`PimcBot._pass`), the early
    play's ties broken by points, and a defender playing for the points it takes itself
    (:meth:`PimcBot._own_values`), weighed against the contract's fate (``defend_by_points``,
    since 2026-12-07). The keywords switch a part off for the ablation
    (:data:`thousand.bots.levels.VARIANTS`). The node budget is :data:`EXPERT_NODES` where the
    solver runs compiled, :data:`EXPERT_NODES_PURE` where not."""
    if node_budget is None:
        node_budget = EXPERT_NODES if compiled() else EXPERT_NODES_PURE
    return PimcBot(
        seed,
        samples=samples,
        infer=infer,
        name="pimc-expert",
        node_budget=node_budget,
        tiebreak=tiebreak,
        policy=policy,
        policy_match=policy_match,
        policy_draws=policy_draws,
        by_points=by_points,
        defender_points=defender_points,
        defender_points_failed=defender_points_failed,
        own_points=own_points,
        raise_value=raise_value,
        auction_slack=auction_slack,
        slack_on=slack_on,
        contract_slack=contract_slack,
        defend_by_points=defend_by_points,
        auction_policy=auction_policy,
        give_policy=give_policy,
        defender_marriages=defender_marriages,
        pass_by_stake=pass_by_stake,
        marriage_gift=marriage_gift,
        exact_below=exact_below,
        contract_inference=contract_inference,
    )
