"""Game records in the ``thousand/1`` format: read, write, replay."""

from .model import (
    Record,
    RecordDeal,
    RecordError,
    read_record,
    read_record_bytes,
    read_record_file,
    record_to_json,
    write_record,
)
from .replay import Replay, replay, replay_json, replay_text
from .writer import record_of_game

__all__ = [
    "Record",
    "RecordDeal",
    "RecordError",
    "Replay",
    "read_record",
    "read_record_bytes",
    "read_record_file",
    "record_of_game",
    "record_to_json",
    "replay",
    "replay_json",
    "replay_text",
    "write_record",
]
