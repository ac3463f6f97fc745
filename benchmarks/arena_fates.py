"""What the cards had settled by the first lead: each contract's fate with every card open,
against what the play made of it; and what a give or a contract chosen knowing every card would
have changed.

A script that prints figures, never a test:

    python benchmarks/arena_fates.py DIR [DIR ...] [--workers 2] [--json FILE]

Each DIR is a folder that ``thousand arena --records DIR`` wrote (or a folder of such folders,
as one run a seed leaves). Every deal that reached its first lead is asked of the exact
open-card solver (:func:`~thousand.bots.solver.can_make`), where the solver plays the layout
from there (:func:`~thousand.bots.pimc.pimc_layout`, no stock left to draw; a crawl is not
searched), and the counts are kept by the declarer's bot:

- ``played``, ``made``: the contracts played to the end, and those made;
- ``open_makes``: those the declarer's side makes from the first lead with every card open;
- ``lost``: made with every card open, failed in the deal (the declarer's side, seeing only its
  own cards, played worse than the open-card line); ``let_through``: the other way round (the
  defenders let a contract through that the cards did not hold);
- ``gives``, ``give_makes_bid``, ``any_give_makes_bid``: the deals whose declarer gave cards
  (the passing), those in which its gives leave the bid made with every card open, and those
  in which some gives would (every card to every seat, and the discards of fixed-deal): what
  a give chosen knowing every card would have brought;
- ``named``, ``stake_named``, ``stake_top``, ``below_top``, ``above_top``: the deals whose
  declarer named its contract after the gives, the stake of the contract it named with every
  card open (won where made, lost where not), summed, and that of the best contract it could
  have named knowing every card (the highest it makes, or its bid lost where it makes none),
  summed; and how often it named less than that, or more than it makes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

from thousand.bots.pimc import pimc_layout
from thousand.bots.solver import can_make
from thousand.cli.arena import record_files
from thousand.engine.actions import contract, is_contract
from thousand.engine.deal import Deal, Phase
from thousand.records.model import read_record_file
from thousand.records.replay import replay

#: the counts kept per declarer's bot, in the order printed
COUNTS = (
    "played",
    "made",
    "open_makes",
    "lost",
    "let_through",
    "gives",
    "give_makes_bid",
    "any_give_makes_bid",
    "named",
    "stake_named",
    "stake_top",
    "below_top",
    "above_top",
)
#: the phases in which the declarer gives or discards before its contract
BEFORE_CONTRACT = (Phase.PASSING, Phase.DISCARD)


def record_counts(path: Path) -> dict[str, Counter[str]]:
    """The counts of the record at ``path``, by the declarer's bot."""
    result = replay(read_record_file(str(path)))
    players = result.record.players or ()
    counts: dict[str, Counter[str]] = {}
    if not pimc_layout(result.game.rules):
        return counts
    firsts: dict[int, dict[Phase, Deal]] = {}  # each deal's first state in each phase
    for step in result.steps():
        if step.game.deal is not None:
            phase = step.game.deal.phase
            firsts.setdefault(step.number, {}).setdefault(phase, step.game.deal.core())
    for number, report in enumerate(result.game.reports, start=1):
        outcome = report.outcome
        first = firsts.get(number, {}).get(Phase.PLAY)
        declarer = outcome.declarer
        played = outcome.result in ("made", "failed")
        if declarer is None or first is None or first.stock or not played:
            continue
        c = counts.setdefault(players[declarer] if players else str(declarer), Counter())
        made = outcome.result == "made"
        opened = can_make(first, first.contract)
        c["played"] += 1
        c["made"] += made
        c["open_makes"] += opened
        c["lost"] += opened and not made
        c["let_through"] += made and not opened
        before = firsts[number]
        giving = next((before[p] for p in BEFORE_CONTRACT if p in before), None)
        bid = outcome.bid if outcome.bid is not None else first.contract
        if giving is not None:
            c["gives"] += 1
            c["give_makes_bid"] += can_make(first, bid)
            c["any_give_makes_bid"] += _any_makes(giving, bid)
        named = before.get(Phase.CONTRACT)
        if named is not None and _named_last(named):
            top = _top(named)
            c["named"] += 1
            c["stake_named"] += first.contract if opened else -first.contract
            c["stake_top"] += top if top is not None else -bid
            c["below_top"] += top is not None and first.contract < top
            c["above_top"] += top is not None and not opened
    return counts


def _any_makes(e: Deal, amount: int) -> bool:
    """Whether some gives and discards from ``e`` (the declarer's, up to its contract or first
    lead) leave ``amount`` made with every card open, the contract named at the lowest."""
    if e.phase in BEFORE_CONTRACT:
        for a in e.legal_actions():
            f = e.copy()
            f.apply(a)
            if _any_makes(f, amount):
                return True
        return False
    if e.phase is Phase.CONTRACT:
        e = e.copy()
        e.apply(min(a for a in e.legal_actions() if is_contract(a)))
    return e.phase is Phase.PLAY and not e.stock and can_make(e, amount)


def _named_last(e: Deal) -> bool:
    """Whether the contract named at ``e`` is the declarer's last choice before the play (not
    a contract named before the talon)."""
    f = e.copy()
    f.apply(min(a for a in f.legal_actions() if is_contract(a)))
    return f.phase is Phase.PLAY


def _top(e: Deal) -> int | None:
    """The highest contract the declarer of ``e`` (at its contract) may name and makes with
    every card open; None where it makes none."""
    amounts = sorted((a - contract(0) for a in e.legal_actions() if is_contract(a)), reverse=True)
    for amount in amounts:
        f = e.copy()
        f.apply(contract(amount))
        if f.phase is Phase.PLAY and can_make(f, amount):
            return amount
    return None


def fates(paths: list[str], workers: int) -> dict[str, dict[str, int]]:
    files = record_files(paths)
    if not files:
        raise SystemExit("no arena records found (thousand arena --records DIR)")
    totals: dict[str, Counter[str]] = {}
    with Pool(workers) as pool:
        for counts in pool.imap_unordered(record_counts, files, chunksize=8):
            for bot, c in counts.items():
                totals.setdefault(bot, Counter()).update(c)
    return {bot: {k: c[k] for k in COUNTS} for bot, c in sorted(totals.items())}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("paths", nargs="+", help="folders of thousand arena --records")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", help="write the figures here as JSON")
    args = parser.parse_args(argv)
    figures = fates(args.paths, args.workers)
    for bot, c in figures.items():
        played, named = c["played"], c["named"]
        print(f"{bot} declared: {played} contracts played, {c['made']} made")
        if not played:
            continue
        print(
            f"  with every card open at the first lead: {c['open_makes']} made; "
            f"{c['lost']} lost in the play, {c['let_through']} let through by the defence"
        )
        if c["gives"]:
            print(
                f"  gives: {c['gives']}; the bid made after its gives {c['give_makes_bid']}, "
                f"after the best gives {c['any_give_makes_bid']}"
            )
        if named:
            print(
                f"  contracts named: {named}; stake a contract, with every card open: "
                f"{c['stake_named'] / named:+.1f} as named, {c['stake_top'] / named:+.1f} "
                f"at the best; {c['below_top']} below the best, {c['above_top']} above what "
                f"it makes"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
