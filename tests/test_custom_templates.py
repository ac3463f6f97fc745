"""Custom templates (a name, a base and parameter changes in a JSON file) and ``thousand rules``:
list, show, diff, check, and custom templates in ``play`` and ``selfplay``."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from thousand.cli.main import main
from thousand.cli.play import play
from thousand.cli.rules import about
from thousand.cli.selfplay import OptionError, load_rules, load_template
from thousand.records import read_record, replay, replay_json
from thousand.rules import PARAM_BY_NAME, TEMPLATES, RulesError, template_rules
from thousand.rules.custom import (
    FORMAT,
    TemplateError,
    builtin,
    check_file,
    find_template,
    load_file,
    templates_home,
)
from thousand.rules.params import Value, show

from .unplayable import CRAWL_REFUSED, crawl_unplayable  # noqa: F401 (a fixture)

FRIDAY = {
    "format": FORMAT,
    "name": "friday",
    "base": "russian",
    "summary": "Our Friday table: a short match.",
    "rules": {"game.target": 500, "barrel.threshold": None},
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty templates folder under a fresh $THOUSAND_HOME."""
    monkeypatch.setenv("THOUSAND_HOME", str(tmp_path / "home"))
    folder = tmp_path / "home" / "templates"
    folder.mkdir(parents=True)
    return folder


def put(folder: Path, data: object, name: str | None = None) -> Path:
    if name is None:
        assert isinstance(data, dict)
        name = f"{data['name']}.json"
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def unsupported(*values: tuple[str, Value]) -> list[str]:
    """The engine's refusals of these values, for those it does not play yet."""
    return [
        f"rules {name} = {show(value)} is not supported yet"
        f" (supported: {PARAM_BY_NAME[name].supported_text})"
        for name, value in values
        if not PARAM_BY_NAME[name].is_supported(value)
    ]


def problems(path: Path) -> list[str]:
    return check_file(path)[1]


# -- where templates are found ------------------------------------------------------------------


def test_templates_home_follows_thousand_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THOUSAND_HOME", str(tmp_path))
    assert templates_home() == tmp_path / "templates"
    monkeypatch.delenv("THOUSAND_HOME")
    assert templates_home() == Path.home() / ".thousand" / "templates"


def test_found_by_name_in_the_folder_and_by_path(home: Path, tmp_path: Path) -> None:
    put(home, FRIDAY)
    by_name = find_template("friday")
    assert (by_name.name, by_name.base, by_name.variant) == ("friday", "russian", "russian")
    assert by_name.custom and by_name.path == home / "friday.json"
    assert by_name.rules.game_target == 500 and by_name.rules.barrel_threshold is None
    elsewhere = put(tmp_path, {**FRIDAY, "name": "shared"}, "shared-template.json")
    by_path = find_template(str(elsewhere))
    assert by_path.name == "shared" and by_path.rules == by_name.rules
    assert by_path.record_rules() == {"barrel.threshold": None, "game.target": 500}


def test_a_built_in_name_is_the_built_in_template(home: Path) -> None:
    chosen = find_template("tysiac")
    assert not chosen.custom
    assert chosen.rules == template_rules("tysiac")
    assert chosen.record_rules() == {}
    assert chosen.description.startswith("Polish Tysiąc")


def test_an_unknown_template_says_where_it_was_looked_for(home: Path) -> None:
    with pytest.raises(TemplateError) as e:
        find_template("saturday")
    (problem,) = e.value.problems
    assert problem.startswith("unknown template 'saturday': not a built-in template (russian,")
    assert str(home) in problem


def test_a_custom_base_chains_to_its_built_in(home: Path) -> None:
    put(home, {**FRIDAY, "base": "tysiac"})
    put(home, {"format": FORMAT, "name": "late", "base": "friday", "rules": {"game.target": 700}})
    late = find_template("late")
    assert (late.base, late.variant) == ("friday", "tysiac")
    assert late.rules == template_rules("tysiac").with_overrides({"game.target": 700})
    assert late.record_rules() == {"game.target": 700}
    assert late.base_rules == find_template("friday").rules
    assert late.summary == "friday with 1 change."


# -- check: every problem in one run --------------------------------------------------------------


def test_a_good_file_has_no_problem(home: Path) -> None:
    chosen, found = check_file(put(home, FRIDAY))
    assert found == [] and chosen is not None


def test_every_problem_of_the_header_in_one_run(home: Path, tmp_path: Path) -> None:
    path = put(
        tmp_path,
        '{"format": "thousand-template/2", "name": "Big Table", "colour": 1,'
        ' "summary": 5, "rules": {"game.target": 50, "bidding.forcd": "dealer",'
        ' "game.target": 600}}',
        "bad.json",
    )
    assert problems(path) == [
        "unknown key 'colour' (keys: format, name, base, summary, description, rules)",
        "'base' is missing",
        "'format' = 'thousand-template/2' is not 'thousand-template/1'",
        "'name' = 'Big Table' is not a template name (lower-case letters, digits and hyphens,"
        " at most 40, starting with a letter or digit)",
        "'summary' = 5 is not a string",
        "rules: 'game.target' is given twice",
        "unknown parameter 'bidding.forcd' in rules (did you mean 'bidding.forced'?)",
    ]


def test_values_are_checked_even_when_the_base_is_unknown(home: Path) -> None:
    path = put(home, {**FRIDAY, "base": "russain", "rules": {"bidding.max": 90}})
    found = problems(path)
    assert found[0].startswith("'base' = 'russain' is not a template (did you mean 'russian'?):")
    assert found[1:] == ["rules bidding.max = 90 is out of range (100..400)"]


def test_values_and_contradictions_name_the_parameters(home: Path) -> None:
    path = put(
        home,
        {
            **FRIDAY,
            "rules": {
                "players.count": 4,
                "players.layout": "dealer-sits-out",
                "bidding.min": 105,
                "bidding.step": 10,
                "game.target": 99,
                "writeoff.allowed": "no",
            },
        },
    )
    assert problems(path) == [
        "rules writeoff.allowed = 'no' is not true or false",
        "rules game.target = 99 is out of range (100..5000)",
        "rules bidding.forced = 'dealer' cannot go with players.layout = 'dealer-sits-out':"
        " the dealer takes no part in the deal",
        "rules bidding.min = 105 is not a multiple of bidding.step = 10: nobody could bid the"
        " lowest bid",
        *unsupported(("players.count", 4), ("players.layout", "dealer-sits-out")),
    ]
    # load_file (what show and diff use) leaves out only the engine's support
    assert load_file(path)[1] == problems(path)[:4]


@pytest.mark.usefixtures("crawl_unplayable")
def test_a_template_on_an_unplayable_base_says_so(home: Path) -> None:
    path = put(home, {**FRIDAY, "base": "estonian", "rules": {}})
    chosen, found = load_file(path)
    assert found == [] and chosen is not None
    (problem,) = problems(path)
    assert problem.startswith(f"template 'estonian' is not supported yet: {CRAWL_REFUSED}")
    crawl = put(home, {**FRIDAY, "name": "crawl", "rules": {"play.crawl": True}})
    assert problems(crawl) == [CRAWL_REFUSED]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "{",
            "is not JSON (Expecting property name enclosed in double quotes at line 1, column 2)",
        ),
        ("[1]", "is [1], not a JSON object with format, name, base, summary, description, rules"),
        (
            json.dumps({**FRIDAY, "rules": [1]}),
            "'rules' = [1] is not an object of parameter names",
        ),
        (
            json.dumps({**FRIDAY, "name": "russian"}),
            "'name' = 'russian' is a built-in template: choose another name",
        ),
        (
            json.dumps({**FRIDAY, "name": "other"}),
            "'name' = 'other' differs from the file name 'friday.json' in the templates folder"
            " (the file of 'other' is other.json)",
        ),
        (
            json.dumps({**FRIDAY, "base": "friday"}),
            "'base' = 'friday' goes round in a circle (a template's base is itself)",
        ),
    ],
)
def test_one_problem_each(home: Path, text: str, problem: str) -> None:
    assert problems(put(home, text, "friday.json")) == [problem]


def test_a_base_with_problems_is_named(home: Path) -> None:
    broken = put(home, {**FRIDAY, "rules": {"game.target": 1}})
    child = put(home, {"format": FORMAT, "name": "child", "base": "friday", "rules": {}})
    assert problems(child) == [
        f"'base' = 'friday' has problems of its own (1): check it with thousand rules check"
        f" {broken}"
    ]


def test_a_missing_file(tmp_path: Path) -> None:
    assert problems(tmp_path / "none.json") == ["no such file"]
    with pytest.raises(TemplateError, match=r"none\.json: no such file"):
        find_template(str(tmp_path / "none.json"))


# -- the command --------------------------------------------------------------------------------


def test_check_exit_status_and_streams(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = put(home, FRIDAY)
    assert main(["rules", "check", str(good)]) == 0
    out, err = capsys.readouterr()
    assert (
        out == (f"{good}: OK: template 'friday', russian with game.target, barrel.threshold\n")
        and err == ""
    )
    bad = put(home, {**FRIDAY, "name": "bad", "rules": {"bidding.max": 90, "game.target": 1}})
    assert main(["rules", "check", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"{bad}: rules bidding.max = 90 is out of range (100..400)\n"
        f"{bad}: rules game.target = 1 is out of range (100..5000)\n"
    )


@pytest.mark.usefixtures("crawl_unplayable")
def test_list_shows_built_in_and_custom(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(home, FRIDAY)
    put(home, "{", "broken.json")
    assert main(["rules", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Built-in templates:"
    assert lines[1] == (
        "  russian          The canonical Russian rules: what the table plays when it picks"
        " nothing."
    )
    estonian = next(line for line in lines if line.startswith("  estonian "))
    assert estonian.endswith(" (not playable yet)")
    assert lines[-3] == f"Custom templates in {home}:"
    assert (
        lines[-2]
        == f"  broken           (has problems: see thousand rules check {home}/broken.json)"
    )
    assert lines[-1] == "  friday           Our Friday table: a short match. [based on russian]"


def test_list_without_a_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("THOUSAND_HOME", str(tmp_path / "nowhere"))
    assert main(["rules", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("No custom templates in ")


def test_show_marks_what_differs(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(home, {**FRIDAY, "base": "tysiac", "rules": {"game.target": 500}})
    assert main(["rules", "show", "friday"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "friday: Our Friday table: a short match."
    assert lines[1] == "Changed from tysiac: the match is won at 500."
    assert "Playable now: yes" in lines
    target = next(line for line in lines if " game.target " in line)
    assert target.split() == [
        "*",
        "game.target",
        "500",
        "the",
        "match",
        "is",
        "won",
        "at",
        "500",
        "[tysiac:",
        "1000;",
        "russian:",
        "1000]",
    ]
    step = next(line for line in lines if " bidding.step " in line)
    assert step.split()[:2] == ["bidding.step", "10"] and step.endswith("[russian: 5]")
    count = next(line for line in lines if " players.count " in line)
    assert count.split() == ["players.count", "3", "the", "table", "seats", "three", "players"]


@pytest.mark.usefixtures("crawl_unplayable")
def test_show_a_template_not_playable_yet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "estonian"]) == 0
    out = capsys.readouterr().out
    assert f"Playable now: no\n  template 'estonian' is not supported yet: {CRAWL_REFUSED}" in out
    assert (
        "the Estonian crawl (a declarer without an ace plays the first trick face down) is played"
        " (not playable yet)  [russian: false]\n" in out
    )


def test_diff_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "diff", "russian", "ukrainian"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "russian and ukrainian differ in 6 parameters:",
        "  Write-off: writing off the deal after seeing the talon is allowed in russian, not"
        " allowed in ukrainian [writeoff.allowed].",
        "  Barrel and end of the match: a seat on the barrel has 3 deals in russian, 2 deals in"
        " ukrainian [barrel.deals].",
        "  Barrel and end of the match: a seat's third fall from the barrel sends its total back"
        " to 0 in russian, is like any other fall in ukrainian [barrel.three_falls_reset].",
        "  Barrel and end of the match: the dump truck (a total landing exactly on its number"
        " drops to 0) works on the plus and the minus number in russian, is not played in"
        " ukrainian [game.dump_truck].",
        "  Penalties: sticks cost 120 when 3 add up over the match in russian, cost nothing in"
        " ukrainian [penalty.sticks].",
        "  Penalties: deals without a win cost 120 when 3 add up over the match in russian, cost"
        " nothing in ukrainian [penalty.no_win].",
    ]
    assert main(["rules", "diff", "russian", "russian"]) == 0
    assert capsys.readouterr().out == "russian and russian have the same rules.\n"


def test_rules_speak_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    """``thousand rules diff/show/list --lang``: the sentences around the parameters' words are
    translated too, not only the words."""
    assert main(["rules", "diff", "russian", "ukrainian", "--lang", "ru"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "russian и ukrainian различаются параметрами (6):"
    assert lines[1] == (
        "  Роспись: расписать сдачу, увидев прикуп, можно в russian, нельзя в ukrainian"
        " [writeoff.allowed]."
    )
    assert main(["rules", "diff", "russian", "russian", "--lang", "uk"]) == 0
    assert capsys.readouterr().out == "У russian і russian однакові правила.\n"
    assert main(["rules", "show", "tysiac", "--lang", "pl"]) == 0
    out = capsys.readouterr().out
    assert "(wbudowany szablon, na bazie russian; w zapisie partii nazywa się wariantem" in out
    assert "Można grać już teraz: tak" in out and "Wszystkie parametry (* różni się od" in out
    assert main(["rules", "list", "--lang", "et"]) == 0
    assert capsys.readouterr().out.startswith("Sisseehitatud mallid:\n")


def test_diff_with_a_file_and_the_highest_bid(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = put(home, {**FRIDAY, "rules": {"bidding.max": 400}})
    assert main(["rules", "diff", "russian", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "russian and friday differ in 1 parameter:",
        "  Bidding: the highest bid is 120 in russian, 400 in friday [bidding.max].",
    ]


def test_an_unknown_template_is_status_2(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "saturday"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("rules show: unknown template 'saturday': ")


# -- custom templates where a template name goes ---------------------------------------------------


def test_selfplay_writes_the_base_as_variant_and_the_changes_as_rules(
    home: Path, tmp_path: Path
) -> None:
    put(home, {**FRIDAY, "base": "ukrainian"})
    out = tmp_path / "games.json"
    assert (
        main(
            [
                "selfplay",
                "--template",
                "friday",
                "--deals",
                "3",
                "--seed",
                "5",
                "--out",
                str(out),
                "--rules",
                '{"barrel.deals": 3}',
            ]
        )
        == 0
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["variant"] == "ukrainian"
    assert data["rules"] == {"barrel.deals": 3, "barrel.threshold": None, "game.target": 500}
    record = read_record(out.read_text(encoding="utf-8"))
    assert len(replay_json(replay(record))["deals"]) == 3


@pytest.mark.usefixtures("crawl_unplayable")
def test_load_template_checks_support_and_overrides(home: Path) -> None:
    put(home, FRIDAY)
    chosen, rules = load_template("friday", '{"game.target": 600}')
    assert chosen.name == "friday" and rules.game_target == 600
    assert load_rules("friday") == chosen.rules
    put(home, {**FRIDAY, "name": "crawl", "rules": {"play.crawl": True}})
    with pytest.raises(OptionError, match=re.escape(CRAWL_REFUSED)):
        load_rules("crawl")
    with pytest.raises(OptionError, match="unknown template 'nope'"):
        load_rules("nope")


def test_play_shows_the_description_before_the_first_deal(home: Path, tmp_path: Path) -> None:
    put(home, FRIDAY)
    said: list[str] = []
    chosen, rules = load_template("friday")
    out = tmp_path / "quit.json"
    play(
        rules,
        1,
        template=chosen.variant,
        title=chosen.name,
        about=about(chosen),
        out=str(out),
        ask=lambda _: "q",
        say=said.append,
    )
    assert said[0] == (
        "Thousand (friday), seed 1. You are seat 0; the others are bots (medium-bot-1,"
        " medium-bot-2)."
    )
    assert said[1:3] == [
        "friday: Our Friday table: a short match.",
        "Changed from russian: the barrel is not played; the match is won at 500.",
    ]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["variant"], data["rules"]) == (
        "russian",
        {"barrel.threshold": None, "game.target": 500},
    )


def test_every_built_in_template_has_a_description() -> None:
    for name in TEMPLATES:
        chosen = builtin(name)
        assert chosen.description.endswith("."), name
        lines = about(chosen)
        assert " ".join(lines).startswith(f"{name}: {chosen.summary}")
        assert all(len(line) <= 96 for line in lines)


def test_a_rules_error_is_a_template_error() -> None:
    assert issubclass(TemplateError, RulesError)


# -- the README's example is true -----------------------------------------------------------------


def test_readme_example_template_and_its_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### `thousand rules`\n", 1)[1].split("\n### ", 1)[0]
    (example,) = re.findall(r"```json\n(.*?)```", section, re.DOTALL)
    first_text = re.findall(r"```text\n(.*?)```", section, re.DOTALL)[0]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("THOUSAND_HOME", str(tmp_path / "home"))
    Path("friday.json").write_text(example, encoding="utf-8")
    assert main(["rules", "check", "friday.json"]) == 0
    capsys.readouterr()
    assert main(["rules", "diff", "russian", "friday.json"]) == 0
    assert capsys.readouterr().out == first_text


def test_new_saves_a_checked_template(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rules", "new", "friday", "--rules", '{"game.target": 500, "barrel.threshold": null}']
    assert main([*argv, "--summary", "Our Friday table."]) == 0
    path = home / "friday.json"
    assert capsys.readouterr().out == (
        f"wrote template 'friday' (russian with 2 changes) to {path}\n"
    )
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "format": FORMAT,
        "name": "friday",
        "base": "russian",
        "summary": "Our Friday table.",
        "rules": {"barrel.threshold": None, "game.target": 500},
    }
    assert find_template("friday").rules.game_target == 500
    # the file is there: nothing is replaced without --force
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"rules new: {path} is there already (--force replaces it)\n"
    )
    assert main([*argv[:3], "--force"]) == 0
    assert json.loads(path.read_text(encoding="utf-8"))["rules"] == {}


def test_new_writes_nothing_with_a_problem(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "new", "late", "--base", "tysiac", "--rules", '{"bidding.max": 1}']) == 2
    assert (
        capsys.readouterr().err == "rules new: rules bidding.max = 1 is out of range (100..400)\n"
    )
    assert main(["rules", "new", "Late", "--rules", "[1]"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "rules new: --rules must be a JSON object of rule parameters",
        "rules new: 'name' = 'Late' is not a template name (lower-case letters, digits and"
        " hyphens, at most 40, starting with a letter or digit)",
    ]
    assert list(home.iterdir()) == []


@pytest.mark.usefixtures("crawl_unplayable")
def test_new_on_a_custom_base_and_not_playable_yet(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    put(home, FRIDAY)
    out = tmp_path / "crawl.json"
    argv = ["rules", "new", "crawl", "--base", "friday", "--rules", '{"play.crawl": true}']
    assert main([*argv, "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"wrote template 'crawl' (friday with 1 change) to {out}",
        f"  not playable yet: {CRAWL_REFUSED}",
    ]
    assert find_template(str(out)).base == "friday"


def test_a_reader_that_goes_away_is_no_error() -> None:
    """``thousand rules show russian | head -1`` stops quietly, as cat does."""
    command = f"{shlex.quote(sys.executable)} -m thousand rules show russian | head -1"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.startswith("russian: The canonical Russian rules")
    assert done.stderr == "" and done.returncode == 0
