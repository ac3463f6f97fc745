"""Keep the catalogues in step with the code: ``python -m thousand.prose.extract [LANG ...]``.

:func:`strings` collects every English string that the rules reference and the page's rule texts
pass to :func:`~thousand.i18n.tr`. Run as a program, it rewrites each named catalogue of
:mod:`thousand.i18n` (all but English when none is named) with exactly those strings, in order:
a translation it holds is kept, a new string gets an empty translation to fill in, and a string
the code no longer says is dropped. It prints how many strings each catalogue still lacks.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from pathlib import Path
from types import ModuleType

from thousand.i18n import LANGUAGES, SOURCE, check_language, collecting

CATALOGS = Path(__file__).resolve().parents[1] / "i18n" / "catalog"


SPEAKING = ("thousand.prose.reference", "thousand.prose.texts", "thousand.prose.words")
"""The modules whose ``tr("...")`` calls are read for their strings."""


def literals(module: ModuleType) -> set[str]:
    """The string of every ``tr("...")`` call written in ``module``'s source."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "tr"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def data_strings() -> set[str]:
    """The strings that reach ``tr`` as data: each parameter's words, summary and section, each
    template's title, summary and description, the suits, the terminal games' move labels and
    sentences."""
    from thousand.prose.chat import strings as chat_strings
    from thousand.prose.command import strings as command_strings
    from thousand.prose.hints import strings as hint_strings
    from thousand.prose.moves import strings as move_strings
    from thousand.prose.table import strings as table_strings
    from thousand.prose.titles import TITLES
    from thousand.prose.words import NOT_PLAYABLE, SUIT_WORDS, WORDINGS
    from thousand.rules.custom import builtin
    from thousand.rules.params import PARAMS
    from thousand.rules.templates import TEMPLATES

    found = {NOT_PLAYABLE, *SUIT_WORDS.values(), *move_strings(), *table_strings()}
    found |= command_strings() | hint_strings() | chat_strings()
    found |= set(TITLES.values())
    for wording in WORDINGS.values():
        found |= {wording.label, wording.number, *wording.words.values()}
    for param in PARAMS:
        found |= {param.summary, param.section}
    for name in TEMPLATES:
        chosen = builtin(name)
        found |= {chosen.summary, chosen.description}
    return found


def strings() -> list[str]:
    """Every string the rule texts translate, sorted: the literals, the data, and (as a check
    that nothing else reaches ``tr``) whatever the reference and the page texts say."""
    from thousand.prose import reference
    from thousand.prose.texts import every_text

    with collecting() as found:
        reference.pages()
        every_text()
    for name in SPEAKING:
        found |= literals(importlib.import_module(name))
    found |= data_strings()
    found.discard("")
    return sorted(found)


def update(lang: str, wanted: list[str]) -> int:
    """Rewrite ``catalog/LANG.json`` to hold exactly ``wanted``; the number left to translate."""
    path = CATALOGS / f"{lang}.json"
    old: dict[str, str] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    new = {text: old.get(text, "") for text in wanted}
    path.write_text(json.dumps(new, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return sum(1 for v in new.values() if not v)


def main(argv: list[str] | None = None) -> int:
    langs = (sys.argv[1:] if argv is None else argv) or [x for x in LANGUAGES if x != SOURCE]
    wanted = strings()
    for lang in langs:
        check_language(lang)
        print(f"{lang}: {len(wanted)} strings, {update(lang, wanted)} to translate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
