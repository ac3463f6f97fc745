"""One dealt deal (``Dealt``) and one ``Layout`` per rules: what each template deals, and the deal
carried whole by the state, the game log and the record."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from thousand.engine import Dealt, Game, Layout
from thousand.engine.dealing import deal_layout
from thousand.engine.views import game_view
from thousand.records import read_record, record_of_game, replay, write_record
from thousand.rules import TEMPLATES, rules_from_record, template_rules

#: (hand size, talons, talon size, stock, aside, shown card, dealer sits out) by template
LAYOUTS = {
    "russian": (7, 1, 3, 0, 0, False, False),
    "russian-classic": (7, 1, 3, 0, 0, False, False),
    "ukrainian": (7, 1, 3, 0, 0, False, False),
    "polish-2card": (7, 1, 2, 0, 1, False, False),
    "tysiac": (7, 1, 3, 0, 0, False, False),
    "tysiac-2p": (10, 2, 2, 0, 0, False, False),
    "two-player-a": (9, 0, 0, 6, 0, False, False),
    "two-player-b": (7, 1, 3, 0, 7, False, False),
    "four-player-a": (6, 0, 0, 0, 0, False, False),
    "four-player-b": (7, 1, 3, 0, 0, False, True),
    "four-player": (7, 1, 3, 0, 0, False, True),
    "estonian": (7, 1, 3, 0, 0, False, False),
    "soviet-book": (7, 1, 3, 0, 0, True, False),
}


def test_every_template_has_its_layout() -> None:
    assert set(LAYOUTS) == set(TEMPLATES)
    for template, expected in LAYOUTS.items():
        layout = Layout.of(template_rules(template))
        found = (
            layout.hand_size,
            layout.talons,
            layout.talon_size,
            layout.stock_size,
            layout.aside_size,
            layout.shown,
            layout.dealer_sits_out,
        )
        assert found == expected, template


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_deal_is_carried_whole_by_state_log_and_record(template: str) -> None:
    rules = template_rules(template)
    layout = Layout.of(rules)
    game = Game.start(rules, dealer=1)
    game = game.shuffle_and_deal(random.Random(template))
    dealt = game.logs[-1].dealt
    assert dealt == deal_layout(rules, random.Random(template), 1)
    dealt.check(layout, 1)
    assert dealt.sitter == (1 if layout.dealer_sits_out else None)
    assert game.deal is not None and game.deal.cards_dealt is dealt
    assert Dealt.from_json(dealt.to_json()) == dealt
    back = replay(read_record(write_record(record_of_game(game, template))))
    assert back.game.logs[-1].dealt == dealt
    with pytest.raises(dataclasses.FrozenInstanceError):
        dealt.shown = 3  # type: ignore[misc]


def test_a_deal_that_is_not_the_layouts_is_refused() -> None:
    rules = template_rules("tysiac-2p")
    dealt = deal_layout(rules, random.Random(1), 0)
    game = Game.start(rules)
    one_talon = dataclasses.replace(dealt, talons=(dealt.talons[0] | dealt.talons[1],))
    with pytest.raises(ValueError, match="1 talons, the layout has 2"):
        game.new_deal(one_talon)
    sits = dataclasses.replace(dealt, sitter=0)
    with pytest.raises(ValueError, match="seat 0 sits out, the layout has None sit out"):
        game.new_deal(sits)
    soviet = template_rules("soviet-book")
    shown = deal_layout(soviet, random.Random(1), 0)
    with pytest.raises(ValueError, match="a shown card where the layout has none"):
        Game.start(soviet).new_deal(dataclasses.replace(shown, shown=-1))
    other = next(c for c in range(24) if shown.hands[2] >> c & 1)
    with pytest.raises(ValueError, match=r"the shown card .. is not in forehand's \(seat 1's\)"):
        Game.start(soviet).new_deal(dataclasses.replace(shown, shown=other))


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "a dealt deal is an object with the keys"),
        ({"hands": [1]}, "a dealt deal is an object with the keys"),
        (
            {
                "hands": [1, -2],
                "talons": [],
                "stock": [],
                "aside": 0,
                "shown": None,
                "sitter": None,
            },
            "'hands' must be a list of whole numbers below 16777216",
        ),
        (
            {"hands": [], "talons": [], "stock": [24], "aside": 0, "shown": None, "sitter": None},
            "'stock' must be a list of whole numbers below 24",
        ),
        (
            {"hands": [], "talons": [], "stock": [], "aside": 0, "shown": True, "sitter": None},
            "'shown' must be a whole number below 24",
        ),
        (
            {"hands": [], "talons": [], "stock": [], "aside": None, "shown": None, "sitter": 1},
            "'aside' must be a whole number below 16777216",
        ),
    ],
)
def test_a_stored_deal_that_cannot_be_read_says_why(data: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        Dealt.from_json(data)


def test_a_custom_layout_is_derived_from_its_rules() -> None:
    rules = rules_from_record("four-player-b", {"deal.first_card_shown": True})
    layout = Layout.of(rules)
    assert layout.shown and layout.dealer_sits_out and layout.talons == 1
    # the talon right after forehand's cards, the dealer (seat 2) dealt nothing
    assert layout.places(2) == (3,) * 7 + (-3,) * 3 + (0,) * 7 + (1,) * 7
    dealt = deal_layout(rules, random.Random(4), 2)
    dealt.check(layout, 2)
    assert dealt.hands[2] == 0 and dealt.hands[3] >> dealt.shown & 1


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_view_says_how_many_cards_each_talon_holds(template: str) -> None:
    """The page draws the face-down talons from the view (the layout's), not from the rule
    parameters."""
    rules = template_rules(template)
    game = Game.start(rules).shuffle_and_deal(random.Random(2))
    expected = {"tysiac-2p": 2, "polish-2card": 2, "two-player-a": 0, "four-player-a": 0}
    for seat in (None, *range(rules.players_count)):
        seen = game_view(game, seat).to_json(rules=False)
        count = LAYOUTS[template][1]
        assert seen["talon_sizes"] == [expected.get(template, 3)] * count
        assert seen["talons_count"] == count


def test_a_dealt_deal_copies_and_pickles_whole() -> None:
    """Search copies what holds a deal (OpenSpiel's ISMCTS deep-copies its states), in the
    compiled build too, where a frozen slotted value takes no ``__setstate__``."""
    game = Game.start(template_rules("tysiac-2p")).shuffle_and_deal(random.Random(1))
    dealt = game.logs[-1].dealt
    assert copy.deepcopy(dealt) == dealt
    assert pickle.loads(pickle.dumps(dealt)) == dealt
