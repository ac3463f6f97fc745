"""A table's chat: two channels, the players' and the spectators', plain text or canned phrases,
limited in length and rate, stored with the table, and muted per reader.

- ``seats``: written by the seated players (each under its seat's name), read by the seats and
  the spectators.
- ``spectators``: written and read by spectators only (it never reaches a seat, so spectators
  cannot tell the players anything). A spectator writes under the name of the account its
  session cookie signs in; a guest spectator reads but does not write.

The connection decides who writes (its seat's token, or its session), never a field of the
message. A message is plain text (the page inserts it as text, never as HTML), normalised
(NFC, runs of white space made one space) and refused, with one sentence and nothing stored,
when it is blank, longer than :data:`MAX_CHAT` characters, holds a control, bidi or
unassigned character, or comes faster than :data:`CHAT_BURST` in :data:`CHAT_WINDOW` seconds
from one writer (a seat, or a spectator's account, however many connections it has).

A message is stored first (:class:`.chat_store.ChatStore`, an id per table), then
:meth:`ChatRoom.deliver` sends this process's connections the stored messages it has not sent
yet: whatever stores a message elsewhere only has to have ``deliver`` called here.

A mute is a reader's: a seat (its occupancy: whoever takes the seat next starts afresh) or a
signed-in spectator (its account) mutes a seat or a spectator's name, and the muted one's
messages are not sent to it, now or in the history a new connection gets; it is stored, so it
outlives reconnections and restarts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import unicodedata
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .accounts import Account, AccountStore
from .bus import Change
from .chat_store import ChatRow, ChatStore, MuteRow
from .limits import Bucket
from .names import BadName, player_name

if TYPE_CHECKING:
    from .tables import Connection, LiveTable

#: the most characters a message may have, once normalised
MAX_CHAT = 300
#: messages one writer may send in a burst, and the seconds in which the burst comes back
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: messages of each channel a new connection gets
HISTORY = 50

log = logging.getLogger("thousand.server")


class Channel(StrEnum):
    """Who writes and who reads: the players, or the spectators among themselves."""

    SEATS = "seats"
    SPECTATORS = "spectators"


class Phrase(StrEnum):
    """The canned phrases; each reader's client shows them in its own language."""

    GOOD_LUCK = "good-luck"
    GOOD_GAME = "good-game"
    WELL_PLAYED = "well-played"
    THANKS = "thanks"
    SORRY = "sorry"
    OOPS = "oops"


#: bidi embeddings, overrides and isolates: they would turn the text around them
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: control, surrogate, private use, unassigned
_REFUSED = {"Cc", "Cs", "Co", "Cn"}


class ChatRefused(ValueError):
    """A chat message or mute the server refuses: ``code`` names the kind, the text says why
    in one sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Say:
    """A chat message: normalised text, or a canned phrase."""

    text: str | None = None
    phrase: Phrase | None = None


@dataclass(frozen=True, slots=True)
class Mute:
    """Mute (or with ``muted`` false, unmute) a seat or a spectator's name."""

    seat: int | None
    name: str | None
    muted: bool


def chat_text(raw: str) -> str:
    """``raw`` as the chat keeps it, or :class:`ChatRefused`."""
    for ch in raw:
        if unicodedata.category(ch) in _REFUSED or ch in _BIDI:
            raise ChatRefused(
                "bad_chat",
                f"a chat message may not hold the invisible or control character U+{ord(ch):04X}",
            )
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    if not text:
        raise ChatRefused("bad_chat", "a chat message may not be blank")
    if len(text) > MAX_CHAT:
        raise ChatRefused(
            "chat_too_long",
            f"a chat message may have at most {MAX_CHAT} characters, this one has {len(text)}",
        )
    return text


def read_say(data: dict[str, Any]) -> Say:
    """A ``chat`` client message (its type checked already), or :class:`ChatRefused`."""
    _only(data, {"type", "text", "phrase"}, "chat")
    text, phrase = data.get("text"), data.get("phrase")
    if (text is None) == (phrase is None):
        raise ChatRefused("malformed", "a chat message has either a 'text' or a 'phrase'")
    if phrase is not None:
        if phrase not in set(Phrase):
            known = ", ".join(p.value for p in Phrase)
            raise ChatRefused("bad_chat", f"'phrase' must be one of {known}")
        return Say(phrase=Phrase(phrase))
    if not isinstance(text, str):
        raise ChatRefused("malformed", "a chat message's 'text' must be a string")
    return Say(text=chat_text(text))


def read_mute(data: dict[str, Any]) -> Mute:
    """A ``mute`` client message (its type checked already), or :class:`ChatRefused`."""
    _only(data, {"type", "seat", "name", "muted"}, "mute")
    seat, name, muted = data.get("seat"), data.get("name"), data.get("muted")
    if not isinstance(muted, bool):
        raise ChatRefused("malformed", "a mute's 'muted' must be true (mute) or false (unmute)")
    if (seat is None) == (name is None):
        raise ChatRefused("malformed", "a mute names either a 'seat' or a spectator's 'name'")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise ChatRefused("malformed", "a mute's 'seat' must be a seat number")
    if name is not None:
        if not isinstance(name, str):
            raise ChatRefused("malformed", "a mute's 'name' must be a spectator's name")
        try:
            name = player_name(name)
        except BadName as e:
            raise ChatRefused("bad_mute", str(e)) from None
    return Mute(seat, name, muted)


def _only(data: dict[str, Any], keys: set[str], kind: str) -> None:
    extra = sorted(set(data) - keys)
    if extra:
        shown = extra[0] if len(extra[0]) <= 32 else extra[0][:32] + "..."
        raise ChatRefused("malformed", f"unknown key {shown!r} in a {kind} message")


def line_json(row: ChatRow) -> dict[str, Any]:
    """A stored message as a reader gets it (in a ``chat-line``, or a ``chat-history``)."""
    out: dict[str, Any] = {
        "id": row.id,
        "channel": row.channel,
        "seat": row.seat,
        "name": row.name,
        "at": row.at,
    }
    if row.phrase is not None:
        out["phrase"] = row.phrase
    else:
        out["text"] = row.text
    return out


def _encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Writer:
    """Who a connection writes and mutes as: its key (what mutes name), seat, name, account
    and channel."""

    key: str
    seat: int | None
    name: str
    account: str | None
    channel: Channel


class ChatRoom:
    """A table's chat in this server process."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.store = ChatStore(table.hub.store)
        self.accounts = AccountStore(table.hub.store)
        #: the newest id sent to this process's connections (None: not read yet)
        self.sent: int | None = None
        #: the connections that have had their history: only they get new messages
        self.welcomed: weakref.WeakSet[Connection] = weakref.WeakSet()
        #: each spectator connection's account, as its session cookie signed it in (None: a
        #: guest), read once
        self.spectators: weakref.WeakKeyDictionary[Connection, Account | None] = (
            weakref.WeakKeyDictionary()
        )
        self.buckets: dict[str, Bucket] = {}
        #: one delivery or welcome at a time: each connection gets every message once, in order
        self._lock = asyncio.Lock()

    # -- who --------------------------------------------------------------------------------

    async def _account(
        self, conn: Connection, session: str | None, fresh: bool = False
    ) -> Account | None:
        """The account ``conn``'s session signs in (None: a guest), read once, or again with
        ``fresh`` (a session that has ended since, or an account deleted, writes no more)."""
        if conn in self.spectators and not fresh:
            return self.spectators[conn]
        account = None
        if session:
            account = await self.table.hub.write(self.accounts.session_account, session)
        self.spectators[conn] = account
        return account

    def _seat_key(self, seat: int) -> str:
        return f"seat:{seat}:{self.table.row.seats[seat].occupancy}"

    async def _writer(self, conn: Connection, session: str | None) -> Writer:
        """Who ``conn`` writes as; :class:`ChatRefused` for a seat that was left or a spectator
        not signed in."""
        if conn.seat is not None:
            held = self.table.row.seats[conn.seat]
            if held.token_hash is None:
                raise ChatRefused("left", f"seat {conn.seat} was left")
            name = held.name or f"seat-{conn.seat}"
            return Writer(self._seat_key(conn.seat), conn.seat, name, held.account, Channel.SEATS)
        account = await self._account(conn, session, fresh=True)
        if account is None:
            raise ChatRefused(
                "no_chat_name",
                "a spectator writes under an account's name: sign in, then open the table again",
            )
        return Writer(f"account:{account.id}", None, account.name, account.id, Channel.SPECTATORS)

    def _reader_key(self, conn: Connection) -> str | None:
        if conn.seat is not None:
            return self._seat_key(conn.seat)
        account = self.spectators.get(conn)
        return None if account is None else f"account:{account.id}"

    @staticmethod
    def _channels(conn: Connection) -> tuple[Channel, ...]:
        if conn.seat is not None:
            return (Channel.SEATS,)
        return (Channel.SEATS, Channel.SPECTATORS)

    # -- writing ----------------------------------------------------------------------------

    async def handle(self, conn: Connection, message: Say | Mute, session: str | None) -> None:
        """A chat message or a mute from ``conn`` (``session``: its session cookie, if any);
        a refusal goes to ``conn`` alone and changes nothing. The database's
        ``Unavailable`` is the caller's to answer."""
        try:
            if isinstance(message, Say):
                await self.say(conn, message, session)
            else:
                await self.mute(conn, message, session)
        except ChatRefused as e:
            conn.send({"type": "error", "code": e.code, "message": str(e)})

    async def say(self, conn: Connection, say: Say, session: str | None) -> None:
        writer = await self._writer(conn, session)
        bucket = self.buckets.get(writer.key)
        if bucket is None:
            bucket = self.buckets[writer.key] = Bucket(CHAT_BURST / CHAT_WINDOW, CHAT_BURST)
        if not bucket.allow():
            raise ChatRefused(
                "chat_too_fast",
                f"at most {CHAT_BURST} chat messages in {CHAT_WINDOW:g} seconds: wait a moment",
            )
        row = ChatRow(
            0,
            writer.channel,
            writer.key,
            writer.seat,
            writer.name,
            writer.account,
            say.text,
            None if say.phrase is None else say.phrase.value,
            time.time(),
        )
        await self.table.hub.write(self.store.post, self.table.id, row)
        self.table.hub.announce(self.table.id, self.table.version, Change.CHAT)
        await self.deliver()

    async def mute(self, conn: Connection, mute: Mute, session: str | None) -> None:
        if conn.seat is not None:
            muter = self._seat_key(conn.seat)
        else:
            account = await self._account(conn, session, fresh=True)
            if account is None:
                raise ChatRefused(
                    "no_chat_name", "a spectator mutes as an account: sign in, then open the table"
                )
            muter = f"account:{account.id}"
        row = await self._muted(conn, mute)
        if row.muted == muter:
            raise ChatRefused("bad_mute", "one does not mute oneself")
        await self.table.hub.write(
            self.store.set_mute,
            self.table.id,
            MuteRow(muter, row.muted, row.seat, row.name),
            mute.muted,
        )
        mutes = await self.table.hub.write(self.store.mutes, self.table.id)
        text = _encode({"type": "muted", "muted": _muted_json(mutes, muter)})
        for other in list(self.table.connections):
            if self._reader_key(other) == muter:
                other.send_text(text)

    async def _muted(self, conn: Connection, mute: Mute) -> MuteRow:
        """Whom a mute names, as a :class:`MuteRow` without its muter; or :class:`ChatRefused`."""
        if mute.seat is not None:
            seats = self.table.row.seats
            if mute.seat >= len(seats):
                raise ChatRefused("bad_mute", f"seat {mute.seat} is not a seat of this table")
            held = seats[mute.seat]
            if held.token_hash is None or held.name is None:
                raise ChatRefused("bad_mute", f"seat {mute.seat} has no player to mute")
            return MuteRow("", self._seat_key(mute.seat), mute.seat, held.name)
        assert mute.name is not None
        if conn.seat is not None:
            raise ChatRefused(
                "bad_mute", "the players never read the spectators' chat: there is no one to mute"
            )
        found = await self.table.hub.write(self.accounts.find, mute.name)
        if found is None:
            raise ChatRefused("bad_mute", f"there is no account named {mute.name!r}")
        return MuteRow("", f"account:{found[0].id}", None, found[0].name)

    # -- reading ----------------------------------------------------------------------------

    async def welcome(self, conn: Connection, session: str | None) -> None:
        """Send a new connection (attached to the table already) the newest messages of the
        channels it reads, and its mutes, in a ``chat-history`` (none where there are neither);
        from then on it gets each new message. A database that cannot answer now leaves the
        connection without the chat (logged)."""
        async with self._lock:
            try:
                if self.sent is None:
                    self.sent = await self.table.hub.write(self.store.last_id, self.table.id)
                if conn.seat is None:
                    await self._account(conn, session)
                rows = await self.table.hub.write(
                    self.store.last, self.table.id, self._channels(conn), self.sent, HISTORY
                )
                mutes = await self.table.hub.write(self.store.mutes, self.table.id)
            except Exception as e:
                log.warning("table %s: the chat history could not be read: %s", self.table.id, e)
                return
            reader = self._reader_key(conn)
            muted = {m.muted for m in mutes if m.muter == reader}
            lines = [line_json(r) for r in rows if r.sender not in muted]
            if lines or muted:
                conn.send(
                    {
                        "type": "chat-history",
                        "messages": lines,
                        "muted": _muted_json(mutes, reader),
                    }
                )
            self.welcomed.add(conn)

    async def deliver(self) -> None:
        """Send this process's connections the stored messages they have not had: each to the
        connections that read its channel and have not muted its writer. A database that
        cannot answer now leaves them to the next delivery (logged)."""
        async with self._lock:
            if self.sent is None:  # no connection has been welcomed here yet
                return
            try:
                rows = await self.table.hub.write(self.store.after, self.table.id, self.sent)
                if not rows:
                    return
                mutes = await self.table.hub.write(self.store.mutes, self.table.id)
            except Exception as e:
                log.warning("table %s: new chat waits for the database: %s", self.table.id, e)
                return
            self.sent = rows[-1].id
            texts = {r.id: _encode({"type": "chat-line", **line_json(r)}) for r in rows}
            by_reader: dict[str | None, set[str]] = {}
            for m in mutes:
                by_reader.setdefault(m.muter, set()).add(m.muted)
            for conn in list(self.table.connections):
                if conn not in self.welcomed:
                    continue
                reads = self._channels(conn)
                muted = by_reader.get(self._reader_key(conn), set())
                for r in rows:
                    if r.channel in reads and r.sender not in muted:
                        conn.send_text(texts[r.id])


def _muted_json(mutes: Iterable[MuteRow], muter: str | None) -> list[dict[str, Any]]:
    return [{"seat": m.seat, "name": m.name} for m in mutes if m.muter == muter]
