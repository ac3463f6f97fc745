"""Rate limits: a token bucket, and one bucket per client address."""

from __future__ import annotations

import time
from collections import OrderedDict


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
