"""Golden records: seeded games written out move by move, compared with committed text files.

For each template and seed, a game of a few deals is dealt and played by a seeded random chooser.
The text holds, per deal, the dealt hands and talon; per move, the seat to act, every legal token
(in action order) and the token chosen; per deal, the ``thousand replay --json`` line of its
outcome. Any change to dealing, legality, scoring or the records shows up as a diff of these files.

Regenerate after an intended change with ``THOUSAND_REGEN_GOLDEN=1 pytest tests/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path

import pytest

from thousand.cards import hand_text
from thousand.engine import DealState, Game, Phase, action_text
from thousand.engine.actions import DECLARE, GIVE, PASS, WRITE_OFF
from thousand.records import read_record, record_of_game, replay, replay_json, write_record
from thousand.rules import template_rules

GOLDEN_DIR = Path(__file__).parent / "golden"
TEMPLATES = ("russian", "russian-classic")
SEEDS = (1, 2, 3)
DEALS = 4
REGEN = os.environ.get("THOUSAND_REGEN_GOLDEN") == "1"
CASES = [(template, seed) for template in TEMPLATES for seed in SEEDS]


def golden_path(template: str, seed: int) -> Path:
    return GOLDEN_DIR / f"{template}-seed{seed}.txt"


def choose(rng: random.Random, state: DealState, legal: list[int]) -> int:
    """Random, but leaning towards deals that get played and sometimes made: half the auction
    turns pass, the write-off is rare, the contract is mostly the bid, a marriage on offer is
    usually declared, and the card played is often the highest."""
    if state.phase is Phase.AUCTION and PASS in legal and rng.random() < 0.5:
        return PASS
    if state.phase is Phase.CONTRACT and rng.random() < 0.7:
        return legal[0]
    if WRITE_OFF in legal and rng.random() < 0.9:
        legal = [a for a in legal if a != WRITE_OFF]
    if state.phase is Phase.PLAY:
        declaring = [a for a in legal if DECLARE <= a < GIVE]
        if declaring and rng.random() < 0.8:
            return rng.choice(declaring)
        if rng.random() < 0.6:
            return max(legal, key=lambda a: a % 6)
    return rng.choice(legal)


def golden_text(template: str, seed: int) -> str:
    rules = template_rules(template)
    rng = random.Random(seed)
    game = Game.start(rules)
    lines = [
        f"# thousand golden record: template {template}, seed {seed}, {DEALS} deals",
        "# regenerate: THOUSAND_REGEN_GOLDEN=1 pytest tests/test_golden.py",
    ]
    for number in range(1, DEALS + 1):
        if game.over:
            break
        game = game.shuffle_and_deal(rng)
        assert game.deal is not None
        state = game.deal
        lines.append(f"deal {number}: dealer {state.dealer}")
        for seat in range(state.seats):
            lines.append(f"  hand {seat}: {hand_text(state.hands[seat])}")
        lines.append(f"  talon: {hand_text(state.talon)}")
        while game.deal is not None and not game.deal.over:
            state = game.deal
            legal = sorted(state.legal_actions())
            action = choose(rng, state, legal)
            tokens = " ".join(action_text(a) for a in legal)
            lines.append(f"  seat {state.to_act}: [{tokens}] {action_text(action)}")
            game = game.apply(action_text(action))
        result = replay(read_record(write_record(record_of_game(game, template))))
        assert result.game.match == game.match
        deal_json = replay_json(result)["deals"][number - 1]
        lines.append(f"  outcome {json.dumps(deal_json)}")
    lines.append(f"totals {list(game.match.totals)} winner {game.match.winner}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("template", "seed"), CASES, ids=[f"{t}-seed{s}" for t, s in CASES])
def test_golden_record(template: str, seed: int) -> None:
    path = golden_path(template, seed)
    text = golden_text(template, seed)
    if REGEN:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run with THOUSAND_REGEN_GOLDEN=1"
    committed = path.read_text(encoding="utf-8")
    if text != committed:
        diff = difflib.unified_diff(
            committed.splitlines(), text.splitlines(), "committed", "engine now", lineterm="", n=1
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(f"{path.name} differs from what the engine plays now:\n{shown}")


def test_golden_files_are_exactly_the_cases() -> None:
    expected = {golden_path(t, s).name for t, s in CASES}
    assert {p.name for p in GOLDEN_DIR.glob("*.txt")} == expected
