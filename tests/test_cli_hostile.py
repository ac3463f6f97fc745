"""Hostile input on the command line and in template files: one sentence and exit 2, never a
traceback (a rule object nested 1,500 deep, a number of 5,000 digits, not JSON, not an
object), for every command that takes ``--rules`` and for ``thousand rules check``."""

from __future__ import annotations

from pathlib import Path

import pytest

from thousand.cli.main import main

DEEP = "[" * 1500 + "]" * 1500
HUGE = '{"game.target": ' + "9" * 5000 + "}"

CASES = [
    (DEEP, "--rules is nested too deep to be rule parameters"),
    ('{"a": ' + DEEP + "}", "--rules is nested too deep to be rule parameters"),
    (HUGE, "--rules holds a number too long to be a rule's value"),
    ("{not json", "--rules is not JSON (Expecting property name enclosed in double quotes)"),
    ("[1, 2]", "--rules must be a JSON object of rule parameters"),
]


@pytest.mark.parametrize(
    ("text", "said"), CASES, ids=["deep", "deep-value", "huge", "not-json", "list"]
)
@pytest.mark.parametrize(
    "command",
    [
        ["selfplay", "--deals", "1"],
        ["arena", "--bots", "random,easy", "--deals", "1", "--quiet"],
        ["rules", "new", "mine", "--base", "russian"],
    ],
    ids=lambda c: str(c[0]),
)
def test_rules_option(
    command: list[str],
    text: str,
    said: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("THOUSAND_HOME", str(tmp_path))
    code = main([*command, "--rules", text])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert said in out + err
    assert "Traceback" not in out + err
    assert not list(tmp_path.rglob("*.json")), "nothing is written"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (DEEP, "is nested too deep to be a template"),
        ('{"rules": {"game.target": ' + "9" * 5000 + "}}", "holds a number too long"),
    ],
    ids=["deep", "huge"],
)
def test_rules_check_of_a_hostile_template_file(
    text: str, said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    code = main(["rules", "check", str(path)])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert said in out + err
