"""Rule parameters (rules.md part 2), the :class:`Rules` value and the templates of part 3."""

from __future__ import annotations

from thousand.rules.model import Rules, RulesError
from thousand.rules.params import PARAM_BY_NAME, PARAMS, Param
from thousand.rules.templates import TEMPLATES, Template, rules_from_record, template_rules

__all__ = [
    "PARAMS",
    "PARAM_BY_NAME",
    "TEMPLATES",
    "Param",
    "Rules",
    "RulesError",
    "Template",
    "rules_from_record",
    "template_rules",
]
