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


_DEFAULT_SUBJECTS = ("every model", "this model", "every other", "each model", "all models")


def _loadout_lines(datasheet: dict[str, Any]) -> list[tuple[str, set[str]]]:
    """(subject, weapon names) per "X is equipped with: a; b." sentence of the loadout, lower
    case."""
    text = str(datasheet.get("loadout") or "").lower().replace("\n", ". ")
    lines = []
    for sentence in text.split(". "):
        if "equipped with" not in sentence or ":" not in sentence:
            continue
        subject, items = sentence.split(":", 1)
        names = {
            item.strip(" .*")
            for item in items.replace(" and ", ";").replace(",", ";").split(";")
            if item.strip(" .*")
        }
        lines.append((subject.split("equipped with")[0].strip(), names))
    return lines


def _carried_names(datasheet: dict[str, Any], model_name: str) -> set[str] | None:
    """The weapon names the loadout gives a model of this profile: sentences naming the profile
    (not "One ..." sentences, which concern a single model), else the default sentences."""
    lines = _loadout_lines(datasheet)
    name = model_name.lower()
    own = [
        names
        for subject, names in lines
        if name.rstrip("s") in subject and not subject.startswith(("one ", "up to"))
    ]
    default = [names for subject, names in lines if subject.startswith(_DEFAULT_SUBJECTS)]
    chosen = own or default
    return set().union(*chosen) if chosen else None


def model_weapons(state: State, unit: dict[str, Any], model: dict[str, Any], kind: str) -> list:
    """The `ranged` or `melee` profiles a model carries: those its datasheet's loadout gives its
    profile (wargear options are not modelled yet, see docs/rulings.md), or every profile of the
    kind when the loadout names none of the datasheet's weapons."""
    datasheet = state["datasheets"][unit["parts"][model["part"]]["datasheet"]]
    profiles = [w for w in datasheet.get("weapons", []) if w["type"] == kind]
    carried = _carried_names(datasheet, model.get("name", ""))
    every = datasheet.get("weapons", [])
    if carried is None or not any(_base_name(w["name"]) in carried for w in every):
        return profiles
    return [w for w in profiles if _base_name(w["name"]) in carried]


def _base_name(weapon_name: str) -> str:
    """A profile's weapon name without its profile suffix ("plasma gun - supercharge")."""
    return weapon_name.lower().split(" - ")[0].split(" – ")[0].strip()
