"""Where each battlefield rule is written, per edition: 11e section numbers, 10e headings.

Refusals name the rule they enforce (`Refusal.rule`); this table keeps those names as data so
that no module tests the edition's slug.
"""

from __future__ import annotations

from rules.engine.editions import Edition

_SECTIONS = {
    "moving": ("03.01", "Moving"),
    "setup": ("03.02", "Deploy Armies"),
    "coherency": ("03.03", "Unit Coherency"),
    "engagement": ("03.04", "Engagement Range"),
    "remain_stationary": ("09.04", "Remain Stationary"),
    "normal": ("09.05", "Normal Moves"),
    "advance": ("09.06", "Advance Moves"),
    "fall_back": ("09.07", "Fall Back Moves"),
    "charge": ("11.04", "Charging with a Unit"),
    "pile_in": ("12.03", "Pile In"),
    "consolidate": ("12.08", "Consolidate"),
    "terrain_movement": ("13.06", "Terrain Features"),
    "scout": ("24.32", "Scouts"),
    "infiltrators": ("24.20", "Infiltrators"),
    "deep_strike": ("24.09", "Deep Strike"),
    "reserves": ("20.04", "Strategic Reserves"),
    "ingress": ("20.04", "Strategic Reserves"),
    "embark": ("18.02", "Transports"),
    "disembark": ("18.04", "Transports"),
    "emergency_disembark": ("18.05", "Transports"),
    "objective": ("01.04.03", "Objective Markers"),
    "fly": ("21.03", "Fly"),
}


def section(edition: Edition, rule: str) -> str:
    eleventh, tenth = _SECTIONS[rule]
    return eleventh if edition.rules_citation == "numbered_sections" else tenth
