"""Which melee weapons a fighting unit's models use and at whom (11e 04.01-04.02 while
fighting, 24.11 [EXTRA ATTACKS]; 10e Fight, Extra Attacks): one melee weapon of the model's choice
plus every [EXTRA ATTACKS] weapon it has, at enemy units the model is engaged with."""

from __future__ import annotations

from typing import Any

from rules.engine.army.weapons import model_weapons
from rules.engine.attacks.in_game import AttackGroup
from rules.engine.battlefield.board import (
    EPSILON,
    ModelSet,
    pairwise_distances,
    placements_from_units,
)
from rules.engine.battlefield.placement import engaged_units
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import State, alive_models


def _extra_attacks(weapon: dict[str, Any]) -> bool:
    return "extra attacks" in " ".join(weapon.get("abilities", [])).lower()


def default_melee_weapons(state: State, unit: dict[str, Any], model: dict[str, Any]) -> list:
    """A model fights with one melee weapon of its choice plus every [EXTRA ATTACKS] weapon it has
    (11e 24.11, AMB-40; 10e Extra Attacks); without a choice, its first other melee weapon."""
    carried = model_weapons(state, unit, model, "melee")
    extra = [w for w in carried if _extra_attacks(w)]
    others = [w for w in carried if not _extra_attacks(w)]
    return others[:1] + extra


def melee_options(state: State, unit: dict[str, Any]) -> list[dict[str, Any]]:
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


def melee_groups(
    state: State, unit: dict[str, Any], assignments: Any, rule: str
) -> list[AttackGroup]:
    """Attack groups from `assignments` ([{"weapon", "target"}]) or the default: each model's
    default weapons at the first unit it is engaged with. A model attacks a target only while
    it is engaged with it (11e 12.05, 04; 10e Fight: models within Engagement Range)."""
    reach = state["edition"]["engagement_range_horizontal"]
    enemies = engaged_units(state, unit)
    if not enemies:
        return []
    by_name: dict[str, dict[str, Any]] = {}
    for model in alive_models(unit):
        for weapon in model_weapons(state, unit, model, "melee"):
            by_name.setdefault(weapon["name"], weapon)
    if assignments is None:
        chosen: dict[str, Any] = {}
        for model in alive_models(unit):
            for weapon in default_melee_weapons(state, unit, model):
                chosen.setdefault(weapon["name"], enemies[0])
    else:
        if not isinstance(assignments, list) or not all(isinstance(a, dict) for a in assignments):
            raise Refusal("invalid_assignments", rule, "Assignments are [{weapon, target}].")
        chosen = {}
        for item in assignments:
            if item.get("weapon") not in by_name:
                raise Refusal(
                    "unknown_weapon",
                    rule,
                    f"{unit['name']} has no melee weapon {item.get('weapon')!r}.",
                )
            if item.get("target") not in enemies:
                raise Refusal(
                    "target_not_engaged",
                    rule,
                    "A unit fights only enemy units it is engaged with.",
                    {"allowed": enemies},
                )
            chosen[item["weapon"]] = item["target"]
    groups = []
    for name, target_id in chosen.items():
        target_models = alive_models(state["units"][target_id])
        members = []
        for model in alive_models(unit):
            carried = {w["name"] for w in default_melee_weapons(state, unit, model)}
            if assignments is not None:
                carried = {w["name"] for w in model_weapons(state, unit, model, "melee")}
                picked = [n for n in chosen if n in carried and not _extra_attacks(by_name[n])]
                if len(picked) > 1:
                    raise Refusal(
                        "extra_attacks_selection",
                        rule,
                        "A model fights with one melee weapon plus every [EXTRA ATTACKS] weapon.",
                    )
            if name in carried and _within(model, target_models, reach):
                members.append(model["id"])
        if members:
            groups.append(AttackGroup(by_name[name], tuple(members), target_id))
    return groups


def _within(model: dict[str, Any], others: list[dict[str, Any]], reach: float) -> bool:
    mine = placements_from_units({"u": {"player": 0, "models": [model]}})
    theirs = placements_from_units({"t": {"player": 1, "models": others}})
    return bool((pairwise_distances(ModelSet(mine), ModelSet(theirs)) <= reach + EPSILON).any())
