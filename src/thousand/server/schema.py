"""Every table of the server's database in one ``MetaData``: the storage's own (tables, seats,
deals, moves, hints, analyses) and those of the modules that keep their own rows (accounts and
sessions, ratings, the quick-play queue, the chat). The migrations make exactly this schema
(tests/test_protocol.py compares them)."""

from __future__ import annotations

from . import accounts, chat_store, quickplay, rating_store
from .storage import metadata

#: the modules whose tables join :data:`metadata` when imported
KEEPERS = (accounts, chat_store, quickplay, rating_store)

__all__ = ["KEEPERS", "metadata"]
