"""A unit's weapons, read from the datasheets frozen into the game (bundle format)."""

from __future__ import annotations

from typing import Any

from rules.engine.state import State


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
