"""The :class:`Rules` value: one attribute per rule parameter, validated as a whole.

The engine reads the attributes directly (plain slots, so cheap in hot loops); records and the
template builder go through the flat dotted names of rules.md part 2 (:meth:`Rules.with_overrides`,
:meth:`Rules.to_json`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from thousand.rules import playable
from thousand.rules.choices import (
    BarrelCollision,
    BiddingBlind,
    BiddingContra,
    BiddingForced,
    BiddingForcedConcession,
    BiddingMarriageCap,
    ContractRaiseLimit,
    Counted,
    FourSitterScores,
    GameDumpTruck,
    GameOverTarget,
    GameTiebreak,
    GoldenIfAllFail,
    MarriageAces,
    MarriageAnnounce,
    MarriageTrumpFrom,
    PenaltySticksDoubled,
    PenaltySticksOn,
    PlayDuty,
    PlayersLayout,
    PlayersPartnerships,
    PlaySlam,
    RedealAllPass,
    RedealDuty,
    RedealWeakHand,
    ScoringDeclarerGains,
    ScoringFailedContract,
    TalonDistribution,
    TalonRedeal,
    TalonShown,
    WriteoffOpponentsGet,
)
from thousand.rules.params import PARAM_BY_NAME, PARAMS, Value, show


class RulesError(ValueError):
    """Rules that cannot be played: every problem found, one sentence each."""

    def __init__(self, problems: str | Iterable[str]) -> None:
        self.problems: list[str] = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True, slots=True)
class Rules:
    """The value of every rule parameter; the defaults are the ``russian`` template.

    Attribute names are the dotted names with ``_`` for ``.`` (``bidding.max`` is
    ``bidding_max``). ``None`` stands for the spec's ``none``; ``marriage_values`` is in suit order
    clubs, diamonds, hearts, spades. Constructing a ``Rules`` checks nothing: call
    :meth:`validate`, or build it with :meth:`with_overrides`.
    """

    # players and layout
    players_count: int = 3
    players_partnerships: PlayersPartnerships = "none"
    players_layout: PlayersLayout = "standard"
    # deal and redeal
    deal_hand_size: int = 7
    deal_talon_size: int = 3
    deal_bottom_card_guard: bool = True
    deal_first_card_shown: bool = False
    redeal_four_nines: RedealDuty = "off"
    redeal_three_nines: RedealDuty = "off"
    redeal_four_jacks: RedealDuty = "off"
    redeal_weak_hand: RedealWeakHand = "off"
    redeal_weak_hand_below: int = 14
    redeal_bad_talon: TalonRedeal = "off"
    redeal_bad_talon_below: int = 4
    redeal_two_nines_in_talon: TalonRedeal = "off"
    redeal_all_pass: RedealAllPass = "redeal"
    # bidding
    bidding_min: int = 100
    bidding_max: int = 120
    bidding_marriage_cap: BiddingMarriageCap = "off"
    bidding_step: int = 5
    bidding_big_step: int = 10
    bidding_big_step_from: int = 200
    bidding_forced: BiddingForced = "dealer"
    bidding_reentry: bool = False
    bidding_blind: BiddingBlind = "off"
    bidding_blind_multiplier: int = 2
    bidding_silence_below: int | None = None
    bidding_contra: BiddingContra = "off"
    bidding_contra_multiplier: int = 2
    bidding_forced_concession: BiddingForcedConcession = "off"
    # talon and contract
    talon_distribution: TalonDistribution = "take-and-pass"
    talon_shown: TalonShown = "always"
    talon_open_pass: bool = False
    talon_rebuy: bool = False
    talon_rebuy_contract: int = 240
    talon_buyback: bool = False
    talon_buyback_cost: int = 50
    contract_raise: bool = True
    contract_raise_limit: int | ContractRaiseLimit = "achievable"
    contract_before_talon: bool = False
    # write-off
    writeoff_allowed: bool = True
    writeoff_opponents_get: WriteoffOpponentsGet = "half-bid"
    writeoff_fixed: int = 60
    writeoff_penalty_every: int = 3
    writeoff_penalty: int = 120
    # play
    play_must_beat: PlayDuty = "on"
    play_must_trump: PlayDuty = "on"
    play_must_overtrump: bool = True
    play_partial_trumping: bool = False
    play_defender_overtrumps_declarer: bool = False
    play_lead_trump_after_marriage: bool = False
    play_crawl: bool = False
    play_last_trick_bonus: int = 0
    play_slam: PlaySlam = "off"
    play_slam_bonus: int = 60
    # marriages
    marriage_values: tuple[int, int, int, int] = (60, 80, 100, 40)
    marriage_trick_required: bool = True
    marriage_min_hand: int = 0
    marriage_trump_from: MarriageTrumpFrom = "next-trick"
    marriage_announce: MarriageAnnounce = "on-lead"
    marriage_one_trump: bool = False
    marriage_aces: MarriageAces = "off"
    marriage_aces_value: int = 200
    marriage_half_bonus: int = 0
    marriage_four_nines_bonus: int = 0
    # scoring
    scoring_round_to: int = 5
    scoring_round_before_check: bool = True
    scoring_declarer_gains: ScoringDeclarerGains = "contract"
    scoring_failed_contract: ScoringFailedContract = "lost"
    scoring_pooled_defenders: bool = False
    scoring_only_bids_above: int | None = None
    scoring_zero_penalty_from: int | None = None
    scoring_zero_penalty: int = 100
    golden_deals: int = 0
    golden_marriages_doubled: bool = False
    golden_contract_doubled: bool = False
    golden_if_all_fail: GoldenIfAllFail = "continue"
    # barrel and end of the match
    barrel_threshold: int | None = 880
    barrel_deals: int = 3
    barrel_fall: int = 120
    barrel_collision: BarrelCollision = "last-mounted"
    barrel_three_falls_reset: bool = True
    barrel_overshoot: bool = False
    barrel_pit: int | None = None
    barrel_reverse: bool = False
    barrel_reverse_fallback: int = -760
    game_target: int = 1000
    game_over_target: GameOverTarget = "win"
    game_tiebreak: GameTiebreak = "declarer"
    game_dump_truck: GameDumpTruck = "both"
    game_dump_truck_at: int = 555
    # penalties
    penalty_sticks: Counted = "any"
    penalty_sticks_count: int = 3
    penalty_sticks_amount: int = 120
    penalty_sticks_on: PenaltySticksOn = "tricks"
    penalty_sticks_declarer_exempt: bool = False
    penalty_sticks_doubled: PenaltySticksDoubled = "off"
    penalty_no_win: Counted = "any"
    penalty_no_win_count: int = 3
    penalty_no_win_amount: int = 120
    penalty_cross: bool = False
    penalty_cross_amount: int = 120
    # named contracts
    special_misere: int | None = None
    special_slam: int | None = None
    special_open_hand: int | None = None
    # four players
    four_sitter_scores: FourSitterScores = "nothing"

    def value(self, name: str) -> Value:
        """A parameter's value by its dotted name (``marriage.values`` as a tuple)."""
        param = PARAM_BY_NAME.get(name)
        if param is None:
            raise RulesError(f"unknown parameter {name!r} in rules")
        value: Value = getattr(self, param.field)
        return value

    def problems(self, *, supported_only: bool = True) -> list[str]:
        """Every problem with these rules, one sentence each: values, combinations and, unless
        ``supported_only`` is false, values that the engine does not play yet."""
        found, bad = self._value_problems()
        found += _combination_problems(self, bad)
        if supported_only:
            found += [problem for _, problem in self.support_problems()]
        return found

    def _value_problems(self) -> tuple[list[str], set[str]]:
        found: list[str] = []
        bad: set[str] = set()
        for param in PARAMS:
            problems = param.problems(getattr(self, param.field))
            if problems:
                found += problems
                bad.add(param.name)
        return found, bad

    def support_problems(self) -> list[tuple[str, str]]:
        """``(name, sentence)`` for each valid value that the engine does not play yet."""
        found: list[tuple[str, str]] = []
        for param in PARAMS:
            value = getattr(self, param.field)
            if param.problems(value) or param.is_supported(value):
                continue
            shown = show(param.to_json(value))
            found.append(
                (
                    param.name,
                    f"rules {param.name} = {shown} is not supported yet"
                    f" (supported: {param.supported_text})",
                )
            )
        return found

    def unsupported(self) -> tuple[str, ...]:
        """The dotted names of the parameters whose values the engine does not play yet."""
        return tuple(name for name, _ in self.support_problems())

    def validate(self, *, supported_only: bool = True) -> None:
        """Raise :class:`RulesError` listing every problem, if there is any."""
        found = self.problems(supported_only=supported_only)
        if found:
            raise RulesError(found)

    def with_overrides(
        self, overrides: Mapping[str, object], *, supported_only: bool = True
    ) -> Rules:
        """These rules with a record's ``rules`` object applied, validated as a whole."""
        rules, found = apply_overrides(self, overrides)
        found += rules.problems(supported_only=supported_only)
        if found:
            raise RulesError(found)
        return rules

    def to_json(self) -> dict[str, object]:
        """Every parameter by dotted name, in the order of rules.md part 2, JSON-typed."""
        return {p.name: p.to_json(getattr(self, p.field)) for p in PARAMS}

    def overrides_from(self, base: Rules) -> dict[str, object]:
        """The parameters that differ from ``base``, as a record's ``rules`` object."""
        found: dict[str, object] = {}
        for param in PARAMS:
            mine, theirs = getattr(self, param.field), getattr(base, param.field)
            if type(mine) is not type(theirs) or mine != theirs:
                found[param.name] = param.to_json(mine)
        return found


def apply_overrides(rules: Rules, overrides: Mapping[str, object]) -> tuple[Rules, list[str]]:
    """``rules`` with the overrides that name a parameter applied, unchecked, and the problems
    with the overrides themselves (unknown names, a malformed ``marriage.values``)."""
    if not isinstance(overrides, Mapping):
        return rules, [f"rules = {show(overrides)} is not an object of parameter names"]
    changes: dict[str, Any] = {}
    found: list[str] = []
    for name, raw in overrides.items():
        param = PARAM_BY_NAME.get(name) if isinstance(name, str) else None
        if param is None:
            found.append(f"unknown parameter {name!r} in rules")
            continue
        value, problems = param.from_json(raw)
        if problems:
            found += problems
        else:
            changes[param.field] = value
    return dataclasses.replace(rules, **changes), found


MAX_CONTRACT = 999
"""The largest amount a bid or ``contract`` move can name (the engine's actions hold no more)."""


def _combination_problems(rules: Rules, bad: set[str]) -> list[str]:
    """Values that are each valid but cannot go together (checked only where each is valid)."""

    def ok(*names: str) -> bool:
        return not bad.intersection(names)

    found: list[str] = []
    r = rules
    if ok("bidding.min", "bidding.max") and r.bidding_min > r.bidding_max:
        found.append(f"rules bidding.min = {r.bidding_min} is above bidding.max = {r.bidding_max}")
    if (
        ok("game.target", "barrel.threshold")
        and r.barrel_threshold is not None
        and r.game_target <= r.barrel_threshold
    ):
        found.append(
            f"rules game.target = {r.game_target} is at or below"
            f" barrel.threshold = {r.barrel_threshold}"
        )
    if (
        ok("players.partnerships", "players.count")
        and r.players_partnerships == "across"
        and r.players_count != 4
    ):
        found.append(
            "rules players.partnerships = 'across' needs four seats,"
            f" but players.count = {r.players_count}"
        )
    if (
        ok("bidding.forced", "players.layout")
        and r.bidding_forced == "dealer"
        and r.players_layout == "dealer-sits-out"
    ):
        found.append(
            "rules bidding.forced = 'dealer' cannot go with players.layout = 'dealer-sits-out':"
            " the dealer takes no part in the deal"
        )
    # The golden contract is game.target minus barrel.threshold (rules.md part 2, golden.deals).
    if ok("golden.deals", "barrel.threshold") and r.golden_deals > 0 and r.barrel_threshold is None:
        found.append(
            f"rules golden.deals = {r.golden_deals} needs a barrel.threshold (it is null):"
            " the golden contract is game.target minus barrel.threshold"
        )
    # The golden contract must be one that a ``contract`` move can name.
    if (
        ok("golden.deals", "game.target", "barrel.threshold")
        and r.golden_deals > 0
        and r.barrel_threshold is not None
        and r.game_target - r.barrel_threshold > MAX_CONTRACT
    ):
        found.append(
            f"rules golden.deals = {r.golden_deals} needs a golden contract of at most"
            f" {MAX_CONTRACT}, but game.target = {r.game_target} minus barrel.threshold ="
            f" {r.barrel_threshold} makes it {r.game_target - r.barrel_threshold}"
        )
    # The mirror barrel sits at minus barrel.threshold.
    if ok("barrel.reverse", "barrel.threshold") and r.barrel_reverse and r.barrel_threshold is None:
        found.append(
            "rules barrel.reverse = true needs a barrel.threshold (it is null):"
            " the mirror barrel sits at minus barrel.threshold"
        )
    # A pit is a stop on the way up to the barrel (its range, 100..879, ends just below 880).
    if (
        ok("barrel.pit", "barrel.threshold")
        and r.barrel_pit is not None
        and r.barrel_threshold is not None
        and r.barrel_pit >= r.barrel_threshold
    ):
        found.append(
            f"rules barrel.pit = {r.barrel_pit} is at or above"
            f" barrel.threshold = {r.barrel_threshold}"
        )
    # contract.before_talon fixes the final contract before the talon "and may not raise after".
    if (
        ok("contract.before_talon", "contract.raise")
        and r.contract_before_talon
        and r.contract_raise
    ):
        found.append(
            "rules contract.before_talon = true fixes the contract before the talon,"
            " so contract.raise must be false (it is true)"
        )
    if not bad.intersection(playable.NAMES):
        found += playable.deal_problems(r)
    found += _contradictions(r, bad)
    return found


def _contradictions(r: Rules, bad: set[str]) -> list[str]:
    """Two more combinations that cannot be played (refused by ``thousand rules check`` too)."""
    found: list[str] = []
    names = ("bidding.min", "bidding.step", "bidding.big_step", "bidding.big_step_from")
    if not bad.intersection(names):
        small = r.bidding_min < r.bidding_big_step_from
        step, step_name = (
            (r.bidding_step, "bidding.step") if small else (r.bidding_big_step, "bidding.big_step")
        )
        if r.bidding_min % step:
            found.append(
                f"rules bidding.min = {r.bidding_min} is not a multiple of {step_name} = {step}:"
                " nobody could bid the lowest bid"
            )
    layout = ("four.sitter_scores", "players.layout", "players.partnerships")
    sitter = r.players_layout == "dealer-sits-out" and r.players_partnerships == "none"
    if not bad.intersection(layout) and r.four_sitter_scores != "nothing" and not sitter:
        found.append(
            f"rules four.sitter_scores = {show(r.four_sitter_scores)} needs"
            " players.layout = 'dealer-sits-out' and players.partnerships = 'none'"
            f" (they are {show(r.players_layout)} and {show(r.players_partnerships)}):"
            " only a dealer who sits out for itself scores the talon"
        )
    return found
