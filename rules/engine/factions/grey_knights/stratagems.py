"""Stratagems whose effect reacts to enemy units being set up or ending moves (`reactions`).

- Fires of Covenant (Grey Knights, Warpbane Task Force): start of the opponent's Movement phase;
  one INFANTRY unit. Until the end of the phase, each time an enemy unit is set up or ends a
  Normal, Advance or Fall Back move within 6" of it, roll one D6 (+2 if the unit is wholly within
  its army's Hallowed Ground): on a 4+ that enemy unit suffers D3 mortal wounds.

The stratagem leaves an effect `{"reaction": "fires-of-covenant"}` on its unit for the phase; the
reaction below reads it whenever a unit is set up or ends a move.
"""

from __future__ import annotations

from typing import Any

from rules.engine.attacks.casualties import allocate_mortal_wounds
from rules.engine.core.effects import add_effect, effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.reactions import ReactionPoint, enemy_units_of, reacts_to
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import carry_on, continuation, resume
from rules.engine.core.state import State, on_battlefield, unit_distance
from rules.engine.factions.grey_knights import hallowed_ground
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import has_keywords, own_units

FIRES_OF_COVENANT = "fires-of-covenant"
FIRES_RANGE = 6.0
FIRES_HALLOWED_BONUS = 2
FIRES_SUCCESS = 4


def _fires_of_covenant(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    effect = {"reaction": FIRES_OF_COVENANT}
    add_effect(ctx, use.slug, {"unit": use.target}, effect, "end_of_phase", use.player)
    carry_on(ctx, then)


implements(FIRES_OF_COVENANT, targets=own_units(has_keywords("INFANTRY")))(_fires_of_covenant)


def _covenant_units(state: State, point: ReactionPoint) -> list[str]:
    """The enemy units under Fires of Covenant within 6" of the unit (one roll each)."""
    moved = state["units"][point.unit]
    return [
        unit["id"]
        for unit in enemy_units_of(state, point)
        if on_battlefield(unit)
        and any(
            e["modifier"].get("reaction") == FIRES_OF_COVENANT
            for e in effects_on_unit(state, unit["id"])
        )
        and unit_distance(unit, moved) <= FIRES_RANGE
    ]


@reacts_to(FIRES_OF_COVENANT, "set_up", "move_ended")
def _fires_of_covenant_reaction(ctx: Context, point: ReactionPoint, then: dict[str, Any]) -> None:
    if point.moment == "move_ended" and not point.ended_a_move():
        resume(ctx, then)
        return
    _next_fire(ctx, point.unit, _covenant_units(ctx.state, point), then)


def _next_fire(ctx: Context, target: str, burning: list[str], then: dict[str, Any]) -> None:
    state = ctx.state
    if not burning or not on_battlefield(state["units"][target]):
        resume(ctx, then)
        return
    unit = state["units"][burning[0]]
    rule = state["stratagems"][FIRES_OF_COVENANT]["name"]
    bonus = (
        FIRES_HALLOWED_BONUS
        if hallowed_ground.unit_wholly_within(state, unit["player"], unit)
        else 0
    )
    record = roll(ctx, 1, "fires_of_covenant", rule, unit["player"], unit["id"], modifier=bonus)
    rest = {
        "step": "fires_of_covenant_next",
        "target": target,
        "burning": burning[1:],
        "then": then,
    }
    if record["total"] < FIRES_SUCCESS:
        resume(ctx, rest)
        return
    wounds = roll(ctx, 1, "mortal_wounds", rule, unit["player"], unit["id"], sides=3)
    allocate_mortal_wounds(ctx, target, wounds["total"], rule, rest)


@continuation("fires_of_covenant_next")
def _fires_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _next_fire(ctx, data["target"], data["burning"], data["then"])
