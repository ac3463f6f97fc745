"""The Textual app: one seat (or a spectator) at a server's table."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, Log, OptionList, Static
from textual.widgets.option_list import Option

from ..prose.moves import move_label
from ..prose.table import result_word, said
from .link import Message, Seat, TableLink
from .render import (
    hand_line,
    scoresheet_heads,
    scoresheet_rows,
    seat_name,
    table_lines,
    trick_line,
    who,
)


class ThousandApp(App[None]):
    """Shows the hand, the legal actions, the trick, the marriages, trump and the scoresheet;
    choosing an action sends it to the server."""

    TITLE = "thousand"
    CSS = """
    #left { width: 2fr; }
    #right { width: 1fr; }
    #table, #trick, #hand { border: round $accent; padding: 0 1; height: auto; }
    #moves { height: 1fr; border: round $success; }
    #scores { height: 1fr; border: round $accent; }
    #log { height: 1fr; border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("r", "rematch", "Rematch (when the match is over)"),
    ]

    def __init__(self, seat: Seat) -> None:
        super().__init__()
        self.seat = seat
        self.link = TableLink(seat, self.on_server)
        self.names: list[str] = []
        self.reports: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.errors: list[str] = []
        self._score_heads: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield Static(said("connecting"), id="table")
                yield Static("", id="trick")
                yield Static("", id="hand")
                yield OptionList(id="moves")
            with Vertical(id="right"):
                yield DataTable(id="scores")
                yield Log(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = said("table url", url=self.seat.table_url)
        self.run_worker(self.link.run(), exclusive=True, group="link")

    async def on_server(self, message: Message) -> None:
        kind = message["type"]
        log = self.query_one("#log", Log)
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
                report = event["report"]
                totals = ", ".join(str(t) for t in report["totals"])
                log.write_line(
                    said("deal over totals", result=result_word(report["result"]), totals=totals)
                )
                if event.get("winner") is not None:
                    self.winner = event["winner"]
                    log.write_line(said("match over rematch", who=self._who(self.winner)))
        elif kind == "error":
            self.errors.append(message["message"])
            log.write_line(said("refused", reason=message["message"]))
        self.refresh_view()

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
        typed = view["moves"]
        wanted = [m["token"] for m in typed]
        current = [str(moves.get_option_at_index(i).id) for i in range(moves.option_count)]
        if wanted != current:
            moves.clear_options()
            moves.add_options([Option(move_label(m, self._who), id=m["token"]) for m in typed])
            if wanted:
                moves.highlighted = 0
                moves.focus()
        self._scores()

    def _scores(self) -> None:
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

    async def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        move = message.option.id
        if move is not None:
            message.option_list.clear_options()
            await self.link.move(move)

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


def _winner(snapshot: Message) -> int | None:
    view = snapshot.get("view")
    if view is None or view.get("match") is None:
        return None
    winner = view["match"]["winner"]
    return int(winner) if winner is not None else None
