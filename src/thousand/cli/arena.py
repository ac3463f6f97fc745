"""``thousand arena``: bots against each other on duplicate deals, with confidence intervals."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from ..bots.arena import ArenaConfig, OnGame, run_arena
from ..bots.ismcts_bot import plays, require_openspiel, simulations_of
from ..bots.levels import ALIASES, LEVELS, VARIANTS, node_budget_of
from ..bots.plot import arena_png
from ..bots.runners import ClusterError, import_ray, parse_address
from ..engine import Game
from ..records import record_of_game, write_record
from ..rules.custom import overrides_from_json
from .selfplay import OptionError, load_rules


class Progress:
    """A progress bar on standard error: ``[#####.....] 50/100 deal-sets, 12 s left``."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        spent = time.monotonic() - self.start
        left = spent / done * (total - done) if done else 0.0
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} sets, {left:.0f} s left ")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def parse_bots(text: str) -> tuple[str, ...]:
    """The bots of ``--bots``: levels or bot names, comma-separated, at least two."""
    names = tuple(part.strip() for part in text.split(","))
    known = (*LEVELS, *ALIASES, *VARIANTS)
    for name in names:
        if simulations_of(name) is not None:
            require_openspiel()  # OpenSpielMissing (a ValueError) where it is not installed
        elif name not in known and node_budget_of(name) is None:
            raise ValueError(
                f"--bots: unknown bot {name!r}: the bots are"
                f" {', '.join(known)}, expert-nodes-N (the expert's solver stopped at N"
                " nodes a decision) and ismcts-N (OpenSpiel's ISMCTS, N simulations a move)"
            )
    if len(names) < 2:
        raise ValueError("--bots: name at least two bots, comma-separated")
    if len(set(names)) != len(names):
        raise ValueError("--bots: each bot may be named once")
    return names


def report_lines(result: dict[str, Any]) -> list[str]:
    """The result in words, one line each."""
    lines = []
    config = result["config"]
    lines.append(
        f"{config['template']}, {config['deal_sets']} duplicate deal-sets"
        f" ({len(config['seatings'])} seatings each), seed {config['seed']}"
    )
    for b in result["bots"]:
        lo, hi = b["points_per_deal_ci95"]
        rate = b["make_rate"]
        line = (
            f"{b['bot']:>8}: {_f(b['points_per_deal'])} points per deal"
            f" (95% CI {_f(lo)} to {_f(hi)}); declared {b['declared']},"
            f" made {b['made']}, failed {b['failed']}, wrote off {b['written_off']}"
            f" (make-rate {'-' if rate is None else f'{100 * rate:.1f}%'},"
            f" {_pct(b['bid_make_rate'])} of the contracts it chose to bid);"
            f" passed {_pct(b['pass_rate'])} of its auction turns, {_pct(b['forced_share'])}"
            f" of its contracts forced, mean contract {_f(b['mean_contract'])};"
            f" {_f(b['ms_per_decision'], 2)} ms per decision"
        )
        if "match_win_rate" in b:
            wlo, whi = b["match_win_rate_ci95"]
            line += (
                f"; match win rate {_pct(b['match_win_rate'])} (95% CI {_pct(wlo)} to {_pct(whi)})"
            )
        lines.append(line)
    diff = result.get("paired_difference")
    if diff:
        lo, hi = diff["ci95"]
        line = (
            f"paired difference {diff['of']}: {_f(diff['points_per_deal'])} points per deal"
            f" (95% CI {_f(lo)} to {_f(hi)})"
        )
        if "match_win_rate" in diff:
            wlo, whi = diff["match_win_rate_ci95"]
            line += (
                f"; match win rate {_pct(diff['match_win_rate'])}"
                f" (95% CI {_pct(wlo)} to {_pct(whi)})"
            )
        lines.append(line)
    return lines


def _f(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def record_name(kind: str, index: int, seating: tuple[int, ...]) -> str:
    """The file name of the record of ``kind`` (``deal-set`` or ``match-set``) number ``index``
    (from 0, as in the result's ``per_deal_set``) played in ``seating`` (the bot index of each
    seat, as in the result's ``seatings``): ``deal-set-0003-seating-0-1-1.json``."""
    return f"{kind}-{index:04d}-seating-{'-'.join(str(b) for b in seating)}.json"


def record_writer(folder: Path, config: ArenaConfig) -> OnGame:
    """Writes each game the arena plays into ``folder`` as a ``thousand/1`` record, its players
    named after the bots in their seats."""

    def write(kind: str, index: int, seating: tuple[int, ...], game: Game) -> None:
        record = record_of_game(game, config.template)
        named = replace(record, players=tuple(config.bots[b] for b in seating))
        (folder / record_name(kind, index, seating)).write_text(
            write_record(named), encoding="utf-8"
        )

    return write


def record_files(paths: list[str]) -> list[Path]:
    """The arena's records (named as :func:`record_name` names them) in each of ``paths``: a
    folder, searched with its subfolders, or a record file; in order."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files += sorted(path.rglob("*seating-*.json")) if path.is_dir() else [path]
    return files


def run(
    bots: str,
    deals: int,
    matches: int,
    template: str,
    seed: int,
    workers: int | None,
    out: str | None,
    plot: str | None,
    rules_json: str | None,
    quiet: bool = False,
    records: str | None = None,
    cluster: str | None = None,
) -> int:
    try:
        names = parse_bots(bots)
        if deals < 0 or matches < 0 or deals + matches == 0:
            raise ValueError("--deals and --matches: play at least one deal-set or match-set")
        if cluster is not None:
            if workers is not None:
                raise ValueError("--workers and --cluster: name one (a cluster has its own CPUs)")
            parse_address(cluster)
            import_ray()
        rules = load_rules(template, rules_json)
        if not plays(rules) and any(simulations_of(name) is not None for name in names):
            raise ValueError(
                f"--bots: the ismcts bots play only the templates whose worlds are drawn at"
                f" every moment (russian, russian-classic, ukrainian, tysiac, estonian,"
                f" four-player, four-player-b), not {template}"
            )
        overrides = overrides_from_json(rules_json) if rules_json else {}
        if records is not None:
            _make_folder(records)
    except (ValueError, OptionError) as error:
        print(f"arena: {error}", file=sys.stderr)
        return 2
    config = ArenaConfig(
        bots=names,
        template=template,
        deals=deals,
        matches=matches,
        seed=seed,
        rules=tuple(sorted(overrides.items())),
    )
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    progress = None if quiet else Progress(sys.stderr)
    on_game = None if records is None else record_writer(Path(records), config)
    try:
        result = run_arena(config, count, progress, on_game, cluster)
    except ClusterError as error:
        print(f"arena: {error}", file=sys.stderr)
        return 1
    for line in report_lines(result):
        print(line)
    if out:
        Path(out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if plot:
        Path(plot).write_bytes(arena_png(result))
    return 0


def _make_folder(path: str) -> None:
    """Make the folder of ``--records`` (and its parents); ValueError, in one sentence, where it
    cannot be."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"--records: cannot make the folder {path}: {e.strerror}") from None
