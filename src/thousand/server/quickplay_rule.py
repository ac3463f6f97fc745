"""Quick play's matching: which waiting players sit down together, and with how many bots.

A pure function of the queue as it stands (:func:`tables_to_form`); :mod:`.quickplay` runs it
inside the transaction that claims the players it picks.

The rule. Each waiting player accepts opponents whose shown rating is within an allowance
that widens the longer the player waits: ``GAP_FIRST`` points at once, ``GAP_GROWTH`` more
each second. The players of one template are sorted by rating, and a table is formed from
``seats`` neighbours in that order whose spread (the highest rating less the lowest) every one
of them accepts; where several such runs of neighbours exist, the one of the smallest spread is
formed first. Then, for each player whose chosen wait is over (the longest waiting first), a
table is formed with the players there are: that player and the nearest in rating that it and
they accept, as many as the seats allow, and bots (medium) in the other seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: the rating points a player accepts between the players at its table at once, and the points
#: more for each second it waits
GAP_FIRST = 100.0
GAP_GROWTH = 10.0


@dataclass(frozen=True, slots=True)
class Waiter:
    """A ticket waiting in the queue, as matching sees it."""

    ticket: str
    rating: int
    #: when it joined (seconds since the epoch), and the most seconds it waits for people
    joined: float
    wait: float

    def allowance(self, now: float) -> float:
        """The rating spread this player accepts at its table after waiting until ``now``."""
        return GAP_FIRST + GAP_GROWTH * max(0.0, now - self.joined)

    def out_of_patience(self, now: float) -> bool:
        """Whether its wait is over: its table is formed now, bots filling the seats."""
        return now - self.joined >= self.wait


@dataclass(frozen=True, slots=True)
class Forming:
    """A table to form: the people to seat (in seat order) and how many bots join them."""

    people: tuple[Waiter, ...]
    bots: int


def _spread(group: Sequence[Waiter]) -> int:
    return max(w.rating for w in group) - min(w.rating for w in group)


def _accepted(group: Sequence[Waiter], now: float) -> bool:
    """Whether every player of ``group`` accepts its spread."""
    return _spread(group) <= min(w.allowance(now) for w in group)


def tables_to_form(waiting: Sequence[Waiter], seats: int, now: float) -> list[Forming]:
    """The tables to form now from the players ``waiting`` for one template of ``seats``
    seats, by the rule above; each player in one table at most. A table's people sit in the
    order they joined."""
    pool = sorted(waiting, key=lambda w: (w.rating, w.joined, w.ticket))
    formed: list[Forming] = []
    while len(pool) >= seats:
        best: tuple[int, int] | None = None  # (spread, first index)
        for i in range(len(pool) - seats + 1):
            window = pool[i : i + seats]
            if _accepted(window, now) and (best is None or _spread(window) < best[0]):
                best = (_spread(window), i)
        if best is None:
            break
        group = pool[best[1] : best[1] + seats]
        del pool[best[1] : best[1] + seats]
        formed.append(Forming(_in_joining_order(group), 0))
    for w in sorted(pool, key=lambda x: (x.joined, x.ticket)):
        if w not in pool or not w.out_of_patience(now):
            continue
        group = [w]
        nearest = sorted(
            (x for x in pool if x is not w),
            key=lambda x: (abs(x.rating - w.rating), x.joined, x.ticket),
        )
        for x in nearest:
            if len(group) == seats:
                break
            if _accepted([*group, x], now):
                group.append(x)
        for x in group:
            pool.remove(x)
        formed.append(Forming(_in_joining_order(group), seats - len(group)))
    return formed


def _in_joining_order(group: Sequence[Waiter]) -> tuple[Waiter, ...]:
    return tuple(sorted(group, key=lambda w: (w.joined, w.ticket)))
