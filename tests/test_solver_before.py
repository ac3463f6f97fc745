"""The solver gives the same answers as the algorithm it replaced (``tests/solver_before.py``):
``value``, ``move_values``, ``move_makes`` and ``at_least``, on random positions of every template
the solver plays, from the opening lead to the last tricks and in the middle of a trick, with
several questions asked of one solver (its table is kept between them)."""

from __future__ import annotations

import random

import pytest

from tests import solver_before
from tests.test_solver import TEMPLATES, random_play_deal
from thousand.bots.solver import Solver
from thousand.engine.deal import Deal, Phase


def positions(template: str, rng: random.Random, count: int) -> list[Deal]:
    """Random positions: two opening leads, the rest after 3 to 14 random cards."""
    out: list[Deal] = []
    while len(out) < count:
        d = random_play_deal(template, rng)
        if len(out) >= 2:
            for _ in range(rng.randrange(3, 15)):
                d.apply(rng.choice(d.legal_actions()))
        if d.phase is Phase.PLAY:
            out.append(d)
    return out


@pytest.mark.parametrize("template", TEMPLATES)
def test_same_answers_as_before(template: str) -> None:
    rng = random.Random(template + "before")
    for i, d in enumerate(positions(template, rng, 14)):
        value = solver_before.Solver(d).value()
        new = Solver(d)
        assert new.value() == value
        if i < 2:  # an opening lead: one value per card would take long in pure Python
            assert [Solver(d).at_least(p) for p in (value, value + 1)] == [True, False]
            continue
        assert new.move_values() == solver_before.Solver(d).move_values()
        for points in (value - 11, value, value + 1, value + 20):
            assert new.at_least(points) == solver_before.Solver(d).at_least(points)
            assert Solver(d).at_least(points) == (value >= points)
        for points in (value - 5, value + 1):
            makes = solver_before.Solver(d).move_makes(points)
            assert Solver(d).move_makes(points) == makes
            assert new.move_makes(points) == makes
