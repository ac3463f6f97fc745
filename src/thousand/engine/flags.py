"""The bits of ``Deal.special``, named in one place: the small facts a deal keeps about itself
beyond its other fields, in one int so that copies stay cheap (search copies deals millions of
times). Each is set and read by the phase that owns it."""

from __future__ import annotations

from typing import Final

CRAWL: Final = 1
"""The crawl may be offered in this deal (``play.crawl``)."""
CRAWLING: Final = 2
"""The trick under way is a crawl, its cards face down."""
STOCK: Final = 4
"""The deal has a draw stock (no duty to follow while it lasts)."""
DOUBLED: Final = 8
"""The contract was doubled (``bidding.contra``)."""
REDOUBLED: Final = 16
"""The contract was redoubled."""
ANNOUNCED: Final = 32
"""The seat on lead declared a marriage from its hand; it leads no other (``marriage.announce``
from-hand)."""
KEEP_TRUMP: Final = 64
"""The trick about to be led keeps the trump in force before that marriage."""
RASPASY: Final = 128
"""Raspasy (``redeal.all_pass``): no declarer, no trump, no marriage."""
BLIND_HIGH: Final = 256
"""The high bid (once the auction is won, the contract) was bid blind (``bidding.blind``)."""
