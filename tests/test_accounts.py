"""Accounts against a real server (SQLite and PostgreSQL): sign up, in and out, the session
cookie, CSRF, session fixation, one account never acting for another, passwords never logged
nor returned, the sign-in limits per name and per address, the same answer for a name nobody
has as for a wrong password, and every refusal one sentence that changes nothing in the
database."""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from thousand.client.link import new_claim
from thousand.server.account_routes import COOKIE, CSRF_HEADER
from thousand.server.accounts import DELETED_NAME
from thousand.server.names import player_name
from thousand.server.storage import database_url

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Server,
    modest,
    play_to_end,
    postgres_database,
    running,
)

#: a low limit per name, to reach it; a high one per address (every test comes from 127.0.0.1)
PER_NAME = 6
LIMITS = (
    "--sign-in-per-name",
    f"{PER_NAME} per 1 hour",
    "--sign-in-per-address",
    "10000 per 1 hour",
)
PASSWORD = "correct horse battery"
Snapshot = dict[str, list[tuple[Any, ...]]]


@contextlib.contextmanager
def server_on(kind: str, data: Path, *extra: str) -> Iterator[Server]:
    with contextlib.ExitStack() as stack:
        url = None if kind == "sqlite" else stack.enter_context(postgres_database())
        yield stack.enter_context(running(data, url, *extra))


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with server_on(request.param, tmp_path_factory.mktemp("accounts"), *LIMITS) as s:
        yield s


_names = iter(range(10**6))


def fresh(stem: str = "Player") -> str:
    """A name no other test of the module uses."""
    return f"{stem}{next(_names)}x{random.randrange(10**6)}"


class Browser:
    """A client that keeps cookies, as a browser does, and the session's CSRF token."""

    def __init__(self, server: Server, origin: str | None = None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.http, timeout=20)
        self.csrf: str | None = None
        self.origin = origin
        self.answers: list[httpx.Response] = []

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        csrf: bool = True,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = dict(headers or {})
        if csrf and self.csrf:
            sent.setdefault(CSRF_HEADER, self.csrf)
        if self.origin:
            sent.setdefault("Origin", self.origin)
        answer = self.http.request(method, path, json=body, headers=sent)
        self.answers.append(answer)
        if answer.status_code in (200, 201) and "csrf" in (answer.json() or {}):
            self.csrf = answer.json()["csrf"]
        return answer

    def sign_up(self, name: str, password: str = PASSWORD) -> httpx.Response:
        answer = self.request("POST", "/api/accounts", {"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        return answer

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.request("POST", "/api/session", {"name": name, "password": password})

    def who(self) -> str | None:
        name: str | None = self.request("GET", "/api/session").json()["name"]
        return name

    def sit(self, table_id: str, name: str = "ignored", csrf: bool = True) -> httpx.Response:
        body = {"seat": None, "name": name, "claim": new_claim()}
        return self.request("POST", f"/tables/{table_id}/seats", body, csrf=csrf)

    @property
    def cookie(self) -> str | None:
        return self.http.cookies.get(COOKIE)


def engine(server: Server) -> sa.Engine:
    return sa.create_engine(database_url(server.database, server.data))


#: columns that other tables of the shared server change while a test runs: when a person was
#: last connected to a table (the clients of earlier tests may still be)
MOVING = {("tables", "seen")}


def snapshot(server: Server) -> Snapshot:
    """Every row of the accounts, the sessions, the seats and the tables (but :data:`MOVING`)."""
    e = engine(server)
    try:
        with e.connect() as conn:
            out = {}
            for name in ("accounts", "sessions", "seats", "tables"):
                rows = conn.execute(sa.text(f"SELECT * FROM {name}"))
                keep = [i for i, column in enumerate(rows.keys()) if (name, column) not in MOVING]
                out[name] = sorted(tuple(r[i] for i in keep) for r in rows)
            return out
    finally:
        e.dispose()


def seat_rows(server: Server, table_id: str) -> list[tuple[Any, ...]]:
    e = engine(server)
    try:
        with e.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT seat, name, account FROM seats WHERE table_id = :t ORDER BY seat"),
                {"t": table_id},
            )
            return [tuple(r) for r in rows]
    finally:
        e.dispose()


def account_id(server: Server, name: str) -> str:
    e = engine(server)
    try:
        with e.connect() as conn:
            found: str = conn.execute(
                sa.text("SELECT id FROM accounts WHERE name = :n"), {"n": name}
            ).scalar_one()
            return found
    finally:
        e.dispose()


def one_sentence(answer: httpx.Response) -> str:
    """The refusal's sentence: one line, a few words, no password in it."""
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and detail, answer.text
    assert "\n" not in detail and len(detail) < 200 and detail.count(". ") == 0, detail
    return detail


def refused(server: Server, answer: httpx.Response, status: int, before: Snapshot) -> str:
    """``answer`` is a refusal with ``status`` and changed nothing in the database."""
    assert answer.status_code == status, answer.text
    assert snapshot(server) == before
    return one_sentence(answer)


def two_seat_table(server: Server) -> str:
    table: str = server.new_table([HUMAN, HUMAN, BOT])["id"]
    return table


# -- signing up, in and out -----------------------------------------------------------------------


def test_sign_up_in_and_out_with_a_cookie_of_its_own(server: Server) -> None:
    name = fresh("Ann")
    ann = Browser(server)
    answer = ann.sign_up(name)
    assert answer.json()["name"] == name
    cookie = answer.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie
    attrs = {a.strip().split("=")[0].lower() for a in cookie.split(";")}
    assert {"httponly", "path", "max-age"} <= attrs
    assert "samesite=lax" in cookie.lower()
    assert "secure" not in attrs  # plain http
    first = ann.cookie
    assert ann.who() == name
    # the name is the same name however it is written
    taken = ann.request("POST", "/api/accounts", {"name": name.upper(), "password": PASSWORD})
    assert taken.status_code == 409
    # out: the session ends (the cookie replayed signs nobody in)
    assert ann.request("DELETE", "/api/session").status_code == 204
    assert ann.who() is None
    replayed = httpx.get(f"{server.http}/api/session", cookies={COOKIE: str(first)})
    assert replayed.json()["name"] is None
    # in again, under the name written otherwise: a new session id
    again = Browser(server)
    assert again.sign_in(name.lower()).status_code == 200
    assert again.cookie not in (None, first)
    assert again.who() == name
    assert again.csrf and again.csrf != ann.csrf


def test_the_cookie_is_secure_over_https_and_with_the_option(tmp_path: Path) -> None:
    with running(tmp_path / "a", None) as plain:
        # a proxy on 127.0.0.1 (trusted by uvicorn) that ended TLS says so
        answer = httpx.post(
            f"{plain.http}/api/accounts",
            json={"name": "Proxied", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https"},
        )
        assert answer.status_code == 201
        assert "secure" in answer.headers["set-cookie"].lower()
    with running(tmp_path / "b", None, "--secure-cookies") as secure:
        answer = secure.post("/api/accounts", {"name": "Always", "password": PASSWORD})
        assert "secure" in answer.headers["set-cookie"].lower()


def test_the_same_answer_for_a_name_nobody_has_and_a_wrong_password(server: Server) -> None:
    name = fresh()
    Browser(server).sign_up(name)
    before = snapshot(server)
    wrong = Browser(server).sign_in(name, "not the password")
    unknown = Browser(server).sign_in(fresh("Nobody"), "not the password")
    blank = Browser(server).sign_in("   ", "not the password")
    for answer in (wrong, unknown, blank):
        assert refused(server, answer, 401, before) == "the name or the password is wrong"
        assert "set-cookie" not in answer.headers
    assert wrong.json() == unknown.json() == blank.json()


def test_passwords_are_never_returned_nor_logged_nor_stored(server: Server) -> None:
    secret = f"Pw-{random.randrange(10**12)}-secret"
    name = fresh()
    ann = Browser(server)
    ann.sign_up(name, secret)
    ann.sign_in(name, secret + "-wrong")
    Browser(server).sign_in(fresh(), secret)
    ann.request("POST", "/api/accounts", {"name": fresh(), "password": secret[:5]})
    ann.request("POST", "/api/accounts", {"name": "seat-1", "password": secret})
    ann.request(
        "PUT", "/api/account/password", {"old_password": secret + "x", "new_password": secret}
    )
    ann.request(
        "PUT", "/api/account/password", {"old_password": secret, "new_password": secret + "2"}
    )
    ann.request("DELETE", "/api/account", {"password": secret + "-no"})
    ann.request("POST", "/api/session", {"name": name, "password": secret, "extra": secret})
    assert ann.sign_in(name, secret + "2").status_code == 200
    for answer in ann.answers:
        assert secret not in answer.text
        assert secret not in str(answer.headers)
    assert secret not in server.log.read_text(errors="replace")
    rows = snapshot(server)["accounts"]
    stored = [r for r in rows if name in r]
    assert stored and all(secret not in str(r) for r in rows)
    assert any(str(v).startswith("$argon2id$") for v in stored[0])


# -- session fixation and CSRF --------------------------------------------------------------------


def test_a_session_id_the_server_did_not_issue_is_ignored(server: Server) -> None:
    name = fresh()
    Browser(server).sign_up(name)
    planted = "attacker-chosen-session-id-0123456789abcdef"
    victim = Browser(server)
    victim.http.cookies.set(COOKIE, planted, domain="127.0.0.1")
    assert victim.who() is None
    table = two_seat_table(server)
    before = snapshot(server)
    # a change with the planted id is a guest's: the seat is linked to no account
    sat = victim.sit(table, "Guest")
    assert sat.status_code == 201
    assert next(r for r in seat_rows(server, table) if r[1] == "Guest")[2] is None
    # signing in gives a new id: the planted one signs nobody in, before or after
    before = snapshot(server)
    victim.http.cookies.set(COOKIE, planted, domain="127.0.0.1")
    assert victim.sign_in(name).status_code == 200
    assert victim.cookie != planted
    assert victim.who() == name
    attacker = httpx.get(f"{server.http}/api/session", cookies={COOKIE: planted})
    assert attacker.json() == {"name": None, "created": None, "csrf": None}
    assert len(snapshot(server)["sessions"]) == len(before["sessions"]) + 1
    # signing in again from the same browser ends the session it held
    held = victim.cookie
    assert victim.sign_in(name).status_code == 200
    gone = httpx.get(f"{server.http}/api/session", cookies={COOKIE: str(held)})
    assert gone.json()["name"] is None


def test_a_change_with_the_cookie_needs_the_csrf_token_and_this_sites_origin(
    server: Server,
) -> None:
    name = fresh()
    ann = Browser(server)
    ann.sign_up(name)
    table = two_seat_table(server)
    before = snapshot(server)
    foreign = {"Origin": "https://evil.example"}
    attempts = [
        ann.sit(table, csrf=False),
        ann.request(
            "POST", f"/tables/{table}/seats", {"claim": new_claim()}, headers={CSRF_HEADER: "0"}
        ),
        ann.request("POST", f"/tables/{table}/seats", {"claim": new_claim()}, headers=foreign),
        ann.request("POST", "/tables", {"template": "russian"}, csrf=False),
        ann.request("DELETE", "/api/session", csrf=False),
        ann.request(
            "PUT",
            "/api/account/password",
            {"old_password": PASSWORD, "new_password": "another password"},
            csrf=False,
        ),
        ann.request("DELETE", "/api/account", {"password": PASSWORD}, csrf=False),
        ann.request("DELETE", "/api/account", {"password": PASSWORD}, headers=foreign),
    ]
    for answer in attempts:
        sentence = refused(server, answer, 403, before)
        assert CSRF_HEADER in sentence or "another site" in sentence
    assert ann.who() == name
    # with the token, from this server's page: the seat is taken, under the account's name
    sat = ann.request(
        "POST", f"/tables/{table}/seats", {"claim": new_claim()}, headers={"Origin": server.http}
    )
    assert sat.status_code == 201, sat.text
    # signing a browser in from another site's page is refused too (no cookie needed)
    stranger = Browser(server, origin="https://evil.example")
    before = snapshot(server)
    for answer in (
        stranger.sign_in(name),
        stranger.request("POST", "/api/accounts", {"name": fresh(), "password": PASSWORD}),
    ):
        assert "another site" in refused(server, answer, 403, before)
    # a guest (no cookie) is let through as before, from anywhere
    guest = httpx.post(
        f"{server.http}/tables/{table}/seats",
        json={"name": "Guest", "claim": new_claim()},
        headers=foreign,
    )
    assert guest.status_code == 201, guest.text


# -- one account never acts for another -----------------------------------------------------------


def test_a_signed_in_seat_is_the_accounts_and_no_other_account_acts_for_it(
    server: Server,
) -> None:
    ann_name, bob_name = fresh("Ann"), fresh("Bob")
    ann, bob = Browser(server), Browser(server)
    ann.sign_up(ann_name)
    bob.sign_up(bob_name, "bobs own password")
    table = two_seat_table(server)
    # Ann asks to sit under Bob's name: she sits under her own, linked to her account
    mine = ann.sit(table, name=bob_name)
    assert mine.status_code == 201
    theirs = bob.sit(table)
    assert theirs.status_code == 201
    rows = seat_rows(server, table)
    assert rows[mine.json()["seat"]][1:] == (ann_name, account_id(server, ann_name))
    assert rows[theirs.json()["seat"]][1:] == (bob_name, account_id(server, bob_name))
    before = snapshot(server)
    seat = theirs.json()["seat"]
    attempts = [
        # Bob's seat, with Ann's session (and her own seat's token)
        ann.request("DELETE", f"/tables/{table}/seats/{seat}"),
        ann.request(
            "DELETE",
            f"/tables/{table}/seats/{seat}",
            headers={"Authorization": f"Bearer {mine.json()['token']}"},
        ),
        # Bob's password and account, with Ann's session
        ann.request(
            "PUT",
            "/api/account/password",
            {"old_password": "bobs own password", "new_password": "taken over"},
        ),
        ann.request("DELETE", "/api/account", {"password": "bobs own password"}),
        ann.request("DELETE", "/api/account", {"password": PASSWORD, "name": bob_name}),
        # Bob's CSRF token with Ann's cookie
        ann.request(
            "DELETE", "/api/account", {"password": PASSWORD}, headers={CSRF_HEADER: str(bob.csrf)}
        ),
    ]
    for answer, status in zip(attempts, (403, 403, 401, 401, 422, 403), strict=True):
        refused(server, answer, status, before)
    assert bob.who() == bob_name and ann.who() == ann_name
    assert bob.sign_in(bob_name, "bobs own password").status_code == 200
    # Ann deletes her own account: Bob's seat, session and password stay his
    assert ann.request("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204
    assert bob.who() == bob_name
    rows = seat_rows(server, table)
    assert rows[seat][1:] == (bob_name, account_id(server, bob_name))
    assert rows[mine.json()["seat"]][1:] == (DELETED_NAME, None)


def test_without_a_session_the_account_routes_refuse_and_change_nothing(server: Server) -> None:
    guest = Browser(server)
    before = snapshot(server)
    answers = [
        guest.request(
            "PUT", "/api/account/password", {"old_password": "a" * 9, "new_password": "b" * 9}
        ),
        guest.request("DELETE", "/api/account", {"password": "a" * 9}),
    ]
    for answer in answers:
        assert (
            refused(server, answer, 401, before) == "this needs a signed-in account: sign in first"
        )
    assert guest.request("DELETE", "/api/session").status_code == 204
    assert snapshot(server) == before


def test_bad_sign_ups_are_refused_with_one_sentence(server: Server) -> None:
    taken = fresh("Taken")
    Browser(server).sign_up(taken)
    before = snapshot(server)
    cases = [
        ({"name": taken.swapcase(), "password": PASSWORD}, 409, "is taken"),
        ({"name": "", "password": PASSWORD}, 422, "blank"),
        ({"name": "x" * 40, "password": PASSWORD}, 422, "at most 32"),
        ({"name": "easy-bot-1", "password": PASSWORD}, 422, "bot"),
        ({"name": "Deleted Player", "password": PASSWORD}, 422, "deleted"),
        ({"name": "a\u202eb", "password": PASSWORD}, 422, "invisible"),
        ({"name": fresh(), "password": "short"}, 422, "at least 8"),
        ({"name": fresh(), "password": "p" * 300}, 422, "at most 256"),
        ({"name": fresh()}, 422, "password"),
    ]
    for body, status, words in cases:
        answer = Browser(server).request("POST", "/api/accounts", body)
        assert words in refused(server, answer, status, before), body


def test_changing_the_password_ends_every_other_session(server: Server) -> None:
    name = fresh()
    here, there = Browser(server), Browser(server)
    here.sign_up(name)
    assert there.sign_in(name).status_code == 200
    old_cookie = here.cookie
    before = snapshot(server)
    short = here.request(
        "PUT", "/api/account/password", {"old_password": PASSWORD, "new_password": "short"}
    )
    assert "at least 8" in refused(server, short, 422, before)
    changed = here.request(
        "PUT", "/api/account/password", {"old_password": PASSWORD, "new_password": "new password!"}
    )
    assert changed.status_code == 200, changed.text
    assert here.cookie != old_cookie and here.who() == name
    assert there.who() is None
    assert Browser(server).sign_in(name, PASSWORD).status_code == 401
    assert Browser(server).sign_in(name, "new password!").status_code == 200


def test_a_deleted_accounts_games_stay_under_deleted_player(server: Server) -> None:
    name = fresh("Gone")
    gone = Browser(server)
    gone.sign_up(name)
    table = server.new_table([HUMAN, BOT, BOT], rules=SHORT_MATCH, seed=11)["id"]
    sat = gone.sit(table)
    assert sat.status_code == 201
    client = Client(server, table, sat.json()["token"], 0)
    play_to_end(client, random.Random(3), choose=modest(random.Random(3)))
    client.close()
    # the rematch seat (asked for with the seat's token, no cookie) keeps the account
    again = server.post(f"/tables/{table}/rematch", {"claim": new_claim()}, sat.json()["token"])
    assert again.status_code == 201, again.text
    rematch = again.json()["table"]
    assert seat_rows(server, rematch)[0][1:] == (name, account_id(server, name))
    live = server.new_table([HUMAN, HUMAN, BOT])["id"]
    assert gone.sit(live).status_code == 201
    assert name in server.get(f"/games/{table}/record").text
    assert gone.request("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204
    assert gone.who() is None
    assert Browser(server).sign_in(name).status_code == 401
    for t in (table, live, rematch):
        assert server.get(f"/tables/{t}").json()["seats"][0]["name"] == DELETED_NAME
        assert seat_rows(server, t)[0][1:] == (DELETED_NAME, None)
    record = server.get(f"/games/{table}/record").text
    assert name not in record and DELETED_NAME in record
    assert name not in str(snapshot(server))
    # the name is free again
    Browser(server).sign_up(name)


def test_guests_play_as_before(server: Server) -> None:
    table = two_seat_table(server)
    taken = server.sit(table, "Guest Ann")
    assert seat_rows(server, table)[taken["seat"]][1:] == ("Guest Ann", None)
    assert server.delete_seat(table, taken["seat"], taken["token"]).status_code == 204


# -- the sign-in limits ---------------------------------------------------------------------------


def test_a_guest_cannot_play_under_an_accounts_name(server: Server) -> None:
    """However it is written: at a table and in the quick-play queue (409, nothing changed)."""
    name = fresh("Owner")
    Browser(server).sign_up(name)
    table = server.new_table([HUMAN, BOT, BOT])
    before = snapshot(server)
    guest = Browser(server)
    for asked in (name, name.upper(), f"  {name.lower()} "):
        answer = guest.sit(table["id"], asked)
        assert answer.status_code == 409, answer.text
        assert one_sentence(answer) == (
            f"the name {player_name(asked)!r} belongs to an account: sign in to play under it, "
            "or choose another"
        )
        queued = guest.request("POST", "/quickplay", {"template": "russian", "name": asked})
        assert queued.status_code == 409, queued.text
    assert snapshot(server) == before


def test_sign_in_attempts_are_limited_per_name_whether_or_not_it_exists(server: Server) -> None:
    name, nobody = fresh(), fresh("Nobody")
    Browser(server).sign_up(name)
    before = snapshot(server)
    answers = {
        n: [Browser(server).sign_in(n, "wrong password") for _ in range(PER_NAME)]
        for n in (name, nobody)
    }
    for n in (name, nobody):
        assert [a.status_code for a in answers[n]] == [401] * PER_NAME
        limited = Browser(server).sign_in(n, PASSWORD)
        assert refused(server, limited, 429, before) == (
            "too many sign-in attempts: wait a few minutes and try again"
        )
    # another name is not held back
    other = fresh()
    Browser(server).sign_up(other)
    assert Browser(server).sign_in(other).status_code == 200


def test_sign_in_attempts_are_limited_per_address(tmp_path: Path) -> None:
    limits = ("--sign-in-per-name", "100 per 1 hour", "--sign-in-per-address", "5 per 1 hour")
    with server_on("sqlite", tmp_path, *limits) as server:
        codes = [
            Browser(server).sign_in(f"Name{i}", "wrong password").status_code for i in range(5)
        ]
        assert codes == [401] * 5
        before = snapshot(server)
        for name in ("Name9", "Someone"):
            answer = Browser(server).sign_in(name, "wrong password")
            assert refused(server, answer, 429, before).startswith("too many sign-in attempts")
        # sign-ups from the address count with its sign-ins
        answer = Browser(server).request(
            "POST", "/api/accounts", {"name": "New", "password": PASSWORD}
        )
        refused(server, answer, 429, before)


def redis_url() -> str:
    """The test Redis (``$THOUSAND_TEST_REDIS``); the test is skipped where it is unreachable,
    except under CI=true, where it fails."""
    import redis

    url = os.environ.get("THOUSAND_TEST_REDIS", "redis://127.0.0.1:6379")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as e:
        if os.environ.get("CI") == "true":
            raise AssertionError(f"CI=true and Redis is unreachable at {url}: {e}") from e
        pytest.skip(f"Redis is unreachable at {url}")
    return url


def test_servers_on_one_database_share_the_sign_in_counts_in_redis(tmp_path: Path) -> None:
    shared = (*LIMITS, "--limits-storage", redis_url())
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_database())
        one = stack.enter_context(running(tmp_path / "one", url, *shared))
        two = stack.enter_context(running(tmp_path / "two", url, *shared))
        name = fresh("Shared")
        Browser(one).sign_up(name)
        assert Browser(two).sign_in(name).status_code == 200  # one database: both know it
        for i in range(PER_NAME - 1):
            server = (one, two)[i % 2]
            assert Browser(server).sign_in(name, "wrong password").status_code == 401
        before = snapshot(one)
        for server in (one, two):
            limited = Browser(server).sign_in(name)
            assert refused(server, limited, 429, before).startswith("too many sign-in")
