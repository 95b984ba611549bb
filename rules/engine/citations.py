"""Where each rule is written, per rule set: 11e section numbers, 10e rule headings.

Refusals and decisions cite `cite(state, key)`, so a 10e player reads "Fall Back Moves" where an
11e player reads "09.07". A rule set not listed here is cited by its 11e section.
"""

from __future__ import annotations

from typing import Any

CITATIONS: dict[str, dict[str, str]] = {
    "battle_sequence": {"11e": "07.02", "10e": "Battle Sequence"},
    "once_per_phase": {"11e": "07.02", "10e": "Battle Sequence"},
    "reserves": {"11e": "20.01", "10e": "Strategic Reserves"},
    "arrive_from_reserves": {"11e": "20.03", "10e": "Strategic Reserves"},
    "deploy": {"11e": "Deploy Armies", "10e": "Deploy Armies"},
    "first_turn": {"11e": "Determine First Turn", "10e": "Determine First Turn"},
    "movement_phase": {"11e": "09", "10e": "Movement Phase"},
    "remain_stationary": {"11e": "09.04", "10e": "Remain Stationary"},
    "normal_move": {"11e": "09.05", "10e": "Normal Moves"},
    "advance": {"11e": "09.06", "10e": "Advance Moves"},
    "fall_back": {"11e": "09.07", "10e": "Fall Back Moves"},
    "desperate_escape": {"11e": "09.07", "10e": "Desperate Escape Tests"},
    "hazard_roll": {"11e": "06.03", "10e": "Hazardous"},
    "mortal_wounds": {"11e": "06.03", "10e": "Mortal Wounds"},
    "shooting_phase": {"11e": "10", "10e": "Shooting Phase"},
    "charge_phase": {"11e": "11", "10e": "Charge Phase"},
    "fight_phase": {"11e": "12", "10e": "Fight Phase"},
    "battle_shock": {"11e": "01.07", "10e": "Battle-shock"},
    "command_points": {"11e": "15", "10e": "Command Points"},
    "dice": {"11e": "01.05", "10e": "Re-rolls"},
}


def cite(state: dict[str, Any], key: str) -> str:
    sources = CITATIONS[key]
    return sources.get(state["edition"]["slug"], sources["11e"])
