"""A refusal tells a seat nothing that depends on the cards it may not see.

At many points of many deals of every template (and of the house rules whose moves name cards
in other ways: marriages declared from the hand, the crawl, the open pass), the seat to act is
refused every move it may send; then the same deal is dealt again with two cards the seat has
never seen swapped between hidden places, played through the same moves, and kept when that
seat saw exactly the same at every step. Every answer must be the same in both deals. The
referee's ``detail`` still says where such a card lies (records show every card).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest

from thousand.cards import CARD_TEXT, mask_of, parse_card, parse_cards
from thousand.engine import Game, IllegalAction, MoveSyntaxError, Phase
from thousand.engine.actions import BID, BLIND, CONTRACT, give, play
from thousand.engine.dealing import Dealt
from thousand.engine.views import game_view
from thousand.rules import Rules, rules_from_record
from thousand.rules.templates import TEMPLATES

CARD_RE = re.compile(r"(?<![0-9A-Za-z])[9JQKTA][cdhs](?![a-z])")

#: every card move, every word move, and the amounts of bids, blind bids and contracts on and
#: off the grid
ACTIONS = (
    *range(0, 220),
    *(base + amount for base in (BLIND, BID, CONTRACT) for amount in range(0, 400, 5)),
    BID + 103,
    CONTRACT + 999,
)

CASES: list[tuple[str, dict[str, object]]] = [(name, {}) for name in sorted(TEMPLATES)] + [
    ("russian", {"marriage.announce": "from-hand"}),
    ("russian", {"play.crawl": True}),
    ("russian", {"talon.open_pass": True, "bidding.blind": "first-bid"}),
    ("russian", {"bidding.contra": "contra-recontra", "talon.rebuy": True}),
    ("russian", {"talon.buyback": True, "bidding.forced_concession": "equal-split"}),
    ("russian", {"redeal.weak_hand": "loose", "redeal.four_nines": "optional"}),
]


@dataclass(frozen=True, slots=True)
class Point:
    """A seat to act at some point of a deal: the game before the deal, the cards dealt and
    the deal's moves."""

    before: Game
    dealt: Dealt
    moves: tuple[int, ...]
    seat: int


def answer(game: Game, action: int) -> str:
    """What the seat to act is told of ``action``: legal, or the refusal's message."""
    assert game.deal is not None
    try:
        game.deal.check(action)
    except IllegalAction as e:
        return str(e)
    return "legal"


def seen(game: Game, seat: int) -> str:
    return json.dumps(game_view(game, seat).to_json(rules=False), sort_keys=True)


def replayed(before: Game, dealt: Dealt, moves: tuple[int, ...]) -> Iterator[Game]:
    """The deal of ``dealt`` dealt after ``before``, then after each of ``moves``."""
    game = before.new_deal(dealt)
    yield game
    for m in moves:
        game = game.apply(m)
        yield game


def points(rules: Rules, seed: int, deals: int, every: int) -> Iterator[Point]:
    """Every decision before the play and every ``every``-th in it, of ``deals`` random deals
    (random legal moves)."""
    rng = random.Random(seed)
    game = Game.start(rules)
    for _ in range(deals):
        if game.over:
            return
        before = game
        game = game.shuffle_and_deal(rng)
        moves: list[int] = []
        while game.in_deal:
            assert game.deal is not None and game.deal.to_act is not None
            if game.deal.phase is not Phase.PLAY or len(moves) % every == every // 2:
                yield Point(before, game.logs[-1].dealt, tuple(moves), game.deal.to_act)
            action = rng.choice(game.deal.legal_actions())
            moves.append(action)
            game = game.apply(action)


def hidden_cards(point: Point) -> list[int]:
    """The cards the seat has not seen at any step of the deal so far."""
    shown: set[str] = set()
    for game in replayed(point.before, point.dealt, point.moves):
        shown |= set(CARD_RE.findall(seen(game, point.seat)))
    return [c for c in range(24) if CARD_TEXT[c] not in shown]


def swapped(dealt: Dealt, a: int, b: int) -> Dealt:
    """The same deal with cards ``a`` and ``b`` trading places."""

    def mask(m: int) -> int:
        has_a, has_b = m >> a & 1, m >> b & 1
        return m & ~(1 << a) & ~(1 << b) | has_a << b | has_b << a

    def card(c: int) -> int:
        return b if c == a else a if c == b else c

    return replace(
        dealt,
        hands=tuple(mask(h) for h in dealt.hands),
        talons=tuple(mask(t) for t in dealt.talons),
        stock=tuple(card(c) for c in dealt.stock),
        aside=mask(dealt.aside),
        shown=card(dealt.shown) if dealt.shown >= 0 else -1,
    )


def same_to_seat(point: Point, other: Dealt) -> Game | None:
    """The other deal at the point, if the seat saw exactly what it saw in the real one."""
    try:
        real = list(replayed(point.before, point.dealt, point.moves))
        alt = list(replayed(point.before, other, point.moves))
    except (IllegalAction, ValueError):
        return None
    if any(seen(r, point.seat) != seen(o, point.seat) for r, o in zip(real, alt, strict=True)):
        return None
    return alt[-1]


@pytest.mark.parametrize(("template", "overrides"), CASES, ids=lambda v: str(v or ""))
def test_refusals_do_not_depend_on_hidden_cards(
    template: str, overrides: dict[str, object]
) -> None:
    rules = rules_from_record(template, overrides)
    rng = random.Random(f"refusals {template} {sorted(overrides.items())}")
    compared = 0
    for point in points(rules, seed=rng.randrange(2**32), deals=3, every=5):
        hidden = hidden_cards(point)
        real = list(replayed(point.before, point.dealt, point.moves))[-1]
        answers = {a: answer(real, a) for a in ACTIONS}
        found = 0
        for _ in range(30):
            if found == 2 or len(hidden) < 2:
                break
            a, b = rng.sample(hidden, 2)
            alt = same_to_seat(point, swapped(point.dealt, a, b))
            if alt is None:
                continue
            found += 1
            for action in ACTIONS:
                assert answer(alt, action) == answers[action], (
                    f"seat {point.seat}, move {action}: the answer changed when "
                    f"{CARD_TEXT[a]} and {CARD_TEXT[b]} (unseen) traded places"
                )
        compared += found
    assert compared >= 5, "too few deals that the seat cannot tell apart: the test compared little"


def test_refusal_of_a_card_held_elsewhere_does_not_say_where() -> None:
    """The audit's two cases: a play and a give of a card another seat holds."""
    rules = rules_from_record("russian", {})
    hands = ("9c Jc Qc Kc Tc Ac 9d", "Jd Qd Kd Td Ad 9h Jh", "Qh Kh Th Ah 9s Js Qs")
    masks = tuple(mask_of(parse_cards(h)) for h in hands)
    talon = mask_of(parse_cards("Ks Ts As"))
    game = Game.start(rules, dealer=2).new_deal(Dealt(masks, (talon,)))
    # forehand (seat 0) bids, the others pass: seat 0 takes the talon and must pass cards
    for move in ("100", "pass", "pass"):
        game = game.apply(move)
    assert game.deal is not None and game.deal.to_act == 0
    for card, owner in (("Qd", 1), ("Qs", 2)):
        with pytest.raises(IllegalAction) as caught:
            game.deal.check(give(parse_card(card), 1 + owner % 2))
        assert str(caught.value) == f"the declarer (seat 0) gives {card}, which it does not hold"
        assert caught.value.detail == f"{caught.value} (seat {owner} holds it)"
    game = game.apply("give 9c 1").apply("give Jc 2")
    while game.deal is not None and game.deal.phase.name != "PLAY":
        game = game.apply(game.deal.legal_actions()[0])
    assert game.deal is not None and game.deal.to_act == 0
    for card, owner in (("Jd", 1), ("Js", 2)):
        action = play(parse_card(card))
        with pytest.raises(IllegalAction) as caught:
            game.deal.check(action)
        assert str(caught.value) == f"seat 0 plays {card}, which it does not hold"
        assert caught.value.detail == f"{caught.value} (seat {owner}'s hand)"


def test_a_string_that_is_no_move_and_a_move_not_allowed_are_different_errors() -> None:
    rules = rules_from_record("russian", {})
    game = Game.start(rules).shuffle_and_deal(random.Random(5))
    assert game.deal is not None and game.deal.phase is Phase.AUCTION
    assert not issubclass(MoveSyntaxError, IllegalAction)
    assert not issubclass(IllegalAction, MoveSyntaxError)
    for no_move in ("bid 100", "Qx", "give Qs", 99_999, -1):
        with pytest.raises(MoveSyntaxError):
            game.deal.check(no_move)
        with pytest.raises(MoveSyntaxError):
            game.apply(no_move)
        assert not game.deal.is_legal(no_move)
    for not_allowed in ("Qs", "contract 120", "give Qs 1", "95"):
        with pytest.raises(IllegalAction):
            game.deal.check(not_allowed)
