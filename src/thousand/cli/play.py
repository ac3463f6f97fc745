"""``thousand play --plain``: a plain terminal match, a person at seat 0 against bots (medium,
unless ``--level`` says otherwise).

The loop talks through two injectable functions (``ask`` like :func:`input`, ``say`` like
:func:`print`), so a test can script a whole match. Everything shown to the person is rendered
from the person's :class:`~thousand.engine.views.SeatView`; the bots choose from their own views.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from ..bots import LEVELS, Bot, derive_seed, make_bot
from ..bots.base import MOVE_TIME, Limit
from ..bots.levels import ALIASES
from ..cards import CARD_TEXT, SUITS
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
    move_kind,
    played_card,
)
from ..engine.deal import Phase
from ..engine.match import DealReport
from ..engine.views import SeatView, game_view, move_json
from ..prose.moves import GIVING_UP, move_label
from ..prose.table import (
    auction_word,
    event_word,
    heading_word,
    is_default_name,
    result_word,
    said,
    signed,
    suit_word,
)
from ..prose.table import rules_summary as summary_of_rules
from ..prose.titles import template_title
from ..records import record_of_game, write_record
from ..rules import TEMPLATES, Rules
from . import DEFAULT_LEVEL
from .rules import about as template_about
from .selfplay import OptionError, load_template

Ask = Callable[[str], str]
Say = Callable[[str], None]

HUMAN = 0


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
    return " | ".join(groups) if groups else said("no cards")


def cards_line(mask: int) -> str:
    return hand_line(mask, None)


def ordered_moves(view: SeatView) -> list[int]:
    """The legal actions in the order they are numbered: pass first, then the other one-word
    moves, bids and contracts upward, passes by seat, cards as the hand is shown, and last the
    moves that give the deal up (write-off, concession, buyback)."""
    place = card_order(view.trump)

    def key(a: int) -> tuple[int, ...]:
        if a == PASS:
            return (0,)
        if move_kind(a) in GIVING_UP:
            return (10, a)
        if a in (REDEAL, CONTRA, RECONTRA, REBUY):
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


def bot_name(bot: Bot, seat: int) -> str:
    """The name a bot plays under, shown and recorded alike: ``medium-bot-1``, as a server
    names its bots."""
    return f"{ALIASES.get(bot.name, bot.name)}-bot-{seat}"


class Table:
    """Names and rendering for one match, from the person's seat; every sentence comes from
    :mod:`thousand.prose.table`, in the language in force. Each seat is called by the name it
    has in the record."""

    def __init__(self, names: Sequence[str], me: int = HUMAN) -> None:
        self.names = list(names)
        self.seats = len(self.names)
        self.me = me

    def who(self, seat: int) -> str:
        """A seat in a sentence: ``medium-bot-1``, or ``Ann (you)`` for the person (but never
        ``You (you)``)."""
        name = self.names[seat]
        return said("you", name=name) if seat == self.me and not is_default_name(name) else name

    def short(self, seat: int) -> str:
        """A seat in a table heading: its name."""
        return self.names[seat]

    def situation(self, view: SeatView, deal_no: int) -> list[str]:
        """Everything the person may know, when it is the person's turn."""
        lines = ["--- " + said("deal", number=deal_no, who=self.who(view.dealer)) + " ---"]
        if view.match is not None:
            totals = ", ".join(f"{self.short(s)} {t}" for s, t in enumerate(view.match.totals))
            lines.append(said("totals", totals=totals))
            barrel = [
                said("barrel seat", who=self.short(s), left=view.match.barrel_left[s])
                for s in range(view.seats)
                if view.match.on_barrel[s]
            ]
            if barrel:
                lines.append(said("on the barrel", seats=", ".join(barrel)))
        if view.auction:
            bids = ", ".join(
                f"{self.short(s)} {auction_word(move_json(bid(a) if a else PASS))}"
                for s, a in view.auction
            )
            lines.append(said("auction", bids=bids))
        else:
            lines.append(said("no bid"))
        if view.sitter is not None:
            lines.append(said("sitting dealer", who=self.who(view.sitter)))
        if view.shown is not None:
            lines.append(said("shown to forehand", card=CARD_TEXT[view.shown]))
        if view.stock_count:
            lines.append(
                said("stock", count=view.stock_count)
                if view.stock_face_up is None
                else said(
                    "stock face up", count=view.stock_count, card=CARD_TEXT[view.stock_face_up]
                )
            )
        if view.talon is not None:
            lines.append(said("talon", cards=cards_line(view.talon)))
        if view.discarded:
            lines.append(said("you discarded", cards=cards_line(view.discarded)))
        if view.declarer is not None:
            if view.phase is Phase.PLAY:
                lines.append(
                    said(
                        "declarer contract",
                        who=self.who(view.declarer),
                        bid=view.bid,
                        contract=view.contract,
                    )
                )
            else:
                lines.append(said("declarer bid", who=self.who(view.declarer), bid=view.bid))
        if view.received is not None and view.declarer is not None:
            lines.append(
                said(
                    "passed to you by",
                    card=CARD_TEXT[view.received],
                    who=self.who(view.declarer),
                )
            )
        if view.passed is not None:
            given = [
                said("card to", card=CARD_TEXT[c], who=self.short(s))
                for s, c in enumerate(view.passed)
                if c is not None
            ]
            if given:
                lines.append(said("you passed", cards=", ".join(given)))
        if view.phase is Phase.PLAY:
            lines.append(
                said("no trump")
                if view.trump is None
                else said("trump", suit=suit_word(SUITS[view.trump]))
            )
            marriages = [
                f"{self.short(seat)} {suit_word(SUITS[s])} ({CARD_TEXT[k]} {CARD_TEXT[q]})"
                for seat, s, k, q in view.marriage_cards()
            ]
            if marriages:
                lines.append(said("marriages", marriages=", ".join(marriages)))
            taken = ", ".join(f"{self.short(s)} {t}" for s, t in enumerate(view.tricks_won))
            lines.append(said("tricks taken", tricks=taken))
            if view.trick or view.crawl_hidden:
                played = [f"{self.short(s)} {CARD_TEXT[c]}" for s, c in view.trick]
                played += [said("face down", who=self.short(s)) for s in view.crawl_hidden]
                lines.append(said("trick", cards=", ".join(played)))
            else:
                lines.append(said("you lead"))
        if view.hand is not None:
            lines.append(said("your hand", hand=hand_line(view.hand, view.trump)))
        lines.append(said("your moves"))
        lines += move_lines(ordered_moves(view), self.short)
        return lines

    def narrate(self, seat: int, action: int, before: SeatView, after: SeatView) -> list[str]:
        """What the person learns from a move (never a card passed between two other seats)."""
        who = self.who(seat)
        lines: list[str] = []
        if action == PASS:
            lines.append(said("passes", who=who))
        elif is_bid(action):
            lines.append(said("bids", who=who, amount=amount_of(action)))
        elif is_blind(action):
            lines.append(said("bids blind", who=who, amount=amount_of(action)))
        elif is_named(action):
            lines.append(said("bids named", who=who, named=auction_word(move_json(action))))
        elif action in SAYS:
            lines.append(said(SAYS[action], who=who))
        elif is_give(action):
            c, to = give_parts(action)
            if seat == HUMAN or to == HUMAN:
                lines.append(said("gives", who=who, card=CARD_TEXT[c], to=self.who(to)))
            else:
                lines.append(said("gives hidden", who=who, to=self.who(to)))
        elif is_contract(action):
            lines.append(said("names contract", who=who, amount=amount_of(action)))
        elif is_talon(action):
            lines.append(said("takes talon", who=who, number=action - TALON))
        elif is_discard(action):
            c = action - DISCARD
            if seat == HUMAN:
                lines.append(said("discards", who=who, card=CARD_TEXT[c]))
            else:
                lines.append(said("discards hidden", who=who))
        elif ANNOUNCE <= action < ANNOUNCE + 4:
            lines.append(said("declares", who=who, suit=suit_word(SUITS[action - ANNOUNCE])))
        elif is_crawl(action):
            c = action - CRAWL
            if seat == HUMAN:
                lines.append(said("crawls", who=who, card=CARD_TEXT[c]))
            else:
                lines.append(said("crawls hidden", who=who))
        else:
            c = played_card(action)
            if c != action and c % 6 == 5:
                lines.append(
                    said(
                        "leads aces",
                        who=who,
                        card=CARD_TEXT[c],
                        value=after.rules.marriage_aces_value,
                    )
                )
            elif c != action:
                s = c // 6
                if after.trick_trump == s:
                    key = "leads marriage now"
                elif after.trump == s:
                    key = "leads marriage next"
                else:
                    key = "leads marriage"  # marriage.one_trump: the first trump stays
                lines.append(
                    said(
                        key,
                        who=who,
                        card=CARD_TEXT[c],
                        suit=suit_word(SUITS[s]),
                        value=after.rules.marriage_values[s],
                    )
                )
            else:
                lines.append(said("plays", who=who, card=CARD_TEXT[c]))
        if before.declarer is None and after.declarer is not None:
            forced = not any(a for _, a in after.auction)
            lines.append(
                said(
                    "declarer forced" if forced else "declarer at",
                    who=self.who(after.declarer),
                    bid=after.bid,
                )
            )
        if before.talon is None and after.talon is not None:
            lines.append(said("the talon", cards=cards_line(after.talon)))
        if len(after.completed_tricks) > len(before.completed_tricks):
            _, cards, winner = after.completed_tricks[-1]
            played = [
                f"{self.short(s)} {CARD_TEXT[c]}"
                for s, c in zip(after.completed_seats[-1], cards, strict=True)
            ]
            lines.append(said("takes trick", who=self.who(winner), cards=", ".join(played)))
            if after.hand is not None and before.hand is not None:
                drawn = after.hand & ~before.hand
                if drawn and after.stock_count < before.stock_count:
                    lines.append(said("you draw", cards=cards_line(drawn)))
        return lines

    def deal_summary(self, report: DealReport) -> list[str]:
        o = report.outcome
        result = result_word(o.result)
        if o.declarer is None:
            head = said("deal over", result=result)
        else:
            head = said(
                "deal over declarer",
                who=self.who(o.declarer),
                contract=o.contract,
                result=result,
            )
        lines = [head]
        if o.card_points is not None:
            pts = ", ".join(f"{self.short(s)} {p}" for s, p in enumerate(o.card_points))
            lines.append(said("card points", points=pts))
        if o.deal_points is not None:
            pts = ", ".join(f"{self.short(s)} {p}" for s, p in enumerate(o.deal_points))
            lines.append(said("deal scores", points=pts))
        return lines

    def scoresheet(self, reports: Sequence[DealReport]) -> list[str]:
        """A row per deal: declarer, contract, result, each seat's change and total, events."""
        deal, declarer, contract, result, events = (
            heading_word(c) for c in ("deal", "declarer", "contract", "result", "events")
        )
        width = max(13, *(len(self.short(s)) + 1 for s in range(self.seats)))
        widths = [
            max(4, len(deal)),
            max(8, len(declarer), *(len(self.short(s)) for s in range(self.seats))),
            max(8, len(contract)),
            max(11, len(result), *(len(result_word(r.outcome.result)) for r in reports)),
        ]
        head = (
            f"{deal:>{widths[0]}}  {declarer:<{widths[1]}}  {contract:>{widths[2]}}"
            f"  {result:<{widths[3]}}"
        )
        head += "".join(f"  {self.short(s):>{width}}" for s in range(self.seats))
        lines = [said("scoresheet"), f"{head}  {events}"]
        for i, r in enumerate(reports, start=1):
            o = r.outcome
            decl = "-" if o.declarer is None else self.short(o.declarer)
            amount = "-" if o.contract is None else str(o.contract)
            row = (
                f"{i:>{widths[0]}}  {decl:<{widths[1]}}  {amount:>{widths[2]}}"
                f"  {result_word(o.result):<{widths[3]}}"
            )
            for s in range(self.seats):
                cell = f"{r.changes[s]:+d} = {r.totals[s]}"
                row += f"  {cell:>{width}}"
            said_events = "; ".join(
                f"{self.short(e.seat)}: {event_word(e.event)}" for e in r.events
            )
            lines.append(row + ("  " + said_events if said_events else ""))
        return lines


def move_lines(moves: Sequence[int], seat_name: Callable[[int], str]) -> list[str]:
    """The numbered moves: each move's token (what the person may type) and its words."""
    lines = []
    for i, a in enumerate(moves, start=1):
        token = action_text(a)
        words = move_label(move_json(a), seat_name)
        lines.append(f"  {i:>2}. {token}" + (f"  ({words})" if words != token else ""))
    return lines


SAYS: Final = {
    WRITE_OFF: "writes off",
    REDEAL: "asks redeal",
    CONTRA: "says contra",
    RECONTRA: "says recontra",
    CONCEDE: "concedes",
    BUYBACK: "buys back",
    REBUY: "rebuys",
}
"""The sentence (of :mod:`thousand.prose.table`) of each move that is one word."""


def rules_summary(template: str, rules: Rules) -> list[str]:
    """What a player reads before the first deal: the template's name and summary and the rules
    that shape a deal (:func:`thousand.prose.table.rules_summary`)."""
    known = TEMPLATES.get(template)
    return summary_of_rules(template, rules, None if known is None else known.summary)


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


def read_move(
    game: Game,
    view: SeatView,
    moves: Sequence[int],
    ask: Ask,
    say: Say,
    seat_name: Callable[[int], str] = str,
) -> int:
    """Ask until the person gives a legal move: its number or its token, and a write-off
    confirmed. ``q`` quits."""
    while True:
        action = _read_one_move(game, view, moves, ask, say, seat_name)
        if action != WRITE_OFF or confirm_writeoff(view, ask, say, seat_name):
            return action
        say(said("writeoff kept"))


def confirm_writeoff(view: SeatView, ask: Ask, say: Say, seat_name: Callable[[int], str]) -> bool:
    """Say what a write-off changes each total by (the view's ``writeoff_changes``), the
    person's own first, and ask for a yes."""
    say(said("writeoff intro"))
    changes = view.writeoff_changes or ()
    me = view.seat if view.seat is not None else HUMAN
    for s in sorted(range(len(changes)), key=lambda s: s != me):
        say("  " + said("writeoff change", who=seat_name(s), change=signed(changes[s])))
    yes = said("yes")
    try:
        answer = ask(said("writeoff ask", yes=yes)).strip().casefold()
    except EOFError:
        raise Quit from None
    return bool(answer) and answer in {"y", "yes", yes.casefold(), yes.casefold()[:1]}


def _read_one_move(
    game: Game,
    view: SeatView,
    moves: Sequence[int],
    ask: Ask,
    say: Say,
    seat_name: Callable[[int], str],
) -> int:
    assert game.deal is not None
    while True:
        try:
            raw = ask(said("prompt"))
        except EOFError:
            raise Quit from None
        text = _normalise(raw)
        if text.lower() in ("q", "quit"):
            raise Quit
        if not text:
            continue
        if text in ("?", "help"):
            for line in move_lines(moves, seat_name):
                say(line)
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
            say(said("no such move", number=k, count=len(moves)))
            continue
        try:
            return game.deal.check(text)
        except MoveSyntaxError as e:
            say(said("not a move", reason=e))
        except IllegalAction as e:
            say(said("not allowed", reason=e))


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

    ``opponents`` are the bots of seats 1, 2, ...; by default medium bots seeded from ``seed``
    and their seats. Each plays under the name of :func:`bot_name` (``medium-bot-1``), on the
    screen and in the record alike. The cards are dealt from ``random.Random(seed)``.
    ``template`` is the record's variant; ``title`` the template's name as shown (``template``
    by default), and ``about`` what the person reads about it before the first deal.
    """
    n = rules.players_count
    if opponents is None:
        opponents = [make_bot(DEFAULT_LEVEL, derive_seed(seed, "seat", s)) for s in range(1, n)]
    if len(opponents) != n - 1:
        raise ValueError(f"{len(opponents)} bots for the {n - 1} other seats")
    players: list[Bot | None] = [None, *opponents]
    names = [name] + [bot_name(b, s) for s, b in enumerate(opponents, start=1)]
    table = Table(names)
    game = Game.start(rules, players=names)
    rng = random.Random(seed)
    shown = title or template
    say(said("welcome", template=shown, seed=seed, bots=", ".join(names[1:])))
    # The template's own words first, then the rules that shape a deal (without its name line,
    # which ``about`` already gives).
    summary = rules_summary(template, rules)
    for line in [*about, *summary[1:]] if about else summary:
        say(line)
    say(said("how to move"))
    try:
        while not game.over:
            game = game.shuffle_and_deal(rng)
            deal_no = len(game.logs)
            assert game.deal is not None
            say("")
            say(said("deal heading", number=deal_no, who=table.who(game.deal.dealer)))
            if game.deal.sitter == HUMAN:
                say(said("you sit out"))
            else:
                say(said("your hand", hand=hand_line(game_view(game, HUMAN).hand or 0, None)))
            while game.in_deal:
                assert game.deal is not None
                seat = game.deal.to_act
                assert seat is not None
                before = game_view(game, HUMAN)
                bot = players[seat]
                if bot is None:
                    for line in table.situation(before, deal_no):
                        say(line)
                    moves = ordered_moves(before)
                    action = read_move(game, before, moves, ask, say, table.who)
                else:
                    action = bot.choose(game_view(game, seat), Limit(MOVE_TIME))
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
            said(
                "match over",
                who=table.who(winner),
                total=game.match.totals[winner],
                deals=len(game.reports),
            )
        )
    except (Quit, KeyboardInterrupt):
        say(said("quit"))
    if out is not None:
        Path(out).write_text(write_record(record_of_game(game, template)), encoding="utf-8")
        say(said("record written", path=out))
    return game


def run(
    template: str,
    seed: int | None,
    name: str | None,
    out: str | None,
    overrides: str | None = None,
    level: str = DEFAULT_LEVEL,
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
    if name is None:
        name = said("default name")
    n = rules.players_count
    bots = [make_bot(level, derive_seed(seed, "seat", s)) for s in range(1, n)]
    try:
        play(
            rules,
            seed,
            name=name,
            template=chosen.variant,
            out=out,
            title=template_title(chosen.name),
            about=template_about(chosen),
            opponents=bots,
        )
    except BrokenPipeError:
        raise
    except OSError as e:
        print(f"play: cannot write {out}: {e.strerror}", file=sys.stderr)
        return 2
    return 0
