"""The page's files: ``/static/...`` from the package's ``static/`` folder, with the content
types a browser needs for ES modules (``.js`` as ``text/javascript``, whatever the machine's
``mime.types`` says), and a 404 with one sentence for a file that is not there."""

from __future__ import annotations

import os
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

#: the page: package data of ``thousand.web`` (``static/**/*``), beside this package
STATIC = Path(__file__).resolve().parents[1] / "web" / "static"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}


def content_type(name: str) -> str | None:
    """The content type of a file of the page by its name; None: let Starlette guess."""
    return CONTENT_TYPES.get(os.path.splitext(name)[1].lower())


class PageFiles(StaticFiles):
    """:class:`StaticFiles` with fixed content types and one-sentence 404s."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            return await super().get_response(path, scope)
        except HTTPException as e:
            if e.status_code != 404:
                raise
            shown = path.replace(os.sep, "/")
            raise HTTPException(404, f"there is no file {shown!r} in the page") from None

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        kind = content_type(os.fspath(full_path))
        if kind is not None and response.status_code != 304:
            response.headers["content-type"] = kind
        return response
