"""Checking an army list against the rules before a game (Muster Armies; 10e Muster Your Army).

`rules.engine.army.muster` refuses the first thing it cannot build; this module names *every*
problem of a list at once, for the army builder, and totals its points. It reads plain rules data
in the bundle format (docs/rules-data-format.md) and imports nothing from Django.

A problem is `{"code", "rule", "message"}` plus `"unit"` (the entry's key) when one entry is at
fault. Codes are stable; docs/protocol.md lists them.

Faction rules about a list reach it through hook points (`core/standing_rules.py`): `ALLIES`
(units of another faction a rule lets in, and the points they cost there) and `LIST_CHECKS`
(checks of the whole list: Shadow Assignment, Assigned Agents).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine.army.attached_units import may_join
from rules.engine.army.wargear import WargearTextError, equip
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import ALLIES, LIST_CHECKS
from rules.engine.core.state import State

MUSTER = "Muster Armies"
LEADER = "19.01"
ENHANCEMENTS = "Enhancements"
WARGEAR = "Wargear Options"  # 11e 02.07; 10e Wargear Options

# Points limits of the battle sizes (CATALOGUE CORE-ARMY-MUSTER: the seeds name the battle sizes
# but print no limits; the published missions use these, see docs/rulings.md "Points limits").
POINTS_LIMITS = {"incursion": 1000, "strike-force": 2000, "onslaught": 3000}


@dataclass
class ArmyCheck:
    """The outcome of checking a list: its points, each entry's points and every problem."""

    points: int = 0
    limit: int | None = None
    unit_points: dict[str, int] = field(default_factory=dict)
    problems: list[dict[str, Any]] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def refuse(self, code: str, rule: str, message: str, unit: str | None = None) -> None:
        problem = {"code": code, "rule": rule, "message": message}
        if unit is not None:
            problem["unit"] = unit
        self.problems.append(problem)

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "points": self.points,
            "limit": self.limit,
            "unit_points": self.unit_points,
            "problems": self.problems,
        }


def _by_slug(bundle: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {record["slug"]: record for record in bundle.get(kind, [])}


def all_keywords(datasheet: dict[str, Any]) -> set[str]:
    return set(datasheet.get("keywords", [])) | set(datasheet.get("faction_keywords", []))


@dataclass(frozen=True)
class ArmyList:
    """What a check of the whole list (`LIST_CHECKS`) reads: the entries, the datasheet of each
    entry whose datasheet exists (by entry key), every datasheet of the rules data (by slug),
    the army's faction record (None when unknown) and the battle size."""

    entries: list[dict[str, Any]]
    sheets: dict[str, dict[str, Any]]
    datasheets: dict[str, dict[str, Any]]
    faction: dict[str, Any] | None
    battle_size: str


def ally_faction_keywords() -> list[str]:
    """The faction keywords whose units a rule may let into an army of another faction
    (`ALLIES`): the army builder reads those factions' records for every list."""
    return sorted(ALLIES.entries)


def allied_as(datasheet: dict[str, Any], army_faction: dict[str, Any] | None) -> str | None:
    """The points label under which a unit of another faction joins an army of `army_faction`
    (a faction record; None when unknown) by a rule (`ALLIES`), or None when it does not."""
    army_keyword = (army_faction or {}).get("faction_keyword")
    for keyword, label in sorted(ALLIES.entries.items()):
        if army_keyword != keyword and keyword in datasheet.get("faction_keywords", []):
            return cast(str, label)
    return None


def unit_points(datasheet: dict[str, Any], models: int, label: str | None = None) -> int | None:
    """The points of a unit of `models` models, or None when that size has no cost.

    A datasheet may price one size twice (SD-22): the entry with `label` (`allied_as`: "Assigned
    Agent") applies to a unit a rule lets into an army of another faction, the other entry to a
    unit of the army's own faction.
    """
    entries = [entry for entry in datasheet.get("points", []) if entry["models"] == models]
    if not entries:
        return None
    allied_labels = set(ALLIES.entries.values())
    if label is None:
        wanted = [e for e in entries if e.get("label") not in allied_labels]
    else:
        wanted = [e for e in entries if e.get("label") == label]
    return (wanted or entries)[0]["points"]


def points_in_play(state: State, unit: Unit) -> int:
    """A mustered unit's points value: each part's datasheet points for the size it was mustered
    at (the allied price of a unit of another faction, `allied_as`: "Assigned Agent", SD-22),
    plus the points of the enhancements its models took (`enhancement_points`, set at muster;
    rulings R-ENG-07)."""
    faction = state["players"][str(unit["player"])].get("faction")
    total = 0
    for part in unit["parts"]:
        sheet = state["datasheets"].get(part["datasheet"], {})
        # the army's faction record is not in the state: a unit of another faction is allied
        label = (
            allied_as(sheet, None)
            if faction is not None and sheet.get("faction") != faction
            else None
        )
        size = part.get("starting_strength") or len(
            [m for m in unit["models"] if m.get("part", 0) == unit["parts"].index(part)]
        )
        total += (unit_points(sheet, size, label) or 0) + part.get("enhancement_points", 0)
    return total


def reserves_points_limit(state: State) -> int | None:
    """The most points of units that may start in strategic reserves: the edition's share of the
    battle size's points limit (11e 20.01: 50%; 10e Strategic Reserves: 25%); None for a battle
    size without a limit."""
    limit = POINTS_LIMITS.get(state["mission"].get("battle_size", ""))
    if limit is None:
        return None
    return int(limit * state["edition"]["reserves_points_fraction"])


def check_army(
    army: dict[str, Any], battle_size: str, bundle: dict[str, Any], *, support_units: bool
) -> ArmyCheck:
    """Every problem of `army` (the army-list format of docs/engine.md) for a game of
    `battle_size`, reading the datasheets, factions, detachments and enhancements of `bundle`."""
    check = ArmyCheck(limit=POINTS_LIMITS.get(battle_size))
    if check.limit is None:
        check.refuse("unknown_battle_size", MUSTER, f"There is no battle size {battle_size!r}.")
    datasheets = _by_slug(bundle, "datasheets")
    faction = _by_slug(bundle, "factions").get(army.get("faction", ""))
    if faction is None:
        check.refuse("unknown_faction", MUSTER, f"There is no faction {army.get('faction')!r}.")
    _check_detachment(check, army, bundle)
    entries = army.get("units") or []
    if not entries:
        check.refuse("empty_army", MUSTER, "An army needs at least one unit.")
    keys = Counter(entry.get("key") for entry in entries)
    for key, count in keys.items():
        if count > 1:
            check.refuse(
                "duplicate_unit_key", MUSTER, "Each unit in an army list needs its own key.", key
            )
    sheets: dict[str, dict[str, Any]] = {}
    for entry in entries:
        sheet = _check_unit(check, entry, datasheets, faction)
        if sheet is not None:
            sheets[entry["key"]] = sheet
    _check_attachments(check, entries, sheets, support_units)
    _check_enhancements(check, army, entries, sheets, bundle)
    _check_warlord(check, entries, sheets)
    army_list = ArmyList(entries, sheets, datasheets, faction, battle_size)
    for rule in LIST_CHECKS:
        rule(check, army_list)
    check.points = sum(check.unit_points.values())
    if check.limit is not None and check.points > check.limit:
        check.refuse(
            "over_points_limit",
            MUSTER,
            f"The army costs {check.points} points; {battle_size.replace('-', ' ').title()} "
            f"allows {check.limit}.",
        )
    return check


def _check_detachment(check: ArmyCheck, army: dict[str, Any], bundle: dict[str, Any]) -> None:
    slug = army.get("detachment") or ""
    if not slug:
        check.refuse("no_detachment", "Select Detachment Rules", "Choose a detachment.")
        return
    detachment = _by_slug(bundle, "detachments").get(slug)
    if detachment is None:
        check.refuse("unknown_detachment", "Select Detachment Rules", f"No detachment {slug!r}.")
    elif detachment.get("faction") != army.get("faction"):
        check.refuse(
            "detachment_mismatch",
            "Select Detachment Rules",
            f"{detachment['name']} is a detachment of another faction.",
        )


def _check_unit(
    check: ArmyCheck,
    entry: dict[str, Any],
    datasheets: dict[str, dict[str, Any]],
    faction: dict[str, Any] | None,
) -> dict[str, Any] | None:
    key = cast(str, entry.get("key"))
    sheet = datasheets.get(entry.get("datasheet", ""))
    if sheet is None:
        check.refuse(
            "unknown_datasheet", MUSTER, f"There is no datasheet {entry.get('datasheet')!r}.", key
        )
        return None
    allied = allied_as(sheet, faction)
    if faction is not None and sheet.get("faction") != faction["slug"] and allied is None:
        check.refuse(
            "faction_mismatch",
            MUSTER,
            f"{sheet['name']} does not have the {faction['faction_keyword']} keyword.",
            key,
        )
    models = entry.get("models")
    points = unit_points(sheet, models, allied) if isinstance(models, int) else None
    if points is None:
        sizes = " or ".join(str(e["models"]) for e in sheet.get("points", []))
        check.refuse(
            "invalid_unit_size",
            MUSTER,
            f"{sheet['name']} is taken with {sizes} models, not {models}.",
            key,
        )
    else:
        check.unit_points[key] = points
        _check_wargear(check, entry, sheet)
    return sheet


def _check_wargear(check: ArmyCheck, entry: dict[str, Any], sheet: dict[str, Any]) -> None:
    """The entry's wargear choices (`{"option", "choice", "models"}`, docs/engine.md): options
    that exist, taken by no more models than the option allows, naming weapons of the datasheet,
    by models that can take them (rules.engine.wargear; R-WG-01..03)."""
    chosen = entry.get("wargear") or []
    if not isinstance(chosen, list):
        check.refuse("invalid_wargear", WARGEAR, "Wargear is a list of choices.", entry["key"])
        return
    try:
        problems = equip(sheet, entry["models"], chosen).problems
    except WargearTextError as error:
        problems = [("wargear_text_unknown", f"{sheet['name']}: {error}")]
    for code, message in problems:
        check.refuse(code, WARGEAR, message, entry.get("key"))


def _check_attachments(
    check: ArmyCheck,
    entries: list[dict[str, Any]],
    sheets: dict[str, dict[str, Any]],
    support_units: bool,
) -> None:
    """Leader and Support units join one Bodyguard unit they may lead, one of each role (19.01)."""
    by_key = {entry.get("key"): entry for entry in entries}
    taken: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for entry in entries:
        target = entry.get("attached_to")
        if not target:
            continue
        key, role = cast(str, entry.get("key")), entry.get("role", "leader")
        sheet, target_sheet = sheets.get(key), sheets.get(target)
        if role not in ("leader", "support"):
            check.refuse("invalid_attachment", LEADER, f"Unknown attachment role {role!r}.", key)
            continue
        if role == "support" and not support_units:
            check.refuse(
                "support_not_in_edition", "Support", "This edition has no Support units.", key
            )
            continue
        if target not in by_key or by_key[target].get("attached_to"):
            check.refuse(
                "invalid_attachment",
                LEADER,
                f"{key} is attached to {target}, which is not a Bodyguard unit in this army.",
                key,
            )
            continue
        if sheet is None or target_sheet is None:
            continue
        if target_sheet["slug"] not in sheet.get("leads", []):
            check.refuse(
                "cannot_lead",
                LEADER,
                f"{sheet['name']} cannot be attached to {target_sheet['name']}.",
                key,
            )
        elif not may_join(sheet, taken.get((target, role), []), role):
            check.refuse(
                "bodyguard_taken",
                LEADER,
                f"{target_sheet['name']} already has a {role} unit attached.",
                key,
            )
        taken.setdefault((target, role), []).append(sheet)


def _check_enhancements(
    check: ArmyCheck,
    army: dict[str, Any],
    entries: list[dict[str, Any]],
    sheets: dict[str, dict[str, Any]],
    bundle: dict[str, Any],
) -> None:
    """Enhancements of the army's detachment, each once, one per CHARACTER, never on an EPIC HERO,
    on a model with one of the eligible keywords and none of the excluded ones."""
    enhancements = _by_slug(bundle, "enhancements")
    seen: Counter[str] = Counter()
    for entry in entries:
        key, sheet = cast(str, entry.get("key")), sheets.get(cast(str, entry.get("key")))
        chosen = entry.get("enhancements") or []
        if len(chosen) > 1:
            check.refuse(
                "one_enhancement_per_model", ENHANCEMENTS, "A model takes one enhancement.", key
            )
        for slug in chosen:
            seen[slug] += 1
            enhancement = enhancements.get(slug)
            if enhancement is None:
                check.refuse("unknown_enhancement", ENHANCEMENTS, f"No enhancement {slug!r}.", key)
                continue
            check.unit_points[key] = check.unit_points.get(key, 0) + enhancement["points"]
            if not (enhancement.get("effect_text") or "").strip():
                # Rulings SD-17: an enhancement whose text the seeds lost is not selectable.
                check.refuse(
                    "enhancement_without_rule",
                    ENHANCEMENTS,
                    f"{enhancement['name']} has no printed rule in the rules data, so it cannot "
                    "be taken (it would do nothing).",
                    key,
                )
                continue
            if enhancement.get("detachment") != army.get("detachment"):
                check.refuse(
                    "enhancement_wrong_detachment",
                    ENHANCEMENTS,
                    f"{enhancement['name']} belongs to another detachment.",
                    key,
                )
            if sheet is None:
                continue
            reason = _enhancement_ineligibility(enhancement, sheet)
            if reason:
                check.refuse(
                    "enhancement_not_eligible",
                    ENHANCEMENTS,
                    f"{sheet['name']} cannot take {enhancement['name']}: {reason}.",
                    key,
                )
    for slug, count in seen.items():
        if count > 1 and slug in enhancements:
            check.refuse(
                "enhancement_twice",
                ENHANCEMENTS,
                f"{enhancements[slug]['name']} is taken {count} times; each enhancement once.",
            )


def _enhancement_ineligibility(enhancement: dict[str, Any], sheet: dict[str, Any]) -> str:
    keywords = all_keywords(sheet)
    if "CHARACTER" not in keywords:
        return "only CHARACTER models take enhancements"
    if "EPIC HERO" in keywords:
        return "EPIC HEROES take no enhancements"
    eligible = enhancement.get("eligible_keywords") or []
    if eligible and not keywords & set(eligible):
        return f"{' or '.join(eligible)} models only"
    excluded = keywords & set(enhancement.get("excluded_keywords") or [])
    if excluded:
        return f"not for {', '.join(sorted(excluded))} models"
    return ""


def _check_warlord(
    check: ArmyCheck, entries: list[dict[str, Any]], sheets: dict[str, dict[str, Any]]
) -> None:
    warlords = [entry for entry in entries if entry.get("warlord")]
    if not warlords:
        check.refuse("no_warlord", MUSTER, "Choose one CHARACTER model as your Warlord.")
    elif len(warlords) > 1:
        check.refuse("several_warlords", MUSTER, "An army has exactly one Warlord.")
    for entry in warlords:
        sheet = sheets.get(cast(str, entry.get("key")))
        if sheet is not None and "CHARACTER" not in all_keywords(sheet):
            check.refuse(
                "warlord_not_character",
                MUSTER,
                f"{sheet['name']} is not a CHARACTER and cannot be the Warlord.",
                entry.get("key"),
            )
