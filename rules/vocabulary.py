"""The closed vocabularies of the rules data format (`docs/rules-data-format.md`).

Plain Python so the engine may read them too. A trigger is added only together with the engine
code that opens a stratagem window at it.
"""

from __future__ import annotations

ABILITY_KINDS = ("core", "faction")
DATASHEET_ABILITY_KINDS = ("core", "faction", "datasheet", "wargear")
WEAPON_TYPES = ("ranged", "melee")
BASE_SHAPES = ("round", "oval", "hull")

STRATAGEM_SCOPES = ("core", "boarding-actions", "detachment")
STRATAGEM_PHASES = (
    "any",
    "command",
    "movement",
    "shooting",
    "charge",
    "fight",
    "battle-shock-step",
)
STRATAGEM_TURNS = ("own", "opponent", "either")
STRATAGEM_TRIGGERS = (
    "phase_start",
    "phase_end",
    "battle_shock_before_roll",
    "battle_shock_after_fail",
    "unit_selected_to_shoot",
    "unit_selected_to_fight",
    "enemy_unit_selected_targets",
    "enemy_unit_shot",
    "enemy_unit_fought",
    "enemy_unit_resolved_attacks",
    "charge_declared",
    "enemy_charge_declared",
    "charge_move_ended",
    "enemy_move_started_or_ended",
    "enemy_unit_set_up",
    "after_roll",
    "unit_destroyed",
    "unit_targeted",
    "fight_step",
    "reinforcements_step",
    "any_time",
)
STRATAGEM_LIMITS = ("none", "once_per_phase", "once_per_turn", "once_per_battle")


def choices(values: tuple[str, ...]) -> list[tuple[str, str]]:
    """Django `choices` whose labels are the values themselves, as the data files spell them."""
    return [(value, value) for value in values]
