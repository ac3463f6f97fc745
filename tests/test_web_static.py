"""The page's files: ``/`` is the package's ``static/index.html``, ``/static/...`` its files with
the content types a browser needs, and a missing file is a 404 with one sentence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import thousand.web
from thousand.server.static_files import STATIC, PageFiles

from .web_support import web_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web_client(tmp_path_factory.mktemp("web")) as c:
        yield c


def test_the_page_is_the_packages_index(client: TestClient) -> None:
    # the installed package's folder (the checkout's in an editable install)
    assert Path(thousand.web.__file__).resolve().parent / "static" == STATIC
    index = (STATIC / "index.html").read_bytes()
    for path in ("/", "/static/index.html"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
        assert answer.content == index


def test_a_missing_file_is_404_with_one_sentence(client: TestClient) -> None:
    answer = client.get("/static/no-such-file.js")
    assert answer.status_code == 404
    assert answer.json() == {"detail": "there is no file 'no-such-file.js' in the page"}


@pytest.fixture
def files(tmp_path: Path) -> TestClient:
    """A folder of one file of each kind, served as the page's files are."""
    for name in ("app.js", "cards/queen.svg", "i18n/ru.json", "style.css", "index.html"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"/* {name} */", encoding="utf-8")
    app = FastAPI()
    app.mount("/static", PageFiles(directory=tmp_path), name="static")
    return TestClient(app)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("app.js", "text/javascript; charset=utf-8"),
        ("cards/queen.svg", "image/svg+xml"),
        ("i18n/ru.json", "application/json"),
        ("style.css", "text/css; charset=utf-8"),
        ("index.html", "text/html; charset=utf-8"),
    ],
)
def test_content_types(files: TestClient, path: str, kind: str) -> None:
    answer = files.get(f"/static/{path}")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == kind
    assert answer.text == f"/* {path} */"


def test_nothing_outside_the_folder(files: TestClient, tmp_path: Path) -> None:
    (tmp_path.parent / "secret.txt").write_text("hidden words", encoding="utf-8")
    for path in ("/static/%2e%2e/secret.txt", "/static/..%2fsecret.txt", "/static/cards/"):
        answer = files.get(path)
        assert answer.status_code == 404, path
        assert "hidden words" not in answer.text


def test_a_file_not_changed_since_is_304(files: TestClient) -> None:
    first = files.get("/static/app.js")
    again = files.get("/static/app.js", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
