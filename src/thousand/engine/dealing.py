"""Shuffling and dealing (rules.md 1.2), with an explicit, seeded random generator."""

from __future__ import annotations

import random

from ..cards import DECK_SIZE, JACK, NINE
from ..rules import Rules


def shuffled_deck(rules: Rules, rng: random.Random) -> list[int]:
    """A shuffled deck; with ``deal.bottom_card_guard`` its last card is never a 9 or a J."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    if rules.deal_bottom_card_guard and deck[-1] % 6 in (NINE, JACK):
        for i in range(DECK_SIZE - 2, -1, -1):
            if deck[i] % 6 not in (NINE, JACK):
                deck[i], deck[-1] = deck[-1], deck[i]
                break
    return deck


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> tuple[tuple[int, ...], int]:
    """Deal a shuffled deck: hands (masks, by seat) and the talon (a mask).

    Forehand takes the first ``deal.hand_size`` cards, then the next seats clockwise; the talon
    is the rest. (No promise is made across implementations about how a seed deals.)
    """
    deck = shuffled_deck(rules, rng)
    n = rules.players_count
    size = rules.deal_hand_size
    hands = [0] * n
    pos = 0
    for i in range(n):
        seat = (dealer + 1 + i) % n
        for c in deck[pos : pos + size]:
            hands[seat] |= 1 << c
        pos += size
    talon = 0
    for c in deck[pos:]:
        talon |= 1 << c
    return tuple(hands), talon
