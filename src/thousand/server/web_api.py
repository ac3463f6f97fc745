"""The routes the web page needs, mounted on the lobby's app by :func:`mount`.

``/`` and ``/static/...`` serve the page; ``/api/...`` gives it the rules as data in its
language (templates, parameters, a check of custom rules), the tables being played and the
replay of a finished match; ``/reference/LANG/...`` is the rules reference as HTML. Every answer
is JSON except the page and the reference; an error is a 4xx with ``{"detail": "one sentence"}``.
docs/protocol.md ("Web API") describes each.
"""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse
from pydantic import BaseModel, Field

from ..i18n import LANGUAGES, NAMES, language, negotiate
from ..prose import texts
from . import reference_pages
from .language import chosen_language
from .paging import PAGE, Limit, Offset, page
from .replays import replay_answer
from .rules_check import check_rules
from .static_files import STATIC, PageFiles
from .tables import FINISHED, PLAYING, Hub, LobbyError

AcceptLanguage = Annotated[str | None, Header(alias="Accept-Language")]


class RulesCheck(BaseModel):
    """Rules to check: a template, overrides as a record's ``rules`` object, the language."""

    template: str = "russian"
    rules: dict[str, Any] = Field(default_factory=dict)
    lang: str | None = Field(None, description="the language of the differences (en, ru, ...)")


@cache
def _templates(lang: str) -> list[dict[str, Any]]:
    with language(lang):
        return texts.templates_about()


@cache
def _parameters(lang: str) -> list[dict[str, Any]]:
    with language(lang):
        return texts.parameters_about()


def _invalid_sentence(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(x) for x in error.get("loc", ()) if x != "body")
        message = str(error.get("msg", "not valid"))
        parts.append(f"{where}: {message}" if where else message)
    return "the request is not valid: " + "; ".join(parts)


def mount(app: FastAPI, hub: Hub, static: Path = STATIC) -> None:
    """Add the page, the web API and the reference to ``app``; ``static`` is the page's
    folder (the package's own by default)."""

    async def one_sentence(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": _invalid_sentence(exc)}, status_code=422)

    app.add_exception_handler(RequestValidationError, one_sentence)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        """The page."""
        path = static / "index.html"
        if not path.is_file():
            raise LobbyError(404, "this installation has no page (static/index.html is missing)")
        return FileResponse(path, media_type="text/html; charset=utf-8")

    app.mount("/static", PageFiles(directory=static, check_dir=False), name="static")

    @app.get("/api/languages")
    async def languages(accept_language: AcceptLanguage = None) -> dict[str, Any]:
        """The five languages, each in its own words, and the one the browser asks for."""
        return {
            "languages": [{"code": code, "name": NAMES[code]} for code in LANGUAGES],
            "default": negotiate(accept_language),
        }

    @app.get("/api/templates")
    async def templates(
        lang: str | None = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """Every built-in template: summary, description, playable, differences from russian."""
        return {"templates": _templates(chosen_language(lang, accept_language))}

    @app.get("/api/parameters")
    async def parameters(
        lang: str | None = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """Every rule parameter with its values and what each says."""
        return {"parameters": _parameters(chosen_language(lang, accept_language))}

    @app.post("/api/rules/check")
    async def rules_check(
        body: RulesCheck, lang: str | None = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """Custom rules checked as ``POST /tables`` checks them, every problem at once."""
        with language(chosen_language(body.lang or lang, accept_language)):
            return check_rules(body.template, body.rules)

    @app.get("/api/tables/live")
    async def live_tables(
        response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> dict[str, Any]:
        """The tables being played now, to watch (seats, deals, totals; never a card), the
        oldest first; a page of them (the ``Link`` header names the next)."""
        playing = sorted(
            (t for t in hub.tables.values() if t.status == PLAYING),
            key=lambda t: (t.row.created, t.id),
        )
        return {
            "tables": [
                {
                    "id": t.id,
                    "template": t.row.template,
                    "status": t.status,
                    "version": t.version,
                    "seats": t.seats_json(),
                    "deals": len(t.game.logs),
                    "totals": list(t.game.match.totals),
                    "websocket": f"/tables/{t.id}/ws",
                }
                for t in page(playing, response, "/api/tables/live", limit, offset)
            ]
        }

    @app.get("/api/games/{game_id}/replay", response_class=JSONResponse)
    async def game_replay(game_id: str) -> Response:
        """A finished match, deal by deal and move by move, every hand open."""
        try:
            table = await hub.fetch(game_id)
        except LobbyError as e:
            raise LobbyError(404, f"there is no game {game_id!r}") from e
        if table.status != FINISHED:
            raise LobbyError(
                409,
                f"game {game_id} is not finished: its cards stay hidden until the match is over",
            )
        head = {
            "id": table.id,
            "template": table.row.template,
            "rules": table.rules.to_json(),
            "overrides": table.row.rules,
            "seats": list(table.game.players or ()),
        }
        record_text = await hub.run_heavy(table.record_text)
        answer = await hub.run_apart(replay_answer, record_text, head)
        return Response(answer, media_type="application/json")

    @app.get("/reference", include_in_schema=False)
    @app.get("/reference/", include_in_schema=False)
    async def reference_home(accept_language: AcceptLanguage = None) -> RedirectResponse:
        """The reference in the browser's language."""
        return RedirectResponse(f"/reference/{negotiate(accept_language)}/")

    @app.get("/reference/{lang}", include_in_schema=False)
    async def reference_language(lang: str) -> RedirectResponse:
        return RedirectResponse(f"/reference/{_reference_language(lang)}/")

    @app.get("/reference/{lang}/{path:path}", response_class=HTMLResponse)
    async def reference_page(lang: str, path: str) -> HTMLResponse:
        """A page of the rules reference as HTML (the index at ``/reference/LANG/``)."""
        text = await asyncio.to_thread(reference_pages.page, _reference_language(lang), path)
        if text is None:
            raise LobbyError(404, f"the rules reference has no page {path!r}")
        return HTMLResponse(text)


def _reference_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise LobbyError(
            404, f"the rules reference is not in {lang!r}: it is in {', '.join(LANGUAGES)}"
        )
    return lang
