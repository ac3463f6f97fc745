"""Why a hint gives its move, in words: one sentence per kind of reason the bots give
(:class:`~thousand.bots.pimc.Why`, whose fields :func:`reason` takes), in the language in
force."""

from __future__ import annotations

from typing import Final

from ..i18n import tr

SENTENCES: Final = {
    "only": "It is the only move you have.",
    "rule": "The expert bot plays it here by its rules of thumb.",
    "play": "With this card you make the contract of {amount} in {made} of {samples} deals"
    " that fit what you see.",
    "defend": "With this card the contract of {amount} fails in {made} of {samples} deals"
    " that fit what you see.",
    "bid": "You would make {amount} in {made} of {samples} deals that fit what you see.",
    "pass": "You would make {amount} in only {made} of {samples} deals that fit what you see.",
    "give": "Handing this card over, you make {amount} in {made} of {samples} deals that fit"
    " what you see.",
    "write_off": "You would make {amount} in only {made} of {samples} deals that fit what you"
    " see: writing the deal off costs less.",
    "contract": "You make {amount} in {made} of {samples} deals that fit what you see.",
}


def strings() -> set[str]:
    """Every sentence, for the catalogues."""
    return set(SENTENCES.values())


def reason(kind: str, amount: int | None, made: int, samples: int) -> str:
    """Why the hint gives its move, in one sentence: the reason's ``kind`` and, for a sampled
    choice, how many of the ``samples`` deals that fit the view made ``amount``."""
    text = tr(SENTENCES.get(kind, SENTENCES["rule"]))
    return text.format(amount=amount, made=made, samples=samples)
