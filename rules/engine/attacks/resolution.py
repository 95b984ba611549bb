"""One weapon's attacks from gathering dice to the last mortal wound, as the steps chain them.

The game calls the steps one by one when it must stop for a decision (a re-roll, an allocation
order); without decisions it calls `resolve_weapon_attacks`, as the damage preview does, with
trials=1 and `GameDice`. Same functions, same dice, same outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules.engine.attacks.allocation import (
    UnitState,
    damage_step,
    devastating_wounds_step,
    save_step,
)
from rules.engine.attacks.dice import DiceSource
from rules.engine.attacks.profiles import AttackContext, Attacker, TargetUnit
from rules.engine.attacks.rolls import StepRecord
from rules.engine.attacks.sequence import (
    check_weapon_may_attack,
    gather_attack_dice,
    hit_step,
    wound_step,
)

# Called with each step's record as soon as that step has rolled its dice (the game records the
# dice of each step in its own event; the preview passes nothing).
StepObserver = Callable[[StepRecord], None]


def _ignore(record: StepRecord) -> None:
    return None


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
    observe: StepObserver = _ignore,
) -> AttackResult:
    """Gather attack dice, hit, wound, save, damage, then [DEVASTATING WOUNDS] mortal wounds
    (after all normal damage: 11e 06.02, 24.10; 10e Mortal Wounds, Devastating Wounds)."""
    result, wounds = _normal_damage(dice, trials, attacker, target, ctx, state, observe)
    return _add_devastating(dice, result, wounds, attacker, target, ctx, observe)


def _normal_damage(dice, trials, attacker, target, ctx, state, observe=_ignore):
    check_weapon_may_attack(attacker, target, ctx)
    state = state if state is not None else UnitState.of(target, trials)
    counts, gather = gather_attack_dice(dice, trials, attacker, target, ctx)
    observe(gather)
    hits = hit_step(dice, counts, attacker, target, ctx)
    observe(hits.record)
    wounds = wound_step(dice, hits, attacker, target, state.alive, ctx)
    observe(wounds.record)
    saves = save_step(dice, wounds, state, attacker, target, ctx)
    observe(saves.record)
    normal = damage_step(dice, saves, state, attacker, target, ctx)
    observe(normal.records[-1])
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


def _add_devastating(dice, result, wounds, attacker, target, ctx, observe=_ignore):
    devastating = devastating_wounds_step(dice, wounds, result.state, attacker, target, ctx)
    if wounds.devastating.any():
        observe(devastating.records[0])
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
    observe: StepObserver = _ignore,
) -> list[AttackResult]:
    """A unit's weapons against one target, in the order the attacking player chose."""
    pairs = [(attacker, ctx) for attacker in attackers]
    return resolve_attack_groups(dice, trials, pairs, target, state, observe)


def resolve_attack_groups(
    dice: DiceSource,
    trials: int,
    groups: list[tuple[Attacker, AttackContext]],
    target: TargetUnit,
    state: UnitState | None = None,
    observe: StepObserver = _ignore,
) -> list[AttackResult]:
    """Groups of attacks against one target, each with its own context (in the game, models
    within half range of the target and the others are separate groups).

    When [DEVASTATING WOUNDS] mortal wounds land is the edition's `devastating_wounds` strategy:
    `mortal_wounds_end_sequence` (11e 24.10: after the normal damage of those attacks, i.e. each
    weapon's attack dice) or `no_saving_throw` (10e: allocated only after all other attacks made
    by the attacking unit have been resolved).
    """
    state = state if state is not None else UnitState.of(target, trials)
    results, pending = [], []
    for attacker, ctx in groups:
        after_all = ctx.edition.devastating_wounds == "no_saving_throw"
        result, wounds = _normal_damage(dice, trials, attacker, target, ctx, state, observe)
        if after_all:
            pending.append((result, wounds, attacker, ctx))
        else:
            _add_devastating(dice, result, wounds, attacker, target, ctx, observe)
        results.append(result)
    for result, wounds, attacker, ctx in pending:
        _add_devastating(dice, result, wounds, attacker, target, ctx, observe)
    return results
