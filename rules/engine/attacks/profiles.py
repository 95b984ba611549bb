"""The inputs of the attack sequence as plain dataclasses, built from bundle-format dicts.

A weapon profile dict is written as datasheets print it (`docs/rules-data-format.md`): either the
bundle's keys (`A`, `S`, `AP`, `D`, `type`) or the preview's spelled-out keys (`attacks`,
`strength`, `ap`, `damage`). Dice expressions and weapon abilities are parsed here, once, by
`rules.engine.notation`; a bad value raises `AttackInputError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.engine.attacks.modifiers import Modifier
from rules.engine.core.editions import Edition
from rules.engine.core.notation import (
    DiceExpression,
    NotationError,
    WeaponAbility,
    parse_dice,
    parse_weapon_abilities,
)

NO_SAVE = 7  # a target number no D6 reaches: the model has no such save / Feel No Pain


class AttackInputError(ValueError):
    """An attack input that cannot be used; `field` names the offending value."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


def _pick(data: dict[str, Any], *names: str, default: Any = ...) -> tuple[str, Any]:
    for name in names:
        if name in data:
            return name, data[name]
    if default is ...:
        raise AttackInputError(names[-1], "is required")
    return names[-1], default


def _whole(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AttackInputError(name, f"must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise AttackInputError(name, f"must be at least {low}, not {value}")
    if high is not None and value > high:
        raise AttackInputError(name, f"must be at most {high}, not {value}")
    return value


def _optional_target_number(value: Any, name: str) -> int | None:
    if value is None:
        return None
    return _whole(value, name, 2, 6)


def _hashable(value: Any) -> Any:
    if value.__class__ is list:
        return tuple((item.__class__, _hashable(item)) for item in value)
    return value


# Profiles read from weapon records (immutable), by the record's members.
_PROFILES: dict[tuple, Any] = {}
_PROFILES_KEPT = 4096


@dataclass(frozen=True)
class WeaponProfile:
    """One weapon profile (11e 02.04): R, A, BS/WS, S, AP, D and its abilities."""

    name: str
    kind: str  # "ranged" or "melee"
    range: float | None
    attacks: DiceExpression
    skill: int | None
    strength: int
    ap: int
    damage: DiceExpression
    abilities: tuple[WeaponAbility, ...] = ()
    # The names of the abilities the profile prints, once rules have granted it others
    # (`with_abilities`); None: every ability in `abilities` is printed.
    printed: tuple[str, ...] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any], prefix: str = "weapon") -> WeaponProfile:
        """The profile a weapon record describes (read once per distinct record: target checks
        and attack steps ask it of the same datasheet profiles again and again)."""
        try:
            # The classes too: 2 and 2.0 and True are equal keys but not the same record.
            key = (cls, *((k, v.__class__, _hashable(v)) for k, v in data.items()))
            found = _PROFILES.get(key)
        except (AttributeError, TypeError):  # not a dict, or a member that is not hashable
            return cls._read(data, prefix)
        if found is None:
            found = cls._read(data, prefix)
            if len(_PROFILES) >= _PROFILES_KEPT:
                _PROFILES.clear()
            _PROFILES[key] = found
        return found

    @classmethod
    def _read(cls, data: dict[str, Any], prefix: str) -> WeaponProfile:
        if not isinstance(data, dict):
            raise AttackInputError(prefix, "must be an object")
        range_key, range_value = _pick(data, "range", default=None)
        if range_value is not None and (
            isinstance(range_value, bool) or not isinstance(range_value, int | float)
        ):
            raise AttackInputError(f"{prefix}.{range_key}", "must be a number of inches or null")
        kind_key, kind = _pick(data, "type", "kind", default=None)
        kind = kind or ("melee" if range_value is None else "ranged")
        if kind not in ("ranged", "melee"):
            raise AttackInputError(f"{prefix}.{kind_key}", "must be ranged or melee")
        parsed: dict[str, Any] = {}
        for names, out in ((("A", "attacks"), "attacks"), (("D", "damage"), "damage")):
            key, value = _pick(data, *names)
            try:
                parsed[out] = parse_dice(value)
            except NotationError as error:
                raise AttackInputError(f"{prefix}.{key}", str(error)) from error
        skill_key, skill = _pick(data, "skill", "BS", "WS", default=None)
        strength_key, strength = _pick(data, "S", "strength")
        ap_key, ap = _pick(data, "AP", "ap", default=0)
        abilities_key, abilities_value = _pick(data, "abilities", default=[])
        try:
            abilities = parse_weapon_abilities(abilities_value)
        except NotationError as error:
            raise AttackInputError(f"{prefix}.{abilities_key}", str(error)) from error
        weapon = cls(
            name=str(data.get("name", "weapon")),
            kind=kind,
            range=float(range_value) if range_value is not None else None,
            attacks=parsed["attacks"],
            skill=_optional_target_number(skill, f"{prefix}.{skill_key}"),
            strength=_whole(strength, f"{prefix}.{strength_key}", 1),
            ap=_whole(ap, f"{prefix}.{ap_key}", None, 0),
            damage=parsed["damage"],
            abilities=abilities,
        )
        if weapon.skill is None and not weapon.has("TORRENT"):
            raise AttackInputError(
                f"{prefix}.{skill_key}", "is N/A (null) but the weapon has no [TORRENT]"
            )
        return weapon

    def has(self, name: str) -> bool:
        return any(ability.name == name for ability in self.abilities)

    def prints(self, name: str) -> bool:
        """The weapon has the ability as printed, not only because a rule granted it."""
        names = self.printed if self.printed is not None else [a.name for a in self.abilities]
        return name in names

    def ability(self, name: str) -> WeaponAbility | None:
        return next((ability for ability in self.abilities if ability.name == name), None)

    def anti(self) -> tuple[WeaponAbility, ...]:
        return tuple(ability for ability in self.abilities if ability.name == "ANTI")

    def with_abilities(self, extra: tuple[WeaponAbility, ...]) -> WeaponProfile:
        """The profile plus abilities granted by rules; a granted copy of an ability is ignored."""
        held = {
            str(ability) if ability.name == "ANTI" else ability.name for ability in self.abilities
        }
        added = tuple(
            ability
            for ability in extra
            if (str(ability) if ability.name == "ANTI" else ability.name) not in held
        )
        printed = (
            self.printed if self.printed is not None else tuple(a.name for a in self.abilities)
        )
        return WeaponProfile(
            **{**self.__dict__, "abilities": self.abilities + added, "printed": printed}
        )


@dataclass(frozen=True)
class TargetModel:
    """One model of the target unit: the characteristics the attack sequence reads."""

    toughness: int
    save: int
    wounds: int
    invulnerable: int | None = None
    feel_no_pain: int | None = None
    character: bool = False
    bodyguard: bool = True
    wounds_left: int | None = None
    name: str = "model"
    keywords: frozenset[str] = frozenset()

    @property
    def remaining(self) -> int:
        return self.wounds if self.wounds_left is None else self.wounds_left


@dataclass(frozen=True)
class TargetUnit:
    """The target unit: its models (in the owner's order), keywords and whether it is attached."""

    models: tuple[TargetModel, ...]
    keywords: frozenset[str] = frozenset()
    attached: bool = False

    @classmethod
    def uniform(
        cls,
        count: int,
        toughness: int,
        save: int,
        wounds: int,
        invulnerable: int | None = None,
        feel_no_pain: int | None = None,
        keywords: frozenset[str] | set[str] | tuple[str, ...] = frozenset(),
    ) -> TargetUnit:
        model = TargetModel(toughness, save, wounds, invulnerable, feel_no_pain)
        return cls((model,) * count, frozenset(keyword.upper() for keyword in keywords))

    def has_keyword(self, keyword: str) -> bool:
        return keyword.upper() in self.keywords


@dataclass(frozen=True)
class Attacker:
    """The models making attacks with one weapon profile (one per model)."""

    weapon: WeaponProfile
    models: int = 1
    keywords: frozenset[str] = frozenset()

    @property
    def monster_or_vehicle(self) -> bool:
        return bool({"MONSTER", "VEHICLE"} & self.keywords)


@dataclass(frozen=True)
class AttackContext:
    """Where and how the attacks are made: the facts the sequence's rules ask about.

    `half_range`, `cover`, `charged` are the preview's three switches. `engaged` means the
    attacking unit is engaged (close-quarters shooting, 11e 10.06); `target_engaged_with_attacker`
    that the target is one of the units it is engaged with. The two choices a player makes inside
    the sequence default to the usual choice: take [LETHAL HITS] automatic wounds, and make the
    visible CHARACTER the current group with [PRECISION].
    """

    edition: Edition
    half_range: bool = False
    cover: bool = False
    charged: bool = False
    remained_stationary: bool = False
    moved_more_than_3: bool = True
    set_up_this_turn: bool = False
    shooting_phase: bool = True
    advanced: bool = False
    engaged: bool = False
    target_engaged_with_attacker: bool = False
    target_engaged_with_attacker_army: bool = False
    # [INDIRECT FIRE] at a target no attacking model sees (11e 10.07; 10e Indirect Fire), and
    # whether a friendly unit sees it (11e: 1-3 fails instead of 1-5 for a stationary unit).
    indirect: bool = False
    indirect_spotted: bool = False
    lethal_hits_auto_wound: bool = True
    precision_on_character: bool = True
    # The CHARACTER model (index in the target's models) the attacker chose for [PRECISION];
    # None: the first CHARACTER model.
    precision_character: int | None = None
    allocation_order: tuple[int, ...] | None = None
    # Per target model (in `TargetUnit.models` order): has the benefit of cover, where the
    # edition gives cover per model (10e) and `cover` (every model) is not already true.
    cover_models: tuple[bool, ...] | None = None
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)
