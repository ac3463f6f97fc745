"""``thousand play --server URL --login NAME``: the terminal client signs in (the password from
THOUSAND_PASSWORD, or asked for without echo) and sits under the account's name, the seat
linked to the account; a wrong password is the server's one sentence, and no seat is taken."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from thousand.cli.main import build_parser
from thousand.cli.play_table import open_seat
from thousand.client.link import LinkError, split_table_url
from thousand.server.storage import database_url

from .server_support import Server, running

PASSWORD = "terminal password"


def sign_up(server: Server, name: str) -> None:
    answer = server.post("/api/accounts", {"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def linked(server: Server, table: str) -> list[tuple[object, ...]]:
    engine = sa.create_engine(database_url(server.database, server.data))
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT s.seat, s.name, a.name FROM seats s LEFT JOIN accounts a"
                " ON a.id = s.account WHERE s.table_id = :t ORDER BY s.seat"
            ),
            {"t": table},
        )
        found = [tuple(r) for r in rows]
    engine.dispose()
    return found


def test_login_signs_in_and_sits_under_the_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running(tmp_path) as server:
        sign_up(server, "Terminal Ann")
        monkeypatch.setenv("THOUSAND_PASSWORD", PASSWORD)
        args = build_parser().parse_args(
            ["play", "--server", server.http, "--login", "terminal ann", "--name", "Other"]
        )
        seat = open_seat(args)
        assert seat.seat == 0
        assert linked(server, seat.table)[0] == (0, "Terminal Ann", "Terminal Ann")
        # joining a friend's table by its URL, signed in too
        table = server.new_table([{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])["id"]
        join = build_parser().parse_args(
            ["play", "--join", f"{server.http}/tables/{table}", "--login", "Terminal Ann"]
        )
        joined = open_seat(join)
        assert split_table_url(joined.table_url)[1] == table
        assert linked(server, table)[0] == (0, "Terminal Ann", "Terminal Ann")


def test_a_wrong_password_is_the_servers_sentence_and_takes_no_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running(tmp_path) as server:
        sign_up(server, "Bea")
        table = server.new_table([{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])["id"]
        monkeypatch.setenv("THOUSAND_PASSWORD", "not it at all")
        args = build_parser().parse_args(
            ["play", "--join", f"{server.http}/tables/{table}", "--login", "Bea"]
        )
        with pytest.raises(LinkError, match="the name or the password is wrong"):
            open_seat(args)
        assert linked(server, table)[0] == (0, None, None)
        env = {**os.environ, "THOUSAND_PASSWORD": "not it at all"}
        url = f"{server.http}/tables/{table}"
        done = subprocess.run(
            [sys.executable, "-m", "thousand", "play", "--join", url, "--login", "Nobody here"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2
        assert done.stderr.strip() == ("play: the server said: the name or the password is wrong")
        assert "not it at all" not in done.stderr + done.stdout
        assert httpx.get(f"{server.http}/tables/{table}").json()["seats"][0]["taken"] is False
