"""``thousand play``: a plain terminal match, a person at seat 0 against two random bots.

The loop talks through two injectable functions (``ask`` like :func:`input`, ``say`` like
:func:`print`), so a test can script a whole match. Everything shown to the person is rendered
from the person's :class:`~thousand.engine.views.SeatView`; the bots choose from their own views.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..bots import LEVELS, Bot, RandomBot, derive_seed, make_bot
from ..cards import CARD_TEXT, SUIT_NAMES
from ..engine import Game, IllegalAction, MoveSyntaxError
from ..engine.actions import (
    ANNOUNCE,
    BUYBACK,
    CONCEDE,
    CONTRA,
    CRAWL,
    DISCARD,
    PASS,
    REBUY,
    RECONTRA,
    REDEAL,
    TALON,
    WRITE_OFF,
    action_text,
    amount_of,
    bid,
    give_parts,
    is_bid,
    is_blind,
    is_contract,
    is_crawl,
    is_discard,
    is_give,
    is_named,
    is_talon,
    played_card,
)
from ..engine.deal import Phase
from ..engine.match import DealReport
from ..engine.views import SeatView, game_view, move_json
from ..prose.moves import move_label
from ..records import record_of_game, write_record
from ..rules import TEMPLATES, Rules
from ..rules.layout import CHOOSE_TALON, FIXED_DEAL, KEEP_ONE, NO_TALON, WITHOUT_TAKING, Layout
from .rules import about as template_about
from .selfplay import OptionError, load_template

Ask = Callable[[str], str]
Say = Callable[[str], None]

HUMAN = 0
PROMPT = "Your move (number or move, q to quit): "

EVENT_WORDS = {
    "stick-penalty": "stick penalty",
    "no-win-penalty": "no-win penalty",
    "write-off-penalty": "write-off penalty",
    "zero-penalty": "zero penalty",
    "barrel-on": "on the barrel",
    "barrel-fall": "falls off the barrel",
    "three-falls-reset": "third fall: back to 0",
    "barrel-knocked-off": "knocked off the barrel",
    "dump-truck": "dump truck",
    "four-nines": "four nines",
    "win": "won the match",
}


class Quit(Exception):
    """The person typed q (or the input ended)."""


# -- cards in the order a player holds them ---------------------------------------------------


def suit_order(trump: int | None) -> list[int]:
    """Clubs, diamonds, hearts, spades, with the trump suit first once there is one."""
    suits = [0, 1, 2, 3]
    if trump is not None:
        suits.remove(trump)
        suits.insert(0, trump)
    return suits


def card_order(trump: int | None) -> dict[int, int]:
    """Each card's place when a hand is shown: by suit (trump first), high card first."""
    place: dict[int, int] = {}
    for s in suit_order(trump):
        for r in range(5, -1, -1):
            place[6 * s + r] = len(place)
    return place


def hand_line(mask: int, trump: int | None) -> str:
    """A hand grouped by suit, trump first, high to low: ``Ah Kh | Ac 9c | Td``."""
    groups = []
    for s in suit_order(trump):
        cards = [CARD_TEXT[6 * s + r] for r in range(5, -1, -1) if mask >> (6 * s + r) & 1]
        if cards:
            groups.append(" ".join(cards))
    return " | ".join(groups) if groups else "(no cards)"


def cards_line(mask: int) -> str:
    return hand_line(mask, None)


def ordered_moves(view: SeatView) -> list[int]:
    """The legal actions in the order they are numbered: pass first, then write-off, bids and
    contracts upward, passes by seat, cards as the hand is shown."""
    place = card_order(view.trump)

    def key(a: int) -> tuple[int, ...]:
        if a == PASS:
            return (0,)
        if a in (WRITE_OFF, REDEAL, CONTRA, RECONTRA, CONCEDE, BUYBACK, REBUY):
            return (1, a)
        if is_bid(a):
            return (2, amount_of(a))
        if is_blind(a):
            return (2, amount_of(a), 1)
        if is_named(a):
            return (2, 1000 + a)
        if is_contract(a):
            return (3, amount_of(a))
        if is_give(a):
            c, seat = give_parts(a)
            return (4, seat, place[c])
        if is_talon(a):
            return (5, a - TALON)
        if is_discard(a):
            return (6, place[a - DISCARD])
        if is_crawl(a):
            return (8, place[a - CRAWL])
        if a >= ANNOUNCE and a < ANNOUNCE + 4:
            return (9, a)
        return (7, place[played_card(a)], int(a != played_card(a)))

    return sorted(view.legal_actions, key=key)


# -- what the person sees ----------------------------------------------------------------------


class Table:
    """Names and rendering for one match, from the person's seat."""

    def __init__(self, name: str, seats: int) -> None:
        self.name = name
        self.seats = seats

    def who(self, seat: int) -> str:
        """A seat in a sentence: ``Seat 1``, or ``Seat 0 (Ann)`` for the person."""
        return f"Seat {seat} ({self.name})" if seat == HUMAN else f"Seat {seat}"

    def short(self, seat: int) -> str:
        """A seat in a table heading."""
        return self.name if seat == HUMAN else f"Seat {seat}"

    def situation(self, view: SeatView, deal_no: int) -> list[str]:
        """Everything the person may know, when it is the person's turn."""
        lines = [f"--- Deal {deal_no}, dealer {self.who(view.dealer)} ---"]
        if view.match is not None:
            totals = ", ".join(f"{self.short(s)} {t}" for s, t in enumerate(view.match.totals))
            lines.append(f"Totals: {totals}")
            barrel = [
                f"{self.short(s)} ({view.match.barrel_left[s]} deals left)"
                for s in range(view.seats)
                if view.match.on_barrel[s]
            ]
            if barrel:
                lines.append("On the barrel: " + ", ".join(barrel))
        if view.auction:
            bids = ", ".join(
                f"{self.short(s)} {'pass' if a == 0 else action_text(bid(a))}"
                for s, a in view.auction
            )
            lines.append(f"Auction: {bids}")
        else:
            lines.append("Auction: no bid yet")
        if view.sitter is not None:
            lines.append(f"Sitting out: {self.who(view.sitter)} (the dealer)")
        if view.shown is not None:
            lines.append(f"Shown to all and dealt to forehand: {CARD_TEXT[view.shown]}")
        if view.stock_count:
            face_up = (
                "" if view.stock_face_up is None else f", face up {CARD_TEXT[view.stock_face_up]}"
            )
            lines.append(f"Stock: {view.stock_count} cards{face_up}")
        if view.talon is not None:
            lines.append(f"Talon: {cards_line(view.talon)}")
        if view.discarded:
            lines.append(f"You discarded: {cards_line(view.discarded)}")
        if view.declarer is not None:
            contract = f"Declarer: {self.who(view.declarer)}, bid {view.bid}"
            if view.phase is Phase.PLAY:
                contract += f", contract {view.contract}"
            lines.append(contract)
        if view.received is not None and view.declarer is not None:
            lines.append(f"Passed to you: {CARD_TEXT[view.received]} by {self.who(view.declarer)}")
        if view.passed is not None:
            given = [
                f"{CARD_TEXT[c]} to {self.short(s)}"
                for s, c in enumerate(view.passed)
                if c is not None
            ]
            if given:
                lines.append("You passed: " + ", ".join(given))
        if view.phase is Phase.PLAY:
            trump = "none yet" if view.trump is None else SUIT_NAMES[view.trump]
            lines.append(f"Trump: {trump}")
            marriages = [
                f"{self.short(seat)} {SUIT_NAMES[s]} ({CARD_TEXT[k]} {CARD_TEXT[q]})"
                for seat, s, k, q in view.marriage_cards()
            ]
            if marriages:
                lines.append("Marriages: " + ", ".join(marriages))
            taken = ", ".join(f"{self.short(s)} {t}" for s, t in enumerate(view.tricks_won))
            lines.append(f"Tricks taken: {taken}")
            if view.trick or view.crawl_hidden:
                played = [f"{self.short(s)} {CARD_TEXT[c]}" for s, c in view.trick]
                played += [f"{self.short(s)} (face down)" for s in view.crawl_hidden]
                lines.append(f"Trick: {', '.join(played)}")
            else:
                lines.append("Trick: you lead")
        if view.hand is not None:
            lines.append(f"Your hand: {hand_line(view.hand, view.trump)}")
        lines.append("Your moves:")
        for i, a in enumerate(ordered_moves(view), start=1):
            token = action_text(a)
            words = move_label(move_json(a), self.short)
            lines.append(f"  {i:>2}. {token}" + (f"  ({words})" if words != token else ""))
        return lines

    def narrate(self, seat: int, action: int, before: SeatView, after: SeatView) -> list[str]:
        """What the person learns from a move (never a card passed between two other seats)."""
        who = self.who(seat)
        lines: list[str] = []
        if action == PASS:
            lines.append(f"{who} passes")
        elif is_bid(action):
            lines.append(f"{who} bids {amount_of(action)}")
        elif is_blind(action):
            lines.append(f"{who} bids {amount_of(action)} blind")
        elif is_named(action):
            lines.append(f"{who} bids {action_text(action)}")
        elif action == WRITE_OFF:
            lines.append(f"{who} writes the deal off")
        elif action == REDEAL:
            lines.append(f"{who} asks for a redeal")
        elif action in (CONTRA, RECONTRA, CONCEDE, BUYBACK, REBUY):
            lines.append(f"{who} says {action_text(action)}")
        elif is_give(action):
            c, to = give_parts(action)
            if seat == HUMAN or to == HUMAN:
                lines.append(f"{who} gives {CARD_TEXT[c]} to {self.who(to)}")
            else:
                lines.append(f"{who} gives a card to {self.who(to)}")
        elif is_contract(action):
            lines.append(f"{who} names the contract: {amount_of(action)}")
        elif is_talon(action):
            lines.append(f"{who} takes talon {action - TALON}")
        elif is_discard(action):
            c = action - DISCARD
            what = CARD_TEXT[c] if seat == HUMAN else "a card"
            lines.append(f"{who} discards {what} face down")
        elif ANNOUNCE <= action < ANNOUNCE + 4:
            s = action - ANNOUNCE
            lines.append(f"{who} declares the {SUIT_NAMES[s]} marriage from its hand")
        elif is_crawl(action):
            c = action - CRAWL
            what = f" ({CARD_TEXT[c]})" if seat == HUMAN else ""
            lines.append(f"{who} crawls: a card face down{what}")
        else:
            c = played_card(action)
            if c != action and c % 6 == 5:
                lines.append(
                    f"{who} leads {CARD_TEXT[c]} and declares the four aces"
                    f" ({after.rules.marriage_aces_value})"
                )
            elif c != action:
                s = c // 6
                value = after.rules.marriage_values[s]
                if after.trick_trump == s:
                    trump = f"; {SUIT_NAMES[s]} are trump from this trick"
                elif after.trump == s:
                    trump = f"; {SUIT_NAMES[s]} are trump from the next trick"
                else:
                    trump = ""  # marriage.one_trump: the first trump stays
                lines.append(
                    f"{who} leads {CARD_TEXT[c]} and declares the {SUIT_NAMES[s]} marriage"
                    f" ({value}){trump}"
                )
            else:
                lines.append(f"{who} plays {CARD_TEXT[c]}")
        if before.declarer is None and after.declarer is not None:
            how = "" if any(a for _, a in after.auction) else " (forced)"
            lines.append(f"{self.who(after.declarer)} is declarer at {after.bid}{how}")
        if before.talon is None and after.talon is not None:
            lines.append(f"The talon: {cards_line(after.talon)}")
        if len(after.completed_tricks) > len(before.completed_tricks):
            _, cards, winner = after.completed_tricks[-1]
            played = [
                f"{self.short(s)} {CARD_TEXT[c]}"
                for s, c in zip(after.completed_seats[-1], cards, strict=True)
            ]
            lines.append(f"{self.who(winner)} takes the trick ({', '.join(played)})")
            if after.hand is not None and before.hand is not None:
                drawn = after.hand & ~before.hand
                if drawn and after.stock_count < before.stock_count:
                    lines.append(f"You draw {cards_line(drawn)} from the stock")
        return lines

    def deal_summary(self, report: DealReport) -> list[str]:
        o = report.outcome
        if o.declarer is None:
            head = f"Deal over: {o.result}"
        else:
            head = f"Deal over: {self.who(o.declarer)}, contract {o.contract}: {o.result}"
        lines = [head]
        if o.card_points is not None:
            pts = ", ".join(f"{self.short(s)} {p}" for s, p in enumerate(o.card_points))
            lines.append(f"Card points: {pts}")
        if o.deal_points is not None:
            pts = ", ".join(f"{self.short(s)} {p}" for s, p in enumerate(o.deal_points))
            lines.append(f"Deal scores: {pts}")
        return lines

    def scoresheet(self, reports: Sequence[DealReport]) -> list[str]:
        """A row per deal: declarer, contract, result, each seat's change and total, events."""
        width = max(13, *(len(self.short(s)) + 1 for s in range(self.seats)))
        head = f"{'Deal':>4}  {'Declarer':<8}  {'Contract':>8}  {'Result':<11}"
        head += "".join(f"  {self.short(s):>{width}}" for s in range(self.seats))
        lines = ["Scoresheet", head + "  Events"]
        for i, r in enumerate(reports, start=1):
            o = r.outcome
            decl = "-" if o.declarer is None else self.short(o.declarer)
            contract = "-" if o.contract is None else str(o.contract)
            row = f"{i:>4}  {decl:<8}  {contract:>8}  {o.result:<11}"
            for s in range(self.seats):
                cell = f"{r.changes[s]:+d} = {r.totals[s]}"
                row += f"  {cell:>{width}}"
            events = "; ".join(
                f"{self.short(e.seat)}: {EVENT_WORDS.get(e.event, e.event)}" for e in r.events
            )
            lines.append(row + ("  " + events if events else ""))
        return lines


# -- the rules, before the first deal -----------------------------------------------------------


def _talon_words(rules: Rules) -> str:
    layout = Layout.of(rules)
    size = layout.talon_size
    if layout.stock_size:
        return (
            "the rest is a draw stock, its bottom card face up and its suit trump; after each"
            " trick the winner, then the other, draws; no duty to follow while the stock lasts"
        )
    if layout.procedure == NO_TALON:
        return "no talon; play starts right after the auction"
    if layout.procedure == FIXED_DEAL:
        return (
            f"a talon of {size}, the rest set aside; the declarer takes the"
            " talon, hands one card over and discards one onto its tricks"
        )
    if layout.procedure == CHOOSE_TALON:
        return (
            f"two talons of {size}: the declarer picks one, takes it and discards {size}"
            " onto its tricks"
        )
    if layout.procedure == WITHOUT_TAKING:
        return (
            f"a talon of {size} and a card set aside: the declarer hands the talon's cards to"
            " the others and takes the card set aside"
        )
    if layout.procedure == KEEP_ONE:
        return f"a talon of {size}: the declarer keeps one card and hands one to each opponent"
    return f"a talon of {size}: the declarer takes it and passes a card to each other player"


def rules_summary(template: str, rules: Rules) -> list[str]:
    """What a player reads before the first deal: the template's description and the rules
    that shape a deal, from the rules' own parameters."""
    known = TEMPLATES.get(template)
    lines = [f"Rules: {template}" + (f". {known.summary}" if known is not None else "")]
    n = rules.players_count
    seats = f"{n} players"
    if rules.players_partnerships == "across":
        seats += " in partnerships across the table (seats 0 and 2, 1 and 3)"
    layout = Layout.of(rules)
    if layout.dealer_sits_out:
        seats += "; the dealer sits out each deal"
        if rules.four_sitter_scores != "nothing":
            seats += f" and scores the talon ({rules.four_sitter_scores})"
    lines.append(f"  {seats}; {layout.hand_size} cards each; {_talon_words(rules)}.")
    if layout.shown:
        lines.append("  The deck's first card is shown to all and goes to forehand.")
    forced = {
        "none": "nobody must bid (all pass: redeal)",
        "forehand": "forehand must bid",
        "dealer": f"the dealer plays {rules.bidding_min} when the others pass",
        "last-seat": "the last seat must bid when the others pass",
    }[rules.bidding_forced]
    steps = f"in steps of {rules.bidding_step}"
    if (
        rules.bidding_big_step != rules.bidding_step
        and rules.bidding_max >= rules.bidding_big_step_from
    ):
        steps += f" ({rules.bidding_big_step} from {rules.bidding_big_step_from})"
    lines.append(f"  Bids from {rules.bidding_min} to {rules.bidding_max}, {steps}; {forced}.")
    extras = []
    if rules.contract_before_talon:
        extras.append("the contract is named before the talon is shown")
    if not rules.writeoff_allowed:
        extras.append("no write-off")
    if rules.play_crawl:
        extras.append("a declarer without an ace may crawl the first trick face down")
    if rules.marriage_four_nines_bonus:
        extras.append(f"four 9s dealt gain {rules.marriage_four_nines_bonus}")
    barrel = (
        "no barrel" if rules.barrel_threshold is None else f"the barrel at {rules.barrel_threshold}"
    )
    extras.append(f"game to {rules.game_target}, {barrel}")
    text = "; ".join(extras)
    lines.append(f"  {text[0].upper()}{text[1:]}.")
    return lines


# -- reading the person's move -------------------------------------------------------------------


def _normalise(text: str) -> str:
    parts = text.split()
    if parts and parts[0].lower() in (
        "pass",
        "writeoff",
        "redeal",
        "contra",
        "recontra",
        "concede",
        "buyback",
        "rebuy",
        "declare",
        "give",
        "contract",
        "crawl",
        "discard",
        "talon",
    ):
        parts[0] = parts[0].lower()
    return " ".join(parts)


def read_move(game: Game, view: SeatView, moves: Sequence[int], ask: Ask, say: Say) -> int:
    """Ask until the person gives a legal move: its number or its token. ``q`` quits."""
    assert game.deal is not None
    while True:
        try:
            raw = ask(PROMPT)
        except EOFError:
            raise Quit from None
        text = _normalise(raw)
        if text.lower() in ("q", "quit"):
            raise Quit
        if not text:
            continue
        if text in ("?", "help"):
            for i, a in enumerate(moves, start=1):
                say(f"  {i:>2}. {action_text(a)}")
            continue
        is_number = (
            text.isascii()
            and text.isdigit()
            and not (view.phase is Phase.AUCTION and int(text) >= view.rules.bidding_min)
        )
        if is_number:
            k = int(text)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            say(f"There is no move {k}: choose a number from 1 to {len(moves)}, or type a move.")
            continue
        try:
            return game.deal.check(text)
        except MoveSyntaxError as e:
            say(f"Not a move: {e}; type ? for the moves.")
        except IllegalAction as e:
            say(f"Not allowed: {e}")


# -- the match -----------------------------------------------------------------------------------


def play(
    rules: Rules,
    seed: int,
    *,
    name: str = "You",
    template: str = "russian",
    out: str | None = None,
    ask: Ask = input,
    say: Say = print,
    opponents: Sequence[Bot] | None = None,
    title: str | None = None,
    about: Sequence[str] = (),
) -> Game:
    """Play a match to its winner (or until the person quits) and return the game.

    ``opponents`` are the bots of seats 1, 2, ...; by default random bots seeded from ``seed``
    and their seats. The cards are dealt from ``random.Random(seed)``. ``template`` is the
    record's variant; ``title`` the template's name as shown (``template`` by default), and
    ``about`` what the person reads about it before the first deal.
    """
    n = rules.players_count
    if opponents is None:
        opponents = [RandomBot(derive_seed(seed, "seat", s)) for s in range(1, n)]
    if len(opponents) != n - 1:
        raise ValueError(f"{len(opponents)} bots for the {n - 1} other seats")
    players: list[Bot | None] = [None, *opponents]
    names = [name] + [f"{b.name}-{s}" for s, b in enumerate(opponents, start=1)]
    table = Table(name, n)
    game = Game.start(rules, players=names)
    rng = random.Random(seed)
    kinds = ", ".join(sorted({b.name for b in opponents}))
    shown = title or template
    say(f"Thousand ({shown}), seed {seed}. You are seat 0; the others are bots ({kinds}).")
    # The template's own words first, then the rules that shape a deal (without its name line,
    # which ``about`` already gives).
    summary = rules_summary(template, rules)
    for line in [*about, *summary[1:]] if about else summary:
        say(line)
    say("Type a move's number or the move itself (Qh+, give 9s 2, contract 120); q quits.")
    try:
        while not game.over:
            game = game.shuffle_and_deal(rng)
            deal_no = len(game.logs)
            assert game.deal is not None
            say("")
            say(f"=== Deal {deal_no}: dealer {table.who(game.deal.dealer)} ===")
            if game.deal.sitter == HUMAN:
                say("You deal and sit this deal out.")
            else:
                say(f"Your hand: {hand_line(game_view(game, HUMAN).hand or 0, None)}")
            while game.in_deal:
                assert game.deal is not None
                seat = game.deal.to_act
                assert seat is not None
                before = game_view(game, HUMAN)
                bot = players[seat]
                if bot is None:
                    for line in table.situation(before, deal_no):
                        say(line)
                    action = read_move(game, before, ordered_moves(before), ask, say)
                else:
                    action = bot.choose(game_view(game, seat))
                game = game.apply(action)
                for line in table.narrate(seat, action, before, game_view(game, HUMAN)):
                    say(line)
            report = game.reports[-1]
            for line in table.deal_summary(report):
                say(line)
            for line in table.scoresheet(game.reports):
                say(line)
        winner = game.match.winner
        assert winner is not None
        say("")
        say(
            f"Match over: {table.who(winner)} wins with {game.match.totals[winner]}"
            f" after {len(game.reports)} deals."
        )
    except (Quit, KeyboardInterrupt):
        say("Quit.")
    if out is not None:
        Path(out).write_text(write_record(record_of_game(game, template)), encoding="utf-8")
        say(f"Record written to {out}")
    return game


def run(
    template: str,
    seed: int | None,
    name: str,
    out: str | None,
    overrides: str | None = None,
    level: str = "easy",
) -> int:
    """The command: 0 when the match is won or the person quits, 2 on bad options."""
    try:
        chosen, rules = load_template(template, overrides)
    except OptionError as e:
        print(f"play: {e}", file=sys.stderr)
        return 2
    if level not in LEVELS:
        print(
            f"play: unknown --level {level!r}: the levels are {', '.join(LEVELS)}", file=sys.stderr
        )
        return 2
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    n = rules.players_count
    bots = [make_bot(level, derive_seed(seed, "seat", s)) for s in range(1, n)]
    try:
        play(
            rules,
            seed,
            name=name,
            template=chosen.variant,
            out=out,
            title=chosen.name,
            about=template_about(chosen),
            opponents=bots,
        )
    except BrokenPipeError:
        raise
    except OSError as e:
        print(f"play: cannot write {out}: {e.strerror}", file=sys.stderr)
        return 2
    return 0
