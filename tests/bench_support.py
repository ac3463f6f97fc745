"""Running a benchmark script as a smoke test: its JSON read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from thousand.bots.arena import ArenaConfig, run_arena
from thousand.cli.arena import record_writer

ROOT = Path(__file__).resolve().parents[1]


def run_benchmark(script: str, args: list[str], out: Path) -> Any:
    """``benchmarks/<script>`` run with ``args`` and ``--json out``; the JSON it wrote."""
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args, "--json", str(out)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return json.loads(out.read_text(encoding="utf-8"))


def arena_records(config: ArenaConfig, folder: Path) -> dict[str, Any]:
    """The arena run with ``config`` on one worker, each game's record written into
    ``folder`` (made here) as ``thousand arena --records`` writes it; its result."""
    folder.mkdir()
    return run_arena(config, workers=1, on_game=record_writer(folder, config))
