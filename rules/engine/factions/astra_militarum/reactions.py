"""Rules that react to an enemy unit ending a move or being set up (`reactions`).

- Screening Line (Death Riders): once per turn, when an enemy unit ends a Normal, Advance or Fall
  Back move within 9" of this unit, if this unit is not within Engagement Range of one or more
  enemy units, it can make a Normal move of up to 6" (`out_of_sequence_moves.offer_normal_move`:
  the controller gives the positions, or null to stay; declining does not use the once per
  turn, rulings R-OW-08).
- On My Signal (the Order Squadron Command adds): each time an enemy unit ends a Normal or Advance
  move within 8" of the unit, it can make a Normal move of up to D6", once per turn.
- Reactive Command (Combined Arms enhancement): each time an enemy unit is set up within 8" of
  the bearer's unit, the bearer can issue one Order, not counted towards its Orders.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.placement import is_engaged
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.decisions import push_decision
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.hooks import implements
from rules.engine.core.reactions import ReactionPoint, enemy_units_of, reacts_to
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, on_battlefield
from rules.engine.factions.astra_militarum.orders import (
    Officer,
    current_orders,
    issue_chosen,
    officer_of_model,
    officers,
    order_options,
)
from rules.engine.phases.out_of_sequence_moves import offer_normal_move

SCREENING_LINE = "Screening Line"
SCREENING_RANGE = 9.0
SCREENING_MOVE = 6.0
SCREENING_USED = "screening_line_used"  # a flag of this turn (facts.turn)


def _has_ability(state: State, unit: Unit, name: str) -> bool:
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


# --- On My Signal (the Order of Squadron Command, Armoured Infantry) ---------------------------

ON_MY_SIGNAL = "on-my-signal"
ON_MY_SIGNAL_RULE = "On My Signal"
ON_MY_SIGNAL_RANGE = 8.0
ON_MY_SIGNAL_MOVES = ("normal", "advance")
ON_MY_SIGNAL_USED = "on_my_signal_used"  # a flag of this turn (facts.turn)


@implements("ability", ON_MY_SIGNAL)
def on_my_signal_units(state: State, point: ReactionPoint) -> list[str]:
    """Seed 003 L706-708: the enemy units affected by On My Signal within 8" of the unit that
    ended a Normal or Advance move, not having moved this way this turn."""
    moved = state["units"][point.unit]
    return [
        unit["id"]
        for unit in enemy_units_of(state, point)
        if on_battlefield(unit)
        and ON_MY_SIGNAL in current_orders(state, unit["id"])
        and not has_flag(state, unit["id"], ON_MY_SIGNAL_USED)
        and unit_distance(unit, moved) <= ON_MY_SIGNAL_RANGE
    ]


@reacts_to("on-my-signal", "move_ended")
def _on_my_signal(ctx: Context, point: ReactionPoint, then: dict[str, Any]) -> None:
    if point.move not in ON_MY_SIGNAL_MOVES:
        resume(ctx, then)
        return
    _next_signal(ctx, on_my_signal_units(ctx.state, point), then)


def _next_signal(ctx: Context, signalled: list[str], then: dict[str, Any]) -> None:
    """Each unit in turn: the D6 for its move, then the move (or none)."""
    if not signalled:
        resume(ctx, then)
        return
    unit = ctx.state["units"][signalled[0]]
    record = roll(ctx, 1, "on_my_signal", ON_MY_SIGNAL_RULE, unit["player"], unit["id"])
    offer_normal_move(
        ctx,
        unit["id"],
        float(record["total"]),
        source=ON_MY_SIGNAL,
        rule=ON_MY_SIGNAL_RULE,
        flags_if_moved=(ON_MY_SIGNAL_USED,),
        then={"step": "on_my_signal_moved", "rest": signalled[1:], "then": then},
    )


@continuation("on_my_signal_moved")
def _on_my_signal_moved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _next_signal(ctx, data["rest"], data["then"])


# --- Reactive Command (Combined Arms enhancement) ----------------------------------------------

REACTIVE_COMMAND = "reactive-command"
REACTIVE_COMMAND_RANGE = 8.0


def _reactive_officers(state: State, point: ReactionPoint) -> list[Officer]:
    """The enemy Officers bearing Reactive Command whose unit is within 8" of the unit set up."""
    arrived = state["units"][point.unit]
    return [
        officer
        for officer in officers(state, 3 - point.player)
        if REACTIVE_COMMAND in officer.enhancements
        and unit_distance(state["units"][officer.unit], arrived) <= REACTIVE_COMMAND_RANGE
    ]


@implements("enhancement", REACTIVE_COMMAND)
@reacts_to("reactive-command", "set_up")
def _reactive_command(ctx: Context, point: ReactionPoint, then: dict[str, Any]) -> None:
    """Seed 003 L716-718: each time an enemy unit is set up within 8" of the bearer's unit, the
    bearer can issue one Order, not counted towards its Orders of the battle round."""
    _next_reactive_order(ctx, [o.model for o in _reactive_officers(ctx.state, point)], then)


def _next_reactive_order(ctx: Context, bearers: list[str], then: dict[str, Any]) -> None:
    state = ctx.state
    for index, model in enumerate(bearers):
        officer = officer_of_model(state, model)
        if officer is None:
            continue
        options = order_options(state, officer.player, counted=False, unit_id=officer.unit)
        options = [o for o in options if o["officer"] == model]
        if not options:
            continue
        push_decision(
            ctx,
            officer.player,
            "issue_order",
            [*options, "done"],
            {"step": "reactive_order_chosen", "bearers": bearers[index:], "then": then},
            "Reactive Command",
            'Reactive Command: an enemy unit was set up within 8": issue an Order?',
        )
        return
    resume(ctx, then)


@continuation("reactive_order_chosen")
def _reactive_order_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    bearers = data["bearers"]
    if choice != "done":
        officer = officer_of_model(ctx.state, bearers[0])
        assert officer is not None  # the bearers were Officers when the decision was asked
        issue_chosen(
            ctx,
            officer.player,
            choice,
            [
                o
                for o in order_options(ctx.state, officer.player, counted=False)
                if o["officer"] == bearers[0]
            ],
            counted=False,
        )
    _next_reactive_order(ctx, bearers[1:], data["then"])
