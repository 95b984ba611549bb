"""Which melee weapons a fighting unit's models use and at whom (11e 04.01-04.02 while
fighting, 24.11 [EXTRA ATTACKS]; 10e Fight, Extra Attacks): one melee weapon of the model's choice
plus every [EXTRA ATTACKS] weapon it has, at enemy units the model is engaged with."""

from __future__ import annotations

from typing import Any

from rules.engine.army.weapons import by_own_profile, model_weapons
from rules.engine.attacks.in_game import AttackGroup
from rules.engine.battlefield.board import (
    EPSILON,
    ModelSet,
    pairwise_distances,
    placements_from_units,
)
from rules.engine.battlefield.placement import engaged_units
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.state import State, alive_models

# Two bases are in base contact when at most 1 mm apart (rulings M-04).
BASE_CONTACT = 0.04


def _extra_attacks(weapon: dict[str, Any]) -> bool:
    return "extra attacks" in " ".join(weapon.get("abilities", [])).lower()


def default_melee_weapons(state: State, unit: Unit, model: Model) -> list:
    """A model fights with one melee weapon of its choice plus every [EXTRA ATTACKS] weapon it has
    (11e 24.11, AMB-40; 10e Extra Attacks); without a choice, its first other melee weapon."""
    carried = model_weapons(state, unit, model, "melee")
    extra = [w for w in carried if _extra_attacks(w)]
    others = [w for w in carried if not _extra_attacks(w)]
    return others[:1] + extra


def melee_options(state: State, unit: Unit) -> list[dict[str, Any]]:
    """For each melee weapon profile the unit's models carry: the models and the enemy units
    the unit is engaged with (its possible targets)."""
    targets = engaged_units(state, unit)
    found: dict[str, dict[str, Any]] = {}
    for model in alive_models(unit):
        for weapon in model_weapons(state, unit, model, "melee"):
            entry = found.setdefault(
                weapon["name"],
                {
                    "weapon": weapon["name"],
                    "models": [],
                    "targets": targets,
                    "extra_attacks": _extra_attacks(weapon),
                },
            )
            entry["models"].append(model["id"])
    return list(found.values())


def melee_weapon_choices(state: State, unit: Unit) -> list[dict[str, Any]]:
    """The models of the unit that have a choice: the melee weapons each chooses one of (it
    fights with its [EXTRA ATTACKS] weapons besides: 11e 24.11, AMB-40; 10e Extra Attacks)."""
    choices = []
    for model in alive_models(unit):
        carried = model_weapons(state, unit, model, "melee")
        names = list(dict.fromkeys(w["name"] for w in carried if not _extra_attacks(w)))
        if len(names) > 1:
            choices.append({"model": model["id"], "weapons": names})
    return choices


def default_melee_assignments(state: State, unit: Unit) -> list[dict[str, Any]]:
    """The fight action's assignments that the engine uses when none are given: each model's
    default weapons (`default_melee_weapons`) at the first enemy unit the unit is engaged with."""
    enemies = engaged_units(state, unit)
    if not enemies:
        return []
    rows: dict[str, list[str]] = {}
    for model in alive_models(unit):
        for weapon in default_melee_weapons(state, unit, model):
            rows.setdefault(weapon["name"], []).append(model["id"])
    return [{"weapon": w, "models": m, "target": enemies[0]} for w, m in rows.items()]


def melee_groups(state: State, unit: Unit, assignments: Any, rule: str) -> list[AttackGroup]:
    """Attack groups from `assignments` ([{"weapon", "models"?, "target"}]: without `models`,
    every model carrying the weapon) or the default (`default_melee_assignments`). A model
    attacks a target only while it is engaged with it (11e 12.05, 04.02), or in 10e (Fight
    phase, `fight_through_base_contact`) while within Engagement Range of it or in base contact
    with a model of its unit that is in base contact with it (R-CB-14), and fights with one melee
    weapon plus every [EXTRA ATTACKS] weapon."""
    reach = state["edition"]["engagement_range_horizontal"]
    enemies = engaged_units(state, unit)
    if not enemies:
        return []
    models = alive_models(unit)
    carried = {
        m["id"]: {w["name"]: w for w in model_weapons(state, unit, m, "melee")} for m in models
    }
    by_name: dict[str, dict[str, Any]] = {}  # a profile of each name, for its abilities
    for weapons in carried.values():
        for name, weapon in weapons.items():
            by_name.setdefault(name, weapon)
    if assignments is None:
        items = [
            (row["weapon"], row["target"], set(row["models"]))
            for row in default_melee_assignments(state, unit)
        ]
    else:
        items = _read_assignments(unit, assignments, carried, by_name, enemies, rule)
    picked: dict[str, list[str]] = {}
    for name, _target, members in items:
        for model_id in members:
            picked.setdefault(model_id, []).append(name)
    for names in picked.values():
        if (
            len(names) != len(set(names))
            or len([n for n in names if not _extra_attacks(by_name[n])]) > 1
        ):
            raise Refusal(
                "extra_attacks_selection",
                rule,
                "A model fights with one melee weapon plus every [EXTRA ATTACKS] weapon.",
            )
    chain = state["edition"]["fight_through_base_contact"]
    groups: list[AttackGroup] = []
    for name, target_id, members in items:
        target_models = alive_models(state["units"][target_id])
        in_contact = [m for m in models if chain and _within(m, target_models, BASE_CONTACT)]
        attacking = [
            m["id"]
            for m in models
            if m["id"] in members
            and (
                _within(m, target_models, reach)
                or _within(m, [f for f in in_contact if f["id"] != m["id"]], BASE_CONTACT)
            )
        ]
        groups.extend(
            AttackGroup(profile, tuple(bearers), target_id)
            for profile, bearers in by_own_profile(
                state, unit, "melee", name, attacking, by_name[name]
            )
        )
    return groups


def _read_assignments(
    unit: Unit,
    assignments: Any,
    carried: dict[str, dict[str, Any]],
    by_name: dict[str, Any],
    enemies: list[str],
    rule: str,
) -> list[tuple[str, str, set[str]]]:
    """The fight action's assignments as (weapon, target, models), each checked: a weapon the
    unit has, an enemy unit it is engaged with, models of the unit that carry that weapon."""
    if not isinstance(assignments, list) or not all(isinstance(a, dict) for a in assignments):
        raise Refusal("invalid_assignments", rule, "Assignments are [{weapon, models?, target}].")
    items = []
    for item in assignments:
        name = item.get("weapon")
        if name not in by_name:
            raise Refusal("unknown_weapon", rule, f"{unit['name']} has no melee weapon {name!r}.")
        if item.get("target") not in enemies:
            raise Refusal(
                "target_not_engaged",
                rule,
                "A unit fights only enemy units it is engaged with.",
                {"allowed": enemies},
            )
        bearers = {m for m, weapons in carried.items() if name in weapons}
        chosen = item.get("models")
        if chosen is None:
            members = bearers
        elif isinstance(chosen, list) and all(isinstance(m, str) for m in chosen):
            members = set(chosen)
            if not members <= bearers:
                raise Refusal(
                    "weapon_not_carried",
                    rule,
                    f"Only the models of {unit['name']} that carry the {name} fight with it.",
                )
        else:
            raise Refusal("invalid_assignments", rule, "An assignment's models are a list.")
        items.append((name, item["target"], members))
    return items


def _within(model: Model, others: list[Model], reach: float) -> bool:
    if not others:
        return False
    mine = placements_from_units({"u": {"player": 0, "models": [model]}})
    theirs = placements_from_units({"t": {"player": 1, "models": others}})
    return bool((pairwise_distances(ModelSet(mine), ModelSet(theirs)) <= reach + EPSILON).any())
