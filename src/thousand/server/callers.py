"""Who asks: the seat token a request carries, and the refusal of a guest who asks for a name
an account holds (shared by the lobby's routes and quick play's)."""

from __future__ import annotations


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    if authorization is None:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def name_of_account(name: str) -> str:
    """The refusal of a guest who asks for an account's name."""
    return f"the name {name!r} belongs to an account: sign in to play under it, or choose another"
