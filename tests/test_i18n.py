"""The five languages: catalogues complete and in step with the code, placeholders kept,
the reference spoken in each language, and a browser's language picked from its header."""

from __future__ import annotations

import json
import re

import pytest

from thousand.i18n import (
    LANGUAGES,
    SOURCE,
    LanguageError,
    catalog,
    language,
    negotiate,
    placeholders,
    tr,
)
from thousand.prose import reference, texts
from thousand.prose.extract import CATALOGS, strings
from thousand.rules.custom import builtin

OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]
_CODE = re.compile(r"`[^`]*`")
_LINK_TARGET = re.compile(r"\]\(([^)]*)\)")
_MARKUP = re.compile(r"#+ |- \*\*|- |\*\*|<!--")


def _markup(line: str) -> tuple[str, int]:
    """What a line is in Markdown: its opening markup, and its cells when it is a table row."""
    found = _MARKUP.match(line)
    cells = line.count(" | ") if line.startswith("|") else 0
    return (found[0] if found else "", cells)


@pytest.fixture(scope="module")
def wanted() -> list[str]:
    return strings()


@pytest.mark.parametrize("lang", OTHERS)
def test_catalogue_holds_exactly_the_strings_of_the_code(lang: str, wanted: list[str]) -> None:
    data = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    missing = [s for s in wanted if not data.get(s)]
    stale = sorted(set(data) - set(wanted))
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:3]}"
    assert not stale, f"{lang}: {len(stale)} strings the code no longer says, e.g. {stale[:3]}"


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_placeholders_code_and_links(lang: str) -> None:
    for source, text in catalog(lang).items():
        assert placeholders(text) == placeholders(source), (lang, source, text)
        assert _CODE.findall(text) == _CODE.findall(source), (lang, source, text)
        assert _LINK_TARGET.findall(text) == _LINK_TARGET.findall(source), (lang, source, text)
        assert text.startswith("#") == source.startswith("#"), (lang, source, text)
        assert text.startswith("- ") == source.startswith("- "), (lang, source, text)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_reference_speaks_each_language(lang: str) -> None:
    english = reference.template_page("tysiac")
    with language(lang):
        page = reference.template_page("tysiac")
        assert tr("yes") != "yes"
    assert page != english
    # the same structure: as many lines, the same headings, list items, table rows and cells,
    # and the same code spans
    assert [_markup(line) for line in page.splitlines()] == [
        _markup(line) for line in english.splitlines()
    ]
    assert _CODE.findall(page) == _CODE.findall(english)


def test_texts_for_the_page_follow_the_language() -> None:
    english = texts.template_about(builtin("tysiac"))
    with language("ru"):
        russian = texts.template_about(builtin("tysiac"))
    assert [d["parameter"] for d in russian["differences"]] == [
        d["parameter"] for d in english["differences"]
    ]
    assert "bidding.max" in [d["parameter"] for d in english["differences"]]
    max_bid = next(d for d in english["differences"] if d["parameter"] == "bidding.max")
    assert max_bid["words"] == "the highest bid is 400"
    assert max_bid["other_words"] == "the highest bid is 120"
    assert russian["description"] != english["description"]


def test_english_is_the_source_and_speaks_as_written() -> None:
    assert catalog(SOURCE) == {}
    assert tr("the highest bid is") == "the highest bid is"
    with language("ru"):
        assert tr("a string no catalogue has") == "a string no catalogue has"


def test_unknown_language_is_refused_in_one_sentence() -> None:
    with (
        pytest.raises(LanguageError, match="unknown language 'de': thousand speaks en, ru"),
        language("de"),
    ):
        pass


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("de-DE,de;q=0.9,pl;q=0.8", "pl"),
        ("en;q=0.5, et;q=0.9", "et"),
        ("uk", "uk"),
        ("fr, de", "en"),
        ("ru;q=0, pl", "pl"),
        ("*", "en"),
        ("ru;q=abc, et", "et"),
    ],
)
def test_negotiate_picks_the_browsers_first_language_we_speak(
    header: str | None, lang: str
) -> None:
    assert negotiate(header) == lang


def test_placeholders_name_what_a_translation_keeps() -> None:
    assert placeholders("cost {writeoff.fixed|a fixed amount} when {n} {other}") == [
        "n",
        "other",
        "writeoff.fixed",
    ]
