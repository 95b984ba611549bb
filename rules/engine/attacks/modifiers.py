"""The modifier pipeline: how stratagems, abilities and orders change attacks, as data.

A `Modifier` is `{step, kind, value, condition}`. The attack steps ask this module for the
modifiers that apply to them; they never know which rule granted one. Adding a stratagem that
changes attacks means producing modifiers, never editing `attack_sequence`.

Steps and kinds (the full table, with examples, is in docs/attacks.md):

- `hit`, `wound`, `save` / `add`: a roll modifier, summed and capped (10e Hit Roll, Wound Roll,
  Saving Throw; AMB-06); `reroll` (`ones`, `failed`, `any`); `hit`, `wound` / `critical` (a
  critical on that unmodified result or more, e.g. Drill Commander 5+); `wound` /
  `critical_on_success` (every successful wound roll is a critical wound, Shieldbreaker); `hit` /
  `unmodified_only` (the attack hits only on that unmodified result or more, whatever the BS and
  the modifiers: snap shooting 11e 15.09, 10e Fire Overwatch); `hit` / `no_reroll` (hit rolls
  cannot be re-rolled, 11e 15.09).
- `skill` / `improve`, `worsen`: the BS/WS characteristic (not capped; clamped to 2+..6+, AMB-06).
- `ap` / `improve`, `worsen`: AP moves n steps more or less negative, never above 0.
- `attacks`, `strength`, `damage`, `toughness` / `add`; `damage` / `set` ("change D to 3").
- `save` / `improve`: the Sv characteristic (Take Cover!), a characteristic so not capped.
- `invulnerable`, `feel_no_pain` / `set`: the models have it (the better one is used);
  `feel_no_pain` / `set_against_mortal_wounds`: only against mortal wounds (Truesilver Aegis).
- `cover` / `grant`, `deny`; `ability` / `grant` with the ability's text (`"sustained hits 1"`).

`condition` is a dict; every key must hold: `target_keyword`, `target_lacks_keyword`,
`weapon_type` (`ranged`/`melee`), `charged`, `half_range`, `target_models_at_least`,
`weapon_ability`, `printed_weapon_ability` (the weapon prints it: granted copies do not count),
`weapon_name` (the profile's name starts with it). An unknown key is refused
when the modifier is built.
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.engine.core.notation import WeaponAbility, parse_weapon_ability


# What a condition reads of the profiles (`profiles.WeaponProfile`, `TargetUnit`, `AttackContext`
# match these): this module stays below the profiles, which carry its modifiers.
class WeaponProfile(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    def has(self, name: str) -> bool: ...
    def prints(self, name: str) -> bool: ...


class TargetUnit(Protocol):
    @property
    def models(self) -> Sized: ...
    def has_keyword(self, keyword: str) -> bool: ...


class AttackContext(Protocol):
    @property
    def charged(self) -> bool: ...
    @property
    def half_range(self) -> bool: ...


STEP_KINDS = {
    "hit": {"add", "reroll", "critical", "unmodified_only", "no_reroll"},
    "wound": {"add", "reroll", "critical", "critical_on_success"},
    "save": {"add", "reroll", "improve"},
    "skill": {"improve", "worsen"},
    "ap": {"improve", "worsen"},
    "attacks": {"add"},
    "strength": {"add"},
    "toughness": {"add"},
    "damage": {"add", "set"},
    "invulnerable": {"set"},
    "feel_no_pain": {"set", "set_against_mortal_wounds"},
    "cover": {"grant", "deny"},
    "ability": {"grant"},
}
REROLL_VALUES = ("ones", "failed", "any")
CONDITION_KEYS = frozenset(
    {
        "target_keyword",
        "target_lacks_keyword",
        "weapon_type",
        "charged",
        "half_range",
        "target_models_at_least",
        "weapon_ability",
        "printed_weapon_ability",
        "weapon_name",
    }
)


class ModifierError(ValueError):
    """A modifier that is not one of the documented shapes."""


@dataclass(frozen=True)
class Modifier:
    step: str
    kind: str
    value: Any = None
    condition: tuple[tuple[str, Any], ...] = field(default_factory=tuple)
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS.get(self.step, ()):
            raise ModifierError(
                f"modifier {self.step}/{self.kind} is not known; "
                f"steps and kinds: {sorted((s, sorted(k)) for s, k in STEP_KINDS.items())}"
            )
        if self.kind == "reroll" and self.value not in REROLL_VALUES:
            raise ModifierError(f"re-roll value must be one of {REROLL_VALUES}, not {self.value!r}")
        if self.kind == "grant" and self.step == "ability":
            parse_weapon_ability(self.value)
        unknown = {key for key, _ in self.condition} - CONDITION_KEYS
        if unknown:
            raise ModifierError(f"unknown condition keys: {', '.join(sorted(unknown))}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Modifier:
        condition = data.get("condition") or {}
        return cls(
            step=data.get("step", ""),
            kind=data.get("kind", ""),
            value=data.get("value"),
            condition=tuple(sorted(condition.items())),
            source=str(data.get("source", "")),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "kind": self.kind,
            "value": self.value,
            "condition": dict(self.condition),
            "source": self.source,
        }


def _holds(
    key: str, expected: Any, weapon: WeaponProfile, target: TargetUnit, ctx: AttackContext
) -> bool:
    if key == "target_keyword":
        return target.has_keyword(expected)
    if key == "target_lacks_keyword":
        return not target.has_keyword(expected)
    if key == "weapon_type":
        return weapon.kind == expected
    if key == "charged":
        return ctx.charged == bool(expected)
    if key == "half_range":
        return ctx.half_range == bool(expected)
    if key == "target_models_at_least":
        return len(target.models) >= int(expected)
    if key == "weapon_ability":
        return weapon.has(str(expected).upper())
    if key == "printed_weapon_ability":
        return weapon.prints(str(expected).upper())
    if key == "weapon_name":
        return weapon.name.lower().startswith(str(expected).lower())
    raise ModifierError(f"unknown condition key {key}")


def applicable(
    modifiers: tuple[Modifier, ...],
    step: str,
    weapon: WeaponProfile,
    target: TargetUnit,
    ctx: AttackContext,
    kind: str | None = None,
) -> list[Modifier]:
    """The modifiers of `step` (and `kind`) whose condition holds for this attack."""
    return [
        modifier
        for modifier in modifiers
        if modifier.step == step
        and (kind is None or modifier.kind == kind)
        and all(_holds(key, value, weapon, target, ctx) for key, value in modifier.condition)
    ]


def total(modifiers: list[Modifier]) -> int:
    return sum(int(modifier.value) for modifier in modifiers)


def capped(value: int, cap: int) -> int:
    """A roll modifier never beyond +-cap in total (10e Hit Roll / Wound Roll; AMB-06)."""
    return max(-cap, min(cap, value))


def granted_abilities(
    modifiers: tuple[Modifier, ...], weapon: WeaponProfile, target: TargetUnit, ctx: AttackContext
) -> tuple[WeaponAbility, ...]:
    return tuple(
        parse_weapon_ability(modifier.value)
        for modifier in applicable(modifiers, "ability", weapon, target, ctx, "grant")
    )
