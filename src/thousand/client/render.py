"""Text for the terminal client, made from the protocol's JSON views (no rules needed); moves
are labelled by :mod:`thousand.prose.moves`."""

from __future__ import annotations

from typing import Any

from ..prose.moves import SUIT_SIGNS, card

SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades", "a": "four aces"}
#: what each phase of a deal is called on the table's first line
PHASES = {
    "auction": "auction",
    "passing": "passing cards",
    "contract": "naming the contract",
    "play": "play",
    "done": "deal over",
    "talon": "choosing a talon",
    "discard": "discarding",
    "redeal": "redeal asked",
    "contra": "contra",
    "concession": "concession offered",
    "rebuy": "rebuy",
}
RANKS = "AKQJT9"

View = dict[str, Any]


def who(seat: int | None, names: list[str], me: int | None) -> str:
    if seat is None:
        return "-"
    name = names[seat] if seat < len(names) and names[seat] else f"seat {seat}"
    return f"{name} (you)" if seat == me else name


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
    return " | ".join(groups) if groups else "(no cards)"


NAMED_WORDS = {
    "misere": "misère (the declarer must take no trick)",
    "open": "open hand (the declarer plays with its hand shown)",
    "slam": "slam (the declarer must take every trick)",
}
"""How the table names a named contract (rules.md part 2, ``special.*``)."""


def table_lines(view: View, names: list[str]) -> list[str]:
    """The deal as this seat sees it: dealer, auction, declarer, trump, marriages, talon."""
    me = view["seat"]
    phase = PHASES.get(view["phase"], view["phase"])
    lines = [
        f"Dealer: {who(view['dealer'], names, me)}    To act: {who(view['to_act'], names, me)}"
        f"    Phase: {phase}"
    ]
    if view.get("sitter") is not None:
        lines.append(f"Sitting out: {who(view['sitter'], names, me)}")
    if view.get("shown") is not None:
        lines.append(f"Shown card: {card(view['shown'])}")
    if view.get("stock_count"):
        face_up = view.get("stock_face_up")
        lines.append(
            f"Stock: {view['stock_count']} cards"
            + (f", {card(face_up)} face up" if face_up is not None else "")
        )
    if view.get("talons_count", 1) > 1 and view["talon"] is None:
        lines.append(f"Talons: {view['talons_count']}, face down")
    if view["auction"]:
        bids = ", ".join(f"{who(a['seat'], names, me)} {a['move']}" for a in view["auction"])
        lines.append(f"Auction: {bids}")
    else:
        lines.append("Auction: no bid yet")
    if view["declarer"] is not None:
        lines.append(
            f"Declarer: {who(view['declarer'], names, me)}, bid {view['bid']},"
            f" contract {view['contract']}"
        )
    named = view.get("named")
    if named is not None:
        lines.append(f"Named contract: {NAMED_WORDS.get(named, named)}")
    if view.get("open_hand") is not None and view["declarer"] != me:
        lines.append("Declarer's open hand: " + " ".join(card(c) for c in view["open_hand"]))
    if view["talon"] is not None:
        lines.append("Talon: " + " ".join(card(c) for c in view["talon"]))
    if view["received"] is not None:
        lines.append(f"Passed to you: {card(view['received'])}")
    if view.get("discarded"):
        lines.append("You discarded: " + " ".join(card(c) for c in view["discarded"]))
    trump = view["trump"]
    lines.append("Trump: " + ("none yet" if trump is None else SUIT_NAMES[trump]))
    if view["marriages"]:
        lines.append(
            "Marriages: "
            + ", ".join(
                f"{who(m['seat'], names, me)} {SUIT_NAMES[m['suit']]}" for m in view["marriages"]
            )
        )
    else:
        lines.append("Marriages: none")
    lines.append(
        "Tricks taken: "
        + ", ".join(f"{who(s, names, me)} {n}" for s, n in enumerate(view["tricks_won"]))
    )
    return lines


def trick_line(view: View, names: list[str]) -> str:
    me = view["seat"]
    played = [f"{who(t['seat'], names, me)} {card(t['card'])}" for t in view["trick"]]
    played += [f"{who(s, names, me)} (face down)" for s in view.get("crawl_hidden", [])]
    if played:
        return "Trick: " + ", ".join(played)
    if view["completed_tricks"]:
        last = view["completed_tricks"][-1]
        return (
            "Last trick: "
            + " ".join(card(c) for c in last["cards"])
            + f", taken by {who(last['winner'], names, view['seat'])}"
        )
    return "Trick: -"


def scoresheet_rows(
    reports: list[dict[str, Any]], names: list[str] | None = None
) -> list[tuple[str, ...]]:
    """One row per finished deal: number, declarer, contract, result, each seat's change and
    total."""
    rows = []
    for i, r in enumerate(reports, start=1):
        cells = [f"{c:+d} = {t}" for c, t in zip(r["changes"], r["totals"], strict=True)]
        declarer = "-" if r["declarer"] is None else who(r["declarer"], names or [], None)
        contract = "-" if r["contract"] is None else str(r["contract"])
        rows.append((str(i), declarer, contract, r["result"], *cells))
    return rows
