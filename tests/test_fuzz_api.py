"""The lobby API fuzzed from its own OpenAPI description (schemathesis), on a real server over
HTTP, on SQLite and on PostgreSQL.

Each operation the description names gets generated requests, valid (positive) and invalid
(negative) ones, with made-up ids and with the ids of real tables: tables mid-deal of several
templates with people and bots, tables waiting for their people, a finished match. Each answer
is no 500, and its status, content type and body are as the description documents them; an
invalid request is refused. No answer names a card, but for a finished match's record, replay
and analysis, and the texts of the rules. A refused request changes no table: each table as
stored is the same afterwards, but for the tables that a request accepted (a 2xx to anything
but a GET) was for. The server logs no traceback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.schemas import APIOperation, BaseSchema
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from .fuzz_support import DATABASES, Site, no_traceback, site_on
from .server_support import cards_in

Operation = APIOperation[Any, Any, Any, Any]
#: generated requests per operation and mode
EXAMPLES = 20
#: the templates of the tables mid-deal, and of those waiting for their people
SEATED = ["russian", "tysiac", "two-player-a", "four-player"]
WAITING = ["ukrainian", "tysiac-2p"]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: answers that show cards: a finished match, and the rules in words (whose prose a card's
#: name may stand in: "As", "Ks")
SHOWS_CARDS = {
    "/games/{table_id}/record",
    "/api/games/{game_id}/replay",
    "/api/games/{game_id}/analysis",
    "/api/templates",
    "/api/parameters",
    "/api/rules/check",
    "/reference/{lang}/{path}",
}
IDS = ("table_id", "game_id")
#: schemathesis' own strategies draw from ``random`` (Hypothesis seeds it for each example)
pytestmark = pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module:hypothesis.errors.HypothesisDeprecationWarning"
)


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    kind = str(request.param)
    with site_on(kind, tmp_path_factory.mktemp(f"fuzz-api-{kind}"), SEATED, WAITING, True) as s:
        yield s


@pytest.fixture(scope="module")
def schema(site: Site) -> BaseSchema:
    """The server's OpenAPI description, as schemathesis reads it from the server."""
    return schemathesis.openapi.from_url(site.server.http + "/openapi.json")


def test_the_description_is_valid_and_names_every_route(site: Site, schema: BaseSchema) -> None:
    labels = {op.label for op in operations(schema)}
    assert {"POST /tables", "GET /tables/{table_id}", "POST /api/rules/check"} <= labels
    assert "HTTPValidationError" not in site.server.get("/openapi.json").text


@pytest.mark.parametrize(
    "body",
    [
        '{"rules": {"a": ' + "[" * 900 + '"\\u0001"' + "]" * 900 + "}}",
        json.dumps({"rules": {"k" * 3000: {"k" * 3000: "\x01"}}}),
        json.dumps({"seats": [{}] * 3000}),
    ],
    ids=["nested deep", "long keys", "many problems"],
)
def test_a_refusal_is_one_short_sentence_however_long_the_request(site: Site, body: str) -> None:
    """What the fuzzing found: a sentence that said where an odd character was named every key
    above it whole (thousands of characters), and one that named every problem of a request."""
    answer = site.server.post("/tables", json.loads(body))
    assert answer.status_code == 422, answer.text
    sentence = answer.json()["detail"]
    assert len(sentence) <= 300 and sentence.startswith("the request is not valid: "), sentence


def test_fuzzed_requests_are_answered_as_described_and_change_nothing_refused(
    site: Site, schema: BaseSchema
) -> None:
    before = site.stored()
    fuzzing = Fuzzing(site)
    for operation in operations(schema):
        fuzzing.run(operation, GenerationMode.POSITIVE)
        if negatable(operation.definition.raw):
            fuzzing.run(operation, GenerationMode.NEGATIVE)
    assert not fuzzing.failures, "\n\n".join(fuzzing.failures[:10])
    assert fuzzing.refused_at_tables >= 50, "too few requests went to the real tables"
    after = site.stored()
    unchanged = [t for t in before if t not in fuzzing.changed]
    assert len(unchanged) >= len(site.seated), "an accepted request changed a table mid-deal"
    for table_id in unchanged:
        assert after[table_id] == before[table_id], f"table {table_id} changed"
    assert site.server.get("/health").status_code == 200
    no_traceback(site.server)
    print(
        f"\n{fuzzing.sent} requests, {fuzzing.refused_at_tables} refused at real tables; "
        f"tables that took one: {sorted(fuzzing.changed)}"
    )


class Fuzzing:
    """Requests sent to ``site``'s server, what was wrong with their answers, and the tables
    that accepted one."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.session = requests.Session()
        self.failures: list[str] = []
        self.changed: set[str] = set()
        self.sent = 0
        #: refused requests to the real tables
        self.refused_at_tables = 0

    def run(self, operation: Operation, mode: GenerationMode) -> None:
        """``EXAMPLES`` requests to ``operation``, made by ``mode``."""
        checks = CHECKS if mode == GenerationMode.POSITIVE else [*CHECKS, negative_data_rejection]

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=cases(operation, mode, self.site.table_ids()))
        def fuzz(case: Case[Operation]) -> None:
            self.send(case, checks)

        fuzz()

    def send(self, case: Case[Operation], checks: list[Any]) -> None:
        self.sent += 1
        response = case.call(base_url=self.site.server.http, session=self.session, timeout=30)
        try:
            case.validate_response(response, checks=checks)
        except BaseException as e:  # schemathesis' FailureGroup is a BaseExceptionGroup
            self.failures.append(f"{case.operation.label}: {e}")
            return
        ids = {v for k, v in case.path_parameters.items() if k in IDS}
        if case.method != "GET" and 200 <= response.status_code < 300:
            self.changed |= ids
        if response.status_code >= 400:
            self.refused_at_tables += bool(ids & set(self.site.table_ids()))
            detail = response.json().get("detail")
            if not (isinstance(detail, str) and detail and "\n" not in detail):
                self.failures.append(f"{case.operation.label}: not one sentence: {detail!r}")
        shown = shown_cards(case, response)
        if shown:
            self.failures.append(f"{case.operation.label} {case.path_parameters}: {shown}")


def operations(schema: BaseSchema) -> list[Operation]:
    """Every operation of the description (each one valid)."""
    found = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), f"an operation of the description is not valid: {result}"
        found.append(result.ok())
    return found


def negatable(definition: dict[str, Any]) -> bool:
    """Whether a request to an operation can be made invalid: it takes a body, or a parameter
    that is not free text (a negative run of one that cannot is Hypothesis' Unsatisfiable,
    slowly)."""
    if "requestBody" in definition:
        return True
    return not all(free_text(p.get("schema", {})) for p in definition.get("parameters", []))


def free_text(schema: dict[str, Any]) -> bool:
    """Whether any text (or none) is valid for a parameter of ``schema``."""
    limits = {"pattern", "minLength", "maxLength", "format", "enum", "const"}
    options = schema.get("anyOf", [schema])
    return all(o.get("type") in ("string", "null") and not limits & set(o) for o in options)


def cases(operation: Operation, mode: GenerationMode, table_ids: list[str]) -> Any:
    """Requests for ``operation``: with made-up ids, and with the ids of real tables."""
    made_up = operation.as_strategy(generation_mode=mode)
    names = [n for n in IDS if "{" + n + "}" in operation.path]
    if not names:
        return made_up
    real = st.sampled_from(table_ids).flatmap(
        lambda t: operation.as_strategy(generation_mode=mode, path_parameters={names[0]: t})
    )
    return st.one_of(made_up, real)


def shown_cards(case: Case[Operation], response: Any) -> set[int]:
    """The cards an answer names that its request did not (an error may say what it was
    sent); none where the answer may show cards."""
    if response.status_code < 400 and case.operation.path in SHOWS_CARDS:
        return set()
    if "json" not in response.headers.get("content-type", ""):
        return set()
    sent = [case.path_parameters, case.query, dict(case.headers or {}), case.body]
    sent_cards = cards_in([str(part) for part in sent])
    return cards_in(response.json()) - sent_cards
