"""``thousand arena --cluster``: the arena's sets played on a real Ray cluster (a head started
here on 127.0.0.1) give the figures and the records of a local run with the same seed."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import thousand
from thousand.cli.main import main

#: a tiny bounded job: two deal-sets and one short match-set
JOB = [
    "arena",
    "--bots",
    "medium,easy",
    "--deals",
    "2",
    "--matches",
    "1",
    "--seed",
    "7",
    "--rules",
    '{"barrel.threshold": null, "game.target": 300}',
    "--quiet",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def ray_or_skip() -> None:
    """Skip without Ray, except under CI=true, where the test must run."""
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            raise AssertionError(
                "CI=true and ray is not installed (it is in the test extra)"
            ) from None
        pytest.skip("ray is not installed (pip install 'thousand[cluster]')")


def untimed(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its timings (the clock is the one thing a seed does not fix)."""
    out = dict(result)
    out["bots"] = [{k: v for k, v in b.items() if k != "ms_per_decision"} for b in result["bots"]]
    return out


def _leftovers(folder: str) -> list[int]:
    """The processes whose command line names ``folder`` (the head's own temp folder), where
    /proc lists them."""
    pids: list[int] = []
    if not Path("/proc").is_dir():
        return pids
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if folder.encode() in cmdline:
                pids.append(int(entry.name))
    return pids


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A Ray head on 127.0.0.1 (two CPUs), in a temp folder of its own; its workers import the
    thousand this test imports. Stopped afterwards, whatever happened."""
    ray_or_skip()
    script = Path(sys.executable).parent / "ray"
    port = free_port()
    # Ray's socket paths must stay short: a folder right under /tmp.
    folder = tempfile.mkdtemp(prefix="thousand-ray-", dir="/tmp")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(thousand.__file__).resolve().parents[1])
    log = Path(folder) / "head.log"
    with log.open("wb") as out:
        head = subprocess.Popen(
            [
                str(script),
                "start",
                "--head",
                "--block",
                "--node-ip-address=127.0.0.1",
                f"--port={port}",
                "--include-dashboard=false",
                "--num-cpus=2",
                f"--temp-dir={folder}",
                "--disable-usage-stats",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=folder,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while b"Ray runtime started" not in log.read_bytes():
            if head.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the Ray head did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        head.send_signal(signal.SIGTERM)  # `ray start --block` stops its processes on SIGTERM
        try:
            head.wait(timeout=40)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        for pid in _leftovers(folder):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_cluster_run_gives_the_figures_and_records_of_a_local_run(
    ray_head: str, tmp_path: Path
) -> None:
    local, cluster = tmp_path / "local.json", tmp_path / "cluster.json"
    assert main([*JOB, "--out", str(local), "--records", str(tmp_path / "local")]) == 0
    assert (
        main(
            [
                *JOB,
                "--cluster",
                ray_head,
                "--out",
                str(cluster),
                "--records",
                str(tmp_path / "cluster"),
            ]
        )
        == 0
    )
    one = json.loads(local.read_text(encoding="utf-8"))
    other = json.loads(cluster.read_text(encoding="utf-8"))
    assert untimed(other) == untimed(one)
    assert len(one["per_deal_set"]) == 2 and "match_win_rate" in one["bots"][0]
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "cluster").iterdir())
    assert len(names) == 2 * 6 + 6
    for name in names:
        here, there = tmp_path / "local" / name, tmp_path / "cluster" / name
        assert there.read_bytes() == here.read_bytes()


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_no_head_at_the_address_says_so_in_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ray_or_skip()
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    assert main([*JOB, "--cluster", address]) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"arena: --cluster: no Ray head answers at {address}")


def test_a_server_that_is_not_a_ray_head_is_told_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ray_or_skip()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]

        def answer() -> None:
            conn, _ = server.accept()
            with conn:
                conn.sendall(b"-ERR unknown command\r\n")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        assert main([*JOB, "--cluster", f"127.0.0.1:{port}"]) == 1
        thread.join(timeout=10)
    line = one_line(capsys.readouterr().err)
    assert line == f"arena: --cluster: 127.0.0.1:{port} answers, but not as a Ray head does"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cluster", "nowhere"], "arena: --cluster: 'nowhere' is not HOST:PORT"),
        (["--cluster", "host:99999"], "arena: --cluster: 'host:99999' is not HOST:PORT"),
        (["--cluster", "h:1", "--workers", "2"], "arena: --workers and --cluster: name one"),
    ],
)
def test_bad_cluster_options_say_what_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*JOB, *args]) == 2
    assert one_line(capsys.readouterr().err).startswith(message)


def test_without_ray_the_cluster_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as where it is missing
    assert main([*JOB, "--cluster", "127.0.0.1:6379"]) == 2
    line = one_line(capsys.readouterr().err)
    assert line == "arena: --cluster: Ray is not installed here: pip install 'thousand[cluster]'"
