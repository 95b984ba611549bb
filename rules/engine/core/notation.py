"""The notations datasheets print: dice expressions (`D6+2`) and weapon abilities (`[MELTA 2]`).

Parsing happens once, when rules data is saved or a game starts; the engine then works on the
structured values. Every error is a `NotationError` whose message a person can act on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class NotationError(ValueError):
    """A dice expression or weapon ability that cannot be read."""


_DICE = re.compile(
    r"^(?:(?P<count>\d*)\s*D\s*(?P<sides>\d+))?\s*(?:(?P<sign>[+-])\s*(?P<mod>\d+))?$"
)
_ALLOWED_SIDES = (3, 6)


@dataclass(frozen=True, order=True)
class DiceExpression:
    """`count` dice of `sides` sides plus `modifier`; a fixed number has count 0."""

    count: int = 0
    sides: int = 6
    modifier: int = 0

    @property
    def is_fixed(self) -> bool:
        return self.count == 0

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    @property
    def mean(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.modifier

    def __str__(self) -> str:
        if self.is_fixed:
            return str(self.modifier)
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        if self.modifier > 0:
            return f"{dice}+{self.modifier}"
        if self.modifier < 0:
            return f"{dice}{self.modifier}"
        return dice


def parse_dice(text: str | int) -> DiceExpression:
    """Read `3`, `D6`, `2D6`, `D3+1`, `D6+2` (case and spaces do not matter)."""
    if isinstance(text, bool):
        raise NotationError(f"{text!r} is not a dice expression")
    if isinstance(text, int):
        if text < 0:
            raise NotationError(f"{text} is negative; a characteristic cannot be below 0")
        return DiceExpression(modifier=text)
    cleaned = str(text).strip().upper()
    if cleaned.isdigit():
        return DiceExpression(modifier=int(cleaned))
    match = _DICE.match(cleaned) if cleaned else None
    if match is None or (match["sides"] is None and match["mod"] is None):
        raise NotationError(
            f"{text!r} is not a dice expression: write a number (3), dice (D6, 2D6, D3) "
            "or dice plus a number (D3+1, 2D6+2)"
        )
    if match["sides"] is None:
        if match["sign"] == "-":
            raise NotationError(f"{text!r} is negative; a characteristic cannot be below 0")
        return DiceExpression(modifier=int(match["mod"]))
    sides = int(match["sides"])
    if sides not in _ALLOWED_SIDES:
        raise NotationError(f"{text!r} uses a D{sides}; only D3 and D6 are used in this game")
    count = int(match["count"]) if match["count"] else 1
    if count < 1:
        raise NotationError(f"{text!r} rolls no dice")
    modifier = int(match["mod"] or 0) * (-1 if match["sign"] == "-" else 1)
    return DiceExpression(count=count, sides=sides, modifier=modifier)


@dataclass(frozen=True)
class WeaponAbility:
    """One weapon ability as printed between brackets, e.g. RAPID FIRE 2 or ANTI-INFANTRY 4+.

    `value` holds the X of RAPID FIRE X, MELTA X and SUSTAINED HITS X (a dice expression, since
    published profiles print `SUSTAINED HITS D3`). ANTI-KEYWORD X+ keeps `keyword` and `threshold`.
    """

    name: str
    value: DiceExpression | None = None
    keyword: str | None = None
    threshold: int | None = None

    def __str__(self) -> str:
        if self.name == "ANTI":
            return f"ANTI-{self.keyword} {self.threshold}+"
        if self.value is not None:
            return f"{self.name} {self.value}"
        return self.name


# Abilities whose X is required, and those that take none. Names are the datasheets' own.
ABILITIES_WITH_VALUE = frozenset({"RAPID FIRE", "MELTA", "SUSTAINED HITS"})
ABILITIES_WITHOUT_VALUE = frozenset(
    {
        "ASSAULT",
        "BLAST",
        "CLOSE-QUARTERS",
        "CONVERSION",
        "DEVASTATING WOUNDS",
        "EXTRA ATTACKS",
        "HAZARDOUS",
        "HEAVY",
        "IGNORES COVER",
        "INDIRECT FIRE",
        "LANCE",
        "LETHAL HITS",
        "ONE SHOT",
        "PISTOL",
        "PRECISION",
        "PSYCHIC",
        "TORRENT",
        "TWIN-LINKED",
    }
)
# Printed bare or with an X: 11e 24.05 [BLAST X] adds X attack dice per five models.
ABILITIES_WITH_OPTIONAL_VALUE = frozenset({"BLAST"})
KNOWN_ABILITIES = ABILITIES_WITH_VALUE | ABILITIES_WITHOUT_VALUE | {"ANTI"}

_ANTI = re.compile(r"^ANTI-(?P<keyword>[A-Z][A-Z0-9 '\-]*?)\s+(?P<threshold>[2-6])\+$")
_WITH_VALUE = re.compile(r"^(?P<name>[A-Z][A-Z\- ]*?)\s+(?P<value>[0-9D+\-]+)$")


def parse_weapon_ability(text: str) -> WeaponAbility:
    """Read one ability: `rapid fire 2`, `[MELTA 2]`, `anti-infantry 4+`, `lethal hits`."""
    cleaned = " ".join(str(text).strip().strip("[]").upper().replace("\u2011", "-").split())
    if not cleaned:
        raise NotationError("an empty weapon ability")
    anti = _ANTI.match(cleaned)
    if anti:
        return WeaponAbility("ANTI", keyword=anti["keyword"], threshold=int(anti["threshold"]))
    if cleaned.startswith("ANTI"):
        raise NotationError(
            f"{text!r}: write anti-abilities as ANTI-KEYWORD X+ with X from 2 to 6 "
            "(e.g. anti-infantry 4+)"
        )
    if cleaned in ABILITIES_WITHOUT_VALUE:
        return WeaponAbility(cleaned)
    if cleaned in ABILITIES_WITH_VALUE:
        raise NotationError(f"{text!r} needs a value, e.g. {cleaned.lower()} 1")
    with_value = _WITH_VALUE.match(cleaned)
    if with_value and with_value["name"] in ABILITIES_WITH_VALUE | ABILITIES_WITH_OPTIONAL_VALUE:
        return WeaponAbility(with_value["name"], value=parse_dice(with_value["value"]))
    if with_value and with_value["name"] in ABILITIES_WITHOUT_VALUE:
        raise NotationError(f"{text!r}: {with_value['name'].lower()} takes no value")
    known = ", ".join(sorted(name.lower() for name in KNOWN_ABILITIES - {"ANTI"}))
    raise NotationError(
        f"{text!r} is not a weapon ability this referee knows; known: anti-KEYWORD X+, {known}"
    )


def parse_weapon_abilities(text: str | list[str] | None) -> tuple[WeaponAbility, ...]:
    """Read a list (`["rapid fire 2"]`) or a printed bracket (`[psychic, sustained hits 1]`)."""
    if text is None:
        return ()
    items = text if isinstance(text, list | tuple) else str(text).strip().strip("[]").split(",")
    abilities = tuple(parse_weapon_ability(item) for item in items if str(item).strip(" []"))
    names = [ability.name if ability.name != "ANTI" else str(ability) for ability in abilities]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise NotationError(f"repeated weapon ability: {', '.join(sorted(duplicates)).lower()}")
    return abilities


def format_weapon_abilities(abilities: tuple[WeaponAbility, ...]) -> list[str]:
    """The canonical lower-case spelling the data files use, e.g. ['rapid fire 2']."""
    return [str(ability).lower() for ability in abilities]
