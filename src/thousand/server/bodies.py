"""The JSON bodies of the HTTP routes (:mod:`.routes`) as pydantic models: what a request
may send, and the answer that gives a seat. FastAPI checks a request against them and the
OpenAPI description at ``/docs`` shows them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class SeatRequest(BaseModel):
    """A seat of a new table: a person, or a bot at a level."""

    kind: Literal["human", "bot"]
    level: str | None = Field(None, description="the bot's level (easy, ...); bots only")


class CreateTable(BaseModel):
    """A new table: a template, rule overrides as a record's ``rules`` object, and its seats."""

    template: str = "russian"
    rules: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(
        None, ge=0, lt=2**62, description="the seed of the cards and the bots (default: random)"
    )
    seats: list[SeatRequest] = Field(
        default_factory=lambda: [
            SeatRequest(kind="human", level=None),
            SeatRequest(kind="bot", level="easy"),
            SeatRequest(kind="bot", level="easy"),
        ]
    )
    rated: bool = Field(
        False,
        description="a rated match: only signed-in players take its human seats, and its "
        "players' ratings move at its end (default: casual)",
    )


#: a client's own secret for a seat: 22 to 128 URL-safe characters (128 bits and more)
CLAIM = r"^[A-Za-z0-9_-]{22,128}$"
CLAIM_ABOUT = (
    "the client's own secret, 22 to 128 URL-safe characters, made afresh for each seat it "
    "takes: it becomes the seat's token, so the same request sent again (after a lost answer) "
    "gets the same seat"
)


class TakeSeat(BaseModel):
    """Sit down: a seat number (or the first free one), the name to play under, and the
    client's claim."""

    seat: int | None = None
    name: str = Field(
        "player",
        max_length=256,
        description="1 to 32 characters once normalised (NFKC, spaces collapsed); not blank, "
        "no invisible character, not a name the server gives (easy-bot-1, seat-2)",
    )
    claim: str | None = Field(None, pattern=CLAIM, description=CLAIM_ABOUT)


class Rematch(BaseModel):
    """The asker's claim for its seat at the rematch."""

    claim: str | None = Field(None, pattern=CLAIM, description=CLAIM_ABOUT)


class SeatTaken(BaseModel):
    """A seat, and the token that acts for it (keep it: it is shown once)."""

    table: str
    seat: int | None
    token: str
    websocket: str


class RulesCheck(BaseModel):
    """Rules to check: a template, overrides as a record's ``rules`` object, the language."""

    template: str = "russian"
    rules: dict[str, Any] = Field(default_factory=dict)
    lang: str | None = Field(None, description="the language of the differences (en, ru, ...)")
