"""The page labels moves by kind: its own moves.js, run by Node against the shipped catalogues.

moves.js reads the typed move objects of a view (``moves``) and of move events (``action``) and
never a move token; each kind has its words in all five languages. Skipped where Node is
missing (except under CI=true, where that fails), like the browser tests without Chromium.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from thousand.engine.actions import parse_action
from thousand.engine.views import move_event, move_json
from thousand.i18n import LANGUAGES

STATIC = Path(__file__).resolve().parents[1] / "src" / "thousand" / "web" / "static"
NODE = shutil.which("node")

EVERY_KIND = (
    "Qh", "Qh+", "As+", "give 9s 2", "pass", "writeoff", "redeal", "contra", "recontra",
    "concede", "buyback", "rebuy", "blind 120", "misere", "open", "slam", "110",
    "contract 130", "crawl Qh", "discard Js", "talon 0", "declare h",
)  # fmt: skip

RUNNER = """
import { setLanguage } from "./i18n.js";
import { actionLabel, moveSentence } from "./moves.js";
const input = JSON.parse(process.argv[2]);
const seat = (s) => `<seat ${s}>`;
const out = {};
for (const lang of input.languages) {
  await setLanguage(lang, { keep: false });
  out[lang] = {
    labels: input.moves.map((m) => actionLabel(m, seat)),
    sentences: input.events.map((e) => moveSentence(e, seat)),
  };
}
console.log(JSON.stringify(out));
"""

SHIM = """
import { readFileSync } from "node:fs";
globalThis.document = { documentElement: {} };
globalThis.navigator = { languages: [] };
globalThis.fetch = async (url) => {
  const text = readFileSync(new URL("." + url.replace("/static", ""), import.meta.url), "utf8");
  return { ok: true, json: async () => JSON.parse(text) };
};
"""


def run_moves_js(
    tmp_path: Path, moves: list[dict[str, Any]], events: list[dict[str, Any]]
) -> dict[str, Any]:
    if NODE is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("CI=true and Node is missing")
        pytest.skip("Node is missing (apt-get install nodejs)")
    for name in ("i18n.js", "moves.js"):
        shutil.copy(STATIC / "js" / name, tmp_path / name)
    shutil.copytree(STATIC / "i18n", tmp_path / "i18n")
    (tmp_path / "store.js").write_text(
        "export const savedLanguage = () => null;\nexport const keepLanguage = () => {};\n"
    )
    (tmp_path / "shim.js").write_text(SHIM)
    (tmp_path / "run.js").write_text('import "./shim.js";\n' + RUNNER)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    data = json.dumps({"languages": list(LANGUAGES), "moves": moves, "events": events})
    done = subprocess.run(
        [NODE, str(tmp_path / "run.js"), data], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_page_labels_every_kind_in_each_language(tmp_path: Path) -> None:
    moves = [move_json(parse_action(token)) for token in EVERY_KIND]
    events = [move_event(1, parse_action(token), 0, False) for token in EVERY_KIND]
    events += [
        move_event(0, parse_action("give 9s 2"), 1, False),  # a card between two other seats
        move_event(1, parse_action("crawl Qh"), 0, False),
    ]
    found = run_moves_js(tmp_path, moves, events)
    english = found["en"]
    assert english["labels"][EVERY_KIND.index("misere")] == "Misère"
    assert english["labels"][EVERY_KIND.index("blind 120")] == "Blind 120"
    assert english["labels"][EVERY_KIND.index("give 9s 2")] == "Give Nine of spades to <seat 2>"
    assert english["labels"][EVERY_KIND.index("As+")] == (
        "Play Ace of spades and declare the four aces"
    )
    assert english["sentences"][-2] == "<seat 0> gives a card to <seat 2>."
    assert english["sentences"][-1] == "<seat 1> plays a card face down."
    for lang in LANGUAGES:
        got = found[lang]
        for token, label in zip(EVERY_KIND, got["labels"], strict=True):
            assert label and "{" not in label and "move." not in label, (lang, token, label)
            assert label != token or token == "pass", (lang, token, label)
        assert len(set(got["labels"])) == len(EVERY_KIND), lang  # no two moves read alike
        for sentence in got["sentences"]:
            assert "{" not in sentence and "said." not in sentence, (lang, sentence)
        if lang != "en":
            assert sum(a != b for a, b in zip(got["labels"], english["labels"], strict=True)) > 15


def test_no_script_of_the_page_reads_a_move_token() -> None:
    """The page's old move grammar: a regex for bids, words split out of tokens, ``give ``
    prefixes, ``+`` suffixes, the seats of a trick worked out around the table. Gone: the page
    reads the typed moves and the tricks' seats."""
    grammar = ('.split(" ")', 'startsWith("give', "/^\\d+$/", 'endsWith("+")', "trickSeats")
    for path in sorted((STATIC / "js").glob("*.js")):
        source = path.read_text(encoding="utf-8")
        for pattern in grammar:
            assert pattern not in source, (path.name, pattern)
        assert "legal_actions" not in source, path.name
