"""Ratings: how strong each signed-in player (and each bot level) is, per family of templates.

A rating is an OpenSkill (Weng-Lin) Plackett-Luce estimate, a mean ``mu`` and an uncertainty
``sigma``. OpenSkill rates a match of any number of sides by their places, partnerships as
teams, which a two-player system (Elo, Glicko-2) can only approximate by pairing every seat
with every other. What is shown is the conservative estimate ``mu - 3 sigma`` on a scale where a
newcomer stands at 1000: ``1000 + 40 (mu - 3 sigma)``.

A family groups the templates whose skills carry over: the same number of seats and the same
sides (two players; three; four each for themselves; four in partnerships). A custom table
falls in its family by the same two facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce

from ..engine import Game
from ..rules import Rules

#: the OpenSkill model every rating is made with (its defaults: mu 25, sigma 25/3)
MODEL = PlackettLuce()
#: the shown rating of a newcomer, and the points per unit of ``mu - 3 sigma``
SHOWN_BASE = 1000
SHOWN_SCALE = 40
#: results in which the declarer played (or gave up) a contract: what the make-rate counts
DECLARED = frozenset({"made", "failed", "written-off", "conceded", "bought-back"})


class Family(StrEnum):
    """The templates whose ratings are one: by seats and sides."""

    TWO = "two-player"
    THREE = "three-player"
    FOUR = "four-player"
    PARTNERSHIPS = "partnerships"


def family_of(rules: Rules) -> Family:
    if rules.players_partnerships == "across":
        return Family.PARTNERSHIPS
    return {2: Family.TWO, 3: Family.THREE, 4: Family.FOUR}[rules.players_count]


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> int:
        """The rating as players see it: 1000 for a newcomer, more as it is proven."""
        return round(SHOWN_BASE + SHOWN_SCALE * (self.mu - 3 * self.sigma))


def participant_of_bot(level: str) -> str:
    """The rating's owner for a bot of ``level``: one rating per level and family."""
    return f"bot:{level}"


def participant_of_account(account: str) -> str:
    return f"account:{account}"


def rated(
    places: Sequence[int], sides: Sequence[Sequence[int]], before: Sequence[Rating]
) -> list[Rating]:
    """Each seat's rating after a match it finished at ``places[seat]`` (1 the best), the
    seats playing as ``sides`` (partners one team), from ``before[seat]``."""
    teams = [[MODEL.create_rating([before[s].mu, before[s].sigma]) for s in side] for side in sides]
    ranks = [float(places[side[0]]) for side in sides]
    after = MODEL.rate(teams, ranks=ranks)
    out = list(before)
    for side, team in zip(sides, after, strict=True):
        for s, r in zip(side, team, strict=True):
            out[s] = Rating(r.mu, r.sigma)
    return out


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one seat did in a finished match, for its player's profile."""

    place: int
    won: bool
    #: the deals it declared (played or gave up a contract), and those it made
    declared: int
    made: int


def seat_stats(game: Game) -> list[SeatStats]:
    """Each seat's place and declarer's record in a match that is over (from the engine's
    reports and places)."""
    places = game.match.places()
    stats = []
    for seat, place in enumerate(places):
        mine = [r.outcome for r in game.reports if r.outcome.declarer == seat]
        declared = [o for o in mine if o.result in DECLARED]
        stats.append(
            SeatStats(
                place=place,
                won=place == 1,
                declared=len(declared),
                made=sum(1 for o in declared if o.result == "made"),
            )
        )
    return stats
