"""Characters no request may carry: lone surrogates (they cannot be written as UTF-8, so an
answer that echoes one fails) and control characters (PostgreSQL refuses a NUL; the others
are never part of a name, an id or a rule value)."""

from __future__ import annotations

import unicodedata
from typing import Any


def odd_character(text: str) -> str | None:
    """What is wrong with ``text`` in a few words (``a lone surrogate U+D800``), or None."""
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Cs":
            return f"a lone surrogate U+{ord(ch):04X}"
        if kind == "Cc":
            return f"a control character U+{ord(ch):04X}"
    return None


#: a place in a JSON value: the place it is in (None: the top) and its own key or index
Place = tuple["Place | None", str]


#: the most characters of a key, and of a whole place, that a sentence shows
KEY_SHOWN = 32
PLACE_SHOWN = 120


def odd_in(value: Any, where: str) -> str | None:
    """The first odd character in the strings (keys and values) of a JSON value, as one
    sentence naming where it is (``body.seats.1.kind holds a lone surrogate U+D800``). A long
    key, or a long place, is cut short; a value nested however deep is read without recursion
    (``json.loads`` may nest deeper than Python may recurse)."""
    # (item, its place as (parent place, part), whether the item is a key), the next on top
    stack: list[tuple[Any, Place, bool]] = [(value, (None, where), False)]
    while stack:
        item, place, is_key = stack.pop()
        if isinstance(item, str):
            problem = odd_character(item)
            if problem is not None:
                shown = shortened(place_text(place), PLACE_SHOWN)
                return f"a key of {shown} holds {problem}" if is_key else f"{shown} holds {problem}"
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                stack.append((inner, (place, shortened(key, KEY_SHOWN)), False))
                stack.append((key, place, True))
        elif isinstance(item, list):
            stack.extend(
                (inner, (place, str(i)), False) for i, inner in reversed(list(enumerate(item)))
            )
    return None


def place_text(place: Place) -> str:
    """``body.seats.1.kind``."""
    parts = []
    at: Place | None = place
    while at is not None:
        parts.append(at[1])
        at = at[0]
    return ".".join(reversed(parts))


def shortened(text: str, most: int) -> str:
    """``text``, or its start and its end around ``...`` where it is longer than ``most``."""
    if len(text) <= most:
        return text
    half = (most - 3) // 2
    return text[:half] + "..." + text[-half:]
