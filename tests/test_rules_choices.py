"""Each choice parameter's values are written once: the ``Literal`` type of its attribute on
:class:`Rules`, from which :mod:`thousand.rules.params` takes its choices."""

from __future__ import annotations

import typing

from thousand.rules import PARAMS, Rules


def literal_values(annotation: object) -> set[str]:
    """The strings of the ``Literal`` types in an annotation (``int | Literal[...]`` too)."""
    if typing.get_origin(annotation) is typing.Literal:
        return {str(v) for v in typing.get_args(annotation)}
    return {v for arg in typing.get_args(annotation) for v in literal_values(arg)}


def test_every_choice_is_the_literal_type_of_its_attribute() -> None:
    hints = typing.get_type_hints(Rules)
    checked = 0
    for param in PARAMS:
        if param.kind in ("choice", "int-or-choice"):
            assert literal_values(hints[param.field]) == set(param.choices), param.name
            assert param.default in param.choices or param.kind == "int-or-choice"
            checked += 1
    assert checked == 36


def test_other_parameters_take_no_string_values() -> None:
    hints = typing.get_type_hints(Rules)
    for param in PARAMS:
        if param.kind not in ("choice", "int-or-choice"):
            assert not literal_values(hints[param.field]), param.name
            assert hints[param.field] is not str, param.name
