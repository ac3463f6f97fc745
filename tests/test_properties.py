"""Hypothesis properties over random games, under every template of rules.md part 3.

A game is drawn as a seed for the deal (the engine's seeded shuffle) and a seed for a chooser that
picks among the legal actions, so every example is cheap to generate and to reproduce. Every test
is derandomized and keeps no example database: CI runs the same examples every time.

(a) the 24 cards are conserved at every step; (b) a played deal's card points add up to 120;
(c) every legal action applies; (d) an illegal action or token is refused with
:class:`IllegalAction` and changes nothing; (e) records round-trip byte for byte and replay to the
same match; (f) the checked path and the fast path agree; (g) under ``russian`` the engine offers
exactly the tokens of the naive second implementation (:mod:`tests.naive`) along random games;
(h) under random house-rule combinations (several values of each parameter, on any template whose
deal shape it keeps) the invariants that hold whatever the rules: cards conserved, every deal
finishes, a win ends the match, a record replays to the same totals. A stateful machine plays
whole matches, interleaving legal moves and refused illegal ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from thousand.cards import CARD_TEXT, FULL_DECK, SUITS, hand_text, mask_of, points_of
from thousand.engine import (
    Deal,
    DealState,
    Game,
    IllegalAction,
    MoveSyntaxError,
    Phase,
    parse_action,
)
from thousand.engine.actions import (
    BID,
    CONTRACT,
    CRAWL,
    DECLARE,
    DISCARD,
    GIVE,
    MAX_ACTION,
    PASS,
    TALON,
    WRITE_OFF,
)
from thousand.engine.scoring import score
from thousand.records import read_record, record_of_game, replay, write_record
from thousand.rules import PARAMS, Param, Rules, RulesError, template_rules
from thousand.rules import TEMPLATES as ALL_TEMPLATES
from thousand.rules.layout import KEEP_ONE, WITHOUT_TAKING, Layout
from thousand.rules.params import SUIT_KEYS, Value

from . import naive

TEMPLATES = tuple(ALL_TEMPLATES)
RULES: dict[str, Rules] = {name: template_rules(name) for name in TEMPLATES}
RUSSIAN = RULES["russian"]

PROPERTY_SETTINGS = settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

templates = st.sampled_from(TEMPLATES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.integers(min_value=0, max_value=3)
tames = st.booleans()


@dataclass(frozen=True)
class Played:
    """A deal played by a seeded chooser: every state on the way, and the actions between."""

    states: tuple[DealState, ...]
    actions: tuple[int, ...]

    @property
    def final(self) -> DealState:
        return self.states[-1]


def choose(rng: random.Random, state: DealState, tame: bool) -> int:
    """A random legal action. A tame chooser bids low, names low contracts, declares marriages
    and mostly plays its highest card, so that deals are made as well as failed."""
    legal = state.legal_actions()
    if tame and state.phase is Phase.PLAY and rng.random() < 0.8:
        return max(legal, key=lambda a: (a >= DECLARE, a % 6))
    if tame and state.phase is Phase.AUCTION and rng.random() < 0.8:
        low = [a for a in legal if a == PASS or a < BID + 125]
        return rng.choice(low or legal)
    if tame and state.phase is Phase.CONTRACT and rng.random() < 0.8:
        return min(legal)
    if tame and WRITE_OFF in legal and rng.random() < 0.8:
        legal.remove(WRITE_OFF)
    return rng.choice(legal)


def play_deal(
    rules: Rules, deal_seed: int, choice_seed: int, dealer: int, tame: bool = False
) -> Played:
    state = DealState.shuffled(rules, dealer % rules.players_count, random.Random(deal_seed))
    rng = random.Random(choice_seed)
    states = [state]
    actions = []
    while not state.over:
        action = choose(rng, state, tame)
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return Played(tuple(states), tuple(actions))


def unused(state: DealState) -> int:
    """The cards no seat ever plays: the talon not chosen, fixed-deal's seven set aside."""
    rules = state.rules
    if rules.players_layout == "fixed-deal":
        return state.aside
    if len(state.talons) > 1:
        if not state.talon_shown:
            return 0
        return (state.talons[0] | state.talons[1]) & ~state.talon
    return 0


def outside(state: DealState) -> int:
    """The cards in no hand, trick or won pile, by the layout's procedure (rules.md part 4)."""
    proc = Layout.of(state.rules).procedure  # the layout's procedure wins over the distribution
    # a deal written off, or redealt on seeing the talon, ends before the talon is handed out
    ended = state.outcome is not None and state.outcome.result in ("written-off", "redealt")
    handed_out = state.talon_shown and state.phase is not Phase.PASSING and not ended
    talons = state.talon
    for t in state.talons:
        talons |= t
    if not state.talon_shown:
        talon = talons
    elif proc in (WITHOUT_TAKING, KEEP_ONE):
        given = mask_of(c for c in state.given if c is not None)
        talon = 0 if handed_out else state.talon & ~given
    else:
        talon = talons & ~state.talon  # the talon not chosen
    aside = 0 if proc == WITHOUT_TAKING and handed_out else state.aside
    return talon | mask_of(state.stock) | aside


def assert_conserved(state: DealState) -> None:
    """Hands + the cards outside them + the trick + captured cards = the deck, no overlap."""
    trick = mask_of(c for _, c in state.trick)
    seen = 0
    for part in (*state.hands, *state.won, trick, outside(state)):
        assert seen & part == 0, f"{hand_text(seen & part)} held twice in {state!r}"
        seen |= part
    assert seen == FULL_DECK, f"{hand_text(FULL_DECK & ~seen)} lost in {state!r}"
    if state.phase is Phase.PLAY:
        in_trick = {seat for seat, _ in state.trick}
        counts = {state.hands[seat].bit_count() + (seat in in_trick) for seat in state.active}
        assert len(counts) == 1, f"active seats hold different numbers of cards in {state!r}"


# -- (a) (b) (c) ----------------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(template=templates, deal_seed=seeds, choice_seed=seeds, dealer=dealers, tame=tames)
def test_cards_conserved_at_every_step(
    template: str, deal_seed: int, choice_seed: int, dealer: int, tame: bool
) -> None:
    played = play_deal(RULES[template], deal_seed, choice_seed, dealer, tame)
    for state in played.states:
        assert_conserved(state)


@PROPERTY_SETTINGS
@given(template=templates, deal_seed=seeds, choice_seed=seeds, dealer=dealers, tame=tames)
def test_played_deal_card_points_add_up_to_120(
    template: str, deal_seed: int, choice_seed: int, dealer: int, tame: bool
) -> None:
    final = play_deal(RULES[template], deal_seed, choice_seed, dealer, tame).final
    outcome = final.outcome
    assert outcome is not None
    if outcome.played:
        assert outcome.card_points is not None and outcome.tricks is not None
        assert sum(outcome.card_points) == 120 - points_of(unused(final))
        in_play = 24 - unused(final).bit_count() - final.discarded.bit_count()
        assert sum(outcome.tricks) * len(final.active) == in_play
    else:
        assert outcome.result in ("written-off", "redealt")
        assert outcome.card_points is None


@PROPERTY_SETTINGS
@given(template=templates, deal_seed=seeds, choice_seed=seeds, dealer=dealers, tame=tames)
def test_every_legal_action_applies(
    template: str, deal_seed: int, choice_seed: int, dealer: int, tame: bool
) -> None:
    played = play_deal(RULES[template], deal_seed, choice_seed, dealer, tame)
    for state in played.states:
        legal = state.legal_actions()
        assert bool(legal) != state.over
        assert state.legal_moves() == [str(m) for m in state.legal_moves()]
        for action, token in zip(legal, state.legal_moves(), strict=True):
            assert state.is_legal(action) and state.is_legal(token)
            assert parse_action(token) == action
            child = state.apply(action)
            assert child == state.apply(token)
            assert child.over or child.legal_actions()


# -- (d) illegal moves ----------------------------------------------------------------------------

action_ints = st.one_of(
    st.integers(),
    st.integers(min_value=-3, max_value=CONTRACT + 1000),
    st.integers(min_value=0, max_value=GIVE + 4 * 24),
    st.sampled_from([PASS, WRITE_OFF, TALON, TALON + 1, TALON + 2]),
    st.integers(min_value=CRAWL, max_value=DISCARD + 24),
    st.integers(min_value=BID, max_value=BID + 420),
    st.integers(min_value=CONTRACT, max_value=CONTRACT + 420),
)
cards_text = st.sampled_from(CARD_TEXT)
tokens = st.one_of(
    st.text(max_size=12),
    cards_text,
    cards_text.map(lambda c: c + "+"),
    st.builds(lambda c, s: f"give {c} {s}", cards_text, st.integers(-1, 5)),
    st.integers(min_value=0, max_value=999).map(str),
    st.integers(min_value=0, max_value=999).map(lambda a: f"contract {a}"),
    cards_text.map(lambda c: f"crawl {c}"),
    cards_text.map(lambda c: f"discard {c}"),
    st.integers(min_value=-1, max_value=3).map(lambda i: f"talon {i}"),
    st.sampled_from(["pass", "writeoff", "", "+", "give", "contract", "Pass", "120 ", "Qs +"]),
)


def is_legal_move(state: DealState, move: int | str) -> bool:
    """Legality decided from the legal-action list, not from the engine's own check."""
    if isinstance(move, str):
        try:
            move = parse_action(move)
        except MoveSyntaxError:
            return False
    return move in state.legal_actions()


@PROPERTY_SETTINGS
@given(
    template=templates,
    deal_seed=seeds,
    choice_seed=seeds,
    dealer=dealers,
    tame=tames,
    where=st.integers(min_value=0, max_value=10**6),
    move=st.one_of(action_ints, tokens),
)
def test_illegal_move_is_refused_and_changes_nothing(
    template: str,
    deal_seed: int,
    choice_seed: int,
    dealer: int,
    tame: bool,
    where: int,
    move: int | str,
) -> None:
    played = play_deal(RULES[template], deal_seed, choice_seed, dealer, tame)
    state = played.states[where % len(played.states)]
    if is_legal_move(state, move):
        state.apply(move)
        return
    before = DealState(state.core())
    legal = state.legal_actions()
    assert not state.is_legal(move)
    with pytest.raises(refusal(move)):
        state.check(move)
    with pytest.raises(refusal(move)):
        state.apply(move)
    assert state == before
    assert state.legal_actions() == legal
    assert state.legal_moves() == before.legal_moves()


def refusal(move: int | str) -> type[Exception]:
    """What refuses ``move`` when it is not legal: MoveSyntaxError for what is no move at all,
    IllegalAction for a move the rules forbid here."""
    if isinstance(move, int):
        return IllegalAction if 0 <= move <= MAX_ACTION else MoveSyntaxError
    try:
        parse_action(move)
    except MoveSyntaxError:
        return MoveSyntaxError
    return IllegalAction


@PROPERTY_SETTINGS
@given(template=templates, deal_seed=seeds, choice_seed=seeds, move=st.one_of(action_ints, tokens))
def test_illegal_move_leaves_the_game_unchanged(
    template: str, deal_seed: int, choice_seed: int, move: int | str
) -> None:
    rng = random.Random(choice_seed)
    game = Game.start(RULES[template]).shuffle_and_deal(random.Random(deal_seed))
    for _ in range(rng.randrange(40)):
        if game.deal is None or game.deal.over:
            break
        game = game.apply(rng.choice(game.deal.legal_actions()))
    if game.deal is None or game.deal.over or is_legal_move(game.deal, move):
        return
    before = game
    with pytest.raises(refusal(move)):
        game.apply(move)
    assert game == before


# -- (e) records ----------------------------------------------------------------------------------

start_totals = st.lists(
    st.one_of(
        st.integers(min_value=-600, max_value=875),
        st.sampled_from([0, 440, 455, 540, 760, 800, 860, 875]),
    ),
    min_size=4,
    max_size=4,
)


def play_game(
    rules: Rules, totals: list[int], seed: int, deals: int, cut: int, tame: bool = True
) -> Game:
    """A seeded game of up to ``deals`` deals; the last deal stops after ``cut`` moves. Partners
    start equal (rules.md part 2, partnerships)."""
    rng = random.Random(seed)
    n = rules.players_count
    totals = totals[:n]
    if rules.players_partnerships == "across":
        totals = [totals[0], totals[1], totals[0], totals[1]]
    game = Game.start(rules, totals, dealer=seed % n)
    for number in range(deals):
        if game.over:
            break
        game = game.shuffle_and_deal(rng)
        moves = 0
        while game.in_deal and (number < deals - 1 or moves < cut):
            assert game.deal is not None
            game = game.apply(choose(rng, game.deal, tame))
            moves += 1
    return game


@settings(PROPERTY_SETTINGS, max_examples=150)
@given(
    template=templates,
    written_as=st.sampled_from(TEMPLATES),
    totals=start_totals,
    seed=seeds,
    deals=st.integers(min_value=1, max_value=5),
    cut=st.integers(min_value=0, max_value=60),
    tame=tames,
)
def test_records_round_trip_and_replay_to_the_same_match(
    template: str,
    written_as: str,
    totals: list[int],
    seed: int,
    deals: int,
    cut: int,
    tame: bool,
) -> None:
    game = play_game(RULES[template], totals, seed, deals, cut, tame)
    record = record_of_game(game, written_as)
    text = write_record(record)
    again = read_record(text)
    assert write_record(again) == text
    assert again == record
    result = replay(again)
    assert result.game.rules == game.rules
    if game.logs:
        assert result.game.match == game.match
    else:  # a record without deals cannot say who deals first
        assert result.game.match.totals == game.match.totals
    assert result.game.reports == game.reports
    assert result.game.match.totals == game.match.totals
    assert result.unfinished == (game.deal if game.in_deal else None)
    previous = game.start_totals
    sides = [(0, 2), (1, 3)] if game.rules.players_partnerships == "across" else None
    for report in game.reports:
        if sides is None:
            assert tuple(p + c for p, c in zip(previous, report.changes, strict=True)) == (
                report.totals
            )
        else:  # a side's changes add up to the change of its shared total
            for a, b in sides:
                assert report.totals[a] == report.totals[b]
                assert report.changes[a] + report.changes[b] == report.totals[a] - previous[a]
        previous = report.totals


# -- (f) the fast path ----------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(template=templates, deal_seed=seeds, choice_seed=seeds, dealer=dealers, tame=tames)
def test_fast_path_reaches_the_same_outcome(
    template: str, deal_seed: int, choice_seed: int, dealer: int, tame: bool
) -> None:
    played = play_deal(RULES[template], deal_seed, choice_seed, dealer, tame)
    fast: Deal = played.states[0].core()
    for action, state in zip(played.actions, played.states[1:], strict=True):
        assert action in fast.legal_actions()
        fast.apply(action)
        assert sorted(fast.legal_actions()) == sorted(state.legal_actions())
        assert DealState(fast.copy()) == state
    assert fast.phase is Phase.DONE
    assert score(fast) == played.final.outcome


# -- (g) against the naive implementation ---------------------------------------------------------


@PROPERTY_SETTINGS
@given(deal_seed=seeds, choice_seed=seeds, dealer=dealers, tame=tames)
def test_engine_offers_the_naive_moves_along_random_deals(
    deal_seed: int, choice_seed: int, dealer: int, tame: bool
) -> None:
    played = play_deal(RULES["russian"], deal_seed, choice_seed, dealer, tame)
    first = played.states[0]
    model = naive.new_deal(dealer, [hand_text(h) for h in first.hands], hand_text(first.talon))
    for state, action in zip(played.states, (*played.actions, None), strict=True):
        assert sorted(state.legal_moves()) == sorted(naive.legal_moves(model))
        if action is not None:
            model = naive.apply(model, state.legal_moves()[state.legal_actions().index(action)])
    outcome = played.final.outcome
    assert outcome is not None
    if outcome.played:
        assert list(outcome.card_points or ()) == naive.card_points(model)
    assert [[SUITS[s] for s in seat] for seat in outcome.marriages] == model.marriages
    assert (outcome.declarer, outcome.bid, outcome.contract) == (
        model.declarer,
        model.bid,
        model.contract,
    )


# -- (h) random house-rule combinations ----------------------------------------------------------


def some_value(rng: random.Random, param: Param) -> object:
    """One of several values of ``param``, as a record's ``rules`` object writes it: each choice
    or boolean; for a number its ends, its default and one between; none where it may be."""
    if param.kind == "bool":
        return rng.random() < 0.5
    if param.kind == "suit-map":
        return {suit: rng.choice((0, 20, 40, 60, 80, 100, 150)) for suit in SUIT_KEYS}
    options: list[Value] = list(param.choices)
    if param.kind == "int-or-none":
        options.append(None)
    if param.kind != "choice":
        if param.allowed_ints is not None:
            options += param.allowed_ints
        else:
            assert param.low is not None and param.high is not None
            options += [param.low, param.high, rng.randint(param.low, param.high)]
            if isinstance(param.default, int) and not isinstance(param.default, bool):
                options.append(param.default)
    return rng.choice(options)


def house_rules(rng: random.Random) -> Rules:
    """A random template with some of its parameters (one to all of them, the deal's shape too, in
    a random order) set to random values; a value the rules refuse with what is set so far
    (RulesError: it could not be played) is skipped."""
    rules = RULES[rng.choice(TEMPLATES)]
    params = list(PARAMS)
    rng.shuffle(params)
    for param in params[: rng.randint(1, len(params))]:
        try:
            rules = rules.with_overrides({param.name: some_value(rng, param)})
        except RulesError:
            continue
    return rules


def some_start(rng: random.Random, rules: Rules) -> list[int]:
    """Start totals a record may hold (below the barrel, or the target), often close to it, so
    that matches are won within a few deals; partners start equal."""
    ceiling = rules.barrel_threshold if rules.barrel_threshold is not None else rules.game_target
    floor = -ceiling if rules.barrel_reverse and rules.barrel_threshold is not None else -1000
    totals = [
        rng.choice((0, ceiling - 1, ceiling - rng.randint(1, 200), rng.randint(floor + 1, 0)))
        for _ in range(rules.players_count)
    ]
    totals = [max(t, floor + 1) for t in totals]
    if rules.players_partnerships == "across":
        totals[2:] = totals[:2]
    return totals


#: more moves than any deal takes: at most 79 bids (10 to 400 in fives), two passes a seat, the
#: asks (redeal, concession, rebuy, contra), the talon's moves, 48 cards and their declarations
MOVES_PER_DEAL = 200


@settings(PROPERTY_SETTINGS, max_examples=40)
@given(seed=seeds, deals=st.integers(min_value=1, max_value=6), tame=tames)
def test_house_rule_combinations_keep_the_invariants(seed: int, deals: int, tame: bool) -> None:
    rng = random.Random(seed)
    rules = house_rules(rng)
    totals = some_start(rng, rules)
    game = Game.start(rules, totals, dealer=rng.randrange(rules.players_count))
    for _ in range(deals):
        if game.over:
            break
        game = game.shuffle_and_deal(rng)
        for _ in range(MOVES_PER_DEAL):
            assert game.deal is not None
            assert_conserved(game.deal)
            if not game.in_deal:
                break
            game = game.apply(choose(rng, game.deal, tame))
        assert not game.in_deal, f"a deal under {rules.overrides_from(RUSSIAN)} did not finish"
    # a win ends the match: it is the last deal's, and no deal may follow it
    wins = [i for i, r in enumerate(game.reports) for e in r.events if e.event == "win"]
    assert wins in ([], [len(game.reports) - 1])
    assert game.over == bool(wins)
    if game.over:
        with pytest.raises(ValueError):
            game.shuffle_and_deal(rng)
    # every total moves by its changes (a side's two together), and the record replays to the
    # same match
    n = rules.players_count
    units = [(0, 2), (1, 3)] if rules.players_partnerships == "across" else [(s,) for s in range(n)]
    previous = game.start_totals
    for report in game.reports:
        for unit in units:
            moved = sum(report.changes[s] for s in unit)
            assert {report.totals[s] for s in unit} == {previous[unit[0]] + moved}
        previous = report.totals
    record = record_of_game(game, "russian")
    again = replay(read_record(write_record(record)))
    assert again.game.match == game.match and again.game.reports == game.reports


# -- a stateful machine: whole matches, legal and illegal moves interleaved -----------------------


class MatchMachine(RuleBasedStateMachine):
    """Plays a match deal after deal; illegal attempts must bounce off without a trace."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.rng = random.Random(0)
        self.moves = 0

    @initialize(template=templates, seed=seeds)
    def start(self, template: str, seed: int) -> None:
        self.rng = random.Random(seed)
        rules = RULES[template]
        self.game = Game.start(rules, dealer=seed % rules.players_count).shuffle_and_deal(self.rng)

    def in_deal(self) -> bool:
        return self.game is not None and self.game.in_deal

    @precondition(in_deal)
    @rule(pick=st.integers(min_value=0, max_value=10**6))
    def play_legal(self, pick: int) -> None:
        assert self.game is not None and self.game.deal is not None
        legal = self.game.deal.legal_actions()
        self.game = self.game.apply(legal[pick % len(legal)])
        self.moves += 1

    @precondition(in_deal)
    @rule(move=st.one_of(action_ints, tokens))
    def try_illegal(self, move: int | str) -> None:
        assert self.game is not None and self.game.deal is not None
        if is_legal_move(self.game.deal, move):
            return
        before = self.game
        with pytest.raises(refusal(move)):
            self.game.apply(move)
        assert self.game == before

    @precondition(lambda self: self.game is not None and not self.game.in_deal)
    @rule()
    def next_deal(self) -> None:
        assert self.game is not None
        if self.game.over:
            with pytest.raises(ValueError):
                self.game.shuffle_and_deal(self.rng)
            return
        self.game = self.game.shuffle_and_deal(self.rng)

    @invariant()
    def cards_conserved(self) -> None:
        if self.game is not None and self.game.deal is not None:
            assert_conserved(self.game.deal)

    @invariant()
    def one_log_per_deal(self) -> None:
        if self.game is not None:
            assert len(self.game.logs) == len(self.game.reports) + self.game.in_deal
            total_moves = sum(len(log.moves) for log in self.game.logs)
            assert total_moves == self.moves


MatchMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_match_machine = MatchMachine.TestCase
