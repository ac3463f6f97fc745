"""The arena: bots play duplicate deals (the same cards in every seating of the bots).

A *deal-set* is one shuffled deal played once in every seating: every way to put the bots in the
seats in which each bot has at least one seat (two bots in three seats: six seatings). Each bot's
*points per deal* in a deal-set is the mean deal change (rules.md 1.7, before the match's
penalties) of the seats it held; the difference between two bots is paired by deal-set, so luck
of the cards cancels. A *match-set* is the same with whole matches (the same seeded sequence of
deals in every seating). Everything is seeded: the same seed gives the same result, whatever the
number of worker processes, or on a Ray cluster (:mod:`.runners`).

:func:`run_arena` hands every game it played (a deal-set's seatings: one deal each; a
match-set's: whole matches) to its ``on_game`` callback, in the order of the sets, so that the
caller can keep them (``thousand arena --records`` writes each as a record).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..engine import Game
from ..engine.actions import PASS, is_bid
from ..engine.deal import Phase
from ..engine.dealing import deal_layout
from ..engine.game import DealLog
from ..engine.views import game_view
from ..rules import Rules, template_rules
from .base import Bot, derive_seed
from .levels import make_bot
from .runners import runner_for


def seatings(bots: int, seats: int) -> list[tuple[int, ...]]:
    """Every assignment of ``bots`` bots to ``seats`` seats that gives each bot a seat."""
    return [p for p in itertools.product(range(bots), repeat=seats) if len(set(p)) == bots]


@dataclass(frozen=True)
class ArenaConfig:
    """What an arena run plays; a value, so it can travel to worker processes."""

    bots: tuple[str, ...]
    template: str = "russian"
    deals: int = 100
    matches: int = 0
    seed: int = 0
    rules: tuple[tuple[str, object], ...] = ()
    max_match_deals: int = 200

    def make_rules(self) -> Rules:
        base = template_rules(self.template)
        return base.with_overrides(dict(self.rules)) if self.rules else base


@dataclass
class Played:
    """One deal as one seating played it."""

    seating: tuple[int, ...]
    scores: tuple[int, ...]
    declarer: int | None
    contract: int | None
    result: str
    #: per bot index: (decisions, seconds thinking)
    timing: dict[int, tuple[int, float]] = field(default_factory=dict)
    #: the declarer never bid of its own will (a forced dealer, or a bid it could not pass on)
    forced: bool = False
    #: per bot index: (auction turns on which it could pass, passes)
    auction: dict[int, tuple[int, int]] = field(default_factory=dict)


def _bots_for(config: ArenaConfig, seating: tuple[int, ...], *labels: object) -> list[Bot]:
    return [
        make_bot(config.bots[b], derive_seed(config.seed, *labels, seating, seat))
        for seat, b in enumerate(seating)
    ]


def play_out(
    game: Game,
    bots: Sequence[Bot],
    seating: tuple[int, ...],
    timing: dict[int, list[float]],
    chosen: set[int] | None = None,
    auction: dict[int, list[int]] | None = None,
) -> Game:
    """Play the deal out; ``chosen`` collects the seats that made a bid they could have passed
    on, ``auction`` counts each bot's auction turns on which it could pass, and its passes."""
    while game.in_deal:
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        view = game_view(game, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view)
        spent = time.perf_counter() - start
        if chosen is not None and is_bid(action) and PASS in view.legal_actions:
            chosen.add(seat)
        if auction is not None and view.phase is Phase.AUCTION and PASS in view.legal_actions:
            turns = auction.setdefault(seating[seat], [0, 0])
            turns[0] += 1
            turns[1] += action == PASS
        slot = timing.setdefault(seating[seat], [0.0, 0.0])
        slot[0] += 1
        slot[1] += spent
        game = game.apply(action, checked=False)
    return game


#: the games of one set, seating by seating (the bot index of each seat, and the game)
Games: TypeAlias = list[tuple[tuple[int, ...], Game]]
#: what :func:`run_arena` hands each game it played to: ``"deal-set"`` or ``"match-set"``,
#: the set's index (from 0), the seating, and the game
OnGame: TypeAlias = Callable[[str, int, tuple[int, ...], Game], None]


def play_deal_set(config: ArenaConfig, index: int, games: Games | None = None) -> list[Played]:
    """Deal-set ``index``: one deal, played once in every seating; each game played is
    appended to ``games`` when given."""
    rules = config.make_rules()
    n = rules.players_count
    rng = random.Random(derive_seed(config.seed, "deal", index))
    dealer = rng.randrange(n)
    dealt = deal_layout(rules, rng, dealer)
    out = []
    for seating in seatings(len(config.bots), n):
        bots = _bots_for(config, seating, "deal", index)
        game = Game.start(rules, dealer=dealer).new_deal(dealt)
        timing: dict[int, list[float]] = {}
        chosen: set[int] = set()
        auction: dict[int, list[int]] = {}
        game = play_out(game, bots, seating, timing, chosen, auction)
        if games is not None:
            games.append((seating, game))
        outcome = game.reports[-1].outcome
        out.append(
            Played(
                seating,
                outcome.scores,
                outcome.declarer,
                outcome.contract,
                outcome.result,
                {b: (int(t[0]), t[1]) for b, t in timing.items()},
                outcome.declarer is not None and outcome.declarer not in chosen,
                {b: (t[0], t[1]) for b, t in auction.items()},
            )
        )
    return out


def play_match_set(
    config: ArenaConfig, index: int, games: Games | None = None
) -> list[tuple[tuple[int, ...], int | None]]:
    """Match-set ``index``: one seeded sequence of deals, a whole match in every seating;
    (seating, winning seat or None when no winner within ``max_match_deals``) for each. Each
    match played is appended to ``games`` when given."""
    rules = config.make_rules()
    out: list[tuple[tuple[int, ...], int | None]] = []
    for seating in seatings(len(config.bots), rules.players_count):
        rng = random.Random(derive_seed(config.seed, "match", index))
        bots = _bots_for(config, seating, "match", index)
        game = Game.start(rules)
        timing: dict[int, list[float]] = {}
        for _ in range(config.max_match_deals):
            if game.over:
                break
            game = play_out(game.shuffle_and_deal(rng), bots, seating, timing)
        if games is not None:
            games.append((seating, game))
        out.append((seating, game.match.winner))
    return out


# -- statistics ---------------------------------------------------------------------------------


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% confidence interval (normal approximation)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, math.nan, math.nan)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return (m, m - half, m + half)


def points_per_deal(config: ArenaConfig, deal_set: list[Played]) -> list[float]:
    """Each bot's mean deal change over the seats it held in this deal-set."""
    sums = [0.0] * len(config.bots)
    counts = [0] * len(config.bots)
    for p in deal_set:
        for seat, b in enumerate(p.seating):
            sums[b] += p.scores[seat]
            counts[b] += 1
    return [s / c if c else math.nan for s, c in zip(sums, counts, strict=True)]


def summarize(
    config: ArenaConfig,
    deal_sets: list[list[Played]],
    match_sets: list[list[tuple[tuple[int, ...], int | None]]],
) -> dict[str, Any]:
    """The arena's result as a JSON-ready dict."""
    k = len(config.bots)
    per_bot: list[dict[str, Any]] = []
    points = [points_per_deal(config, ds) for ds in deal_sets]
    for b in range(k):
        made = failed = written = declared = 0
        bid_made = bid_played = 0
        forced = contracts = turns = passes = 0
        decisions = 0
        seconds = 0.0
        for ds in deal_sets:
            for p in ds:
                if p.declarer is not None and p.seating[p.declarer] == b:
                    declared += 1
                    forced += p.forced
                    contracts += p.contract or 0
                    made += p.result == "made"
                    failed += p.result == "failed"
                    written += p.result == "written-off"
                    if not p.forced and p.result in ("made", "failed"):
                        bid_played += 1
                        bid_made += p.result == "made"
                t, passed = p.auction.get(b, (0, 0))
                turns += t
                passes += passed
                n, s = p.timing.get(b, (0, 0.0))
                decisions += n
                seconds += s
        m, lo, hi = mean_ci([pts[b] for pts in points])
        played = made + failed
        entry: dict[str, Any] = {
            "bot": config.bots[b],
            "points_per_deal": _num(m),
            "points_per_deal_ci95": [_num(lo), _num(hi)],
            "declared": declared,
            "made": made,
            "failed": failed,
            "written_off": written,
            "make_rate": _num(made / played) if played else None,
            "bid_contracts_played": bid_played,
            "bid_make_rate": _num(bid_made / bid_played) if bid_played else None,
            "auction_turns": turns,
            "passes": passes,
            "pass_rate": _num(passes / turns) if turns else None,
            "forced_share": _num(forced / declared) if declared else None,
            "mean_contract": _num(contracts / declared) if declared else None,
            "decisions": decisions,
            "ms_per_decision": _num(1000 * seconds / decisions) if decisions else None,
        }
        if match_sets:
            wins = [_win_share(ms, b) for ms in match_sets]
            wm, wlo, whi = mean_ci(wins)
            entry["match_win_rate"] = _num(wm)
            entry["match_win_rate_ci95"] = [_num(wlo), _num(whi)]
        per_bot.append(entry)
    result: dict[str, Any] = {
        "config": {
            "bots": list(config.bots),
            "template": config.template,
            "deal_sets": config.deals,
            "match_sets": config.matches,
            "seed": config.seed,
            "rules": dict(config.rules),
            "seatings": [list(s) for s in seatings(k, config.make_rules().players_count)],
        },
        "bots": per_bot,
    }
    if k == 2 and points:
        diff = [pts[0] - pts[1] for pts in points]
        m, lo, hi = mean_ci(diff)
        result["paired_difference"] = {
            "of": f"{config.bots[0]} - {config.bots[1]}",
            "points_per_deal": _num(m),
            "ci95": [_num(lo), _num(hi)],
        }
        if match_sets:
            wins = [_win_share(ms, 0) - _win_share(ms, 1) for ms in match_sets]
            wm, wlo, whi = mean_ci(wins)
            result["paired_difference"]["match_win_rate"] = _num(wm)
            result["paired_difference"]["match_win_rate_ci95"] = [_num(wlo), _num(whi)]
    result["per_deal_set"] = [[_num(x) for x in pts] for pts in points]
    return result


def _win_share(match_set: list[tuple[tuple[int, ...], int | None]], bot: int) -> float:
    """The share of this match-set's matches that ``bot`` won."""
    won = sum(1 for seating, winner in match_set if winner is not None and seating[winner] == bot)
    return won / len(match_set)


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def run_arena(
    config: ArenaConfig,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    on_game: OnGame | None = None,
    cluster: str | None = None,
) -> dict[str, Any]:
    """Play every deal-set and match-set and summarize: in ``workers`` local processes, or on
    the Ray cluster whose head is at ``cluster`` (HOST:PORT) where one is named; the same seed
    gives the same result everywhere. Each game played goes to ``on_game`` (in this process, in
    order) when given. A cluster that cannot play raises :class:`.runners.ClusterError`."""
    keep = on_game is not None
    total = config.deals + config.matches
    done = 0
    deal_sets: list[list[Played]] = []
    match_sets: list[list[tuple[tuple[int, ...], int | None]]] = []

    def tick(kind: str, index: int, shipped: Shipped | None) -> None:
        nonlocal done
        games = _unpacked(config, shipped)
        if on_game is not None and games is not None:
            for seating, game in games:
                on_game(kind, index, seating, game)
        done += 1
        if progress is not None:
            progress(done, total)

    with runner_for(workers, cluster) as runner:
        for i, (ds, shipped) in enumerate(
            runner.imap(_deal_task, _tasks(config, config.deals, keep))
        ):
            deal_sets.append(ds)
            tick("deal-set", i, shipped)
        for i, (ms, shipped) in enumerate(
            runner.imap(_match_task, _tasks(config, config.matches, keep))
        ):
            match_sets.append(ms)
            tick("match-set", i, shipped)
    return summarize(config, deal_sets, match_sets)


def _tasks(config: ArenaConfig, count: int, keep: bool) -> Iterator[tuple[ArenaConfig, int, bool]]:
    return ((config, i, keep) for i in range(count))


#: a game as it travels back from a worker (a process or a Ray node): its seating, its players
#: and its deals' logs (a compiled engine's states do not pickle; the logs do, and replay to the
#: same game)
Shipped: TypeAlias = list[tuple[tuple[int, ...], tuple[str, ...] | None, tuple[DealLog, ...]]]


def _packed(games: Games | None) -> Shipped | None:
    if games is None:
        return None
    return [(seating, game.players, game.logs) for seating, game in games]


def _unpacked(config: ArenaConfig, shipped: Shipped | None) -> Games | None:
    """The games a worker played, replayed here from their logs."""
    if shipped is None:
        return None
    rules = config.make_rules()
    games: Games = []
    for seating, players, logs in shipped:
        dealer = logs[0].dealer if logs else 0
        game = Game.start(rules, dealer=dealer, players=players)
        for log in logs:
            game = game.new_deal(log.dealt)
            for action in log.moves:
                game = game.apply(action, checked=False)
        games.append((seating, game))
    return games


def _deal_task(task: tuple[ArenaConfig, int, bool]) -> tuple[list[Played], Shipped | None]:
    config, index, keep = task
    games: Games | None = [] if keep else None
    return play_deal_set(config, index, games), _packed(games)


def _match_task(
    task: tuple[ArenaConfig, int, bool],
) -> tuple[list[tuple[tuple[int, ...], int | None]], Shipped | None]:
    config, index, keep = task
    games: Games | None = [] if keep else None
    return play_match_set(config, index, games), _packed(games)
