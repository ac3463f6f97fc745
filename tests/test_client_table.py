"""The terminal client at a table it is fed, without a server: the snapshot and events a server
sends seat 0, made here by the engine, and what the screen shows, read with Textual's pilot at
the sizes of real terminals."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from textual.widgets import Button, Log, OptionList

from thousand.bots import make_bot
from thousand.cli.play import ordered_moves
from thousand.client.app import ThousandApp
from thousand.client.link import Message, Seat
from thousand.engine.actions import PASS, WRITE_OFF
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.views import game_view, move_event
from thousand.i18n import LANGUAGES, language, tr
from thousand.records.replay import report_json
from thousand.rules import TEMPLATES, rules_from_record

NAMES = ["You", "medium-bot-1", "medium-bot-2", "medium-bot-3"]


class Feed:
    """A table as a server tells seat 0 of it: a snapshot, then an event per move and per deal."""

    def __init__(self, template: str = "russian", seed: int = 3) -> None:
        self.rules = rules_from_record(template, {})
        self.names = NAMES[: self.rules.players_count]
        self.rng = random.Random(seed)
        self.game = Game.start(self.rules, players=self.names).shuffle_and_deal(self.rng)
        self.version = 1

    def view(self) -> dict[str, Any]:
        return game_view(self.game, 0).to_json(rules=False)

    def snapshot(self) -> Message:
        seats = [
            {
                "seat": s,
                "kind": "human" if s == 0 else "bot",
                "level": None if s == 0 else "medium",
                "name": name,
                "taken": True,
            }
            for s, name in enumerate(self.names)
        ]
        return {
            "type": "snapshot",
            "table": "t",
            "version": self.version,
            "seat": 0,
            "status": "playing",
            "seats": seats,
            "rules": self.rules.to_json(),
            "deal": len(self.game.logs),
            "reports": [report_json(r) for r in self.game.reports],
            "view": self.view(),
        }

    def move(self, action: int) -> list[Message]:
        """The events of one move (and of the next deal when it ended one)."""
        deal = self.game.deal
        assert deal is not None and deal.to_act is not None
        seat = deal.to_act
        self.game = self.game.apply(action)
        self.version += 1
        event = move_event(seat, action, 0, self.rules.talon_open_pass)
        if not self.game.in_deal:
            event["report"] = report_json(self.game.reports[-1])
            event["winner"] = self.game.match.winner
        out = [{"type": "event", "version": self.version, "event": event, "view": self.view()}]
        if not self.game.in_deal and not self.game.over:
            self.game = self.game.shuffle_and_deal(self.rng)
            self.version += 1
            assert self.game.deal is not None
            deal_event = {
                "kind": "deal",
                "number": len(self.game.logs),
                "dealer": self.game.deal.dealer,
            }
            out.append(
                {"type": "event", "version": self.version, "event": deal_event, "view": self.view()}
            )
        return out

    def to_passing(self) -> list[Message]:
        """Everyone passes; the dealer (seat 0) plays the forced bid and comes to pass cards."""
        out: list[Message] = []
        while game_view(self.game, 0).phase is not Phase.PASSING:
            deal = self.game.deal
            assert deal is not None and deal.to_act is not None
            legal = game_view(self.game, deal.to_act).legal_actions
            out += self.move(PASS if PASS in legal else min(legal))
        assert self.game.deal is not None and self.game.deal.to_act == 0
        return out


def app_for(feed: Feed) -> ThousandApp:
    # nothing listens there: the link keeps trying, and the test feeds the app itself
    return ThousandApp(Seat("http://127.0.0.1:9", "t", 0, "token"))


async def feed_app(app: ThousandApp, messages: list[Message]) -> None:
    for message in messages:
        await app.link._receive(message)


def screen_text(app: ThousandApp) -> str:
    """What the terminal shows, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def option_prompts(app: ThousandApp) -> list[str]:
    moves = app.query_one("#moves", OptionList)
    return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]


# -- 1. the write-off is offered last and asked about first ---------------------------------------


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_the_first_move_offered_never_gives_the_deal_up(template: str) -> None:
    """Every decision of bot-played deals where a write-off, a concession or a buyback is
    legal beside another move: the client's menu and the line game's numbers put a harmless
    move first (Enter on the pre-selected first move once wrote 8 deals of 10 off)."""
    from thousand.client.render import menu_order
    from thousand.engine.actions import move_kind
    from thousand.prose.moves import GIVING_UP

    rules = rules_from_record(template, {})
    rng = random.Random(7)
    game = Game.start(rules)
    bots = [make_bot("easy", 7 + s) for s in range(rules.players_count)]
    met = 0
    while len(game.logs) < 12 and not game.over and met < 20:
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None and game.deal.to_act is not None
            seat = game.deal.to_act
            view = game_view(game, seat)
            giving_up = [a for a in view.legal_actions if move_kind(a) in GIVING_UP]
            if giving_up and len(view.legal_actions) > 1:
                met += 1
                assert menu_order(list(view.moves))[0]["kind"] not in GIVING_UP
                assert ordered_moves(view)[0] not in giving_up
                assert sorted(m["token"] for m in menu_order(list(view.moves))) == sorted(
                    view.legal_moves
                )
            game = game.apply(bots[seat].choose(view))
    if rules.writeoff_allowed:
        assert met, "no deal came to a write-off"


def test_a_write_off_is_asked_about_before_it_is_sent() -> None:
    """At 80x24 in the passing step: Enter on the pre-selected move gives a card; choosing the
    write-off opens a dialog with what it changes each total by (the view's figures), Cancel
    focused; Enter cancels, and only the dialog's own button sends the write-off."""
    feed = Feed()
    feed.to_passing()
    messages = [feed.snapshot()]
    changes = feed.view()["writeoff_changes"]
    assert changes is not None

    async def scenario() -> None:
        app = app_for(feed)
        async with app.run_test(size=(80, 24)) as pilot:
            await feed_app(app, messages)
            await pilot.pause()
            prompts = option_prompts(app)
            assert prompts[0].startswith("give ") and " to medium-bot-" in prompts[0]
            assert prompts[-1] == "write the deal off"
            moves = app.query_one("#moves", OptionList)
            assert moves.highlighted == 0
            # Enter on the first move gives a card
            await pilot.press("enter")
            await pilot.pause()
            assert app.link._pending is not None
            assert app.link._pending["move"].startswith("give ")
        app = app_for(feed)
        async with app.run_test(size=(80, 24)) as pilot:
            await feed_app(app, messages)
            await pilot.pause()
            moves = app.query_one("#moves", OptionList)
            moves.focus()
            moves.highlighted = moves.option_count - 1
            await pilot.press("enter")
            await pilot.pause()
            shown = screen_text(app)
            assert "Write this deal off?" in shown
            assert f"You: {changes[0]:+d}" in shown
            assert f"medium-bot-1: {changes[1]:+d}" in shown
            assert app.screen.focused is not None and app.screen.focused.id == "writeoff-no"
            await pilot.press("enter")  # Cancel
            await pilot.pause()
            assert "Write this deal off?" not in screen_text(app)
            assert app.link._pending is None
            assert option_prompts(app)[-1] == "write the deal off"
            moves.focus()
            moves.highlighted = moves.option_count - 1
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert app.link._pending is None
            await pilot.press("enter")
            await pilot.pause()
            assert "Write this deal off?" in screen_text(app)
            app.screen.query_one("#writeoff-yes", Button).press()
            await pilot.pause()
            assert app.link._pending is not None and app.link._pending["move"] == "writeoff"

    asyncio.run(scenario())


# -- 2 and 3. every total, by name, in words ------------------------------------------------------


def _after_a_written_off_deal() -> tuple[Feed, list[Message]]:
    feed = Feed()
    messages = [feed.snapshot()]
    messages += feed.to_passing()
    messages += feed.move(WRITE_OFF)
    return feed, messages


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (230, 60)])
def test_every_total_is_on_the_screen_by_name(size: tuple[int, int]) -> None:
    """The scoresheet pane showed only the player's own column, at any width: each seat's total
    now stands beside its name; the log tells the end of a deal in words (not ``written-off``,
    not a list of numbers), and the player is "You", not "You (you)"."""
    feed, messages = _after_a_written_off_deal()
    totals = feed.game.match.totals
    assert len(set(totals)) > 1

    async def scenario() -> tuple[str, list[str]]:
        app = app_for(feed)
        async with app.run_test(size=size) as pilot:
            await feed_app(app, messages)
            await pilot.pause()
            return screen_text(app), list(app.query_one("#log", Log).lines)

    shown, log = asyncio.run(scenario())
    for name, total in zip(feed.names, totals, strict=True):
        assert re.search(rf"│ +{total}  {re.escape(name)} ", shown), (name, total, shown)
    assert "You (you)" not in shown and "(you)" not in "\n".join(log)
    ended = [line for line in log if line.startswith("Deal over")]
    assert ended == ["Deal over: You, contract 100: written off"]
    named = ", ".join(f"{n} {t}" for n, t in zip(feed.names, totals, strict=True))
    assert f"Totals: {named}" in log
    assert not any("[" in line or "written-off" in line for line in log)


def test_a_players_own_name_is_marked_as_theirs() -> None:
    """A name of the player's own choosing still says whose seat it is."""
    from thousand.client.render import who

    assert who(0, ["Ann", "medium-bot-1"], 0) == "Ann (you)"
    assert who(0, ["You", "medium-bot-1"], 0) == "You"
    assert who(1, ["You", "medium-bot-1"], 0) == "medium-bot-1"
    with language("ru"):
        assert who(0, ["Вы", "medium-bot-1"], 0) == "Вы"


def test_the_log_keeps_following_the_play_after_a_resize() -> None:
    """A terminal made smaller left the log above its new end, and it stopped scrolling with
    the play: the newest line is on screen after a resize too."""
    feed = Feed(seed=5)
    messages = [feed.snapshot()]
    bots = [make_bot("easy", s) for s in range(3)]

    def play(deals: int) -> list[Message]:
        out: list[Message] = []
        start = len(feed.game.logs)
        while len(feed.game.logs) < start + deals and not feed.game.over:
            deal = feed.game.deal
            assert deal is not None and deal.to_act is not None
            view = game_view(feed.game, deal.to_act)
            legal = [a for a in view.legal_actions if a != WRITE_OFF] or list(view.legal_actions)
            choice = bots[deal.to_act].choose(view)
            out += feed.move(choice if choice in legal else legal[0])
        return out

    async def scenario() -> None:
        app = app_for(feed)
        async with app.run_test(size=(140, 50)) as pilot:
            await feed_app(app, messages + play(1))
            await pilot.pause()
            log = app.query_one("#log", Log)
            assert log.max_scroll_y > 0 and log.is_vertical_scroll_end
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await feed_app(app, play(1))
            await pilot.pause()
            assert log.is_vertical_scroll_end, (log.scroll_offset.y, log.max_scroll_y)
            assert log.lines[-1][:20] in screen_text(app)

    asyncio.run(scenario())


# -- 5. the footer's keys in each language ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_footer_keys_speak_the_language(lang: str) -> None:
    """The footer said "Quit" and "Rematch (when the match is over)" (and Textual's "palette")
    in every language."""
    feed = Feed()

    async def scenario() -> str:
        app = app_for(feed)
        async with app.run_test(size=(120, 30)) as pilot:
            await feed_app(app, [feed.snapshot()])
            for _ in range(50):  # a loaded machine may draw the footer a few frames later
                await pilot.pause()
                footer = screen_text(app).splitlines()[-1]
                if footer.strip():
                    break
            return footer

    with language(lang):
        footer = asyncio.run(scenario())
        quit_word, rematch = tr("Quit"), tr("Rematch (when the match is over)")
    assert f"q {quit_word}" in footer and f"r {rematch}" in footer, footer
    assert "palette" not in footer
    if lang != "en":
        assert "Quit" not in footer and "Rematch" not in footer, footer


def test_a_timed_tables_clocks_stand_beside_the_totals() -> None:
    """Each seat's time left is in the standings: the running clock counts down from the
    message's ``left``, the others show their bank, a bot's seat none."""
    from thousand.client.render import clock_cells, clock_text

    clocks = {"move": 20, "bank": 300, "grace": 60, "banks": [125, 90, None]}
    running = {**clocks, "to_act": 0, "left": 145.0}
    assert clock_cells(running, 0, 3) == ["2:25", "1:30", ""]
    assert clock_cells(running, 20.5, 3) == ["2:05", "1:30", ""]
    assert clock_cells({**clocks, "to_act": None, "left": None}, 9, 3) == ["2:05", "1:30", ""]
    assert clock_cells(None, 0, 3) == ["", "", ""]
    assert clock_text(-3) == "0:00" and clock_text(0.2) == "0:01"

    feed = Feed()
    snapshot = {**feed.snapshot(), "clocks": running}

    async def scenario() -> str:
        app = app_for(feed)
        async with app.run_test(size=(120, 40)) as pilot:
            await feed_app(app, [snapshot])
            await pilot.pause()
            return screen_text(app)

    shown = asyncio.run(scenario())
    assert "Time" in shown
    assert re.search(r"You +2:[012]\d", shown), shown
    assert re.search(r"medium-bot-1 +1:30", shown), shown


def test_the_clock_skips_a_tick_once_the_standings_are_gone() -> None:
    """The half-second tick of a running clock may come while the app closes, its widgets
    removed (a CI run under load saw it raise NoMatches): it skips that tick."""
    clocks = {"move": 20, "bank": 300, "grace": 60, "banks": [125, 90, None]}
    feed = Feed()
    snapshot = {**feed.snapshot(), "clocks": {**clocks, "to_act": 0, "left": 145.0}}

    async def scenario() -> bool:
        app = app_for(feed)
        async with app.run_test(size=(120, 40)) as pilot:
            await feed_app(app, [snapshot])
            await pilot.pause()
            await app.query_one("#standings").remove()
            app._tick()
            return app.clocks is not None and app.clocks["to_act"] == 0

    assert asyncio.run(scenario())
