"""Where one bot's lead over another comes from: the arena's records taken apart by role.

A script that prints figures, never a test:

    python benchmarks/arena_roles.py DIR [DIR ...] [--json FILE]

Each DIR is a folder that ``thousand arena --bots A,B --records DIR`` wrote (or a folder of
such folders, as one run a seed leaves). Every seat that bot A held is paired with the same
seat of the other seating of the same deal-set in which bot B holds it (the same cards, the
other seats' bots swapped too), and each pair is filed under the roles the two seats played in
the deal: declared, by the result (made, failed, written-off), whether the declarer chose its
contract (``bid``: it made a bid where it could have passed) or was forced to it (``forced``,
as the arena counts it: the forced dealer's 100, say), and whether it named a contract above
its bid (``raised``); or defended (or, where the template has them, partnered the declarer or
sat out the deal). Defending pairs are split by whose bot declared (the declarer's seat holds
the other bot in the other seating). For each class it prints how many pairs, the mean
difference of the seat's lead (its deal score, as the arena counts points, less the mean deal
score of the other seats: A's less B's) and that class's part of the mean over all pairs, so
that the parts add up to the mean; first for four groups only (each seat declared or not),
then class by class (``--top`` of them; ``--json`` keeps them all, with each mean's 95%
interval). Two bots; any template, though a lead means most where every seat plays for
itself.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

from thousand.bots.arena import mean_ci
from thousand.cli.arena import record_files
from thousand.engine.actions import PASS, is_bid
from thousand.engine.state import DealState
from thousand.records.model import read_record_file
from thousand.records.replay import replay


@dataclass(frozen=True, slots=True)
class Row:
    """One class of seat pairs: bot A's role, bot B's, how many ``pairs``, the ``mean`` lead
    difference (A's less B's) and the class's ``part`` of the mean over all pairs."""

    a: str
    b: str
    pairs: int
    mean: float
    part: float
    #: the mean's 95% interval (None for a single pair)
    ci95: tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class Figures:
    """The pairs' classes (``classes``), and the same pairs in four groups only (``groups``:
    each seat declared or not)."""

    bots: tuple[str, str]
    pairs: int
    mean_lead_difference: float
    classes: list[Row]
    groups: list[Row]


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """One seat in one deal of a record: the ``role`` it played, its ``lead`` and, for a
    defender or the declarer's partner, the bot of the declarer (``against``)."""

    role: str
    lead: float
    against: str
    declared: bool = False

    @property
    def name(self) -> str:
        return self.role + (f" vs {self.against}" if self.against else "")

    @property
    def group(self) -> str:
        return "declared" if self.declared else "did not declare"


def seat_deals(path: Path) -> list[list[SeatDeal]]:
    """Each deal of the record at ``path``, each seat's :class:`SeatDeal`."""
    result = replay(read_record_file(str(path)))
    players = list(result.record.players or ())
    chose: dict[int, set[int]] = defaultdict(set)  # the seats that bid where they could pass
    states: dict[int, DealState] = {}  # each deal, as it stood before its last move
    for step in result.steps():
        before = states.get(step.number)
        bid = step.action is not None and is_bid(step.action)
        if bid and step.seat is not None and before is not None and PASS in before.legal_actions():
            chose[step.number].add(step.seat)
        if step.game.deal is not None:
            states[step.number] = step.game.deal
    deals = []
    for number, report in enumerate(result.game.reports, start=1):
        outcome = report.outcome
        scores = outcome.scores
        n = len(scores)
        seats = []
        for seat in range(n):
            lead = scores[seat] - sum(scores[t] for t in range(n) if t != seat) / (n - 1)
            declarer = outcome.declarer
            if declarer is None:
                seats.append(SeatDeal(f"{outcome.result}, nobody declared", lead, ""))
            elif declarer == seat:
                how = "bid" if seat in chose[number] else "forced"
                raised = (outcome.contract or 0) > (outcome.bid or 0)
                role = f"{outcome.result}, {how}" + (", raised" if raised else "")
                seats.append(SeatDeal(role, lead, "", declared=True))
            elif seat == outcome.sitter:
                seats.append(SeatDeal("sat out", lead, ""))
            elif seat == states[number].core().partner(declarer):
                seats.append(SeatDeal(f"partner {outcome.result}", lead, players[declarer]))
            else:
                seats.append(SeatDeal("defended", lead, players[declarer]))
        deals.append(seats)
    return deals


def seating_of(path: Path) -> tuple[str, tuple[int, ...]]:
    """The deal-set's key (its folder and number) and the seating, from the arena's file
    name ``deal-set-NNNN-seating-A-B-C.json``."""
    stem = path.stem
    head, _, seating = stem.partition("-seating-")
    return f"{path.parent}/{head}", tuple(int(x) for x in seating.split("-"))


def roles(paths: list[str]) -> Figures:
    files = record_files(paths)
    if not files:
        raise SystemExit("no arena records found (thousand arena --records DIR)")
    sets: dict[str, dict[tuple[int, ...], Path]] = defaultdict(dict)
    for f in files:
        key, seating = seating_of(f)
        sets[key][seating] = f
    bots: tuple[str, str] | None = None
    classes: dict[tuple[str, str], list[float]] = defaultdict(list)
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for seatings in sets.values():
        played = {seating: seat_deals(f) for seating, f in seatings.items()}
        for seating, deals in played.items():
            if max(seating) > 1:
                raise SystemExit("two bots only")
            other = tuple(1 - b for b in seating)
            if other not in played:
                continue
            if not bots:
                names = read_record_file(str(seatings[seating])).players or ()
                by_index = dict(zip(seating, names, strict=True))
                bots = (by_index.get(0, "A"), by_index.get(1, "B"))
            for mine, theirs in zip(deals, played[other], strict=True):
                for seat, b in enumerate(seating):
                    if b:
                        continue
                    a_seat, b_seat = mine[seat], theirs[seat]
                    difference = a_seat.lead - b_seat.lead
                    classes[(a_seat.name, b_seat.name)].append(difference)
                    groups[(a_seat.group, b_seat.group)].append(difference)
    total = sum(len(v) for v in classes.values())
    if not total or bots is None:
        raise SystemExit("no deal-set with both seatings of a seat")
    mean = sum(sum(v) for v in classes.values()) / total
    return Figures(bots, total, round(mean, 3), _rows(classes, total), _rows(groups, total))


def _rows(classes: dict[tuple[str, str], list[float]], total: int) -> list[Row]:
    """The classes as rows, the weightiest first."""
    rows = []
    for (a, b), v in classes.items():
        m, lo, hi = mean_ci(v)
        ci = None if math.isnan(lo) else (round(lo, 2), round(hi, 2))
        rows.append(Row(a, b, len(v), round(m, 2), round(sum(v) / total, 3), ci))
    rows.sort(key=lambda r: -abs(r.part))
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("paths", nargs="+", help="folders of thousand arena --records")
    parser.add_argument("--json", help="write the figures here as JSON")
    parser.add_argument("--top", type=int, default=30, help="print the classes of most weight")
    args = parser.parse_args(argv)
    figures = roles(args.paths)
    a, b = figures.bots
    print(f"{figures.pairs} seat pairs; mean lead difference {a} - {b}: ", end="")
    print(f"{figures.mean_lead_difference:+.2f}")
    for title, rows in (("groups", figures.groups), ("classes", figures.classes[: args.top])):
        print(f"\n{title}:")
        print(f"{a + ' seat':42} {b + ' seat':42} {'pairs':>6} {'mean':>8} {'part':>7}")
        for r in rows:
            print(f"{r.a:42} {r.b:42} {r.pairs:6} {r.mean:+8.1f} {r.part:+7.2f}")
    if args.json:
        text = json.dumps(asdict(figures), indent=1)
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
