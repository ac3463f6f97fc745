"""A player's name: normalised (NFKC, whitespace collapsed) and refused, with one sentence,
when it is blank, too long, holds an invisible or control character, or poses as a seat the
server names itself (``easy-bot-1``, ``seat-2``)."""

from __future__ import annotations

import re
import unicodedata

#: the most characters a name may have, once normalised
MAX_NAME = 32
#: the names the server gives: a bot's ``LEVEL-bot-SEAT``, an empty seat's ``seat-SEAT``
_SERVER_NAMES = re.compile(r"[^\W_]+-bot-\d+|seat-\d+", re.IGNORECASE)
#: invisible or not a character: control, format (bidi overrides, zero-width), surrogate,
#: private use, unassigned
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn"}


class BadName(ValueError):
    """A name the server does not take; the text says why, in one sentence."""


def player_name(raw: str) -> str:
    """``raw`` as the server keeps it, or :class:`BadName`."""
    for ch in raw:
        if unicodedata.category(ch) in _REFUSED:
            raise BadName(f"a name may not hold the invisible or control character U+{ord(ch):04X}")
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise BadName("a name may not be blank")
    if len(name) > MAX_NAME:
        raise BadName(f"a name may have at most {MAX_NAME} characters, this one has {len(name)}")
    dashed = "".join("-" if unicodedata.category(ch) == "Pd" else ch for ch in name)
    if _SERVER_NAMES.fullmatch(dashed.replace(" ", "")):
        raise BadName(f"the name {name!r} is how the server names a bot or an empty seat")
    return name
