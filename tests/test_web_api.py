"""The web API against the real app: languages, templates, parameters, the rules check, live
tables, and the replay of a finished match (and none of a match being played)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from thousand import i18n
from thousand.cards import hand_text
from thousand.i18n import LANGUAGES, NAMES, language
from thousand.prose import texts
from thousand.records import read_record
from thousand.rules import PARAMS, TEMPLATES
from thousand.rules.custom import builtin

from .server_support import cards_in
from .unplayable import CRAWL_REFUSED, crawl_unplayable  # noqa: F401 (a fixture)
from .web_support import bots_table, wait_for, web_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web_client(tmp_path_factory.mktemp("web")) as c:
        yield c


@pytest.fixture
def russian_catalogue() -> dict[str, str]:
    """The Russian catalogue the package ships."""
    return i18n.catalog("ru")


def detail(answer: Any) -> str:
    """The one sentence of an error answer."""
    body = answer.json()
    assert set(body) == {"detail"}, body
    text = body["detail"]
    assert isinstance(text, str) and text and "\n" not in text, text
    return text


# -- languages ------------------------------------------------------------------------------


def test_languages_and_the_browsers_default(client: TestClient) -> None:
    answer = client.get("/api/languages", headers={"Accept-Language": "de-DE,pl;q=0.8,en;q=0.5"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["languages"] == [{"code": c, "name": NAMES[c]} for c in LANGUAGES]
    assert [x["code"] for x in body["languages"]] == ["en", "ru", "pl", "uk", "et"]
    assert body["default"] == "pl"
    assert client.get("/api/languages").json()["default"] == "en"
    ru = client.get("/api/languages", headers={"Accept-Language": "ru-RU"}).json()
    assert ru["default"] == "ru"


@pytest.mark.parametrize("path", ["/api/templates", "/api/parameters"])
def test_an_unknown_language_is_one_sentence(client: TestClient, path: str) -> None:
    answer = client.get(path, params={"lang": "de"})
    assert answer.status_code == 422
    assert detail(answer) == "unknown language 'de': thousand speaks en, ru, pl, uk, et"


# -- templates and parameters ---------------------------------------------------------------


def test_templates_in_the_order_of_part_3_with_their_differences(client: TestClient) -> None:
    answer = client.get("/api/templates", params={"lang": "en"})
    assert answer.status_code == 200
    found = answer.json()["templates"]
    assert [t["name"] for t in found] == list(TEMPLATES)
    keys = {"name", "title", "base", "players", "summary", "description", "playable"}
    keys.add("differences")
    assert all(set(t) == keys for t in found)
    by_name = {t["name"]: t for t in found}
    assert by_name["russian"]["differences"] == []
    assert by_name["russian"]["base"] is None
    assert by_name["four-player-b"]["players"] == 4
    assert by_name["tysiac-2p"]["players"] == 2
    tysiac = {d["parameter"]: d for d in by_name["tysiac"]["differences"]}
    assert tysiac["bidding.max"] == {
        "parameter": "bidding.max",
        "heading": "Bidding",
        "value": 400,
        "words": "the highest bid is 400",
        "other": "russian",
        "other_title": "Russian",
        "other_value": 120,
        "other_words": "the highest bid is 120",
        "shown": "400",
        "other_shown": "120",
    }
    with language("en"):
        assert found == json.loads(json.dumps(texts.templates_about()))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_template_has_a_title_in_every_language(client: TestClient, lang: str) -> None:
    """People read a template's title, in their language; the identifier stays as it is."""
    found = client.get("/api/templates", params={"lang": lang}).json()["templates"]
    assert [t["name"] for t in found] == list(TEMPLATES)
    titles = [t["title"] for t in found]
    assert all(isinstance(x, str) and x.strip() for x in titles)
    assert len(set(titles)) == len(TEMPLATES), titles
    english = client.get("/api/templates", params={"lang": "en"}).json()["templates"]
    for mine, theirs in zip(found, english, strict=True):
        assert mine["title"] != mine["name"]
        if lang != "en":  # a translation, not a copy of the English title
            assert mine["title"] != theirs["title"]
        for d in mine["differences"]:
            assert d["other_title"] == found[0]["title"]


def test_templates_speak_the_asked_language(
    client: TestClient, russian_catalogue: dict[str, str]
) -> None:
    summary = russian_catalogue[builtin("russian").summary]
    by_query = client.get("/api/templates", params={"lang": "ru"}).json()["templates"]
    by_header = client.get("/api/templates", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).json()[
        "templates"
    ]
    english = client.get("/api/templates", headers={"Accept-Language": "ru"}, params={"lang": "en"})
    assert by_query[0]["summary"] == summary != builtin("russian").summary
    assert by_header == by_query
    assert english.json()["templates"][0]["summary"] == builtin("russian").summary


def test_parameters_with_their_values_in_words(
    client: TestClient, russian_catalogue: dict[str, str]
) -> None:
    found = client.get("/api/parameters", params={"lang": "en"}).json()["parameters"]
    assert [p["name"] for p in found] == [p.name for p in PARAMS]
    keys = {"name", "heading", "summary", "kind", "choices", "low", "high", "allowed", "default"}
    assert all(set(p) == keys | {"values"} for p in found)
    count = next(p for p in found if p["name"] == "players.count")
    assert count["kind"] == "int" and count["default"] == 3
    assert {"value": 4, "words": "the table seats four players"} in count["values"]
    ru = client.get("/api/parameters", params={"lang": "ru"}).json()["parameters"]
    assert ru[0]["summary"] == russian_catalogue[PARAMS[0].summary] != PARAMS[0].summary


# -- the rules check ------------------------------------------------------------------------


def check(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/rules/check", json=body)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    assert set(found) == {"ok", "problems", "players", "differences", "base_differences"}
    return found


def test_good_rules_with_both_differences(client: TestClient) -> None:
    found = check(client, {"template": "tysiac", "rules": {"game.target": 500}, "lang": "en"})
    assert found["ok"] is True and found["problems"] == [] and found["players"] == 3
    base = found["base_differences"]
    assert [d["parameter"] for d in base] == ["game.target"]
    assert base[0]["other"] == "tysiac" and base[0]["value"] == 500
    assert base[0]["other_value"] == 1000
    versus_russian = {d["parameter"]: d for d in found["differences"]}
    assert versus_russian["game.target"]["other"] == "russian"
    assert "bidding.max" in versus_russian  # tysiac's own change stays a difference from russian
    assert check(client, {})["differences"] == []
    assert check(client, {"template": "four-player-b"})["players"] == 4
    # the table takes what the check calls ok
    seats = [{"kind": "bot", "level": "easy"}] * 3
    made = client.post(
        "/tables", json={"template": "tysiac", "rules": {"game.target": 500}, "seats": seats}
    )
    assert made.status_code == 201


@pytest.mark.usefixtures("crawl_unplayable")
def test_every_problem_at_once_as_the_table_refuses(client: TestClient) -> None:
    rules = {
        "no.such": 1,
        "bidding.step": "ten",
        "bidding.min": 200,
        "bidding.max": 150,
        "play.crawl": True,
    }
    found = check(client, {"template": "russian", "rules": rules})
    assert found["ok"] is False
    problems = found["problems"]
    assert len(problems) == 4, problems
    assert "unknown parameter 'no.such' in rules" in problems
    assert any(p.startswith("rules bidding.step = ") for p in problems)
    assert "rules bidding.min = 200 is above bidding.max = 150" in problems
    assert CRAWL_REFUSED in problems
    shown = {d["parameter"] for d in found["differences"]}
    assert {"bidding.min", "bidding.max", "play.crawl"} <= shown
    seats = [{"kind": "bot", "level": "easy"}] * 3
    refused = client.post("/tables", json={"template": "russian", "rules": rules, "seats": seats})
    assert refused.status_code == 422
    assert all(p in detail(refused) for p in problems)


def test_the_check_speaks_the_language_of_the_body(
    client: TestClient, russian_catalogue: dict[str, str]
) -> None:
    body = {"template": "russian", "rules": {"players.count": 4, "players.partnerships": "across"}}
    english = check(client, body)
    russian = check(client, {**body, "lang": "ru"})
    assert english["players"] == russian["players"] == 4
    assert [d["parameter"] for d in english["differences"]] == [
        d["parameter"] for d in russian["differences"]
    ]
    with language("ru"):
        expected = check_words(body)
    assert [d["words"] for d in russian["differences"]] == expected
    assert expected != [d["words"] for d in english["differences"]]
    wrong = client.post("/api/rules/check", json={**body, "lang": "xx"})
    assert wrong.status_code == 422 and detail(wrong).startswith("unknown language 'xx'")


def check_words(body: dict[str, Any]) -> list[str]:
    from thousand.server.rules_check import check_rules

    return [d["words"] for d in check_rules(body["template"], body["rules"])["differences"]]


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"template": "nope"}, "unknown template 'nope': the templates are russian, "),
        ({"template": "russian", "rules": [1, 2]}, "the request is not valid: rules: "),
        ({"template": 7}, "the request is not valid: template: "),
        ("not an object", "the request is not valid: "),
    ],
)
def test_a_bad_check_is_one_sentence(client: TestClient, body: Any, sentence: str) -> None:
    answer = client.post("/api/rules/check", json=body)
    assert answer.status_code == 422
    assert detail(answer).startswith(sentence)


def test_a_body_that_is_not_json_is_one_sentence(client: TestClient) -> None:
    answer = client.post(
        "/api/rules/check", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 422
    assert detail(answer).startswith("the request is not valid: ")


# -- live tables and replays ----------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_game(client: TestClient) -> str:
    table_id = bots_table(client, seed=11)
    wait_for(client, table_id, "finished")
    return table_id


def test_the_replay_agrees_with_thousand_replay(
    client: TestClient, finished_game: str, tmp_path: Path
) -> None:
    record_text = client.get(f"/games/{finished_game}/record").text
    path = tmp_path / "match.json"
    path.write_text(record_text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "thousand", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(done.stdout)
    answer = client.get(f"/api/games/{finished_game}/replay")
    assert answer.status_code == 200
    found = answer.json()
    keys = {
        "id",
        "template",
        "rules",
        "overrides",
        "seats",
        "bots",
        "hints",
        "winner",
        "totals",
        "deals",
    }
    assert set(found) == keys
    assert found["id"] == finished_game and found["template"] == "russian"
    assert found["seats"] == ["easy-bot-0", "easy-bot-1", "easy-bot-2"]
    assert found["bots"] == ["easy", "easy", "easy"]
    assert found["rules"]["game.target"] == 300
    assert found["winner"] == expected["winner"] is not None
    assert found["totals"] == expected["totals"]
    assert [d["report"] for d in found["deals"]] == expected["deals"]
    assert [d["number"] for d in found["deals"]] == list(range(1, len(expected["deals"]) + 1))
    for deal in found["deals"]:
        last = deal["steps"][-1]["view"]
        assert last["match"]["totals"] == deal["report"]["totals"]
        assert last["phase"] == "done"


def test_the_replay_opens_every_hand(client: TestClient, finished_game: str) -> None:
    record = read_record(client.get(f"/games/{finished_game}/record").text)
    found = client.get(f"/api/games/{finished_game}/replay").json()
    assert len(found["deals"]) == len(record.deals)
    for deal, written in zip(found["deals"], record.deals, strict=True):
        assert deal["dealer"] == written.dealer
        steps = deal["steps"]
        assert steps[0]["seat"] is None and steps[0]["move"] is None
        assert [s["move"] for s in steps[1:]] == list(written.moves)
        first = steps[0]["view"]
        assert [set(h) for h in first["hands"]] == [set(h.split()) for h in written.hands]
        assert set(first["talon"]) == set(written.talon[0].split())
        for step in steps:
            view = step["view"]
            assert "legal_actions" not in view
            assert view["seat"] is None
            assert [len(h) for h in view["hands"]] == view["card_counts"]
            assert [set(h) for h in view["dealt"]] == [set(h.split()) for h in written.hands]
            assert set(view["talon"]) == set(written.talon[0].split())
        for before, after in pairwise(steps):
            seat, move = after["seat"], after["move"]
            assert seat == before["view"]["to_act"]
            card = move.rstrip("+")
            if len(card) == 2 and card in before["view"]["hands"][seat]:  # a card played
                assert card not in after["view"]["hands"][seat]
                assert len(after["view"]["hands"][seat]) == len(before["view"]["hands"][seat]) - 1
        # the declarer took the talon: at some step its hand holds the talon's cards
        declarer = deal["report"]["declarer"]
        if declarer is not None and deal["report"]["result"] != "written-off":
            talon = set(first["talon"])
            assert any(talon <= set(s["view"]["hands"][declarer]) for s in steps)


def test_a_match_being_played_gives_no_card(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    made = client.post("/tables", json={"template": "russian", "seats": seats, "seed": 5})
    table_id = made.json()["id"]
    live_ids = {t["id"] for t in client.get("/api/tables/live").json()["tables"]}
    assert table_id not in live_ids  # open: its human seat is free
    client.post(f"/tables/{table_id}/seats", json={"name": "Ann"})
    summary = wait_for(client, table_id, "playing")
    assert summary["deals"] == 1

    replay = client.get(f"/api/games/{table_id}/replay")
    assert replay.status_code == 409
    assert detail(replay) == (
        f"game {table_id} is not finished: its cards stay hidden until the match is over"
    )
    live = client.get("/api/tables/live")
    assert live.status_code == 200
    (entry,) = [t for t in live.json()["tables"] if t["id"] == table_id]
    keys = {"id", "template", "status", "version", "seats", "deals", "totals", "websocket", "rated"}
    assert set(entry) == keys
    assert entry["status"] == "playing" and entry["deals"] == 1
    assert [s["kind"] for s in entry["seats"]] == ["human", "bot", "bot"]
    assert entry["seats"][0]["name"] == "Ann" and all(s["taken"] for s in entry["seats"])
    assert entry["websocket"] == f"/tables/{table_id}/ws"
    for answer in (replay, live, client.get(f"/games/{table_id}/record")):
        text = answer.text.replace(table_id, "TABLE")
        assert cards_in(json.loads(text)) == set(), text


def test_the_card_scan_sees_cards(client: TestClient, finished_game: str) -> None:
    """The scan above would catch a card: it finds every card in a finished replay."""
    found = client.get(f"/api/games/{finished_game}/replay").json()
    text = json.dumps(found["deals"][0]["steps"][0]).replace(finished_game, "TABLE")
    assert hand_text(sum(1 << c for c in cards_in(json.loads(text)))).count(" ") == 23


def test_live_tables_list_only_tables_being_played(client: TestClient, finished_game: str) -> None:
    ids = {t["id"] for t in client.get("/api/tables/live").json()["tables"]}
    assert finished_game not in ids
    assert all(t["status"] == "playing" for t in client.get("/api/tables/live").json()["tables"])


def test_an_unknown_game_is_one_sentence(client: TestClient) -> None:
    answer = client.get("/api/games/nosuchgame/replay")
    assert answer.status_code == 404
    assert detail(answer) == "there is no game 'nosuchgame'"


def test_the_protocol_doc_lists_every_web_route(client: TestClient) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text("utf-8")
    web = doc.split("## Web API", 1)[1].split("\n## ", 1)[0]
    routes = {
        (method, route.path)
        for route in client.app.routes  # type: ignore[attr-defined]
        if getattr(route, "include_in_schema", False) and route.path.startswith("/api/")
        for method in getattr(route, "methods", ())
    }
    assert len(routes) == 15
    for method, path in routes:
        shown = path.replace("{game_id}", "{id}")
        assert f"`{method} {shown}" in web, (method, path)
    for path in ("GET /`", "GET /static/{path}`", "GET /reference/{lang}/`"):
        assert f"`{path}" in web
