"""A finished match's analysis against the solver (``GET /api/games/{id}/analysis``), and hints
at a table against bots (``POST /tables/{id}/hint``), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from thousand.bots.analysis import analyze_deal
from thousand.cards import CARD_TEXT
from thousand.cli.selfplay import selfplay
from thousand.engine import Game
from thousand.engine.actions import action_text
from thousand.engine.deal import Phase
from thousand.i18n import catalog
from thousand.prose.hints import SENTENCES
from thousand.records import read_record, record_of_game, replay, write_record
from thousand.rules import TEMPLATES, rules_from_record
from thousand.server.analyses import analysis_answer
from thousand.server.migrate import config, upgrade
from thousand.server.storage import (
    DealRow,
    MoveRow,
    SeatRow,
    SeatSpec,
    Store,
    TableRow,
    TableStatus,
    database_url,
)

from .server_support import SHORT_MATCH, cards_in
from .web_support import bots_table, wait_for, web_client

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "easy"}


def analysis(client: TestClient, game_id: str, limit_s: float = 120) -> dict[str, Any]:
    """The analysis, asked again while it is pending."""
    deadline = time.monotonic() + limit_s
    while True:
        answer = client.get(f"/api/games/{game_id}/analysis")
        if answer.status_code == 200:
            found: dict[str, Any] = answer.json()
            return found
        assert answer.status_code == 202, answer.text
        assert answer.json()["status"] == "pending"
        assert time.monotonic() < deadline, "the analysis is still pending"
        time.sleep(0.2)


def test_the_analysis_is_the_solvers_and_is_kept(database: str | None, tmp_path: Path) -> None:
    with web_client(tmp_path, database=database) as client:
        game_id = bots_table(client, seed=5)
        wait_for(client, game_id, "finished")
        found = analysis(client, game_id)
        record_text = client.get(f"/games/{game_id}/record").text
        steps = client.get(f"/api/games/{game_id}/replay").json()["deals"]
    result = replay(read_record(record_text))
    assert found["status"] == "ready" and found["game"] == game_id
    assert len(found["deals"]) == len(result.game.logs)
    valued = 0
    for deal, log, shown in zip(found["deals"], result.game.logs, steps, strict=True):
        expected = analyze_deal(result.game.rules, deal["number"], log)
        assert deal["open_value"] == expected.open_value
        assert deal["open_contract"] == expected.open_contract
        assert deal["played_value"] == expected.played_value
        assert deal["declarer"] == expected.declarer
        for move in deal["moves"]:
            valued += 1
            before = shown["steps"][move["step"]]["view"]
            after = shown["steps"][move["step"] + 1]
            assert after["seat"] == move["seat"] == before["to_act"]
            assert after["move"] == move["played"]
            values = {v["move"]: v["value"] for v in move["values"]}
            hand = before["hands"][move["seat"]]
            assert all(v["action"]["card"] in hand for v in move["values"])
            pick = max if move["side"] == "declarer" else min
            assert move["best"] == pick(values.values())
            assert move["cost"] == abs(move["best"] - values[move["played"]])
    assert valued
    # kept in the database: a new server on it answers at once, without the solver
    with web_client(tmp_path, database=database) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]

        async def no_worker(*_args: Any) -> Any:
            raise AssertionError("a kept analysis is made again")

        hub.run_apart = no_worker
        again = client.get(f"/api/games/{game_id}/analysis")
        assert again.status_code == 200 and again.json() == found


def test_many_requests_share_one_computation(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        game_id = bots_table(client, seed=6)
        wait_for(client, game_id, "finished")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        real = hub.run_apart
        made: list[str] = []

        async def counted(call: Any, *args: Any) -> Any:
            if call is analysis_answer:
                made.append(call.__name__)
                await asyncio.sleep(0.5)  # long enough for every request to ask meanwhile
            return await real(call, *args)

        hub.run_apart = counted
        answers: list[int] = []

        def ask() -> None:
            answers.append(client.get(f"/api/games/{game_id}/analysis").status_code)

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert set(answers) <= {200, 202}
        body = analysis(client, game_id)
        assert body["deals"]
        assert made == ["analysis_answer"]


def test_a_live_match_has_no_analysis(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table = client.post(
            "/tables", json={"template": "russian", "rules": {}, "seats": [HUMAN, BOT, BOT]}
        ).json()
        client.post(f"/tables/{table['id']}/seats", json={"name": "Ann"})
        answer = client.get(f"/api/games/{table['id']}/analysis")
        assert answer.status_code == 409
        assert answer.json() == {
            "detail": f"game {table['id']} is not finished: its cards stay hidden until the "
            "match is over"
        }
        assert not cards_in(answer.json())
        missing = client.get("/api/games/nothing/analysis")
        assert missing.status_code == 404
        assert missing.json() == {"detail": "there is no game 'nothing'"}


# -- hints ------------------------------------------------------------------------------------


def one_of_the_sentences(text: str, lang: str) -> bool:
    """Whether ``text`` is a hint's reason in ``lang``, its numbers put in."""
    for english in SENTENCES.values():
        said = catalog(lang).get(english, english) if lang != "en" else english
        pattern = re.escape(said)
        for name in ("amount", "made", "samples"):
            pattern = pattern.replace(re.escape("{" + name + "}"), r"\d+")
        if re.fullmatch(pattern, text):
            return True
    return False


class Seat:
    """Seat 0 of a table against bots, on the WebSocket."""

    def __init__(self, client: TestClient, template: str, rules: dict[str, Any]) -> None:
        players = rules_from_record(template, rules).players_count
        seats = [HUMAN] + [BOT] * (players - 1)
        body = {"template": template, "rules": rules, "seats": seats, "seed": 3}
        answer = client.post("/tables", json=body)
        assert answer.status_code == 201, answer.text
        self.client = client
        self.id: str = answer.json()["id"]
        taken = client.post(f"/tables/{self.id}/seats", json={"name": "Ann", "seat": 0}).json()
        self.token: str = taken["token"]
        path = f"ws://127.0.0.1/tables/{self.id}/ws"  # (the test client says testserver)
        self.ws: WebSocketTestSession = client.websocket_connect(path)
        self.ws.__enter__()
        self.ws.send_json({"type": "hello", "token": self.token})
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.winner: int | None = None
        self.read()

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        if message["type"] in ("snapshot", "event"):
            self.view = message["view"]
            self.version = message["version"]
        if message["type"] == "event" and message["event"].get("winner") is not None:
            self.winner = message["event"]["winner"]
        return message

    def my_turn(self) -> dict[str, Any]:
        while not (self.view and self.view["legal_actions"]):
            self.read()
        return self.view

    def next_turn(self) -> dict[str, Any] | None:
        """The view at this seat's next turn; None once the match is won."""
        while self.winner is None and not (self.view and self.view["legal_actions"]):
            self.read()
        return None if self.winner is not None else self.view

    def hint(self, lang: str = "en") -> Any:
        return self.client.post(
            f"/tables/{self.id}/hint?lang={lang}",
            headers={"Authorization": f"Bearer {self.token}"},
        )

    def move(self, token: str) -> None:
        intent = f"i{self.version}"
        self.ws.send_json({"type": "intent", "id": intent, "move": token, "version": self.version})
        while True:
            m = self.read()
            if m["type"] in ("ack", "error") and m.get("intent") == intent:
                assert m["type"] == "ack", m
                return

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


@pytest.fixture
def hint_client(tmp_path: Path) -> Iterator[TestClient]:
    with web_client(tmp_path, bot_time=0.2) as client:
        yield client


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_a_hint_is_a_legal_move_of_the_seat_and_names_no_hidden_card(
    hint_client: TestClient, template: str
) -> None:
    seat = Seat(hint_client, template, {})
    hub = hint_client.app.state.hub  # type: ignore[attr-defined]
    real = hub.run_apart
    thought: list[int] = []

    async def counted(call: Any, *args: Any) -> Any:
        thought.append(seat.version)
        return await real(call, *args)

    hub.run_apart = counted
    try:
        view = seat.my_turn()
        answer = seat.hint()
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert set(hint) == {"table", "version", "seat", "move", "action", "reason"}
        assert hint["seat"] == 0 and hint["version"] == seat.version
        assert hint["move"] in view["legal_actions"]
        assert hint["action"]["token"] == hint["move"]
        assert one_of_the_sentences(hint["reason"], "en")
        assert one_of_the_sentences(seat.hint("ru").json()["reason"], "ru")
        assert thought == [hint["version"]]  # asked twice, thought out once
        mine = {CARD_TEXT[c] for c in cards_in(view.get("hand"))}
        assert {CARD_TEXT[c] for c in cards_in(hint)} <= mine
        # the lobby shows that a hint was given, never its move
        shown = hint_client.get(f"/tables/{seat.id}").json()
        assert shown["hints"][0] == 1 and sum(shown["hints"]) == 1
        assert not cards_in(shown)
    finally:
        seat.close()


def test_a_hint_is_refused_where_another_person_is_seated(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        body = {"template": "russian", "rules": {}, "seats": [HUMAN, HUMAN, BOT], "seed": 2}
        table_id = client.post("/tables", json=body).json()["id"]
        tokens = [
            client.post(f"/tables/{table_id}/seats", json={"name": n, "seat": s}).json()["token"]
            for s, n in enumerate(["Ann", "Bob"])
        ]
        before = client.get(f"/tables/{table_id}").json()
        for token in tokens:
            answer = client.post(
                f"/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"}
            )
            assert answer.status_code == 409
            assert answer.json() == {
                "detail": "a hint is given only at a table where every other seat is a bot"
            }
        assert client.get(f"/tables/{table_id}").json() == before
        assert before["hints"] == [0, 0, 0]
        stranger = client.post(f"/tables/{table_id}/hint")
        assert stranger.status_code == 403
        assert stranger.json()["detail"].startswith("only a player seated at table")


def test_hints_are_kept_and_shown_in_the_replay(database: str | None, tmp_path: Path) -> None:
    rng = random.Random(4)
    with web_client(tmp_path, database=database, bot_time=0.2) as client:
        seat = Seat(client, "russian", SHORT_MATCH)
        asked: list[tuple[int, str]] = []
        try:
            while (view := seat.next_turn()) is not None:
                if len(asked) < 3 and len(view["legal_actions"]) > 1:
                    hint = seat.hint().json()
                    asked.append((hint["version"], hint["move"]))
                    assert seat.hint().json() == hint  # asked again: the same, kept once
                seat.move(rng.choice(view["legal_actions"]))
        finally:
            seat.close()
        wait_for(client, seat.id, "finished")
        game_id = seat.id
    with web_client(tmp_path, database=database) as client:  # kept in the database
        games = client.get("/games").json()
        assert [g["hints"] for g in games if g["id"] == game_id] == [[3, 0, 0]]
        found = client.get(f"/api/games/{game_id}/replay").json()
    marks = found["hints"]
    assert [(h["version"], h["move"]) for h in marks] == asked
    for h in marks:
        deal = found["deals"][h["deal"] - 1]
        assert h["seat"] == 0
        assert deal["steps"][h["step"]]["view"]["to_act"] == 0


def store_finished(store: Store, template: str) -> str:
    """A finished match of easy bots stored row by row, as the server stores one."""
    rules = rules_from_record(template, SHORT_MATCH)
    game = selfplay(rules, seed=7, deals=200)
    assert game.over
    n = rules.players_count
    row = TableRow(
        id="old0003",
        created=1.0,
        template=template,
        rules=dict(SHORT_MATCH),
        seat_specs=tuple(SeatSpec("bot", "easy") for _ in range(n)),
        seed=7,
        status=TableStatus.PLAYING,
        version=0,
        seats=[SeatRow() for _ in range(n)],
    )
    store.create_table(row)
    version = 0
    replayed = game
    for number, log in enumerate(replayed.logs, start=1):
        version += 1
        last = number == len(replayed.logs) and not log.moves
        status = TableStatus.FINISHED if last else TableStatus.PLAYING
        store.append_deal(row.id, DealRow(number, version, log.dealer, log.dealt), status)
        for i, action in enumerate(log.moves):
            version += 1
            done = number == len(replayed.logs) and i == len(log.moves) - 1
            status = TableStatus.FINISHED if done else TableStatus.PLAYING
            seat = _seat_of(replayed, number, i)
            move = MoveRow(version, number, seat, action_text(action), None)
            store.append_move(row.id, move, status)
    return row.id


def _seat_of(game: Any, number: int, index: int) -> int:
    """The seat that made move ``index`` of deal ``number``."""
    log = game.logs[number - 1]
    g = Game.start(game.rules, dealer=log.dealer).new_deal(log.dealt)
    for action in log.moves[:index]:
        g = g.apply(action)
    assert g.deal is not None and g.deal.to_act is not None
    return int(g.deal.to_act)


def test_a_database_of_revision_0003_gets_hints_and_analyses(
    database: str | None, tmp_path: Path
) -> None:
    url = database_url(database, tmp_path)
    old = Store(url)  # a finished match, its rows as every revision keeps them
    try:
        old.migrate()
        game_id = store_finished(old, "russian")
    finally:
        old.close()
    engine = sa.create_engine(url)
    try:
        command.downgrade(config(engine), "0003")  # the database as revision 0003 left it
        assert not {"hints", "analyses"} & set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()
    with web_client(tmp_path, database=database) as client:  # migrates to the head
        assert client.get(f"/tables/{game_id}").json()["hints"] == [0, 0, 0]
        assert client.get(f"/api/games/{game_id}/replay").json()["hints"] == []
        assert analysis(client, game_id)["deals"]
    engine = sa.create_engine(url)
    try:
        assert {"hints", "analyses"} <= set(sa.inspect(engine).get_table_names())
        command.downgrade(config(engine), "0003")
        assert not {"hints", "analyses"} & set(sa.inspect(engine).get_table_names())
        upgrade(engine)
        assert {"hints", "analyses"} <= set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_the_analysis_in_every_layout(template: str) -> None:
    """Each card play's position is the replay's step where its seat is to act; the values are
    of that seat's legal moves; the best and the cost agree with them."""
    rules = rules_from_record(template, {})
    game = selfplay(rules, seed=2, deals=2)
    text = write_record(record_of_game(game, template))
    found = json.loads(analysis_answer(text))
    assert [d["number"] for d in found["deals"]] == [1, 2]
    assert any(d["moves"] for d in found["deals"])
    for deal, log in zip(found["deals"], game.logs, strict=True):
        replayed = Game.start(rules, dealer=log.dealer).new_deal(log.dealt)
        positions = []
        plays = 0
        for action in log.moves:
            assert replayed.deal is not None
            positions.append((replayed.deal.to_act, set(replayed.deal.legal_actions())))
            plays += replayed.deal.phase is Phase.PLAY
            replayed = replayed.apply(action)
        for move in deal["moves"]:
            seat, legal = positions[move["step"]]
            assert move["seat"] == seat
            assert move["played"] == action_text(log.moves[move["step"]])
            values = {v["move"]: v["value"] for v in move["values"]}
            assert set(values) <= {action_text(a) for a in legal}
            pick = max if move["side"] == "declarer" else min
            assert move["best"] == pick(values.values())
            assert move["cost"] == abs(move["best"] - values[move["played"]])
        if deal["moves"]:
            assert deal["open_value"] is not None and deal["played_value"] is not None
        if deal["moves"] and len(deal["moves"]) == plays:
            # every card valued: the points played are the open-card best, less what the
            # declarer's side gave away, plus what the defence gave away (partners included)
            ours = sum(m["cost"] for m in deal["moves"] if m["side"] == "declarer")
            theirs = sum(m["cost"] for m in deal["moves"] if m["side"] == "defence")
            assert deal["played_value"] == deal["open_value"] - ours + theirs
