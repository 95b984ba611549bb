"""Shared helpers for the attack-sequence tests: editions, scripted dice, quick profiles."""

from __future__ import annotations

import numpy as np
import pytest

from rules.engine.attacks.profiles import AttackContext, Attacker, TargetUnit, WeaponProfile
from tests.editions import edition_for

ELEVENTH = edition_for("11e")
TENTH = edition_for("10e")


class ScriptedDice:
    """Returns exactly the given values, in order; a roll it was not given fails the test."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.rolls: list[tuple[int, int]] = []

    def roll(self, shape: tuple[int, ...], sides: int) -> np.ndarray:
        count = int(np.prod(shape))
        if count > len(self.values):
            pytest.fail(f"unscripted roll of {count} D{sides}; left: {self.values}")
        taken, self.values = self.values[:count], self.values[count:]
        assert all(1 <= value <= sides for value in taken), (taken, sides)
        self.rolls.append((count, sides))
        return np.asarray(taken, dtype=np.int64).reshape(shape)

    def assert_used_up(self) -> None:
        assert self.values == [], f"dice left unrolled: {self.values}"


def weapon(abilities=(), attacks="1", skill=3, strength=4, ap=0, damage="1", range_=24):
    return WeaponProfile.from_dict(
        {
            "name": "test weapon",
            "range": range_,
            "attacks": attacks,
            "skill": skill,
            "strength": strength,
            "ap": ap,
            "damage": damage,
            "abilities": list(abilities),
        }
    )


def unit(models=5, toughness=4, save=3, wounds=1, invulnerable=None, fnp=None, keywords=()):
    return TargetUnit.uniform(models, toughness, save, wounds, invulnerable, fnp, keywords)


def context(edition=ELEVENTH, **kwargs) -> AttackContext:
    return AttackContext(edition=edition, **kwargs)


def attacker(profile: WeaponProfile, models: int = 1, keywords=()) -> Attacker:
    return Attacker(profile, models, frozenset(keywords))


both_editions = pytest.mark.parametrize("edition", [ELEVENTH, TENTH], ids=["11e", "10e"])
