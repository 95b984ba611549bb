"""The rules of an army that the engine does not enforce: shown in the builder and listed once
at the start of a game as "not enforced: apply by agreement", so that no rule is ignored silently.

The engine declares what it implements (`rules.engine.IMPLEMENTED`, filled as its rule packages
are loaded); everything an army carries that is not declared there is listed: its
faction and core abilities, the abilities printed on its datasheets, its detachment rule and its
enhancements. Entries that print no effect at all (`rules.engine.NO_PRINTED_EFFECT`) are left out.
A detachment whose rule the seeds do not print is listed with that label instead (rulings SD-16).
"""

from __future__ import annotations

from typing import Any

# Importing the engine's public face loads every rule package, so the registry is complete.
from rules.engine import IMPLEMENTED, NO_PRINTED_EFFECT, datasheet_ability_key
from rules.serializers import NO_PRINTED_DETACHMENT_RULE

NOT_ENFORCED = "not enforced: apply by agreement"


def _known(key: tuple[str, str]) -> bool:
    return key in IMPLEMENTED or key in NO_PRINTED_EFFECT


def not_enforced(army: dict[str, Any], bundle: dict[str, Any]) -> list[dict[str, Any]]:
    """Each rule of `army` (engine army-list format) the engine does not enforce, once:
    `{"kind", "name", "units", "note"}` with the names of the datasheets that carry it."""
    sheets = {record["slug"]: record for record in bundle.get("datasheets", [])}
    abilities: dict[str, list[dict]] = {}
    for record in bundle.get("abilities", []):
        abilities.setdefault(record["name"].lower(), []).append(record)
    found: dict[tuple[str, str], dict[str, Any]] = {}

    def add(key: tuple[str, str], kind: str, name: str, unit: str | None = None) -> None:
        if _known(key):
            return
        entry = found.setdefault(key, {"kind": kind, "name": name, "units": [], "note": ""})
        entry["note"] = NOT_ENFORCED
        if unit and unit not in entry["units"]:
            entry["units"].append(unit)

    for unit in army.get("units") or []:
        sheet = sheets.get(unit.get("datasheet"))
        if sheet is None:
            continue
        for ability in sheet.get("abilities", []):
            if ability.get("kind") in ("datasheet", "wargear"):
                key = ("datasheet-ability", datasheet_ability_key(sheet["slug"], ability["name"]))
                add(key, "datasheet ability", ability["name"], sheet["name"])
                continue
            records = abilities.get(ability["name"].lower(), [])
            if records and all(not _known(("ability", r["slug"])) for r in records):
                add(
                    ("ability", records[0]["slug"]),
                    f"{ability['kind']} ability",
                    ability["name"],
                    sheet["name"],
                )
        for slug in unit.get("enhancements") or []:
            record = next((e for e in bundle.get("enhancements", []) if e["slug"] == slug), None)
            if record:
                add(("enhancement", slug), "enhancement", record["name"], sheet["name"])
    detachment = next(
        (d for d in bundle.get("detachments", []) if d["slug"] == army.get("detachment")), None
    )
    if detachment and detachment.get("rules"):
        names = ", ".join(rule["name"] for rule in detachment["rules"])
        add(("detachment-rule", detachment["slug"]), "detachment rule", names or detachment["name"])
    elif detachment:  # rulings SD-16: labelled, never silently inert
        found[("detachment-rule", detachment["slug"])] = {
            "kind": "detachment rule",
            "name": detachment["name"],
            "units": [],
            "note": NO_PRINTED_DETACHMENT_RULE,
        }
    return sorted(found.values(), key=lambda entry: (entry["kind"], entry["name"]))
