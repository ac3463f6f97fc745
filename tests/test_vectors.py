"""Every public conformance vector replays to its ``expect``; every reject vector is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from thousand.records import RecordError, read_record, replay, replay_json
from thousand.rules import TEMPLATES

from .conftest import shared_dir

SUPPORTED = list(TEMPLATES)

VECTORS = sorted(p for t in SUPPORTED for p in (shared_dir() / "vectors" / t).glob("*.json"))
REJECTS = sorted(p for t in SUPPORTED for p in (shared_dir() / "vectors-reject" / t).glob("*.json"))


def _record_text(record: object) -> str:
    return record if isinstance(record, str) else json.dumps(record)


def test_vectors_present() -> None:
    assert len(VECTORS) >= 187, "the shared vectors were not found"
    assert len(REJECTS) >= 52
    assert {p.parent.name for p in VECTORS} == set(TEMPLATES), "a template has no vector"


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_vector_replays_to_expect(path: Path) -> None:
    data = json.loads(path.read_text())
    got = replay_json(replay(read_record(_record_text(data["record"]))))
    expect = data["expect"]
    for key, value in expect.items():
        if key == "deals":
            assert len(got["deals"]) == len(value)
            for i, (g, e) in enumerate(zip(got["deals"], value, strict=True), start=1):
                for k, v in e.items():
                    assert g[k] == v, f"deal {i}, {k}: {g[k]} != {v}"
        else:
            assert got[key] == value, key


@pytest.mark.parametrize("path", REJECTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reject_vector_is_refused(path: Path) -> None:
    data = json.loads(path.read_text())
    reject = data["reject"]
    with pytest.raises(RecordError) as info:
        replay(read_record(_record_text(data["record"])))
    message = str(info.value)
    if "deal" in reject:
        assert message.startswith(f"deal {reject['deal']}, move {reject['move']} "), message


def test_replay_cli_refuses_with_status_2(tmp_path: Path) -> None:
    path = sorted((shared_dir() / "vectors-reject" / "russian").glob("*.json"))[0]
    data = json.loads(path.read_text())
    f = tmp_path / "r.json"
    f.write_text(_record_text(data["record"]))
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "replay", str(f), "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith(f"deal {data['reject']['deal']}, move {data['reject']['move']} ")


@pytest.mark.parametrize("template", SUPPORTED)
def test_replay_cli_prints_the_expect_of_every_template(template: str, tmp_path: Path) -> None:
    path = sorted((shared_dir() / "vectors" / template).glob("*.json"))[0]
    data = json.loads(path.read_text())
    f = tmp_path / "r.json"
    f.write_text(_record_text(data["record"]))
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "replay", str(f), "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["totals"] == data["expect"]["totals"]
    assert got["winner"] == data["expect"]["winner"]
    text = subprocess.run(
        [sys.executable, "-m", "thousand", "replay", str(f)], capture_output=True, text=True
    )
    assert text.returncode == 0 and text.stdout.startswith(f"{template}: ")
