"""A smoke run of the server benchmark with a tiny budget (no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_server_benchmark_runs(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    script = str(ROOT / "benchmarks" / "bench_server.py")
    args = ["--tables", "3", "--seconds", "0.5", "--paced-delay", "0.01", "--json", str(out)]
    subprocess.run(
        [sys.executable, script, *args],
        check=True,
        capture_output=True,
        timeout=120,
    )
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["tables"] == 3 and figures["engine_moves_per_second"] > 0
    for run in ("flat_out", "paced"):
        assert figures[run]["moves"] > 0
        assert figures[run]["latency_p99_ms"] >= figures[run]["latency_p50_ms"] > 0
