"""Dice expressions and weapon abilities as datasheets print them."""

import pytest

from rules.engine.core.notation import (
    DiceExpression,
    NotationError,
    WeaponAbility,
    format_weapon_abilities,
    parse_dice,
    parse_weapon_abilities,
    parse_weapon_ability,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", DiceExpression(modifier=3)),
        (2, DiceExpression(modifier=2)),
        ("D6", DiceExpression(1, 6, 0)),
        ("2D6", DiceExpression(2, 6, 0)),
        ("D3+1", DiceExpression(1, 3, 1)),
        ("d6 + 2", DiceExpression(1, 6, 2)),
        ("0", DiceExpression(modifier=0)),
    ],
)
def test_dice_expressions_are_read(text, expected):
    assert parse_dice(text) == expected


@pytest.mark.parametrize("text", ["", "D", "D7", "0D6", "2D6+", "-1", "six", "D6*2", "1.5"])
def test_invalid_dice_expressions_are_refused_with_a_reason(text):
    with pytest.raises(NotationError):
        parse_dice(text)


def test_dice_expression_bounds_and_mean():
    expression = parse_dice("2D6+2")
    assert (expression.minimum, expression.maximum, expression.mean) == (4, 14, 9.0)
    assert str(expression) == "2D6+2"
    assert str(parse_dice("D3")) == "D3"


def test_printed_ability_brackets_are_read():
    assert parse_weapon_abilities("[psychic, sustained hits 1]") == (
        WeaponAbility("PSYCHIC"),
        WeaponAbility("SUSTAINED HITS", value=DiceExpression(modifier=1)),
    )


def test_anti_keeps_keyword_and_threshold():
    ability = parse_weapon_ability("anti-infantry 4+")
    assert (ability.name, ability.keyword, ability.threshold) == ("ANTI", "INFANTRY", 4)
    assert str(ability) == "ANTI-INFANTRY 4+"


def test_values_may_be_dice():
    assert parse_weapon_ability("sustained hits D3").value == DiceExpression(1, 3, 0)


def test_canonical_spelling_round_trips():
    abilities = parse_weapon_abilities(["Rapid Fire 2", "ANTI-VEHICLE 4+", "melta 2", "lance"])
    spelled = format_weapon_abilities(abilities)
    assert spelled == ["rapid fire 2", "anti-vehicle 4+", "melta 2", "lance"]
    assert parse_weapon_abilities(spelled) == abilities


@pytest.mark.parametrize(
    "text",
    ["rapid fire", "melta two", "lethal hits 2", "anti-infantry", "flamer", "anti-infantry 7+"],
)
def test_invalid_abilities_are_refused_with_a_reason(text):
    with pytest.raises(NotationError) as error:
        parse_weapon_ability(text)
    assert str(error.value)


def test_a_repeated_ability_is_refused():
    with pytest.raises(NotationError, match="repeated"):
        parse_weapon_abilities("[lance, lance]")
