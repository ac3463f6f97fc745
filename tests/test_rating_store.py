"""Ratings as stored, on SQLite and PostgreSQL: a rated match moves its participants' ratings
once however often it is rated, a bot level at several seats moves by its seats' mean, and
matches rated at once from many threads lose no change."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from thousand.server.rating_store import (
    forget,
    history,
    leaderboard,
    rate_match,
    standings_of,
)
from thousand.server.ratings import Family, Rating, SeatStats, rated
from thousand.server.storage import SeatRow, SeatSpec, Store, TableRow, TableStatus, database_url

from .server_support import postgres_database

THREE = [(0,), (1,), (2,)]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(database_url(None, tmp_path))
        s.migrate()
        yield s
        s.close()
    else:
        with postgres_database() as url:
            s = Store(database_url(url, tmp_path))
            s.migrate()
            yield s
            s.close()


def a_table(store: Store, table_id: str) -> None:
    store.create_table(
        TableRow(
            id=table_id,
            created=1.0,
            template="russian",
            rules={},
            seat_specs=(SeatSpec("human"), SeatSpec("bot", "medium"), SeatSpec("bot", "medium")),
            seed=1,
            status=TableStatus.FINISHED,
            version=0,
            rated=True,
            seats=[SeatRow() for _ in range(3)],
        )
    )


def stats(*places: int) -> list[SeatStats]:
    return [SeatStats(place=p, won=p == 1, declared=2, made=1) for p in places]


PEOPLE = ["account:a", "bot:medium", "bot:medium"]


def test_a_match_is_rated_once(store: Store) -> None:
    a_table(store, "t1")
    assert store.load("t1") is not None and store.load("t1").rated  # type: ignore[union-attr]
    with store.engine.begin() as conn:
        assert rate_match(conn, "t1", Family.THREE, PEOPLE, THREE, stats(1, 2, 3), 5.0)
    with store.engine.begin() as conn:
        assert not rate_match(conn, "t1", Family.THREE, PEOPLE, THREE, stats(1, 2, 3), 6.0)
    with store.engine.connect() as conn:
        mine = standings_of(conn, "account:a")
        changes = history(conn, "account:a")
    expected = rated((1, 2, 3), THREE, [Rating()] * 3)
    assert len(mine) == 1
    assert mine[0].rating.mu == pytest.approx(expected[0].mu)
    assert (mine[0].games, mine[0].wins, mine[0].declared, mine[0].made) == (1, 1, 2, 1)
    assert [(c.table_id, c.seat, c.place, c.at) for c in changes] == [("t1", 0, 1, 5.0)]
    assert changes[0].before == Rating() and changes[0].after.mu == pytest.approx(expected[0].mu)


def test_a_bot_level_at_two_seats_moves_by_their_mean(store: Store) -> None:
    a_table(store, "t1")
    with store.engine.begin() as conn:
        rate_match(conn, "t1", Family.THREE, PEOPLE, THREE, stats(1, 2, 3), 5.0)
    with store.engine.connect() as conn:
        (bot,) = standings_of(conn, "bot:medium")
    expected = rated((1, 2, 3), THREE, [Rating()] * 3)
    assert bot.rating.mu == pytest.approx((expected[1].mu + expected[2].mu) / 2)
    assert (bot.games, bot.wins) == (2, 0)


def test_leaderboard_orders_by_shown_rating(store: Store) -> None:
    a_table(store, "t1")
    with store.engine.begin() as conn:
        rate_match(conn, "t1", Family.THREE, PEOPLE, THREE, stats(1, 2, 3), 5.0)
    with store.engine.connect() as conn:
        board = leaderboard(conn, Family.THREE, 10, 0)
        assert leaderboard(conn, Family.TWO, 10, 0) == []
    assert [s.participant for s in board] == ["account:a", "bot:medium"]
    assert board[0].rating.shown > board[1].rating.shown


def test_forget_removes_a_participant_only(store: Store) -> None:
    a_table(store, "t1")
    with store.engine.begin() as conn:
        rate_match(conn, "t1", Family.THREE, PEOPLE, THREE, stats(1, 2, 3), 5.0)
        forget(conn, "account:a")
    with store.engine.connect() as conn:
        assert standings_of(conn, "account:a") == [] and history(conn, "account:a") == []
        assert standings_of(conn, "bot:medium") != []


def test_matches_rated_at_once_lose_no_change(store: Store) -> None:
    """Eight matches with the same bot level finish at once, each rated in its own thread:
    the level's games count all eight."""
    ids = [f"t{i}" for i in range(8)]
    for table_id in ids:
        a_table(store, table_id)
    errors: list[BaseException] = []

    def rate(table_id: str) -> None:
        for _ in range(50):
            try:
                with store.engine.begin() as conn:
                    rate_match(conn, table_id, Family.THREE, PEOPLE, THREE, stats(2, 1, 3), 5.0)
                return
            except Exception as e:  # SQLite busy: try again, as the server's writes do
                if "locked" not in str(e):
                    errors.append(e)
                    return
        errors.append(RuntimeError("still locked"))

    threads = [threading.Thread(target=rate, args=(t,)) for t in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with store.engine.connect() as conn:
        (bot,) = standings_of(conn, "bot:medium")
    assert bot.games == 16 and bot.wins == 8
