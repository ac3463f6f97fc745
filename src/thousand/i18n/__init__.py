"""The five languages of thousand: English, Russian, Polish, Ukrainian and Estonian.

Text that a player reads about the game and its rules (the rules reference, template
descriptions, a diff in words, the terminal games' table and narration) is written in English in
:mod:`thousand.prose` and passed through :func:`tr`, which gives it in the
language in force: ``with language("ru"): tr("the highest bid is")``. Each other language has a
catalogue, ``catalog/LANG.json``, that maps every English string to its translation; a string
may hold placeholders (``{n}``, ``{other}``, ``{writeoff.fixed|amount}``) that the translation
keeps. :mod:`thousand.prose.extract` lists the strings and keeps the catalogues in step; a test
fails when a catalogue misses one or holds one the code no longer says.

The web page's own words (buttons, headings) live beside the page, in
``thousand/web/static/i18n/LANG.json``, and follow the same five languages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources

LANGUAGES = ("en", "ru", "pl", "uk", "et")
"""The languages, English first: it is the source and the fallback."""

NAMES = {"en": "English", "ru": "Русский", "pl": "Polski", "uk": "Українська", "et": "Eesti"}
"""Each language in its own words, as a language picker shows it."""

SOURCE = "en"

_current: ContextVar[str] = ContextVar("thousand_language", default=SOURCE)
_collected: ContextVar[set[str] | None] = ContextVar("thousand_collected", default=None)

PLACEHOLDER = re.compile(r"\{([a-z_]+(?:\.[a-z0-9_]+)?)(?:\|[^}]*)?\}")
"""``{n}``, ``{other}``, ``{writeoff.fixed|a fixed amount}``: the names a translation keeps."""


class LanguageError(ValueError):
    """A language that thousand does not speak."""


def check_language(lang: str) -> str:
    """``lang`` itself when it is one of :data:`LANGUAGES`, else a :class:`LanguageError`."""
    if lang not in LANGUAGES:
        raise LanguageError(f"unknown language {lang!r}: thousand speaks {', '.join(LANGUAGES)}")
    return lang


@cache
def catalog(lang: str) -> dict[str, str]:
    """The catalogue of ``lang``: English string -> translation (empty for English)."""
    check_language(lang)
    if lang == SOURCE:
        return {}
    path = resources.files(__package__).joinpath("catalog", f"{lang}.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def current() -> str:
    """The language in force."""
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (an unknown one raises :class:`LanguageError`)."""
    token = _current.set(check_language(lang))
    try:
        yield lang
    finally:
        _current.reset(token)


def tr(text: str) -> str:
    """``text`` in the language in force; English, or a string no catalogue has, as it is."""
    found = _collected.get()
    if found is not None:
        found.add(text)
    lang = _current.get()
    if lang == SOURCE:
        return text
    return catalog(lang).get(text) or text


@contextmanager
def collecting() -> Iterator[set[str]]:
    """Record every string passed to :func:`tr` inside the block (for the catalogues)."""
    found: set[str] = set()
    token = _collected.set(found)
    try:
        yield found
    finally:
        _collected.reset(token)


def placeholders(text: str) -> list[str]:
    """The placeholder names of ``text``, sorted: a translation must have the same."""
    return sorted(m[1] for m in PLACEHOLDER.finditer(text))


def negotiate(accept_language: str | None) -> str:
    """The language to speak to a browser that sends this ``Accept-Language`` header.

    The first of its languages, by quality, that thousand speaks (``ru-RU`` is ``ru``); English
    when none is, or when there is no header.
    """
    if not accept_language:
        return SOURCE
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        quality = 1.0
        for field in fields[1:]:
            key, _, value = field.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, i, tag))
    for _, _, tag in sorted(ranked):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return SOURCE
