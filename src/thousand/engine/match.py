"""A match: running totals across deals (rules.md 1.8 and 1.9), as values.

:func:`settle` takes the match before a deal and the deal's :class:`DealOutcome` and returns the
match after it with a :class:`DealReport`: the changes, the totals and the events, in exactly
the order of the steps of 1.8 and 1.9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from ..rules import Rules
from .scoring import DealOutcome

EventName = Literal[
    "four-nines",
    "cross-penalty",
    "stick-penalty",
    "no-win-penalty",
    "zero-penalty",
    "write-off-penalty",
    "pit",
    "barrel-on",
    "reverse-barrel-on",
    "reverse-barrel-fall",
    "barrel-fall",
    "three-falls-reset",
    "dump-truck",
    "barrel-knocked-off",
    "target-raised",
    "lose",
    "win",
    "golden-reset",
]
"""What else a deal did to a seat (a record's ``events``), in the order of the steps of rules.md
1.8 and 1.9 that give them."""


@dataclass(frozen=True, slots=True)
class Event:
    """An event of a deal's settlement, to one seat."""

    seat: int
    event: EventName


@dataclass(frozen=True, slots=True)
class DealReport:
    """A deal as the scoresheet shows it."""

    outcome: DealOutcome
    changes: tuple[int, ...]
    totals: tuple[int, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything that runs across deals, per seat, plus whose deal is next."""

    rules: Rules
    totals: tuple[int, ...]
    dealer: int
    deals: int = 0
    sticks: tuple[int, ...] = ()
    no_wins: tuple[int, ...] = ()
    writeoffs: tuple[int, ...] = ()
    on_barrel: tuple[bool, ...] = ()
    barrel_left: tuple[int, ...] = ()
    mounted: tuple[int, ...] = ()
    falls: tuple[int, ...] = ()
    winner: int | None = None
    #: ``penalty.cross``: each seat's crosses (failed contracts not yet paid for)
    crosses: tuple[int, ...] = ()
    #: ``game.tiebreak`` continue: how far the target (and the barrel) has been raised
    raised: int = 0
    #: ``golden.deals``: the golden deals scored so far (redeals do not count), and how many
    #: of them the declarer failed
    golden_played: int = 0
    golden_failed: int = 0
    #: ``barrel.pit``: the seats held in the pit
    in_pit: tuple[bool, ...] = ()

    @property
    def target(self) -> int:
        """The target in force (``game.target``, raised by ``game.tiebreak`` continue)."""
        return self.rules.game_target + self.raised

    @classmethod
    def start(
        cls, rules: Rules, totals: Sequence[int] | None = None, dealer: int = 0
    ) -> MatchState:
        n = rules.players_count
        zeros = (0,) * n
        return cls(
            rules=rules,
            totals=tuple(totals) if totals is not None else zeros,
            dealer=dealer,
            sticks=zeros,
            no_wins=zeros,
            writeoffs=zeros,
            on_barrel=(False,) * n,
            barrel_left=zeros,
            mounted=(-1,) * n,
            falls=zeros,
            crosses=zeros,
        )

    @property
    def over(self) -> bool:
        return self.winner is not None

    def sides(self) -> list[tuple[int, ...]]:
        """The units that share a running total: each seat alone, or the two partnerships
        (seats 0+2 and 1+3) with ``players.partnerships`` across."""
        return _units(self.rules)

    def places(self) -> tuple[int, ...]:
        """Each seat's place in a match that is over (1 the best): the winner's side first,
        then the other sides by their totals, the highest first; sides with equal totals
        share a place and the next place is skipped (1, 2, 2, 4), and partners share their
        side's. ValueError while the match goes on."""
        if self.winner is None:
            raise ValueError("the match is not over: it has no places yet")
        sides = self.sides()
        won = next(side for side in sides if self.winner in side)
        rest = sorted((self.totals[side[0]] for side in sides if side is not won), reverse=True)
        place = [0] * len(self.totals)
        for side in sides:
            at = 1 if side is won else 2 + rest.index(self.totals[side[0]])
            for seat in side:
                place[seat] = at
        return tuple(place)


def _counter(mode: str, count: int, hit: bool) -> int:
    if mode == "any":
        return count + 1 if hit else count
    return count + 1 if hit else 0


def settle(match: MatchState, outcome: DealOutcome) -> tuple[MatchState, DealReport]:
    """Apply a finished deal to the match: the deal's change (1.8's counters and penalties
    included), then 1.9 steps 1 to 5, then the golden deals' count; each a step below."""
    if outcome.result in ("redealt", "passed-on"):
        return _no_deal_played(match, outcome)
    sheet = _Sheet.open(match, outcome)
    _deal_change(sheet)
    _counters_and_penalties(sheet)
    _off_the_barrel(sheet)
    _on_the_barrel(sheet)
    _dump_truck(sheet)
    _collision(sheet)
    _winner(sheet)
    _golden_deals(sheet)
    return sheet.close()


def _no_deal_played(match: MatchState, outcome: DealOutcome) -> tuple[MatchState, DealReport]:
    """A redeal (the same dealer deals again) or a pass-on (the next dealer deals): no total
    moves, except by a buyback's cost (``talon.buyback``), off the seat's total (its side's,
    with partnerships), and nothing else (part 2, Combinations settled)."""
    rules = match.rules
    n = rules.players_count
    before = match.totals
    dealer = match.dealer if outcome.result == "redealt" else (match.dealer + 1) % n
    if not any(outcome.scores):
        report = DealReport(outcome, (0,) * n, before, ())
        return replace(match, dealer=dealer, deals=match.deals + 1), report
    paid = list(before)
    for unit in _units(rules):
        cost = sum(outcome.scores[s] for s in unit)
        for s in unit:
            paid[s] += cost
    report = DealReport(outcome, outcome.scores, tuple(paid), ())
    return replace(match, totals=tuple(paid), dealer=dealer, deals=match.deals + 1), report


@dataclass(slots=True)
class _Sheet:
    """The scoresheet while one deal is settled: the match before it, the deal, and every
    counter and total as the steps change them. 1.9 runs over units (a seat, or a side of two
    partners sharing one total): a unit's state is kept on its lower seat (``heads``) until
    :meth:`close` copies it to the partner."""

    match: MatchState
    outcome: DealOutcome
    rules: Rules
    n: int
    before: tuple[int, ...]
    decl: int | None
    sitter: int | None
    #: the declarer's partner (partnerships across), else -1
    partner: int
    #: the declarer's unit (its lower seat), or None
    decl_unit: int | None
    units: list[tuple[int, ...]]
    heads: list[int]
    #: each seat's change from the deal, 1.8's penalties included
    change: list[int]
    events: list[Event]
    sticks: list[int]
    no_wins: list[int]
    writeoffs: list[int]
    crosses: list[int]
    totals: list[int]
    on_barrel: list[bool]
    left: list[int]
    mounted: list[int]
    falls: list[int]
    in_pit: list[bool]
    deal_no: int
    target: int
    threshold: int | None
    raised: int
    winner: int | None = None
    #: each unit's change (its seats' together), from 1.9 step 1 on
    unit_change: dict[int, int] = field(default_factory=dict)
    #: the units on the barrel before this deal, and those on its mirror (``barrel.reverse``)
    was_on: tuple[bool, ...] = ()
    was_mirror: tuple[bool, ...] = ()
    golden_played: int = 0
    golden_failed: int = 0

    @classmethod
    def open(cls, match: MatchState, outcome: DealOutcome) -> _Sheet:
        rules = match.rules
        n = rules.players_count
        decl = outcome.declarer
        partner = -1 if decl is None or rules.players_partnerships != "across" else (decl + 2) % 4
        units = _units(rules)
        return cls(
            match=match,
            outcome=outcome,
            rules=rules,
            n=n,
            before=match.totals,
            decl=decl,
            sitter=outcome.sitter,
            partner=partner,
            decl_unit=None if decl is None else min(decl, partner) if partner >= 0 else decl,
            units=units,
            heads=[u[0] for u in units],
            change=list(outcome.scores),
            events=[],
            sticks=list(match.sticks),
            no_wins=list(match.no_wins),
            writeoffs=list(match.writeoffs),
            crosses=list(match.crosses) if match.crosses else [0] * n,
            totals=list(match.totals),
            on_barrel=list(match.on_barrel),
            left=list(match.barrel_left),
            mounted=list(match.mounted),
            falls=list(match.falls),
            in_pit=list(match.in_pit) if match.in_pit else [False] * n,
            deal_no=match.deals + 1,
            target=rules.game_target + match.raised,
            threshold=None
            if rules.barrel_threshold is None
            else rules.barrel_threshold + match.raised,
            raised=match.raised,
            golden_played=match.golden_played,
            golden_failed=match.golden_failed,
        )

    def close(self) -> tuple[MatchState, DealReport]:
        """The match after the deal, and the deal's report. A unit's change beyond its seats'
        own (mounting, freezing, falls, the dump truck, ...) is charged to its lower seat."""
        changes = list(self.change)
        for u in self.units:
            head = u[0]
            changes[head] += self.totals[head] - self.before[head] - self.unit_change[head]
            for s in u[1:]:
                self.totals[s] = self.totals[head]
                self.on_barrel[s] = self.on_barrel[head]
                self.left[s] = self.left[head]
                self.mounted[s] = self.mounted[head]
                self.falls[s] = self.falls[head]
                self.in_pit[s] = self.in_pit[head]
        new = MatchState(
            rules=self.rules,
            totals=tuple(self.totals),
            dealer=(self.match.dealer + 1) % self.n,
            deals=self.deal_no,
            sticks=tuple(self.sticks),
            no_wins=tuple(self.no_wins),
            writeoffs=tuple(self.writeoffs),
            on_barrel=tuple(self.on_barrel),
            barrel_left=tuple(self.left),
            mounted=tuple(self.mounted),
            falls=tuple(self.falls),
            winner=self.winner,
            crosses=tuple(self.crosses),
            raised=self.raised,
            golden_played=self.golden_played,
            golden_failed=self.golden_failed,
            in_pit=tuple(self.in_pit),
        )
        report = DealReport(self.outcome, tuple(changes), tuple(self.totals), tuple(self.events))
        return new, report


def defender_gains(rules: Rules, total: int) -> bool:
    """Whether a defender whose total before the deal is ``total`` gains its deal score:
    not above ``scoring.only_bids_above``."""
    limit = rules.scoring_only_bids_above
    return limit is None or total <= limit


def _deal_change(sheet: _Sheet) -> None:
    """What the deal itself changes: ``scoring.only_bids_above`` (a defender above the limit
    gains nothing; a sitting dealer's talon score is no defender's gain and still counts), a
    sitting dealer on the barrel (``four.sitter_scores``: nothing, its deal score 0), and
    ``marriage.four_nines_bonus``."""
    rules, outcome, change = sheet.rules, sheet.outcome, sheet.change
    for s in range(sheet.n):
        if s != sheet.decl and s != sheet.sitter and not defender_gains(rules, sheet.before[s]):
            change[s] = 0
    sitter = sheet.sitter
    if sitter is not None and sheet.match.on_barrel[sitter] and outcome.deal_points is not None:
        change[sitter] = 0
        points = list(outcome.deal_points)
        points[sitter] = 0
        sheet.outcome = replace(outcome, deal_points=tuple(points))
    if outcome.extras:
        for s in range(sheet.n):
            if outcome.extras[s]:
                change[s] += outcome.extras[s]
                sheet.events.append(Event(s, "four-nines"))


def _counters_and_penalties(sheet: _Sheet) -> None:
    """1.8: the counters that run across deals and their penalties (the cross, sticks, the
    no-win streak, the zero penalty, every third write-off), added into the deal's change."""
    rules, outcome, change, decl = sheet.rules, sheet.outcome, sheet.change, sheet.decl
    if rules.penalty_cross and outcome.result == "failed" and decl is not None:
        # a failed declarer loses nothing at once, whatever multiplied the contract (contra,
        # blind, golden): its deal's loss is undone; its second cross costs
        # penalty.cross_amount, a penalty that nothing multiplies (part 2, Combinations settled)
        change[decl] -= outcome.scores[decl]
        sheet.crosses[decl] += 1
        if sheet.crosses[decl] >= 2:
            sheet.crosses[decl] = 0
            change[decl] -= rules.penalty_cross_amount
            sheet.events.append(Event(decl, "cross-penalty"))
    if outcome.played:
        _sticks(sheet)
        _no_win_streak(sheet)
        _zero_penalty(sheet)
    elif outcome.result == "written-off" and decl is not None:
        every = rules.writeoff_penalty_every
        if every:
            sheet.writeoffs[decl] += 1
            if sheet.writeoffs[decl] >= every:
                sheet.writeoffs[decl] = 0
                change[decl] -= rules.writeoff_penalty
                sheet.events.append(Event(decl, "write-off-penalty"))


def _sticks(sheet: _Sheet) -> None:
    rules, outcome = sheet.rules, sheet.outcome
    if rules.penalty_sticks == "off":
        return
    assert outcome.tricks is not None and outcome.deal_points is not None
    twice = rules.penalty_sticks_doubled
    doubled = (twice in ("golden", "both") and outcome.golden) or (
        twice in ("blind", "both") and outcome.blind
    )
    for s in range(sheet.n):
        if s == sheet.sitter:
            continue
        if rules.penalty_sticks_on == "tricks":
            hit = outcome.tricks[s] == 0
        else:
            hit = outcome.deal_points[s] == 0
        if s == sheet.decl and rules.penalty_sticks_declarer_exempt:
            hit = False
        if doubled and hit:  # penalty.sticks_doubled: a golden or blind stick counts twice
            sheet.sticks[s] += 1
        sheet.sticks[s] = _counter(rules.penalty_sticks, sheet.sticks[s], hit)
        if sheet.sticks[s] >= rules.penalty_sticks_count:
            sheet.sticks[s] = 0
            sheet.change[s] -= rules.penalty_sticks_amount
            sheet.events.append(Event(s, "stick-penalty"))


def _no_win_streak(sheet: _Sheet) -> None:
    rules, outcome = sheet.rules, sheet.outcome
    if rules.penalty_no_win == "off":
        return
    assert outcome.deal_points is not None
    for s in range(sheet.n):
        if s == sheet.sitter:
            continue
        if s in (sheet.decl, sheet.partner):
            won = outcome.result == "made"
        else:
            won = outcome.deal_points[s] > 0
        sheet.no_wins[s] = _counter(rules.penalty_no_win, sheet.no_wins[s], not won)
        if sheet.no_wins[s] >= rules.penalty_no_win_count:
            sheet.no_wins[s] = 0
            sheet.change[s] -= rules.penalty_no_win_amount
            sheet.events.append(Event(s, "no-win-penalty"))


def _zero_penalty(sheet: _Sheet) -> None:
    zero_from = sheet.rules.scoring_zero_penalty_from
    if zero_from is None:
        return
    assert sheet.outcome.deal_points is not None
    for s in range(sheet.n):
        if s != sheet.sitter and sheet.before[s] >= zero_from and sheet.outcome.deal_points[s] == 0:
            sheet.change[s] -= sheet.rules.scoring_zero_penalty
            sheet.events.append(Event(s, "zero-penalty"))


def _off_the_barrel(sheet: _Sheet) -> None:
    """1.9 step 1: a unit off the barrel adds its change; it may stop in the pit
    (``barrel.pit``), stay below an exact target (``game.over_target``), or mount the barrel
    (or its mirror, ``barrel.reverse``)."""
    rules, outcome, totals = sheet.rules, sheet.outcome, sheet.totals
    sheet.unit_change = {u[0]: sum(sheet.change[s] for s in u) for u in sheet.units}
    sheet.was_on = tuple(sheet.on_barrel)
    sheet.was_mirror = tuple(sheet.was_on[s] and sheet.before[s] < 0 for s in range(sheet.n))
    target, threshold, pit = sheet.target, sheet.threshold, rules.barrel_pit
    for s in sheet.heads:
        if sheet.was_on[s]:
            continue
        t = sheet.before[s] + sheet.unit_change[s]
        if pit is not None:
            # barrel.pit: crossing it from below stops there, until the seat makes a contract
            # or loses points
            if sheet.in_pit[s]:
                made = sheet.decl_unit == s and outcome.result == "made"
                if made or sheet.unit_change[s] < 0:
                    sheet.in_pit[s] = False
                else:
                    t = pit
            elif sheet.before[s] < pit <= t:
                t = pit
                sheet.in_pit[s] = True
                sheet.events.append(Event(s, "pit"))
        if t > target and rules.game_over_target == "exact":
            t = target - 1
        if t < target and threshold is not None and t >= threshold:
            t = threshold
            _mount(sheet, s, "barrel-on")
        elif rules.barrel_reverse and threshold is not None and -target < t <= -threshold:
            t = -threshold  # barrel.reverse: the mirror barrel, held at minus the threshold
            _mount(sheet, s, "reverse-barrel-on")
        totals[s] = t


def _mount(sheet: _Sheet, s: int, event: EventName) -> None:
    sheet.on_barrel[s] = True
    sheet.left[s] = sheet.rules.barrel_deals
    sheet.mounted[s] = sheet.deal_no
    sheet.events.append(Event(s, event))


def _on_the_barrel(sheet: _Sheet) -> None:
    """1.9 step 2: a unit on the barrel reaches the target with a change of target minus
    threshold or more; otherwise it stays, uses one of its deals, and falls after the last (to
    0 at its third fall with ``barrel.three_falls_reset``; a failed contract above 120 with
    ``barrel.overshoot`` falls at once, to the threshold minus the contract)."""
    rules, outcome, totals = sheet.rules, sheet.outcome, sheet.totals
    threshold, target = sheet.threshold, sheet.target
    if threshold is None:
        return
    for s in sheet.heads:
        if not sheet.was_on[s]:
            continue
        change = sheet.unit_change[s]
        if sheet.was_mirror[s]:
            _mirror_step(rules, s, change, target, threshold, totals, sheet.on_barrel, sheet.left)
            if not sheet.on_barrel[s] and totals[s] > -target:
                sheet.events.append(Event(s, "reverse-barrel-fall"))
            continue
        if change >= target - threshold:
            totals[s] = target
            sheet.on_barrel[s] = False
            continue
        totals[s] = threshold
        overshoot = (
            rules.barrel_overshoot
            and sheet.decl_unit == s
            and outcome.result == "failed"
            and (outcome.contract or 0) > 120
        )
        if not (overshoot or rules.barrel_deals):
            continue
        sheet.left[s] -= 1
        if not (overshoot or sheet.left[s] <= 0):
            continue
        sheet.on_barrel[s] = False
        sheet.falls[s] += 1
        sheet.events.append(Event(s, "barrel-fall"))
        if rules.barrel_three_falls_reset and sheet.falls[s] >= 3:
            totals[s] = 0
            sheet.falls[s] = 0
            sheet.events.append(Event(s, "three-falls-reset"))
        elif overshoot:
            totals[s] = threshold - (outcome.contract or 0)
        else:
            totals[s] = threshold - rules.barrel_fall


def _dump_truck(sheet: _Sheet) -> None:
    """1.9 step 3: a unit whose total changed and lands on the dump truck's number (or its
    negative, ``game.dump_truck`` both) drops to 0 and leaves the barrel."""
    dump_truck = sheet.rules.game_dump_truck
    if dump_truck == "off":
        return
    at = sheet.rules.game_dump_truck_at
    hits = (at, -at) if dump_truck == "both" else (at,)
    for s in sheet.heads:
        if sheet.totals[s] != sheet.before[s] and sheet.totals[s] in hits:
            sheet.totals[s] = 0
            sheet.on_barrel[s] = False
            sheet.events.append(Event(s, "dump-truck"))


def _collision(sheet: _Sheet) -> None:
    """1.9 step 4: of several units on the barrel one stays (``barrel.collision``: the last or
    first mounted, the declarer among equals, else the lowest seat; or none, or all coexist);
    the others drop to the threshold minus ``barrel.fall``. Units on the mirror coexist."""
    rules, threshold = sheet.rules, sheet.threshold
    riders = [s for s in sheet.heads if sheet.on_barrel[s] and sheet.totals[s] > 0]
    if len(riders) < 2 or threshold is None or rules.barrel_collision == "coexist":
        return
    keep: int | None = None
    if rules.barrel_collision != "all-fall":
        sign = 1 if rules.barrel_collision == "last-mounted" else -1
        keep = min(riders, key=lambda s: (-sign * sheet.mounted[s], s != sheet.decl_unit, s))
    for s in riders:
        if s != keep:
            sheet.on_barrel[s] = False
            sheet.totals[s] = threshold - rules.barrel_fall
            sheet.events.append(Event(s, "barrel-knocked-off"))


def _winner(sheet: _Sheet) -> None:
    """1.9 step 5: of the units at the target the highest total wins (a tie to the declarer with
    ``game.tiebreak`` declarer, else the lowest seat); with ``game.tiebreak`` continue, several
    at the target raise it by 500 and play on; on the mirror, minus the target loses."""
    rules, totals, heads = sheet.rules, sheet.totals, sheet.heads
    reached = [s for s in heads if totals[s] >= sheet.target]
    if len(reached) > 1 and rules.game_tiebreak == "continue":
        sheet.raised += 500
        sheet.events.append(Event(min(reached), "target-raised"))
        reached = []
    lost = [s for s in heads if rules.barrel_reverse and totals[s] <= -sheet.target]
    for s in lost:  # barrel.reverse: minus the target loses, and the match ends
        sheet.events.append(Event(s, "lose"))
    if lost and not reached:
        reached = heads  # the highest total wins
    if not reached:
        return
    best = max(totals[s] for s in reached)
    top = [s for s in reached if totals[s] == best]
    if rules.game_tiebreak == "declarer" and sheet.decl_unit in top:
        sheet.winner = sheet.decl_unit
    else:
        sheet.winner = min(top)
    sheet.events.append(Event(sheet.winner, "win"))


def _golden_deals(sheet: _Sheet) -> None:
    """``golden.deals`` and ``golden.if_all_fail``: when every golden deal failed, they are
    played again (replay) or every total goes back to 0 (reset); a win ends the match at once,
    and nothing follows it."""
    outcome, rules = sheet.outcome, sheet.rules
    if not outcome.golden:
        return
    sheet.golden_played += 1
    sheet.golden_failed += outcome.result in ("failed", "written-off", "conceded")
    all_failed = sheet.golden_played == rules.golden_deals == sheet.golden_failed
    if not all_failed or sheet.winner is not None:
        return
    if rules.golden_if_all_fail == "replay":
        sheet.golden_played = sheet.golden_failed = 0
    elif rules.golden_if_all_fail == "reset":
        sheet.totals = [0] * sheet.n
        sheet.on_barrel = [False] * sheet.n
        sheet.events.append(Event(0, "golden-reset"))


def _mirror_step(
    rules: Rules,
    s: int,
    change: int,
    target: int,
    threshold: int,
    totals: list[int],
    on_barrel: list[bool],
    left: list[int],
) -> None:
    """1.9 step 2 on the mirror barrel (``barrel.reverse``): a loss of target − threshold or
    more takes the seat to minus the target; otherwise its total stays at minus the threshold
    and one of its deals is used up; after the last it drops to ``barrel.reverse_fallback``."""
    if change <= threshold - target:
        totals[s] = -target
        on_barrel[s] = False
        return
    totals[s] = -threshold
    if rules.barrel_deals:
        left[s] -= 1
        if left[s] <= 0:
            on_barrel[s] = False
            totals[s] = rules.barrel_reverse_fallback


def _units(rules: Rules) -> list[tuple[int, ...]]:
    """The seats that share a running total: sides 0+2 and 1+3 with partnerships across."""
    if rules.players_partnerships == "across":
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(rules.players_count)]
