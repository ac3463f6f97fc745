"""The Textual app: one seat (or a spectator) at a server's table."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Footer, Header, Input, Log, OptionList, Static
from textual.widgets.option_list import Option

from ..prose.chat import chat_line, how_to_chat, muted_line, typed_chat
from ..prose.moves import move_label
from ..prose.table import said, signed
from .link import Message, Seat, TableLink
from .render import (
    clock_cells,
    deal_over_lines,
    hand_line,
    menu_order,
    scoresheet_heads,
    scoresheet_rows,
    seat_name,
    standings_rows,
    table_lines,
    totals_of,
    trick_line,
    who,
)


class FollowingLog(Log):
    """A log that keeps following the play after the terminal is resized (a plain :class:`Log`
    stops scrolling with new lines once a smaller pane leaves it above its new end), unless
    the player scrolled back to read."""

    following = True

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.following = new_value >= self.max_scroll_y

    def on_resize(self, event: events.Resize) -> None:
        if self.following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)


class WriteOffScreen(ModalScreen[bool]):
    """Asks before a write-off, as the web page does: what it changes each total by (the
    view's ``writeoff_changes``, worked out by the server), Cancel focused."""

    DEFAULT_CSS = """
    WriteOffScreen { align: center middle; }
    #writeoff { width: auto; max-width: 90%; height: auto; border: thick $error;
                padding: 1 2; background: $surface; }
    #writeoff-buttons { height: auto; width: auto; margin-top: 1; }
    #writeoff-buttons Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="writeoff"):
            yield Static(Text(said("writeoff title"), style="bold"), id="writeoff-title")
            yield Static("\n".join(self.lines), id="writeoff-text")
            with Horizontal(id="writeoff-buttons"):
                yield Button(said("writeoff confirm"), variant="error", id="writeoff-yes")
                yield Button(said("cancel"), id="writeoff-no")

    def on_mount(self) -> None:
        self.query_one("#writeoff-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "writeoff-yes")

    def action_cancel(self) -> None:
        self.dismiss(False)


class ThousandApp(App[None]):
    """Shows the hand, the legal actions, the trick, the marriages, trump and the scoresheet;
    choosing an action sends it to the server."""

    TITLE = "thousand"
    CSS = """
    #left { width: 2fr; max-width: 110; }
    #right { width: 1fr; }
    #table, #trick, #hand { border: round $accent; padding: 0 1; height: auto; }
    #moves { height: 1fr; border: round $success; }
    #standings { height: auto; max-height: 8; border: round $accent; }
    #scores { height: 1fr; border: round $accent; }
    #log { height: 1fr; border: round $accent; }
    #say { height: 3; }
    """
    #: the footer's keys; each description is a key of :data:`thousand.prose.table.SENTENCES`,
    #: said in the language in force when the app starts
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "key quit"),
        Binding("r", "rematch", "key rematch"),
    ]
    #: Textual's command palette speaks only English, and the game needs none of it
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, seat: Seat) -> None:
        super().__init__()
        self.seat = seat
        self.link = TableLink(seat, self.on_server)
        self.names: list[str] = []
        self.reports: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.errors: list[str] = []
        self._score_heads: tuple[str, ...] = ()
        self._moves: dict[str, dict[str, Any]] = {}
        self._asked: str | None = None  # the write-off waiting for the player's confirmation
        #: a timed table's clocks as the last message gave them (None: untimed), and when
        self.clocks: dict[str, Any] | None = None
        self.clocks_at = 0.0
        keys = self._bindings.key_to_bindings
        for key, bindings in keys.items():
            keys[key] = [
                replace(b, description=said(b.description)) if b.description in OWN_KEYS else b
                for b in bindings
            ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield Static(said("connecting"), id="table")
                yield Static("", id="trick")
                yield Static("", id="hand")
                yield OptionList(id="moves")
            with Vertical(id="right"):
                yield DataTable(id="standings", show_cursor=False)
                yield DataTable(id="scores")
                yield FollowingLog(id="log")
                yield Input(id="say", placeholder=how_to_chat())
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = said("table url", url=self.seat.table_url)
        self.run_worker(self.link.run(), exclusive=True, group="link")
        self.set_interval(0.5, self._tick)

    async def on_server(self, message: Message) -> None:
        kind = message["type"]
        log = self.query_one("#log", Log)
        if kind in ("snapshot", "event"):
            self.clocks = message.get("clocks")
            self.clocks_at = time.monotonic()
        if kind == "snapshot":
            self.names = [s["name"] or seat_name(s["seat"]) for s in message["seats"]]
            self.reports = list(message["reports"])
            self.winner = _winner(message)
        elif kind == "seats":
            self.names = [s["name"] or seat_name(s["seat"]) for s in message["seats"]]
            if message["status"] == "open":
                log.write_line(said("waiting seats"))
        elif kind == "event":
            event = message["event"]
            log.write_line(self.narrate(event))
            if "report" in event:
                self.reports.append(event["report"])
                log.write_lines(deal_over_lines(event["report"], self.names, self.seat.seat))
                if event.get("winner") is not None:
                    self.winner = event["winner"]
                    log.write_line(said("match over rematch", who=self._who(self.winner)))
        elif kind == "error":
            self.errors.append(message["message"])
            log.write_line(said("refused", reason=message["message"]))
        elif kind in ("chat-line", "chat-history", "muted"):
            lines = message.get("messages", [message] if kind == "chat-line" else [])
            log.write_lines([chat_line(m) for m in lines])
            if kind == "muted" or (kind == "chat-history" and message["muted"]):
                log.write_line(muted_line(message["muted"]))
            return
        self.refresh_view()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """A chat message typed in the box under the log (``:good-game``: a canned phrase)."""
        message = typed_chat(event.value)
        event.input.clear()
        if message is not None:
            await self.link.send(message)

    def narrate(self, event: dict[str, Any]) -> str:
        if event["kind"] == "deal":
            return said("deal", number=event["number"], who=self._who(event["dealer"]))
        name = self._who(event["seat"])
        action = event["action"]
        if "token" not in action:  # what this seat may not see of the move
            if action["kind"] == "crawl":
                return said("plays hidden", who=name)
            if action["kind"] == "discard":
                return said("discards hidden", who=name)
            return said("gives hidden", who=name, to=self._who(action["seat"]))
        return said("did", who=name, move=move_label(action, self._who))

    def _who(self, seat: int) -> str:
        return who(seat, self.names, self.seat.seat)

    def refresh_view(self) -> None:
        view = self.link.view
        moves = self.query_one("#moves", OptionList)
        if view is None:
            self.query_one("#table", Static).update(said("waiting deal"))
            moves.clear_options()
            self._scores()
            return
        self.query_one("#table", Static).update("\n".join(table_lines(view, self.names)))
        self.query_one("#trick", Static).update(trick_line(view, self.names))
        hand = view["hand"]
        self.query_one("#hand", Static).update(
            said("your hand", hand=hand_line(hand, view["trump"]))
            if hand is not None
            else said("watching")
        )
        typed = menu_order(view["moves"])
        self._moves = {m["token"]: m for m in typed}
        wanted = [m["token"] for m in typed]
        current = [str(moves.get_option_at_index(i).id) for i in range(moves.option_count)]
        if wanted != current:
            moves.clear_options()
            moves.add_options([Option(move_label(m, self._who), id=m["token"]) for m in typed])
            if wanted:
                moves.highlighted = 0
                if not isinstance(self.focused, Input):  # (not while a chat line is typed)
                    moves.focus()
        self._scores()

    def _scores(self) -> None:
        view = self.link.view
        standings = self.query_one("#standings", DataTable)
        totals = totals_of(view, self.reports, len(self.names))
        if not standings.columns:
            standings.add_column(Text(said("total"), justify="right"), key="total")
            standings.add_column(said("player"), key="player")
            if self.clocks is not None:  # a timed table: each seat's time left
                standings.add_column(Text(said("time"), justify="right"), key="time")
        clocks = self._clock_cells()
        standing = [
            (Text(total, justify="right"), name, Text(clock, justify="right"))[
                : len(standings.columns)
            ]
            for (total, name), clock in zip(
                standings_rows(totals, self.names, self.seat.seat), clocks, strict=False
            )
        ]
        standings.clear()
        standings.add_rows(standing)
        table = self.query_one("#scores", DataTable)
        heads = scoresheet_heads(self.names)
        rows = scoresheet_rows(self.reports, self.names)
        if heads != self._score_heads:
            table.clear(columns=True)
            table.add_columns(*heads)
            self._score_heads = heads
        if table.row_count != len(rows):
            table.clear()
            table.add_rows(rows)

    def _clock_cells(self) -> list[str]:
        elapsed = time.monotonic() - self.clocks_at
        return clock_cells(self.clocks, elapsed, len(self.names))

    def _tick(self) -> None:
        """Count the running clock down between messages (the standings' time column), while
        the standings are there."""
        if self.clocks is None or self.clocks["to_act"] is None:
            return
        found = self.query("#standings").results(DataTable)
        standings = next(iter(found), None)
        if standings is None:
            return  # the app is closing: its widgets are gone
        seat = self.clocks["to_act"]
        if len(standings.columns) == 3 and seat < standings.row_count:
            cell = Text(self._clock_cells()[seat], justify="right")
            standings.update_cell_at(Coordinate(seat, 2), cell)

    async def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        move = message.option.id
        if move is None:
            return
        if self._moves.get(move, {}).get("kind") == "writeoff":
            self._asked = move
            self.push_screen(WriteOffScreen(self._writeoff_lines()), self._writeoff_answered)
            return
        message.option_list.clear_options()
        await self.link.move(move)

    def _writeoff_lines(self) -> list[str]:
        """What a write-off changes each total by, this seat first (the view's figures)."""
        view = self.link.view
        changes = None if view is None else view.get("writeoff_changes")
        if not changes:
            return [said("writeoff intro")]
        me = self.seat.seat
        order = sorted(range(len(changes)), key=lambda s: s != me)
        return [said("writeoff intro")] + [
            said("writeoff change", who=self._who(s), change=signed(changes[s])) for s in order
        ]

    async def _writeoff_answered(self, confirmed: bool | None) -> None:
        moves = self.query_one("#moves", OptionList)
        move, self._asked = self._asked, None
        if confirmed and move is not None and move in self._moves:
            moves.clear_options()
            await self.link.move(move)
        else:
            moves.focus()

    async def action_rematch(self) -> None:
        if self.winner is None or self.seat.token is None:
            return
        from .link import LinkError, rematch

        try:
            seat = rematch(self.seat)
        except LinkError as e:
            self.query_one("#log", Log).write_line(str(e))
            return
        await self.link.close()
        self.seat = seat
        self.reports = []
        self.winner = None
        self.link = TableLink(seat, self.on_server)
        self.query_one("#scores", DataTable).clear()
        self.sub_title = said("table url", url=seat.table_url)
        self.run_worker(self.link.run(), exclusive=True, group="link")

    async def action_quit(self) -> None:
        await self.link.close()
        self.exit()


OWN_KEYS = ("key quit", "key rematch")
"""The footer's words this app gives its keys (Textual's own keys are not shown)."""


def _winner(snapshot: Message) -> int | None:
    view = snapshot.get("view")
    if view is None or view.get("match") is None:
        return None
    winner = view["match"]["winner"]
    return int(winner) if winner is not None else None
