"""Running a benchmark script as a smoke test: its JSON read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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
