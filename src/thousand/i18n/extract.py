"""Keep the catalogues in step with the code: ``python -m thousand.i18n.extract [LANG ...]``.

:func:`strings` collects every English string that the rules reference and the page's rule texts
pass to :func:`~thousand.i18n.tr`. Run as a program, it rewrites each named catalogue (all but
English when none is named) with exactly those strings, in order: a translation it holds is kept,
a new string gets an empty translation to fill in, and a string the code no longer says is
dropped. It prints how many strings each catalogue still lacks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from thousand.i18n import LANGUAGES, SOURCE, check_language, collecting

CATALOGS = Path(__file__).parent / "catalog"


def strings() -> list[str]:
    """Every string the rule texts translate, sorted."""
    from thousand.rules import reference
    from thousand.rules.texts import every_text

    with collecting() as found:
        reference.pages()
        every_text()
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
