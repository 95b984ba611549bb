"""Mustering armies from saved army lists (Muster Armies; 10e Muster Your Army).

An army list is a plain dict (documented in docs/engine.md):

    {"name": "Castellans", "faction": "grey-knights",
     "units": [{"key": "ss1", "datasheet": "strike-squad", "models": 5,
                "wargear": [], "warlord": false, "enhancements": []},
               {"key": "inq", "datasheet": "inquisitor", "models": 1, "warlord": true,
                "attached_to": "ss1", "role": "leader"}]}

`attached_to` names the `key` of the Bodyguard unit; `role` is `leader` or `support` (11e Support
units, only where the edition has `support_units`). Either way the attached datasheet must list the
Bodyguard's slug in `leads`, and a Bodyguard takes one unit of each role (11e 19.01; 10e Leader).
Mustering turns every list entry into units of the game state.
"""

from __future__ import annotations

from typing import Any

from rules.engine.refusals import Refusal
from rules.engine.rule_registry import implements
from rules.engine.transport_capacity import read_transport_capacity

ARMY_RULE = "Muster Armies"


def _profiles_for(datasheet: dict[str, Any], size: int) -> list[dict[str, Any]]:
    """Which model profiles make up a unit of `size` models: each profile's minimum, then fill."""
    profiles = datasheet["models"]
    counts = [p.get("min", 1) for p in profiles]
    remaining = size - sum(counts)
    for index, profile in enumerate(profiles):
        extra = min(remaining, profile.get("max", profile.get("min", 1)) - counts[index])
        counts[index] += max(0, extra)
        remaining -= max(0, extra)
    if remaining != 0 or size < sum(p.get("min", 1) for p in profiles):
        raise Refusal(
            "invalid_unit_size",
            ARMY_RULE,
            f"{datasheet['name']} cannot have {size} models.",
        )
    sizes = [entry["models"] for entry in datasheet.get("points", [])]
    if sizes and size not in sizes:
        raise Refusal(
            "invalid_unit_size",
            ARMY_RULE,
            f"{datasheet['name']} is taken with {' or '.join(map(str, sizes))} models, not {size}.",
        )
    chosen = []
    for profile, count in zip(profiles, counts, strict=True):
        chosen.extend([profile] * count)
    return chosen


def _model(unit_id: str, number: int, profile: dict[str, Any], part: int, character: bool) -> dict:
    return {
        "id": f"{unit_id}-m{number}",
        "name": profile["name"],
        "part": part,
        "M": profile["M"],
        "T": profile["T"],
        "Sv": profile["Sv"],
        "invulnerable_save": profile.get("invulnerable_save"),
        "W": profile["W"],
        "Ld": profile["Ld"],
        "OC": profile["OC"],
        "base": profile["base"],
        "character": character,
        "wounds_left": profile["W"],
        "x": None,
        "y": None,
        "facing": 0.0,
    }


def muster(
    player: int, army: dict[str, Any], datasheets: dict[str, dict[str, Any]], edition: dict
) -> dict[str, dict[str, Any]]:
    """The units of one player's army list, keyed by unit id (`p1-u1`, ...)."""
    entries = army.get("units", [])
    keys = [entry["key"] for entry in entries]
    if len(set(keys)) != len(keys):
        raise Refusal(
            "duplicate_unit_key", ARMY_RULE, "Each unit in an army list needs its own key."
        )
    if sum(1 for entry in entries if entry.get("warlord")) != 1:
        raise Refusal("one_warlord", ARMY_RULE, "An army has exactly one Warlord.")
    by_key = {entry["key"]: entry for entry in entries}
    units: dict[str, dict[str, Any]] = {}
    unit_of_key: dict[str, str] = {}
    bodyguards = [e for e in entries if not e.get("attached_to")]
    attached = [e for e in entries if e.get("attached_to")]
    for number, entry in enumerate(bodyguards, start=1):
        datasheet = _datasheet(datasheets, entry["datasheet"])
        unit_id = f"p{player}-u{number}"
        unit_of_key[entry["key"]] = unit_id
        units[unit_id] = _new_unit(player, unit_id, entry, datasheet)
    for entry in attached:
        target_key = entry["attached_to"]
        if target_key not in unit_of_key:
            raise Refusal(
                "invalid_attachment",
                "Leader",
                f"{entry['key']} is attached to {target_key}, which is not a Bodyguard unit "
                "in this army.",
            )
        role = entry.get("role", "leader")
        datasheet = _datasheet(datasheets, entry["datasheet"])
        bodyguard = units[unit_of_key[target_key]]
        _check_attachment(entry, role, datasheet, by_key[target_key], bodyguard, edition)
        part = len(bodyguard["parts"])
        bodyguard["parts"].append(_part(entry, datasheet, role))
        for profile in _profiles_for(datasheet, entry.get("models", 1)):
            number = len(bodyguard["models"]) + 1
            model = _model(
                bodyguard["id"], number, profile, part, "CHARACTER" in datasheet["keywords"]
            )
            bodyguard["models"].append(model)
        bodyguard["keywords"] = sorted(set(bodyguard["keywords"]) | set(datasheet["keywords"]))
        bodyguard["abilities"] = sorted(set(bodyguard["abilities"]) | _ability_names(datasheet))
        bodyguard["warlord"] = bodyguard["warlord"] or bool(entry.get("warlord"))
    return units


def _datasheet(datasheets: dict[str, dict[str, Any]], slug: str) -> dict[str, Any]:
    if slug not in datasheets:
        raise Refusal("unknown_datasheet", ARMY_RULE, f"No datasheet {slug!r} in the rules data.")
    return datasheets[slug]


def _ability_names(datasheet: dict[str, Any]) -> set[str]:
    return {ability["name"] for ability in datasheet.get("abilities", [])}


def _part(entry: dict[str, Any], datasheet: dict[str, Any], role: str) -> dict[str, Any]:
    return {
        "key": entry["key"],
        "datasheet": datasheet["slug"],
        "name": datasheet["name"],
        "role": role,
        "wargear": entry.get("wargear", []),
        "enhancements": entry.get("enhancements", []),
        "warlord": bool(entry.get("warlord")),
        "starting_strength": None,
    }


def _new_unit(player: int, unit_id: str, entry: dict, datasheet: dict) -> dict[str, Any]:
    character = "CHARACTER" in datasheet["keywords"]
    models = [
        _model(unit_id, number, profile, 0, character)
        for number, profile in enumerate(_profiles_for(datasheet, entry.get("models", 1)), start=1)
    ]
    unit = {
        "id": unit_id,
        "player": player,
        "name": datasheet["name"],
        "datasheet": datasheet["slug"],
        "keywords": sorted(set(datasheet["keywords"])),
        "abilities": sorted(_ability_names(datasheet)),
        "parts": [_part(entry, datasheet, "bodyguard")],
        "models": models,
        "location": "unplaced",
        "warlord": bool(entry.get("warlord")),
        "starting_strength": None,
    }
    # 11e §18.01: the capacity is read once, here; a text that cannot be read stops the muster.
    capacity = read_transport_capacity(datasheet)
    if capacity is not None:
        unit["transport"] = capacity
    return unit


@implements("ability", "leader-10e", "leader-11e", "support")
def _check_attachment(entry, role, datasheet, target_entry, bodyguard, edition) -> None:
    if role == "support" and not edition["support_units"]:
        raise Refusal("support_not_in_edition", "Support", "This edition has no Support units.")
    if role not in ("leader", "support"):
        raise Refusal("invalid_attachment", "Leader", f"Unknown attachment role {role!r}.")
    if target_entry["datasheet"] not in datasheet.get("leads", []):
        raise Refusal(
            "invalid_attachment",
            "19.01",
            f"{datasheet['name']} cannot be attached to {bodyguard['name']}.",
        )
    if any(part["role"] == role for part in bodyguard["parts"]):
        raise Refusal(
            "invalid_attachment",
            "19.01",
            f"{bodyguard['name']} already has a {role} unit attached.",
        )
