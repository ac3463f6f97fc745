"""``thousand play``: a whole scripted match, the error path, quitting."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from thousand.bots import Limit
from thousand.bots.base import MOVE_TIME
from thousand.cards import mask_of, parse_cards
from thousand.cli.play import Table, hand_line, ordered_moves, play
from thousand.cli.selfplay import load_rules
from thousand.engine import DealState, Game
from thousand.engine.actions import PASS, WRITE_OFF, parse_action
from thousand.engine.deal import Phase
from thousand.engine.views import SeatView, view
from thousand.prose.titles import template_title
from thousand.records import read_record, record_of_game, replay, write_record
from thousand.rules import TEMPLATES, template_rules

from .positions import DEAL_2B, russian, scripted

SHORT_MATCH = '{"game.target": 200, "barrel.threshold": null}'


class Script:
    """Answers prompts from a list, then with ``default`` forever; keeps everything said."""

    def __init__(self, answers: list[str], default: str = "1") -> None:
        self.answers: Iterator[str] = iter(answers)
        self.default = default
        self.asked = 0
        self.lines: list[str] = []

    def ask(self, prompt: str) -> str:
        self.asked += 1
        self.lines.append(prompt)
        return next(self.answers, self.default)

    def say(self, line: str) -> None:
        self.lines.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def seat0_moves(game: Game) -> int:
    """How many moves seat 0 made in the game, found by replaying its deals."""
    count = 0
    for log in game.logs:
        state = DealState.from_dealt(game.rules, log.dealer, log.dealt)
        for a in log.moves:
            count += state.to_act == 0
            state = state.apply_unchecked(a)
    return count


def test_scripted_match_to_the_winner(tmp_path: Path) -> None:
    rules = load_rules("russian", SHORT_MATCH)
    out = tmp_path / "match.json"
    script = Script(["Qs+", "99"])
    game = play(rules, 3, name="Ann", out=str(out), ask=script.ask, say=script.say)
    text = script.text
    assert game.over
    assert "wins" in text.splitlines()[-2]
    assert "Scoresheet" in text and re.search(r"Deal  Declarer +Contract  Result", text)
    assert "Your moves:" in text and re.search(r"^ +1\. ", text, re.M)
    assert "Not allowed: " in text
    assert "There is no move 99: choose a number from 1 to" in text
    assert re.search(r"^medium-bot-[12] (plays|bids|passes)", text, re.M)
    # a card passed between the two bots is never shown
    assert not re.search(r"medium-bot-[12] gives [9JQKTA][cdhs] to medium-bot-[12]", text)
    # the two bad entries changed nothing: every other answer is one of seat 0's moves
    assert seat0_moves(game) == script.asked - 2
    result = replay(read_record(out.read_text()))
    assert result.game == game
    # one name per bot: the one shown is the one recorded
    assert read_record(out.read_text()).players == ("Ann", "medium-bot-1", "medium-bot-2")


def test_auction_moves_are_numbered_pass_first() -> None:
    script = Script([], default="q")
    play(template_rules("russian"), 0, ask=script.ask, say=script.say)
    assert "Auction: " in script.text
    assert re.search(r"^ +1\. pass\n +2\. 1\d\d  \(bid 1\d\d\)$", script.text, re.M)
    assert script.lines[-1] == "Quit."


def test_moves_typed_as_tokens_are_accepted() -> None:
    """Answer every prompt with the token of move 1 instead of its number."""
    lines: list[str] = []

    def ask(prompt: str) -> str:
        listed = [ln for ln in lines if re.match(r"^ +1\. ", ln)]
        return listed[-1].split(". ", 1)[1].split("  (")[0]

    game = play(load_rules("russian", SHORT_MATCH), 8, ask=ask, say=lines.append)
    assert game.over
    assert any("wins" in ln for ln in lines)


def test_quit_writes_the_record_of_the_unfinished_deal(tmp_path: Path) -> None:
    out = tmp_path / "q.json"
    script = Script(["1", "q"])
    game = play(template_rules("russian"), 1, out=str(out), ask=script.ask, say=script.say)
    assert script.asked == 2
    assert "Quit." in script.lines
    assert game.in_deal
    assert replay(read_record(out.read_text())).game == game


def test_end_of_input_quits() -> None:
    def ask(prompt: str) -> str:
        raise EOFError

    lines: list[str] = []
    game = play(template_rules("russian"), 1, ask=ask, say=lines.append)
    assert lines[-1] == "Quit." and not game.over


def test_hand_is_shown_by_suit_trump_first() -> None:
    hand = parse_cards("9h Ac Qh 9c Jh Ts As")
    assert hand_line(mask_of(hand), None) == "Ac 9c | Qh Jh 9h | As Ts"
    assert hand_line(mask_of(hand), 2) == "Qh Jh 9h | Ac 9c | As Ts"
    state = DealState.shuffled(template_rules("russian"), 0, random.Random(2))
    assert state.to_act is not None
    assert ordered_moves(view(state, state.to_act))[0] == PASS


def test_python_m_thousand_play_quits_on_q() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--plain", "--seed", "1"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Quit." in proc.stdout
    assert "Your moves:" in proc.stdout


def test_play_unknown_template_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--template", "nope"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("play: ")


class TameBot:
    """Opens at the lowest bid and then passes, names the lowest contract, never writes off,
    plays its highest legal card: random bots sink below zero, tame ones let a short match
    end. It keeps the limits it was given."""

    name = "tame"

    def __init__(self) -> None:
        self.limits: list[Limit | None] = []

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        self.limits.append(limit)
        legal = [a for a in view.legal_actions if a != WRITE_OFF]
        if view.phase is Phase.AUCTION:
            bids = sorted(a for a in legal if a != PASS)
            return bids[0] if bids and (view.high_bid is None or PASS not in legal) else PASS
        if view.phase is Phase.PLAY:
            return max(legal, key=lambda a: (a % 24 % 6, a))
        return min(legal)


class Opener(Script):
    """A person who opens the auction at the lowest bid (move 2, after pass) when it may, and
    otherwise takes the first move offered; after ``limit`` answers it quits."""

    def __init__(self, limit: int = 5000) -> None:
        super().__init__([])
        self.limit = limit

    def ask(self, prompt: str) -> str:
        super().ask(prompt)
        if self.asked > self.limit:
            return "q"
        start = len(self.lines) - 1 - self.lines[::-1].index("Your moves:")
        offered = self.lines[start + 1 : start + 3]
        opening = (
            len(offered) == 2
            and offered[0].endswith("1. pass")
            and "Auction: no bid" in ("\n".join(self.lines[start - 12 : start]))
        )
        return "2" if opening else "1"


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_every_template_plays_to_the_winner(template: str) -> None:
    """A person and bots play a short match of every template to its end."""
    rules = load_rules(template, '{"game.target": 200, "barrel.threshold": null}')
    script = Opener()
    bots = [TameBot() for _ in range(rules.players_count - 1)]
    game = play(rules, 11, template=template, ask=script.ask, say=script.say, opponents=bots)
    assert game.over, f"no winner after {len(game.reports)} deals"
    lines = script.text.splitlines()
    assert lines[1] == f"Rules: {template_title(template)}. {TEMPLATES[template].summary}"
    assert "wins" in lines[-1]
    assert script.asked > 0
    assert replay(read_record(write_record(record_of_game(game, template)))).game == game
    # each bot thinks within the time a move may take where people play
    assert {limit for bot in bots for limit in bot.limits} == {Limit(MOVE_TIME)}


@pytest.mark.parametrize(
    ("trump_from", "said"),
    [("next-trick", "spades are trump from the next trick"), ("this-trick", "from this trick")],
)
def test_a_declaring_lead_says_when_its_trump_counts(trump_from: str, said: str) -> None:
    """The line game reads the trick's trump from the view (it said "from the next trick"
    whatever ``marriage.trump_from`` was)."""
    rules = russian({"marriage.trump_from": trump_from})
    before = scripted(DEAL_2B, rules=rules, upto=1)
    after = before.apply("Ks+")
    table = Table(["Ann", "medium-bot-1", "medium-bot-2"])
    lines = table.narrate(1, parse_action("Ks+"), view(before, 0), view(after, 0))
    assert lines[0].startswith("medium-bot-1 leads Ks and declares the spades marriage (40); ")
    assert lines[0].endswith(said)


def _english_fragments(sentences: list[str]) -> set[str]:
    """The fixed words of each English sentence (the text between its placeholders) that hold
    a word of three letters or more: what an English line of the game would show."""
    found = set()
    for text in sentences:
        for part in re.split(r"\{[a-z_]+\}", text):
            if re.search(r"[A-Za-z]{3,}", part):
                found.add(part)
    return found


def test_the_line_game_speaks_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``thousand play --plain --lang ru``: the whole match (the rules before the first deal,
    the table, what each seat did, the end of each deal, the scoresheet, the winner) is told in
    Russian; only the move tokens the person may type stay as they are."""
    from thousand.cli.main import main
    from thousand.prose.table import EVENTS, HEADINGS, PHASES, RESULTS, SENTENCES, SUMMARY

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["99", "Zz", *["1"] * 3000])))
    argv = ["play", "--plain", "--lang", "ru", "--seed", "3", "--rules", SHORT_MATCH]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Партия окончена: побеждает" in out  # the match was played to its winner
    assert out.splitlines()[0].startswith("Тысяча (Русская), ")  # the template by its title
    assert "medium-bot-1: пас" in out and "Запись счёта" in out and "Торговля: " in out
    assert "Хода 99 нет: выберите номер от 1 до" in out
    assert "Это не ход: " in out
    assert "Ставки от 100 до 120, с шагом 5;" in out
    english = _english_fragments(
        [
            *SENTENCES.values(),
            *SUMMARY.values(),
            *PHASES.values(),
            *RESULTS.values(),
            *EVENTS.values(),
            *HEADINGS.values(),
        ]
    )
    # the listed moves and the example of how to type one show move tokens (what the person
    # types); everything else must be Russian
    told = [
        ln.replace("(Qh+, give 9s 2, contract 120)", "")
        for ln in out.splitlines()
        if not re.match(r"^ +\d+\. ", ln)
    ]
    said_in_english = sorted(
        {
            f
            for f in english
            for ln in told
            if re.search(rf"(?<![A-Za-z]){re.escape(f)}(?![A-Za-z])", ln)
        }
    )
    assert not said_in_english, said_in_english
    assert not any(re.search(r"\b(Seat|passes|bids|plays|takes|Deal|You)\b", ln) for ln in told)


class Passer:
    """Passes whenever it may, else takes the lowest legal move: the dealer (seat 0) gets the
    forced bid."""

    name = "medium"

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        return PASS if PASS in view.legal_actions else min(view.legal_actions)


def test_a_write_off_is_numbered_last_and_confirmed() -> None:
    """Move 1 of the passing step was the write-off, done at once: it is now the last move,
    and a write-off (by number or word) says what it changes each total by and waits for a
    yes; anything else keeps the deal."""
    rules = load_rules("russian", SHORT_MATCH)
    script = Script(["writeoff", "no", "writeoff", "yes", "q"])
    game = play(rules, 3, name="Ann", ask=script.ask, say=script.say, opponents=[Passer()] * 2)
    text = script.text
    listed = text[text.index("Your moves:") : text.index("Your move (")].splitlines()[1:]
    assert "give " in listed[0] and "to medium-bot-" in listed[0]
    assert listed[-1].endswith("writeoff  (write the deal off)")
    assert text.count("You give up the deal without playing it. The totals change:") == 2
    assert re.search(r"^  Ann \(you\): -\d+$", text, re.M)
    assert re.search(r"^  medium-bot-1: [+0]", text, re.M)
    assert "The deal is not written off; choose your move." in text
    assert (
        script.lines.count(
            "Write the deal off? Type yes to confirm, anything else to choose again: "
        )
        == 2
    )
    assert game.reports and game.reports[0].outcome.result == "written-off"
    assert len(game.reports) == 1


def test_medium_is_the_default_level_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    """``thousand play`` and ``--plain`` played random bots while the page seated medium ones:
    medium is the one default, said in the option's help and in the README."""
    from thousand.cli.main import build_parser

    parser = build_parser()
    assert parser.parse_args(["play"]).level == "medium"
    assert parser.parse_args(["play", "--plain"]).level == "medium"
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--help"])
    assert "hard, expert (medium)" in " ".join(capsys.readouterr().out.split())
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "`medium` (the default" in readme and "`easy` (random, the default)" not in readme
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--plain", "--seed", "1"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "the others are bots (medium-bot-1, medium-bot-2)" in proc.stdout
