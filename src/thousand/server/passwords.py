"""Passwords: hashed with argon2id (argon2-cffi's defaults, RFC 9106's second recommended
profile), checked in constant time, and refused with one sentence when too short or too long.

A name nobody has is checked against a dummy hash made once, so that signing in under it takes
as long as a wrong password for a name that exists: the answer and its time say nothing about
which names exist.
"""

from __future__ import annotations

import secrets
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: the fewest and the most characters a password may have
MIN_PASSWORD = 8
MAX_PASSWORD = 256

_hasher = PasswordHasher()


class BadPassword(ValueError):
    """A new password the server does not take; the text says why, in one sentence (never
    the password)."""


def check_new(password: str) -> str:
    """``password`` when it may be an account's new password, else :class:`BadPassword`."""
    if len(password) < MIN_PASSWORD:
        raise BadPassword(f"a password needs at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise BadPassword(f"a password may have at most {MAX_PASSWORD} characters")
    return password


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (salted: the same password hashes differently)."""
    return _hasher.hash(password)


@cache
def _dummy() -> str:
    return hash_password(secrets.token_urlsafe(16))


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from; ``stored`` None (no such
    account) is checked against the dummy hash, for the same cost, and is always False."""
    try:
        return _hasher.verify(stored or _dummy(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than today's (hash it again at the
    next sign-in)."""
    return _hasher.check_needs_rehash(stored)


def warm() -> None:
    """Make the dummy hash now (at start), not at the first sign-in under an unknown name."""
    _dummy()
