"""Every HTTP route of the server, and the answer to every error: the server's HTTP surface.

The lobby (a client finds, makes and sits at tables), the accounts (their routes are
:mod:`.account_routes`'s), the web page's API (the rules in words, the tables to watch,
replays) and the rules reference, added to the app by :func:`add_routes`.
docs/protocol.md describes each ("The lobby", "Web API"); a table in any answer is
:func:`.summary.table` with the keys the row names. The WebSocket is
:mod:`.websocket`'s; FastAPI adds its own description and docs pages. Status 200 unless
said; ``{id}`` is a table's (a match's) id; a 4xx or 5xx is ``{"detail": "one sentence"}``.

=======  ===============================  ==================================================
method   path                             answer; errors
=======  ===============================  ==================================================
GET      /health                          ``{"ok", "levels"}``: up, and its bot levels
GET      /ready                           ``{"ready": true}``: it can serve a table; 503
                                          not (:mod:`.lifecycle`: the database or the bus
                                          is lost, or it is shutting down)
POST     /tables                          201, the new table (``summary.LOBBY``); 422 a bad
                                          template, rule, seat count, bot level or clock, 429
                                          ``tables_per_address`` tables not finished
GET      /tables                          the open tables, a page (``summary.LOBBY``)
GET      /tables/{table_id}               the table (``summary.LOBBY``); 404 no such table
POST     /tables/{table_id}/seats         201 ``SeatTaken`` (the token, once; a signed-in
                                          player sits under the account's name); 404, 409
                                          the seat is taken or the claim holds another, 422
                                          a bad name or seat
DELETE   /tables/{table_id}/seats/{seat}  204; 403 the token does not hold the seat, 404
GET      /tables/{table_id}/watch         ``{"table", "websocket"}``; 404
POST     /tables/{table_id}/rematch       201 ``SeatTaken`` at the rematch; 403 not a
                                          player, 404, 409 the match is not finished
POST     /tables/{table_id}/hint          ``{"table", "version", "seat", "move", "action",
                                          "reason"}``: the expert bot's move for the seat's
                                          view; 403 no seat's token, 404, 409 another person
                                          is seated or it is not the seat's turn, 422 unknown
                                          ``lang``
POST     /quickplay                       201 a ticket in the quick-play queue
                                          (:mod:`.quickplay_routes`, which answers and
                                          refuses these three); 409, 422, 429
GET      /quickplay/{ticket}              the ticket waiting, or seated; 403, 404
DELETE   /quickplay/{ticket}              204, out of the queue; 403, 404, 409
GET      /games                           the finished matches, a page (``summary.GAME``)
GET      /games/{table_id}/record         the ``thousand/1`` record; 404, 409 not finished
WS       /tables/{table_id}/ws            the table protocol (:mod:`.websocket`)
GET      /                                the page (HTML); 404 it is not installed
GET      /static/{path}                   the page's files; 404 no such file
GET      /api/languages                   ``{"languages", "default"}``
GET      /api/templates                   ``{"templates"}`` in words; 422 unknown ``lang``
GET      /api/parameters                  ``{"parameters"}`` in words; 422 unknown ``lang``
POST     /api/rules/check                 ``{"ok", "problems", "players", "differences",
                                          "base_differences"}``; 422 unknown template or
                                          ``lang``
GET      /api/tables/live                 ``{"tables"}``: the tables being played, a page
                                          (``summary.LIVE``)
GET      /api/games/{game_id}/replay      the match, every hand open; 404, 409 not finished
GET      /api/games/{game_id}/analysis    the match against the solver (:mod:`.analyses`);
                                          202 ``{"status": "pending"}`` while it is being
                                          made; 404, 409 not finished
POST     /api/accounts                    sign up; the accounts' routes are
GET      /api/session                     :mod:`.account_routes`'s (its table says each
POST     /api/session                     one's answer and errors)
DELETE   /api/session
PUT      /api/account/password
DELETE   /api/account
GET      /api/ratings/{family}            a family's leaderboard, a page; the ratings'
GET      /api/players/{name:path}         routes are :mod:`.rating_routes`'s
GET      /reference                       307 to ``/reference/LANG/`` (``Accept-Language``)
GET      /reference/                      307 as ``/reference``
GET      /reference/{lang}                307 to ``/reference/{lang}/``; 404 unknown language
GET      /reference/{lang}/{path:path}    a page of the reference (HTML); 404 unknown
                                          language or page
GET      /openapi.json                    FastAPI's description of the routes
GET      /docs                            FastAPI's docs page of them
GET      /docs/oauth2-redirect            FastAPI's (for its docs page)
GET      /redoc                           FastAPI's other docs page
=======  ===============================  ==================================================

Errors of every route, besides its own above: 400 a ``Host`` the server does not answer for,
or a control character or lone surrogate in the path or query; 413 a body over ``max_body``;
422 such a character in a JSON body or a body that is not UTF-8 (those three:
:class:`.guard.Guard`); 429 too many requests from one address (:mod:`.app`'s middleware);
403 a change asked for with a session cookie but without its CSRF token, or from another
site's page (:mod:`.account_routes`).
Here: a request whose body or query does not validate is 422 with one sentence that says
where (:func:`invalid_sentence`); a :class:`.tables.LobbyError`, raised wherever a request is
refused, answers its own status and sentence (404 ``there is no table 'x'`` for every
``{table_id}``, 503 where a table cannot be loaded or a change cannot be stored); a read the
database cannot answer is 503 (:class:`.tables.Unavailable`'s sentence); a path no route has is
Starlette's 404 ``Not Found``, a method it does not take 405. The OpenAPI description names
every status each route may answer (:mod:`.error_answers`), each error as
:class:`.bodies.Error`; tests/test_fuzz_api.py holds the server to it.
"""

from __future__ import annotations

import asyncio
import json
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from sqlalchemy.exc import DBAPIError

from ..bots import available_levels
from ..engine.actions import parse_action
from ..engine.views import move_json
from ..i18n import LANGUAGES, NAMES, language, negotiate
from ..prose import texts
from . import reference_pages, summary
from .account_routes import add_account_routes, signed_in
from .accounts import AccountStore
from .bodies import CreateTable, Pending, Rematch, RulesCheck, SeatTaken, TakeSeat
from .callers import bearer, name_of_account
from .clocks import ClockError, TimeControl
from .error_answers import BODY_ROUTE, EVERY_ROUTE, TABLE_ROUTE, errors
from .language import chosen_language
from .lifecycle import Lifecycle
from .limits import TablesUnderWay
from .names import BadName, player_name
from .paging import PAGE, Limit, Offset, next_page, page
from .quickplay_routes import add_quickplay
from .rating_routes import add_rating_routes
from .replays import replay_answer
from .rules_check import check_rules
from .static_files import STATIC, PageFiles
from .storage import SeatSpec, TableStatus
from .tables import Hub, LiveTable, LobbyError, Unavailable, rematch, token_hash
from .text import KEY_SHOWN, shortened

AcceptLanguage = Annotated[str | None, Header(alias="Accept-Language")]


def add_routes(
    app: FastAPI, hub: Hub, static: Path = STATIC, lifecycle: Lifecycle | None = None
) -> None:
    """Add every route of the table above, and the answers to errors, to ``app``; ``static``
    is the page's folder (the package's own by default), ``lifecycle`` says whether the
    process is ready. Each route's OpenAPI description names every status it may answer."""
    app.router.responses = {**errors(*EVERY_ROUTE), **app.router.responses}
    add_errors(app)
    add_lobby(app, hub, lifecycle or Lifecycle(hub))
    add_account_routes(app, hub)
    add_rating_routes(app, hub)
    add_quickplay(app, hub, account_of=_signed_in_account)
    add_web(app, hub, static)


def _signed_in_account(request: Request) -> tuple[str, str] | None:
    """The signed-in account's id and name (quick play seats it under them), or None."""
    account = signed_in(request)
    return (account.id, account.name) if account is not None else None


def add_errors(app: FastAPI) -> None:
    """The answer to each error a route may raise."""

    async def refused(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, LobbyError)
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    async def unreadable(_request: Request, _exc: Exception) -> JSONResponse:
        """A read the database could not answer (a write is retried, then ``Unavailable``)."""
        return JSONResponse({"detail": str(Unavailable())}, status_code=503)

    async def invalid(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": invalid_sentence(exc)}, status_code=422)

    app.add_exception_handler(LobbyError, refused)
    app.add_exception_handler(DBAPIError, unreadable)
    app.add_exception_handler(RequestValidationError, invalid)


#: the most problems of one request that its sentence names
PROBLEMS_SHOWN = 3


def invalid_sentence(exc: RequestValidationError) -> str:
    """What is wrong with a request's body or query, in one sentence, saying where: the first
    ``PROBLEMS_SHOWN`` problems, and how many more there are."""
    parts = []
    errors = exc.errors()
    for error in errors[:PROBLEMS_SHOWN]:
        where = ".".join(shortened(str(x), KEY_SHOWN) for x in error.get("loc", ()) if x != "body")
        message = str(error.get("msg", "not valid"))
        parts.append(f"{where}: {message}" if where else message)
    more = len(errors) - PROBLEMS_SHOWN
    if more > 0:
        parts.append(f"and {more} more")
    return "the request is not valid: " + "; ".join(parts)


def add_lobby(app: FastAPI, hub: Hub, lifecycle: Lifecycle) -> None:
    """The lobby: ``/health``, ``/ready``, ``/tables...`` and ``/games...``."""
    under_way = TablesUnderWay(lambda t: t not in hub.tables or hub.tables[t].status.over)
    names_of_accounts = AccountStore(hub.store)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """The server is up; the bot levels it offers."""
        return {"ok": True, "levels": list(available_levels())}

    @app.get("/ready", responses=errors(503))
    async def ready() -> JSONResponse:
        """The process can serve a table (a proxy sends it connections); 503 with a sentence
        where it cannot, or is shutting down."""
        problem = await lifecycle.problem()
        if problem is not None:
            return JSONResponse({"ready": False, "detail": problem}, status_code=503)
        return JSONResponse({"ready": True})

    @app.post("/tables", status_code=201, responses=errors(*BODY_ROUTE, 503))
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table. It starts when every human seat is taken (at once if none is).
        One address may have ``tables_per_address`` tables not yet finished (429 beyond)."""
        levels = available_levels()
        specs = []
        for i, s in enumerate(body.seats):
            if s.kind == "bot":
                level = s.level or "easy"
                if level not in levels:
                    raise LobbyError(
                        422, f"seat {i}: unknown bot level {level!r} (levels: {', '.join(levels)})"
                    )
                specs.append(SeatSpec("bot", level))
            else:
                if s.level is not None:
                    raise LobbyError(422, f"seat {i}: a human seat has no level")
                specs.append(SeatSpec("human"))
        try:
            clock = None if body.clock is None else TimeControl.from_json(body.clock)
        except ClockError as e:
            raise LobbyError(422, str(e)) from None
        address = request.client.host if request.client else "?"
        cap = hub.settings.tables_per_address
        if under_way.count(address) >= cap:
            raise LobbyError(
                429,
                f"this address has {cap} tables not yet finished, the most it may have: "
                "finish one before creating another",
            )
        with under_way.creating(address) as made:
            table = await hub.create(
                body.template, body.rules, specs, seed=body.seed, rated=body.rated, clock=clock
            )
            made(table.id)
        return summary.table(table.row, table.game, summary.LOBBY, table.ratings)

    @app.get("/tables", responses=errors(422))
    async def list_tables(
        response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> list[dict[str, Any]]:
        """The open tables: not finished, with a free human seat, the oldest first; a page of
        them (the ``Link`` header names the next)."""
        found = sorted(
            (t for t in hub.tables.values() if t.free_seats() and not t.status.over),
            key=lambda t: (t.row.created, t.id),
        )
        return [
            summary.table(t.row, t.game, summary.LOBBY, t.ratings)
            for t in page(found, response, "/tables", limit, offset)
        ]

    @app.get("/tables/{table_id}", responses=errors(*TABLE_ROUTE))
    async def get_table(table_id: str) -> dict[str, Any]:
        """A table's seats, status, version and totals (never a card)."""
        table = await hub.fetch(table_id)
        return summary.table(table.row, table.game, summary.LOBBY, table.ratings)

    @app.post(
        "/tables/{table_id}/seats",
        status_code=201,
        responses=errors(*BODY_ROUTE, *TABLE_ROUTE, 409),
    )
    async def take_seat(table_id: str, body: TakeSeat, request: Request) -> SeatTaken:
        """Take a seat; the token in the answer acts for that seat alone. A signed-in player
        sits under the account's name (``name`` is not read), and the seat is linked to it; a
        guest may not sit under an account's name (409)."""
        account = signed_in(request)
        if account is not None:
            name = account.name
        else:
            try:
                name = player_name(body.name)
            except BadName as e:
                raise LobbyError(422, str(e)) from None
            if await hub.run_heavy(names_of_accounts.holds, name):
                raise LobbyError(409, name_of_account(name))
        table = await hub.fetch(table_id)
        linked = account.id if account is not None else None
        seat, token = await table.take_seat(body.seat, name, body.claim, linked)
        return SeatTaken(
            table=table.id, seat=seat, token=token, websocket=summary.websocket_path(table.id)
        )

    @app.delete(
        "/tables/{table_id}/seats/{seat}",
        status_code=204,
        responses=errors(*BODY_ROUTE, *TABLE_ROUTE, 403),
    )
    async def leave(
        table_id: str, seat: int, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        """Leave a seat (``Authorization: Bearer TOKEN``): the token is void. Before the match
        the seat is free for another; during it a medium bot plays it on; a table that no
        other person holds a seat at is closed (``GET /tables/{id}`` says what became of it)."""
        table = await hub.fetch(table_id)
        token = bearer(authorization)
        if token is None or await table.seat_of_token(token) != seat:
            raise LobbyError(403, f"this token does not hold seat {seat} of table {table_id}")
        await table.leave(seat, token_hash(token))
        return Response(status_code=204)

    @app.get("/tables/{table_id}/watch", responses=errors(*TABLE_ROUTE))
    async def watch(table_id: str) -> dict[str, str]:
        """Where to watch: connect to the WebSocket and say hello without a token."""
        table = await hub.fetch(table_id)
        return {"table": table_id, "websocket": summary.websocket_path(table.id)}

    @app.post(
        "/tables/{table_id}/rematch",
        status_code=201,
        responses=errors(*BODY_ROUTE, *TABLE_ROUTE, 403, 409),
    )
    async def start_rematch(
        table_id: str,
        body: Rematch | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> SeatTaken:
        """A new table with the same rules and seats (one, however many ask at once); the
        asker gets the same seat there."""
        claim = body.claim if body is not None else None
        new, seat, token = await rematch(
            hub, await hub.fetch(table_id), bearer(authorization), claim
        )
        return SeatTaken(
            table=new.id, seat=seat, token=token, websocket=summary.websocket_path(new.id)
        )

    @app.post("/tables/{table_id}/hint", responses=errors(*BODY_ROUTE, *TABLE_ROUTE, 403, 409))
    async def hint(
        table_id: str,
        lang: str | None = None,
        authorization: Annotated[str | None, Header()] = None,
        accept_language: AcceptLanguage = None,
    ) -> dict[str, Any]:
        """A hint for the seat of the token (``Authorization: Bearer TOKEN``): the expert
        bot's move for that seat's view and why, at a table where every other seat is a bot.
        It is kept with the table (the replay and ``GET /games`` show it)."""
        chosen = chosen_language(lang, accept_language)
        table = await hub.fetch(table_id)
        token = bearer(authorization)
        seat = await table.seat_of_token(token) if token is not None else None
        if seat is None:
            raise LobbyError(403, f"only a player seated at table {table_id} may ask for a hint")
        return await table.hint(seat, chosen)

    @app.get("/games", responses=errors(422, 503))
    async def finished_games(
        response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> list[dict[str, Any]]:
        """The finished matches, newest first; a page of them (the ``Link`` header names the
        next)."""
        rows = await hub.run_heavy(hub.store.finished, limit + 1, offset)
        if len(rows) > limit:
            next_page(response, "/games", limit, offset)
        return [summary.table(row, None, summary.GAME) for row in rows[:limit]]

    @app.get(
        "/games/{table_id}/record",
        response_class=JSONResponse,
        responses=errors(*TABLE_ROUTE, 409),
    )
    async def record(table_id: str) -> PlainTextResponse:
        """A finished match as a ``thousand/1`` record (hands and all: the match is over)."""
        table = await hub.fetch(table_id)
        if table.status != TableStatus.FINISHED:
            raise LobbyError(409, f"table {table_id} is not finished: its cards are still hidden")
        text = await hub.run_heavy(table.record_text)
        return PlainTextResponse(text, media_type="application/json")


def add_web(app: FastAPI, hub: Hub, static: Path) -> None:
    """The page, its API (``/api/...``) and the rules reference (``/reference/...``)."""

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        """The page."""
        path = static / "index.html"
        if not path.is_file():
            raise LobbyError(404, "this installation has no page (static/index.html is missing)")
        return FileResponse(path, media_type="text/html; charset=utf-8")

    app.mount("/static", PageFiles(directory=static, check_dir=False), name="static")

    @app.get("/api/languages", responses=errors(422))
    async def languages(accept_language: AcceptLanguage = None) -> dict[str, Any]:
        """The five languages, each in its own words, and the one the browser asks for."""
        return {
            "languages": [{"code": code, "name": NAMES[code]} for code in LANGUAGES],
            "default": negotiate(accept_language),
        }

    @app.get("/api/templates", responses=errors(422))
    async def templates(
        lang: str | None = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """Every built-in template: summary, description, playable, differences from russian."""
        return {"templates": templates_about(chosen_language(lang, accept_language))}

    @app.get("/api/parameters", responses=errors(422))
    async def parameters(
        lang: str | None = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """Every rule parameter with its values and what each says."""
        return {"parameters": parameters_about(chosen_language(lang, accept_language))}

    @app.post("/api/rules/check", responses=errors(*BODY_ROUTE))
    async def rules_check(
        body: RulesCheck, lang: str | None = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """Custom rules checked as ``POST /tables`` checks them, every problem at once."""
        with language(chosen_language(body.lang or lang, accept_language)):
            return check_rules(body.template, body.rules)

    @app.get("/api/tables/live", responses=errors(422))
    async def live_tables(
        response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> dict[str, Any]:
        """The tables being played now, to watch (seats, deals, totals; never a card), the
        oldest first; a page of them (the ``Link`` header names the next)."""
        playing = sorted(
            (t for t in hub.tables.values() if t.status == TableStatus.PLAYING),
            key=lambda t: (t.row.created, t.id),
        )
        shown = page(playing, response, "/api/tables/live", limit, offset)
        return {"tables": [summary.table(t.row, t.game, summary.LIVE, t.ratings) for t in shown]}

    async def finished_game(game_id: str) -> LiveTable:
        """A finished match; 404 where there is none, 409 while it is played."""
        try:
            table = await hub.fetch(game_id)
        except LobbyError as e:
            raise LobbyError(404, f"there is no game {game_id!r}") from e
        if table.status != TableStatus.FINISHED:
            raise LobbyError(
                409,
                f"game {game_id} is not finished: its cards stay hidden until the match is over",
            )
        return table

    @app.get(
        "/api/games/{game_id}/replay",
        response_class=JSONResponse,
        responses=errors(*TABLE_ROUTE, 409),
    )
    async def game_replay(game_id: str) -> Response:
        """A finished match, deal by deal and move by move, every hand open, with the hints
        its players asked for."""
        table = await finished_game(game_id)
        head = {
            "id": table.id,
            "template": table.row.template,
            "rules": table.rules.to_json(),
            "overrides": table.row.rules,
            "seats": list(table.game.players or ()),
            "hints": [
                {**h.to_json(), "action": move_json(parse_action(h.move))} for h in table.row.hints
            ],
            # each seat's bot level (None: a person's seat), for the page to name bots
            "bots": [spec.level if spec.kind == "bot" else None for spec in table.row.seat_specs],
            # the time control, and the people's moves a bot made (their time ran out, or
            # they were away), each where the replay shows it (:func:`.summary.played_for`)
            "clock": table.row.clock,
            "played_for": summary.played_for(table.row),
        }
        record_text = await hub.run_heavy(table.record_text)
        answer = await hub.run_apart(replay_answer, record_text, head)
        return Response(answer, media_type="application/json")

    @app.get(
        "/api/games/{game_id}/analysis",
        response_class=JSONResponse,
        responses={
            202: {"description": "the analysis is being made: ask again", "model": Pending},
            **errors(*TABLE_ROUTE, 409),
        },
    )
    async def game_analysis(game_id: str) -> Response:
        """A finished match against the exact open-card solver, deal by deal and card by
        card; 202 while it is being made (ask again)."""
        table = await finished_game(game_id)
        body = await hub.analysis(table)
        if body is None:
            return JSONResponse(
                {"status": "pending", "detail": "the analysis is being made: ask again shortly"},
                status_code=202,
                headers={"Retry-After": "1"},
            )
        return Response(
            '{"status":"ready","game":' + json.dumps(game_id) + "," + body[1:],
            media_type="application/json",
        )

    @app.get("/reference", include_in_schema=False)
    @app.get("/reference/", include_in_schema=False)
    async def reference_home(accept_language: AcceptLanguage = None) -> RedirectResponse:
        """The reference in the browser's language."""
        return RedirectResponse(f"/reference/{negotiate(accept_language)}/")

    @app.get("/reference/{lang}", include_in_schema=False)
    async def reference_language(lang: str) -> RedirectResponse:
        return RedirectResponse(f"/reference/{reference_in(lang)}/")

    @app.get(
        "/reference/{lang}/{path:path}",
        response_class=HTMLResponse,
        responses=errors(404, 422),
    )
    async def reference_page(lang: str, path: str) -> HTMLResponse:
        """A page of the rules reference as HTML (the index at ``/reference/LANG/``)."""
        text = await asyncio.to_thread(reference_pages.page, reference_in(lang), path)
        if text is None:
            raise LobbyError(404, f"the rules reference has no page {path!r}")
        return HTMLResponse(text)


@cache
def templates_about(lang: str) -> list[dict[str, Any]]:
    """The templates in words in ``lang``, made once per language."""
    with language(lang):
        return texts.templates_about()


@cache
def parameters_about(lang: str) -> list[dict[str, Any]]:
    """The parameters in words in ``lang``, made once per language."""
    with language(lang):
        return texts.parameters_about()


def reference_in(lang: str) -> str:
    """``lang``, a language the reference is in (404 where it is not)."""
    if lang not in LANGUAGES:
        raise LobbyError(
            404, f"the rules reference is not in {lang!r}: it is in {', '.join(LANGUAGES)}"
        )
    return lang
