"""A player's name is normalised, and refused with one sentence when it is blank, too long,
invisible in part, or poses as a name the server gives (a bot, an empty seat)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from thousand.server.names import MAX_NAME, BadName, player_name

from .server_support import BOT, HUMAN
from .web_support import web_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web_client(tmp_path_factory.mktemp("names")) as c:
        yield c


POSES = "the name %s is how the server names a bot or an empty seat"
REFUSED = [
    ("", "a name may not be blank"),
    ("   ", "a name may not be blank"),
    ("\u3000\u00a0", "a name may not be blank"),
    ("\u202eAnn", "a name may not hold the invisible or control character U+202E"),
    ("An\u200bn", "a name may not hold the invisible or control character U+200B"),
    ("Ann\u2066", "a name may not hold the invisible or control character U+2066"),
    ("\ufeffAnn", "a name may not hold the invisible or control character U+FEFF"),
    ("Ann\ue000", "a name may not hold the invisible or control character U+E000"),
    ("easy-bot-1", POSES % "'easy-bot-1'"),
    ("EASY-BOT-1", POSES % "'EASY-BOT-1'"),
    ("expert-bot-12", POSES % "'expert-bot-12'"),
    ("ｍｅｄｉｕｍ-bot-2", POSES % "'medium-bot-2'"),
    ("hard\u2013bot\u20131", POSES % "'hard–bot–1'"),
    (" easy - bot - 0 ", POSES % "'easy - bot - 0'"),
    ("seat-2", POSES % "'seat-2'"),
    ("x" * 33, "a name may have at most 32 characters, this one has 33"),
]


@pytest.mark.parametrize(("raw", "sentence"), REFUSED)
def test_refused_names(raw: str, sentence: str) -> None:
    with pytest.raises(BadName) as refused:
        player_name(raw)
    assert str(refused.value) == sentence


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Ann", "Ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("Ann\u3000Lee", "Ann Lee"),
        ("Ａｎｎ", "Ann"),
        ("Jose\u0301", "José"),
        ("Анна", "Анна"),
        ("bot", "bot"),
        ("robot-1", "robot-1"),
        ("easy-bot", "easy-bot"),
        ("x" * MAX_NAME, "x" * MAX_NAME),
        ("  " + "y" * MAX_NAME + "  ", "y" * MAX_NAME),
    ],
)
def test_names_kept_as_normalised(raw: str, kept: str) -> None:
    assert player_name(raw) == kept


@pytest.mark.parametrize(("raw", "sentence"), REFUSED)
def test_taking_a_seat_refuses_them_and_changes_nothing(
    client: TestClient, raw: str, sentence: str
) -> None:
    table_id = client.post("/tables", json={"seats": [HUMAN, BOT, BOT]}).json()["id"]
    answer = client.post(f"/tables/{table_id}/seats", json={"name": raw})
    assert answer.status_code == 422
    assert answer.json() == {"detail": sentence}
    assert client.get(f"/tables/{table_id}").json()["free_seats"] == [0]


def test_the_seat_keeps_the_normalised_name(client: TestClient) -> None:
    table_id = client.post("/tables", json={"seats": [HUMAN, BOT, BOT]}).json()["id"]
    answer = client.post(f"/tables/{table_id}/seats", json={"name": "  Ａnn \t Lee "})
    assert answer.status_code == 422  # a tab is a control character in the body
    answer = client.post(f"/tables/{table_id}/seats", json={"name": "  Ａnn   Lee "})
    assert answer.status_code == 201, answer.text
    seats = client.get(f"/tables/{table_id}").json()["seats"]
    assert seats[0]["name"] == "Ann Lee"
