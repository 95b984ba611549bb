"""The Charge phase (11e 11; 10e Charge phase).

A unit is eligible to declare a charge when it is on the battlefield, unengaged, and did not
advance or fall back this turn (09.06, 09.07). Its targets are enemy units within `charge_range`.
Charge roll: 2D6. If the roll cannot bring it within engagement range of every target (closest
distance minus engagement range), the charge fails. Otherwise its owner makes the charge move
(a pending decision): each model up to the roll, ending within engagement range of every target
and of no other enemy unit; or declines.
"""

from __future__ import annotations

from typing import Any

from rules.engine import windows
from rules.engine.citations import cite
from rules.engine.decisions import push_decision
from rules.engine.events import Context
from rules.engine.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.placement import (
    check_distance,
    check_no_overlap,
    check_on_battlefield,
    engaged_units,
    is_engaged,
    moved,
    place,
    read_positions,
)
from rules.engine.refusals import Refusal
from rules.engine.rolls import roll
from rules.engine.selection import own_unit
from rules.engine.sequencing import continuation, resume
from rules.engine.state import State, on_battlefield, unit_distance
from rules.engine.stratagem_effects import charges


def ineligibility(state: State, unit: dict[str, Any]) -> Refusal | None:
    name = unit["name"]
    if not on_battlefield(unit):
        return Refusal(
            "not_on_battlefield", cite(state, "charge_phase"), f"{name} is not on the battlefield."
        )
    if has_acted(state, unit["id"]):
        return Refusal(
            "already_acted",
            cite(state, "once_per_phase"),
            f"{name} has already been selected this phase.",
        )
    if is_engaged(state, unit):
        return Refusal(
            "engaged",
            cite(state, "charge_phase"),
            f"{name} is engaged and cannot declare a charge.",
        )
    if has_flag(state, unit["id"], "advanced"):
        return Refusal(
            "advanced",
            cite(state, "advance"),
            f"{name} advanced this turn and cannot declare a charge.",
        )
    if has_flag(state, unit["id"], "fell_back"):
        return Refusal(
            "fell_back",
            cite(state, "fall_back"),
            f"{name} fell back this turn and cannot declare a charge.",
        )
    return None


def charge_targets(state: State, unit: dict[str, Any]) -> list[str]:
    reach = state["edition"]["charge_range"]
    return sorted(
        other["id"]
        for other in state["units"].values()
        if other["player"] != unit["player"] and unit_distance(unit, other) <= reach
    )


def charge_in_progress(state: State) -> bool:
    return any(d["kind"] == "charge_move" for d in state["pending"])


def declare_charge(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    unit = own_unit(ctx, action, cite(state, "charge_phase"))
    refusal = ineligibility(state, unit)
    if refusal is not None:
        raise refusal
    targets = action.get("targets")
    allowed = charge_targets(state, unit)
    if not isinstance(targets, list) or not targets or any(t not in allowed for t in targets):
        raise Refusal(
            "invalid_charge_target",
            cite(state, "charge_phase"),
            f'Charge targets must be enemy units within {state["edition"]["charge_range"]:g}".',
            {"allowed": allowed},
        )
    targets = sorted(set(targets))
    mark_acted(ctx, unit["id"])
    ctx.emit("charge_declared", unit=unit["id"], targets=targets)
    # Stratagem windows just after the declaration (Blind Grenades), then the roll.
    windows.open_window(
        ctx,
        ["charge_declared", "enemy_charge_declared"],
        {"unit": unit["id"], "targets": targets},
        {"step": "charge_roll", "unit": unit["id"], "targets": targets},
    )


@continuation("charge_roll")
def _charge_roll(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    unit, targets = state["units"][data["unit"]], data["targets"]
    record = roll(
        ctx,
        2,
        "charge",
        cite(state, "charge_phase"),
        unit["player"],
        unit["id"],
        modifier=charges.charge_roll_modifier(state, unit["id"], targets),
    )
    # Just after the roll: its window (Command Re-roll), then the charge goes on with the roll.
    windows.after_roll(
        ctx, record, {"step": "charge_rolled", "unit": unit["id"], "targets": targets}
    )


@continuation("charge_rolled")
def _charge_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    unit, targets, record = state["units"][data["unit"]], data["targets"], data["roll"]
    reach = state["edition"]["engagement_range_horizontal"]
    needed = max(unit_distance(unit, state["units"][t]) - reach for t in targets)
    if record["total"] < needed:
        ctx.emit("charge_failed", unit=unit["id"], roll=record["total"], needed=round(needed, 3))
        return
    push_decision(
        ctx,
        unit["player"],
        "charge_move",
        {"unit": unit["id"], "max_distance": record["total"], "targets": targets},
        {
            "step": "charge_move",
            "unit": unit["id"],
            "max_distance": record["total"],
            "targets": targets,
        },
        cite(state, "charge_phase"),
        f'Charge move {unit["name"]} up to {record["total"]}" (or decline with null).',
    )


@continuation("charge_move")
def _charge_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    if choice is None:
        ctx.emit("charge_move_declined", unit=unit["id"])
        carry_on_after_charge(ctx, data)
        return
    read = read_positions(unit, choice, cite(state, "charge_phase"))
    check_distance(unit, read, data["max_distance"], cite(state, "charge_phase"))
    models = moved(unit, read)
    check_on_battlefield(state, models, cite(state, "charge_phase"))
    check_no_overlap(state, unit, models, cite(state, "charge_phase"))
    engaged = set(engaged_units(state, unit, models))
    if not set(data["targets"]) <= engaged:
        raise Refusal(
            "charge_not_engaged",
            cite(state, "charge_phase"),
            "End the charge move engaged with every target.",
        )
    if engaged - set(data["targets"]):
        raise Refusal(
            "charge_engages_other",
            cite(state, "charge_phase"),
            "A charge move cannot end engaged with a unit it did not charge.",
        )
    place(unit, read)
    set_flag(ctx, unit["id"], "charged")
    ctx.emit("unit_charged", unit=unit["id"], positions=read, targets=data["targets"])
    windows.open_window(ctx, "charge_move_ended", {"unit": unit["id"]}, data.get("then"))


def carry_on_after_charge(ctx: Context, data: dict[str, Any]) -> None:
    """A charge resolved for another rule (Heroic Intervention) carries on with its `then`."""
    if data.get("then") is not None:
        resume(ctx, data["then"])
