"""Benchmark: the vectorised damage preview against a plain Python loop over the same rules.

    .venv/bin/python bench/attack_preview.py

The loop runs the very same step functions one trial at a time (trials=1), as the game does;
it is timed on fewer trials and scaled per trial. Prints both times and the ratio.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.engine.attacks.dice import GeneratorDice  # noqa: E402
from rules.engine.attacks.profiles import (  # noqa: E402
    AttackContext,
    Attacker,
    TargetUnit,
    WeaponProfile,
)
from rules.engine.attacks.resolution import resolve_weapon_attacks  # noqa: E402
from tests.editions import edition_for  # noqa: E402  (the shipped rule sets, no database)

TRIALS = 100_000
LOOP_TRIALS = 2_000


def scenario(slug: str):
    weapon = WeaponProfile.from_dict(
        {
            "range": 24,
            "attacks": "2",
            "skill": 3,
            "strength": 4,
            "ap": 0,
            "damage": "1",
            "abilities": ["rapid fire 2"],
        }
    )
    target = TargetUnit.uniform(10, 3, 5, 1, keywords={"INFANTRY"})
    return Attacker(weapon, 5), target, AttackContext(edition_for(slug), half_range=True)


def main() -> None:
    for slug in ("11e", "10e"):
        attacker, target, ctx = scenario(slug)
        resolve_weapon_attacks(GeneratorDice(0), 100, attacker, target, ctx)  # warm-up
        start = time.perf_counter()
        resolve_weapon_attacks(GeneratorDice(1), TRIALS, attacker, target, ctx)
        vectorised = time.perf_counter() - start
        dice = GeneratorDice(2)
        start = time.perf_counter()
        for _ in range(LOOP_TRIALS):
            resolve_weapon_attacks(dice, 1, attacker, target, ctx)
        loop = (time.perf_counter() - start) / LOOP_TRIALS * TRIALS
        print(
            f"{slug}: {TRIALS} trials of 20 attacks vs 10 models: vectorised {vectorised:.3f} s, "
            f"python loop {loop:.1f} s (from {LOOP_TRIALS} trials), ratio {loop / vectorised:.0f}x"
        )


if __name__ == "__main__":
    main()
