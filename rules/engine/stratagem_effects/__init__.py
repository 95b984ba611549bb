"""Stratagem implementations, one module per group of effects; importing this package registers
them all in `IMPLEMENTATIONS` (slug -> `Implementation`)."""

from rules.engine.stratagem_effects.base import IMPLEMENTATIONS, Implementation, Use

# Registration happens on import; the order does not matter.
from rules.engine.stratagem_effects import (  # noqa: E402, F401  isort: skip
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
    orders,
    reactive,
    rerolls,
    reserves,
    shooting_out_of_turn,
    targeting_restrictions,
)

__all__ = ["IMPLEMENTATIONS", "Implementation", "Use"]
