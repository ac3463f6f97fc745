"""The error answers of the HTTP routes, as their OpenAPI description names them: each status
a route may answer, and what it means there. Every error is :class:`.bodies.Error`,
``{"detail": "one sentence"}``; tests/test_fuzz_api.py holds the server to the description."""

from __future__ import annotations

from typing import Any

from .bodies import Error

#: what each error status of a route means, as the OpenAPI description says it
ERRORS = {
    400: "a Host the server does not answer for, a control character or lone surrogate in "
    "the path or the query, or a body that cannot be parsed",
    401: "not signed in, or the password is wrong",
    403: "the token does not hold what this needs, or a signed-in request lacks its session's "
    "CSRF token or comes from another site's page",
    404: "there is no such table, game, player, ticket or page",
    409: "the table, name or ticket is not where this can be done",
    413: "the request body is over the server's limit",
    422: "the request is not valid: the sentence says where",
    429: "too many requests or sign-in attempts, or too many tables or tickets under way",
    503: "the database cannot answer now, or the table cannot be loaded",
}
#: the errors every route may answer: the guard's and the limit on requests
EVERY_ROUTE = (400, 429)
#: and those of every route that takes a body (the guard reads it: 413, 422; a signed-in
#: request's session is checked: 403, 503)
BODY_ROUTE = (403, 413, 422, 503)
#: and those of every route that loads a table (422 as for every route with a parameter: a
#: description without it gets FastAPI's own 422, whose shape is not this server's)
TABLE_ROUTE = (404, 422, 503)


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers ``statuses`` of a route, for its ``responses``: each is
    :class:`.bodies.Error` in JSON, whatever the route's own answers are (a page's too)."""
    content = {"application/json": {"schema": Error.model_json_schema()}}
    return {s: {"description": ERRORS[s], "content": content} for s in statuses}
