"""Datasheet abilities that react to an enemy unit ending a move (`reactions`).

- Screening Line (Death Riders): once per turn, when an enemy unit ends a Normal, Advance or Fall
  Back move within 9" of this unit, if this unit is not within Engagement Range of one or more
  enemy units, it can make a Normal move of up to 6" (`out_of_sequence_moves.offer_normal_move`:
  the controller gives the positions, or null to stay; declining does not use the once per
  turn, rulings R-OW-08).
"""

from __future__ import annotations

from typing import Any

from rules.engine.events import Context
from rules.engine.facts import has_flag
from rules.engine.out_of_sequence_moves import offer_normal_move
from rules.engine.placement import is_engaged
from rules.engine.reactions import ReactionPoint, enemy_units_of, reacts_to
from rules.engine.rule_registry import implements
from rules.engine.sequencing import continuation, resume
from rules.engine.state import State, on_battlefield, unit_distance

SCREENING_LINE = "Screening Line"
SCREENING_RANGE = 9.0
SCREENING_MOVE = 6.0
SCREENING_USED = "screening_line_used"  # a flag of this turn (facts.turn)


def _has_ability(state: State, unit: dict[str, Any], name: str) -> bool:
    return any(
        ability.get("name") == name
        for part in unit["parts"]
        for ability in state["datasheets"].get(part["datasheet"], {}).get("abilities", [])
    )


@implements("datasheet-ability", "death-riders/screening-line")
def screening_line_units(state: State, point: ReactionPoint) -> list[str]:
    """The enemy units with Screening Line that may move now: within 9" of the unit that ended
    its move, unengaged, not having used it this turn."""
    moved = state["units"][point.unit]
    return [
        unit["id"]
        for unit in enemy_units_of(state, point)
        if on_battlefield(unit)
        and _has_ability(state, unit, SCREENING_LINE)
        and not has_flag(state, unit["id"], SCREENING_USED)
        and not is_engaged(state, unit)
        and unit_distance(unit, moved) <= SCREENING_RANGE
    ]


@reacts_to("screening-line", "move_ended")
def _screening_line(ctx: Context, point: ReactionPoint, then: dict[str, Any]) -> None:
    if not point.ended_a_move():
        resume(ctx, then)
        return
    _next_screen(ctx, screening_line_units(ctx.state, point), then)


def _next_screen(ctx: Context, screens: list[str], then: dict[str, Any]) -> None:
    if not screens:
        resume(ctx, then)
        return
    offer_normal_move(
        ctx,
        screens[0],
        SCREENING_MOVE,
        source="screening-line",
        rule=SCREENING_LINE,
        flags_if_moved=(SCREENING_USED,),
        then={"step": "screening_line_moved", "rest": screens[1:], "then": then},
    )


@continuation("screening_line_moved")
def _screening_line_moved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _next_screen(ctx, data["rest"], data["then"])
