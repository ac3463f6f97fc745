"""The rule parameters of rules.md part 2, the Rules value and the templates of part 3."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from thousand.rules import (
    PARAM_BY_NAME,
    PARAMS,
    TEMPLATES,
    Param,
    Rules,
    RulesError,
    Template,
    rules_from_record,
    template_rules,
)

from .conftest import shared_dir

KINDS = {"bool", "int", "choice", "int-or-none", "int-or-choice", "suit-map"}


def _errors(overrides: dict[str, object], base: Rules | None = None) -> list[str]:
    with pytest.raises(RulesError) as caught:
        (base or Rules()).with_overrides(overrides)
    return caught.value.problems


def _spec_parameter_names() -> list[str]:
    """The dotted names of the parameter tables of rules.md part 2, in order."""
    text = (shared_dir() / "spec" / "rules.md").read_text(encoding="utf-8")
    part2 = text.split("## Part 2.", 1)[1].split("## Part 3.", 1)[0]
    return re.findall(r"^\| `([a-z]+\.[a-z_]+)` \|", part2, flags=re.MULTILINE)


# --- the parameter table -------------------------------------------------------------------


def test_params_follow_the_spec_in_order() -> None:
    spec = shared_dir() / "spec" / "rules.md"
    if not spec.exists():
        pytest.skip("the shared spec is not beside the repository")
    assert [p.name for p in PARAMS] == _spec_parameter_names()


def test_param_by_name_and_fields() -> None:
    assert len(PARAM_BY_NAME) == len(PARAMS) == 106
    for param in PARAMS:
        assert PARAM_BY_NAME[param.name] is param
        assert param.field == param.name.replace(".", "_")
        assert param.kind in KINDS
        assert param.summary.endswith(".")
        assert param.section
    assert PARAM_BY_NAME["bidding.max"].field == "bidding_max"
    assert PARAM_BY_NAME["golden.deals"].section == "scoring"
    assert PARAM_BY_NAME["four.sitter_scores"].section == "four players"


def test_every_param_is_a_rules_field_with_the_same_default() -> None:
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    assert list(fields) == [p.field for p in PARAMS]
    rules = Rules()
    for param in PARAMS:
        assert getattr(rules, param.field) == param.default, param.name
        assert type(getattr(rules, param.field)) is type(param.default), param.name
        assert rules.value(param.name) == param.default


def test_defaults_are_valid_and_supported() -> None:
    for param in PARAMS:
        assert param.problems(param.default) == [], param.name
        assert param.is_supported(param.default), param.name
        if param.supported is not None:
            for value in param.supported:
                assert param.problems(value) == [], (param.name, value)
    Rules().validate()


def test_param_range_texts() -> None:
    assert PARAM_BY_NAME["bidding.max"].values_text == "100..400"
    assert PARAM_BY_NAME["writeoff.penalty_every"].values_text == "0, 2..5"
    assert PARAM_BY_NAME["deal.talon_size"].values_text == "0, 2, 3"
    assert PARAM_BY_NAME["barrel.threshold"].values_text == "none or 500..990"
    assert PARAM_BY_NAME["contract.raise_limit"].values_text == "achievable or 120..400"
    assert PARAM_BY_NAME["bidding.forced"].values_text == "none, forehand, dealer, last-seat"


def test_param_is_frozen() -> None:
    param: Param = PARAM_BY_NAME["bidding.max"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        param.default = 400  # type: ignore[misc]


# --- the Rules value -----------------------------------------------------------------------


def test_rules_russian_values() -> None:
    rules = Rules()
    assert rules.players_count == 3
    assert rules.bidding_forced == "dealer"
    assert rules.bidding_silence_below is None
    assert rules.contract_raise_limit == "achievable"
    assert rules.marriage_values == (60, 80, 100, 40)
    assert rules.barrel_threshold == 880
    assert rules.barrel_reverse_fallback == -760
    assert rules.game_dump_truck == "both"


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.bidding_max = 400  # type: ignore[misc]
    assert hash(rules) == hash(Rules())
    assert {rules, template_rules("russian")} == {rules}
    assert Rules() != template_rules("tysiac")


def test_overrides_parse() -> None:
    rules = Rules().with_overrides(
        {
            "game.dump_truck": "off",
            "barrel.deals": 2,
            "writeoff.allowed": False,
            "bidding.silence_below": None,
            "barrel.threshold": None,
            "contract.raise_limit": 200,
            "marriage.values": {"h": 100, "d": 80, "c": 60, "s": 50},
        }
    )
    assert rules.game_dump_truck == "off"
    assert rules.barrel_deals == 2
    assert rules.writeoff_allowed is False
    assert rules.bidding_silence_below is None
    assert rules.barrel_threshold is None
    assert rules.contract_raise_limit == 200
    assert rules.marriage_values == (60, 80, 100, 50)
    assert Rules().with_overrides({}) == Rules()


def test_value_by_name() -> None:
    assert Rules().value("bidding.max") == 120
    with pytest.raises(RulesError) as caught:
        Rules().value("bidding.maximum")
    assert str(caught.value) == "unknown parameter 'bidding.maximum' in rules"


def test_to_json_is_every_param_in_order() -> None:
    data = Rules().to_json()
    assert list(data) == [p.name for p in PARAMS]
    assert data["marriage.values"] == {"c": 60, "d": 80, "h": 100, "s": 40}
    assert data["bidding.silence_below"] is None
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_to_json_round_trips(name: str) -> None:
    rules = template_rules(name, supported_only=False)
    data = json.loads(json.dumps(rules.to_json()))
    assert Rules().with_overrides(data, supported_only=False) == rules


def test_overrides_from_gives_only_differences() -> None:
    assert Rules().overrides_from(Rules()) == {}
    rules = Rules().with_overrides(
        {
            "penalty.no_win": "off",
            "bidding.max": 300,
            "marriage.values": {"c": 60, "d": 80, "h": 100, "s": 50},
        }
    )
    assert rules.overrides_from(Rules()) == {
        "bidding.max": 300,
        "marriage.values": {"c": 60, "d": 80, "h": 100, "s": 50},
        "penalty.no_win": "off",
    }
    assert list(rules.overrides_from(Rules())) == [
        "bidding.max",
        "marriage.values",
        "penalty.no_win",
    ]
    assert Rules().with_overrides(rules.overrides_from(Rules())) == rules
    assert Rules().overrides_from(rules) == {
        "bidding.max": 120,
        "marriage.values": {"c": 60, "d": 80, "h": 100, "s": 40},
        "penalty.no_win": "any",
    }


# --- errors --------------------------------------------------------------------------------


def test_error_joins_its_problems() -> None:
    error = RulesError(["one", "two"])
    assert isinstance(error, ValueError)
    assert error.problems == ["one", "two"]
    assert str(error) == "one; two"
    assert RulesError("alone").problems == ["alone"]


def test_unknown_parameter() -> None:
    assert _errors({"bidding.maximum": 120}) == ["unknown parameter 'bidding.maximum' in rules"]


def test_out_of_range() -> None:
    assert _errors({"bidding.max": 90}) == ["rules bidding.max = 90 is out of range (100..400)"]
    assert _errors({"deal.talon_size": 1}) == [
        "rules deal.talon_size = 1 is out of range (0, 2, 3)"
    ]
    assert _errors({"writeoff.penalty_every": 1}) == [
        "rules writeoff.penalty_every = 1 is out of range (0, 2..5)"
    ]
    assert _errors({"barrel.threshold": 1000}) == [
        "rules barrel.threshold = 1000 is out of range (none or 500..990)"
    ]
    assert _errors({"contract.raise_limit": 110}) == [
        "rules contract.raise_limit = 110 is out of range (achievable or 120..400)"
    ]
    assert _errors({"marriage.values": {"c": 60, "d": 80, "h": 100, "s": -1}}) == [
        "rules marriage.values s = -1 is out of range (0..400)"
    ]


def test_wrong_json_types() -> None:
    assert _errors({"bidding.max": "120"}) == [
        "rules bidding.max = '120' is not a whole number (100..400)"
    ]
    assert _errors({"bidding.max": 120.0}) == [
        "rules bidding.max = 120.0 is not a whole number (100..400)"
    ]
    assert _errors({"writeoff.allowed": "false"}) == [
        "rules writeoff.allowed = 'false' is not true or false"
    ]
    assert _errors({"barrel.threshold": "none"}) == [
        "rules barrel.threshold = 'none' is not null or a whole number (none or 500..990)"
    ]
    assert _errors({"bidding.max": None}) == [
        "rules bidding.max = null is not a whole number (100..400)"
    ]
    assert _errors({"contract.raise_limit": "highest"}) == [
        "rules contract.raise_limit = 'highest' is not achievable or a whole number (120..400)"
    ]


def test_bool_and_int_are_not_interchangeable() -> None:
    assert _errors({"bidding.max": True}) == [
        "rules bidding.max = true is not a whole number (100..400)"
    ]
    assert _errors({"writeoff.allowed": 1}) == ["rules writeoff.allowed = 1 is not true or false"]
    assert _errors({"barrel.threshold": False}) == [
        "rules barrel.threshold = false is not null or a whole number (none or 500..990)"
    ]
    assert _errors({"contract.raise_limit": True}) == [
        "rules contract.raise_limit = true is not a whole number (achievable or 120..400)"
    ]


def test_not_one_of() -> None:
    assert _errors({"bidding.forced": "nobody"}) == [
        "rules bidding.forced = 'nobody' is not one of none, forehand, dealer, last-seat"
    ]
    assert _errors({"game.dump_truck": False}) == [
        "rules game.dump_truck = false is not one of off, positive, both"
    ]


def test_malformed_marriage_values() -> None:
    assert _errors({"marriage.values": {"h": 100, "d": 80, "c": 60}}) == [
        'rules marriage.values = {"h": 100, "d": 80, "c": 60} must name exactly the four suits'
        " c, d, h, s (missing s)"
    ]
    assert _errors({"marriage.values": {"h": 100, "d": 80, "c": 60, "s": 40, "x": 1}}) == [
        'rules marriage.values = {"h": 100, "d": 80, "c": 60, "s": 40, "x": 1} must name exactly'
        " the four suits c, d, h, s (unknown x)"
    ]
    assert _errors({"marriage.values": [60, 80, 100, 40]}) == [
        "rules marriage.values = [60, 80, 100, 40] is not an object of the four suits"
        " (c, d, h, s, each 0..400)"
    ]
    assert _errors({"marriage.values": {"c": "60", "d": 80, "h": 100, "s": True}}) == [
        "rules marriage.values c = '60' is not a whole number (0..400)",
        "rules marriage.values s = true is not a whole number (0..400)",
    ]


def test_not_supported_yet() -> None:
    # every parameter's every value is played now; the check stays for a value left out
    named = {"special.open_hand": 300, "special.slam": 200, "special.misere": 100}
    assert Rules().with_overrides(named).unsupported() == ()
    slam = dataclasses.replace(PARAM_BY_NAME["special.slam"], supported=(None,))
    assert not slam.is_supported(200) and slam.is_supported(None)
    assert slam.supported_text == "none"
    rules = Rules().with_overrides({"special.slam": 200})
    assert rules.special_slam == 200 and rules.unsupported() == ()
    rules.validate()


def test_supported_values_that_differ_from_russian_are_accepted() -> None:
    rules = Rules().with_overrides(
        {
            "redeal.all_pass": "pass-on",
            "game.tiebreak": "highest",
            "bidding.forced": "last-seat",
            "play.must_beat": "highest",
            "scoring.failed_contract": "each-defender",
            "barrel.collision": "coexist",
            "contract.raise_limit": 400,
            "marriage.trump_from": "this-trick",
            "penalty.sticks_on": "points",
            "barrel.reverse": True,
            "bidding.blind": "first-bid",
            "penalty.sticks_doubled": "blind",
        }
    )
    assert rules.unsupported() == ()


def test_every_problem_in_one_run() -> None:
    problems = _errors({"bidding.maximum": 1, "bidding.max": 90, "writeoff.allowed": 0})
    assert problems == [
        "unknown parameter 'bidding.maximum' in rules",
        "rules bidding.max = 90 is out of range (100..400)",
        "rules writeoff.allowed = 0 is not true or false",
    ]
    with pytest.raises(RulesError) as caught:
        Rules(bidding_max=90, special_slam=700).validate()
    assert str(caught.value) == (
        "rules bidding.max = 90 is out of range (100..400); "
        "rules special.slam = 700 is out of range (none or 1..600)"
    )


def test_rules_object_must_be_an_object() -> None:
    with pytest.raises(RulesError, match="is not an object of parameter names"):
        Rules().with_overrides([1, 2])  # type: ignore[arg-type]


# --- combinations --------------------------------------------------------------------------


def test_min_above_max() -> None:
    assert _errors({"bidding.min": 150, "bidding.max": 140}) == [
        "rules bidding.min = 150 is above bidding.max = 140"
    ]
    Rules().with_overrides({"bidding.min": 120, "bidding.max": 120})


def test_target_at_or_below_barrel() -> None:
    assert _errors({"game.target": 880}) == [
        "rules game.target = 880 is at or below barrel.threshold = 880"
    ]
    assert Rules().with_overrides({"game.target": 500, "barrel.threshold": None}).game_target == 500


def test_partnerships_need_four_seats() -> None:
    rules = Rules(players_partnerships="across")
    assert rules.problems(supported_only=False) == [
        "rules players.partnerships = 'across' needs four seats, but players.count = 3"
    ]


def test_forced_dealer_with_sitting_out_dealer() -> None:
    rules = Rules(players_count=4, players_layout="dealer-sits-out")
    assert rules.problems(supported_only=False) == [
        "rules bidding.forced = 'dealer' cannot go with players.layout = 'dealer-sits-out':"
        " the dealer takes no part in the deal"
    ]
    dataclasses.replace(rules, bidding_forced="none").validate(supported_only=False)


def test_cards_must_fit_the_deck() -> None:
    rules = Rules(deal_hand_size=8)
    assert rules.problems(supported_only=False) == [
        "rules deal: 3 hands of deal.hand_size 8 + deal.talon_size 3 = 27 cards does not fit"
        " the 24-card deck (players.count = 3, players.layout = 'standard',"
        " talon.distribution = 'take-and-pass')"
    ]
    assert "does not fit the 24-card deck" in Rules(players_count=2).problems()[0]


def test_talon_must_fit_its_distribution() -> None:
    rules = Rules(talon_distribution="keep-one", deal_talon_size=2, deal_hand_size=7)
    assert (
        "rules talon.distribution = 'keep-one' needs a talon of 3 with 3 active seats,"
        " but deal.talon_size = 2: the declarer keeps one card and gives one to each other seat"
    ) in rules.problems(supported_only=False)


def test_other_impossible_combinations() -> None:
    no_barrel = Rules(barrel_threshold=None)
    assert dataclasses.replace(no_barrel, golden_deals=2).problems(supported_only=False) == [
        "rules golden.deals = 2 needs a barrel.threshold (it is null): the golden contract is"
        " game.target minus barrel.threshold"
    ]
    assert dataclasses.replace(no_barrel, barrel_reverse=True).problems(supported_only=False) == [
        "rules barrel.reverse = true needs a barrel.threshold (it is null): the mirror barrel"
        " sits at minus barrel.threshold"
    ]
    assert Rules(barrel_threshold=600, barrel_pit=700).problems(supported_only=False) == [
        "rules barrel.pit = 700 is at or above barrel.threshold = 600"
    ]
    assert Rules(contract_before_talon=True).problems(supported_only=False) == [
        "rules contract.before_talon = true fixes the contract before the talon,"
        " so contract.raise must be false (it is true)"
    ]


def test_combinations_skip_invalid_values() -> None:
    assert Rules(bidding_min="x", bidding_max=100).problems() == [  # type: ignore[arg-type]
        "rules bidding.min = 'x' is not a whole number (10..200)"
    ]


# --- templates -----------------------------------------------------------------------------


def test_templates_in_spec_order() -> None:
    assert list(TEMPLATES) == [
        "russian",
        "russian-classic",
        "ukrainian",
        "polish-2card",
        "tysiac",
        "tysiac-2p",
        "two-player-a",
        "two-player-b",
        "four-player-a",
        "four-player-b",
        "four-player",
        "estonian",
        "soviet-book",
    ]
    for name, template in TEMPLATES.items():
        assert isinstance(template, Template)
        assert template.name == name
        assert template.summary.endswith(".")
        assert (template.base is None) == (name == "russian")
        assert template.base is None or template.base in TEMPLATES
        for key in template.overrides:
            assert key in PARAM_BY_NAME, (name, key)


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_every_template_is_valid(name: str) -> None:
    rules = template_rules(name, supported_only=False)
    assert rules.problems(supported_only=False) == []


def test_russian_template_is_the_default() -> None:
    assert template_rules("russian") == Rules()
    assert TEMPLATES["russian"].overrides == {}


def test_russian_classic() -> None:
    rules = template_rules("russian-classic")
    # bidding.step 5 and writeoff.fixed 60 are in the template but equal russian's values
    assert rules.overrides_from(Rules()) == {
        "bidding.max": 400,
        "bidding.marriage_cap": "plus-marriages",
        "bidding.big_step": 5,
        "bidding.forced": "forehand",
        "writeoff.opponents_get": "fixed",
        "writeoff.penalty_every": 0,
        "play.must_beat": "off",
        "play.must_overtrump": False,
        "scoring.round_before_check": False,
        "barrel.three_falls_reset": False,
        "game.dump_truck": "positive",
        "penalty.sticks": "in-a-row",
        "penalty.no_win": "off",
    }
    assert rules.bidding_forced == "forehand"
    assert rules.bidding_max == 400
    assert rules.bidding_marriage_cap == "plus-marriages"
    assert (rules.bidding_step, rules.bidding_big_step) == (5, 5)
    assert rules.play_must_beat == "off"
    assert rules.play_must_overtrump is False
    assert rules.scoring_round_before_check is False
    assert (rules.writeoff_opponents_get, rules.writeoff_fixed) == ("fixed", 60)
    assert rules.writeoff_penalty_every == 0
    assert rules.penalty_sticks == "in-a-row"
    assert rules.penalty_no_win == "off"
    assert rules.barrel_three_falls_reset is False
    assert rules.game_dump_truck == "positive"
    assert rules.barrel_threshold == 880


def test_ukrainian_and_tysiac_are_supported() -> None:
    ukrainian = template_rules("ukrainian")
    assert ukrainian.overrides_from(Rules()) == {
        "writeoff.allowed": False,
        "barrel.deals": 2,
        "barrel.three_falls_reset": False,
        "game.dump_truck": "off",
        "penalty.sticks": "off",
        "penalty.no_win": "off",
    }
    tysiac = template_rules("tysiac")
    assert tysiac.barrel_threshold is None
    assert tysiac.scoring_only_bids_above == 800
    assert tysiac.scoring_round_to == 10
    assert tysiac.bidding_step == 10
    assert tysiac.unsupported() == ()


def test_derived_templates() -> None:
    two = template_rules("tysiac-2p", supported_only=False)
    assert two.players_count == 2
    assert two.talon_distribution == "choose-talon"
    assert two.scoring_only_bids_above == 800  # from tysiac
    four = template_rules("four-player", supported_only=False)
    assert four.players_partnerships == "none"
    assert four.players_layout == "dealer-sits-out"  # from four-player-b
    assert four.four_sitter_scores == "talon-points-and-marriage"
    assert four.penalty_sticks == "off"


def test_every_template_is_supported() -> None:
    for name in TEMPLATES:
        assert template_rules(name).unsupported() == (), name


def test_estonian_values() -> None:
    estonian = template_rules("estonian")
    assert estonian.marriage_values == (100, 40, 60, 80)
    assert estonian.penalty_sticks_on == "points"
    assert estonian.penalty_sticks_amount == 100


def test_soviet_book_values() -> None:
    rules = template_rules("soviet-book", supported_only=False)
    assert rules.bidding_min == 60
    assert rules.scoring_zero_penalty_from == 850
    assert rules.scoring_zero_penalty == 100
    assert rules.contract_before_talon is True
    assert rules.contract_raise is False


def test_unknown_variant() -> None:
    with pytest.raises(RulesError) as caught:
        template_rules("russain")
    assert str(caught.value) == "unknown variant 'russain'"


def test_rules_from_record() -> None:
    assert rules_from_record("russian", {}) == Rules()
    rules = rules_from_record("ukrainian", {"barrel.deals": 3})
    assert rules.barrel_deals == 3
    assert rules.writeoff_allowed is False
    estonian = rules_from_record("estonian", {"play.crawl": False, "marriage.four_nines_bonus": 0})
    assert estonian.bidding_forced == "last-seat"
    assert (estonian.play_crawl, estonian.marriage_four_nines_bonus) == (False, 0)
    with pytest.raises(RulesError) as caught:
        rules_from_record("estonian", {"play.crawl": False, "special.slam": 700, "x": 1})
    assert caught.value.problems == [
        "unknown parameter 'x' in rules",
        "rules special.slam = 700 is out of range (none or 1..600)",
    ]
    with pytest.raises(RulesError, match=r"^unknown variant 'russain'$"):
        rules_from_record("russain", {"bidding.max": 400})
    with pytest.raises(RulesError, match=r"^rules bidding.max = 90 is out of range"):
        rules_from_record("russian", {"bidding.max": 90})
