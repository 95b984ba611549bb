"""The closed vocabularies of the rules data format (`docs/rules-data-format.md`).

Plain Python so the engine may read them too. The stratagem triggers are the engine's own
(`rules.engine.STRATAGEM_TRIGGERS`): a trigger is added only together with the engine code that
opens a stratagem window at it.
"""

from __future__ import annotations

from rules.engine import STRATAGEM_TRIGGERS

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
__all__ = [
    "ABILITY_KINDS",
    "DATASHEET_ABILITY_KINDS",
    "WEAPON_TYPES",
    "BASE_SHAPES",
    "STRATAGEM_SCOPES",
    "STRATAGEM_PHASES",
    "STRATAGEM_TURNS",
    "STRATAGEM_TRIGGERS",
    "STRATAGEM_LIMITS",
    "choices",
]

STRATAGEM_LIMITS = ("none", "once_per_phase", "once_per_turn", "once_per_battle")


def choices(values: tuple[str, ...]) -> list[tuple[str, str]]:
    """Django `choices` whose labels are the values themselves, as the data files spell them."""
    return [(value, value) for value in values]
