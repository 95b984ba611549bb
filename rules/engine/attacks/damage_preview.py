"""The damage preview: distributions of attacks, hits, wounds, unsaved, damage and models destroyed.

It runs the attack sequence's own step functions (`rules.engine.attack_resolution`) once,
vectorised over N trials with a seeded numpy dice source: no second implementation of the rules,
no Python loop per trial. Same SPEC and seed, same output.

SPEC (a dict, e.g. parsed from JSON):
    {"attacker": {"models": 5, "keywords": [], "weapon": {"range": 24, "attacks": "2", "skill": 3,
                  "strength": 4, "ap": 0, "damage": "1", "abilities": ["rapid fire 2"]}},
     "target": {"models": 10, "toughness": 3, "save": 5, "invulnerable": null, "wounds": 1,
                "feel_no_pain": null, "keywords": ["INFANTRY"]},
     "half_range": true, "cover": false, "charged": false, "edition": "11e",
     "trials": 100000, "seed": 1, "modifiers": []}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from rules.engine.attacks.allocation import UnitState, hazard_step
from rules.engine.attacks.dice import GeneratorDice
from rules.engine.attacks.modifiers import Modifier, ModifierError
from rules.engine.attacks.profiles import (
    AttackContext,
    Attacker,
    AttackInputError,
    TargetUnit,
    WeaponProfile,
)
from rules.engine.attacks.resolution import resolve_weapon_attacks
from rules.engine.core.editions import Edition
from rules.engine.core.refusals import Refusal

MAX_TRIALS = 1_000_000
OUTPUTS = ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed")


def _flag(spec: dict[str, Any], name: str) -> bool:
    value = spec.get(name, False)
    if not isinstance(value, bool):
        raise AttackInputError(name, f"must be true or false, not {value!r}")
    return value


def _number(data: dict[str, Any], name: str, prefix: str, low: int, high: int, optional=False):
    value = data.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AttackInputError(
            f"{prefix}.{name}", f"must be a whole number from {low} to {high}, not {value!r}"
        )
    return value


def _keywords(data: dict[str, Any], prefix: str) -> frozenset[str]:
    keywords = data.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise AttackInputError(f"{prefix}.keywords", "must be a list of keywords")
    return frozenset(keyword.upper() for keyword in keywords)


def parse_spec(
    spec: Any, edition_for: Callable[[str], Edition]
) -> tuple[Attacker, TargetUnit, AttackContext, int, int | None]:
    """Check a SPEC and build the attack inputs; errors name the field (`AttackInputError`)."""
    if not isinstance(spec, dict):
        raise AttackInputError("spec", "must be a JSON object")
    attacker_data = spec.get("attacker")
    if not isinstance(attacker_data, dict):
        raise AttackInputError("attacker", "must be an object with models and weapon")
    target_data = spec.get("target")
    if not isinstance(target_data, dict):
        raise AttackInputError("target", "must be an object")
    weapon = WeaponProfile.from_dict(
        cast(dict[str, Any], attacker_data.get("weapon")), "attacker.weapon"
    )
    attacker = Attacker(
        weapon,
        _number(attacker_data, "models", "attacker", 1, 100),
        _keywords(attacker_data, "attacker"),
    )
    target = TargetUnit.uniform(
        _number(target_data, "models", "target", 1, 100),
        _number(target_data, "toughness", "target", 1, 30),
        _number(target_data, "save", "target", 2, 7),
        _number(target_data, "wounds", "target", 1, 100),
        _number(target_data, "invulnerable", "target", 2, 6, optional=True),
        _number(target_data, "feel_no_pain", "target", 2, 6, optional=True),
        _keywords(target_data, "target"),
    )
    slug = spec.get("edition", "11e")
    if not isinstance(slug, str):
        raise AttackInputError("edition", "must be a rule-set slug such as 11e")
    try:
        edition = edition_for(slug)
    except LookupError as error:
        raise AttackInputError("edition", f"no rule set {slug!r}") from error
    modifiers_data = spec.get("modifiers", [])
    if not isinstance(modifiers_data, list):
        raise AttackInputError("modifiers", "must be a list")
    try:
        modifiers = tuple(Modifier.from_dict(item) for item in modifiers_data)
    except (ModifierError, AttributeError, ValueError) as error:
        raise AttackInputError("modifiers", str(error)) from error
    ctx = AttackContext(
        edition=edition,
        half_range=_flag(spec, "half_range"),
        cover=_flag(spec, "cover"),
        charged=_flag(spec, "charged"),
        remained_stationary=_flag(spec, "stationary"),
        moved_more_than_3=not _flag(spec, "stationary"),
        modifiers=modifiers,
    )
    trials = spec.get("trials", 10_000)
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= MAX_TRIALS:
        raise AttackInputError("trials", f"must be a whole number from 1 to {MAX_TRIALS}")
    seed = spec.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise AttackInputError("seed", "must be a whole number of 0 or more, or null")
    return attacker, target, ctx, trials, seed


def distribution(values: np.ndarray) -> dict[str, Any]:
    """{"mean": float, "distribution": [p0, p1, ...]}: item k is the probability of exactly k."""
    counts = np.bincount(values.astype(np.int64), minlength=1)
    return {
        "mean": float(values.mean()) if values.size else 0.0,
        "distribution": [float(p) for p in counts / max(len(values), 1)],
    }


def preview(spec: Any, edition_for: Callable[[str], Edition]) -> dict[str, Any]:
    """Run the SPEC; refused attacks (e.g. [BLAST] at an engaged unit) raise `Refusal`."""
    attacker, target, ctx, trials, seed = parse_spec(spec, edition_for)
    dice = GeneratorDice(seed)
    result = resolve_weapon_attacks(dice, trials, attacker, target, ctx)
    output: dict[str, Any] = {"trials": trials, "edition": ctx.edition.slug}
    for name in OUTPUTS:
        output[name] = distribution(getattr(result, name))
    output["mortal_wounds"] = distribution(result.mortal_wounds)
    output["hazard_mortal_wounds"] = distribution(
        hazard_mortal_wounds(dice, trials, attacker, ctx.edition)
    )
    return output


def hazard_mortal_wounds(dice, trials: int, attacker: Attacker, edition: Edition) -> np.ndarray:
    """Mortal wounds the attacking unit suffers from [HAZARDOUS] (one roll per weapon fired)."""
    if not attacker.weapon.has("HAZARDOUS"):
        return np.zeros(trials, dtype=np.int64)
    own_unit = UnitState.of(TargetUnit.uniform(attacker.models, 1, 7, 1000), trials)
    outcome = hazard_step(dice, attacker.models, own_unit, attacker.monster_or_vehicle, edition)
    return outcome.mortal_wounds


__all__ = ["AttackInputError", "Refusal", "parse_spec", "preview", "distribution"]
