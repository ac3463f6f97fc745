"""Every rule parameter and every one of its values in words a player understands.

Each parameter has a :class:`Wording`: a ``label`` that starts a sentence and words for its values
that finish it, so ``sentence("bidding.max", 120)`` is "the highest bid is 120" and a diff can
say "the highest bid is 120 in russian, 400 in tysiac". ``rules show``, ``rules diff`` and the
generated rules reference (docs/rules/) all speak through this module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from thousand.i18n import tr
from thousand.rules.model import Rules
from thousand.rules.params import PARAM_BY_NAME, SUIT_KEYS, Param, Value

SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
NOT_PLAYABLE = "not playable yet"


@dataclass(frozen=True)
class Wording:
    """How a parameter reads: ``label`` plus the words of a value make a sentence.

    ``words`` holds the words of named values, keyed as :func:`value_key` writes them (``true``,
    ``false``, ``none``, a choice, or a number such as ``0`` that reads differently); any other
    number is written with ``number``, whose ``{n}`` stands for it.
    """

    label: str
    words: Mapping[str, str] = field(default_factory=dict)
    number: str = "{n}"


def _redeal(holder: str) -> Wording:
    return Wording(
        holder,
        {
            "off": "plays them (no redeal)",
            "optional": "may have the same dealer deal again",
            "mandatory": "must have the same dealer deal again",
        },
    )


def _talon_redeal(label: str) -> Wording:
    return Wording(
        label,
        {
            "off": "is played as it is (no redeal)",
            "any": "lets the declarer demand a redeal, at any contract",
            "minimum-only": "lets the declarer demand a redeal, only at the minimum contract",
        },
    )


def _counted(label: str, amount: str, count: str) -> Wording:
    return Wording(
        label,
        {
            "off": "cost nothing",
            "any": f"cost {{{amount}|a penalty}} when {{{count}|enough}} add up over the match",
            "in-a-row": f"cost {{{amount}|a penalty}} only when {{{count}|enough}} come in a row",
        },
    )


def _named_bid(label: str) -> Wording:
    return Wording(label, {"none": "is not played"}, "is worth {n}")


_ORDINAL = {"2": "second", "3": "third", "4": "fourth", "5": "fifth"}

WORDINGS: dict[str, Wording] = {
    # players and layout
    "players.count": Wording(
        "the table seats", {"2": "two players", "3": "three players", "4": "four players"}
    ),
    "players.partnerships": Wording(
        "the players play",
        {
            "none": "each for themselves",
            "across": "in partnerships across the table (seats 0 and 2 against 1 and 3)",
        },
    ),
    "players.layout": Wording(
        "the cards are dealt",
        {
            "standard": "to the hands and the talon (the standard deal)",
            "draw-stock": "from a draw stock: after each trick both players draw a card",
            "fixed-deal": "to the hands and the talon, the rest of the deck set aside unused",
            "no-talon": "all to the hands, with no talon",
            "dealer-sits-out": "to every seat but the dealer, who sits the deal out",
        },
    ),
    # deal and redeal
    "deal.hand_size": Wording("each seat that plays is dealt", number="{n} cards"),
    "deal.talon_size": Wording("the talon holds", {"0": "no cards (no talon)"}, "{n} cards"),
    "deal.bottom_card_guard": Wording(
        "the shuffled deck",
        {"true": "never ends with a 9 or a jack", "false": "may end with any card"},
    ),
    "deal.first_card_shown": Wording(
        "the deck's first card",
        {"true": "is shown to everyone and goes to forehand", "false": "is dealt face down"},
    ),
    "redeal.four_nines": _redeal("a seat dealt four 9s"),
    "redeal.three_nines": _redeal("a seat dealt exactly three 9s"),
    "redeal.four_jacks": _redeal("a seat dealt four jacks"),
    "redeal.weak_hand": Wording(
        "a seat with a weak dealt hand",
        {
            "off": "plays it (no redeal)",
            "strict": "may ask for a redeal when it holds no marriage, no ace and nothing above a"
            " ten",
            "loose": "may ask for a redeal when it holds no marriage and no ace",
            "counted": "may ask for a redeal when its card points are below"
            " {redeal.weak_hand_below|the weak-hand limit}",
        },
    ),
    "redeal.weak_hand_below": Wording(
        "the weak-hand limit (for the counted redeal) is", number="{n} card points"
    ),
    "redeal.bad_talon": _talon_redeal("a poor talon"),
    "redeal.bad_talon_below": Wording("a talon is poor below", number="{n} card points"),
    "redeal.two_nines_in_talon": _talon_redeal("a talon holding exactly two 9s"),
    "redeal.all_pass": Wording(
        "when everybody passes without a bid,",
        {
            "redeal": "the same dealer deals again",
            "pass-on": "the deal passes unscored to the next dealer",
            "raspasy": "raspasy is played: eight tricks without trump, each seat losing its own"
            " card points",
        },
    ),
    # bidding
    "bidding.min": Wording("the lowest bid (and a forced contract) is"),
    "bidding.max": Wording("the highest bid is"),
    "bidding.marriage_cap": Wording(
        "bidding above 120",
        {
            "off": "is open to anyone, up to the highest bid",
            "needs-marriage": "needs a marriage in the bidder's dealt hand",
            "plus-marriages": "goes at most to 120 plus the marriages in the bidder's dealt hand",
        },
    ),
    "bidding.step": Wording("bids below the big-step point go up in", {"5": "fives", "10": "tens"}),
    "bidding.big_step": Wording(
        "bids from the big-step point go up in", {"5": "fives", "10": "tens", "20": "twenties"}
    ),
    "bidding.big_step_from": Wording("the big-step point is"),
    "bidding.forced": Wording(
        "the seat that must bid is",
        {
            "none": "nobody (every seat may pass)",
            "forehand": "forehand, on its first turn",
            "dealer": "the dealer, at {bidding.min|the minimum}, when the others pass without a"
            " bid",
            "last-seat": "the last seat to speak, when all the others pass without a bid",
        },
    ),
    "bidding.reentry": Wording(
        "a seat that passed",
        {
            "true": "may bid once more when its turn comes round again",
            "false": "is out of the auction",
        },
    ),
    "bidding.blind": Wording(
        "a blind bid (before seeing your hand)",
        {
            "off": "is not played",
            "first-bid": "may be a seat's first bid, its contract counting"
            " {bidding.blind_multiplier|several} times",
        },
    ),
    "bidding.blind_multiplier": Wording(
        "a won blind bid's contract counts", {"1": "once"}, "{n} times"
    ),
    "bidding.silence_below": Wording(
        "bidding (unless forced)",
        {"none": "is open to every seat"},
        "is barred to a seat whose total is below {n}",
    ),
    "bidding.contra": Wording(
        "doubling the contract",
        {
            "off": "is not played",
            "contra": "is played: a defender may say contra",
            "contra-recontra": "is played: a defender may say contra, the declarer recontra",
        },
    ),
    "bidding.contra_multiplier": Wording("each contra and recontra multiplies the contract by"),
    "bidding.forced_concession": Wording(
        "a seat forced to the minimum contract",
        {
            "off": "must play the deal",
            "equal-split": "may concede before the talon is shown, the others sharing the contract",
            "each-full": "may concede before the talon is shown, each other seat gaining the"
            " whole contract",
        },
    ),
    # talon and contract
    "talon.distribution": Wording(
        "with the talon, the declarer",
        {
            "take-and-pass": "takes it and passes a card to each other seat",
            "pass-without-taking": "hands its cards out without taking them, and gets a card"
            " set aside for it",
            "keep-one": "keeps one of its cards and gives one to each opponent",
            "choose-talon": "picks one of two talons, takes it and discards two cards",
        },
    ),
    "talon.shown": Wording(
        "the defenders",
        {
            "always": "always see the talon",
            "not-on-minimum": "see the talon, except when the contract is the minimum and nobody"
            " bid more",
            "never": "never see the talon",
        },
    ),
    "talon.open_pass": Wording(
        "the cards the declarer passes are",
        {"true": "shown to everyone", "false": "seen only by the seat that gets them"},
    ),
    "talon.rebuy": Wording(
        "after the talon is shown, the other seats",
        {
            "true": "may each take the contract over at {talon.rebuy_contract|the rebuy contract}",
            "false": "may not take the contract over",
        },
    ),
    "talon.rebuy_contract": Wording("the rebuy contract is"),
    "talon.buyback": Wording(
        "before taking the talon, the declarer",
        {
            "true": "may throw in for {talon.buyback_cost|the buyback cost}, and the same dealer"
            " deals again",
            "false": "may not throw in",
        },
    ),
    "talon.buyback_cost": Wording("throwing in before the talon costs"),
    "contract.raise": Wording(
        "after passing, the declarer",
        {"true": "may raise its contract", "false": "plays its bid as the contract"},
    ),
    "contract.raise_limit": Wording(
        "the highest contract the declarer may name is",
        {"achievable": "120 plus the marriages it holds"},
    ),
    "contract.before_talon": Wording(
        "the declarer names its final contract",
        {"true": "before the talon is shown", "false": "after taking the talon"},
    ),
    # write-off
    "writeoff.allowed": Wording(
        "writing off the deal after seeing the talon is",
        {"true": "allowed", "false": "not allowed"},
    ),
    "writeoff.opponents_get": Wording(
        "after a write-off each opponent gains",
        {
            "half-bid": "half the contract",
            "equal-split": "an equal share of the contract",
            "fixed": "a fixed {writeoff.fixed|amount}",
        },
    ),
    "writeoff.fixed": Wording("the fixed amount an opponent gains from a write-off is"),
    "writeoff.penalty_every": Wording(
        "write-offs",
        {
            "0": "cost the declarer no further penalty",
            **{
                k: f"cost the declarer a further {{writeoff.penalty|penalty}} at every {v}"
                " write-off"
                for k, v in _ORDINAL.items()
            },
        },
    ),
    "writeoff.penalty": Wording("the further write-off penalty is"),
    # play
    "play.must_beat": Wording(
        "following suit, you",
        {
            "off": "need not beat the trick",
            "on": "must beat the trick's winning card if you can",
            "highest": "must beat it if you can, with your highest card of the suit",
        },
    ),
    "play.must_trump": Wording(
        "void in the suit led, you",
        {
            "off": "may play any card",
            "on": "must play a trump if you hold one",
            "highest": "must play your highest trump if you hold one",
        },
    ),
    "play.must_overtrump": Wording(
        "when you trump, you",
        {
            "true": "must beat a trump already in the trick if you can",
            "false": "may play any trump",
        },
    ),
    "play.partial_trumping": Wording(
        "a seat that cannot beat a trump already in the trick",
        {"true": "may discard instead of under-trumping", "false": "must still play a trump"},
    ),
    "play.defender_overtrumps_declarer": Wording(
        "a defender void in the suit led",
        {
            "true": "must overtrump a trump the declarer played, if it can",
            "false": "has no extra duty against the declarer's trump",
        },
    ),
    "play.lead_trump_after_marriage": Wording(
        "after declaring a marriage, your next lead",
        {"true": "must be a trump if you hold one", "false": "may be any card"},
    ),
    "play.crawl": Wording(
        "the Estonian crawl (a declarer without an ace plays the first trick face down)",
        {"true": "is played", "false": "is not played"},
    ),
    "play.last_trick_bonus": Wording(
        "the last trick", {"0": "earns no bonus"}, "earns its winner {n} more"
    ),
    "play.slam": Wording(
        "a declarer who takes every trick",
        {
            "off": "gains nothing extra",
            "fixed": "gains a further {play.slam_bonus|slam bonus}",
            "double": "gains double the contract",
        },
    ),
    "play.slam_bonus": Wording("the slam bonus is"),
    # marriages
    "marriage.values": Wording("the marriages are worth"),
    "marriage.trick_required": Wording(
        "a marriage may be declared",
        {"true": "only after its holder has taken a trick", "false": "before taking any trick"},
    ),
    "marriage.min_hand": Wording(
        "to lead a marriage you must hold", {"0": "any number of cards"}, "at least {n} cards"
    ),
    "marriage.trump_from": Wording(
        "a marriage's suit becomes trump",
        {"next-trick": "from the next trick", "this-trick": "already in the trick it leads"},
    ),
    "marriage.announce": Wording(
        "a marriage is declared",
        {
            "on-lead": "by leading its king or queen",
            "from-hand": "by announcing it from the hand, then leading any card",
        },
    ),
    "marriage.one_trump": Wording(
        "later marriages",
        {
            "true": "only score: the first marriage's suit stays trump",
            "false": "each make their suit trump",
        },
    ),
    "marriage.aces": Wording(
        "four aces in one hand",
        {
            "off": "are no marriage",
            "on": "may be declared like a marriage worth"
            " {marriage.aces_value|the four-aces value}, by leading an ace",
            "sets-trump": "may be declared like a marriage, the led ace's suit being trump at once",
        },
    ),
    "marriage.aces_value": Wording("the four-aces marriage is worth"),
    "marriage.half_bonus": Wording(
        "capturing the king and queen of a suit, neither declared,",
        {"0": "scores nothing"},
        "scores {n}",
    ),
    "marriage.four_nines_bonus": Wording(
        "a seat dealt four 9s", {"0": "gains nothing for them"}, "gains {n} for them"
    ),
    # scoring
    "scoring.round_to": Wording(
        "card points are",
        {"1": "exact (not rounded)", "5": "rounded to fives", "10": "rounded to tens"},
    ),
    "scoring.round_before_check": Wording(
        "the contract is checked against",
        {"true": "the rounded deal score", "false": "the exact card points plus marriages"},
    ),
    "scoring.declarer_gains": Wording(
        "a made contract adds",
        {
            "contract": "the contract",
            "max-of-contract-and-score": "the larger of the contract and the deal score",
            "score-plus-contract": "the deal score plus the contract",
        },
    ),
    "scoring.failed_contract": Wording(
        "a failed contract's points",
        {
            "lost": "are lost",
            "split-to-defenders": "are shared among the defenders",
            "each-defender": "go to each defender in full",
        },
    ),
    "scoring.pooled_defenders": Wording(
        "the defenders' deal scores",
        {"true": "are pooled and shared equally", "false": "are each their own"},
    ),
    "scoring.only_bids_above": Wording(
        "defenders gain points",
        {"none": "whatever their total"},
        "only while their total is at most {n} (above it, only their own contracts score)",
    ),
    "scoring.zero_penalty_from": Wording(
        "scoring nothing in a deal",
        {"none": "costs nothing"},
        "costs {scoring.zero_penalty|a penalty} from a total of {n}",
    ),
    "scoring.zero_penalty": Wording("the penalty for scoring nothing is"),
    "golden.deals": Wording(
        "golden deals (no auction; forehand plays the target minus the barrel)",
        {"0": "are not played", "1": "are the first deal only"},
        "are the first {n} deals",
    ),
    "golden.marriages_doubled": Wording(
        "in golden deals, marriages", {"true": "count double", "false": "count as usual"}
    ),
    "golden.contract_doubled": Wording(
        "in golden deals, the contract", {"true": "counts double", "false": "counts as usual"}
    ),
    "golden.if_all_fail": Wording(
        "when every golden deal was failed,",
        {
            "continue": "play carries on",
            "replay": "the golden deals are played again",
            "reset": "every total goes back to 0 and play carries on",
        },
    ),
    # barrel and end of the match
    "barrel.threshold": Wording("the barrel", {"none": "is not played"}, "is at {n}"),
    "barrel.deals": Wording(
        "a seat on the barrel has",
        {"0": "no limit of deals (it stays until it wins or is knocked off)", "1": "one deal"},
        "{n} deals",
    ),
    "barrel.fall": Wording("a fall from the barrel costs"),
    "barrel.collision": Wording(
        "when another seat mounts the barrel,",
        {
            "last-mounted": "the last to mount stays and the others are knocked off",
            "first-mounted": "the first to mount stays and the others are knocked off",
            "all-fall": "every seat on it is knocked off",
            "coexist": "they all stay on it",
        },
    ),
    "barrel.three_falls_reset": Wording(
        "a seat's third fall from the barrel",
        {"true": "sends its total back to 0", "false": "is like any other fall"},
    ),
    "barrel.overshoot": Wording(
        "a declarer on the barrel who fails a contract above 120",
        {"true": "falls to the barrel minus that contract", "false": "is scored as usual"},
    ),
    "barrel.pit": Wording(
        "the pit",
        {"none": "is not played"},
        "is at {n}: a total crossing it stops there until the seat makes a contract or loses"
        " points",
    ),
    "barrel.reverse": Wording(
        "the mirror barrel below zero",
        {"true": "is played: reaching minus the target loses the match", "false": "is not played"},
    ),
    "barrel.reverse_fallback": Wording("a fall from the mirror barrel drops a total to"),
    "game.target": Wording("the match is won at"),
    "game.over_target": Wording(
        "a total past the target",
        {"win": "wins", "exact": "is held just below it (the target must be hit exactly)"},
    ),
    "game.tiebreak": Wording(
        "when several seats reach the target,",
        {
            "declarer": "the declarer wins",
            "highest": "the highest total wins",
            "continue": "the target goes up by 500 and play goes on",
        },
    ),
    "game.dump_truck": Wording(
        "the dump truck (a total landing exactly on its number drops to 0)",
        {
            "off": "is not played",
            "positive": "works on the plus number only",
            "both": "works on the plus and the minus number",
        },
    ),
    "game.dump_truck_at": Wording("the dump truck's number is"),
    # penalties
    "penalty.sticks": _counted("sticks", "penalty.sticks_amount", "penalty.sticks_count"),
    "penalty.sticks_count": Wording("the stick penalty comes at", number="{n} sticks"),
    "penalty.sticks_amount": Wording("the stick penalty is"),
    "penalty.sticks_on": Wording(
        "a stick is a deal in which the seat",
        {"tricks": "takes no trick", "points": "scores nothing (a deal score of 0)"},
    ),
    "penalty.sticks_declarer_exempt": Wording(
        "the declarer", {"true": "never gets a stick", "false": "gets sticks like anyone"}
    ),
    "penalty.sticks_doubled": Wording(
        "a stick counts",
        {
            "off": "once, always",
            "golden": "twice in a golden deal",
            "blind": "twice in a deal whose contract was bid blind",
            "both": "twice in a golden deal and in a deal bid blind",
        },
    ),
    "penalty.no_win": _counted(
        "deals without a win", "penalty.no_win_amount", "penalty.no_win_count"
    ),
    "penalty.no_win_count": Wording(
        "the no-win penalty comes at", number="{n} deals without a win"
    ),
    "penalty.no_win_amount": Wording("the no-win penalty is"),
    "penalty.cross": Wording(
        "a failed declarer",
        {
            "true": "loses nothing at once but gets a cross, and its second cross costs a penalty",
            "false": "is scored at once",
        },
    ),
    "penalty.cross_amount": Wording("the second cross costs"),
    # named contracts
    "special.misere": _named_bid("a misère bid (take no trick)"),
    "special.slam": _named_bid("a slam bid (take every trick)"),
    "special.open_hand": _named_bid("an open-hand bid (play with your hand shown)"),
    # four players
    "four.sitter_scores": Wording(
        "a dealer who sits out scores",
        {
            "nothing": "nothing",
            "talon-points": "the talon's card points",
            "talon-points-and-marriage": "the talon's card points and any marriage in it",
            "aces-50-and-marriage": "50 for each ace in the talon and any marriage in it",
        },
    ),
}


def value_key(value: Value) -> str:
    """A value as :attr:`Wording.words` keys it: ``true``, ``false``, ``none``, the text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def spec_word(value: Value) -> str:
    """A value as the spec's tables write it: ``true``, ``none``, ``off``, ``120``."""
    if isinstance(value, tuple):
        return ", ".join(f"{s} {v}" for s, v in zip(SUIT_KEYS, value, strict=True))
    return value_key(value)


def _suit_values(values: tuple[int, ...]) -> str:
    """``hearts 100, diamonds 80, clubs 60, spades 40``: the dearest marriage first."""
    pairs = sorted(zip(SUIT_KEYS, values, strict=True), key=lambda p: (-p[1], p[0]))
    return ", ".join(f"{tr(SUIT_WORDS[s])} {v}" for s, v in pairs)


_PLACE = re.compile(r"\{([a-z_]+\.[a-z0-9_]+)\|([^}]*)\}")
"""``{writeoff.fixed|amount}``: another parameter's value where the rules are known, else the
words after the bar."""


def _fill(text: str, rules: Rules | None) -> str:
    if rules is None:
        return _PLACE.sub(lambda m: m[2], text)
    return _PLACE.sub(lambda m: spec_word(rules.value(m[1])), text)


def value_words(name: str, value: Value, rules: Rules | None = None) -> str:
    """The words that finish the parameter's sentence for ``value`` ("400", "forehand, ...").

    With ``rules``, words that depend on another parameter name its value ("a fixed 60");
    without, they say it in general ("a fixed amount").
    """
    wording = WORDINGS[name]
    if isinstance(value, tuple):
        return _suit_values(value)
    key = value_key(value)
    if key in wording.words:
        return _fill(tr(wording.words[key]), rules)
    if isinstance(value, int) and not isinstance(value, bool):
        return _fill(tr(wording.number), rules).replace("{n}", str(value))
    raise KeyError(f"no words for {name} = {key}")


def sentence(name: str, value: Value, rules: Rules | None = None) -> str:
    """The parameter's value as a sentence without its full stop: "the highest bid is 400"."""
    return f"{tr(WORDINGS[name].label)} {value_words(name, value, rules)}"


def heading(param: Param) -> str:
    """The parameter's section of rules.md part 2 as a heading: "Talon and contract"."""
    section = tr(param.section)
    return section[:1].upper() + section[1:]


def playable(name: str, value: Value) -> bool:
    """Whether the engine plays this value of the parameter today (its ``supported`` values)."""
    return PARAM_BY_NAME[name].is_supported(value)


def named_values(param: Param) -> list[Value]:
    """The values of a parameter worth listing one by one: the named ones, the numbers that
    read differently, and every number of a short list (``0, 2, 3``)."""
    if param.kind == "bool":
        return [True, False]
    found: list[Value] = []
    if param.kind == "int-or-none":
        found.append(None)
    found += list(param.choices)
    wording = WORDINGS[param.name]
    numbers = {int(k) for k in wording.words if k.lstrip("-").isdigit()}
    numbers.update(param.allowed_ints or ())
    found += sorted(numbers)
    return found
