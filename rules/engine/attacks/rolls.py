"""A batch of rolled dice, its re-rolls, and the dice-tray record a step makes of it.

Re-rolls (10e Re-rolls; 11e 15.02): a die is never re-rolled more than once; re-rolls happen
before modifiers; "unmodified" means after re-rolls, before modifiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules.engine.attacks.dice import DiceSource, roll_where
from rules.engine.core.refusals import Refusal


@dataclass
class RollBatch:
    """Dice of one step: `values` (trials, n) after re-rolls, 0 where no die was rolled."""

    values: np.ndarray
    rolled: np.ndarray
    original: np.ndarray
    rerolled: np.ndarray
    sides: int = 6

    @classmethod
    def roll(cls, dice: DiceSource, mask: np.ndarray, sides: int = 6) -> RollBatch:
        values = roll_where(dice, mask, sides)
        return cls(values, mask, values.copy(), np.zeros_like(mask), sides)

    @classmethod
    def none(cls, trials: int) -> RollBatch:
        empty = np.zeros((trials, 0), dtype=np.int64)
        return cls(empty, empty.astype(bool), empty, empty.astype(bool))

    def reroll(self, dice: DiceSource, mask: np.ndarray, rule: str = "Re-rolls") -> RollBatch:
        """Re-roll the dice under `mask`; refused for dice not rolled or already re-rolled."""
        if np.any(mask & ~self.rolled) or np.any(mask & self.rerolled):
            raise Refusal(
                "reroll_not_allowed",
                rule,
                "A die can only be re-rolled if it was rolled, and never more than once.",
            )
        fresh = roll_where(dice, mask, self.sides)
        values = np.where(mask, fresh, self.values)
        return RollBatch(values, self.rolled, self.original, self.rerolled | mask, self.sides)


def reroll_mask(grant: str | None, batch: RollBatch, success: np.ndarray) -> np.ndarray:
    """The dice an automatic player re-rolls under a grant: 1s, or every failed roll.

    A grant to re-roll "any" roll is used on failed rolls; that is the choice that never lowers
    the number of successes (the game asks the player instead).
    """
    eligible = batch.rolled & ~batch.rerolled
    if grant == "ones":
        return eligible & (batch.values == 1)
    if grant in ("failed", "any"):
        return eligible & ~success
    return np.zeros_like(eligible)


def best_grant(grants: list[str]) -> str | None:
    """Of several re-roll grants, the widest: any > failed > ones."""
    for grant in ("any", "failed", "ones"):
        if grant in grants:
            return grant
    return None


@dataclass
class StepRecord:
    """What a dice tray shows for one step, for every trial (see docs/attacks.md)."""

    step: str
    rule: str
    weapon: str
    batch: RollBatch
    target: np.ndarray | int | None
    modifier: np.ndarray | int
    successes: np.ndarray
    criticals: np.ndarray
    automatic: np.ndarray
    label: str
    modifiers: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    def tray(self, trial: int = 0) -> dict[str, Any]:
        """The dict for one trial: rule, dice, target number, successes, criticals, re-rolls."""
        row = self.batch.rolled[trial] if self.batch.rolled.size else np.zeros(0, dtype=bool)
        dice = [int(value) for value in self.batch.values[trial][row]] if row.size else []
        rerolled = []
        if row.size:
            for position in np.flatnonzero(self.batch.rerolled[trial][row]):
                original = self.batch.original[trial][row]
                rerolled.append(
                    {
                        "position": int(position),
                        "from": int(original[position]),
                        "to": dice[position],
                    }
                )
        target = self.target[trial] if isinstance(self.target, np.ndarray) else self.target
        modifier = self.modifier[trial] if isinstance(self.modifier, np.ndarray) else self.modifier
        successes = int(self.successes[trial])
        criticals = int(self.criticals[trial])
        automatic = int(self.automatic[trial])
        record = {
            "step": self.step,
            "rule": self.rule,
            "weapon": self.weapon,
            "dice": dice,
            "rerolled": rerolled,
            "target": None if target is None else int(target),
            "modifier": int(modifier),
            "modifiers": self.modifiers,
            "successes": successes,
            "criticals": criticals,
            "automatic": automatic,
            "extra": {name: int(values[trial]) for name, values in self.extra.items()},
        }
        record["summary"] = self.summary(record)
        return record

    def summary(self, record: dict[str, Any]) -> str:
        """One line for the dice tray, e.g. "10 hit rolls, BS 3+: 6 hits, 2 critical"; each
        number agrees with its noun ("1 hit roll, BS 3+: 1 hit")."""
        rolls, outcomes = SUMMARY_NOUNS.get(self.step, ((self.step, self.step),) * 2)
        if not record["dice"] and self.step != "hit_roll":
            return counted(record["successes"], outcomes)
        head = counted(len(record["dice"]), rolls)
        if record["target"] is not None:
            head += f", {self.label} {record['target']}+".replace(",  ", ", ")
        if record["modifier"]:
            head += f" ({record['modifier']:+d})"
        outcome = counted(record["successes"], outcomes)
        if record["criticals"]:
            outcome += f", {record['criticals']} critical"
        if record["automatic"]:
            outcome += f", {record['automatic']} automatic"
        if record["rerolled"]:
            outcome += f", {len(record['rerolled'])} re-rolled"
        return f"{head}: {outcome}"


def counted(number: int, noun: tuple[str, str]) -> str:
    """The number with `noun` (singular, plural) agreeing: "1 hit", "0 hits", "3 hits"."""
    return f"{number} {noun[0] if number == 1 else noun[1]}"


# Each step's nouns, (singular, plural), for the dice rolled and for their outcome.
SUMMARY_NOUNS = {
    "attack": (("attack die", "attack dice"), ("attack die gathered", "attack dice gathered")),
    "hit_roll": (("hit roll", "hit rolls"), ("hit", "hits")),
    "wound_roll": (("wound roll", "wound rolls"), ("wound", "wounds")),
    "save_roll": (("save roll", "save rolls"), ("saved", "saved")),
    "damage": (("damage", "damage"), ("wound lost", "wounds lost")),
    "devastating_wound": (
        ("devastating wound", "devastating wounds"),
        ("wound lost to devastating wounds", "wounds lost to devastating wounds"),
    ),
}
