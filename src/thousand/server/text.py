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


def odd_in(value: Any, where: str) -> str | None:
    """The first odd character in the strings (keys and values) of a JSON value, as one
    sentence naming where it is (``body.seats.1.kind holds a lone surrogate U+D800``)."""
    if isinstance(value, str):
        problem = odd_character(value)
        return None if problem is None else f"{where} holds {problem}"
    if isinstance(value, dict):
        for key, item in value.items():
            problem = odd_character(key)
            if problem is not None:
                return f"a key of {where} holds {problem}"
            found = odd_in(item, f"{where}.{key}")
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = odd_in(item, f"{where}.{i}")
            if found is not None:
                return found
    return None
