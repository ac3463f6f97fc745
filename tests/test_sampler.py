"""The sampler: every deal it draws shows the seat exactly its view."""

from __future__ import annotations

import dataclasses
import random
from typing import Literal

import pytest

from thousand.bots.heuristic import HeuristicBot
from thousand.bots.knowledge import known_held, played_by, voids
from thousand.bots.sampler import Sampler
from thousand.cards import SUIT_MASKS, mask_of, parse_cards
from thousand.engine import DealState, Game
from thousand.engine.actions import ANNOUNCE, CRAWL
from thousand.engine.deal import Phase
from thousand.engine.dealing import Dealt
from thousand.engine.views import game_view, view
from thousand.rules import Rules, rules_from_record, template_rules

TEMPLATES = ("russian", "russian-classic", "ukrainian", "tysiac", "four-player-b", "four-player")


@pytest.mark.parametrize("template", TEMPLATES)
def test_each_sample_shows_the_same_view(template: str) -> None:
    rules = template_rules(template)
    rng = random.Random(template)
    bot = HeuristicBot()
    checked = 0
    for deal_no in range(12):
        game = Game.start(rules).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            if rng.random() < 0.2:
                for seat in game.deal.active:
                    original = dataclasses.replace(view(game.deal, seat), match=None)
                    sampler = Sampler(original, random.Random(deal_no))
                    for _ in range(2):
                        d = sampler.draw()
                        assert d is not None
                        assert view(DealState(d), seat) == original
                        checked += 1
            seat_to_act = game.deal.to_act
            assert seat_to_act is not None
            game = game.apply(bot.choose(game_view(game, seat_to_act)))
    assert checked > 100


@pytest.mark.parametrize("template", ["polish-2card", "soviet-book", "two-player-b"])
def test_each_sample_in_the_play_shows_the_same_view(template: str) -> None:
    """The talon handed over without being taken, and fixed-deal (sampled in the play only):
    each sample, replayed, shows every active seat exactly its view, the talon shown or not."""
    rng = random.Random(template)
    bot = HeuristicBot()
    checked = 0
    for deal_no in range(16):
        rules = template_rules(template)
        if deal_no % 2:
            rules = dataclasses.replace(rules, talon_shown="never")
        game = Game.start(rules).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            if game.deal.phase is Phase.PLAY and rng.random() < 0.3:
                for seat in game.deal.active:
                    original = dataclasses.replace(view(game.deal, seat), match=None)
                    sampler = Sampler(original, random.Random(deal_no))
                    for _ in range(2):
                        d = sampler.draw()
                        assert d is not None
                        assert view(DealState(d), seat) == original
                        checked += 1
            seat_to_act = game.deal.to_act
            assert seat_to_act is not None
            game = game.apply(bot.choose(game_view(game, seat_to_act)))
    assert checked > 100


#: The phases before the play with a choice in each layout rebuilt by its own procedure.
BEFORE_THE_PLAY = {
    "polish-2card": {Phase.AUCTION, Phase.PASSING},
    "soviet-book": {Phase.AUCTION, Phase.CONTRACT, Phase.PASSING},
    "two-player-b": {Phase.AUCTION, Phase.PASSING, Phase.DISCARD, Phase.CONTRACT},
}


@pytest.mark.parametrize("talon_shown", ["always", "never"])
@pytest.mark.parametrize("template", sorted(BEFORE_THE_PLAY))
def test_each_sample_before_the_play_shows_the_same_view(
    template: str, talon_shown: Literal["always", "never"]
) -> None:
    """The layouts the sampler rebuilds by their own procedure, before the play: in the
    auction (fixed-deal's unused cards and pass-without-taking's card set aside drawn as hidden
    slots beside the talon, keep-one's card shown with forehand), at keep-one's contract named
    before the talon, and at the declarer's hand-over, discard and contract. Each sample,
    replayed, shows the seat exactly its view, and the hidden cards vary."""
    rules = dataclasses.replace(template_rules(template), talon_shown=talon_shown)
    before = (Phase.AUCTION, Phase.PASSING, Phase.DISCARD, Phase.CONTRACT)
    checked, deals = check_samples(rules, talon_shown, 12, 3, before)
    assert set(checked) == BEFORE_THE_PLAY[template]
    assert min(checked.values()) >= 6 and len(deals) > sum(checked.values()) / 2


@pytest.mark.parametrize("template", ["russian", "tysiac"])
def test_a_contract_named_before_the_talon_is_sampled(template: str) -> None:
    """contract.before_talon in take-and-pass: at the contract the talon is still a hidden
    slot, and from the passing on the contract is part of the moves replayed. Each sample of
    every seat to act, in every phase, shows it exactly its view."""
    house = {"contract.before_talon": True, "contract.raise": False}
    rules = rules_from_record(template, house)
    checked, _ = check_samples(rules, template, 10, 1, tuple(Phase))
    assert checked[Phase.CONTRACT] >= 5 and checked[Phase.PASSING] >= 10


def check_samples(
    rules: Rules, seed: str, deals: int, draws: int, phases: tuple[Phase, ...]
) -> tuple[dict[Phase, int], set[str]]:
    """Play ``deals`` deals with the heuristic; at each decision in ``phases`` draw ``draws``
    samples for the seat to act, each of which must show it exactly its view and hold its
    hand. The samples checked by phase, and the deals they were."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    checked: dict[Phase, int] = {}
    drawn: set[str] = set()
    for deal_no in range(deals):
        game = Game.start(rules).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            if game.deal.phase in phases:
                original = dataclasses.replace(view(game.deal, seat), match=None)
                sampler = Sampler(original, random.Random(deal_no))
                for _ in range(draws):
                    d = sampler.draw()
                    assert d is not None, game.deal.phase
                    assert view(DealState(d), seat) == original
                    assert d.hands[seat] == game.deal.hands[seat]
                    drawn.add(repr(d.cards_dealt))
                    checked[game.deal.phase] = checked.get(game.deal.phase, 0) + 1
            game = game.apply(bot.choose(game_view(game, seat)))
    return checked, drawn


def test_samples_vary_the_hidden_cards() -> None:
    rules = template_rules("russian")
    state = DealState.shuffled(rules, 0, random.Random(5))
    seen = view(state, 1)
    sampler = Sampler(seen, random.Random(1))
    hands = set()
    for _ in range(20):
        d = sampler.draw()
        assert d is not None
        assert d.hands[1] == state.hands[1]
        hands.add(d.hands[2])
    assert len(hands) > 15


def test_knowledge_from_play() -> None:
    """Cards played are known by seat; a declared marriage shows its other card; a seat that
    did not follow suit is void in it, and, not trumping either, void in trumps."""
    rules = template_rules("russian")
    hands = [
        mask_of(parse_cards(t))
        for t in ("Ac Tc Kc Qc Jc 9c 9d", "Ah Kh Qh Ad Td Kd Qd", "As Ts Ks Qs Js 9s Th")
    ]
    state = DealState.new(rules, 0, hands, mask_of(parse_cards("Jh 9h Jd")))
    for move in ["100", "pass", "pass", "give Jd 2", "give 9h 0", "contract 100"]:
        state = state.apply(move)
    # Ad Jd 9d to seat 1; Qh+ Th 9h to seat 2 (hearts trump from now); As 9c Jh to seat 1.
    for move in ["Ad", "Jd", "9d", "Qh+", "Th", "9h", "As", "9c", "Jh"]:
        state = state.apply(move)
    v = view(state, 0)
    assert played_by(v) == [
        mask_of(parse_cards("9d 9h 9c")),
        mask_of(parse_cards("Ad Qh Jh")),
        mask_of(parse_cards("Jd Th As")),
    ]
    assert known_held(v)[1] == mask_of(parse_cards("Kh"))
    shown = voids(view(state, 2))
    assert shown[0] == SUIT_MASKS[3] | SUIT_MASKS[2]  # no spade, and no trump either
    assert shown[1] == SUIT_MASKS[3]  # no spade, but it trumped
    assert shown[2] == 0
    # Every sample for seat 2 keeps seat 0 off spades and hearts, and gives seat 1 the king.
    sampler = Sampler(view(state, 2), random.Random(3))
    for _ in range(10):
        d = sampler.draw()
        assert d is not None
        assert d.hands[0] & (SUIT_MASKS[3] | SUIT_MASKS[2]) == 0
        assert d.hands[1] & mask_of(parse_cards("Kh"))


@pytest.mark.parametrize(
    ("template", "house"),
    [
        ("russian", {"marriage.announce": "from-hand"}),
        ("estonian", {"marriage.announce": "from-hand"}),
        ("estonian", {}),
        ("tysiac", {"marriage.announce": "from-hand", "marriage.trump_from": "next-trick"}),
    ],
)
def test_samples_replay_declarations_from_hand_and_crawls(
    template: str, house: dict[str, object]
) -> None:
    """The view's own record of the play (``plays``) is what the sample replays: a marriage
    declared from the hand and a crawl come back exactly, never inferred from the tricks. Inside
    a crawl, where another seat's card is face down, no deal is drawn."""
    rules = rules_from_record(template, house)
    rng = random.Random(f"{template}{house}")
    bot = HeuristicBot()
    checked = announced = crawled = 0
    for deal_no in range(40):
        game = Game.start(rules).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            if game.deal.phase is Phase.PLAY:
                for seat in game.deal.active:
                    original = dataclasses.replace(view(game.deal, seat), match=None)
                    sampler = Sampler(original, random.Random(deal_no))
                    d = sampler.draw()
                    if original.crawl_hidden:
                        assert d is None
                        continue
                    assert d is not None
                    assert view(DealState(d), seat) == original
                    checked += 1
            legal = game.deal.legal_actions()
            special = [a for a in legal if a >= CRAWL]  # crawls and declarations from the hand
            if special and rng.random() < 0.7:
                action = rng.choice(special)
                announced += action >= ANNOUNCE
                crawled += action < ANNOUNCE
            else:
                seat_to_act = game.deal.to_act
                assert seat_to_act is not None
                action = bot.choose(game_view(game, seat_to_act))
            game = game.apply(action)
    assert checked > 300
    if "marriage.announce" in house:
        assert announced > 5
    if template == "estonian":
        assert crawled > 2


def test_a_raise_shown_by_a_marriage_with_a_talon_card_is_sampled() -> None:
    """two-player-b (fixed-deal, a raise only as far as the marriages held): the declarer took
    Qd from the talon shown to its opponent, held Kd, and raised to 125. Every world must give
    it a marriage, and the diamonds may be it although Qd is a talon card (no world was found)."""
    rules = template_rules("two-player-b")
    dealt = Dealt(
        hands=(
            mask_of(parse_cards("Jc Td Th Kh 9h Ts Qs")),
            mask_of(parse_cards("Qc Kd Ah Qh As Js 9s")),
        ),
        talons=(mask_of(parse_cards("Qd Jd Ks")),),
        aside=mask_of(parse_cards("9c Ac Tc 9d Ad Jh Kc")),
    )
    game = Game.start(rules, dealer=0).new_deal(dealt)
    for token in ("100", "pass", "give Qc 0", "discard Qh", "contract 125", "As"):
        game = game.apply(token)
    assert game.deal is not None
    seen = dataclasses.replace(view(game.deal, 0), match=None)
    assert seen.talon is not None and seen.contract == 125
    sampler = Sampler(seen, random.Random(3))
    for _ in range(10):
        d = sampler.draw()
        assert d is not None
        assert view(DealState(d), 0) == seen
