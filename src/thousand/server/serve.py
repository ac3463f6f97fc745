"""``thousand serve``: the server on uvicorn, and the line that says where the page is."""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
import threading
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType

from .config import DEFAULT_HOSTS, Settings

#: uvicorn closes a connection whose frame is larger than this; smaller ones over the
#: protocol's own limit get an error message
WS_MAX_SIZE = 1 << 20
#: hosts that mean "every address": the page is opened on the machine's own
ANY_ADDRESS = ("", "0.0.0.0", "::")


def allowed_hosts(host: str, extra: Sequence[str]) -> tuple[str, ...]:
    """The hosts a server listening on ``host`` answers for: this machine's own names, the
    host it listens on (unless that is every address), and ``extra``."""
    named = () if host in ANY_ADDRESS else (host,)
    return tuple(dict.fromkeys((*DEFAULT_HOSTS, *named, *extra)))


def settings_of(args: argparse.Namespace) -> Settings:
    return Settings(
        data=Path(args.data),
        database=args.database,
        bus=args.bus,
        bot_delay=args.bot_delay,
        message_rate=args.message_rate,
        message_burst=args.message_burst,
        request_rate=args.request_rate,
        request_burst=args.request_burst,
        max_body=args.max_body,
        tables_per_address=args.tables_per_address,
        table_connections=args.table_connections,
        close_idle=args.close_idle,
        allowed_hosts=allowed_hosts(args.host, args.allowed_host),
        allowed_origins=tuple(args.allowed_origin),
        drain=args.drain,
        sign_in_per_name=args.sign_in_per_name,
        sign_in_per_address=args.sign_in_per_address,
        limits_storage=args.limits_storage,
        secure_cookies=args.secure_cookies,
    )


def page_url(host: str, port: int) -> str:
    """The page's address for a server listening on ``host``:``port``."""
    if host in ANY_ADDRESS:
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def announce(url: str, open_browser: bool) -> None:
    """Say where the page is (one line on standard output); open it in a browser if asked."""
    print(f"thousand: open {url} in a browser", flush=True)
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()


def serve(
    settings: Settings,
    host: str,
    port: int,
    log_level: str = "info",
    on_start: Callable[[str], None] | None = None,
) -> None:
    """Run the server until interrupted; ``on_start`` gets the page's URL once it listens."""
    import uvicorn

    from .app import create_app
    from .lifecycle import Lifecycle

    app = create_app(settings)
    lifecycle: Lifecycle = app.state.lifecycle

    class Server(uvicorn.Server):
        """uvicorn's server; the first SIGTERM or SIGINT drains (:mod:`.lifecycle`) before
        uvicorn's own shutdown, a second one shuts down at once."""

        stop_asked: int | None = None
        draining: asyncio.Task[None] | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started and on_start is not None:
                bound = self.servers[0].sockets[0].getsockname() if self.servers else (host, port)
                on_start(page_url(host, int(bound[1])))

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.stop_asked is None and self.started:
                self.stop_asked = sig  # on_tick starts the drain, in the event loop
            else:
                super().handle_exit(sig, frame)

        async def on_tick(self, counter: int) -> bool:
            sig = self.stop_asked
            if sig is not None and self.draining is None:
                stop = super().handle_exit
                self.draining = asyncio.get_running_loop().create_task(lifecycle.drain())
                self.draining.add_done_callback(_failed)
                self.draining.add_done_callback(lambda _task: stop(sig, None))
            return await super().on_tick(counter)

    _log_to_stderr(log_level)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        log_level=log_level,
        access_log=False,
    )
    Server(config).run()


def run(args: argparse.Namespace) -> int:
    """The command: runs until interrupted."""
    serve(
        settings_of(args),
        args.host,
        args.port,
        on_start=lambda url: announce(url, bool(getattr(args, "open", False))),
    )
    return 0


def _failed(task: asyncio.Task[None]) -> None:
    """Log a drain that failed (the process stops all the same)."""
    if not task.cancelled() and task.exception() is not None:
        logging.getLogger("thousand.lifecycle").error(
            "stopping: the drain failed", exc_info=task.exception()
        )


def _log_to_stderr(level: str) -> None:
    """The server's own log lines (logger ``thousand``: a database that fails and recovers)
    on standard error, beside uvicorn's."""
    logger = logging.getLogger("thousand")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:  %(name)s: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(level.upper())
