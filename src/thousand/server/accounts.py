"""Accounts and their sessions in the server's database (the same one as the tables, SQLite or
PostgreSQL; migration ``0006_accounts``).

An account is a name (unique however it is written: the key is its case-folded form) and an
argon2 hash of its password (:mod:`.passwords`). A session is what a signed-in browser or client
holds: a random id (256 bits) in a cookie, stored only as its SHA-256 hash, so a copy of the
database signs nobody in; it ends when its holder signs out, when the password changes, when
the account is deleted, or after :data:`SESSION_SECONDS`.

Deleting an account deletes its row and its sessions; its seats stay, with their games, under
the name :data:`DELETED_NAME` and no account, in the same transaction.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from . import rating_store
from .ratings import participant_of_account
from .storage import Store, metadata, seats

#: how long a session lasts from sign-in (30 days)
SESSION_SECONDS = 30 * 24 * 3600
#: the name a deleted account's seats go by, in the lists, the replays and the records
DELETED_NAME = "deleted player"

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    #: the name as the player wrote it (normalised: :func:`.names.player_name`)
    Column("name", String(64), nullable=False),
    #: the name case-folded: two accounts never share it
    Column("name_key", String(64), nullable=False, unique=True),
    Column("password_hash", String(256), nullable=False),
    Column("created", Float, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    #: the SHA-256 of the session id the cookie holds
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the server reads it (its password's hash aside)."""

    id: str
    name: str
    created: float


class NameTaken(ValueError):
    """Another account has this name (however it is written)."""


def name_key(name: str) -> str:
    """What makes two names the same name: ``Ann`` and ``ANN`` are one."""
    return name.casefold()


def session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_token(session_id: str) -> str:
    """The CSRF token of a session: the page sends it in ``X-CSRF-Token`` with every change it
    asks for. It is derived from the session id (which the page cannot read: the cookie is
    HttpOnly), so another site's page can neither read nor make it."""
    secret = session_id.encode("utf-8", "surrogatepass")
    return hashlib.sha256(b"thousand csrf\0" + secret).hexdigest()


class AccountStore:
    """The accounts and sessions of a :class:`.storage.Store`'s database. Calls are synchronous
    and short (one transaction): the server runs them in its storage threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- accounts ---------------------------------------------------------------------------

    def create(self, name: str, password_hash: str) -> Account:
        """A new account; :class:`NameTaken` (nothing stored) where the name is taken."""
        account = Account(secrets.token_hex(16), name, time.time())
        try:
            with self.store.engine.begin() as conn:
                conn.execute(
                    insert(accounts).values(
                        id=account.id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=password_hash,
                        created=account.created,
                    )
                )
        except IntegrityError:
            raise NameTaken(name) from None
        return account

    def find(self, name: str) -> tuple[Account, str] | None:
        """The account of ``name`` (however it is written) and its password's hash, or None."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(accounts).where(accounts.c.name_key == name_key(name))
            ).first()
        if row is None:
            return None
        return Account(row.id, row.name, row.created), row.password_hash

    def holds(self, name: str) -> bool:
        """Whether an account has ``name`` (however it is written): a guest may not sit under it."""
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(accounts.c.id).where(accounts.c.name_key == name_key(name))
            ).first()
        return found is not None

    def password_hash(self, account_id: str) -> str | None:
        with self.store.engine.connect() as conn:
            found: str | None = conn.execute(
                select(accounts.c.password_hash).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
            return found

    def set_password(self, account_id: str, password_hash: str, end_sessions: bool) -> None:
        """Store a new password hash; with ``end_sessions``, every session of the account ends
        (the caller then starts a new one)."""
        with self.store.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )
            if end_sessions:
                conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

    def delete(self, account_id: str) -> None:
        """Delete the account, its sessions and its ratings; its seats go by
        :data:`DELETED_NAME` and belong to no account (their games stay), all in one
        transaction."""
        with self.store.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.account == account_id)
                .values(name=DELETED_NAME, account=None)
            )
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
            rating_store.forget(conn, participant_of_account(account_id))

    # -- sessions ---------------------------------------------------------------------------

    def start_session(self, account_id: str, end: str | None = None) -> str:
        """A new session of the account: its id (for the cookie; only its hash is stored).
        ``end``: a session id to end in the same transaction (the one the browser held)."""
        session_id = secrets.token_urlsafe(32)
        now = time.time()
        with self.store.engine.begin() as conn:
            if end is not None:
                conn.execute(delete(sessions).where(sessions.c.id_hash == session_hash(end)))
            conn.execute(delete(sessions).where(sessions.c.expires < now))
            conn.execute(
                insert(sessions).values(
                    id_hash=session_hash(session_id),
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return session_id

    def session_account(self, session_id: str) -> Account | None:
        """The account a session id signs in, or None: an id the server did not issue, one that
        has ended or expired."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(accounts)
                .join(sessions, sessions.c.account_id == accounts.c.id)
                .where(
                    sessions.c.id_hash == session_hash(session_id),
                    sessions.c.expires > time.time(),
                )
            ).first()
        return None if row is None else Account(row.id, row.name, row.created)

    def end_session(self, session_id: str) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id_hash == session_hash(session_id)))
