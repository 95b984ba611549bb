"""Resolve pre-battle abilities: scout moves (11e 24.32 Scout Move; 10e Scouts).

After the first turn is decided, before the first battle round, the player taking the first
turn makes the scout moves of their units with Scouts X", then the other player. A unit can scout
when every part of it (Bodyguard, Leader, Support) has Scouts; it moves up to the smallest X. The
battlefield checks the move (`validate_move`, move type `scout`): 11e the unit starts wholly within
its deployment zone, and after moving it is more than 8" (11e) / 9" (10e) from all enemy units;
10e scouts never move within engagement range.
"""

from __future__ import annotations

import re
from typing import Any

from rules.engine.battlefield.placement import check_move, final_positions, place, read_positions
from rules.engine.core.events import Context
from rules.engine.core.facts import has_acted, mark_acted
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.selection import own_unit
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, on_battlefield, unit_keywords, units_of
from rules.engine.phases.transports import passengers


def scout_rule(state: State) -> str:
    return "24.32" if state["edition"]["rules_citation"] == "numbered_sections" else "Scouts"


@implements("ability", "scouts")
def scouts_distance(state: State, unit: Unit) -> float | None:
    """The X of Scouts X" shared by every part of the unit (the smallest), or None. A DEDICATED
    TRANSPORT without it may use the Scouts of the units embarked within it when every one of
    them has it (11e 24.31; 10e Scouts), the smallest X."""
    own = _own_scouts_distance(state, unit)
    if own is not None or "DEDICATED TRANSPORT" not in unit_keywords(state, unit):
        return own
    carried = passengers(state, unit["id"])
    distances = [_own_scouts_distance(state, p) for p in carried]
    if not carried or any(d is None for d in distances):
        return None
    return min(d for d in distances if d is not None)


def _own_scouts_distance(state: State, unit: Unit) -> float | None:
    distances = []
    for part in unit["parts"]:
        sheet = state["datasheets"].get(part["datasheet"], {})
        found = [
            a.get("parameter")
            for a in sheet.get("abilities", [])
            if a["name"] == "Scouts" and a.get("parameter")
        ]
        numbers = [float(m.group()) for p in found if (m := re.search(r"\d+(\.\d+)?", str(p)))]
        if not numbers:
            return None
        distances.append(max(numbers))
    return min(distances) if distances else None


def scout_candidates(state: State, player: int) -> list[str]:
    """The player's units that may still make a scout move."""
    return [
        u["id"]
        for u in units_of(state, player)
        if on_battlefield(u) and not has_acted(state, u["id"]) and scouts_distance(state, u)
    ]


def scout_move(ctx: Context, action: dict[str, Any]) -> None:
    """Move one unit with Scouts up to X", checked by the battlefield."""
    state = ctx.state
    rule = scout_rule(state)
    unit = own_unit(ctx, action, rule)
    if unit["id"] not in scout_candidates(state, unit["player"]):
        raise Refusal(
            "cannot_scout",
            rule,
            f"{unit['name']} cannot make a scout move (no Scouts ability, not on the "
            "battlefield, or it has already scouted).",
        )
    distance = scouts_distance(state, unit)
    read = read_positions(unit, action.get("positions"), rule)
    check_move(state, unit, read, "scout", 0.0, bonus=distance)
    mark_acted(ctx, unit["id"])
    place(unit, read)
    ctx.emit("unit_moved", unit=unit["id"], positions=final_positions(read), rule=rule)
