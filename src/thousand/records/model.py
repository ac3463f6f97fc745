"""The ``thousand/1`` record (spec/record-format.md): reading and writing, without replaying."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..cards import CardError, hand_text, mask_of, parse_cards
from ..engine.actions import MoveSyntaxError, action_text, parse_action
from ..rules import PARAMS

FORMAT = "thousand/1"
_RECORD_KEYS = {"format", "variant", "rules", "players", "start", "deals"}
_DEAL_KEYS = {"dealer", "hands", "talon", "moves", "stock", "aside", "shown"}


class RecordError(ValueError):
    """A record that cannot be read or replayed. The message starts with where: ``record:``,
    ``deal 3:`` or ``deal 1, move 14 "Kd":``."""


@dataclass(frozen=True, slots=True)
class RecordDeal:
    """A deal as written: the dealer, the cards as strings, the moves as tokens."""

    dealer: int
    hands: tuple[str, ...]
    talon: tuple[str, ...]
    moves: tuple[str, ...] = ()
    #: draw-stock's stock, top card first; None where the deal has none
    stock: str | None = None
    #: the cards set aside (pass-without-taking, fixed-deal); None where none
    aside: str | None = None
    #: the card shown to all (``deal.first_card_shown``); None where none
    shown: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    variant: str
    deals: tuple[RecordDeal, ...] = ()
    rules: tuple[tuple[str, Any], ...] = ()
    players: tuple[str, ...] | None = None
    start_totals: tuple[int, ...] | None = None

    @property
    def rules_dict(self) -> dict[str, Any]:
        return dict(self.rules)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_record(text: str) -> Record:
    """Parse a record's JSON text and check its shape (not its moves)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"record: not JSON ({e.msg} at line {e.lineno})") from None
    return record_from_json(data)


def record_from_json(data: object) -> Record:
    if not isinstance(data, dict):
        kind = "a JSON array" if isinstance(data, list) else f"a JSON {type(data).__name__}"
        raise RecordError(f"record: the record is {kind}, not a JSON object")
    unknown = sorted(set(data) - _RECORD_KEYS)
    if unknown:
        raise RecordError(f"record: unknown key {unknown[0]!r}")
    fmt = data.get("format")
    if fmt != FORMAT:
        if fmt is None:
            raise RecordError(f"record: the key 'format' is missing (it must be {FORMAT})")
        raise RecordError(f"record: format {fmt!r} is not {FORMAT}")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise RecordError("record: 'variant' must be the name of a template")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise RecordError("record: 'rules' must be an object of parameter overrides")
    players = data.get("players")
    if players is not None and (
        not isinstance(players, list) or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError("record: 'players' must be a list of names")
    start_totals = None
    if "start" in data:
        start = data["start"]
        if not isinstance(start, dict) or set(start) - {"totals"}:
            raise RecordError("record: 'start' must be an object with 'totals' only")
        totals = start.get("totals")
        if not isinstance(totals, list) or not all(_is_int(t) for t in totals):
            raise RecordError("record: 'start.totals' must be a list of whole numbers")
        start_totals = tuple(totals)
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError("record: 'deals' must be a list (possibly empty)")
    return Record(
        variant=variant,
        deals=tuple(_deal_from_json(i + 1, d) for i, d in enumerate(deals)),
        rules=tuple(rules.items()),
        players=tuple(players) if players is not None else None,
        start_totals=start_totals,
    )


def _deal_from_json(number: int, data: object) -> RecordDeal:
    where = f"deal {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a deal must be a JSON object")
    unknown = sorted(set(data) - _DEAL_KEYS)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r}")
    extra: dict[str, str] = {}
    for key in ("stock", "aside", "shown"):
        if key in data:
            value = data[key]
            if not isinstance(value, str):
                raise RecordError(f"{where}: {key!r} must be a string of cards")
            extra[key] = value
    dealer = data.get("dealer")
    if not _is_int(dealer):
        raise RecordError(f"{where}: 'dealer' must be a seat number")
    assert isinstance(dealer, int)
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise RecordError(f"{where}: 'hands' must be a list of strings, one per seat")
    talon = data.get("talon")
    if not isinstance(talon, list) or not all(isinstance(t, str) for t in talon):
        raise RecordError(f"{where}: 'talon' must be a list of strings")
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError(f"{where}: 'moves' must be a list of strings")
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise RecordError(f"{where}, move {i + 1}: {json.dumps(m)} is not a move (a string)")
    return RecordDeal(
        dealer,
        tuple(hands),
        tuple(talon),
        tuple(moves),
        extra.get("stock"),
        extra.get("aside"),
        extra.get("shown"),
    )


def parse_hand(text: str, where: str, whose: str) -> int:
    """A hand string as a mask; an unknown card or a card twice is an error at ``where``."""
    try:
        cards = parse_cards(text)
    except CardError as e:
        raise RecordError(f"{where}: {e} in {whose}") from None
    m = mask_of(cards)
    if m.bit_count() != len(cards):
        raise RecordError(f"{where}: a card is written twice in {whose}")
    return m


def _canonical_hand(text: str) -> str:
    try:
        return hand_text(mask_of(parse_cards(text)))
    except CardError:
        return text


def _canonical_stock(text: str) -> str:
    """A stock keeps its order (top card first): each card canonical, the order as written."""
    try:
        return " ".join(hand_text(1 << c) for c in parse_cards(text))
    except CardError:
        return text


def _canonical_move(token: str) -> str:
    try:
        return action_text(parse_action(token))
    except (MoveSyntaxError, ValueError):
        return token


def record_to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON object in the canonical layout (cards and moves canonical)."""
    out: dict[str, Any] = {"format": FORMAT, "variant": record.variant}
    if record.rules:
        order = {p.name: i for i, p in enumerate(PARAMS)}
        out["rules"] = dict(sorted(record.rules, key=lambda kv: order.get(kv[0], len(order))))
    if record.players is not None:
        out["players"] = list(record.players)
    if record.start_totals is not None:
        out["start"] = {"totals": list(record.start_totals)}
    out["deals"] = [_deal_to_json(d) for d in record.deals]
    return out


def _deal_to_json(d: RecordDeal) -> dict[str, Any]:
    out: dict[str, Any] = {
        "dealer": d.dealer,
        "hands": [_canonical_hand(h) for h in d.hands],
        "talon": [_canonical_hand(t) for t in d.talon],
    }
    if d.stock is not None:
        out["stock"] = _canonical_stock(d.stock)
    if d.aside is not None:
        out["aside"] = _canonical_hand(d.aside)
    if d.shown is not None:
        out["shown"] = _canonical_hand(d.shown)
    out["moves"] = [_canonical_move(m) for m in d.moves]
    return out


def write_record(record: Record) -> str:
    """The canonical text: reading it and writing it again gives the same bytes."""
    data = record_to_json(record)
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key != "deals":
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
            continue
        if not value:
            lines.append(f'  "deals": []{comma}')
            continue
        lines.append('  "deals": [')
        for j, deal in enumerate(value):
            end = "," if j < len(value) - 1 else ""
            lines.append("    " + json.dumps(deal, ensure_ascii=False) + end)
        lines.append(f"  ]{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
