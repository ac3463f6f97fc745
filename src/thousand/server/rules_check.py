"""``POST /api/rules/check``: a template and rule overrides checked as a table would check them,
every problem at once, with the differences in words for the custom-rules editor."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..prose.texts import BASELINE, differences
from ..rules import PARAMS, TEMPLATES, Rules, RulesError, rules_from_record, template_rules
from ..rules.model import apply_overrides
from .tables import LobbyError


def check_rules(template: str, overrides: Mapping[str, object]) -> dict[str, Any]:
    """What a table of ``template`` with ``overrides`` would be: whether ``POST /tables`` takes
    it (``ok``), every problem (an unknown parameter, a bad value, values that cannot go
    together, a value the engine does not play yet), the number of players and the differences
    from ``russian`` and from the template, in the language in force.

    The differences take every override whose value is valid on its own (even one at odds with
    another), so the editor shows them while a problem is still open. An unknown template is a
    :class:`LobbyError` (422), as ``POST /tables`` refuses it.
    """
    if template not in TEMPLATES:
        raise LobbyError(
            422, f"unknown template {template!r}: the templates are {', '.join(TEMPLATES)}"
        )
    try:
        rules_from_record(template, overrides)
        problems: list[str] = []
    except RulesError as e:
        problems = [p.replace("\n", " ") for p in e.problems]
    base = template_rules(template, supported_only=False)
    rules = _valid_each(base, apply_overrides(base, overrides)[0])
    return {
        "ok": not problems,
        "problems": problems,
        "players": rules.players_count,
        "differences": differences(rules, template_rules(BASELINE), BASELINE),
        "base_differences": differences(rules, base, template),
    }


def _valid_each(base: Rules, changed: Rules) -> Rules:
    """``changed`` with each value that is not valid on its own put back to ``base``'s."""
    back = {
        p.field: getattr(base, p.field) for p in PARAMS if p.problems(getattr(changed, p.field))
    }
    return dataclasses.replace(changed, **back)
