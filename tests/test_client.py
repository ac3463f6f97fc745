"""The Textual client, headless (Textual's pilot), against a real server: a whole match."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Iterator

import pytest
from textual.widgets import DataTable, Log, OptionList, Static

from thousand.client.app import ThousandApp
from thousand.client.link import LinkError, Seat, split_table_url
from thousand.client.render import (
    hand_line,
    scoresheet_rows,
    table_lines,
    trick_line,
)
from thousand.engine.actions import MoveKind, parse_action
from thousand.engine.game import Game
from thousand.engine.views import game_view, move_json
from thousand.i18n import LANGUAGES, language
from thousand.prose.moves import card, move_label
from thousand.rules import rules_from_record

from .server_support import BOT, HUMAN, SHORT_MATCH, Server, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("client-server")) as s:
        yield s


def text_of(app: ThousandApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def play_match(app: ThousandApp, limit_s: float) -> dict[str, str]:
    """Choose the highlighted move whenever there is one, until the match is won; returns
    what the panels showed at the first point where a trick was on the table."""
    seen: dict[str, str] = {}
    deadline = time.monotonic() + limit_s
    async with app.run_test(size=(140, 50)) as pilot:
        while app.winner is None:
            assert time.monotonic() < deadline, "the match did not end in time"
            moves = app.query_one("#moves", OptionList)
            if moves.option_count:
                if not seen and app.link.view and app.link.view["trick"]:
                    seen = {
                        "table": text_of(app, "#table"),
                        "trick": text_of(app, "#trick"),
                        "hand": text_of(app, "#hand"),
                        "moves": str(moves.get_option_at_index(0).prompt),
                    }
                moves.focus()
                await pilot.press("enter")
            await pilot.pause(0.01)
        seen["scores"] = str(app.query_one("#scores", DataTable).row_count)
        seen["reports"] = str(len(app.reports))
        first = app.seat.table
        await pilot.press("r")  # a rematch: a new table, the same seat
        while app.link.view is None or app.seat.table == first:
            assert time.monotonic() < deadline, "the rematch did not start"
            await pilot.pause(0.02)
        seen["rematch"] = app.seat.table
        await pilot.press("q")
    return seen


def test_a_whole_match_in_the_textual_client(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    taken = server.sit(table["id"], "Ann")
    app = ThousandApp(Seat(server.http, table["id"], 0, taken["token"]))
    seen = asyncio.run(play_match(app, 240))
    assert seen["rematch"] != table["id"] and app.seat.seat == 0
    assert server.get(f"/tables/{seen['rematch']}").json()["rematch_of"] == table["id"]
    assert "Trump:" in seen["table"] and "Marriages:" in seen["table"]
    assert "Auction:" in seen["table"] and "Declarer:" in seen["table"]
    assert seen["trick"].startswith("Trick: ")
    assert seen["hand"].startswith("Your hand: ")
    assert seen["moves"]
    assert int(seen["scores"]) == int(seen["reports"]) >= 1
    record = server.get(f"/games/{table['id']}/record")
    assert record.status_code == 200
    assert app.errors == []


def test_a_two_seat_match_in_the_textual_client(server: Server) -> None:
    rules = {"game.target": 200, "barrel.threshold": None}
    table = server.new_table([HUMAN, BOT], rules, seed=3, template="two-player-a")
    taken = server.sit(table["id"], "Ann")
    app = ThousandApp(Seat(server.http, table["id"], 0, taken["token"]))
    seen = asyncio.run(play_match(app, 120))
    assert seen["trick"].startswith("Trick: ") and seen["hand"].startswith("Your hand: ")
    assert "Phase: play" in seen["table"] and "Tricks taken: Ann (you) " in seen["table"]
    assert int(seen["scores"]) == int(seen["reports"]) >= 1
    assert app.errors == []


def test_rendering_from_views() -> None:
    assert hand_line(["9c", "Ac", "Qh", "Ts"], "h") == "Q♥ | A♣ 9♣ | T♠"

    def label(token: str) -> str:
        return move_label(move_json(parse_action(token)), lambda s: f"seat {s}")

    assert label("Qh+") == "Q♥ and declare the marriage: hearts"
    assert label("Ad+") == "A♦ and declare the four aces"
    assert label("give 9s 2") == "give 9♠ to seat 2"
    assert label("110") == "bid 110"
    assert label("blind 120") == "bid 120 blind"
    assert label("talon 1") == "take talon 2"
    assert label("discard Js") == "discard J♠ face down"
    assert label("crawl Qh") == "crawl: Q♥ face down"
    assert label("declare h") == "declare the marriage: hearts"
    assert label("buyback") == "throw in before the talon"
    assert [label(m) for m in ("misere", "open", "slam")] == [
        "misère: take no trick",
        "open hand: play with the hand shown",
        "slam: take every trick",
    ]
    assert [label(m) for m in ("redeal", "contra", "recontra", "concede", "rebuy")] == [
        "ask for a redeal",
        "contra: double the contract",
        "recontra: redouble the contract",
        "concede the forced contract",
        "take the contract over",
    ]
    report = {
        "declarer": 1,
        "contract": 120,
        "result": "made",
        "changes": [0, 120, 10],
        "totals": [0, 120, 10],
        "events": [],
    }
    assert scoresheet_rows([report], ["Ann", "Boris", "Cyril"]) == [
        ("1", "+0 = 0", "+120 = 120", "+10 = 10", "Boris", "120", "made")
    ]


def _first_view(template: str, seed: int) -> dict[str, object]:
    game = Game.start(rules_from_record(template, {})).shuffle_and_deal(random.Random(seed))
    return game_view(game, 1).to_json()


def test_rendering_the_other_layouts() -> None:
    names = ["Ann", "Boris", "Cyril", "Dora"]
    stock = table_lines(_first_view("two-player-a", 1), names[:2])
    assert stock[0].endswith("Phase: auction")
    assert any(line.startswith("Stock: 6 cards, ") and "face up" in line for line in stock)
    sitting = table_lines(_first_view("four-player-b", 1), names)
    assert "Sitting out: Ann" in sitting
    talons = table_lines(_first_view("tysiac-2p", 1), names[:2])
    assert "Talons: 2, face down" in talons
    crawl = {"seat": 0, "trick": [{"seat": 0, "card": "Qh"}], "crawl_hidden": [1, 2]}
    assert trick_line(crawl, names) == "Trick: Ann (you) Q♥, Boris (face down), Cyril (face down)"


def test_rendering_a_named_open_hand() -> None:
    """An open-hand declarer's cards are on the table for the others, not twice for itself."""
    rules = rules_from_record("russian", {"special.open_hand": 80})
    game = Game.start(rules).shuffle_and_deal(random.Random(3))
    for move in ("open", "pass", "pass"):
        game = game.apply(parse_action(move))
    assert game.deal is not None
    declarer = game.deal.declarer
    assert declarer == 1
    names = ["Ann", "Boris", "Cyril"]
    other = table_lines(game_view(game, 2).to_json(), names)
    assert "Named contract: open hand (the declarer plays with its hand shown)" in other
    hand = " ".join(card(c) for c in game_view(game, 2).to_json()["open_hand"])
    assert f"Declarer's open hand: {hand}" in other
    own = table_lines(game_view(game, declarer).to_json(), names)
    assert not any(line.startswith("Declarer's open hand") for line in own)


def test_join_urls() -> None:
    assert split_table_url("http://127.0.0.1:8000/tables/abc") == ("http://127.0.0.1:8000", "abc")
    with pytest.raises(LinkError, match="is not a table's URL"):
        split_table_url("http://127.0.0.1:8000/nothing")
    assert Seat("http://h:1", "t", 0, "x").ws_url == "ws://h:1/tables/t/ws"


def test_the_link_reconnects_and_resends_a_move_once(server: Server) -> None:
    """A move whose answer is lost with the connection: the link reconnects, gets a snapshot,
    sends the same intent again, and the move is made exactly once."""
    from thousand.client.link import Message, TableLink
    from thousand.server.storage import Store, database_url

    class LosingLink(TableLink):
        """Drops the connection where the first answer to the pending intent arrives, before
        the link reads it: the server made the move, the seat never heard."""

        lost: Message | None = None

        async def _receive(self, message: Message) -> None:
            pending = self._pending
            if self.lost is None and pending and message.get("intent") == pending["id"]:
                self.lost = message
                assert self._conn is not None
                await self._conn.close()
                return
            await super()._receive(message)

    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH, seed=4)
    taken = server.sit(table["id"], "Ann")
    got: list[Message] = []

    async def scenario() -> tuple[str, LosingLink]:
        link = LosingLink(Seat(server.http, table["id"], 0, taken["token"]), got.append)
        task = asyncio.get_running_loop().create_task(link.run())
        deadline = time.monotonic() + 30
        while not (link.view and link.view["legal_actions"]):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.01)
        await link.move(link.view["legal_actions"][0])
        pending = link._pending
        assert pending is not None
        while link._pending is not None:
            assert time.monotonic() < deadline, "the resent intent was not answered"
            await asyncio.sleep(0.01)
        await link.close()
        await asyncio.wait_for(task, 10)
        return str(pending["id"]), link

    intent_id, link = asyncio.run(scenario())
    assert link.lost is not None and link.lost["type"] == "ack", "the server made the move"
    answers = [m for m in got if m.get("intent") == intent_id]
    assert [m["type"] for m in answers] == ["ack"], "the resent intent gets the same answer"
    assert sum(1 for m in got if m["type"] == "snapshot") >= 2, "it connected twice"
    store = Store(database_url(None, server.data))
    row = store.load(table["id"])
    store.close()
    assert row is not None
    assert [m.intent_id for m in row.moves].count(intent_id) == 1


EVERY_KIND = (
    "Qh", "Qh+", "As+", "give 9s 2", "pass", "writeoff", "redeal", "contra", "recontra",
    "concede", "buyback", "rebuy", "blind 120", "misere", "open", "slam", "110",
    "contract 130", "crawl Qh", "discard Js", "talon 0", "declare h",
)  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_move_is_labelled_in_words_in_each_language(lang: str) -> None:
    """The menu once showed "mi", "op", "sl", "bl" for misère, open, slam and blind bids: each
    kind now has its sentence from the catalogue, and every language has its own words."""
    moves = [move_json(parse_action(token)) for token in EVERY_KIND]
    assert {m["kind"] for m in moves} == set(MoveKind)
    with language("en"):
        english = [move_label(m, lambda s: f"seat {s}") for m in moves]
    with language(lang):
        labels = [move_label(m, lambda s: f"seat {s}") for m in moves]
    for token, text in zip(EVERY_KIND, labels, strict=True):
        assert (text not in ("mi", "op", "sl", "bl") and " " in text) or token == "pass", text
        assert "does not know" not in text and "{" not in text, (token, text)
    assert len(set(english)) == len(english)  # no two moves read alike
    if lang != "en":
        changed = [a != b for a, b in zip(english, labels, strict=True)]
        assert sum(changed) >= len(EVERY_KIND) - 2, lang  # "pass" in et may stay


def test_the_client_speaks_the_chosen_language(server: Server) -> None:
    """``thousand play --lang pl``: the table's lines, the hand, the log of what each seat did and
    the scoresheet's headings are Polish, not English."""
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH, seed=5)
    taken = server.sit(table["id"], "Ann")
    app = ThousandApp(Seat(server.http, table["id"], 0, taken["token"]))

    async def look() -> dict[str, str]:
        deadline = time.monotonic() + 60
        async with app.run_test(size=(140, 50)) as pilot:
            log = app.query_one("#log", Log)
            while not (app.link.view and app.link.view["auction"] and log.line_count >= 2):
                assert time.monotonic() < deadline, "no auction move came"
                moves = app.query_one("#moves", OptionList)
                if moves.option_count:
                    moves.focus()
                    await pilot.press("enter")
                await pilot.pause(0.02)
            await pilot.pause(0.05)
            scores = app.query_one("#scores", DataTable)
            seen = {
                "table": text_of(app, "#table"),
                "hand": text_of(app, "#hand"),
                "log": "\n".join(log.lines),
                "heads": " ".join(str(c.label) for c in scores.columns.values()),
            }
            await pilot.press("q")
        return seen

    with language("pl"):
        seen = asyncio.run(look())
    lines = seen["table"].splitlines()
    assert lines[0].startswith("Rozdaje: ") and "    Etap: licytacja" in lines[0]
    assert "Licytacja: " in seen["table"] and "Wzięte lewy: Ann (ty) 0" in seen["table"]
    assert "Atut: jeszcze brak" in seen["table"] and "Meldunki: brak" in seen["table"]
    assert seen["hand"].startswith("Twoje karty: ")
    assert re.search(r"^\S.*: (licytuj \d+|pas)$", seen["log"], re.M), seen["log"]
    assert seen["heads"].startswith("Rozdanie Ann ") and "Grający Kontrakt Wynik" in seen["heads"]
    english = ("Dealer:", "Auction:", "Trump:", "Marriages:", "Tricks taken:", "(you)", "Deal ")
    for text in seen.values():
        assert not any(word in text for word in english), text
