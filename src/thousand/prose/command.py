"""What ``thousand rules list/show/diff/check`` say, in the language in force.

Every sentence is here once, in English, keyed by what it says; :func:`said` gives it with its
parts put in. The words of each parameter and value are :mod:`thousand.prose.words`; a
template's problems (:class:`~thousand.rules.custom.TemplateError`) are the checker's words and
stay English, as the engine's refusal reasons do.
"""

from __future__ import annotations

from typing import Any, Final

from ..i18n import tr

SENTENCES: Final = {
    "built-in": "Built-in templates:",
    "custom in": "Custom templates in {folder}:",
    "no custom": "No custom templates in {folder} (put NAME.json files there, or set"
    " $THOUSAND_HOME).",
    "has problems": "(has problems: see thousand rules check {path})",
    "based on mark": "[based on {base}]",
    "changed from": "Changed from {base}: {changes}.",
    "about": "({kind}, {base}{where}; a record names it as variant {variant})",
    "custom template": "custom template",
    "built-in template": "built-in template",
    "based on": "based on {base}",
    "the baseline": "the baseline",
    "from path": ", from {path}",
    "playable": "Playable now: {answer}",
    "yes": "yes",
    "no": "no",
    "every parameter": "Every parameter ({marks}):",
    "differs from": "* differs from {base}",
    "baseline of all": "the baseline of every template",
    "diff": "{heading}: {label} {words} in {name}, {other_words} in {other} [{parameter}].",
    "diff long": "{heading}: {label} {words} in {name}; {other_words} in {other} [{parameter}].",
    "same rules": "{name} and {other} have the same rules.",
    "differ in one": "{name} and {other} differ in 1 parameter:",
    "differ in": "{name} and {other} differ in {count} parameters:",
    "check ok": "{path}: OK: template {name}, {base} with {changes}",
    "no changes": "no changes",
}
"""Every sentence of the rules command, by key."""


def said(key: str, **parts: Any) -> str:
    """The sentence ``key`` in the language in force, its parts put in."""
    return tr(SENTENCES[key]).format(**parts)


def strings() -> set[str]:
    """Every string this module passes to ``tr`` (for the catalogues)."""
    return set(SENTENCES.values())
