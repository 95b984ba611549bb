"""Stratagem implementations, one module per group of effects; importing this package registers
them all in `IMPLEMENTATIONS` (slug -> `Implementation`)."""

from rules.engine.stratagems.effects.base import IMPLEMENTATIONS, Implementation, Use

# Registration happens on import; the order does not matter.
from rules.engine.stratagems.effects import (  # noqa: E402, F401  isort: skip
    attacks,
    battle_shock_tests,
    charges,
    charges_out_of_phase,
    eligibility,
    fight_order,
    leaders,
    mortal_wounds,
    moves_out_of_sequence,
    objectives,
    reactive,
    rerolls,
    reserves,
    shooting_out_of_turn,
    targeting_restrictions,
)

# Faction stratagems register from their faction's package.
from rules.engine.factions.astra_militarum import order_stratagems  # noqa: E402, F401  isort: skip

__all__ = ["IMPLEMENTATIONS", "Implementation", "Use"]
