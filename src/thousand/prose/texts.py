"""The rules in a player's words, as data for a page: templates, differences, parameters.

Everything here speaks the language in force (:func:`thousand.i18n.language`): the web lobby
shows a template's description and how it differs from ``russian``, and the custom-rules editor
shows each parameter with the words of its values.
"""

from __future__ import annotations

from typing import Any

from thousand.i18n import tr
from thousand.prose.titles import template_title
from thousand.prose.words import heading, named_values, sentence, spec_word
from thousand.rules.custom import ChosenTemplate, builtin
from thousand.rules.model import Rules
from thousand.rules.params import PARAMS, Param, Value
from thousand.rules.templates import TEMPLATES

BASELINE = "russian"


def _json_value(value: Value) -> object:
    """A value as a record's ``rules`` object writes it (a suit map as an object)."""
    if isinstance(value, tuple):
        return dict(zip(("c", "d", "h", "s"), value, strict=True))
    return value


def _differs(a: Value, b: Value) -> bool:
    return type(a) is not type(b) or a != b


def differences(rules: Rules, other: Rules, other_name: str = BASELINE) -> list[dict[str, Any]]:
    """Each parameter on which ``rules`` differ from ``other``, in words, in the order of part 2."""
    found = []
    for param in PARAMS:
        mine, theirs = rules.value(param.name), other.value(param.name)
        if _differs(mine, theirs):
            found.append(
                {
                    "parameter": param.name,
                    "heading": heading(param),
                    "value": _json_value(mine),
                    "words": sentence(param.name, mine, rules),
                    "other": other_name,
                    "other_title": template_title(other_name),
                    "other_value": _json_value(theirs),
                    "other_words": sentence(param.name, theirs, other),
                    "shown": spec_word(mine),
                    "other_shown": spec_word(theirs),
                }
            )
    return found


def template_about(chosen: ChosenTemplate) -> dict[str, Any]:
    """A template as the lobby's picker shows it: its identifier (``name``) and its title in
    the language, summary, description, changes from russian."""
    baseline = builtin(BASELINE)
    return {
        "name": chosen.name,
        "title": template_title(chosen.name),
        "base": chosen.base,
        "players": chosen.rules.value("players.count"),
        "summary": tr(chosen.summary),
        "description": tr(chosen.description),
        "playable": not chosen.support_problems(),
        "differences": differences(chosen.rules, baseline.rules),
    }


def templates_about() -> list[dict[str, Any]]:
    """Every built-in template, in the order of part 3."""
    return [template_about(builtin(name)) for name in TEMPLATES]


def parameter_about(param: Param) -> dict[str, Any]:
    """A parameter as the custom-rules editor shows it: its values and what each says."""
    values = [
        {"value": _json_value(v), "words": sentence(param.name, v)} for v in named_values(param)
    ]
    return {
        "name": param.name,
        "heading": heading(param),
        "summary": tr(param.summary),
        "kind": param.kind,
        "choices": list(param.choices),
        "low": param.low,
        "high": param.high,
        "allowed": None if param.allowed_ints is None else list(param.allowed_ints),
        "default": _json_value(param.default),
        "values": values,
    }


def parameters_about() -> list[dict[str, Any]]:
    """Every parameter of part 2, in order."""
    return [parameter_about(param) for param in PARAMS]


def every_text() -> None:
    """Say everything this module can say (for :mod:`thousand.prose.extract`)."""
    templates_about()
    parameters_about()
