"""Checking an army list against the rules before a game (Muster Armies; 10e Muster Your Army).

`rules.engine.army.muster` refuses the first thing it cannot build; this module names *every*
problem of a list at once, for the army builder, and totals its points. It reads plain rules data
in the bundle format (docs/rules-data-format.md) and imports nothing from Django.

A problem is `{"code", "rule", "message"}` plus `"unit"` (the entry's key) when one entry is at
fault. Codes are stable; docs/protocol.md lists them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine.army.attached_units import may_join
from rules.engine.army.wargear import WargearTextError, equip
from rules.engine.core.hooks import implements
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State

MUSTER = "Muster Armies"
LEADER = "19.01"
ENHANCEMENTS = "Enhancements"
ASSIGNED_AGENTS = "Assigned Agents"
WARGEAR = "Wargear Options"  # 11e 02.07; 10e Wargear Options

# Points limits of the battle sizes (CATALOGUE CORE-ARMY-MUSTER: the seeds name the battle sizes
# but print no limits; the published missions use these, see docs/rulings.md "Points limits").
POINTS_LIMITS = {"incursion": 1000, "strike-force": 2000, "onslaught": 3000}

AGENTS_KEYWORD = "AGENTS OF THE IMPERIUM"
# Assigned Agents (seed 000 L174-178): the battle-size table is lost in the seed (AMB-21); these are
# the published values (Wahapedia export, Abilities.csv 000008452): RETINUE units, CHARACTER
# units and other ("requisitioned") units; DEDICATED TRANSPORTS are included "as normal".
ASSIGNED_AGENT_LIMITS = {
    "incursion": {"retinue": 1, "character": 1, "requisitioned": 1},
    "strike-force": {"retinue": 2, "character": 2, "requisitioned": 1},
    "onslaught": {"retinue": 3, "character": 3, "requisitioned": 2},
}
ASSIGNED_AGENT_POINTS_LABEL = "Assigned Agent"


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


def is_assigned_agent(datasheet: dict[str, Any], army_faction: dict[str, Any] | None) -> bool:
    """An AGENTS OF THE IMPERIUM unit in an army of another faction (Assigned Agents)."""
    army_keyword = (army_faction or {}).get("faction_keyword")
    return army_keyword != AGENTS_KEYWORD and AGENTS_KEYWORD in datasheet.get(
        "faction_keywords", []
    )


def unit_points(datasheet: dict[str, Any], models: int, assigned_agent: bool) -> int | None:
    """The points of a unit of `models` models, or None when that size has no cost.

    A datasheet may price one size twice (SD-22): the "Assigned Agent" entry applies to an
    Assigned Agent, the other entry to a unit of the army's own faction.
    """
    entries = [entry for entry in datasheet.get("points", []) if entry["models"] == models]
    if not entries:
        return None
    wanted = [
        e for e in entries if (e.get("label") == ASSIGNED_AGENT_POINTS_LABEL) == assigned_agent
    ]
    return (wanted or entries)[0]["points"]


def points_in_play(state: State, unit: Unit) -> int:
    """A mustered unit's points value: each part's datasheet points for the size it was mustered
    at (the "Assigned Agent" price for an Assigned Agent, SD-22), plus the points of the
    enhancements its models took (`enhancement_points`, set at muster; rulings R-ENG-07)."""
    faction = state["players"][str(unit["player"])].get("faction")
    total = 0
    for part in unit["parts"]:
        sheet = state["datasheets"].get(part["datasheet"], {})
        assigned = (
            faction is not None
            and sheet.get("faction") != faction
            and AGENTS_KEYWORD in sheet.get("faction_keywords", [])
        )
        size = part.get("starting_strength") or len(
            [m for m in unit["models"] if m.get("part", 0) == unit["parts"].index(part)]
        )
        total += (unit_points(sheet, size, assigned) or 0) + part.get("enhancement_points", 0)
    return total


def reserves_points_limit(state: State) -> int | None:
    """The most points of units that may start in strategic reserves: the edition's share of the
    battle size's points limit (11e 20.01: 50%; 10e Strategic Reserves: 25%); None for a battle
    size without a limit."""
    limit = POINTS_LIMITS.get(state["mission"].get("battle_size", ""))
    if limit is None:
        return None
    return int(limit * state["edition"]["reserves_points_fraction"])


def agent_category(datasheet: dict[str, Any]) -> str | None:
    keywords = set(datasheet.get("keywords", []))
    if "DEDICATED TRANSPORT" in keywords:
        return None
    if "CHARACTER" in keywords:
        return "character"
    if "RETINUE" in keywords:
        return "retinue"
    return "requisitioned"


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
    _check_shadow_assignment(check, entries, sheets, datasheets, faction)
    _check_assigned_agents(check, entries, sheets, faction, battle_size)
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
    assigned = is_assigned_agent(sheet, faction)
    if faction is not None and sheet.get("faction") != faction["slug"] and not assigned:
        check.refuse(
            "faction_mismatch",
            MUSTER,
            f"{sheet['name']} does not have the {faction['faction_keyword']} keyword.",
            key,
        )
    models = entry.get("models")
    points = unit_points(sheet, models, assigned) if isinstance(models, int) else None
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


@implements("ability", "assigned-agents")
def _check_assigned_agents(
    check: ArmyCheck,
    entries: list[dict[str, Any]],
    sheets: dict[str, dict[str, Any]],
    faction: dict[str, Any] | None,
    battle_size: str,
) -> None:
    """Assigned Agents (seed 000 L174-178): AGENTS OF THE IMPERIUM units in an army of another
    faction whose every model is IMPERIUM, up to a number per battle size and kind of unit."""
    agents = [
        e
        for e in entries
        if e.get("key") in sheets and is_assigned_agent(sheets[e["key"]], faction)
    ]
    if not agents:
        return
    outsiders = sorted(
        {s["name"] for s in sheets.values() if "IMPERIUM" not in s.get("keywords", [])}
    )
    if outsiders:
        check.refuse(
            "assigned_agents_not_imperium",
            ASSIGNED_AGENTS,
            "AGENTS OF THE IMPERIUM join only armies whose every model is IMPERIUM; not: "
            + ", ".join(outsiders)
            + ".",
        )
    limits = ASSIGNED_AGENT_LIMITS.get(battle_size)
    if limits is None:
        return
    counts = Counter(agent_category(sheets[e["key"]]) for e in agents)
    counts["retinue"] -= inquisitorial_henchmen([sheets[e["key"]] for e in agents])
    for category, limit in limits.items():
        if counts[category] > limit:
            check.refuse(
                "too_many_assigned_agents",
                ASSIGNED_AGENTS,
                f"{counts[category]} {category} AGENTS OF THE IMPERIUM units; "
                f"{battle_size.replace('-', ' ').title()} allows {limit}.",
            )


@implements("datasheet-ability", "inquisitorial-agents/inquisitorial-henchmen")
def inquisitorial_henchmen(agents: list[dict[str, Any]]) -> int:
    """INQUISITORIAL HENCHMEN (Inquisitorial Agents): in an army of another faction, one
    INQUISITORIAL AGENTS unit per Inquisitor unit does not count towards the RETINUE units
    Assigned Agents allows. Returns how many RETINUE units are not counted (an Inquisitor unit:
    one with the INQUISITOR keyword, rulings R-IA-12)."""
    inquisitors = sum(1 for sheet in agents if "INQUISITOR" in sheet.get("keywords", []))
    henchmen = sum(1 for sheet in agents if "INQUISITORIAL AGENTS" in sheet.get("keywords", []))
    return min(inquisitors, henchmen)


SHADOW_ASSIGNMENT = "SHADOW ASSIGNMENT"
ASSASSINS = "OFFICIO ASSASSINORUM"


def has_shadow_assignment(sheet: dict[str, Any]) -> bool:
    return any(a["name"].upper() == SHADOW_ASSIGNMENT for a in sheet.get("abilities", []))


@implements("datasheet-ability", "vindicare-assassin/shadow-assignment")
def _check_shadow_assignment(
    check: ArmyCheck,
    entries: list[dict[str, Any]],
    sheets: dict[str, dict[str, Any]],
    datasheets: dict[str, dict[str, Any]],
    faction: dict[str, Any] | None,
) -> None:
    """SHADOW ASSIGNMENT (Vindicare Assassin): never the Warlord; in an AGENTS OF THE IMPERIUM
    army, the entry may name `replaced_by`: another OFFICIO ASSASSINORUM datasheet of no more
    points, fielded instead (the Declare Battle Formations swap, made in the list: rulings
    R-IA-13); and the army has no two of the same OFFICIO ASSASSINORUM datasheet."""
    fielded: Counter[str] = Counter()
    for entry in entries:
        key = cast(str, entry.get("key"))
        sheet = sheets.get(key)
        if sheet is None:
            continue
        if has_shadow_assignment(sheet) and entry.get("warlord"):
            check.refuse(
                "shadow_assignment_warlord",
                SHADOW_ASSIGNMENT,
                f"{sheet['name']} cannot be selected to be your Warlord.",
                key,
            )
        replacement = entry.get("replaced_by")
        if replacement:
            sheet = _replacement(check, entry, sheet, datasheets.get(replacement), faction) or sheet
        if ASSASSINS in sheet.get("keywords", []):
            fielded[sheet["slug"]] += 1
    for slug, count in sorted(fielded.items()):
        if count > 1:
            check.refuse(
                "duplicate_assassin",
                SHADOW_ASSIGNMENT,
                f"The army includes {count} {datasheets[slug]['name']} models; at most 1.",
            )


def _replacement(
    check: ArmyCheck,
    entry: dict[str, Any],
    sheet: dict[str, Any],
    new: dict[str, Any] | None,
    faction: dict[str, Any] | None,
) -> dict[str, Any] | None:
    key = cast(str, entry.get("key"))
    if not has_shadow_assignment(sheet):
        check.refuse("no_shadow_assignment", MUSTER, f"{sheet['name']} cannot be replaced.", key)
        return None
    if (faction or {}).get("faction_keyword") != AGENTS_KEYWORD:
        check.refuse(
            "shadow_assignment_faction",
            SHADOW_ASSIGNMENT,
            "Only an AGENTS OF THE IMPERIUM army replaces its assassin.",
            key,
        )
        return None
    if new is None or ASSASSINS not in new.get("keywords", []):
        check.refuse(
            "shadow_assignment_target",
            SHADOW_ASSIGNMENT,
            f"{entry.get('replaced_by')!r} is not an OFFICIO ASSASSINORUM datasheet.",
            key,
        )
        return None
    points = unit_points(new, 1, False)
    if points is None or points > check.unit_points.get(key, 0):
        check.refuse(
            "shadow_assignment_points",
            SHADOW_ASSIGNMENT,
            f"{new['name']} costs more than the {sheet['name']} it would replace.",
            key,
        )
        return None
    check.unit_points[key] = points
    return new
