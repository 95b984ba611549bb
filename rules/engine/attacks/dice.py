"""Dice sources for the attack sequence, and the two ways of rolling the sequence's dice.

The attack steps (`rules.engine.attack_sequence`) are written once, vectorised over a leading
"trials" axis. They take any object with a `roll(shape, sides) -> numpy array` method:

- the damage preview passes `GeneratorDice` (a seeded numpy `Generator`) and runs N trials at once;
- the game passes `GameDice`, which wraps the game's `DiceStream` (`rules.engine.dice`), uses one
  trial, and records every die with its stream index so the event log shows each outcome.

Steps only ever roll the dice a player at the table would roll: `roll_where` rolls one die per
True cell of a mask (in row-major order) and nothing for the others, so a game never records a
damage roll for a saved attack, and the same dice fed to the game and to a one-trial preview give
the same outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from rules.engine.core.dice import DiceStream
from rules.engine.core.notation import DiceExpression


class DiceSource(Protocol):
    def roll(self, shape: tuple[int, ...], sides: int) -> np.ndarray: ...


class GeneratorDice:
    """Dice from a numpy `Generator`: fast, seeded, for previews and benchmarks."""

    def __init__(self, seed: int | None = None) -> None:
        self.generator = np.random.default_rng(seed)

    def roll(self, shape: tuple[int, ...], sides: int) -> np.ndarray:
        return self.generator.integers(1, sides + 1, size=shape, dtype=np.int16)


@dataclass
class RecordedDie:
    index: int
    sides: int
    value: int

    def as_dict(self) -> dict[str, int]:
        return {"index": self.index, "sides": self.sides, "value": self.value}


@dataclass
class GameDice:
    """The game's `DiceStream` as a dice source; every die is recorded with its stream index.

    `take_records()` hands the dice rolled since the last call to the engine, which puts them in
    the event of the step that rolled them.
    """

    stream: DiceStream
    records: list[RecordedDie] = field(default_factory=list)

    def roll(self, shape: tuple[int, ...], sides: int) -> np.ndarray:
        count = int(np.prod(shape)) if shape else 1
        first = self.stream.next_index
        values = self.stream.roll(count, sides)
        self.records.extend(
            RecordedDie(first + offset, sides, value) for offset, value in enumerate(values)
        )
        return np.asarray(values, dtype=np.int64).reshape(shape)

    def take_records(self) -> list[dict[str, int]]:
        taken = [record.as_dict() for record in self.records]
        self.records.clear()
        return taken


def roll_where(dice: DiceSource, mask: np.ndarray, sides: int = 6) -> np.ndarray:
    """One die for each True cell of `mask` (row-major order), 0 elsewhere."""
    out = np.zeros(mask.shape, dtype=np.int16)
    count = int(mask.sum())
    if count:
        out[mask] = dice.roll((count,), sides)
    return out


def roll_expression(dice: DiceSource, expression: DiceExpression, mask: np.ndarray) -> np.ndarray:
    """Roll a dice expression (`D6+2`, `2D6`, `D3`) once per True cell of `mask`; 0 elsewhere.

    A D3 is one D6 halved, rounding up (11e 01.05), so it is recorded as the D6 actually rolled.
    """
    total = np.where(mask, expression.modifier, 0).astype(np.int64)
    if expression.is_fixed:
        return total
    for _ in range(expression.count):
        rolled = roll_where(dice, mask, 6)
        total += (rolled + 1) // 2 if expression.sides == 3 else rolled
    return total


def mask_of_counts(counts: np.ndarray, width: int | None = None) -> np.ndarray:
    """(trials, width) mask whose row t has its first counts[t] cells True."""
    width = int(counts.max(initial=0)) if width is None else width
    return np.arange(width)[None, :] < counts[:, None]
