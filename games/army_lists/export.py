"""Writing an army in the Warhammer 40,000 app's text format, so that a list built here can be
shared the usual way. `read_app_text` + `match_list` read it back to the same army: Leaders carry
an "Attached to: NAME" line (with "(2)" for the second unit of that name) that the app does not
write but the reader understands.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.army_lists.names import singular_name
from rules.engine import (
    POINTS_LIMITS,
    WargearTextError,
    allied_as,
    equip,
    resolve_item,
    unit_points,
)

BULLET, SUB_BULLET = "•", "◦"
SECTIONS = ("CHARACTERS", "BATTLELINE", "DEDICATED TRANSPORTS", "OTHER DATASHEETS", "ALLIED UNITS")
BATTLE_SIZE_NAMES = {
    "incursion": "Incursion",
    "strike-force": "Strike Force",
    "onslaught": "Onslaught",
}


def _section(sheet: dict[str, Any], faction: dict[str, Any] | None) -> str:
    keywords = set(sheet.get("keywords", []))
    if faction and sheet.get("faction") != faction["slug"] and "CHARACTER" not in keywords:
        return "ALLIED UNITS"
    if "CHARACTER" in keywords:
        return "CHARACTERS"
    if "BATTLELINE" in keywords:
        return "BATTLELINE"
    if "DEDICATED TRANSPORT" in keywords:
        return "DEDICATED TRANSPORTS"
    return "OTHER DATASHEETS"


def _model_label(sheet: dict[str, Any], composition_name: str) -> str:
    for profile in sheet.get("models", []):
        if singular_name(profile["name"]) == singular_name(composition_name):
            return profile["name"]
    return composition_name.title() if composition_name else sheet["name"]


def _printed(sheet: dict[str, Any], item: str) -> str:
    resolved = resolve_item(sheet, item)
    return resolved[1] if resolved else item


def _model_lines(sheet: dict[str, Any], entry: dict[str, Any]) -> list[str]:
    try:
        equipment = equip(sheet, entry["models"], entry.get("wargear") or [])
    except WargearTextError:
        return [f"  {BULLET} {entry['models']}x {sheet['name']}"]
    groups: dict[str, Counter] = {}
    counts: Counter[str] = Counter()
    for name, loadout in zip(equipment.names, equipment.loadouts, strict=True):
        counts[name] += 1
        # "equipped with: nothing" (fortifications) prints no line.
        groups.setdefault(name, Counter()).update(i for i in loadout if i != "nothing")
    if entry["models"] == 1:
        carried = next(iter(groups.values()), Counter())
        return [f"  {BULLET} {n}x {_printed(sheet, item)}" for item, n in sorted(carried.items())]
    lines = []
    for name, carried in groups.items():
        lines.append(f"  {BULLET} {counts[name]}x {_model_label(sheet, name)}")
        lines += [
            f"     {SUB_BULLET} {n}x {_printed(sheet, item)}" for item, n in sorted(carried.items())
        ]
    return lines


def export_app_text(army: dict[str, Any], bundle: dict[str, Any]) -> str:
    """The army (engine army-list format) as the app's text export, from the rules in `bundle`."""
    sheets = {record["slug"]: record for record in bundle.get("datasheets", [])}
    factions = {record["slug"]: record for record in bundle.get("factions", [])}
    detachments = {record["slug"]: record for record in bundle.get("detachments", [])}
    enhancements = {record["slug"]: record for record in bundle.get("enhancements", [])}
    faction = factions.get(army.get("faction", ""))
    entries = [e for e in army.get("units", []) if e.get("datasheet") in sheets]
    names = {e["key"]: sheets[e["datasheet"]]["name"] for e in entries}
    ordinal: dict[str, int] = {}
    seen: Counter[str] = Counter()
    for entry in entries:
        seen[names[entry["key"]]] += 1
        ordinal[entry["key"]] = seen[names[entry["key"]]]
    total = 0
    blocks: dict[str, list[str]] = {section: [] for section in SECTIONS}
    for entry in entries:
        sheet = sheets[entry["datasheet"]]
        points = unit_points(sheet, entry["models"], allied_as(sheet, faction)) or 0
        points += sum(
            enhancements.get(slug, {}).get("points", 0) for slug in entry.get("enhancements", [])
        )
        total += points
        lines = [f"{sheet['name']} ({points} Points)"]
        if entry.get("warlord"):
            lines.append(f"  {BULLET} Warlord")
        lines += _model_lines(sheet, entry)
        for slug in entry.get("enhancements", []):
            if slug in enhancements:
                lines.append(f"  {BULLET} Enhancement: {enhancements[slug]['name']}")
        target = entry.get("attached_to")
        if target in names:
            label = names[target]
            if seen[label] > 1:
                label += f" ({ordinal[target]})"
            lines.append(f"  {BULLET} Attached to: {label}")
        blocks[_section(sheet, faction)].append("\n".join(lines))
    size = army.get("battle_size") or "incursion"
    header = [f"{army.get('name') or 'Army'} ({total:,} Points)", ""]
    if faction:
        header.append(faction["name"])
    if army.get("detachment") in detachments:
        header.append(detachments[army["detachment"]]["name"])
    header.append(f"{BATTLE_SIZE_NAMES.get(size, size)} ({POINTS_LIMITS.get(size, 0):,} Points)")
    body = []
    for section in SECTIONS:
        if blocks[section]:
            body += ["", section, "", "\n\n".join(blocks[section])]
    return "\n".join([*header, *body, "", "Exported with Strategium"]) + "\n"
