"""The README tells the truth: its Python examples run, its quick start is two commands (the
first installs the package, whose wheel holds the page and serves it), CI runs the README's test
command, and the commands, templates and files it names exist."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from thousand.cli.main import build_parser
from thousand.rules import TEMPLATES, RulesError, template_rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI_RUN = ROOT / ".ci" / "run"

_FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def section(title: str) -> str:
    """The text under the ``## title`` heading, up to the next heading of that level."""
    match = re.search(
        rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL
    )
    assert match is not None, f"README has no '## {title}' section"
    return match.group(1)


def blocks(text: str, *languages: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(text) if lang in languages]


def commands(block: str) -> list[str]:
    """The command lines of a shell block (no blank lines, no comment lines)."""
    return [
        line.strip()
        for line in block.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


def quick_start() -> list[str]:
    found = blocks(section("Quick start"), "bash", "sh", "shell", "console", "")
    assert len(found) == 1, "the quick start must be one shell block"
    return commands(found[0])


def test_python_examples_run() -> None:
    """Every ```python block, in order, in one namespace (as a reader would paste them)."""
    examples = blocks(README, "python")
    assert examples, "README has no Python example"
    namespace: dict[str, object] = {"__name__": "readme"}
    for number, code in enumerate(examples, start=1):
        exec(compile(code, f"README.md python block {number}", "exec"), namespace)


def test_quick_start_is_exactly_two_commands() -> None:
    play, test = quick_start()
    assert play == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/thousand serve"
    assert "pytest" in test, test
    for command in (play, test):
        assert command.startswith("python3 -m venv .venv && "), command
    assert "open http://127.0.0.1:8000/ in a browser and play" in section("Quick start")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel that ``pip install .`` builds, from a copy of the checkout (so no build folder
    is left in it), with build isolation as ``pip install .`` has it."""
    top = tmp_path_factory.mktemp("checkout")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, top / name)
    shutil.copytree(ROOT / "src", top / "src", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(top)],
        check=True,
        capture_output=True,
        timeout=600,
        # what the wheel holds, not the compiling (tests/test_build.py and CI's second run)
        env={**os.environ, "THOUSAND_COMPILE": "0"},
    )
    (found,) = out.glob("thousand-*.whl")
    return found


def test_the_installed_package_holds_the_page_and_the_catalogues(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "thousand/web/static/index.html" in names
    for lang in ("ru", "pl", "uk", "et"):
        assert f"thousand/i18n/catalog/{lang}.json" in names
    static = sorted(
        str(p.relative_to(ROOT / "src")) for p in (ROOT / "src/thousand/web/static").rglob("*")
    )
    missing = [p for p in static if (ROOT / "src" / p).is_file() and p not in names]
    assert not missing, f"the wheel lacks files of the page: {missing}"


def test_the_installed_package_serves_the_page(wheel: Path, tmp_path: Path) -> None:
    """The page comes from the installed package, not from the checkout."""
    target = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "-t", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    script = (
        "import json, pathlib, tempfile, thousand\n"
        "from fastapi.testclient import TestClient\n"
        "from thousand.server.config import Settings\n"
        "from thousand.server.app import create_app\n"
        "app = create_app(Settings(data=pathlib.Path(tempfile.mkdtemp()), bot_delay=0))\n"
        "with TestClient(app, base_url='http://127.0.0.1') as c:\n"
        "    page, ref = c.get('/'), c.get('/reference/ru/')\n"
        "    print(json.dumps([thousand.__file__, page.status_code, page.text,"
        " ref.status_code]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    where, status, text, reference = json.loads(done.stdout.splitlines()[-1])
    assert Path(where).is_relative_to(target), where
    assert status == 200 and reference == 200
    assert text == (target / "thousand/web/static/index.html").read_text(encoding="utf-8")


def _install_step(command: str) -> list[str]:
    """The arguments of the ``pip install`` step of a quick-start command."""
    for step in command.split("&&"):
        argv = shlex.split(step)
        if argv[0].endswith("/pip") and argv[1] == "install":
            return argv[2:]
    raise AssertionError(f"{command!r} installs nothing")


@pytest.fixture
def quick_start_venv(tmp_path: Path) -> Iterator[tuple[Path, Path, Callable[[str], None]]]:
    """A copy of the checkout, a fresh venv, and ``install(command)``: that quick-start
    command's ``pip install`` step run there as written (the dependencies are this test run's
    own, so ``--no-deps``)."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, checkout / name)
    shutil.copytree(ROOT / "src", checkout / "src", ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)

    def install(command: str) -> None:
        argv = [str(venv / "bin" / "pip"), "install", "-q", "--no-deps", *_install_step(command)]
        subprocess.run(argv, cwd=checkout, check=True, capture_output=True, timeout=600)

    yield checkout, venv, install


def _in_venv(venv: Path) -> dict[str, str]:
    """The environment in which the venv's Python finds thousand's dependencies (this run's),
    and thousand only where the venv installed it: the run's own thousand (an install, in CI's
    compiled run) is left out of the folder of links to its dependencies."""
    deps = venv.parent / "deps"
    if not deps.exists():
        deps.mkdir()
        for folder in (Path(p) for p in sys.path if p.endswith("site-packages")):
            for entry in folder.iterdir():
                if entry.name.startswith("thousand") or (deps / entry.name).exists():
                    continue
                (deps / entry.name).symlink_to(entry)
    return {**os.environ, "PYTHONPATH": str(deps)}


def test_the_test_install_leaves_a_running_server_whole(
    quick_start_venv: tuple[Path, Path, Callable[[str], None]], tmp_path: Path
) -> None:
    """The quick start's server, then its test command's install while the server runs: the
    page, its files and the rules reference still answer (an install that replaced the
    package under the server gave 404 and 500)."""
    checkout, venv, install = quick_start_venv
    serve, test = quick_start()
    install(serve)
    port = _free_port()
    data = tmp_path / "data"
    log = (tmp_path / "server.log").open("wb")
    command = ["-m", "thousand", "serve", "--port", str(port), "--data", str(data)]
    server = subprocess.Popen(
        [str(venv / "bin" / "python"), *command],
        cwd=checkout,
        env=_in_venv(venv),
        stdout=log,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    paths = ("/", "/static/js/lobby.js", "/static/i18n/ru.json", "/reference/ru/")
    try:
        _wait_for(base, server)
        before = {path: httpx.get(base + path, timeout=10).status_code for path in paths}
        install(test)
        after = {path: httpx.get(base + path, timeout=10).status_code for path in paths}
    finally:
        server.terminate()
        server.wait(10)
        log.close()
    assert before == dict.fromkeys(paths, 200)
    assert after == dict.fromkeys(paths, 200), (tmp_path / "server.log").read_text()


def test_the_serve_install_keeps_the_checkout_under_test(
    quick_start_venv: tuple[Path, Path, Callable[[str], None]],
) -> None:
    """The other order: after the test command's install, the serve command's install leaves
    the venv running the checkout's own files (what the tests test is what is served)."""
    checkout, venv, install = quick_start_venv
    serve, test = quick_start()
    install(test)
    install(serve)
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import thousand; print(thousand.__file__)"],
        cwd=checkout.parent,
        env=_in_venv(venv),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    assert Path(where) == checkout / "src" / "thousand" / "__init__.py"


def test_the_server_data_folder_is_ignored_by_git() -> None:
    """``thousand serve`` keeps its data in ``./thousand-data`` by default: git ignores it."""
    default = build_parser().parse_args(["serve"]).data
    done = subprocess.run(
        ["git", "check-ignore", "-q", f"{default}/thousand.sqlite3"], cwd=ROOT, timeout=30
    )
    assert done.returncode == 0, f"git does not ignore {default}/"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server stopped"
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server did not start")


def test_ci_runs_the_readme_test_command() -> None:
    _, test = quick_start()
    steps = [step.strip() for step in test.split("&&")]
    pytest_step = steps[-1]
    install_step = steps[-2]
    lines = [line.strip() for line in CI_RUN.read_text(encoding="utf-8").splitlines()]
    assert pytest_step in lines, f".ci/run does not run {pytest_step!r} on a line of its own"
    assert install_step in lines, f".ci/run does not run {install_step!r} on a line of its own"


def test_ci_script_is_strict_bash() -> None:
    text = CI_RUN.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    for tool in ("ruff check", "ruff format --check", "mypy"):
        assert tool in text, tool


def documented_commands() -> list[list[str]]:
    """Every ``thousand ...`` line of the README's shell blocks, as argv (comments dropped)."""
    found = []
    for block in blocks(README, "bash", "sh"):
        for line in commands(block):
            argv = shlex.split(line, comments=True)
            if argv and argv[0] == "thousand":
                found.append(argv[1:])
    return found


def test_every_subcommand_is_documented() -> None:
    documented = {argv[0] for argv in documented_commands()}
    assert documented == {"play", "selfplay", "replay", "rules", "serve", "arena", "analyze"}


@pytest.mark.parametrize("argv", documented_commands(), ids=" ".join)
def test_documented_commands_parse(argv: list[str]) -> None:
    """The README's commands are accepted by the real parser (parsed, not run)."""
    args = build_parser().parse_args(argv)
    assert args.command == argv[0]


def test_playable_templates_match_the_readme() -> None:
    table = section("Templates")
    listed = re.findall(r"^\| `([\w-]+)` \|", table, re.MULTILINE)
    playable = []
    for name in TEMPLATES:
        try:
            template_rules(name)
        except RulesError:
            continue
        playable.append(name)
    assert listed == playable


def test_layout_names_files_that_exist() -> None:
    (layout,) = blocks(section("Layout"), "text")
    base = ROOT
    for line in layout.splitlines():
        indent = len(line) - len(line.lstrip())
        if not line.strip() or indent not in (0, 2):
            continue
        name = line.split()[0]
        if indent == 0:
            base = ROOT
            path = ROOT / name
            if name == "src/thousand/":
                base = path
        else:
            path = base / name
        assert path.exists(), f"README's layout names {name}, which does not exist"


def test_linked_documents_exist() -> None:
    for link in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (ROOT / link).is_file(), link


def test_readme_benchmark_command_runs(tmp_path: Path) -> None:
    """A smoke run of the benchmark with a tiny budget: it runs and writes its figures (no
    timing is asserted)."""
    out = tmp_path / "bench.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_engine.py"),
            "--seconds",
            "0.15",
            "--rounds",
            "1",
            "--json",
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["template"] == "russian"
    for path in ("checked", "unchecked"):
        assert figures[path]["deals"] > 0
        assert figures[path]["per_second"] > 0
    assert "python benchmarks/bench_engine.py" in README


def test_selfplay_benchmark_runs(tmp_path: Path) -> None:
    """A smoke run of the self-play benchmark on a few deals: it runs and writes a row per
    count (no timing is asserted)."""
    out = tmp_path / "bench.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_selfplay.py"),
            "--deals",
            "5,10",
            "--json",
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert [row["deals"] for row in rows] == [5, 10]
    assert rows[0]["selfplay_ratio"] == rows[0]["replay_ratio"] == 1.0
    assert "python benchmarks/bench_selfplay.py" in README
