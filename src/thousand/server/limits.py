"""Rate limits: a token bucket, one bucket per client address, and the tables an address has
under way."""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator


class Bucket:
    """Allows ``rate`` events a second on average and ``burst`` at once."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class PerAddress:
    """A bucket per client address; the least recently seen are forgotten past ``keep``."""

    def __init__(self, rate: float, burst: int, keep: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = Bucket(self.rate, self.burst)
            if len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket.allow()


class TablesUnderWay:
    """The tables each address has created that may not be finished yet, and the creations
    under way, for the cap on tables per address (``finished(table_id)``: whether a table is
    finished, or gone)."""

    def __init__(self, finished: Callable[[str], bool]) -> None:
        self.finished = finished
        self._created: dict[str, set[str]] = {}
        self._creating: dict[str, int] = {}

    def count(self, address: str) -> int:
        """The tables ``address`` created that are not finished, and those being created."""
        ids = self._created.get(address, set())
        ids -= {t for t in ids if self.finished(t)}
        if not ids:
            self._created.pop(address, None)
        return len(ids) + self._creating.get(address, 0)

    @contextlib.contextmanager
    def creating(self, address: str) -> Iterator[Callable[[str], None]]:
        """Count a creation under way for ``address`` while the block runs; the block calls
        what it is given with the new table's id once it is made."""
        self._creating[address] = self._creating.get(address, 0) + 1
        try:
            yield lambda table_id: self._created.setdefault(address, set()).add(table_id)
        finally:
            self._creating[address] -= 1
            if not self._creating[address]:
                del self._creating[address]
