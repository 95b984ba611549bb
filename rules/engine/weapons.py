"""A unit's weapons, read from the datasheets frozen into the game (bundle format)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.engine.state import State
from rules.engine.wargear import base_weapon_name


def weapons(state: State, unit: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The `ranged` or `melee` weapon profiles of every part of the unit."""
    found = []
    for part in unit["parts"]:
        for weapon in state["datasheets"][part["datasheet"]].get("weapons", []):
            if weapon["type"] == kind:
                found.append(weapon)
    return found


def longest_range(state: State, unit: dict[str, Any]) -> float:
    return max(
        (float(w["range"]) for w in weapons(state, unit, "ranged") if w.get("range")), default=0.0
    )


def model_weapons(state: State, unit: dict[str, Any], model: dict[str, Any], kind: str) -> list:
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
