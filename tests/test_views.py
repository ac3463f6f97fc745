"""Views (rules.md 1.10): no view, in any form, holds a card its seat may not see."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest

from thousand.cards import CARD_TEXT, KING, QUEEN, cards_of
from thousand.engine import DealState, Game, Phase
from thousand.engine.actions import (
    DECLARE,
    GIVE,
    MAX_ACTION,
    MoveKind,
    action_text,
    give_parts,
    is_give,
    is_play,
    move_kind,
    parse_action,
    played_card,
)
from thousand.engine.views import SeatView, game_view, move_json, spectator_view, view
from thousand.rules import template_rules

from .positions import DEAL_2B, russian, scripted
from .server_support import VALIDATORS

RULES = template_rules("russian")
CARD_RE = re.compile(r"(?<![0-9A-Za-z])[9JQKTA][cdhs](?![a-z])")


def card_strings(data: object) -> set[str]:
    """Every card code written anywhere in a JSON value (keys, strings, moves, hands)."""
    return set(CARD_RE.findall(json.dumps(data)))


def allowed(
    seat: int | None, state: DealState, dealt: tuple[int, ...], talon: int, moves: list[int]
) -> set[str]:
    """What ``seat`` may see, worked out from the deal and its moves, not from any view."""
    mask = 0
    if seat is not None:
        mask |= state.hands[seat] | dealt[seat]
    if state.declarer is not None:  # the auction is over: the talon was shown
        mask |= talon
    for a in moves:
        if is_play(a):
            mask |= 1 << played_card(a)
            if a >= DECLARE:
                suit = (a - DECLARE) // 6
                mask |= 1 << (6 * suit + KING) | 1 << (6 * suit + QUEEN)
        elif is_give(a):
            c, to = give_parts(a)
            if seat is not None and (to == seat or seat == state.declarer):
                mask |= 1 << c
    return {CARD_TEXT[c] for c in cards_of(mask)}


def random_games(matches: int, deals: int, seed: int) -> Iterator[tuple[Game, list[int]]]:
    """Every position (and the finished deal) of seeded random deals, with the moves so far."""
    rng = random.Random(seed)
    for _ in range(matches):
        game = Game.start(RULES)
        for _ in range(deals):
            game = game.shuffle_and_deal(rng)
            moves: list[int] = []
            yield game, list(moves)
            while game.in_deal:
                assert game.deal is not None
                action = rng.choice(game.deal.legal_actions())
                game = game.apply(action)
                moves.append(action)
                yield game, list(moves)
            if game.over:
                break


def test_no_view_holds_a_hidden_card() -> None:
    positions = 0
    for game, moves in random_games(matches=30, deals=10, seed=2024):
        state = game.deal
        assert state is not None
        log = game.logs[-1]
        for seat in (0, 1, 2, None):
            v = game_view(game, seat)
            may = allowed(seat, state, log.dealt.hands, log.dealt.talon, moves)
            seen = card_strings(v.to_json(rules=False))
            assert seen <= may, (seat, state.phase, sorted(seen - may))
        positions += 1
    assert positions > 5000
    # the rules part of a view's JSON is parameters only: it names no card at all
    assert card_strings(game_view(game, 0).to_json()["rules"]) == set()


def test_legal_actions_only_for_the_seat_to_act() -> None:
    for game, _ in random_games(matches=5, deals=4, seed=7):
        state = game.deal
        assert state is not None
        for seat in range(3):
            v = view(state, seat, game.match)
            if seat == state.to_act:
                assert v.legal_actions == tuple(state.legal_actions())
                assert v.to_json(rules=False)["legal_actions"] == state.legal_moves()
                assert v.is_to_act
            else:
                assert v.legal_actions == ()
                assert v.to_json()["legal_actions"] == []
        spectator = spectator_view(state, game.match)
        assert spectator.legal_actions == ()
        assert spectator.hand is None and spectator.dealt is None
        assert spectator.received is None and spectator.passed is None
        assert spectator.to_json()["hand"] is None


def test_view_fields_follow_the_deal() -> None:
    """Own hand, the talon in the declarer's hand, passed cards to the right seats."""
    for game, moves in random_games(matches=4, deals=5, seed=11):
        state = game.deal
        assert state is not None
        match = game.match
        for seat in range(3):
            v = view(state, seat, match)
            assert v.hand == state.hands[seat]
            assert v.card_counts == tuple(h.bit_count() for h in state.hands)
            assert v.match is not None and v.match.totals == match.totals
            if state.declarer is None:
                assert v.talon is None
                continue
            assert v.talon == state.talon
            if seat == state.declarer:
                assert v.passed == state.given
            else:
                assert v.passed is None
                assert v.received == state.given[seat]
        if state.phase is Phase.PASSING and not any(is_give(a) for a in moves):
            decl = state.declarer
            assert decl is not None
            assert view(state, decl).hand == state.dealt[decl] | state.talon


def test_marriage_shows_both_cards() -> None:
    for game, moves in random_games(matches=10, deals=10, seed=5):
        if moves and moves[-1] >= DECLARE and moves[-1] < GIVE:
            state = game.deal
            assert state is not None
            c = moves[-1] - DECLARE
            suit = c // 6
            data = spectator_view(state).to_json()
            shown = [m for m in data["marriages"] if m["suit"] == "cdhs"[suit]]
            pair = {CARD_TEXT[6 * suit + KING], CARD_TEXT[6 * suit + QUEEN]}
            assert shown and set(shown[-1]["cards"]) == pair
            return
    pytest.fail("no marriage was declared in the random deals")


def test_a_view_is_a_frozen_value() -> None:
    state = DealState.shuffled(RULES, 0, random.Random(3))
    v = view(state, 1)
    assert isinstance(v, SeatView)
    with pytest.raises(AttributeError):
        v.hand = 0  # type: ignore[misc]
    assert view(state, 1) == v
    with pytest.raises(ValueError):
        view(state, 3)


# -- typed moves and rich tricks -------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "typed"),
    [
        ("give Qs 2", {"kind": "give", "card": "Qs", "seat": 2}),
        ("120", {"kind": "bid", "amount": 120}),
        ("blind 120", {"kind": "blind", "amount": 120}),
        ("contract 130", {"kind": "contract", "amount": 130}),
        ("misere", {"kind": "named", "named": "misere"}),
        ("open", {"kind": "named", "named": "open"}),
        ("slam", {"kind": "named", "named": "slam"}),
        ("Qh", {"kind": "play", "card": "Qh", "declare": False}),
        ("Qh+", {"kind": "play", "card": "Qh", "declare": True, "marriage": "h"}),
        ("Ad+", {"kind": "play", "card": "Ad", "declare": True, "marriage": "a"}),
        ("declare s", {"kind": "declare", "marriage": "s"}),
        ("crawl 9c", {"kind": "crawl", "card": "9c"}),
        ("discard Js", {"kind": "discard", "card": "Js"}),
        ("talon 1", {"kind": "talon", "talon": 1}),
        ("pass", {"kind": "pass"}),
        ("writeoff", {"kind": "writeoff"}),
        ("redeal", {"kind": "redeal"}),
        ("contra", {"kind": "contra"}),
        ("recontra", {"kind": "recontra"}),
        ("concede", {"kind": "concede"}),
        ("buyback", {"kind": "buyback"}),
        ("rebuy", {"kind": "rebuy"}),
    ],
)
def test_a_move_is_a_typed_object(token: str, typed: dict[str, object]) -> None:
    assert move_json(parse_action(token)) == {"token": token, **typed}
    assert move_kind(parse_action(token)) == MoveKind(str(typed["kind"]))


def test_every_kind_is_a_move_family() -> None:
    """Every action of the ranges in actions.py has a kind, and every kind is some action's."""
    kinds = set()
    for a in range(MAX_ACTION + 1):
        try:
            token = action_text(a)
        except ValueError:
            continue
        kinds.add(move_kind(a))
        assert move_json(a)["token"] == token
    assert kinds == set(MoveKind)


def test_moves_follow_the_legal_actions() -> None:
    for game, _ in random_games(matches=3, deals=3, seed=8):
        state = game.deal
        assert state is not None
        for seat in (0, 1, 2, None):
            data = view(state, seat, game.match).to_json(rules=False)
            assert [m["token"] for m in data["moves"]] == data["legal_actions"]
            assert data["moves"] == [move_json(parse_action(t)) for t in data["legal_actions"]]
            VALIDATORS["view"].validate(data)


def test_completed_tricks_say_who_played_each_card_and_under_which_trump() -> None:
    """``marriage.announce`` from-hand: spades declared before the lead of the second trick are
    trump from the third (next-trick), or in the second already (this-trick)."""
    rules = russian({"marriage.announce": "from-hand"})
    state = scripted(DEAL_2B, rules=rules, upto=1).apply("declare s")
    assert view(state, 1).trick_trump is None  # no trick under way
    state = state.apply("Js")
    seen = view(state, 2)
    assert seen.trump == 3 and seen.trick_trump is None and seen.to_json()["trick_trump"] is None
    for card in ("Qh", "Jh"):
        state = state.apply(card)
    data = view(state, 0).to_json(rules=False)
    first, second = data["completed_tricks"]
    assert first == {
        "leader": 1,
        "cards": ["As", "9c", "9d"],
        "winner": 1,
        "seats": [1, 2, 0],
        "trump": None,
    }
    assert second["seats"] == [1, 2, 0] and second["trump"] is None
    assert data["trump"] == "s"
    VALIDATORS["view"].validate(data)
    this = russian({"marriage.announce": "from-hand", "marriage.trump_from": "this-trick"})
    state = scripted(DEAL_2B, rules=this, upto=1).apply("declare s").apply("Js")
    assert view(state, 2).trick_trump == 3
    state = state.apply("Qh").apply("Jh")
    assert view(state, 2).to_json()["completed_tricks"][-1]["trump"] == "s"


@pytest.mark.parametrize("template", ["four-player", "estonian", "two-player-a"])
def test_completed_tricks_match_the_deal(template: str) -> None:
    """Each trick's seats run around the active seats from its leader (a sitting dealer never
    plays); its trump is the one the deal played it under (none in a crawl)."""
    rng = random.Random(4)
    rules = template_rules(template)
    checked = 0
    for _ in range(20):
        game = Game.start(rules).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            before = game.deal
            action = rng.choice(before.legal_actions())
            game = game.apply(action)
            after = game.deal
            assert after is not None
            if len(after.completed_tricks) == len(before.completed_tricks):
                continue
            seen = view(after, None)
            played = (*before.trick, (before.to_act, action))
            assert seen.completed_seats[-1] == tuple(s for s, _ in played)
            core = before.core()
            trump = None if before.crawling or core.trick_trump < 0 else core.trick_trump
            assert seen.completed_trumps[-1] == trump
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    ("template", "talons", "dealt", "aside", "stock"),
    [
        ("russian", [3], [7, 7, 7], 0, 0),
        ("tysiac-2p", [2, 2], [10, 10], 0, 0),
        ("four-player-a", [], [6, 6, 6, 6], 0, 0),
        ("four-player", [3], [0, 7, 7, 7], 0, 0),
        ("two-player-a", [], [9, 9], 0, 6),
        ("two-player-b", [3], [7, 7], 7, 0),
        ("polish-2card", [2], [7, 7, 7], 1, 0),
    ],
)
def test_the_view_counts_the_cards_dealt(
    template: str, talons: list[int], dealt: list[int], aside: int, stock: int
) -> None:
    """Talons, hands, cards set aside and the stock, counted by the engine: no client counts
    cards from the rule parameters."""
    state = DealState.shuffled(template_rules(template), 0, random.Random(1))
    data = view(state, None).to_json(rules=False)
    assert data["talon_sizes"] == talons
    assert data["dealt_counts"] == dealt
    assert data["aside_count"] == aside
    assert data["stock_count"] == stock
    VALIDATORS["view"].validate(data)


@pytest.mark.parametrize(
    ("template", "house"),
    [
        ("estonian", {"marriage.announce": "from-hand"}),
        ("tysiac", {"marriage.announce": "from-hand"}),
    ],
)
def test_plays_are_the_plays_moves_as_the_seat_may_know_them(
    template: str, house: dict[str, object]
) -> None:
    """``plays`` is every move of the play, in order, the declarations from the hand among
    them; in a crawl, another seat's card is face down (no card named anywhere in the view)
    until the trick is complete."""
    from thousand.engine.actions import CRAWL
    from thousand.engine.views import FACE_DOWN
    from thousand.rules import rules_from_record

    rules = rules_from_record(template, house)
    rng = random.Random(template)
    kinds: set[MoveKind] = set()
    face_down = 0
    for _ in range(60):
        game = Game.start(rules).shuffle_and_deal(rng)
        played: list[tuple[int, int]] = []
        while game.in_deal:
            state = game.deal
            assert state is not None and state.to_act is not None
            legal = state.legal_actions()
            special = [a for a in legal if a >= CRAWL]
            action = rng.choice(special if special and rng.random() < 0.8 else legal)
            if state.phase is Phase.PLAY:
                played.append((state.to_act, action))
            game = game.apply(action)
            after = game.deal
            assert after is not None
            crawl = len(after.trick) if after.crawling else 0  # the crawl's own moves
            for seat in after.active:
                seen = view(after, seat)
                unseen = [(s, a) for s, a in played[len(played) - crawl :] if s != seat]
                expected = [(s, FACE_DOWN if (s, a) in unseen else a) for s, a in played]
                assert list(seen.plays) == expected
                for _, a in seen.plays:
                    if a == FACE_DOWN:
                        face_down += 1
                    else:
                        kinds.add(move_kind(a))
                named = card_strings(seen.to_json(rules=False))
                # a card this seat saw before it was crawled: in the talon shown, or dealt to it
                known = (seen.talon or 0) | (seen.dealt or 0)
                assert not named & {
                    CARD_TEXT[a - CRAWL] for _, a in unseen if not known >> (a - CRAWL) & 1
                }
    assert {MoveKind.PLAY, MoveKind.DECLARE} <= kinds
    if template == "estonian":
        assert MoveKind.CRAWL in kinds and face_down > 0
