"""What a player reads about each template of rules.md part 3 before the first deal.

A few sentences per template, written from part 3 (and the layouts of part 4) for players, in
the glossary's words. The one-line ``summary`` stays on :class:`~thousand.rules.Template`; the
exact parameters are listed, generated, in docs/rules/templates/.
"""

from __future__ import annotations

DESCRIPTIONS: dict[str, str] = {
    "russian": (
        "Three players, 7 cards each and a talon of 3. Bids go from 100 to 120 in fives; if"
        " forehand and middlehand pass, the dealer must play 100. The declarer takes the talon,"
        " may write the deal off, passes one card to each opponent and may raise its contract"
        " as far as 120 plus the marriages it holds. Follow suit, beat the trick if you can,"
        " trump when void and over-trump a trump. Marriages (hearts 100, diamonds 80, clubs 60,"
        " spades 40) only after taking a trick. Card points are rounded to fives. Three sticks,"
        " three deals without a win or every third write-off cost 120. The barrel at 880 gives"
        " three deals to reach 1000; a total landing on 555 or -555 drops to 0."
    ),
    "russian-classic": (
        "As the big Russian online rooms play. Forehand must bid on its first turn, and bids"
        " run to 400 in fives, but above 120 only as far as 120 plus the marriages in your dealt"
        " hand. You need not beat the trick, nor over-trump. The contract is checked against the"
        " exact card points plus marriages. A write-off gives each opponent 60 and costs no extra"
        " penalty. Three sticks in a row cost 120; there is no no-win penalty and no reset at the"
        " third fall from the barrel; only +555 is a dump truck."
    ),
    "ukrainian": (
        "The Russian game as Ukrainian tables play it: only two deals on the barrel, no"
        " write-off (the declarer must play every contract), no dump truck, no penalties for"
        " sticks or for deals without a win, and no reset at the third fall from the barrel."
    ),
    "polish-2card": (
        "The Polish layout: 7 cards each, a talon of 2 and one card set aside for the declarer."
        " Nobody is forced to bid; bids go up in tens. The talon is shown and the declarer hands"
        " one talon card to each opponent without taking them, then gets the set-aside card: 8"
        " cards each. No raise and no write-off. When you can beat the trick you must beat it"
        " with your highest card of the suit; when void you must play your highest trump, and a"
        " defender must overtrump the declarer. No dump truck, no stick or no-win penalties, no"
        " reset at the third fall."
    ),
    "tysiac": (
        "Polish Tysiąc as online Polish rooms play it, with a three-card musik (talon). Forehand"
        " must bid; bids go up in tens to 400, above 120 only as far as 120 plus the marriages"
        " in your dealt hand. Card points are rounded to tens. A write-off gives each opponent"
        " 60 and costs no extra penalty. There is no barrel: instead a player above 800 scores"
        " only through its own contracts. No dump truck, no stick or no-win penalties."
    ),
    "tysiac-2p": (
        "Tysiąc for two players: 10 cards each and two talons of 2. The declarer picks one"
        " talon, takes it and discards two cards face down, which count for it; the other talon"
        " counts for nobody. Otherwise as tysiac: bids in tens to 400, rounding to tens, no"
        " barrel, and above 800 only your own contracts score."
    ),
    "two-player-a": (
        "Two players, 9 cards each and a stock of 6 whose bottom card is turned up: its suit is"
        " trump from the first trick. One pass ends the auction, and nobody is forced to bid."
        " After each trick the winner, then the loser, draws from the stock; while the stock"
        " lasts any card may be played, and once it is empty the usual duties apply. Twelve"
        " tricks, no write-off, no dump truck, no stick or no-win penalties."
    ),
    "two-player-b": (
        "Two players with a fixed deal: 7 cards each and a talon of 3, the other 7 cards unused."
        " Nobody is forced to bid. The declarer takes the talon, hands one card to the opponent"
        " and lays one face down on its own tricks (its points count for the declarer): 8 cards"
        " each. No write-off, no dump truck, no stick or no-win penalties."
    ),
    "four-player-a": (
        "Four players in two partnerships across the table, sharing one total per side. Six"
        " cards each and no talon: no passing, no raise, no write-off, six tricks. The"
        " declarer's partner's card points and marriages count toward the contract. Nobody is"
        " forced to bid; no dump truck, no stick or no-win penalties."
    ),
    "four-player-b": (
        "Four players in two partnerships across the table, sharing one total per side. The"
        " dealer sits each deal out; the other three play as in the Russian game, with a talon"
        " of 3. The declarer's partner's card points and marriages count toward the contract."
        " Nobody is forced to bid and there is no write-off; no dump truck, no stick or no-win"
        " penalties."
    ),
    "four-player": (
        "Four players, each for themselves. The dealer sits each deal out and scores the talon:"
        " its card points and any marriage in it. The other three play as in the Russian game."
        " Nobody is forced to bid and there is no write-off; no dump truck, no stick or no-win"
        " penalties."
    ),
    "estonian": (
        "Estonian Tuhat. Marriages are clubs 100, spades 80, hearts 60, diamonds 40, and may be"
        " led only by a seat that has taken a trick and holds at least three cards. Bids above"
        " 120 need a marriage in your dealt hand, up to 400; when the first two pass, the dealer"
        " must bid. No write-off. You must follow suit and trump when void, but need not beat"
        " the trick or over-trump. A declarer without an ace may crawl: play the first trick"
        " face down. Card points are exact. A seat dealt four 9s gains 100. No barrel: above 800"
        " only your own contracts score. Three deals in a row scoring nothing cost 100."
    ),
    "soviet-book": (
        "The old Soviet book rules. The deck's first card is shown to all and dealt to forehand."
        " Bids start at 60 and go up in tens to 400, above 120 only with a marriage in your"
        " dealt hand; when the first two pass, the third must bid. The declarer names its final"
        " contract before the talon is shown, then keeps one talon card and gives one to each"
        " opponent. Follow suit and beat the trick, or trump, but no duty to over-trump. Scores"
        " are in tens; a made contract adds your deal score plus the contract. A write-off"
        " gives each opponent 60. No barrel; at 850 or more, a deal in which you score nothing"
        " costs 100."
    ),
}
"""A template's description by name; every template of rules.md part 3 has one."""
