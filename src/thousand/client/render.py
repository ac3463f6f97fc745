"""Text for the terminal client, made from the protocol's JSON views (no rules needed); every
sentence comes from :mod:`thousand.prose.table` and moves are labelled by
:mod:`thousand.prose.moves`, in the language in force."""

from __future__ import annotations

import math
from typing import Any

from ..prose.moves import GIVING_UP, SUIT_SIGNS, card
from ..prose.table import (
    auction_word,
    heading_word,
    is_default_name,
    named_words,
    phase_word,
    result_word,
    said,
    suit_word,
)

RANKS = "AKQJT9"

View = dict[str, Any]


def seat_name(seat: int) -> str:
    """A seat nobody has named yet: ``seat 2``."""
    return said("seat", seat=seat)


def who(seat: int | None, names: list[str], me: int | None) -> str:
    """A seat by its player's name, ``Ann (you)`` for this seat (but never ``You (you)``)."""
    if seat is None:
        return "-"
    name = names[seat] if seat < len(names) and names[seat] else seat_name(seat)
    return said("you", name=name) if seat == me and not is_default_name(name) else name


def menu_order(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The view's typed moves in the menu's order: as the view lists them, the moves that give
    the deal up last."""
    return sorted(moves, key=lambda m: m["kind"] in GIVING_UP)


def hand_line(cards: list[str], trump: str | None) -> str:
    """A hand grouped by suit, trump first, high cards first: ``A♥ K♥ | A♣ 9♣``."""
    order = ["c", "d", "h", "s"]
    if trump in order:
        order.remove(trump)
        order.insert(0, trump)
    groups = []
    for suit in order:
        ranks = sorted((c[0] for c in cards if c[1] == suit), key=RANKS.index)
        if ranks:
            groups.append(" ".join(r + SUIT_SIGNS[suit] for r in ranks))
    return " | ".join(groups) if groups else said("no cards")


def table_lines(view: View, names: list[str]) -> list[str]:
    """The deal as this seat sees it: dealer, auction, declarer, trump, marriages, talon."""
    me = view["seat"]

    def w(seat: int | None) -> str:
        return who(seat, names, me)

    def cards(found: list[str]) -> str:
        return " ".join(card(c) for c in found)

    lines = [
        said(
            "dealer line",
            dealer=w(view["dealer"]),
            to_act=w(view["to_act"]),
            phase=phase_word(view["phase"]),
        )
    ]
    if view.get("sitter") is not None:
        lines.append(said("sitting out", who=w(view["sitter"])))
    if view.get("shown") is not None:
        lines.append(said("shown card", card=card(view["shown"])))
    if view.get("stock_count"):
        face_up = view.get("stock_face_up")
        lines.append(
            said("stock", count=view["stock_count"])
            if face_up is None
            else said("stock face up", count=view["stock_count"], card=card(face_up))
        )
    if view.get("talons_count", 1) > 1 and view["talon"] is None:
        lines.append(said("talons", count=view["talons_count"]))
    if view["auction"]:
        bids = ", ".join(f"{w(a['seat'])} {auction_word(a['action'])}" for a in view["auction"])
        lines.append(said("auction", bids=bids))
    else:
        lines.append(said("no bid"))
    if view["declarer"] is not None:
        lines.append(
            said(
                "declarer contract",
                who=w(view["declarer"]),
                bid=view["bid"],
                contract=view["contract"],
            )
        )
    named = view.get("named")
    if named is not None:
        lines.append(said("named contract", named=named_words(named)))
    if view.get("open_hand") is not None and view["declarer"] != me:
        lines.append(said("open hand", cards=cards(view["open_hand"])))
    if view["talon"] is not None:
        lines.append(said("talon", cards=cards(view["talon"])))
    if view["received"] is not None:
        lines.append(said("passed to you", card=card(view["received"])))
    if view.get("discarded"):
        lines.append(said("you discarded", cards=cards(view["discarded"])))
    trump = view["trump"]
    lines.append(said("no trump") if trump is None else said("trump", suit=suit_word(trump)))
    if view["marriages"]:
        marriages = ", ".join(f"{w(m['seat'])} {suit_word(m['suit'])}" for m in view["marriages"])
        lines.append(said("marriages", marriages=marriages))
    else:
        lines.append(said("no marriages"))
    tricks = ", ".join(f"{w(s)} {n}" for s, n in enumerate(view["tricks_won"]))
    lines.append(said("tricks taken", tricks=tricks))
    return lines


def trick_line(view: View, names: list[str]) -> str:
    me = view["seat"]
    played = [f"{who(t['seat'], names, me)} {card(t['card'])}" for t in view["trick"]]
    played += [said("face down", who=who(s, names, me)) for s in view.get("crawl_hidden", [])]
    if played:
        return said("trick", cards=", ".join(played))
    if view["completed_tricks"]:
        last = view["completed_tricks"][-1]
        return said(
            "last trick",
            cards=" ".join(card(c) for c in last["cards"]),
            who=who(last["winner"], names, me),
        )
    return said("no trick")


def scoresheet_heads(names: list[str]) -> tuple[str, ...]:
    """The scoresheet's headings: deal, each seat, then declarer, contract, result (the seats
    first, so that a narrow pane cuts the words, not the scores)."""
    columns = ("declarer", "contract", "result")
    return (heading_word("deal"), *names, *(heading_word(c) for c in columns))


def scoresheet_rows(
    reports: list[dict[str, Any]], names: list[str] | None = None
) -> list[tuple[str, ...]]:
    """One row per finished deal: number, each seat's change and total, declarer, contract,
    result."""
    rows = []
    for i, r in enumerate(reports, start=1):
        cells = [f"{c:+d} = {t}" for c, t in zip(r["changes"], r["totals"], strict=True)]
        declarer = "-" if r["declarer"] is None else who(r["declarer"], names or [], None)
        contract = "-" if r["contract"] is None else str(r["contract"])
        rows.append((str(i), *cells, declarer, contract, result_word(r["result"])))
    return rows


def totals_of(view: View | None, reports: list[dict[str, Any]], seats: int) -> list[int]:
    """Each seat's total: the match's in the view, else the last finished deal's, else 0."""
    match = None if view is None else view.get("match")
    if match is not None:
        return [int(t) for t in match["totals"]]
    if reports:
        return [int(t) for t in reports[-1]["totals"]]
    return [0] * seats


def standings_rows(totals: list[int], names: list[str], me: int | None) -> list[tuple[str, str]]:
    """One row per seat, in seat order: the total (first, so that a narrow pane never cuts it)
    and the player."""
    return [(str(t), who(s, names, me)) for s, t in enumerate(totals)]


def clock_text(seconds: float) -> str:
    """Time left as ``m:ss``, rounded up (a clock shows 0:00 only once it has run out)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_cells(clocks: dict[str, Any] | None, elapsed: float, seats: int) -> list[str]:
    """Each seat's time left, ``elapsed`` seconds after ``clocks`` came (a message's
    ``clocks``): the running clock counts down, the others show their bank; empty for a seat
    with no clock, and for every seat of an untimed table."""
    if clocks is None:
        return [""] * seats
    cells = []
    for s in range(seats):
        bank = clocks["banks"][s] if s < len(clocks["banks"]) else None
        if bank is None:
            cells.append("")
        elif clocks["to_act"] == s and clocks["left"] is not None:
            cells.append(clock_text(clocks["left"] - elapsed))
        else:
            cells.append(clock_text(bank))
    return cells


def deal_over_lines(report: dict[str, Any], names: list[str], me: int | None) -> list[str]:
    """What the log says when a deal ends: who played what and how it ended, then every
    player's total by name."""
    result = result_word(report["result"])
    if report["declarer"] is None:
        head = said("deal over", result=result)
    else:
        head = said(
            "deal over declarer",
            who=who(report["declarer"], names, me),
            contract=report["contract"],
            result=result,
        )
    totals = ", ".join(f"{who(s, names, me)} {t}" for s, t in enumerate(report["totals"]))
    return [head, said("totals", totals=totals)]
