"""Each built-in template's name for people, in the language in force: one place for them all.

A template's identifier (``russian``, ``tysiac-2p``) is the word of records, APIs and command
lines, and stays as it is; a player reads the template's title ("Russian", "Polish Tysiąc for
two"), translated through the catalogues like every rule text. The web lobby gets it as
``title`` beside ``name`` (``GET /api/templates``), the rules reference names each template by
it, and a sentence about a template says it. A custom template has no title: its own name is
what people call it.
"""

from __future__ import annotations

from thousand.i18n import tr

#: the English title of each built-in template (the catalogues translate it)
TITLES: dict[str, str] = {
    "russian": "Russian",
    "russian-classic": "Russian classic",
    "ukrainian": "Ukrainian",
    "polish-2card": "Polish, two-card talon",
    "tysiac": "Polish Tysiąc",
    "tysiac-2p": "Polish Tysiąc for two",
    "two-player-a": "Two players, draw stock",
    "two-player-b": "Two players, fixed deal",
    "four-player-a": "Four in pairs, no talon",
    "four-player-b": "Four in pairs, dealer sits out",
    "four-player": "Four, each for themselves",
    "estonian": "Estonian Tuhat",
    "soviet-book": "The old Soviet book",
}


def template_title(name: str) -> str:
    """The title of template ``name`` in the language in force; a custom template's own name."""
    english = TITLES.get(name)
    return name if english is None else tr(english)
