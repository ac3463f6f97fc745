"""What the terminal games say, in the language in force: the Textual client (``thousand play``)
and the line-based game (``thousand play --plain``).

Every sentence is here once, in English, keyed by what it says: the table's lines, what each
seat did, the end of a deal, the scoresheet, the rules before the first deal, the prompts.
:func:`said` gives one in the language in force with its parts put in (``said("passes",
who="Seat 1")``); the games compose no sentence of their own. The engine's refusal reasons
(:class:`~thousand.engine.IllegalAction`) are the referee's words, kept in records, and stay
English; a game shows them inside a translated sentence ("Not allowed: ...").
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from ..i18n import LANGUAGES, language, tr
from ..rules.layout import CHOOSE_TALON, FIXED_DEAL, KEEP_ONE, NO_TALON, WITHOUT_TAKING, Layout
from ..rules.model import Rules
from .titles import template_title
from .words import SUIT_WORDS

SENTENCES: Final = {
    # seats
    "seat": "seat {seat}",
    "you": "{name} (you)",
    "default name": "You",
    # the table, line by line (the client and the line game)
    "dealer line": "Dealer: {dealer}    To act: {to_act}    Phase: {phase}",
    "sitting out": "Sitting out: {who}",
    "sitting dealer": "Sitting out: {who} (the dealer)",
    "shown card": "Shown card: {card}",
    "shown to forehand": "Shown to all and dealt to forehand: {card}",
    "stock": "Stock: {count} cards",
    "stock face up": "Stock: {count} cards, {card} face up",
    "talons": "Talons: {count}, face down",
    "auction": "Auction: {bids}",
    "no bid": "Auction: no bid yet",
    "blind bid": "blind {amount}",
    "declarer bid": "Declarer: {who}, bid {bid}",
    "declarer contract": "Declarer: {who}, bid {bid}, contract {contract}",
    "named contract": "Named contract: {named}",
    "open hand": "Declarer's open hand: {cards}",
    "talon": "Talon: {cards}",
    "passed to you": "Passed to you: {card}",
    "passed to you by": "Passed to you: {card} by {who}",
    "card to": "{card} to {who}",
    "you passed": "You passed: {cards}",
    "you discarded": "You discarded: {cards}",
    "trump": "Trump: {suit}",
    "no trump": "Trump: none yet",
    "marriages": "Marriages: {marriages}",
    "no marriages": "Marriages: none",
    "tricks taken": "Tricks taken: {tricks}",
    "face down": "{who} (face down)",
    "trick": "Trick: {cards}",
    "no trick": "Trick: -",
    "you lead": "Trick: you lead",
    "last trick": "Last trick: {cards}, taken by {who}",
    "your hand": "Your hand: {hand}",
    "no cards": "(no cards)",
    "watching": "Watching",
    "totals": "Totals: {totals}",
    "barrel seat": "{who} ({left} deals left)",
    "on the barrel": "On the barrel: {seats}",
    "your moves": "Your moves:",
    # what a seat did
    "deal": "Deal {number}, dealer {who}",
    "did": "{who}: {move}",
    "passes": "{who} passes",
    "bids": "{who} bids {amount}",
    "bids blind": "{who} bids {amount} blind",
    "bids named": "{who} bids {named}",
    "writes off": "{who} writes the deal off",
    "asks redeal": "{who} asks for a redeal",
    "says contra": "{who} says contra",
    "says recontra": "{who} says recontra",
    "concedes": "{who} says concede",
    "buys back": "{who} says buyback",
    "rebuys": "{who} says rebuy",
    "gives": "{who} gives {card} to {to}",
    "gives hidden": "{who} gives a card to {to}",
    "names contract": "{who} names the contract: {amount}",
    "takes talon": "{who} takes talon {number}",
    "discards": "{who} discards {card} face down",
    "discards hidden": "{who} discards a card face down",
    "declares": "{who} declares the {suit} marriage from its hand",
    "crawls": "{who} crawls: a card face down ({card})",
    "crawls hidden": "{who} crawls: a card face down",
    "plays hidden": "{who} plays a card face down",
    "leads aces": "{who} leads {card} and declares the four aces ({value})",
    "leads marriage": "{who} leads {card} and declares the {suit} marriage ({value})",
    "leads marriage now": "{who} leads {card} and declares the {suit} marriage ({value}); {suit}"
    " are trump from this trick",
    "leads marriage next": "{who} leads {card} and declares the {suit} marriage ({value});"
    " {suit} are trump from the next trick",
    "plays": "{who} plays {card}",
    "declarer at": "{who} is declarer at {bid}",
    "declarer forced": "{who} is declarer at {bid} (forced)",
    "the talon": "The talon: {cards}",
    "takes trick": "{who} takes the trick ({cards})",
    "you draw": "You draw {cards} from the stock",
    # the end of a deal and of the match
    "deal over": "Deal over: {result}",
    "deal over declarer": "Deal over: {who}, contract {contract}: {result}",
    "card points": "Card points: {points}",
    "deal scores": "Deal scores: {points}",
    "scoresheet": "Scoresheet",
    "match over": "Match over: {who} wins with {total} after {deals} deals.",
    "match over rematch": "Match over: {who} wins. Press r for a rematch, q to quit.",
    # the games' own lines
    "connecting": "Connecting...",
    "table url": "table {url}",
    "friends join": "Friends join with: thousand play --join {url}",
    "password prompt": "Password for {name} at {server}: ",
    "no password": "no password given: signing in needs one",
    "waiting seats": "Waiting for every seat to be taken...",
    "waiting deal": "Waiting for the first deal...",
    "refused": "Refused: {reason}",
    "welcome": "Thousand ({template}), seed {seed}. You are seat 0; the others are bots ({bots}).",
    "how to move": "Type a move's number or the move itself (Qh+, give 9s 2, contract 120);"
    " q quits.",
    "deal heading": "=== Deal {number}: dealer {who} ===",
    "you sit out": "You deal and sit this deal out.",
    "prompt": "Your move (number or move, q to quit): ",
    "no such move": "There is no move {number}: choose a number from 1 to {count}, or type a move.",
    "not a move": "Not a move: {reason}; type ? for the moves.",
    "not allowed": "Not allowed: {reason}",
    "quit": "Quit.",
    "record written": "Record written to {path}",
    # writing a deal off, confirmed first
    "writeoff title": "Write this deal off?",
    "writeoff intro": "You give up the deal without playing it. The totals change:",
    "writeoff change": "{who}: {change}",
    "writeoff confirm": "Write the deal off",
    "cancel": "Cancel",
    "writeoff ask": "Write the deal off? Type {yes} to confirm, anything else to choose again: ",
    "yes": "yes",
    "writeoff kept": "The deal is not written off; choose your move.",
    # the standings beside the scoresheet
    "total": "Total",
    "player": "Player",
    # the keys in the footer
    "key quit": "Quit",
    "key rematch": "Rematch (when the match is over)",
}
"""Every sentence of the games, by key."""

PHASES: Final = {
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
"""What each phase of a deal is called on the table's first line."""

NAMED: Final = {
    "misere": "misère (the declarer must take no trick)",
    "open": "open hand (the declarer plays with its hand shown)",
    "slam": "slam (the declarer must take every trick)",
}
"""How the table names a named contract (rules.md part 2, ``special.*``)."""

NAMED_BIDS: Final = {"misere": "misère", "open": "open hand", "slam": "slam"}
"""A named bid in the auction's list and in what a seat did."""

FOUR_ACES: Final = "four aces"

RESULTS: Final = {
    "made": "made",
    "failed": "failed",
    "written-off": "written off",
    "conceded": "conceded",
    "bought-back": "bought back",
    "redealt": "redealt",
    "passed-on": "passed on",
    "raspasy": "raspasy",
    "unfinished": "unfinished",
}
"""A deal's result (a record's ``result``) on the scoresheet."""

EVENTS: Final = {
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
"""A match event (a report's ``events``) on the scoresheet."""

HEADINGS: Final = {
    "deal": "Deal",
    "declarer": "Declarer",
    "contract": "Contract",
    "result": "Result",
    "events": "Events",
}
"""The scoresheet's column headings."""


def said(key: str, **parts: Any) -> str:
    """The sentence ``key`` in the language in force, its parts put in."""
    return tr(SENTENCES[key]).format(**parts)


def is_default_name(name: str) -> bool:
    """Whether ``name`` is the name a player gets without ``--name`` ("You", "Вы", ...) in any
    language: such a seat is not called "You (you)"."""
    return name.casefold() in _default_names()


@cache
def _default_names() -> frozenset[str]:
    found = set()
    for lang in LANGUAGES:
        with language(lang):
            found.add(said("default name").casefold())
    return frozenset(found)


def signed(change: int) -> str:
    """A change of a total: ``+50``, ``-120``, ``0``."""
    return f"{change:+d}" if change else "0"


def phase_word(phase: str) -> str:
    return tr(PHASES[phase]) if phase in PHASES else phase


def suit_word(suit: str) -> str:
    """A suit (``c``, ``d``, ``h``, ``s``) or the four aces (``a``) in words."""
    return tr(FOUR_ACES) if suit == "a" else tr(SUIT_WORDS[suit])


def named_words(named: str) -> str:
    return tr(NAMED[named]) if named in NAMED else named


def result_word(result: str) -> str:
    return tr(RESULTS[result]) if result in RESULTS else result


def event_word(event: str) -> str:
    return tr(EVENTS[event]) if event in EVENTS else event


def heading_word(column: str) -> str:
    return tr(HEADINGS[column])


def auction_word(move: dict[str, Any]) -> str:
    """A typed auction move in the auction's list: ``pass``, ``120``, ``blind 120``, ``slam``."""
    kind = move["kind"]
    if kind == "pass":
        return tr("pass")
    if kind == "blind":
        return said("blind bid", amount=move["amount"])
    if kind == "named":
        return tr(NAMED_BIDS[move["named"]])
    return str(move.get("amount", move.get("token", kind)))


# -- the rules, before the first deal -----------------------------------------------------------

SUMMARY: Final = {
    "rules": "Rules: {template}",
    "rules summary": "Rules: {template}. {summary}",
    "players": "{n} players",
    "partnerships": "{n} players in partnerships across the table (seats 0 and 2, 1 and 3)",
    "sits out": "the dealer sits out each deal",
    "sits out scores": "the dealer sits out each deal and scores the talon ({how})",
    "deal": "{seats}; {cards} cards each; {talon}.",
    "draw stock": "the rest is a draw stock, its bottom card face up and its suit trump; after"
    " each trick the winner, then the other, draws; no duty to follow while the stock lasts",
    "no talon": "no talon; play starts right after the auction",
    "fixed deal": "a talon of {size}, the rest set aside; the declarer takes the talon, hands one"
    " card over and discards one onto its tricks",
    "choose talon": "two talons of {size}: the declarer picks one, takes it and discards {size}"
    " onto its tricks",
    "without taking": "a talon of {size} and a card set aside: the declarer hands the talon's"
    " cards to the others and takes the card set aside",
    "keep one": "a talon of {size}: the declarer keeps one card and hands one to each opponent",
    "take and pass": "a talon of {size}: the declarer takes it and passes a card to each other"
    " player",
    "first card shown": "The deck's first card is shown to all and goes to forehand.",
    "forced none": "nobody must bid (all pass: redeal)",
    "forced forehand": "forehand must bid",
    "forced dealer": "the dealer plays {min} when the others pass",
    "forced last-seat": "the last seat must bid when the others pass",
    "steps": "in steps of {step}",
    "big steps": "in steps of {step} ({big} from {from_})",
    "bids": "Bids from {min} to {max}, {steps}; {forced}.",
    "contract first": "the contract is named before the talon is shown",
    "no write-off": "no write-off",
    "crawl": "a declarer without an ace may crawl the first trick face down",
    "four nines": "four 9s dealt gain {bonus}",
    "target barrel": "game to {target}, the barrel at {barrel}",
    "target": "game to {target}, no barrel",
}
"""The rules that shape a deal, as the line game says them before the first deal."""

SITTER_SCORES: Final = {
    "talon-points": "the talon's card points",
    "talon-points-and-marriage": "the talon's card points and any marriage in it",
    "aces-50-and-marriage": "50 for each ace in the talon and any marriage in it",
}


def _summary(key: str, **parts: Any) -> str:
    return tr(SUMMARY[key]).format(**parts)


def _talon_words(rules: Rules) -> str:
    layout = Layout.of(rules)
    size = layout.talon_size
    if layout.stock_size:
        return _summary("draw stock")
    key = {
        NO_TALON: "no talon",
        FIXED_DEAL: "fixed deal",
        CHOOSE_TALON: "choose talon",
        WITHOUT_TAKING: "without taking",
        KEEP_ONE: "keep one",
    }.get(layout.procedure, "take and pass")
    return _summary(key, size=size)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def rules_summary(template: str, rules: Rules, summary: str | None = None) -> list[str]:
    """What a player reads before the first deal: the template's title (and ``summary``) and
    the rules that shape a deal, from the rules' own parameters; each line but the first
    indented."""
    title = template_title(template)
    first = (
        _summary("rules", template=title)
        if summary is None
        else _summary("rules summary", template=title, summary=tr(summary))
    )
    lines = [first]
    n = rules.players_count
    layout = Layout.of(rules)
    seats = _summary("partnerships" if rules.players_partnerships == "across" else "players", n=n)
    if layout.dealer_sits_out:
        how = rules.four_sitter_scores
        sitting = (
            _summary("sits out")
            if how == "nothing"
            else _summary("sits out scores", how=tr(SITTER_SCORES.get(how, how)))
        )
        seats = f"{seats}; {sitting}"
    lines.append(
        "  " + _summary("deal", seats=seats, cards=layout.hand_size, talon=_talon_words(rules))
    )
    if layout.shown:
        lines.append("  " + _summary("first card shown"))
    forced = _summary(f"forced {rules.bidding_forced}", min=rules.bidding_min)
    if (
        rules.bidding_big_step != rules.bidding_step
        and rules.bidding_max >= rules.bidding_big_step_from
    ):
        steps = _summary(
            "big steps",
            step=rules.bidding_step,
            big=rules.bidding_big_step,
            from_=rules.bidding_big_step_from,
        )
    else:
        steps = _summary("steps", step=rules.bidding_step)
    lines.append(
        "  "
        + _summary("bids", min=rules.bidding_min, max=rules.bidding_max, steps=steps, forced=forced)
    )
    extras = []
    if rules.contract_before_talon:
        extras.append(_summary("contract first"))
    if not rules.writeoff_allowed:
        extras.append(_summary("no write-off"))
    if rules.play_crawl:
        extras.append(_summary("crawl"))
    if rules.marriage_four_nines_bonus:
        extras.append(_summary("four nines", bonus=rules.marriage_four_nines_bonus))
    if rules.barrel_threshold is None:
        extras.append(_summary("target", target=rules.game_target))
    else:
        extras.append(
            _summary("target barrel", target=rules.game_target, barrel=rules.barrel_threshold)
        )
    lines.append(f"  {_capital('; '.join(extras))}.")
    return lines


def strings() -> set[str]:
    """Every string this module passes to ``tr`` (for the catalogues)."""
    return {
        *SENTENCES.values(),
        *PHASES.values(),
        *NAMED.values(),
        *NAMED_BIDS.values(),
        FOUR_ACES,
        *RESULTS.values(),
        *EVENTS.values(),
        *HEADINGS.values(),
        *SUMMARY.values(),
        *SITTER_SCORES.values(),
    }
