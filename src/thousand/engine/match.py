"""A match: running totals across deals (rules.md 1.8 and 1.9), as values.

:func:`settle` takes the match before a deal and the deal's :class:`DealOutcome` and returns the
match after it with a :class:`DealReport`: the changes, the totals and the events, in exactly
the order of the steps of 1.8 and 1.9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
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


def _counter(mode: str, count: int, hit: bool) -> int:
    if mode == "any":
        return count + 1 if hit else count
    return count + 1 if hit else 0


def settle(match: MatchState, outcome: DealOutcome) -> tuple[MatchState, DealReport]:
    """Apply a finished deal to the match (1.8, then 1.9 steps 1 to 5)."""
    rules = match.rules
    n = rules.players_count
    before = match.totals
    if outcome.result in ("redealt", "passed-on"):
        dealer = match.dealer if outcome.result == "redealt" else (match.dealer + 1) % n
        if any(outcome.scores):
            # talon.buyback: the cost off the seat's total (its side's, with partnerships), and
            # nothing else (part 2, Combinations settled)
            paid = list(before)
            for unit in _units(rules):
                cost = sum(outcome.scores[s] for s in unit)
                for s in unit:
                    paid[s] += cost
            report = DealReport(outcome, outcome.scores, tuple(paid), ())
            return replace(match, totals=tuple(paid), dealer=dealer, deals=match.deals + 1), report
        report = DealReport(outcome, (0,) * n, before, ())
        return replace(match, dealer=dealer, deals=match.deals + 1), report

    decl = outcome.declarer
    sitter = outcome.sitter
    change = list(outcome.scores)
    events: list[Event] = []
    limit = rules.scoring_only_bids_above
    if limit is not None:
        # a defender above the limit gains nothing; a sitting dealer's talon score is no
        # defender's gain and still counts (part 2, scoring.only_bids_above)
        for s in range(n):
            if s != decl and s != sitter and before[s] > limit:
                change[s] = 0
    if sitter is not None and match.on_barrel[sitter] and outcome.deal_points is not None:
        # four.sitter_scores: nothing while on the barrel; its deal score is 0 then
        change[sitter] = 0
        points = list(outcome.deal_points)
        points[sitter] = 0
        outcome = replace(outcome, deal_points=tuple(points))
    if outcome.extras:
        for s in range(n):
            if outcome.extras[s]:
                change[s] += outcome.extras[s]
                events.append(Event(s, "four-nines"))
    partner = -1 if decl is None or rules.players_partnerships != "across" else (decl + 2) % 4

    sticks = list(match.sticks)
    no_wins = list(match.no_wins)
    writeoffs = list(match.writeoffs)
    crosses = list(match.crosses) if match.crosses else [0] * n
    if rules.penalty_cross and outcome.result == "failed" and decl is not None:
        # a failed declarer loses nothing at once, whatever multiplied the contract (contra,
        # blind, golden): its deal's loss is undone; its second cross costs
        # penalty.cross_amount, a penalty that nothing multiplies (part 2, Combinations settled)
        change[decl] -= outcome.scores[decl]
        crosses[decl] += 1
        if crosses[decl] >= 2:
            crosses[decl] = 0
            change[decl] -= rules.penalty_cross_amount
            events.append(Event(decl, "cross-penalty"))
    if outcome.played:
        assert outcome.tricks is not None and outcome.deal_points is not None
        if rules.penalty_sticks != "off":
            for s in range(n):
                if s == sitter:
                    continue
                if rules.penalty_sticks_on == "tricks":
                    hit = outcome.tricks[s] == 0
                else:
                    hit = outcome.deal_points[s] == 0
                if s == decl and rules.penalty_sticks_declarer_exempt:
                    hit = False
                twice = rules.penalty_sticks_doubled
                doubled = (twice in ("golden", "both") and outcome.golden) or (
                    twice in ("blind", "both") and outcome.blind
                )
                if doubled and hit:  # penalty.sticks_doubled: a golden or blind stick counts twice
                    sticks[s] += 1
                sticks[s] = _counter(rules.penalty_sticks, sticks[s], hit)
                if sticks[s] >= rules.penalty_sticks_count:
                    sticks[s] = 0
                    change[s] -= rules.penalty_sticks_amount
                    events.append(Event(s, "stick-penalty"))
        if rules.penalty_no_win != "off":
            for s in range(n):
                if s == sitter:
                    continue
                if s in (decl, partner):
                    won = outcome.result == "made"
                else:
                    won = outcome.deal_points[s] > 0
                no_wins[s] = _counter(rules.penalty_no_win, no_wins[s], not won)
                if no_wins[s] >= rules.penalty_no_win_count:
                    no_wins[s] = 0
                    change[s] -= rules.penalty_no_win_amount
                    events.append(Event(s, "no-win-penalty"))
        zero_from = rules.scoring_zero_penalty_from
        if zero_from is not None:
            for s in range(n):
                if s != sitter and before[s] >= zero_from and outcome.deal_points[s] == 0:
                    change[s] -= rules.scoring_zero_penalty
                    events.append(Event(s, "zero-penalty"))
    elif outcome.result == "written-off" and decl is not None:
        every = rules.writeoff_penalty_every
        if every:
            writeoffs[decl] += 1
            if writeoffs[decl] >= every:
                writeoffs[decl] = 0
                change[decl] -= rules.writeoff_penalty
                events.append(Event(decl, "write-off-penalty"))

    # 1.9 runs over units: a seat, or a side of two partners sharing one total (part 2,
    # partnerships). A unit's state is kept on each of its seats; ``u`` is its lower seat.
    units = _units(rules)
    unit_change = {u[0]: sum(change[s] for s in u) for u in units}
    heads = [u[0] for u in units]
    totals = list(before)
    on_barrel = list(match.on_barrel)
    left = list(match.barrel_left)
    mounted = list(match.mounted)
    falls = list(match.falls)
    deal_no = match.deals + 1
    target = rules.game_target + match.raised
    threshold = None if rules.barrel_threshold is None else rules.barrel_threshold + match.raised
    raised = match.raised
    decl_unit = None if decl is None else min(decl, partner) if partner >= 0 else decl

    # 1.9 step 1: off the barrel
    was_on = tuple(on_barrel)
    # a seat on the mirror barrel (barrel.reverse) is on the barrel with a negative total
    reverse = rules.barrel_reverse
    was_mirror = tuple(was_on[s] and before[s] < 0 for s in range(n))
    pit = rules.barrel_pit
    in_pit = list(match.in_pit) if match.in_pit else [False] * n
    for s in heads:
        if was_on[s]:
            continue
        t = before[s] + unit_change[s]
        if pit is not None:
            # barrel.pit: crossing it from below stops there, until the seat makes a contract
            # or loses points
            if in_pit[s]:
                made = decl_unit == s and outcome.result == "made"
                if made or unit_change[s] < 0:
                    in_pit[s] = False
                else:
                    t = pit
            elif before[s] < pit <= t:
                t = pit
                in_pit[s] = True
                events.append(Event(s, "pit"))
        if t > target and rules.game_over_target == "exact":
            t = target - 1
        if t < target and threshold is not None and t >= threshold:
            t = threshold
            on_barrel[s] = True
            left[s] = rules.barrel_deals
            mounted[s] = deal_no
            events.append(Event(s, "barrel-on"))
        elif reverse and threshold is not None and -target < t <= -threshold:
            # barrel.reverse: the mirror barrel, held at minus the threshold
            t = -threshold
            on_barrel[s] = True
            left[s] = rules.barrel_deals
            mounted[s] = deal_no
            events.append(Event(s, "reverse-barrel-on"))
        totals[s] = t
    # 1.9 step 2: on the barrel
    if threshold is not None:
        for s in heads:
            if not was_on[s]:
                continue
            if was_mirror[s]:
                _mirror_step(rules, s, unit_change[s], target, threshold, totals, on_barrel, left)
                if not on_barrel[s] and totals[s] > -target:
                    events.append(Event(s, "reverse-barrel-fall"))
                continue
            if unit_change[s] >= target - threshold:
                totals[s] = target
                on_barrel[s] = False
                continue
            totals[s] = threshold
            overshoot = (
                rules.barrel_overshoot
                and decl_unit == s
                and outcome.result == "failed"
                and (outcome.contract or 0) > 120
            )
            if overshoot or rules.barrel_deals:
                left[s] -= 1
                if overshoot or left[s] <= 0:
                    on_barrel[s] = False
                    falls[s] += 1
                    events.append(Event(s, "barrel-fall"))
                    if rules.barrel_three_falls_reset and falls[s] >= 3:
                        totals[s] = 0
                        falls[s] = 0
                        events.append(Event(s, "three-falls-reset"))
                    elif overshoot:
                        # barrel.overshoot: a failed contract above 120 drops the declarer to
                        # the threshold minus the contract
                        totals[s] = threshold - (outcome.contract or 0)
                    else:
                        totals[s] = threshold - rules.barrel_fall
    # 1.9 step 3: the dump truck
    dump_truck = rules.game_dump_truck
    if dump_truck != "off":
        at = rules.game_dump_truck_at
        hits = (at, -at) if dump_truck == "both" else (at,)
        for s in heads:
            if totals[s] != before[s] and totals[s] in hits:
                totals[s] = 0
                on_barrel[s] = False
                events.append(Event(s, "dump-truck"))
    # 1.9 step 4: collision
    riders = [s for s in heads if on_barrel[s] and totals[s] > 0]  # the mirror's coexist
    if len(riders) > 1 and threshold is not None and rules.barrel_collision != "coexist":
        keep: int | None = None
        if rules.barrel_collision != "all-fall":
            sign = 1 if rules.barrel_collision == "last-mounted" else -1
            keep = min(riders, key=lambda s: (-sign * mounted[s], s != decl_unit, s))
        for s in riders:
            if s != keep:
                on_barrel[s] = False
                totals[s] = threshold - rules.barrel_fall
                events.append(Event(s, "barrel-knocked-off"))
    # 1.9 step 5: the winner
    winner = None
    reached = [s for s in heads if totals[s] >= target]
    if len(reached) > 1 and rules.game_tiebreak == "continue":
        # several at the target: it (and the barrel) go up by 500 and the match goes on
        raised += 500
        events.append(Event(min(reached), "target-raised"))
        reached = []
    lost = [s for s in heads if reverse and totals[s] <= -target]
    for s in lost:  # barrel.reverse: minus the target loses, and the match ends
        events.append(Event(s, "lose"))
    if lost and not reached:
        reached = heads  # the highest total wins
    if reached:
        best = max(totals[s] for s in reached)
        top = [s for s in reached if totals[s] == best]
        if rules.game_tiebreak == "declarer" and decl_unit in top:
            winner = decl_unit
        else:
            winner = min(top)
        events.append(Event(winner, "win"))

    golden_played, golden_failed = match.golden_played, match.golden_failed
    if outcome.golden:
        golden_played += 1
        golden_failed += outcome.result in ("failed", "written-off", "conceded")
        # golden.if_all_fail: a win ends the match at once, and nothing follows it
        if (
            golden_played == rules.golden_deals
            and golden_failed == golden_played
            and winner is None
        ):
            mode = rules.golden_if_all_fail
            if mode == "replay":  # the golden deals are played again
                golden_played = golden_failed = 0
            elif mode == "reset":  # every total back to 0
                totals = [0] * n
                on_barrel = [False] * n
                events.append(Event(0, "golden-reset"))

    # A unit's partners share its state; its change beyond their own contributions (mounting,
    # freezing, falls, the dump truck, ...) is charged to its lower seat.
    changes = list(change)
    for u in units:
        head = u[0]
        diff = totals[head] - before[head] - unit_change[head]
        changes[head] += diff
        for s in u[1:]:
            totals[s] = totals[head]
            on_barrel[s] = on_barrel[head]
            left[s] = left[head]
            mounted[s] = mounted[head]
            falls[s] = falls[head]
            in_pit[s] = in_pit[head]

    new = MatchState(
        rules=rules,
        totals=tuple(totals),
        dealer=(match.dealer + 1) % n,
        deals=deal_no,
        sticks=tuple(sticks),
        no_wins=tuple(no_wins),
        writeoffs=tuple(writeoffs),
        on_barrel=tuple(on_barrel),
        barrel_left=tuple(left),
        mounted=tuple(mounted),
        falls=tuple(falls),
        winner=winner,
        crosses=tuple(crosses),
        raised=raised,
        golden_played=golden_played,
        golden_failed=golden_failed,
        in_pit=tuple(in_pit),
    )
    return new, DealReport(outcome, tuple(changes), tuple(totals), tuple(events))


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
