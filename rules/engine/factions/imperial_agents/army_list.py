"""Imperial Agents rules about an army list: Assigned Agents (AGENTS OF THE IMPERIUM units in an
army of another faction, priced at their "Assigned Agent" points and limited per battle size),
Inquisitorial Henchmen (which those limits do not count) and Shadow Assignment (the Vindicare
Assassin: never the Warlord, and its replacement by another OFFICIO ASSASSINORUM datasheet).

They reach the list check through `ALLIES` and `LIST_CHECKS`, and the muster through
`MUSTER_ENTRIES` (`core/standing_rules.py`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

from rules.engine.army.list_checks import MUSTER, ArmyCheck, ArmyList, allied_as, unit_points
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.standing_rules import ALLIES, LIST_CHECKS, MUSTER_ENTRIES

ASSIGNED_AGENTS = "Assigned Agents"
AGENTS_KEYWORD = "AGENTS OF THE IMPERIUM"
# The points entry an Assigned Agent costs (SD-22: a datasheet may price one size twice).
ASSIGNED_AGENT_POINTS_LABEL = "Assigned Agent"
# Assigned Agents (seed 000 L174-178): the battle-size table is lost in the seed (AMB-21); these are
# the published values (Wahapedia export, Abilities.csv 000008452): RETINUE units, CHARACTER
# units and other ("requisitioned") units; DEDICATED TRANSPORTS are included "as normal".
ASSIGNED_AGENT_LIMITS = {
    "incursion": {"retinue": 1, "character": 1, "requisitioned": 1},
    "strike-force": {"retinue": 2, "character": 2, "requisitioned": 1},
    "onslaught": {"retinue": 3, "character": 3, "requisitioned": 2},
}

ALLIES.add(AGENTS_KEYWORD, ASSIGNED_AGENT_POINTS_LABEL)


def agent_category(datasheet: dict[str, Any]) -> str | None:
    keywords = set(datasheet.get("keywords", []))
    if "DEDICATED TRANSPORT" in keywords:
        return None
    if "CHARACTER" in keywords:
        return "character"
    if "RETINUE" in keywords:
        return "retinue"
    return "requisitioned"


def _assigned(datasheet: dict[str, Any], faction: dict[str, Any] | None) -> bool:
    """An AGENTS OF THE IMPERIUM unit in an army of another faction (`ALLIES`, above)."""
    return allied_as(datasheet, faction) == ASSIGNED_AGENT_POINTS_LABEL


@implements("ability", "assigned-agents", at=LIST_CHECKS, order=20)
def _check_assigned_agents(check: ArmyCheck, army: ArmyList) -> None:
    """Assigned Agents (seed 000 L174-178): AGENTS OF THE IMPERIUM units in an army of another
    faction whose every model is IMPERIUM, up to a number per battle size and kind of unit."""
    sheets = army.sheets
    agents = [
        e
        for e in army.entries
        if e.get("key") in sheets and _assigned(sheets[e["key"]], army.faction)
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
    limits = ASSIGNED_AGENT_LIMITS.get(army.battle_size)
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
                f"{army.battle_size.replace('-', ' ').title()} allows {limit}.",
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


@implements("datasheet-ability", "vindicare-assassin/shadow-assignment", at=LIST_CHECKS, order=10)
def _check_shadow_assignment(check: ArmyCheck, army: ArmyList) -> None:
    """SHADOW ASSIGNMENT (Vindicare Assassin): never the Warlord; in an AGENTS OF THE IMPERIUM
    army, the entry may name `replaced_by`: another OFFICIO ASSASSINORUM datasheet of no more
    points, fielded instead (the Declare Battle Formations swap, made in the list: rulings
    R-IA-13); and the army has no two of the same OFFICIO ASSASSINORUM datasheet."""
    fielded: Counter[str] = Counter()
    for entry in army.entries:
        key = cast(str, entry.get("key"))
        sheet = army.sheets.get(key)
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
            new = army.datasheets.get(replacement)
            sheet = _replacement(check, entry, sheet, new, army.faction) or sheet
        if ASSASSINS in sheet.get("keywords", []):
            fielded[sheet["slug"]] += 1
    for slug, count in sorted(fielded.items()):
        if count > 1:
            check.refuse(
                "duplicate_assassin",
                SHADOW_ASSIGNMENT,
                f"The army includes {count} {army.datasheets[slug]['name']} models; at most 1.",
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
    points = unit_points(new, 1)
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


@implements(
    "datasheet-ability", "vindicare-assassin/shadow-assignment", at=MUSTER_ENTRIES, order=10
)
def _shadow_assignment_at_muster(entry: dict[str, Any], sheet: dict[str, Any]) -> dict[str, Any]:
    """SHADOW ASSIGNMENT: never the Warlord; a `replaced_by` datasheet is fielded instead (the
    list was checked by `_check_shadow_assignment`)."""
    if not has_shadow_assignment(sheet):
        return entry
    if entry.get("warlord"):
        raise Refusal(
            "shadow_assignment_warlord",
            SHADOW_ASSIGNMENT,
            f"{sheet['name']} cannot be selected to be your Warlord.",
        )
    if entry.get("replaced_by"):
        return {**entry, "datasheet": entry["replaced_by"]}
    return entry
