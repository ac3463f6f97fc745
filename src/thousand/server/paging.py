"""Lists in pages: ``?limit=`` (1 to ``MAX_PAGE``, ``PAGE`` by default) items from the
``?offset=``-th on (0 to ``MAX_OFFSET``); where more follow, the answer's ``Link`` header
names the next page (``</tables?limit=50&offset=50>; rel="next"``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, TypeVar

from fastapi import Query, Response

PAGE = 50
MAX_PAGE = 200
#: the largest offset: a database takes no larger (SQLite's and PostgreSQL's 64-bit integers)
MAX_OFFSET = 10**9

Limit = Annotated[int, Query(ge=1, le=MAX_PAGE, description="items in the page (1 to 200)")]
Offset = Annotated[
    int, Query(ge=0, le=MAX_OFFSET, description="the items to skip (0 to 1,000,000,000)")
]

T = TypeVar("T")


def next_page(response: Response, path: str, limit: int, offset: int) -> None:
    """Say in ``response`` where the page after this one is."""
    response.headers["Link"] = f'<{path}?limit={limit}&offset={offset + limit}>; rel="next"'


def page(items: Sequence[T], response: Response, path: str, limit: int, offset: int) -> list[T]:
    """The page of ``items`` (all of them, in order) that ``limit`` and ``offset`` ask for."""
    if len(items) > offset + limit:
        next_page(response, path, limit, offset)
    return list(items[offset : offset + limit])
