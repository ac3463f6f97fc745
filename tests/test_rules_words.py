"""Every parameter and every value of rules.md part 2 has words a player understands."""

from __future__ import annotations

import re

import pytest

from thousand.prose.words import (
    WORDINGS,
    named_values,
    playable,
    sentence,
    spec_word,
    value_key,
    value_words,
)
from thousand.rules import PARAM_BY_NAME, PARAMS, Param, template_rules
from thousand.rules.params import Value

PLACE = re.compile(r"\{([a-z_]+\.[a-z0-9_]+)\|([^}]*)\}")


def test_every_parameter_has_a_wording() -> None:
    assert list(WORDINGS) == [p.name for p in PARAMS]


def _expected_keys(param: Param) -> set[str]:
    if param.kind == "bool":
        return {"true", "false"}
    keys = set(param.choices)
    if param.kind == "int-or-none":
        keys.add("none")
    return keys


@pytest.mark.parametrize("param", PARAMS, ids=lambda p: p.name)
def test_every_named_value_has_words_and_no_word_names_a_wrong_value(param: Param) -> None:
    words = WORDINGS[param.name].words
    assert _expected_keys(param) <= set(words), param.name
    for key in set(words) - _expected_keys(param):
        # the other keys are numbers that read differently (0 = never, ...): each must be valid
        assert param.problems(int(key)) == [], (param.name, key)


@pytest.mark.parametrize("param", PARAMS, ids=lambda p: p.name)
def test_every_value_reads_as_a_sentence(param: Param) -> None:
    values: list[Value] = [*named_values(param), param.default]
    if param.low is not None and param.kind != "suit-map":
        assert param.high is not None
        values += [param.low, param.high, (param.low + param.high) // 2]
    for value in values:
        if isinstance(value, int) and param.kind != "suit-map" and param.problems(value):
            continue
        text = sentence(param.name, value)
        assert text.startswith(WORDINGS[param.name].label + " ")
        assert "{" not in text and "}" not in text, text
        assert "  " not in text and not text.endswith((".", " ")), text


def test_placeholders_name_real_parameters() -> None:
    for wording in WORDINGS.values():
        for text in [*wording.words.values(), wording.number]:
            for name, fallback in PLACE.findall(text):
                assert name in PARAM_BY_NAME, name
                assert fallback, text


def test_sentences_in_numbers() -> None:
    russian = template_rules("russian")
    tysiac = template_rules("tysiac")
    assert sentence("bidding.max", 120) == "the highest bid is 120"
    assert sentence("bidding.step", 10) == "bids below the big-step point go up in tens"
    assert sentence("barrel.threshold", None) == "the barrel is not played"
    assert sentence("barrel.threshold", 880) == "the barrel is at 880"
    assert (
        sentence("writeoff.penalty_every", 0) == "write-offs cost the declarer no further penalty"
    )
    assert (
        sentence("writeoff.opponents_get", "fixed", tysiac)
        == "after a write-off each opponent gains a fixed 60"
    )
    assert (
        sentence("writeoff.opponents_get", "fixed") == "after a write-off each opponent gains a"
        " fixed amount"
    )
    assert (
        sentence("penalty.sticks", "any", russian) == "sticks cost 120 when 3 add up over the match"
    )
    assert (
        sentence("bidding.forced", "dealer", russian)
        == "the seat that must bid is the dealer, at 100, when the others pass without a bid"
    )
    assert value_words("players.count", 4) == "four players"
    assert value_words("scoring.round_to", 1) == "exact (not rounded)"
    assert (
        sentence("writeoff.penalty_every", 3, russian)
        == "write-offs cost the declarer a further 120 at every third write-off"
    )
    assert value_words("bidding.silence_below", -200) == (
        "is barred to a seat whose total is below -200"
    )


def test_marriage_values_dearest_first() -> None:
    estonian = template_rules("estonian", supported_only=False)
    assert sentence("marriage.values", estonian.marriage_values) == (
        "the marriages are worth clubs 100, spades 80, hearts 60, diamonds 40"
    )
    assert spec_word(estonian.marriage_values) == "c 100, d 40, h 60, s 80"


def test_value_keys_and_spec_words() -> None:
    assert [value_key(v) for v in (True, False, None, "off", 120)] == [
        "true",
        "false",
        "none",
        "off",
        "120",
    ]
    assert named_values(PARAM_BY_NAME["deal.talon_size"]) == [0, 2, 3]
    assert named_values(PARAM_BY_NAME["barrel.deals"]) == [0, 1]
    assert named_values(PARAM_BY_NAME["special.misere"]) == [None]


def test_playable_follows_the_supported_metadata() -> None:
    for param in PARAMS:
        for value in named_values(param):
            if param.problems(value):
                continue
            expected = param.supported is None or value in param.supported
            assert playable(param.name, value) == expected, (param.name, value)
    assert playable("players.count", 3)
