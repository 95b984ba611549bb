"""Mustering armies from saved army lists (Muster Armies; 10e Muster Your Army).

An army list is a plain dict (documented in docs/engine.md):

    {"name": "Castellans", "faction": "grey-knights",
     "units": [{"key": "ss1", "datasheet": "strike-squad", "models": 5,
                "wargear": [{"option": 0, "choice": 2, "models": 1}], "warlord": false,
                "enhancements": []},
               {"key": "inq", "datasheet": "inquisitor", "models": 1, "warlord": true,
                "attached_to": "ss1", "role": "leader"}]}

`attached_to` names the `key` of the Bodyguard unit; `role` is `leader` or `support` (11e Support
units, only where the edition has `support_units`). Either way the attached datasheet must list the
Bodyguard's slug in `leads`, and a Bodyguard takes one unit of each role (11e 19.01; 10e Leader).
Mustering turns every list entry into units of the game state, each model carrying the weapons
and wargear its loadout and the entry's wargear choices give it (`rules.engine.wargear`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import may_join
from rules.engine.army.transport_capacity import read_transport_capacity
from rules.engine.army.wargear import (
    WargearTextError,
    abilities_with_wargear,
    bearing,
    equip,
    item_names,
    parse_loadout,
    wargear_keywords,
)
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Model, Part, Unit
from rules.engine.core.standing_rules import ENHANCEMENT_BEARERS, MUSTER_ENTRIES

ARMY_RULE = "Muster Armies"
WARGEAR_RULE = "Wargear Options"


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


def _model(
    unit_id: str,
    number: int,
    profile: dict[str, Any],
    part: int,
    character: bool,
    carried: dict[str, Any],
) -> Model:
    return {
        "id": f"{unit_id}-m{number}",
        "name": profile["name"],
        "composition_name": carried["composition_name"],
        "weapons": carried["weapons"],
        "wargear_abilities": carried["wargear_abilities"],
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
) -> dict[str, Unit]:
    """The units of one player's army list, keyed by unit id (`p1-u1`, ...)."""
    entries = army.get("units", [])
    keys = [entry["key"] for entry in entries]
    if len(set(keys)) != len(keys):
        raise Refusal(
            "duplicate_unit_key", ARMY_RULE, "Each unit in an army list needs its own key."
        )
    if sum(1 for entry in entries if entry.get("warlord")) != 1:
        raise Refusal("one_warlord", ARMY_RULE, "An army has exactly one Warlord.")
    entries = [_by_rules(entry, datasheets) for entry in entries]
    by_key = {entry["key"]: entry for entry in entries}
    units: dict[str, Unit] = {}
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
        beside = [
            datasheets[part["datasheet"]] for part in bodyguard["parts"] if part["role"] == role
        ]
        _check_attachment(entry, role, datasheet, by_key[target_key], bodyguard, edition, beside)
        part = len(bodyguard["parts"])
        profiles = _profiles_for(datasheet, entry.get("models", 1))
        carried_by_model, unit_wargear = _equipment(entry, datasheet)
        bodyguard["parts"].append(_part(entry, datasheet, role, unit_wargear))
        first = len(bodyguard["models"])
        for profile, carried in zip(profiles, carried_by_model, strict=True):
            number = len(bodyguard["models"]) + 1
            model = _model(
                bodyguard["id"],
                number,
                profile,
                part,
                "CHARACTER" in datasheet["keywords"],
                carried,
            )
            bodyguard["models"].append(model)
        _equip_bearer(bodyguard["models"][first], entry)
        borne = _borne(carried_by_model, unit_wargear)
        bodyguard["keywords"] = sorted(
            set(bodyguard["keywords"]) | set(datasheet["keywords"]) | wargear_keywords(borne)
        )
        bodyguard["abilities"] = sorted(
            set(bodyguard["abilities"]) | abilities_with_wargear(datasheet, borne)
        )
        bodyguard["warlord"] = bodyguard["warlord"] or bool(entry.get("warlord"))
    return units


def price_enhancements(units: dict[str, Unit], records: list[dict[str, Any]]) -> None:
    """Each part that took enhancements keeps their points (`enhancement_points`), read from the
    rules data's enhancement records (`setup["enhancements"]`), so a unit's points in the game
    are what the army list paid for it (11e 20.01 / 10e Strategic Reserves: "points value";
    rulings R-ENG-07). An enhancement the records do not name costs nothing here (the army check
    refuses it before a game starts)."""
    points = {record["slug"]: record.get("points") or 0 for record in records}
    for unit in units.values():
        for part in unit["parts"]:
            worth = sum(points.get(slug, 0) for slug in part["enhancements"])
            if worth:
                part["enhancement_points"] = worth


def _by_rules(entry: dict[str, Any], datasheets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The entry as the rules applied before muster leave it (`MUSTER_ENTRIES`: Shadow
    Assignment fields its replacement); an unknown datasheet is refused first."""
    sheet = _datasheet(datasheets, entry["datasheet"])
    for rule in MUSTER_ENTRIES:
        entry = rule(entry, sheet)
    return entry


def _datasheet(datasheets: dict[str, dict[str, Any]], slug: str) -> dict[str, Any]:
    if slug not in datasheets:
        raise Refusal("unknown_datasheet", ARMY_RULE, f"No datasheet {slug!r} in the rules data.")
    return datasheets[slug]


def _borne(carried_by_model: list[dict[str, Any]], unit_wargear: list[str]) -> set[str]:
    return {name for carried in carried_by_model for name in carried["wargear_abilities"]} | set(
        unit_wargear
    )


def _equipment(
    entry: dict[str, Any], datasheet: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[str]]:
    """What each model of the entry carries (the datasheet's loadout with the list's wargear
    choices applied: rules.engine.wargear, docs/rulings.md R-WG-01..05), and the wargear
    abilities the unit itself is equipped with (Tome-skull). A datasheet whose loadout names none
    of its weapons (hand-made test data) arms every model with every weapon and gives the unit
    its wargear abilities."""
    size = entry.get("models", 1)
    try:
        equipment = equip(datasheet, size, entry.get("wargear") or [])
    except WargearTextError as error:
        raise Refusal(
            "wargear_text_unknown", WARGEAR_RULE, f"{datasheet['name']}: {error}"
        ) from error
    if equipment.problems:
        code, message = equipment.problems[0]
        raise Refusal(code, WARGEAR_RULE, message)
    named = {item for sentence in parse_loadout(datasheet) for item in sentence["items"]}
    items = item_names(datasheet)
    every = [name for name, (kind, _) in items.items() if kind == "weapon"]
    if not named & set(every):
        for carried in equipment.loadouts:
            carried.update(every)
        # ... and the unit has every wargear ability of its datasheet (no bearer is known).
        equipment.unit_items.update(n for n, (kind, _) in items.items() if kind == "ability")
    found = []
    for name, carried in zip(equipment.names, equipment.loadouts, strict=True):
        found.append({"composition_name": name, **bearing(datasheet, carried)})
    return found, bearing(datasheet, equipment.unit_items)["wargear_abilities"]


def _part(
    entry: dict[str, Any], datasheet: dict[str, Any], role: str, unit_wargear: list[str]
) -> Part:
    return {
        "key": entry["key"],
        "datasheet": datasheet["slug"],
        "name": datasheet["name"],
        "role": role,
        "wargear": entry.get("wargear", []),
        "unit_wargear": unit_wargear,
        "enhancements": entry.get("enhancements", []),
        "warlord": bool(entry.get("warlord")),
        "starting_strength": None,
    }


def _new_unit(player: int, unit_id: str, entry: dict, datasheet: dict) -> Unit:
    character = "CHARACTER" in datasheet["keywords"]
    profiles = _profiles_for(datasheet, entry.get("models", 1))
    carried_by_model, unit_wargear = _equipment(entry, datasheet)
    models = [
        _model(unit_id, number, profile, 0, character, carried)
        for number, (profile, carried) in enumerate(
            zip(profiles, carried_by_model, strict=True), start=1
        )
    ]
    _equip_bearer(models[0], entry)
    borne = _borne(carried_by_model, unit_wargear)
    unit: Unit = {
        "id": unit_id,
        "player": player,
        "name": datasheet["name"],
        "datasheet": datasheet["slug"],
        "keywords": sorted(set(datasheet["keywords"]) | wargear_keywords(borne)),
        "abilities": sorted(abilities_with_wargear(datasheet, borne)),
        "parts": [_part(entry, datasheet, "bodyguard", unit_wargear)],
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


def _equip_bearer(bearer: Model, entry: dict[str, Any]) -> None:
    """The entry's enhancements are carried by its first model, the CHARACTER that takes them
    (`list_checks` checks who may), in the game state; what an enhancement changes on its bearer
    is the enhancement's rule (`standing_rules.ENHANCEMENT_BEARERS`)."""
    if entry.get("enhancements"):
        bearer["enhancements"] = list(entry["enhancements"])
        for rule in ENHANCEMENT_BEARERS:
            rule(bearer, entry["enhancements"])


@implements("ability", "leader-10e", "leader-11e", "support")
def _check_attachment(entry, role, datasheet, target_entry, bodyguard, edition, beside) -> None:
    """`beside`: the datasheets of the units of the same role already attached to the Bodyguard
    (one of each role; a second Leader only by "Leader: other Leaders": `may_join`)."""
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
    if not may_join(datasheet, beside, role):
        raise Refusal(
            "invalid_attachment",
            "19.01",
            f"{bodyguard['name']} already has a {role} unit attached.",
        )
