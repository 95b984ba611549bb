"""One datasheet of the export (rows of Datasheets*.csv) turned into a `datasheets` record."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.engine import KNOWN_ABILITIES
from rules.wahapedia import stats
from rules.wahapedia.composition import (
    composition_alternatives,
    composition_lines,
    fallback_counts,
    model_counts,
    points_models,
)
from rules.wahapedia.export import Export, Row, SkippedRow
from rules.wahapedia.text import clean_text, upper_keyword

# Ability rows the export files under other headings (the Russian ones are its layout notes for
# the right and left columns of the printed card); all are rules of the datasheet itself.
_DATASHEET_ABILITY_TYPES = {
    "Datasheet",
    "Special (правая колонка)",
    "Fortification (левая колонка)",
    "Primarch",
    "Без заголовка",
}


class DatasheetSkipped(Exception):
    """The datasheet cannot be used at all; carries the report line saying why."""

    def __init__(self, skipped: SkippedRow) -> None:
        super().__init__(skipped.reason)
        self.skipped = skipped


@dataclass
class DatasheetRows:
    """Every row of the export that belongs to one datasheet."""

    sheet: Row
    models: list[Row] = field(default_factory=list)
    wargear: list[Row] = field(default_factory=list)
    abilities: list[Row] = field(default_factory=list)
    keywords: list[Row] = field(default_factory=list)
    composition: list[Row] = field(default_factory=list)
    options: list[Row] = field(default_factory=list)
    costs: list[Row] = field(default_factory=list)


def gather(export: Export, sheets: list[Row]) -> list[DatasheetRows]:
    files = {
        "models": export.by_datasheet("Datasheets_models.csv"),
        "wargear": export.by_datasheet("Datasheets_wargear.csv"),
        "abilities": export.by_datasheet("Datasheets_abilities.csv"),
        "keywords": export.by_datasheet("Datasheets_keywords.csv"),
        "composition": export.by_datasheet("Datasheets_unit_composition.csv"),
        "options": export.by_datasheet("Datasheets_options.csv"),
        "costs": export.by_datasheet("Datasheets_models_cost.csv"),
    }
    return [
        DatasheetRows(sheet, **{name: rows.get(sheet["id"], []) for name, rows in files.items()})
        for sheet in sheets
    ]


def convert_datasheet(
    rows: DatasheetRows,
    *,
    slug: str,
    faction: dict,
    source: str,
    core_abilities: dict[str, str],
    faction_abilities: dict[str, str],
    report: list[SkippedRow],
) -> dict:
    """The record, with `leads` left empty for the caller; raises `DatasheetSkipped`."""
    sheet = rows.sheet
    if sheet["virtual"].strip().lower() == "true":
        raise DatasheetSkipped(sheet.skip("a virtual datasheet (not a unit that can be fielded)"))
    faction_keywords, keywords = _keywords(rows.keywords)
    lines = composition_lines([row["description"] for row in rows.composition])
    record = {
        "slug": slug,
        "name": clean_text(sheet["name"]),
        "faction": faction["slug"],
        "role": clean_text(sheet["role"]),
        "source": source,
        "keywords": keywords,
        "faction_keywords": faction_keywords,
        "models": _models(rows, lines, report),
        "weapons": _weapons(rows.wargear, report),
        "abilities": _abilities(rows, core_abilities, faction_abilities, report),
        "composition": lines,
        "loadout": clean_text(sheet["loadout"]),
        "wargear_options": _options(rows.options),
        "points": _points(rows, faction["faction_keyword"], report),
        "leads": [],
    }
    return record


def _keywords(rows: list[Row]) -> tuple[list[str], list[str]]:
    # A keyword printed for some models only (`Character` for the Cadian Commander) is still on
    # the unit's keyword line; the format keeps keywords per unit.
    faction_keywords: list[str] = []
    keywords: list[str] = []
    for row in rows:
        keyword = upper_keyword(row["keyword"])
        target = faction_keywords if row["is_faction_keyword"].strip() == "true" else keywords
        if keyword and keyword not in target:
            target.append(keyword)
    return faction_keywords, keywords


def _models(rows: DatasheetRows, lines: list[str], report: list[SkippedRow]) -> list[dict]:
    if not rows.models:
        raise DatasheetSkipped(rows.sheet.skip("no model profile in Datasheets_models.csv"))
    alternatives = composition_alternatives(lines)
    sheet_name = clean_text(rows.sheet["name"])
    # A blank model name is the datasheet's own (single-model datasheets print none).
    names = [clean_text(row["name"]) or sheet_name for row in rows.models]
    counts = model_counts(names, alternatives) if alternatives else None
    if counts is None:
        sizes = [parsed[0] for row in rows.costs if (parsed := points_models(row["description"]))]
        counts = fallback_counts(names, sizes)
        if rows.composition and len(names) > 1:
            report.append(
                rows.composition[0].skip(
                    "unit composition not readable as model counts per profile; counts taken "
                    f"from the unit sizes: {counts}"
                )
            )
    return [_model(row, name, counts, report) for row, name in zip(rows.models, names, strict=True)]


def _model(
    row: Row, name: str, counts: dict[str, tuple[int, int]], report: list[SkippedRow]
) -> dict:
    movement = row["M"]
    if aircraft := _AIRCRAFT_MOVE.fullmatch(movement.strip()):
        # An aircraft's `20+"`: it moves 20" and must move at least that far; the minimum move
        # is not enforced by the engine (no aircraft rules), so it is reported, not lost.
        movement = aircraft[1]
        report.append(
            row.skip(
                f'model {name!r}: M {row["M"].strip()!r} read as {aircraft[1]}" '
                "(the minimum move of an aircraft is not enforced)"
            )
        )
    try:
        model = {
            "name": name,
            "M": stats.inches(movement, "M"),
            "T": stats.number(row["T"], "T"),
            "Sv": stats.roll_target(row["Sv"], "Sv"),
            "invulnerable_save": None,
            "W": stats.number(row["W"], "W"),
            "Ld": stats.roll_target(row["Ld"], "Ld"),
            "OC": stats.number(row["OC"], "OC"),
        }
    except stats.Unreadable as error:
        raise DatasheetSkipped(row.skip(f"model {name!r}: {error}")) from error
    model["invulnerable_save"] = invulnerable_save(row, report)
    try:
        model["base"] = stats.base(row["base_size"])
    except stats.Unreadable as error:
        model["base"] = None
        report.append(row.skip(f"model {name!r}: {error}; base left empty"))
    if row["base_size_descr"].strip():
        report.append(
            row.skip(
                f"model {name!r}: base note {clean_text(row['base_size_descr'])!r} not imported "
                "(the format has one base per profile)"
            )
        )
    model["min"], model["max"] = counts.get(name, (0, 1))
    return model


def invulnerable_save(row: Row, report: list[SkippedRow]) -> int | None:
    printed = row["inv_sv"].strip()
    note = clean_text(row["inv_sv_descr"])
    if printed in {"", "-"}:
        return None
    restricted = "*" in printed or "only" in note.lower() or note.startswith("*")
    if restricted or not printed.isdigit():
        report.append(
            row.skip(
                f"invulnerable save {printed!r} applies only in some cases ({note!r}); "
                "left out (the format has no conditional invulnerable save)"
            )
        )
        return None
    if note:
        report.append(row.skip(f"invulnerable save note {note!r} not imported"))
    return int(printed)


_AIRCRAFT_MOVE = re.compile(r'(\d+)\s*\+\s*"?')
_BRACKET = re.compile(r"\[([^\]]+)\]")


def _weapons(rows: list[Row], report: list[SkippedRow]) -> list[dict]:
    weapons = []
    for row in rows:
        name = clean_text(row["name"])
        bracketed = _BRACKET.findall(name)
        name = _BRACKET.sub("", name).strip()
        melee = row["type"].strip().lower() == "melee"
        printed_abilities = ", ".join([clean_text(row["description"]), *bracketed]).strip(", ")
        try:
            weapon = {
                "name": name,
                "type": "melee" if melee else "ranged",
                "range": stats.weapon_range(row["range"], melee),
                "A": stats.dice_text(row["A"], "A"),
                "skill": stats.skill(row["BS_WS"]),
                "S": stats.number(row["S"], "S"),
                "AP": stats.armour_penetration(row["AP"]),
                "D": stats.dice_text(row["D"], "D"),
                "abilities": stats.weapon_abilities(printed_abilities),
            }
        except stats.Unreadable as error:
            report.append(row.skip(f"weapon {name!r} left out: {error}"))
            continue
        if row["dice"].strip():
            report.append(
                row.skip(f"weapon {name!r}: dice roll column {row['dice'].strip()!r} not imported")
            )
        weapons.append(weapon)
    return weapons


def _abilities(
    rows: DatasheetRows,
    core_abilities: dict[str, str],
    faction_abilities: dict[str, str],
    report: list[SkippedRow],
) -> list[dict]:
    abilities: list[dict] = []
    for row in rows.abilities:
        kind = row["type"].strip()
        name = clean_text(row["name"])
        if kind == "Core":
            core_name = core_abilities.get(row["ability_id"].strip())
            if core_name is None:
                report.append(row.skip(f"core ability {row['ability_id']!r} not in Abilities.csv"))
                continue
            parameter = " ".join(row["parameter"].split()) or None
            abilities.append({"name": core_name, "kind": "core", "parameter": parameter})
        elif kind == "Faction":
            faction_name = faction_abilities.get(row["ability_id"].strip())
            if faction_name is None:
                report.append(
                    row.skip(f"faction ability {row['ability_id']!r} not in Abilities.csv")
                )
                continue
            if name and name != faction_name:
                report.append(row.skip(f"faction ability printed as {name!r}: its note is lost"))
            abilities.append({"name": faction_name, "kind": "faction"})
        elif kind == "Wargear profile" and name.upper() in KNOWN_ABILITIES:
            continue  # the reminder text of a weapon ability the weapon already carries
        elif kind in _DATASHEET_ABILITY_TYPES or kind in {"Wargear", "Wargear profile"}:
            text = clean_text(row["description"])
            if not name or not text:
                report.append(row.skip(f"{kind} ability without a name or text"))
                continue
            ability_kind = "datasheet" if kind in _DATASHEET_ABILITY_TYPES else "wargear"
            abilities.append({"name": name, "kind": ability_kind, "text": text})
        else:
            report.append(row.skip(f"ability of unknown type {kind!r}"))
    sheet = rows.sheet
    if clean_text(sheet["transport"]):
        abilities.append(
            {"name": "Transport", "kind": "datasheet", "text": clean_text(sheet["transport"])}
        )
    if clean_text(sheet["damaged_description"]):
        damaged = clean_text(sheet["damaged_w"])
        abilities.append(
            {
                "name": f"Damaged: {damaged} wounds remaining" if damaged else "Damaged",
                "kind": "datasheet",
                "text": clean_text(sheet["damaged_description"]),
            }
        )
    return abilities


def _options(rows: list[Row]) -> list[str]:
    options = []
    for row in rows:
        text = clean_text(row["description"])
        if text:
            options.append(text)
    return options


def _points(rows: DatasheetRows, faction_keyword: str, report: list[SkippedRow]) -> list[dict]:
    points = []
    for row in rows.costs:
        parsed = points_models(row["description"])
        cost = row["cost"].strip()
        if parsed is None or not cost.isdigit():
            report.append(
                row.skip(f"points line {clean_text(row['description'])!r} = {cost!r} not readable")
            )
            continue
        models, qualifier = parsed
        if qualifier and faction_keyword not in upper_keyword(qualifier):
            report.append(
                row.skip(
                    f"points for {models} models when taken as {clean_text(qualifier)!r} left out; "
                    "the format keeps the price in the faction's own army"
                )
            )
            continue
        points.append({"models": models, "points": int(cost)})
    return points
