"""The weapons each model carries, read from the datasheets frozen into the game (bundle format)
and the model's own `weapons` (rules.engine.wargear, set at muster)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.engine.army.wargear import base_weapon_name
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.state import State


def weapon_of(profile_name: str) -> str:
    """The weapon a profile belongs to: "Plasma gun – supercharge (2)" is "Plasma gun (2)", the
    second plasma gun of its model (R-WG-04, R-WG-06)."""
    copy = profile_name[profile_name.rfind(" (") :] if profile_name.endswith(")") else ""
    return base_weapon_name(profile_name.removesuffix(copy)) + copy


def model_weapons(state: State, unit: Unit, model: Model, kind: str) -> list:
    """The `ranged` or `melee` profiles a model carries: every profile of each weapon its
    `weapons` name (set at muster from its loadout and wargear choices, rules.engine.wargear).
    A model carrying the same weapon twice attacks with each: the second copy's profiles are
    named "<profile> (2)" so that a player can assign it on its own (docs/rulings.md R-WG-04)."""
    datasheet = state["datasheets"][unit["parts"][model["part"]]["datasheet"]]
    profiles = [w for w in datasheet.get("weapons", []) if w["type"] == kind]
    found = []
    for name, count in Counter(model.get("weapons", [])).items():
        for profile in profiles:
            if base_weapon_name(profile["name"]) != name:
                continue
            found.append(profile)
            for copy in range(2, count + 1):
                found.append({**profile, "name": f"{profile['name']} ({copy})"})
    return found


def by_own_profile(
    state: State, unit: Unit, kind: str, name: str, model_ids: list[str], profile: dict
) -> list[tuple[dict[str, Any], list[str]]]:
    """`model_ids` split by the profile each model carries under `name`, in their order: a
    Leader's weapon and its Bodyguard's may share a name and not a profile, and only identical
    attacks are gathered together (11e 04.03 Identical Attacks; 10e Making Attacks, fast dice
    rolling). A model not of `unit` (a Firing Deck passenger) keeps `profile`."""
    own = {
        model["id"]: next(
            (w for w in model_weapons(state, unit, model, kind) if w["name"] == name), profile
        )
        for model in unit["models"]
        if model["id"] in model_ids
    }
    split: list[tuple[dict[str, Any], list[str]]] = []
    for model_id in model_ids:
        carried = own.get(model_id, profile)
        for known, bearers in split:
            if known == carried:
                bearers.append(model_id)
                break
        else:
            split.append((carried, [model_id]))
    return split
