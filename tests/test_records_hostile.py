"""Hostile records: whatever bytes a record file holds, ``thousand replay`` (text and ``--json``)
and ``thousand analyze`` either succeed or refuse it as spec/record-format.md says: exit status 2,
exactly one line on standard error, nothing on standard output. Never a traceback.

The documented cases (deep nesting, huge numbers, a lone surrogate, bytes that are not UTF-8, a
file too large) are pinned message by message, in-process and, for the cases of the issue, in a
subprocess; a Hypothesis property feeds random bytes and mutations of the shared vectors'
records to the same entry point in-process.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thousand.cli.main import main
from thousand.records import RecordError, read_record
from thousand.records.model import MAX_BYTES

from .conftest import shared_dir

VECTORS = sorted((shared_dir() / "vectors").glob("*/*.json"))
REJECTS = sorted((shared_dir() / "vectors-reject").glob("*/*.json"))


def _record_text(path: Path) -> str:
    record = json.loads(path.read_text(encoding="utf-8"))["record"]
    return record if isinstance(record, str) else json.dumps(record)


#: every shared record (played and refused), as the bytes of a record file
SEEDS = [_record_text(p).encode() for p in VECTORS + REJECTS]
#: a short played match: the base of the documented cases
BASE = json.loads(_record_text(shared_dir() / "vectors" / "russian" / "001.json"))


def _with(key: str, fragment: str) -> str:
    """``BASE`` as JSON text with the value of ``key`` written as the raw JSON ``fragment``."""
    marker = "\x00hostile\x00"
    return json.dumps({**BASE, key: marker}).replace(json.dumps(marker), fragment)


LIMIT = "9,007,199,254,740,991"
#: (name, the file's bytes, the one line every command answers)
CASES: list[tuple[str, bytes, str]] = [
    (
        "nested 1500 deep",
        b"[" * 1500 + b"]" * 1500,
        "record: arrays and objects are nested more than 32 deep",
    ),
    (
        "nested 500 deep in rules",
        _with("rules", '{"marriage.values": ' + "[" * 500 + "]" * 500 + "}").encode(),
        "record: arrays and objects are nested more than 32 deep",
    ),
    (
        "5000 digits in start",
        _with("start", '{"totals": [' + "9" * 5000 + ", 0, 0]}").encode(),
        f"record: the number 999999999999... (5,000 digits) is out of range: a record's whole"
        f" numbers lie between -{LIMIT} and {LIMIT}",
    ),
    (
        "5000 digits in rules",
        _with("rules", '{"game.target": -' + "1" * 5000 + "}").encode(),
        f"record: the number -11111111111... (5,000 digits) is out of range: a record's whole"
        f" numbers lie between -{LIMIT} and {LIMIT}",
    ),
    (
        "2**53 in start",
        _with("start", '{"totals": [0, 9007199254740992, 0]}').encode(),
        f"record: the number 9007199254740992 is out of range: a record's whole"
        f" numbers lie between -{LIMIT} and {LIMIT}",
    ),
    (
        "a lone surrogate in a name",
        _with("players", '["Ann", "Bo\\ud800ris", "Cyril"]').encode(),
        'record: the string "Bo\\ud800ris" is not Unicode text (it holds a lone surrogate)',
    ),
    (
        "a lone surrogate in a move",
        _with("deals", '[{"dealer": 0, "hands": [], "talon": [], "moves": ["\\udfff"]}]').encode(),
        'record: the string "\\udfff" is not Unicode text (it holds a lone surrogate)',
    ),
    (
        "null",
        b"null",
        "record: the record is JSON null, not a JSON object",
    ),
    (
        "a format of 100,000 numbers",
        _with("format", "[" + "1, " * 99_999 + "1]").encode(),
        ("record: format [" + "1, " * 99_999 + "1] is not thousand/1")[:1000] + "...",
    ),
    (
        "NaN",
        _with("rules", '{"game.target": NaN}').encode(),
        "record: not JSON (NaN is not a JSON value)",
    ),
    (
        "not UTF-8",
        b'{"format": "thousand/1", "players": ["\xc3\x28"]}',
        "record: not UTF-8 text (byte 39)",
    ),
    (
        "a move of a million characters with line breaks",
        json.dumps(
            {**BASE, "deals": [{**BASE["deals"][0], "moves": ["100", "x\u2028\r\n" * 250_000]}]}
        ).encode(),
        'deal 1, move 2 "x\\u2028\\r\\nx\\u2028\\r\\nx\\u2028\\r\\nx\\u2028\\r\\nx\\u2028\\r\\nx'
        '\\u2028\\r\\nx\\u2028\\r\\nx\\u2028\\r\\nx\\u2028\\r\\nx\\u2028\\r\\n"...: not a move'
        " (1,000,000 characters long)",
    ),
]
COMMANDS = [["replay"], ["replay", "--json"], ["analyze"]]


def run_in_process(argv: list[str]) -> tuple[int, str, str]:
    """``thousand ARGV`` in this process, its output through strict UTF-8 streams as a
    terminal's: (exit status, standard output, standard error). Any traceback propagates."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    with redirect_stdout(stdout), redirect_stderr(stderr):
        code = main(argv)
    return code, out.getvalue().decode(), err.getvalue().decode()


def assert_refused(code: int, out: str, err: str) -> str:
    """The spec's refusal: status 2, nothing on standard output, one line on standard error
    that starts with where; the line (without its line end)."""
    assert (code, out) == (2, ""), (code, out[:200], err[:200])
    assert err.endswith("\n") and len(err.splitlines()) == 1, err[:2000]
    line = err[:-1]
    assert line.startswith(("record: ", "deal ")), line
    return line


def assert_answered(code: int, out: str, err: str) -> None:
    """Either a replay (status 0, output, nothing on standard error) or the spec's refusal."""
    if code == 0:
        assert err == "" and out.endswith("\n"), err[:2000]
    else:
        assert_refused(code, out, err)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize(("name", "data", "line"), CASES, ids=[c[0] for c in CASES])
def test_hostile_record_is_refused_in_one_line(
    tmp_path: Path, command: list[str], name: str, data: bytes, line: str
) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(data)
    assert assert_refused(*run_in_process([*command[:1], str(path), *command[1:]])) == line


@pytest.mark.parametrize(("name", "data", "line"), CASES[:6], ids=[c[0] for c in CASES[:6]])
def test_hostile_record_is_refused_by_the_command(
    tmp_path: Path, name: str, data: bytes, line: str
) -> None:
    """The cases of the issue through the real command, in text mode (where a name is printed)."""
    path = tmp_path / "hostile.json"
    path.write_bytes(data)
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "replay", str(path)], capture_output=True
    )
    assert assert_refused(proc.returncode, proc.stdout.decode(), proc.stderr.decode()) == line


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:  # sparse: no disk is written
        f.truncate(MAX_BYTES + 1)
    line = assert_refused(*run_in_process(["replay", str(path), "--json"]))
    assert line == "record: more than 67,108,864 bytes, too large for a record"
    path.write_bytes(b"[" + b" " * (MAX_BYTES - 2) + b"]")  # at the limit: read, then judged
    line = assert_refused(*run_in_process(["replay", str(path), "--json"]))
    assert line == "record: the record is a JSON array, not a JSON object"


def test_the_edges_of_the_limits_are_read() -> None:
    """A whole number of exactly 2**53 - 1 and nesting exactly 32 deep are read; a
    surrogate pair written as escapes is one character, not a lone surrogate."""
    start = {"totals": [-(2**53 - 1), 0, 0]}
    assert read_record(json.dumps({**BASE, "start": start})).start_totals == (-(2**53 - 1), 0, 0)
    deep = {**BASE, "rules": {"marriage.values": "X"}}
    nested: list[object] = []
    for _ in range(29):
        nested = [nested]
    text = json.dumps(deep).replace('"X"', "[" * 30 + "]" * 30)  # at depths 3 to 32
    assert read_record(text).rules_dict["marriage.values"] == nested
    named = json.dumps({**BASE, "players": ["\U0001f600", "B", "C"]})  # "\ud83d\ude00"
    assert "\\ud83d\\ude00" in named
    assert read_record(named).players == ("\U0001f600", "B", "C")
    with pytest.raises(RecordError, match="nested more than 32 deep"):
        read_record(json.dumps(deep).replace('"X"', "[" * 31 + "]" * 31))


# -- the property: any bytes, and mutations of real records ----------------------------------


def _paths(value: object, at: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*at, i))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.text(st.characters(categories=["Cs", "Zl", "Cc"]), max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
#: players' names: any text, with line breaks, control characters and lone surrogates
names = st.text(max_size=12) | st.text(st.characters(categories=["Cs", "Zl", "Cc", "Mn"]))
#: JSON text to put in a record's place: raw fragments no encoder writes, or small values
fragments = st.one_of(
    st.sampled_from(
        [
            "9" * 5000,
            "-" + "9" * 4400,
            str(2**53),
            "1e400",
            "-1E-400",
            "NaN",
            "-Infinity",
            '"\\ud800"',
            '"a\\udfffb"',
            '"\\ud83d\\ude00"',
            "[" * 1500 + "]" * 1500,
            '{"a": ' * 40 + "1" + "}" * 40,
            '"' + "Ah " * 2000 + '"',
            '"pass"',
            '"give Ah 3"',
            '"contract 999"',
            "99",
            "-1",
        ]
    ),
    st.builds(json.dumps, json_values),
)


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    """A shared record with its bytes flipped, cut or spliced, or one to three of its values
    replaced (or keys added), or its players renamed with any text."""
    raw = draw(st.sampled_from(SEEDS))
    how = draw(st.sampled_from(["bytes", "values", "names"]))
    if how == "names":
        record = json.loads(raw)
        seats = len(record["deals"][0]["hands"]) if record.get("deals") else 3
        record["players"] = draw(st.lists(names, min_size=seats, max_size=seats))
        return json.dumps(record, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    if how == "bytes":
        data = bytearray(raw)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(data) - 1))
            kind = draw(st.sampled_from(["byte", "cut", "splice"]))
            if kind == "byte":
                data[i] = draw(st.integers(0, 255))
            elif kind == "cut":
                del data[i : i + draw(st.integers(1, 50))]
            else:
                data[i:i] = draw(fragments).encode()
        return bytes(data)
    record = json.loads(raw)
    marks: dict[str, str] = {}
    for n in range(draw(st.integers(1, 3))):
        mark = f"\x00hostile {n}\x00"
        marks[json.dumps(mark)] = draw(fragments)
        path = draw(st.sampled_from(list(_paths(record))))
        if not path:
            record = mark
            break
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        if isinstance(parent, dict) and draw(st.booleans()):
            parent[draw(st.sampled_from(["deals", "rules", "x", "moves", "game.target"]))] = mark
        else:
            parent[path[-1]] = mark
    text = json.dumps(record)
    for mark, fragment in marks.items():
        text = text.replace(mark, fragment)
    return text.encode()


_DIR = tempfile.TemporaryDirectory(prefix="thousand-hostile-")
HOSTILE_SETTINGS = settings(
    max_examples=150,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _answer(data: bytes, as_json: bool) -> None:
    path = Path(_DIR.name) / "record.json"
    path.write_bytes(data)
    assert_answered(*run_in_process(["replay", str(path), *(["--json"] if as_json else [])]))


#: bytes as a fuzzer joins them: random ones, and runs of JSON's own pieces
byte_soup = st.binary(max_size=300) | st.lists(
    st.sampled_from(
        [
            *(
                b"[",
                b"]",
                b"{",
                b"}",
                b'"',
                b":",
                b",",
                b" ",
                b"\\",
                b"u",
                b"d800",
                b"\xed\xa0\x80",
            ),
            *(b"[" * 1200, b"9" * 4400, b"-", b"e", b"0", b"true", b"null", b'"format"', b"\xff"),
        ]
    ),
    max_size=40,
).map(b"".join)


@HOSTILE_SETTINGS
@given(byte_soup, st.booleans())
def test_any_bytes_are_replayed_or_refused_in_one_line(data: bytes, as_json: bool) -> None:
    _answer(data, as_json)


@HOSTILE_SETTINGS
@given(mutated_records(), st.booleans())
def test_mutated_records_are_replayed_or_refused_in_one_line(data: bytes, as_json: bool) -> None:
    _answer(data, as_json)
