"""Re-rolls of the attack sequence's dice after the roll (Command Re-roll: 11e 15.02; 10e and
Boarding Actions Command Re-roll): the attack dice's rolls, hit, wound, save and hazard rolls.

A step of the attack sequence rolls its dice (with the re-rolls its own rules make, "re-roll hit
rolls of 1"), then `attack_game` offers the roll's owner the `after_roll` window with the roll as
`rolls.py` records it (`roll_record`). When the player re-rolls one die (`rolls.reroll`: a die
already re-rolled cannot be chosen), the step is rebuilt from the dice it rolled
(`ReplayDice`, no new dice drawn) and the re-rolled die put in (`with_reroll`); the step then
carries on with those dice. Re-rolls happen before modifiers, so the result is recomputed from
the new unmodified values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rules.engine.attacks.dice import DiceSource
from rules.engine.attacks.rolls import RollBatch

# The `purpose` of each attack-sequence roll, as the Command Re-roll stratagems list them
# (rules/engine/stratagems/effects/rerolls.py PURPOSES).
ATTACKS, HIT, WOUND, SAVE, DAMAGE, HAZARD = "attacks", "hit", "wound", "save", "damage", "hazard"


class ReplayDice:
    """The dice a step rolled, served again in the same order; past them, `then` (the game's
    dice) if given. A step rebuilt with them is the step as it was rolled."""

    def __init__(self, values: Sequence[int], then: DiceSource | None = None) -> None:
        self.values = list(values)
        self.then = then

    def roll(self, shape: tuple[int, ...], sides: int) -> np.ndarray:
        count = int(np.prod(shape)) if shape else 1
        taken, self.values = self.values[:count], self.values[count:]
        if len(taken) < count:
            if self.then is None:
                raise RuntimeError("a step rebuilt from its dice rolled more dice than it did")
            taken += [int(v) for v in self.then.roll((count - len(taken),), sides)]
        return np.asarray(taken, dtype=np.int64).reshape(shape)


def roll_record(
    roll_id: str,
    purpose: str,
    rule: str,
    player: int,
    unit: str,
    batch: RollBatch,
    drawn: list[dict[str, int]],
) -> dict[str, Any]:
    """The step's dice as they stand (after its own re-rolls) as a `rolls.py` roll record; each
    die's `indices` entry is the stream index of a drawn die showing that value."""
    row = batch.rolled[0]
    values = [int(v) for v in batch.values[0][row]]
    rerolled = [bool(r) for r in batch.rerolled[0][row]]
    pool = list(drawn)
    indices = []
    for value in values:
        match = next((i for i, die in enumerate(pool) if die["value"] == value), None)
        indices.append(pool.pop(match)["index"] if match is not None else None)
    return {
        "roll": roll_id,
        "purpose": purpose,
        "rule": rule,
        "player": player,
        "unit": unit,
        "sides": batch.sides,
        "indices": indices,
        "values": values,
        "rerolled": rerolled,
        "modifier": 0,
        "modifier_applied": 0,
        "total": sum(values),
    }


def dice_record(
    roll_id: str, purpose: str, rule: str, player: int, unit: str, drawn: list[dict[str, int]]
) -> dict[str, Any]:
    """A roll record of dice rolled once each, in the order drawn (attack dice, hazard rolls)."""
    values = [die["value"] for die in drawn]
    return {
        "roll": roll_id,
        "purpose": purpose,
        "rule": rule,
        "player": player,
        "unit": unit,
        "sides": drawn[0]["sides"],
        "indices": [die["index"] for die in drawn],
        "values": values,
        "rerolled": [False] * len(values),
        "modifier": 0,
        "modifier_applied": 0,
        "total": sum(values),
    }


def with_reroll(batch: RollBatch, roll: dict[str, Any], lowest_first: bool = False) -> RollBatch:
    """The batch with the dice the roll record shows re-rolled since (`roll["rerolled"]`) put
    in; `lowest_first` keeps 11e save rolls in the order they are resolved (05.04)."""
    columns = np.flatnonzero(batch.rolled[0])
    values, rerolled = batch.values.copy(), batch.rerolled.copy()
    for position, column in enumerate(columns):
        if roll["rerolled"][position] and not rerolled[0, column]:
            values[0, column] = roll["values"][position]
            rerolled[0, column] = True
    updated = RollBatch(values, batch.rolled, batch.original, rerolled, batch.sides)
    if not lowest_first:
        return updated
    order = np.argsort(np.where(updated.rolled, updated.values, 99), axis=1, kind="stable")
    return RollBatch(
        np.take_along_axis(updated.values, order, axis=1),
        np.take_along_axis(updated.rolled, order, axis=1),
        np.take_along_axis(updated.original, order, axis=1),
        np.take_along_axis(updated.rerolled, order, axis=1),
        updated.sides,
    )
