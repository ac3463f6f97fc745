"""The rules reference as HTML pages: every page in every language, links and anchors that
work, the header (back to the game, the same page in the five languages), the stylesheet."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from fastapi.testclient import TestClient

from thousand import i18n
from thousand.i18n import LANGUAGES, NAMES, language
from thousand.prose import reference
from thousand.prose.titles import template_title
from thousand.rules import TEMPLATES
from thousand.server import reference_pages

from .web_support import web_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web_client(tmp_path_factory.mktemp("web")) as c:
        yield c


class Page(HTMLParser):
    """What a test reads of a page: links, ids, the lang, stylesheets, the header's links."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.lang = ""
        self.stylesheets: list[str] = []
        self.header: list[tuple[str, str, dict[str, str | None]]] = []
        self._in_header = False
        self._href: tuple[str, dict[str, str | None]] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if tag == "header":
            self._in_header = True
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "link" and a.get("rel") == "stylesheet":
            self.stylesheets.append(str(a.get("href")))
        if tag == "a" and a.get("href") is not None:
            self.links.append(str(a["href"]))
            if self._in_header:
                self._href = (str(a["href"]), a)

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self.header.append((self._href[0], data, self._href[1]))
            self._href = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "header":
            self._in_header = False


def paths() -> list[str]:
    return ["", "parameters.md", *(f"templates/{name}.md" for name in TEMPLATES)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_every_link_and_anchor_works(client: TestClient, lang: str) -> None:
    pages: dict[str, Page] = {}
    for path in paths():
        answer = client.get(f"/reference/{lang}/{path}")
        assert answer.status_code == 200, path
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
        pages[f"/reference/{lang}/{path}"] = Page(answer.text)
    checked = 0
    for url, page in pages.items():
        assert page.lang == lang
        assert page.stylesheets == ["/static/style.css"]
        for link in page.links:
            target = urlsplit(urljoin(url, link))
            if target.path == "/" or target.path.startswith("/static/"):
                continue
            if target.path not in pages:  # the same page in another language
                other = target.path.split("/")[2]
                assert other in LANGUAGES and other != lang, f"{url} links {link}"
                assert target.path.replace(f"/{other}/", f"/{lang}/", 1) == url
                assert client.get(target.path).status_code == 200
                continue
            if target.fragment:  # a browser finds a percent-encoded fragment's id decoded
                assert unquote(target.fragment) in pages[target.path].ids, f"{url}: {link}"
                checked += 1
    assert checked > 200  # every template page links each parameter's entry


def test_headings_have_githubs_anchors(client: TestClient) -> None:
    text = client.get("/reference/en/parameters.md").text
    assert '<h3 id="biddingmax"><code>bidding.max</code></h3>' in text
    assert '<h1 id="rule-parameters">Rule parameters</h1>' in text
    tysiac = client.get("/reference/en/templates/tysiac.md").text
    assert '<a href="../parameters.md#biddingmax"><code>bidding.max</code></a>' in tysiac
    assert reference._anchor("bidding.max") == "biddingmax"


def test_the_header_links_home_and_the_same_page_in_five_languages(client: TestClient) -> None:
    page = Page(client.get("/reference/pl/templates/tysiac.md").text)
    home, *languages = page.header
    assert home[0] == "/" and home[1] == "Tysiąc"
    assert [(href, words) for href, words, _ in languages] == [
        (f"/reference/{code}/templates/tysiac.md", NAMES[code]) for code in LANGUAGES
    ]
    current = [words for _, words, attrs in languages if attrs.get("aria-current") == "page"]
    assert current == ["Polski"]
    index = Page(client.get("/reference/et/").text)
    assert [href for href, _, _ in index.header[1:]] == [f"/reference/{c}/" for c in LANGUAGES]


def test_links_to_the_hand_written_documents_keep_their_words_only(client: TestClient) -> None:
    text = client.get("/reference/en/").text
    assert "rules-reference.md" not in text and "custom-templates.md" not in text
    assert "leave a question open, what we chose is written down;" in text
    assert "rules-reference.md" in reference.index_page()  # the Markdown has the link
    assert "Generated by" not in text


def test_raw_html_in_the_markdown_is_not_passed_through() -> None:
    html = reference_pages.render("en", "x.md", "# A <b>bold</b> claim\n", frozenset({"x.md"}))
    assert "<b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<title>A &lt;b&gt;bold&lt;/b&gt; claim · Thousand</title>" in html


def test_pages_speak_their_language(client: TestClient) -> None:
    ru = client.get("/reference/ru/").text
    en = client.get("/reference/en/").text
    title = i18n.catalog("ru")["# Rules reference"].removeprefix("# ")
    templates = i18n.catalog("ru")["## Templates"].removeprefix("## ")
    assert title != "Rules reference" and templates != "Templates"
    assert f'<h1 id="{reference._anchor(title)}">{title}</h1>' in ru
    assert f'<h2 id="{reference._anchor(templates)}">{templates}</h2>' in ru
    assert f"<title>{title} · Тысяча</title>" in ru
    assert '<html lang="ru">' in ru and 'aria-label="Язык"' in ru
    assert '<h1 id="rules-reference">Rules reference</h1>' in en


def test_rendered_once_per_language() -> None:
    assert reference_pages.pages("uk") is reference_pages.pages("uk")
    assert reference_pages.page("uk", "") == reference_pages.pages("uk")["INDEX.md"]


@pytest.mark.parametrize(
    ("path", "status", "sentence"),
    [
        ("/reference/de/", 404, "the rules reference is not in 'de': it is in en, ru, pl, uk, et"),
        ("/reference/en/nope.md", 404, "the rules reference has no page 'nope.md'"),
        ("/reference/en/templates/nope.md", 404, "the rules reference has no page"),
        ("/reference/en/parameters.md/x", 404, "the rules reference has no page"),
    ],
)
def test_unknown_language_or_page_is_404_with_one_sentence(
    client: TestClient, path: str, status: int, sentence: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == status
    body = answer.json()
    assert set(body) == {"detail"} and body["detail"].startswith(sentence)


def test_the_reference_without_a_language_goes_to_the_browsers(client: TestClient) -> None:
    answer = client.get("/reference/", headers={"Accept-Language": "uk"}, follow_redirects=False)
    assert answer.status_code in (302, 307) and answer.headers["location"] == "/reference/uk/"
    answer = client.get("/reference/ru", follow_redirects=False)
    assert answer.headers["location"] == "/reference/ru/"
    assert client.get("/reference/de", follow_redirects=False).status_code == 404


def test_the_index_lists_every_template() -> None:
    text = reference_pages.page("en", "") or ""
    assert re.findall(r'<a href="templates/([\w-]+)\.md">', text) == list(TEMPLATES)


#: the words of a developer's reference (the spec's parts, the engine, the code) in each language
DEVELOPER_WORDS = {
    "en": ("rules.md", "part 3", "engine", "the code", "catalogue"),
    "ru": ("rules.md", "част", "движок", "кода", "каталог"),
    "uk": ("rules.md", "частин", "рушій", "коду", "каталог"),
    "pl": ("rules.md", "części", "silnik", "kodu", "katalog"),
    "et": ("rules.md", "osa mallid", "mootor", "koodist", "kataloog"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_index_speaks_to_players(lang: str) -> None:
    """The reference is opened from the game's header: its first words are for players."""
    assert set(DEVELOPER_WORDS) == set(LANGUAGES)
    page = reference_pages.pages(lang)["INDEX.md"]
    intro = re.search(r"</h1>\s*<p>(.*?)</p>", page, re.S)
    assert intro, page[:500]
    text = intro.group(1).lower()
    for word in DEVELOPER_WORDS[lang]:
        assert word not in text, (lang, word, text)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", TEMPLATES)
def test_a_template_page_is_titled_in_its_language(lang: str, name: str) -> None:
    """Each template's page and the index name it by its title in the page's language (the
    identifier beside it, as records and commands write it)."""
    with language(lang):
        title = template_title(name)
    page = reference_pages.page(lang, f"templates/{name}.md") or ""
    assert "<h1 id=" in page and f">{html.escape(title)} (<code>{name}</code>)</h1>" in page
    index = reference_pages.page(lang, "") or ""
    assert f'<a href="templates/{name}.md">{html.escape(title)}</a> (<code>{name}</code>)' in index
    if name != "russian":
        with language(lang):
            russian = template_title("russian")
        # the sentence about the baseline says its title, never the identifier alone
        assert html.escape(russian) in page
        assert "<code>russian</code>:" not in page
