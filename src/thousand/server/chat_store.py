"""Where a table's chat is kept (migration ``0010_chat``): its messages, each with an id that
grows per table, and the mutes its readers set.

A message is stored before anyone is told of it; a server then sends each of its connections
the messages it has not sent yet (:class:`.chat.ChatRoom`), so a second server process only
needs to hear "table X has new chat" to do the same. Two posts at once (two processes) cannot
take one id: the id is part of the primary key, and the loser tries the next one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Connection,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .storage import Store, metadata

#: tries a post makes for a free id while other processes take them
POST_TRIES = 8

chat_messages = Table(
    "chat_messages",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    #: 1, 2, 3... per table, in the order the messages were stored
    Column("id", Integer, primary_key=True, autoincrement=False),
    #: ``seats`` or ``spectators`` (:class:`.chat.Channel`)
    Column("channel", String(16), nullable=False),
    #: who wrote it: ``seat:SEAT:OCCUPANCY`` or ``account:ID`` (a spectator), what mutes name
    Column("sender", String(64), nullable=False),
    #: the writer's seat (null: a spectator), and the name shown
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    #: the account that wrote it, if any (its name goes when the account is deleted)
    Column("account", String(32), nullable=True, index=True),
    #: the text, or the id of a canned phrase (one of the two)
    Column("text", String(1024), nullable=True),
    Column("phrase", String(32), nullable=True),
    #: when it was stored (seconds since the epoch)
    Column("at", Float, nullable=False),
)

chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    #: who muted: ``seat:SEAT:OCCUPANCY`` or ``account:ID`` (a signed-in spectator)
    Column("muter", String(64), primary_key=True),
    #: whom: a sender as :data:`chat_messages` names it
    Column("muted", String(64), primary_key=True),
    #: how the muter's page names the muted one: a seat, or a spectator's name
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
)


@dataclass(frozen=True, slots=True)
class ChatRow:
    """A message as stored."""

    id: int
    channel: str
    sender: str
    seat: int | None
    name: str
    account: str | None
    text: str | None
    phrase: str | None
    at: float


@dataclass(frozen=True, slots=True)
class MuteRow:
    """A mute: who muted whom, and how the muted one is shown (a seat, or a name)."""

    muter: str
    muted: str
    seat: int | None
    name: str


class ChatStore:
    """The chat of a :class:`.storage.Store`'s tables. Calls are synchronous and short (one
    transaction): the server runs them in its storage threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def post(self, table_id: str, row: ChatRow) -> int:
        """Store a message under the table's next id (``row.id`` is ignored); that id."""
        for _ in range(POST_TRIES):
            try:
                with self.store.engine.begin() as conn:
                    last = conn.execute(
                        select(func.max(chat_messages.c.id)).where(
                            chat_messages.c.table_id == table_id
                        )
                    ).scalar_one_or_none()
                    number = (last or 0) + 1
                    conn.execute(
                        insert(chat_messages).values(
                            table_id=table_id,
                            id=number,
                            channel=row.channel,
                            sender=row.sender,
                            seat=row.seat,
                            name=row.name,
                            account=row.account,
                            text=row.text,
                            phrase=row.phrase,
                            at=row.at,
                        )
                    )
                return number
            except IntegrityError:  # another process took that id: take the next
                continue
        raise RuntimeError(f"table {table_id}: no free chat id after {POST_TRIES} tries")

    def last_id(self, table_id: str) -> int:
        """The id of the table's newest message (0: none)."""
        with self.store.engine.connect() as conn:
            last = conn.execute(
                select(func.max(chat_messages.c.id)).where(chat_messages.c.table_id == table_id)
            ).scalar_one_or_none()
        return int(last or 0)

    def after(self, table_id: str, after: int) -> list[ChatRow]:
        """The table's messages after id ``after``, oldest first."""
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(chat_messages)
                .where(chat_messages.c.table_id == table_id, chat_messages.c.id > after)
                .order_by(chat_messages.c.id)
            ).all()
        return [_chat_row(r) for r in found]

    def last(self, table_id: str, channels: Sequence[str], upto: int, count: int) -> list[ChatRow]:
        """The newest ``count`` messages of each of ``channels`` up to id ``upto``, oldest
        first."""
        rows: list[ChatRow] = []
        with self.store.engine.connect() as conn:
            for channel in channels:
                found = conn.execute(
                    select(chat_messages)
                    .where(
                        chat_messages.c.table_id == table_id,
                        chat_messages.c.channel == channel,
                        chat_messages.c.id <= upto,
                    )
                    .order_by(chat_messages.c.id.desc())
                    .limit(count)
                ).all()
                rows += [_chat_row(r) for r in found]
        return sorted(rows, key=lambda r: r.id)

    def mutes(self, table_id: str) -> list[MuteRow]:
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(chat_mutes)
                .where(chat_mutes.c.table_id == table_id)
                .order_by(chat_mutes.c.muter, chat_mutes.c.muted)
            ).all()
        return [MuteRow(m.muter, m.muted, m.seat, m.name) for m in found]

    def set_mute(self, table_id: str, mute: MuteRow, on: bool) -> None:
        """Mute (``on``) or unmute; muting twice, or unmuting one not muted, changes nothing."""
        with self.store.engine.begin() as conn:
            conn.execute(
                delete(chat_mutes).where(
                    chat_mutes.c.table_id == table_id,
                    chat_mutes.c.muter == mute.muter,
                    chat_mutes.c.muted == mute.muted,
                )
            )
            if on:
                conn.execute(
                    insert(chat_mutes).values(
                        table_id=table_id,
                        muter=mute.muter,
                        muted=mute.muted,
                        seat=mute.seat,
                        name=mute.name,
                    )
                )


def forget(conn: Connection, account_id: str, name: str) -> None:
    """A deleted account's chat: its messages stay, under ``name`` and no account; its mutes,
    and the mutes of it, go (inside the deletion's transaction)."""
    conn.execute(
        update(chat_messages)
        .where(chat_messages.c.account == account_id)
        .values(name=name, account=None)
    )
    key = f"account:{account_id}"
    conn.execute(delete(chat_mutes).where(chat_mutes.c.muter == key))
    conn.execute(delete(chat_mutes).where(chat_mutes.c.muted == key))


def _chat_row(r: object) -> ChatRow:
    m = r._mapping  # type: ignore[attr-defined]
    return ChatRow(
        m["id"],
        m["channel"],
        m["sender"],
        m["seat"],
        m["name"],
        m["account"],
        m["text"],
        m["phrase"],
        m["at"],
    )
