"""Replaying a record move by move: ``thousand replay`` (spec/record-format.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..cards import CARD_TEXT, SUITS, CardError, hand_text, mask_of, parse_cards, points_of
from ..engine import DealReport, DealState, Dealt, Game, IllegalAction, Layout, MoveSyntaxError
from ..engine.actions import parse_action
from ..engine.deal import Phase
from ..engine.game import DealLog
from ..rules import Rules, RulesError, rules_from_record
from .model import Record, RecordDeal, RecordError, parse_hand, quoted

#: the longest move a record may write: longer strings are no move (the longest is some 12)
MAX_MOVE = 40


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the game it rebuilds (with its scored deals) and any unfinished deal."""

    record: Record
    game: Game

    @property
    def unfinished(self) -> DealState | None:
        return self.game.deal if self.game.in_deal else None

    def steps(self) -> Iterator[Step]:
        """The match again, one step at a time: each deal as dealt, then after each move."""
        logs = self.game.logs
        game = Game.start(
            self.game.rules,
            self.record.start_totals,
            logs[0].dealer if logs else 0,
            self.record.players,
        )
        for number, log in enumerate(logs, start=1):
            game = game.new_deal(log.dealt)
            yield Step(number, log, None, None, game)
            for action in log.moves:
                assert game.deal is not None
                seat = game.deal.to_act
                game = game.apply(action)
                yield Step(number, log, seat, action, game)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replayed match: the match just after ``action`` (None: the deal as dealt)
    of deal ``number`` (from 1), which ``seat`` made."""

    number: int
    log: DealLog
    seat: int | None
    action: int | None
    game: Game


def record_rules(record: Record) -> Rules:
    try:
        return rules_from_record(record.variant, dict(record.rules))
    except RulesError as e:
        raise RecordError(f"record: {e}") from None


def replay(record: Record) -> Replay:
    """Replay every deal; raise :class:`RecordError` at the first problem, saying where."""
    rules = record_rules(record)
    n = rules.players_count
    if record.players is not None and len(record.players) != n:
        raise RecordError(f"record: players names {len(record.players)} seats, the variant has {n}")
    if record.start_totals is not None:
        _check_start(rules, record.start_totals)
    first_dealer = record.deals[0].dealer if record.deals else 0
    if not 0 <= first_dealer < n:
        raise RecordError(f"deal 1: dealer {first_dealer} is not a seat (0..{n - 1})")
    game = Game.start(rules, record.start_totals, first_dealer, record.players)
    # Each deal is replayed on the match without the earlier deals' logs and reports, which
    # are kept here and put back at the end: a Game copies its logs on every move, so a long
    # record would cost more with each deal.
    logs: list[DealLog] = []
    reports: list[DealReport] = []
    for number, deal in enumerate(record.deals, start=1):
        game = _replay_deal(replace(game, logs=(), reports=()), number, deal, len(record.deals))
        logs += game.logs
        reports += game.reports
    return Replay(record, replace(game, logs=tuple(logs), reports=tuple(reports)))


def _check_start(rules: Rules, totals: tuple[int, ...]) -> None:
    n = rules.players_count
    if len(totals) != n:
        raise RecordError(
            f"record: start.totals has {len(totals)} totals, the variant has {n} seats"
        )
    if rules.players_partnerships == "across" and (
        totals[0] != totals[2] or totals[1] != totals[3]
    ):
        raise RecordError(
            f"record: start.totals {list(totals)} differ between partners (seats 0 and 2,"
            " 1 and 3 share one running total)"
        )
    ceiling = rules.barrel_threshold if rules.barrel_threshold is not None else rules.game_target
    what = "barrel threshold" if rules.barrel_threshold is not None else "target"
    for seat, t in enumerate(totals):
        if t >= ceiling:
            raise RecordError(
                f"record: start.totals gives seat {seat} {t}, not below the {what} {ceiling}"
            )
        if rules.barrel_reverse and rules.barrel_threshold is not None:
            floor = -rules.barrel_threshold
            if t <= floor:
                raise RecordError(
                    f"record: start.totals gives seat {seat} {t}, not above the mirror barrel"
                    f" {floor}"
                )


def _replay_deal(game: Game, number: int, deal: RecordDeal, count: int) -> Game:
    where = f"deal {number}"
    rules = game.rules
    n = rules.players_count
    if game.over:
        raise RecordError(f"{where}: the match was already won; no deal may follow")
    if game.in_deal:
        raise RecordError(f"{where}: deal {number - 1} is unfinished; only the last deal may be")
    if not 0 <= deal.dealer < n:
        raise RecordError(f"{where}: dealer {deal.dealer} is not a seat (0..{n - 1})")
    if deal.dealer != game.match.dealer:
        raise RecordError(
            f"{where}: the dealer is seat {game.match.dealer} by the rotation, not {deal.dealer}"
        )
    if len(deal.hands) != n:
        raise RecordError(f"{where}: {len(deal.hands)} hands for {n} seats")
    hands = [parse_hand(h, where, f"seat {s}'s hand") for s, h in enumerate(deal.hands)]
    layout = Layout.of(rules)
    sitter = layout.sitter(deal.dealer)
    if len(deal.talon) != layout.talons:
        raise RecordError(f"{where}: {len(deal.talon)} talons, the layout has {layout.talons}")
    talons = [
        parse_hand(t, where, "the talon" if layout.talons == 1 else f"talon {i}")
        for i, t in enumerate(deal.talon)
    ]
    sizes = [h.bit_count() for h in hands]
    wrong = [s for s in range(n) if sizes[s] != layout.hand_size_of(s, deal.dealer)]
    if wrong:
        shown_sizes = ", ".join(f"seat {s} {sizes[s]}" for s in wrong)
        if sitter is not None:
            raise RecordError(
                f"{where}: every active hand has {layout.hand_size} cards and the sitting dealer"
                f" (seat {sitter}) none; {shown_sizes}"
            )
        raise RecordError(f"{where}: every hand has {layout.hand_size} cards; {shown_sizes}")
    for i, t in enumerate(talons):
        if t.bit_count() != layout.talon_size:
            what = "the talon" if layout.talons == 1 else f"talon {i}"
            raise RecordError(f"{where}: {what} has {t.bit_count()} cards, not {layout.talon_size}")
    stock = _layout_cards(where, "stock", deal.stock, layout.stock_size)
    aside = _layout_cards(where, "aside", deal.aside, layout.aside_size)
    shown_cards = _layout_cards(where, "shown", deal.shown, 1 if layout.shown else 0)
    masks = [*hands, *talons]
    names = [f"seat {s}" for s in range(n)]
    names += ["the talon"] if len(talons) == 1 else [f"talon {i}" for i in range(len(talons))]
    if stock:
        masks.append(mask_of(stock))
        names.append("the stock")
    if aside:
        masks.append(mask_of(aside))
        names.append("the cards set aside")
    _check_deck(where, masks, names)
    shown = -1
    if shown_cards:
        shown = shown_cards[0]
        forehand = layout.seats(deal.dealer)[0]
        if not hands[forehand] >> shown & 1:
            raise RecordError(
                f"{where}: the shown card {CARD_TEXT[shown]} is not in forehand's"
                f" (seat {forehand}'s) hand"
            )
    dealt = Dealt(tuple(hands), tuple(talons), tuple(stock), mask_of(aside), shown, sitter)
    game = game.new_deal(dealt)
    for i, token in enumerate(deal.moves, start=1):
        at = f"{where}, move {i} {quoted(token)}"
        if len(token) > MAX_MOVE:
            raise RecordError(f"{at}: not a move ({len(token):,} characters long)")
        try:
            action = parse_action(token)
        except MoveSyntaxError as e:
            raise RecordError(f"{at}: {e}") from None
        try:
            game = game.apply(action)
        except IllegalAction as e:  # a record shows every card: the referee's reason
            raise RecordError(f"{at}: illegal: {e.detail}") from None
        except ValueError:
            raise RecordError(f"{at}: illegal: the deal is over: no move may follow it") from None
    return game


_LAYOUT_WORDS = {
    "stock": "a draw stock",
    "aside": "cards set aside",
    "shown": "a shown card",
}


def _layout_cards(where: str, key: str, text: str | None, size: int) -> list[int]:
    """The cards of a deal's ``stock``, ``aside`` or ``shown``, in order, checked for the
    layout: present exactly where it has them, with as many cards as it deals."""
    if text is None:
        if size:
            raise RecordError(f"{where}: {key!r} is missing: the layout has {_LAYOUT_WORDS[key]}")
        return []
    if not size:
        raise RecordError(f"{where}: {key!r} has no place in this layout")
    try:
        cards = parse_cards(text)
    except CardError as e:
        raise RecordError(f"{where}: {e} in {key!r}") from None
    if len(set(cards)) != len(cards):
        raise RecordError(f"{where}: a card is written twice in {key!r}")
    if len(cards) != size:
        raise RecordError(f"{where}: {key!r} has {len(cards)} cards, not {size}")
    return cards


def _check_deck(where: str, masks: list[int], names: list[str]) -> None:
    seen: dict[int, str] = {}
    for m, name in zip(masks, names, strict=True):
        for c in range(24):
            if m >> c & 1:
                if c in seen:
                    card = hand_text(1 << c)
                    raise RecordError(f"{where}: {card} is in the hands of {seen[c]} and {name}")
                seen[c] = name
    missing = [c for c in range(24) if c not in seen]
    if missing:
        raise RecordError(f"{where}: {hand_text(sum(1 << c for c in missing))} missing")


# -- the JSON account -------------------------------------------------------------------------


def _suits(marriages: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [[SUITS[s] if s < 4 else "a" for s in seat] for seat in marriages]


def report_json(report: DealReport) -> dict[str, Any]:
    o = report.outcome
    return {
        "declarer": o.declarer,
        "bid": o.bid,
        "contract": o.contract,
        "result": o.result,
        "card_points": list(o.card_points) if o.card_points is not None else None,
        "marriages": _suits(o.marriages),
        "deal_points": list(o.deal_points) if o.deal_points is not None else None,
        "changes": list(report.changes),
        "totals": list(report.totals),
        "events": [{"seat": e.seat, "event": e.event} for e in report.events],
    }


def unfinished_json(state: DealState, totals: tuple[int, ...]) -> dict[str, Any]:
    n = state.seats
    played = bool(state.completed_tricks)
    named = state.phase is Phase.PLAY or (state.rules.contract_before_talon and state.talon_shown)
    return {
        "declarer": state.declarer,
        "bid": state.bid,
        "contract": state.contract if named else None,
        "result": "unfinished",
        "card_points": [points_of(m) for m in state.won] if played else None,
        "marriages": _suits(state.marriages),
        "deal_points": None,
        "changes": [0] * n,
        "totals": list(totals),
        "events": [],
    }


def replay_json(result: Replay) -> dict[str, Any]:
    """Exactly the object ``thousand replay --json`` prints."""
    game = result.game
    deals = [report_json(r) for r in game.reports]
    if result.unfinished is not None:
        deals.append(unfinished_json(result.unfinished, game.match.totals))
    return {"deals": deals, "totals": list(game.match.totals), "winner": game.match.winner}


def replay_text(result: Replay) -> str:
    """A readable deal-by-deal account."""
    game = result.game
    names = game.players or tuple(f"seat {s}" for s in range(game.rules.players_count))
    out = [f"{result.record.variant}: {', '.join(names)}"]
    reports = [report_json(r) for r in game.reports]
    if result.unfinished is not None:
        reports.append(unfinished_json(result.unfinished, game.match.totals))
    for i, (r, log) in enumerate(zip(reports, game.logs, strict=True), start=1):
        head = f"Deal {i}, dealer {names[log.dealer]}: "
        if r["declarer"] is None:
            head += r["result"]
        else:
            head += f"{names[r['declarer']]} bids {r['bid']}"
            if r["contract"] is not None:
                head += f", contract {r['contract']}"
            head += f": {r['result']}"
        out.append(head)
        if r["card_points"] is not None:
            out.append("  card points " + _row(r["card_points"]))
        if r["deal_points"] is not None:
            out.append("  deal scores " + _row(r["deal_points"]))
        if any(r["marriages"]):
            out.append(
                "  marriages   "
                + "  ".join(f"{names[s]}: {' '.join(m)}" for s, m in enumerate(r["marriages"]) if m)
            )
        out.append("  changes     " + _row(r["changes"]))
        out.append("  totals      " + _row(r["totals"]))
        for e in r["events"]:
            out.append(f"  {names[e['seat']]}: {e['event']}")
    winner = game.match.winner
    out.append(f"Totals: {_row(list(game.match.totals))}")
    out.append(f"Winner: {names[winner]}" if winner is not None else "No winner yet.")
    return "\n".join(out)


def _row(values: list[int]) -> str:
    return " ".join(f"{v:>6}" for v in values)


def dumps_json(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)
