"""A fixture that makes one value "not playable yet", whatever the engine plays by then.

The tests of the "not playable yet" marks must not depend on which values the engine supports
today (that list shrinks as the engine grows), so they mark ``play.crawl = true`` unplayable.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from thousand.rules import PARAM_BY_NAME, Param
from thousand.rules.params import Value

CRAWL = PARAM_BY_NAME["play.crawl"]
CRAWL_REFUSED = f"rules play.crawl = true is not supported yet (supported: {CRAWL.supported_text})"


@pytest.fixture
def crawl_unplayable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``play.crawl = true`` is not playable yet while the test runs."""
    real = Param.is_supported

    def is_supported(self: Param, value: Value) -> bool:
        if self.name == "play.crawl" and value is True:
            return False
        return real(self, value)

    monkeypatch.setattr(Param, "is_supported", is_supported)
    yield
