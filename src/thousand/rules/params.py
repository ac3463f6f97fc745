"""Every rule parameter of rules.md part 2, as data.

A :class:`Param` says what a parameter is called, which values it takes, its value in ``russian``,
what it means to a player, and which of its values the engine plays today (``supported``). Adding
support for a value later only edits this table.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Literal, get_args

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

Kind = Literal["bool", "int", "choice", "int-or-none", "int-or-choice", "suit-map"]
Value = bool | int | str | None | tuple[int, ...]

SUIT_KEYS = ("c", "d", "h", "s")
"""The suits of ``marriage.values``, in the order of the tuple on :class:`~thousand.rules.Rules`."""

SECTIONS = {
    "players": "players and layout",
    "deal": "deal and redeal",
    "redeal": "deal and redeal",
    "bidding": "bidding",
    "talon": "talon and contract",
    "contract": "talon and contract",
    "writeoff": "write-off",
    "play": "play",
    "marriage": "marriages",
    "scoring": "scoring",
    "golden": "scoring",
    "barrel": "barrel and end of the match",
    "game": "barrel and end of the match",
    "penalty": "penalties",
    "special": "named contracts",
    "four": "four players",
}
"""The heading of rules.md part 2 under which each name prefix stands."""


def show(value: object) -> str:
    """A value as a message shows it: JSON words for booleans and null, strings quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, int):
        return str(value)
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _word(value: Value) -> str:
    """A value as the spec's tables spell it (``none`` for null)."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return show(value)


def _ints_text(values: tuple[int, ...]) -> str:
    """``0, 2..5`` for (0, 2, 3, 4, 5): runs of four or more become a range."""
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 3:
            parts.append(f"{values[i]}..{values[j]}")
        else:
            parts.extend(str(v) for v in values[i : j + 1])
        i = j + 1
    return ", ".join(parts)


@dataclass(frozen=True)
class Param:
    """One rule parameter: its name, the values it takes, its default and what it means."""

    name: str
    section: str
    kind: Kind
    default: Value
    summary: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    allowed_ints: tuple[int, ...] | None = None
    supported: tuple[Value, ...] | None = None
    """The values the engine plays today; None = every valid value."""
    field: str = dataclasses.field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "field", self.name.replace(".", "_"))

    @property
    def numbers_text(self) -> str:
        """The numbers it takes: ``100..400`` or ``0, 2..5``."""
        if self.allowed_ints is not None:
            return _ints_text(self.allowed_ints)
        return f"{self.low}..{self.high}"

    @property
    def values_text(self) -> str:
        """The values it takes, in the words of the spec's tables."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return ", ".join(self.choices)
        if self.kind == "int":
            return self.numbers_text
        if self.kind == "int-or-none":
            return f"none or {self.numbers_text}"
        if self.kind == "int-or-choice":
            return f"{' or '.join(self.choices)} or {self.numbers_text}"
        return f"{', '.join(SUIT_KEYS)}, each {self.numbers_text}"

    @property
    def supported_text(self) -> str:
        """The values the engine plays today, in words."""
        if self.supported is None:
            return self.values_text
        return ", ".join(_word(v) for v in self.supported)

    def _in_range(self, value: int) -> bool:
        if self.allowed_ints is not None:
            return value in self.allowed_ints
        assert self.low is not None and self.high is not None
        return self.low <= value <= self.high

    def _number_problem(self, head: str, value: object, expected: str, text: str) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{head} is not {expected} ({text})"
        return None if self._in_range(value) else f"{head} is out of range ({text})"

    def problems(self, value: object) -> list[str]:
        """What is wrong with ``value`` for this parameter, one sentence each (empty if valid)."""
        head = f"rules {self.name} = {show(value)}"
        if self.kind == "bool":
            return [] if isinstance(value, bool) else [f"{head} is not true or false"]
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return []
            return [f"{head} is not one of {self.values_text}"]
        if self.kind == "int-or-choice" and isinstance(value, str):
            if value in self.choices:
                return []
            words = " or ".join(self.choices)
            return [f"{head} is not {words} or a whole number ({self.numbers_text})"]
        if self.kind == "int-or-none" and value is None:
            return []
        if self.kind == "suit-map":
            return self._suit_map_problems(value)
        expected = "null or a whole number" if self.kind == "int-or-none" else "a whole number"
        problem = self._number_problem(head, value, expected, self.values_text)
        return [] if problem is None else [problem]

    def _suit_map_problems(self, value: object) -> list[str]:
        if not isinstance(value, tuple) or len(value) != len(SUIT_KEYS):
            return [
                f"rules {self.name} = {show(value)} is not an object of the four suits"
                f" ({self.values_text})"
            ]
        found: list[str] = []
        for suit, number in zip(SUIT_KEYS, value, strict=True):
            head = f"rules {self.name} {suit} = {show(number)}"
            problem = self._number_problem(head, number, "a whole number", self.numbers_text)
            if problem is not None:
                found.append(problem)
        return found

    def is_supported(self, value: Value) -> bool:
        """Whether the engine plays this (valid) value today."""
        if self.supported is None:
            return True
        return any(type(v) is type(value) and v == value for v in self.supported)

    def from_json(self, raw: object) -> tuple[object, list[str]]:
        """A record's JSON value as the Python value of :class:`Rules`, and any shape problem.

        Only ``marriage.values`` changes shape (an object of suits becomes a tuple); every other
        value is returned as it is, for :meth:`problems` to judge.
        """
        if self.kind != "suit-map" or not isinstance(raw, dict):
            return raw, []
        keys = set(raw)
        if keys != set(SUIT_KEYS):
            missing = [s for s in SUIT_KEYS if s not in keys]
            extra = sorted(str(k) for k in keys - set(SUIT_KEYS))
            what = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(extra)}" if extra else "",
                )
                if part
            )
            problem = (
                f"rules {self.name} = {show(raw)} must name exactly the four suits"
                f" {', '.join(SUIT_KEYS)} ({what})"
            )
            return raw, [problem]
        return tuple(raw[s] for s in SUIT_KEYS), []

    def to_json(self, value: Value) -> object:
        """The JSON value of a record's ``rules`` object (``marriage.values`` as an object)."""
        if self.kind == "suit-map" and isinstance(value, tuple):
            return dict(zip(SUIT_KEYS, value, strict=True))
        return value


def _param(
    name: str,
    kind: Kind,
    default: Value,
    summary: str,
    *,
    choices: tuple[str, ...] = (),
    low: int | None = None,
    high: int | None = None,
    allowed_ints: tuple[int, ...] | None = None,
    supported: tuple[Value, ...] | None = None,
) -> Param:
    section = SECTIONS[name.split(".", 1)[0]]
    return Param(name, section, kind, default, summary, choices, low, high, allowed_ints, supported)


def _bool(
    name: str, default: bool, summary: str, supported: tuple[bool, ...] | None = None
) -> Param:
    return _param(name, "bool", default, summary, supported=supported)


def _int(
    name: str,
    low: int,
    high: int,
    default: int,
    summary: str,
    supported: tuple[int, ...] | None = None,
) -> Param:
    return _param(name, "int", default, summary, low=low, high=high, supported=supported)


def _ints(
    name: str,
    allowed: tuple[int, ...],
    default: int,
    summary: str,
    supported: tuple[int, ...] | None = None,
) -> Param:
    return _param(name, "int", default, summary, allowed_ints=allowed, supported=supported)


def _choice(
    name: str,
    choices: tuple[str, ...],
    default: str,
    summary: str,
    supported: tuple[str, ...] | None = None,
) -> Param:
    return _param(name, "choice", default, summary, choices=choices, supported=supported)


def _int_or_none(
    name: str,
    low: int,
    high: int,
    default: int | None,
    summary: str,
    supported: tuple[int | None, ...] | None = None,
) -> Param:
    return _param(name, "int-or-none", default, summary, low=low, high=high, supported=supported)


PARAMS: tuple[Param, ...] = (
    # players and layout
    _ints("players.count", (2, 3, 4), 3, "How many seats are at the table."),
    _choice(
        "players.partnerships",
        get_args(PlayersPartnerships),
        "none",
        "With four seats, partners sitting across (seats 0 and 2, 1 and 3) share one running"
        " total, and the declarer's partner's points and marriages count toward the contract.",
    ),
    _choice(
        "players.layout",
        get_args(PlayersLayout),
        "standard",
        "How the cards reach the hands: the standard deal, a draw stock, a fixed deal, no talon,"
        " or a dealer who sits out.",
    ),
    # deal and redeal
    _int("deal.hand_size", 6, 10, 7, "How many cards each active seat is dealt."),
    _ints("deal.talon_size", (0, 2, 3), 3, "How many cards are dealt face down to the talon."),
    _bool("deal.bottom_card_guard", True, "The shuffled deck never ends with a 9 or a jack."),
    _bool(
        "deal.first_card_shown",
        False,
        "The deck's first card is shown to everyone and goes to forehand.",
    ),
    _choice(
        "redeal.four_nines",
        get_args(RedealDuty),
        "off",
        "A seat dealt four 9s may (or must) have the same dealer deal again.",
    ),
    _choice(
        "redeal.three_nines",
        get_args(RedealDuty),
        "off",
        "A seat dealt exactly three 9s may (or must) have the same dealer deal again.",
    ),
    _choice(
        "redeal.four_jacks",
        get_args(RedealDuty),
        "off",
        "A seat dealt four jacks may (or must) have the same dealer deal again.",
    ),
    _choice(
        "redeal.weak_hand",
        get_args(RedealWeakHand),
        "off",
        "A seat with a weak dealt hand may ask for a redeal: strict = no marriage, no ace and"
        " nothing above a ten; loose = no marriage and no ace; counted = too few card points.",
    ),
    _int(
        "redeal.weak_hand_below",
        0,
        120,
        14,
        "A hand with fewer card points than this is weak, for the counted weak-hand redeal.",
    ),
    _choice(
        "redeal.bad_talon",
        get_args(TalonRedeal),
        "off",
        "The declarer may demand a redeal when the shown talon holds too few card points, at any"
        " contract or only at the minimum.",
    ),
    _int(
        "redeal.bad_talon_below",
        0,
        30,
        4,
        "A talon with fewer card points than this lets the declarer demand a redeal.",
    ),
    _choice(
        "redeal.two_nines_in_talon",
        get_args(TalonRedeal),
        "off",
        "The declarer may demand a redeal when the shown talon holds exactly two 9s, at any"
        " contract or only at the minimum.",
    ),
    _choice(
        "redeal.all_pass",
        get_args(RedealAllPass),
        "redeal",
        "When everybody passes without a bid and nobody is forced: the same dealer deals again,"
        " the deal passes unscored to the next dealer, or raspasy is played (eight tricks without"
        " trump, each seat losing its own card points).",
    ),
    # bidding
    _int("bidding.min", 10, 200, 100, "The lowest opening bid, and the contract of a forced bid."),
    _int("bidding.max", 100, 400, 120, "The highest bid anyone may make in the auction."),
    _choice(
        "bidding.marriage_cap",
        get_args(BiddingMarriageCap),
        "off",
        "Bidding above 120: free up to the highest bid, only with a marriage in your dealt hand,"
        " or at most 120 plus the marriages in your dealt hand.",
    ),
    _ints(
        "bidding.step",
        (5, 10),
        5,
        "Bids below the big-step point are multiples of this.",
    ),
    _ints(
        "bidding.big_step",
        (5, 10, 20),
        10,
        "Bids from the big-step point up are multiples of this.",
    ),
    _int(
        "bidding.big_step_from",
        100,
        400,
        200,
        "The bid from which bids go up by the big step.",
    ),
    _choice(
        "bidding.forced",
        get_args(BiddingForced),
        "dealer",
        "Who must bid: nobody, forehand on its first turn, the dealer at the minimum when the"
        " others pass without a bid, or the last seat when all the others pass without a bid.",
    ),
    _bool(
        "bidding.reentry",
        False,
        "A seat that passed may bid once more when its turn comes round again.",
    ),
    _choice(
        "bidding.blind",
        get_args(BiddingBlind),
        "off",
        "A seat may make its first bid blind, before seeing its hand, for a multiplied gain or"
        " loss and a talon the defenders do not see.",
    ),
    _int(
        "bidding.blind_multiplier",
        1,
        4,
        2,
        "A winning blind bid's contract counts this many times, won or lost.",
    ),
    _int_or_none(
        "bidding.silence_below",
        -1000,
        0,
        None,
        "A seat whose running total is below this may not bid unless it is forced.",
    ),
    _choice(
        "bidding.contra",
        get_args(BiddingContra),
        "off",
        "Once the contract is named, a defender may double it, and the declarer may redouble.",
    ),
    _int(
        "bidding.contra_multiplier",
        2,
        4,
        2,
        "Each contra and recontra multiplies the contract's gain or loss by this.",
    ),
    _choice(
        "bidding.forced_concession",
        get_args(BiddingForcedConcession),
        "off",
        "A seat forced to the minimum contract may concede before the talon is shown: it loses"
        " the contract, and the others share it or each gain all of it.",
    ),
    # talon and contract
    _choice(
        "talon.distribution",
        get_args(TalonDistribution),
        "take-and-pass",
        "What the declarer does with the talon: takes it and passes a card to each other seat,"
        " hands its cards out without taking it, keeps one card of it, or picks one of two.",
    ),
    _choice(
        "talon.shown",
        get_args(TalonShown),
        "always",
        "Whether the defenders see the talon: always, not when the contract is the minimum and"
        " nobody bid more, or never.",
    ),
    _bool(
        "talon.open_pass",
        False,
        "The cards the declarer passes are shown to everyone.",
    ),
    _bool(
        "talon.rebuy",
        False,
        "After the talon is shown, each other seat in turn may take the contract over at the"
        " rebuy contract.",
    ),
    _int(
        "talon.rebuy_contract",
        100,
        400,
        240,
        "The contract at which another seat may take the deal over.",
    ),
    _bool(
        "talon.buyback",
        False,
        "Before taking the talon, the declarer may throw in for a fixed cost, and the same dealer"
        " deals again.",
    ),
    _int(
        "talon.buyback_cost",
        0,
        240,
        50,
        "What the declarer loses by throwing in before taking the talon.",
    ),
    _bool("contract.raise", True, "The declarer may raise its contract after passing cards."),
    _param(
        "contract.raise_limit",
        "int-or-choice",
        "achievable",
        "The highest contract the declarer may name: 120 plus the marriages it holds"
        " (achievable), or a fixed number.",
        choices=get_args(ContractRaiseLimit),
        low=120,
        high=400,
    ),
    _bool(
        "contract.before_talon",
        False,
        "The declarer names its final contract before the talon is shown and may not raise it"
        " afterwards.",
    ),
    # write-off
    _bool(
        "writeoff.allowed",
        True,
        "The declarer may give up the deal after seeing the talon, losing its contract.",
    ),
    _choice(
        "writeoff.opponents_get",
        get_args(WriteoffOpponentsGet),
        "half-bid",
        "What each opponent gains from a write-off: half the contract, an equal share of it, or a"
        " fixed amount.",
    ),
    _int(
        "writeoff.fixed",
        0,
        240,
        60,
        "What each opponent gains from a write-off when that amount is fixed.",
    ),
    _ints(
        "writeoff.penalty_every",
        (0, 2, 3, 4, 5),
        3,
        "Every this many write-offs cost the declarer a further penalty (0 = never).",
    ),
    _int("writeoff.penalty", 0, 240, 120, "The further penalty for every so many write-offs."),
    # play
    _choice(
        "play.must_beat",
        get_args(PlayDuty),
        "on",
        "Following suit, you must beat the trick's winning card if you can (highest: with your"
        " highest card of the suit).",
    ),
    _choice(
        "play.must_trump",
        get_args(PlayDuty),
        "on",
        "Void in the suit led, you must play a trump if you hold one (highest: your highest"
        " trump).",
    ),
    _bool(
        "play.must_overtrump",
        True,
        "When you trump, you must beat a trump already in the trick if you can.",
    ),
    _bool(
        "play.partial_trumping",
        False,
        "If you cannot beat a trump already in the trick, you may discard instead of"
        " under-trumping.",
    ),
    _bool(
        "play.defender_overtrumps_declarer",
        False,
        "A defender void in the suit led must overtrump a trump the declarer played, if it can.",
    ),
    _bool(
        "play.lead_trump_after_marriage",
        False,
        "After declaring a marriage, your next lead must be a trump if you hold one.",
    ),
    _bool(
        "play.crawl",
        False,
        "A declarer without an ace may play the first trick face down (the Estonian crawl).",
    ),
    _int(
        "play.last_trick_bonus",
        0,
        100,
        0,
        "The winner of the last trick adds this to its deal score.",
    ),
    _choice(
        "play.slam",
        get_args(PlaySlam),
        "off",
        "A declarer who takes every trick gains a bonus, or double the contract.",
    ),
    _int("play.slam_bonus", 0, 240, 60, "The bonus for a declarer who takes every trick."),
    # marriages
    _param(
        "marriage.values",
        "suit-map",
        (60, 80, 100, 40),
        "What a marriage is worth in each suit.",
        low=0,
        high=400,
    ),
    _bool(
        "marriage.trick_required",
        True,
        "You must already have won a trick in the deal to declare a marriage.",
    ),
    _int(
        "marriage.min_hand",
        0,
        8,
        0,
        "You must hold at least this many cards when you lead a marriage.",
    ),
    _choice(
        "marriage.trump_from",
        get_args(MarriageTrumpFrom),
        "next-trick",
        "A marriage's suit becomes trump from the next trick, or already in the trick it leads.",
    ),
    _choice(
        "marriage.announce",
        get_args(MarriageAnnounce),
        "on-lead",
        "A marriage is declared by leading its king or queen, or announced from the hand before"
        " leading any card.",
    ),
    _bool(
        "marriage.one_trump",
        False,
        "Only the first marriage sets trump; later ones only score.",
    ),
    _choice(
        "marriage.aces",
        get_args(MarriageAces),
        "off",
        "Four aces in one hand may be declared like a marriage by leading an ace, and may set"
        " trump at once.",
    ),
    _int("marriage.aces_value", 0, 400, 200, "What the four-aces marriage is worth."),
    _int(
        "marriage.half_bonus",
        0,
        100,
        0,
        "Capturing the king and queen of a suit in tricks, neither declared, scores this.",
    ),
    _int(
        "marriage.four_nines_bonus",
        0,
        200,
        0,
        "A seat dealt four 9s gains this in the deal, apart from its deal score.",
    ),
    # scoring
    _ints(
        "scoring.round_to",
        (1, 5, 10),
        5,
        "Each seat's card points are rounded half up to this (1 = exact).",
    ),
    _bool(
        "scoring.round_before_check",
        True,
        "The declarer's contract is checked against its rounded deal score, not the raw points.",
    ),
    _choice(
        "scoring.declarer_gains",
        get_args(ScoringDeclarerGains),
        "contract",
        "What a made contract adds: the contract, the larger of the contract and the deal score,"
        " or the deal score plus the contract.",
    ),
    _choice(
        "scoring.failed_contract",
        get_args(ScoringFailedContract),
        "lost",
        "Where a failed contract's points go: lost, split among the defenders, or to each"
        " defender in full.",
    ),
    _bool(
        "scoring.pooled_defenders",
        False,
        "The defenders' deal scores are added up and shared equally.",
    ),
    _int_or_none(
        "scoring.only_bids_above",
        0,
        1000,
        None,
        "A seat whose total is above this gains points only from its own contracts.",
    ),
    _int_or_none(
        "scoring.zero_penalty_from",
        0,
        1000,
        None,
        "A seat at or above this total that scores nothing in a played deal pays a penalty.",
    ),
    _int(
        "scoring.zero_penalty",
        0,
        240,
        100,
        "What a seat at the zero-penalty total pays for a deal in which it scores nothing.",
    ),
    _int(
        "golden.deals",
        0,
        8,
        0,
        "The first this many deals are golden: no auction, and forehand plays a contract of the"
        " target minus the barrel.",
    ),
    _bool("golden.marriages_doubled", False, "Marriages count double in golden deals."),
    _bool(
        "golden.contract_doubled",
        False,
        "A golden deal's contract counts double, won or lost.",
    ),
    _choice(
        "golden.if_all_fail",
        get_args(GoldenIfAllFail),
        "continue",
        "When every golden deal was failed: carry on, play them again, or set every total back to"
        " 0 and carry on.",
    ),
    # barrel and end of the match
    _int_or_none(
        "barrel.threshold",
        500,
        990,
        880,
        "A seat reaching this total mounts the barrel (none = no barrel).",
    ),
    _int(
        "barrel.deals",
        0,
        5,
        3,
        "How many deals a seat has on the barrel (0 = until it wins or is knocked off).",
    ),
    _int(
        "barrel.fall",
        0,
        400,
        120,
        "How far below the barrel a seat falls when its deals there run out.",
    ),
    _choice(
        "barrel.collision",
        get_args(BarrelCollision),
        "last-mounted",
        "When several seats are on the barrel: the last to mount stays, the first stays, all are"
        " knocked off, or all stay.",
    ),
    _bool(
        "barrel.three_falls_reset",
        True,
        "A seat's third fall from the barrel sends its total back to 0.",
    ),
    _bool(
        "barrel.overshoot",
        False,
        "A declarer on the barrel who fails a contract above 120 falls to the barrel minus that"
        " contract.",
    ),
    _int_or_none(
        "barrel.pit",
        100,
        879,
        None,
        "A total crossing this from below stays there until the seat makes a contract or loses"
        " points.",
    ),
    _bool(
        "barrel.reverse",
        False,
        "A mirror barrel below zero: reaching minus the target loses the match.",
    ),
    _int(
        "barrel.reverse_fallback",
        -999,
        0,
        -760,
        "Where a seat that fails on the mirror barrel drops to.",
    ),
    _int("game.target", 100, 5000, 1000, "The total that wins the match."),
    _choice(
        "game.over_target",
        get_args(GameOverTarget),
        "win",
        "A total past the target wins, or is held just below the target (exact).",
    ),
    _choice(
        "game.tiebreak",
        get_args(GameTiebreak),
        "declarer",
        "When several seats reach the target: the declarer wins, the highest total wins, or the"
        " target goes up by 500 and play goes on.",
    ),
    _choice(
        "game.dump_truck",
        get_args(GameDumpTruck),
        "both",
        "A total landing exactly on the dump-truck number (or, with both, on minus it) drops to 0.",
    ),
    _int(
        "game.dump_truck_at",
        100,
        1000,
        555,
        "The number that sends a total landing on it back to 0.",
    ),
    # penalties
    _choice(
        "penalty.sticks",
        get_args(Counted),
        "any",
        "A seat that takes no trick gets a stick, and enough sticks cost a penalty: counted over"
        " the whole match, or only in a row.",
    ),
    _int("penalty.sticks_count", 2, 5, 3, "How many sticks cost the penalty."),
    _int("penalty.sticks_amount", 0, 240, 120, "What a seat loses for its sticks."),
    _choice(
        "penalty.sticks_on",
        get_args(PenaltySticksOn),
        "tricks",
        "A stick is a deal in which the seat took no trick, or one with a deal score of 0.",
    ),
    _bool("penalty.sticks_declarer_exempt", False, "The declarer never gets a stick."),
    _choice(
        "penalty.sticks_doubled",
        get_args(PenaltySticksDoubled),
        "off",
        "A stick counts twice in a golden deal, in a deal whose contract was bid blind, or both.",
    ),
    _choice(
        "penalty.no_win",
        get_args(Counted),
        "any",
        "A seat that does not win a deal gets a mark, and enough marks cost a penalty: counted"
        " over the whole match, or only in a row.",
    ),
    _int("penalty.no_win_count", 2, 5, 3, "How many deals without a win cost the penalty."),
    _int("penalty.no_win_amount", 0, 240, 120, "What a seat loses for its deals without a win."),
    _bool(
        "penalty.cross",
        False,
        "A failed declarer loses nothing at once but gets a cross, and its second cross costs a"
        " penalty.",
    ),
    _int("penalty.cross_amount", 0, 240, 120, "What the second cross costs."),
    # named contracts
    _int_or_none(
        "special.misere",
        1,
        240,
        None,
        "A misère bid, where the declarer must take no trick, is worth this (none = no misère).",
    ),
    _int_or_none(
        "special.slam",
        1,
        600,
        None,
        "A slam bid, where the declarer must take every trick, is worth this (none = no slam bid).",
    ),
    _int_or_none(
        "special.open_hand",
        1,
        400,
        None,
        "An open-hand bid, played with the declarer's hand shown, is worth this (none = no"
        " open-hand bid).",
    ),
    # four players
    _choice(
        "four.sitter_scores",
        get_args(FourSitterScores),
        "nothing",
        "What a dealer who sits out scores from the talon: nothing, its card points, those plus"
        " a marriage, or 50 per ace plus a marriage.",
    ),
)

PARAM_BY_NAME: dict[str, Param] = {p.name: p for p in PARAMS}
