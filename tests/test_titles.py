"""Each built-in template's title for people, in the five languages, kept in one place
(``thousand.prose.titles``), and said wherever a sentence names a template."""

from __future__ import annotations

import pytest

from thousand.i18n import LANGUAGES, language
from thousand.prose.table import rules_summary
from thousand.prose.titles import TITLES, template_title
from thousand.rules import TEMPLATES, template_rules


def test_every_built_in_template_has_a_title() -> None:
    assert list(TITLES) == list(TEMPLATES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_titles_are_distinct_and_translated(lang: str) -> None:
    with language(lang):
        titles = [template_title(name) for name in TEMPLATES]
    assert len(set(titles)) == len(TEMPLATES)
    assert not set(titles) & set(TEMPLATES), "an identifier is not a title"
    if lang != "en":
        assert not set(titles) & set(TITLES.values()), "an English title left untranslated"


def test_a_custom_template_is_called_by_its_own_name() -> None:
    with language("ru"):
        assert template_title("friday") == "friday"


@pytest.mark.parametrize("name", TEMPLATES)
def test_the_terminal_games_say_the_title_in_the_language(name: str) -> None:
    with language("ru"):
        first = rules_summary(name, template_rules(name, supported_only=False))[0]
        assert first.startswith(f"Правила: {template_title(name)}")
    assert f" {name} " not in f" {first} "
