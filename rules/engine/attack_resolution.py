"""One weapon's attacks from gathering dice to the last mortal wound, as the steps chain them.

The game calls the steps one by one when it must stop for a decision (a re-roll, an allocation
order); without decisions it calls `resolve_weapon_attacks`, as the damage preview does, with
trials=1 and `GameDice`. Same functions, same dice, same outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules.engine.allocation import (
    UnitState,
    damage_step,
    devastating_wounds_step,
    save_step,
)
from rules.engine.attack_dice import DiceSource
from rules.engine.attack_profiles import AttackContext, Attacker, TargetUnit
from rules.engine.attack_rolls import StepRecord
from rules.engine.attack_sequence import (
    check_weapon_may_attack,
    gather_attack_dice,
    hit_step,
    wound_step,
)


@dataclass
class AttackResult:
    """Per-trial totals (arrays of length `trials`) and the step records for the dice tray."""

    attacks: np.ndarray
    hits: np.ndarray
    wounds: np.ndarray
    unsaved: np.ndarray
    damage: np.ndarray
    models_destroyed: np.ndarray
    mortal_wounds: np.ndarray
    state: UnitState
    records: list[StepRecord] = field(default_factory=list)

    def events(self, trial: int = 0) -> list[dict[str, Any]]:
        return [record.tray(trial) for record in self.records]


def resolve_weapon_attacks(
    dice: DiceSource,
    trials: int,
    attacker: Attacker,
    target: TargetUnit,
    ctx: AttackContext,
    state: UnitState | None = None,
) -> AttackResult:
    """Gather attack dice, hit, wound, save, damage, then [DEVASTATING WOUNDS] mortal wounds
    (after all normal damage: 11e 06.02, 24.10; 10e Mortal Wounds, Devastating Wounds)."""
    result, wounds = _normal_damage(dice, trials, attacker, target, ctx, state)
    return _add_devastating(dice, result, wounds, attacker, target, ctx)


def _normal_damage(dice, trials, attacker, target, ctx, state):
    check_weapon_may_attack(attacker, target, ctx)
    state = state if state is not None else UnitState.of(target, trials)
    counts, gather = gather_attack_dice(dice, trials, attacker, target, ctx)
    hits = hit_step(dice, counts, attacker, target, ctx)
    wounds = wound_step(dice, hits, attacker, target, state.alive, ctx)
    saves = save_step(dice, wounds, state, attacker, target, ctx)
    normal = damage_step(dice, saves, state, attacker, target, ctx)
    result = AttackResult(
        attacks=counts,
        hits=hits.hits,
        wounds=wounds.wounds,
        unsaved=normal.unsaved,
        damage=normal.damage,
        models_destroyed=normal.models_destroyed,
        mortal_wounds=normal.mortal_wounds,
        state=state,
        records=[gather, hits.record, wounds.record, *normal.records],
    )
    return result, wounds


def _add_devastating(dice, result, wounds, attacker, target, ctx) -> AttackResult:
    devastating = devastating_wounds_step(dice, wounds, result.state, attacker, target, ctx)
    result.unsaved = result.unsaved + devastating.unsaved
    result.damage = result.damage + devastating.damage
    result.models_destroyed = result.models_destroyed + devastating.models_destroyed
    result.mortal_wounds = result.mortal_wounds + devastating.mortal_wounds
    result.records.extend(devastating.records)
    return result


def resolve_unit_attacks(
    dice: DiceSource,
    trials: int,
    attackers: list[Attacker],
    target: TargetUnit,
    ctx: AttackContext,
    state: UnitState | None = None,
) -> list[AttackResult]:
    """A unit's weapons against one target, in the order the attacking player chose.

    When [DEVASTATING WOUNDS] mortal wounds land is the edition's `devastating_wounds` strategy:
    `mortal_wounds_end_sequence` (11e 24.10: after the normal damage of those attacks, i.e. each
    weapon's attack dice) or `no_saving_throw` (10e: allocated only after all other attacks made
    by the attacking unit have been resolved).
    """
    state = state if state is not None else UnitState.of(target, trials)
    after_all = ctx.edition.devastating_wounds == "no_saving_throw"
    results, pending = [], []
    for attacker in attackers:
        result, wounds = _normal_damage(dice, trials, attacker, target, ctx, state)
        if after_all:
            pending.append((result, wounds, attacker))
        else:
            _add_devastating(dice, result, wounds, attacker, target, ctx)
        results.append(result)
    for result, wounds, attacker in pending:
        _add_devastating(dice, result, wounds, attacker, target, ctx)
    return results
