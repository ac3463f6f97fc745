"""The generated rules reference (docs/rules/) as HTML pages, in each of the five languages.

:func:`page` renders :func:`thousand.prose.reference.pages` under
:func:`thousand.i18n.language` with markdown-it-py (CommonMark and tables, raw HTML off), each
heading with the id GitHub gives it (``reference._anchor``), so the Markdown's own relative
links (``../parameters.md#biddingmax``, ``templates/tysiac.md``) work as they are once the
index is served at ``/reference/LANG/``. A link that leaves the reference (to the hand-written
English documents ``../rules-reference.md`` and ``../custom-templates.md``, which the server does
not serve) keeps its words and loses its link. Every page has a header with a link back to the
game (``/``) and links to the same page in the five languages; pages are rendered once per
language and kept.
"""

from __future__ import annotations

import html
import posixpath
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin

from ..i18n import LANGUAGES, NAMES, language
from ..prose import reference

INDEX = "INDEX.md"
STYLESHEET = "/static/style.css"

#: "Thousand" in each language (the glossary of the working rules), the link back to the game
GAME_NAME = {"en": "Thousand", "ru": "Тысяча", "pl": "Tysiąc", "uk": "Тисяча", "et": "Tuhat"}
#: the language picker's accessible name
LANGUAGE_WORD = {"en": "Language", "ru": "Язык", "pl": "Język", "uk": "Мова", "et": "Keel"}


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    anchors_plugin(md, min_level=1, max_level=6, slug_func=reference._anchor)
    return md


def url(lang: str, path: str) -> str:
    """Where a page of the reference is served: the index at ``/reference/LANG/``."""
    return f"/reference/{lang}/" + ("" if path == INDEX else path)


def _inside(page: str, href: str, known: frozenset[str]) -> bool:
    """Whether a link of ``page`` stays in the reference (another page or an anchor here)."""
    if "://" in href or href.startswith(("/", "mailto:")):
        return True
    target = href.split("#", 1)[0]
    if not target:
        return True
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), target)) in known


def _drop_outside_links(tokens: list[Token], page: str, known: frozenset[str]) -> None:
    """Take the link (not its words) off every link that leaves the reference."""
    for token in tokens:
        if token.children is None:
            continue
        kept: list[Token] = []
        dropping: list[bool] = []
        for child in token.children:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                dropping.append(not _inside(page, href, known))
                if dropping[-1]:
                    continue
            elif child.type == "link_close" and dropping.pop():
                continue
            kept.append(child)
        token.children = kept


def _title(tokens: list[Token]) -> str:
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1":
            inline = tokens[i + 1]
            return "".join(
                c.content for c in inline.children or [] if c.type in ("text", "code_inline")
            )
    return ""


def _header(lang: str, path: str) -> str:
    links = []
    for code in LANGUAGES:
        current = ' aria-current="page"' if code == lang else ""
        links.append(
            f'<a href="{html.escape(url(code, path))}" hreflang="{code}" lang="{code}"'
            f"{current}>{html.escape(NAMES[code])}</a>"
        )
    return (
        '<header class="reference-header">'
        f'<a class="home" href="/">{html.escape(GAME_NAME[lang])}</a>'
        f'<nav class="languages" aria-label="{html.escape(LANGUAGE_WORD[lang])}">'
        + " ".join(links)
        + "</nav></header>"
    )


def render(lang: str, path: str, text: str, known: frozenset[str]) -> str:
    """One page of the reference as a whole HTML document."""
    md = _markdown()
    body = text.removeprefix(reference.GENERATED).lstrip("\n")
    tokens = md.parse(body)
    _drop_outside_links(tokens, path, known)
    title = _title(tokens)
    content = md.renderer.render(tokens, md.options, {})
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)} · {html.escape(GAME_NAME[lang])}</title>\n"
        f'<link rel="stylesheet" href="{STYLESHEET}">\n</head>\n'
        f'<body class="reference">\n{_header(lang, path)}\n'
        f'<main class="reference-page">\n{content}</main>\n</body>\n</html>\n'
    )


@cache
def pages(lang: str) -> dict[str, str]:
    """Every page of the reference in ``lang`` as HTML, by its path (``INDEX.md``, ...)."""
    with language(lang):
        texts = reference.pages()
    known = frozenset(texts)
    return {path: render(lang, path, text, known) for path, text in texts.items()}


def page(lang: str, path: str) -> str | None:
    """A page by the path it is served under (``""`` is the index); None when there is none."""
    if lang not in LANGUAGES:
        return None
    return pages(lang).get(path or INDEX)
