"""Human-readable previews of parsed rules values, shown beside the raw text in the admin."""

from __future__ import annotations

from rules.engine import (
    DiceExpression,
    NotationError,
    WeaponAbility,
    parse_dice,
    parse_weapon_abilities,
)


def describe_dice(text: str | None) -> str:
    """`D6+2` → `3 to 8, mean 5.5`; `2` → `always 2`."""
    if text in (None, ""):
        return "-"
    try:
        dice = parse_dice(text)
    except NotationError as error:
        return f"not readable: {error}"
    return _dice(dice)


def _dice(dice: DiceExpression) -> str:
    if dice.is_fixed:
        return f"always {dice.modifier}"
    return f"{dice.minimum} to {dice.maximum}, mean {dice.mean:g}"


def describe_weapon_abilities(abilities: list[str] | None) -> str:
    """`["anti-infantry 4+"]` → `ANTI: keyword INFANTRY, 4+`; one ability per `; `."""
    if not abilities:
        return "none"
    try:
        parsed = parse_weapon_abilities(abilities)
    except NotationError as error:
        return f"not readable: {error}"
    return "; ".join(_ability(ability) for ability in parsed)


def _ability(ability: WeaponAbility) -> str:
    if ability.keyword is not None:
        return f"{ability.name}: keyword {ability.keyword}, {ability.threshold}+"
    if ability.value is not None:
        return f"{ability.name} {ability.value} ({_dice(ability.value)})"
    return ability.name
