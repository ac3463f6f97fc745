"""The page's catalogues (src/thousand/web/static/i18n/*.json): the five languages have the same
keys, no empty string, the same placeholders, and every key the JavaScript asks for exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from thousand.i18n import LANGUAGES

STATIC = Path(__file__).resolve().parents[1] / "src" / "thousand" / "web" / "static"
CATALOGUES = STATIC / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: a call of the page's t() with a literal key: t("table.last_trick"...
T_CALL = re.compile(r"""(?<![\w.$])t\(\s*"([^"]+)"\s*[,)]""")
#: any other call of t(): with a key that is not a literal string, which cannot be checked
T_OTHER = re.compile(r"""(?<![\w.$])(?<!function )t\(\s*[^"\s)]""")


def load(lang: str) -> dict[str, str]:
    data = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {str(k): v for k, v in data.items()}


def scripts() -> list[Path]:
    return sorted((STATIC / "js").glob("*.js"))


def without_comments(source: str) -> str:
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$|(?<=[;,{}()\s])//.*$", " ", source)


def used_keys() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for path in scripts():
        for key in T_CALL.findall(without_comments(path.read_text(encoding="utf-8"))):
            used.setdefault(key, []).append(path.name)
    return used


def test_the_catalogues_are_the_five_languages() -> None:
    assert sorted(p.stem for p in CATALOGUES.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalogue_is_flat_and_has_no_empty_string(lang: str) -> None:
    for key, value in load(lang).items():
        assert isinstance(value, str), f"{lang}.json: {key} is not a string"
        assert value.strip(), f"{lang}.json: {key} is empty"
        assert value == value.strip(), f"{lang}.json: {key} has spaces around it"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_catalogue_has_the_keys_and_placeholders_of_english(lang: str) -> None:
    english, other = load("en"), load(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}.json"
    assert sorted(set(other) - set(english)) == [], f"not in en.json, only in {lang}.json"
    for key, text in english.items():
        assert sorted(PLACEHOLDER.findall(other[key])) == sorted(PLACEHOLDER.findall(text)), (
            f"{lang}.json: {key} has other placeholders than en.json: {other[key]!r}"
        )


def test_every_key_the_page_uses_is_in_the_catalogues() -> None:
    used = used_keys()
    assert len(used) > 100, "the t() calls were not found: has the page's i18n changed?"
    english = load("en")
    missing = {key: files for key, files in used.items() if key not in english}
    assert missing == {}


def test_every_key_of_the_catalogues_is_used() -> None:
    unused = sorted(set(load("en")) - set(used_keys()))
    assert unused == []


def test_the_page_asks_only_for_literal_keys() -> None:
    """A key built at run time would escape the two tests above."""
    for path in scripts():
        source = without_comments(path.read_text(encoding="utf-8"))
        assert T_OTHER.findall(source) == [], f"{path.name} calls t() with a computed key"


def test_the_checks_find_what_they_look_for() -> None:
    sample = 'x = t("a.b"); y = t("c", {n: 1}); z = cut("d"); w = t(key); function t(key) {}'
    assert T_CALL.findall(sample) == ["a.b", "c"]
    assert len(T_OTHER.findall(sample)) == 1
    assert without_comments('a = 1; // t("x")\n/* t("y") */ b').count('t("') == 0


#: the plural categories Intl.PluralRules gives whole numbers in each language (CLDR)
PLURAL_CATEGORIES = {
    "en": {"one", "other"},
    "et": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
    "pl": {"one", "few", "many", "other"},
}
PLURAL = re.compile(r"\{(\w+), plural,((?:\s*[=\w]+\s*\{[^{}]*\})+)\s*\}")
ARM = re.compile(r"([=\w]+)\s*\{([^{}]*)\}")


def test_the_plural_forms_cover_what_each_language_needs() -> None:
    assert set(PLURAL_CATEGORIES) == set(LANGUAGES)
    with_plurals = {key for key, text in load("en").items() if PLURAL.search(text)}
    # a count in a sentence is written with plural forms, never as "player(s)" or "players: 3"
    assert {"lobby.players", "table.waiting"} <= with_plurals
    for lang in LANGUAGES:
        for key, text in load(lang).items():
            if "(s)" in text:
                raise AssertionError(f"{lang}.json: {key} writes a plural as (s): {text!r}")
            if key not in with_plurals:
                continue
            found = PLURAL.search(text)
            assert found, f"{lang}.json: {key} has no plural forms: {text!r}"
            arms = {word for word, _ in ARM.findall(found.group(2))}
            assert arms >= PLURAL_CATEGORIES[lang], f"{lang}.json: {key} lacks forms: {text!r}"
            assert all("#" in arm for _, arm in ARM.findall(found.group(2))), (lang, key)
