"""Starting strength and half-strength (11e 01.02.01; 10e Attached Units, Starting Strength).

The starting strength of a unit is the number of models it contains at the start of the first
battle round, attached units included. What an attached unit's surviving part counts is an edition
strategy (`attached_starting_strength`):

- `attached_unit_at_first_round` (11e): the attached unit keeps its starting strength, so a lone
  Captain left of a Captain and five Intercessors (6) is below half-strength;
- `surviving_part_reverts` (10e): when the Leader or the Bodyguard part is destroyed, the
  survivor's starting strength reverts to its own (the Captain reverts to 1).

A unit of starting strength 1 is measured by its model's wounds (half of W); otherwise by models.
A unit (or model) whose starting strength (or W) is odd can never be exactly at half-strength.
"""

from __future__ import annotations

from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, alive_models

FULL = "full"
BELOW_STARTING = "below_starting_strength"
AT_HALF = "at_half_strength"
BELOW_HALF = "below_half_strength"


def record_starting_strengths(state: State) -> None:
    """Start of battle round 1: note each unit's and each part's model count. The parts are
    replaced, not changed in place: every version of the game's state shares them
    (`state.SHARED_UNIT_MEMBERS`)."""
    for unit in state["units"].values():
        alive = alive_models(unit)
        unit["starting_strength"] = len(alive)
        unit["parts"] = [
            {**part, "starting_strength": sum(1 for m in alive if m["part"] == index)}
            for index, part in enumerate(unit["parts"])
        ]


def starting_strength(state: State, unit: Unit) -> int:
    """The unit's starting strength now (before battle round 1: its current size)."""
    if unit["starting_strength"] is None:
        return len(unit["models"])
    if state["edition"]["attached_starting_strength"] == "surviving_part_reverts":
        surviving = {m["part"] for m in alive_models(unit)}
        if surviving and len(surviving) < len(unit["parts"]):
            return sum(
                part["starting_strength"] or 0
                for index, part in enumerate(unit["parts"])
                if index in surviving
            )
    return unit["starting_strength"]


def strength(state: State, unit: Unit) -> str:
    """FULL, BELOW_STARTING, AT_HALF or BELOW_HALF, as 01.02.01 defines them."""
    alive = alive_models(unit)
    if not alive:
        return BELOW_HALF
    total = starting_strength(state, unit)
    if total == 1:
        model = alive[0]
        left, most = model["wounds_left"], model["W"]
        if 2 * left < most:
            return BELOW_HALF
        if 2 * left == most:
            return AT_HALF
        return FULL
    if 2 * len(alive) < total:
        return BELOW_HALF
    if 2 * len(alive) == total:
        return AT_HALF
    if len(alive) < total:
        return BELOW_STARTING
    return FULL


def at_or_below_half_strength(state: State, unit: Unit) -> bool:
    return strength(state, unit) in (AT_HALF, BELOW_HALF)


def below_half_strength(state: State, unit: Unit) -> bool:
    return strength(state, unit) == BELOW_HALF


def is_half_strength(state: State, unit: Unit) -> bool:
    """ "Half-strength" as the edition's rules use it (`half_strength` parameter)."""
    if state["edition"]["half_strength"] == "at_or_below_half":
        return at_or_below_half_strength(state, unit)
    return below_half_strength(state, unit)
