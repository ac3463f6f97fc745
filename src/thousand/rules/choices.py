"""The values a choice parameter of rules.md part 2 takes, one ``Literal`` type each: the
:class:`~thousand.rules.Rules` attribute has that type, and :mod:`thousand.rules.params` takes
its choices from it (``typing.get_args``), so each list of values is written once and the type
checker refuses a comparison with a value the parameter does not have."""

from __future__ import annotations

from typing import Literal

PlayersPartnerships = Literal["none", "across"]
"""``players.partnerships``"""

PlayersLayout = Literal["standard", "draw-stock", "fixed-deal", "no-talon", "dealer-sits-out"]
"""``players.layout``"""

RedealDuty = Literal["off", "optional", "mandatory"]
"""``redeal.four_nines``, ``redeal.three_nines``, ``redeal.four_jacks``"""

RedealWeakHand = Literal["off", "strict", "loose", "counted"]
"""``redeal.weak_hand``"""

TalonRedeal = Literal["off", "any", "minimum-only"]
"""``redeal.bad_talon``, ``redeal.two_nines_in_talon``"""

RedealAllPass = Literal["redeal", "pass-on", "raspasy"]
"""``redeal.all_pass``"""

BiddingMarriageCap = Literal["off", "needs-marriage", "plus-marriages"]
"""``bidding.marriage_cap``"""

BiddingForced = Literal["none", "forehand", "dealer", "last-seat"]
"""``bidding.forced``"""

BiddingBlind = Literal["off", "first-bid"]
"""``bidding.blind``"""

BiddingContra = Literal["off", "contra", "contra-recontra"]
"""``bidding.contra``"""

BiddingForcedConcession = Literal["off", "equal-split", "each-full"]
"""``bidding.forced_concession``"""

TalonDistribution = Literal["take-and-pass", "pass-without-taking", "keep-one", "choose-talon"]
"""``talon.distribution``"""

TalonShown = Literal["always", "not-on-minimum", "never"]
"""``talon.shown``"""

WriteoffOpponentsGet = Literal["half-bid", "equal-split", "fixed"]
"""``writeoff.opponents_get``"""

PlayDuty = Literal["off", "on", "highest"]
"""``play.must_beat``, ``play.must_trump``"""

PlaySlam = Literal["off", "fixed", "double"]
"""``play.slam``"""

MarriageTrumpFrom = Literal["next-trick", "this-trick"]
"""``marriage.trump_from``"""

MarriageAnnounce = Literal["on-lead", "from-hand"]
"""``marriage.announce``"""

MarriageAces = Literal["off", "on", "sets-trump"]
"""``marriage.aces``"""

ScoringDeclarerGains = Literal["contract", "max-of-contract-and-score", "score-plus-contract"]
"""``scoring.declarer_gains``"""

ScoringFailedContract = Literal["lost", "split-to-defenders", "each-defender"]
"""``scoring.failed_contract``"""

GoldenIfAllFail = Literal["continue", "replay", "reset"]
"""``golden.if_all_fail``"""

BarrelCollision = Literal["last-mounted", "first-mounted", "all-fall", "coexist"]
"""``barrel.collision``"""

GameOverTarget = Literal["win", "exact"]
"""``game.over_target``"""

GameTiebreak = Literal["declarer", "highest", "continue"]
"""``game.tiebreak``"""

GameDumpTruck = Literal["off", "positive", "both"]
"""``game.dump_truck``"""

Counted = Literal["off", "any", "in-a-row"]
"""``penalty.sticks``, ``penalty.no_win``"""

PenaltySticksOn = Literal["tricks", "points"]
"""``penalty.sticks_on``"""

PenaltySticksDoubled = Literal["off", "golden", "blind", "both"]
"""``penalty.sticks_doubled``"""

FourSitterScores = Literal[
    "nothing", "talon-points", "talon-points-and-marriage", "aces-50-and-marriage"
]
"""``four.sitter_scores``"""

ContractRaiseLimit = Literal["achievable"]
"""``contract.raise_limit`` when it is not a number"""
