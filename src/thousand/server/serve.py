"""``thousand serve``: the server on uvicorn."""

from __future__ import annotations

import argparse
from pathlib import Path

from .config import Settings

#: uvicorn closes a connection whose frame is larger than this; smaller ones over the
#: protocol's own limit get an error message
WS_MAX_SIZE = 1 << 20


def settings_of(args: argparse.Namespace) -> Settings:
    return Settings(
        data=Path(args.data),
        database=args.database,
        bot_delay=args.bot_delay,
        message_rate=args.message_rate,
        message_burst=args.message_burst,
        request_rate=args.request_rate,
        request_burst=args.request_burst,
    )


def serve(settings: Settings, host: str, port: int, log_level: str = "info") -> None:
    import uvicorn

    from .lobby import create_app

    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        log_level=log_level,
        access_log=False,
    )


def run(args: argparse.Namespace) -> int:
    """The command: runs until interrupted."""
    serve(settings_of(args), args.host, args.port)
    return 0
