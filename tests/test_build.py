"""The install: a wheel compiles the engine where it can, and says so where it cannot."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from thousand.cli import build

ROOT = Path(__file__).resolve().parents[1]


def test_a_wheel_without_a_c_compiler_is_pure_python_and_says_so(tmp_path: Path) -> None:
    """No working C compiler (CC=/bin/false): the wheel is pure Python (py3-none-any, no
    extension module) and the build prints the one-line notice."""
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv*", ".git", "build", "*.egg-info", "__pycache__"),
    )
    out = tmp_path / "wheels"
    env = {**os.environ, "CC": "/bin/false"}
    env.pop("THOUSAND_COMPILE", None)
    command = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(out)]
    done = subprocess.run(
        [*command, "-v"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = out.glob("thousand-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        assert not [n for n in z.namelist() if n.endswith((".so", ".pyd"))]
    said = [
        line for line in (done.stdout + done.stderr).splitlines() if "thousand: no working" in line
    ]
    assert said and "pure-Python engine" in said[0]


def test_an_install_from_a_wheel_runs_compiled_here() -> None:
    """Where the tests run from an install (CI's second run, ``pip install .`` with a C
    compiler), the engine and the solver are compiled; a source checkout runs them as Python."""
    assert build.compiled() == build.installed()


@pytest.mark.parametrize(
    ("installed", "compiled", "told"),
    [(True, False, True), (True, True, False), (False, False, False)],
)
def test_only_a_wheel_that_fell_back_is_told(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    installed: bool,
    compiled: bool,
    told: bool,
) -> None:
    monkeypatch.setattr(build, "installed", lambda: installed)
    monkeypatch.setattr(build, "compiled", lambda: compiled)
    build.warn_if_slow()
    err = capsys.readouterr().err
    assert (err == build.NOTICE + "\n") is told
    assert told or err == ""
