"""The Rules Submission schema machinery and the event reader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from controller.rules.core.engine import IllegalEvent
from controller.rules.core.events import EventError, parse_event
from controller.rules.core.irregularities import irregularity_section
from controller.rules.core.money import Odds
from controller.rules.core.option_groups import ProgressiveOptions, SideWagerOptions
from controller.rules.core.options import (
    RulesError,
    boolean,
    choice,
    integer,
    load_rules,
    money,
    odds,
    option,
    paytable,
    rules_to_mapping,
    specs,
)


@dataclass(frozen=True)
class ExampleRules:
    """A small schema shaped like a game's, to exercise the machinery on its own."""

    seats: int = option("seats", integer(1, 7), 7, section="§ 639a.2")
    bonus_offered: bool = option("bonus.offered", boolean, False, section="§ 639a.7(d)(3)")
    bonus_paytable: str = option("bonus.paytable", choice("A", "B", "C"), "A", section="§ 639a.12(c)")
    reset: int = option(
        "progressive.reset",
        money(1_000_000, "the $10,000 minimum of § 639a.12(d)(3)"),
        section="§ 639a.12(d)(3)",
    )
    mini_royal: Odds = option(
        "mini_royal",
        odds(Odds(5, 1, "to"), "the 5 to 1 minimum of § 649a.12(g)(1)"),
        "5 to 1",
        section="§ 649a.12(g)(1)",
    )
    table: Mapping[str, object] = option(
        "hit_and_run.paytable",
        paytable(["blackjack", "five cards"]),
        {"blackjack": "500 for 1", "five cards": "none"},
        section="§ 633a.13(l)",
    )


def test_defaults_and_nested_tables() -> None:
    rules = load_rules(ExampleRules, {"progressive": {"reset": "10000.00"}, "bonus": {"paytable": "B"}}, "t")
    assert rules.reset == 1_000_000 and rules.bonus_paytable == "B" and rules.seats == 7
    assert rules.mini_royal == Odds(5, 1, "to")
    assert rules.table["five cards"] is None
    assert rules_to_mapping(rules)["progressive.reset"] == "10000.00"
    assert load_rules(ExampleRules, rules_to_mapping(rules), "again") == rules


def test_every_problem_at_once_naming_key_value_and_section() -> None:
    with pytest.raises(RulesError) as err:
        load_rules(
            ExampleRules,
            {
                "seats": 9,
                "bonus": {"paytabel": "A", "offered": "yes"},
                "progressive": {"reset": "5000.00"},
                "mini_royal": "4 to 1",
                "hit_and_run": {"paytable": {"blackjack": "500 for 1"}},
            },
            "rules.toml",
        )
    text = str(err.value)
    assert text.startswith("rules.toml: 6 problems")
    assert "bonus.paytabel: unknown option; did you mean 'bonus.paytable'?" in text
    assert "seats 9: is above the maximum of 7 (§ 639a.2)" in text
    assert "bonus.offered yes: must be true or false (§ 639a.7(d)(3))" in text
    assert "progressive.reset 5000.00: is below the $10,000 minimum of § 639a.12(d)(3)" in text
    assert "mini_royal '4 to 1': is below the 5 to 1 minimum of § 649a.12(g)(1)" in text
    assert "is missing five cards" in text


def test_a_required_option_is_named() -> None:
    with pytest.raises(RulesError, match=r"progressive.reset: missing; the Rules Submission must give it"):
        load_rules(ExampleRules, {}, "t")


def test_money_as_a_float_is_refused() -> None:
    with pytest.raises(RulesError, match="not a number with a point"):
        load_rules(ExampleRules, {"progressive": {"reset": 10000.0}}, "t")


def test_cross_option_checks_run_after_the_options_read() -> None:
    def check(rules: ExampleRules) -> list[str]:
        return (
            ["bonus.paytable C needs bonus.offered"]
            if rules.bonus_paytable == "C" and not rules.bonus_offered
            else []
        )

    with pytest.raises(RulesError, match=r"needs bonus\.offered"):
        load_rules(ExampleRules, {"progressive.reset": "10000", "bonus": {"paytable": "C"}}, "t", [check])


# --- events ----------------------------------------------------------------------------------


def test_events_read_and_print() -> None:
    e = parse_event({"type": "wager", "seat": 3, "wager": "ante", "amount": "10.00"})
    assert (e.seat, e.wager, e.amount) == (3, "ante", 1000)
    assert e.to_json() == {"type": "wager", "seat": 3, "wager": "ante", "amount": "10.00"}
    c = parse_event({"type": "cards", "to": 2, "cards": "As Kd"})
    assert c.to == "2" and str(c) == "cards to=2 cards=As Kd"
    assert parse_event({"type": "no_more_bets"}).type == "no_more_bets"
    assert parse_event({"type": "dice", "dice": [1, 6, 3]}).dice == (1, 6, 3)
    # § 659a.7(f): the player at area 3 takes area 4 as his second.
    a = parse_event({"type": "second_area", "seat": 3, "area": 4})
    assert (a.seat, a.area) == (3, 4) and a.to_json() == {"type": "second_area", "seat": 3, "area": 4}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"type": "wagr"}, "unknown event type 'wagr'"),
        ({"type": "wager", "seat": 1, "wager": "ante"}, "a wager event needs amount"),
        (
            {"type": "wager", "seat": 0, "wager": "ante", "amount": "1"},
            "wager.seat must be a whole number from 1",
        ),
        ({"type": "wager", "seat": 1, "wager": "ante", "amount": 10.0}, "write money as a string"),
        (
            {"type": "cards", "to": "dealr", "cards": "As"},
            'must be a seat number, "dealer", "board" or "burn"',
        ),
        ({"type": "cards", "to": "dealer", "cards": "As Xx"}, "card 2: 'Xx'"),
        ({"type": "cards", "to": "dealer", "cards": "As As"}, "As appears 2 times"),
        ({"type": "cards", "to": "dealer", "cards": "As JKR"}, "joker"),
        ({"type": "no_more_bets", "seat": 1}, "has no field 'seat'"),
        ({"type": "dice", "dice": [1, 7, 3]}, "three dice, each 1 to 6"),
        ({"type": "second_area", "seat": 3}, "a second_area event needs area"),
        ({"type": "second_area", "seat": 3, "area": 0}, "second_area.area must be a whole number from 1"),
        ({"type": "second_area", "seat": 3, "area": "4"}, "second_area.area must be a whole number from 1"),
        ({"type": "hole_card_reader", "result": "maybe"}, '"blackjack" or "no_blackjack"'),
        ("wager", "an event is a JSON object"),
    ],
)
def test_bad_events_are_named(raw: object, message: str) -> None:
    with pytest.raises(EventError) as err:
        parse_event(raw, "events[4]")
    assert str(err.value).startswith("events[4]") and message in str(err.value)


# --- option groups: a side wager's and a progressive's options, named alike in every game -----------

JACKPOT = ProgressiveOptions("jackpot", "Jackpot Wager", "§ 1(a)")
SIDE = SideWagerOptions("side", "Side Wager", "§ 1(b)")


@dataclass(frozen=True)
class GroupedRules:
    side_offered: bool = SIDE.offered()
    side_minimum: int = SIDE.minimum("2.00", section="§ 2(b)")
    jackpot_offered: bool = JACKPOT.offered()
    jackpot_wager: int = JACKPOT.wager(section="§ 3")
    jackpot_initial: int | None = JACKPOT.initial(None, section="§ 4")
    jackpot_reset: int = JACKPOT.reset("10.00", section="§ 4", minimum=500, minimum_rule="the $5 minimum")
    jackpot_rate: str | None = JACKPOT.rate(section="§ 4")


def test_option_groups_give_the_same_keys_and_sections_in_every_game() -> None:
    assert [(spec.key, spec.section) for _, spec in specs(GroupedRules)] == [
        ("side.offered", "§ 1(b)"),
        ("side.minimum", "§ 2(b)"),
        ("jackpot.offered", "§ 1(a)"),
        ("jackpot.wager", "§ 3"),
        ("jackpot.initial", "§ 4"),
        ("jackpot.reset", "§ 4"),
        ("jackpot.rate_of_progression", "§ 4"),
    ]
    rules = load_rules(GroupedRules, {}, "t")
    assert (rules.side_offered, rules.side_minimum, rules.jackpot_wager) == (False, 200, 100)
    assert (rules.jackpot_initial, rules.jackpot_reset, rules.jackpot_rate) == (None, 1000, None)
    rules = load_rules(
        GroupedRules,
        {"jackpot": {"offered": True, "initial": "20.00", "reset": "6.00", "rate_of_progression": "5%"}},
        "t",
    )
    assert (rules.jackpot_offered, rules.jackpot_initial, rules.jackpot_reset) == (True, 2000, 600)
    assert rules_to_mapping(rules)["jackpot.rate_of_progression"] == "5%"


def test_an_option_group_names_the_key_value_and_section_of_each_problem() -> None:
    with pytest.raises(RulesError) as err:
        load_rules(GroupedRules, {"jackpot": {"reset": "4.00", "wager": "0.00"}, "side": {"offered": 1}}, "t")
    assert set(err.value.problems) == {
        "side.offered 1: must be true or false (§ 1(b))",
        "jackpot.wager 0.00: is below one cent (§ 3)",
        "jackpot.reset 4.00: is below the $5 minimum (§ 4)",
    }


def test_an_unknown_irregularity_is_refused_naming_the_known_kinds() -> None:
    table = {"shoe_jam": "§ 639a.13(f)", "card_face_up": "§ 639a.13(a)"}
    assert irregularity_section(table, "shoe_jam", "ch. 639a") == "§ 639a.13(f)"
    with pytest.raises(
        IllegalEvent, match=r"no irregularity 'shoe_jamm' in ch\. 639a \(kinds: shoe_jam, card_face_up\)"
    ):
        irregularity_section(table, "shoe_jamm", "ch. 639a")
    with pytest.raises(IllegalEvent, match="no irregularity ''"):
        irregularity_section(table, None, "ch. 639a")
