"""Where each rule is written, per rule set: 11e section numbers, 10e rule headings.

Refusals, decisions and dice-tray records name the rule they apply. Which of the two spellings a
game uses is the rule set's `rules_citation` parameter (`numbered_sections` or `headings`), so no
module tests the edition's slug: a 10e player reads "Fall Back Moves" where an 11e player reads
"09.07". One table for the whole engine: the core rules are written here, and a faction's rules
(cited by their own headings, the same in both rule sets: the seeds give them no section numbers)
are added by the faction's package (`add_sections`), so the core names no faction.
"""

from __future__ import annotations

from rules.engine.core.editions import Edition
from rules.engine.core.state import State

# key: (numbered section, heading)
SECTIONS: dict[str, tuple[str, str]] = {
    # Battle sequence, phases and command points
    "battle_sequence": ("07.02", "Battle Sequence"),
    "once_per_phase": ("07.02", "Battle Sequence"),
    "reserves": ("20.01", "Strategic Reserves"),
    "arrive_from_reserves": ("20.03", "Strategic Reserves"),
    "deploy": ("Deploy Armies", "Deploy Armies"),
    "first_turn": ("Determine First Turn", "Determine First Turn"),
    "movement_phase": ("09", "Movement Phase"),
    "remain_stationary": ("09.04", "Remain Stationary"),
    "normal_move": ("09.05", "Normal Moves"),
    "advance": ("09.06", "Advance Moves"),
    "fall_back": ("09.07", "Fall Back Moves"),
    "desperate_escape": ("09.07", "Desperate Escape Tests"),
    "hazard_roll": ("06.03", "Hazardous"),
    "mortal_wounds": ("06.02", "Mortal Wounds"),
    "shooting_phase": ("10", "Shooting Phase"),
    "charge_phase": ("11", "Charge Phase"),
    # 11e 11.02 Charge: declaring a charge and who is eligible to (10e: the phase's heading).
    "declare_charge": ("11.02", "Charge Phase"),
    "fight_phase": ("12", "Fight Phase"),
    "battle_shock": ("01.07", "Battle-shock"),
    "command_points": ("15", "Command Points"),
    "dice": ("01.05", "Re-rolls"),
    # Moving, setting up and the battlefield (the geometry modules)
    "moving": ("03.01", "Moving"),
    "setup": ("03.02", "Deploy Armies"),
    "coherency": ("03.03", "Unit Coherency"),
    "engagement": ("03.04", "Engagement Range"),
    "normal": ("09.05", "Normal Moves"),
    "charge": ("11.04", "Charging with a Unit"),
    "pile_in": ("12.03", "Pile In"),
    "consolidate": ("12.08", "Consolidate"),
    "terrain_movement": ("13.06", "Terrain Features"),
    "scout": ("24.32", "Scouts"),
    "infiltrators": ("24.20", "Infiltrators"),
    "deep_strike": ("24.09", "Deep Strike"),
    "ingress": ("20.04", "Strategic Reserves"),
    "embark": ("18.02", "Transports"),
    "disembark": ("18.04", "Transports"),
    "emergency_disembark": ("18.05", "Transports"),
    "transport_capacity": ("18.01", "Transports"),
    "destroyed_transport": ("18.05", "Destroyed Transport"),
    "deadly_demise": ("24.08", "Deadly Demise"),
    "firing_deck": ("24.14", "Firing Deck"),
    "objective": ("01.04.03", "Objective Markers"),
    "fly": ("21.03", "Fly"),
    "moving_vertically": ("13.06", "Ruins"),
    "overrun_fight": ("12.06", "Fight Phase"),
    "fight_step": ("12.04", "Fight Phase"),
    "stratagem_limits": ("15.01", "Stratagems"),
    # The attack sequence
    "attacks": ("04 Gather Attack Dice", "Making Attacks"),
    "hit_roll": ("05.01", "Hit Roll"),
    "wound_roll": ("05.02", "Wound Roll"),
    "save_roll": ("05.03", "Saving Throw"),
    "damage": ("05.04", "Inflict Damage"),
    "feel_no_pain": ("24.12", "Feel No Pain"),
    "devastating_wounds": ("24.10", "Devastating Wounds"),
    "automatic": ("01.05.01", "Torrent"),
    "blast": ("24.05", "Blast"),
    "select_targets": ("04.02", "Big Guns Never Tire"),
    "close_quarters": ("10.06", "Big Guns Never Tire"),
    "assault": ("10.05", "Assault"),
    "pistol": ("24.27", "Pistol"),
    "weapon_profiles": ("04.01", "Weapon Profiles"),
    "extra_attacks": ("24.11", "Extra Attacks"),
    "sustained_hits": ("24.36", "Sustained Hits"),
    # Shooting out of turn
    "fire_overwatch": ("15.08", "Fire Overwatch"),
    "snap_shooting": ("15.09", "Fire Overwatch"),
}


def add_sections(headings: dict[str, str]) -> None:
    """A faction's rules, each cited by its heading in both rule sets (key -> heading)."""
    for key, heading in headings.items():
        if SECTIONS.get(key, (heading, heading)) != (heading, heading):
            raise ValueError(f"citation {key!r} added twice")
        SECTIONS[key] = (heading, heading)


def _pick(style: str, key: str) -> str:
    numbered, heading = SECTIONS[key]
    return numbered if style == "numbered_sections" else heading


def heading(key: str) -> str:
    """The heading of the rule `key` (its name in 10e, and a faction rule's in both rule sets)."""
    return SECTIONS[key][1]


def cite(state: State, key: str) -> str:
    """The rule `key` as the game's rule set cites it (from the game state)."""
    return _pick(state["edition"]["rules_citation"], key)


def section(edition: Edition, key: str) -> str:
    """The rule `key` as this rule set cites it (from an `Edition`)."""
    return _pick(edition.rules_citation, key)
