"""The ``thousand/1`` record (spec/record-format.md): reading and writing, without replaying."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..cards import CardError, hand_text, mask_of, parse_cards
from ..engine.actions import MoveSyntaxError, action_text, parse_action
from ..rules import PARAMS

FORMAT = "thousand/1"
_RECORD_KEYS = {"format", "variant", "rules", "players", "start", "deals"}
_DEAL_KEYS = {"dealer", "hands", "talon", "moves", "stock", "aside", "shown", "played_for"}
#: why a bot made a person's move, as a deal's ``played_for`` says: the seat's time ran out, or
#: the seat was disconnected past its grace (the server's clocks)
PLAYED_FOR_WHY = ("clock", "away")

#: the largest record file a reader takes, in bytes (a 32,000-deal match is about 11 MB)
MAX_BYTES = 64 * 1024 * 1024
#: the deepest nesting of arrays and objects a record may have (its moves are at depth 4)
MAX_DEPTH = 32
#: the largest whole number a record may hold: the largest that every JSON reader reads
#: exactly (I-JSON, RFC 7493), the web page's JavaScript included
MAX_INT = 2**53 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


class RecordError(ValueError):
    """A record that cannot be read or replayed. The message starts with where: ``record:``,
    ``deal 3:`` or ``deal 1, move 14 "Kd":``; it is always one line of printable text, cut
    after :data:`MESSAGE_LIMIT` characters, whatever the record held."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


#: the longest error message, in characters (a record's strings can be of any length)
MESSAGE_LIMIT = 1000


def one_line(message: str) -> str:
    """``message`` as one line of printable text: line breaks and other characters that are
    not printable (a lone surrogate among them) escaped, cut after :data:`MESSAGE_LIMIT`."""
    line = message[: MESSAGE_LIMIT + 1]
    if not line.isprintable():
        line = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in line)
    return line if len(line) <= MESSAGE_LIMIT else line[:MESSAGE_LIMIT] + "..."


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
    #: the moves a bot made for a person at a timed table: each one's number in ``moves``
    #: (from 1) and why (:data:`PLAYED_FOR_WHY`), in order; () for none (the key is left out)
    played_for: tuple[tuple[int, str], ...] = ()


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


def read_record_file(path: str) -> Record:
    """Read the record in the file at ``path``: as :func:`read_record_bytes` reads its bytes."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise RecordError(f"record: cannot read {path}: {e.strerror}") from None
    return read_record_bytes(raw)


def read_record_bytes(raw: bytes) -> Record:
    """Read a record from its bytes: UTF-8 text of at most :data:`MAX_BYTES` bytes."""
    if len(raw) > MAX_BYTES:
        raise RecordError(f"record: more than {MAX_BYTES:,} bytes, too large for a record")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"record: not UTF-8 text (byte {e.start + 1})") from None
    return read_record(text)


def read_record(text: str) -> Record:
    """Parse a record's JSON text and check its shape (not its moves).

    Besides the JSON grammar, a record's text must keep within what every reader handles
    alike: no ``NaN`` or ``Infinity``, whole numbers within :data:`MAX_INT`, arrays and objects
    nested at most :data:`MAX_DEPTH` deep, and strings of Unicode text (no lone surrogate, as
    the escape ``"\\ud800"`` writes one).
    """
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as e:
        raise RecordError(f"record: not JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise RecordError(_too_deep()) from None
    _check_tree(data)
    return record_from_json(data)


def _parse_int(text: str) -> int:
    """A JSON integer, refused beyond :data:`MAX_INT` before Python converts its digits."""
    digits = text.lstrip("-")
    if len(digits) <= len(str(MAX_INT)) and abs(value := int(text)) <= MAX_INT:
        return value
    shown = text if len(text) <= 24 else f"{text[:12]}... ({len(digits):,} digits)"
    raise RecordError(
        f"record: the number {shown} is out of range: a record's whole numbers lie between"
        f" -{MAX_INT:,} and {MAX_INT:,}"
    )


def _parse_constant(word: str) -> object:
    raise RecordError(f"record: not JSON ({word} is not a JSON value)")


def _too_deep() -> str:
    return f"record: arrays and objects are nested more than {MAX_DEPTH} deep"


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words (``a JSON array``, ``JSON null``)."""
    if value is None:
        return "JSON null"
    if isinstance(value, bool):
        return "JSON true" if value else "JSON false"
    kinds = {list: "array", str: "string", int: "number", float: "number"}
    return f"a JSON {kinds.get(type(value), type(value).__name__)}"


def _check_tree(data: object) -> None:
    """Every string (keys included) of ``data`` is Unicode text, and no array or object is
    nested more than :data:`MAX_DEPTH` deep; walked without recursion."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and _SURROGATE.search(value):
                raise RecordError(
                    f"record: the string {quoted(value)} is not Unicode text"
                    " (it holds a lone surrogate)"
                )
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise RecordError(_too_deep())
        if isinstance(value, dict):
            stack.extend((k, depth) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        else:
            stack.extend((v, depth + 1) for v in value)


def quoted(text: str, limit: int = 40) -> str:
    """A record's string as an error message quotes it: in double quotes, cut after ``limit``
    characters (the message escapes what cannot be printed)."""
    return f'"{text}"' if len(text) <= limit else f'"{text[:limit]}"...'


def record_from_json(data: object) -> Record:
    if not isinstance(data, dict):
        raise RecordError(f"record: the record is {_json_kind(data)}, not a JSON object")
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
        _played_for(where, data.get("played_for", []), len(moves)),
    )


def _played_for(where: str, value: object, moves: int) -> tuple[tuple[int, str], ...]:
    """A deal's ``played_for``: a list of ``{"move": N, "why": "clock" or "away"}``, the move
    numbers (from 1) of the deal's moves, rising."""
    shape = f'{where}: \'played_for\' must be a list of {{"move": N, "why": "clock" or "away"}}'
    if not isinstance(value, list):
        raise RecordError(shape)
    out: list[tuple[int, str]] = []
    for entry in value:
        if not isinstance(entry, dict) or set(entry) != {"move", "why"}:
            raise RecordError(shape)
        number, why = entry["move"], entry["why"]
        if not _is_int(number) or why not in PLAYED_FOR_WHY:
            raise RecordError(shape)
        assert isinstance(number, int)
        if not 1 <= number <= moves:
            raise RecordError(
                f"{where}: played_for names move {number}, the deal has {moves} moves"
            )
        if out and number <= out[-1][0]:
            raise RecordError(f"{where}: played_for's moves must rise (move {number} again)")
        out.append((number, str(why)))
    return tuple(out)


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
    if d.played_for:
        out["played_for"] = [{"move": n, "why": why} for n, why in d.played_for]
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
