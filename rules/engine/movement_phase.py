"""The Movement phase (11e 09; 10e Movement phase): move units, then reinforcements.

Each of the active player's units on the battlefield is selected once: it remains stationary,
makes a normal move (unengaged; up to M; 09.05), an advance move (unengaged; advance roll D6, up to
M + roll; 09.06) or a fall-back move (engaged; up to M; 09.07 / 10e Fall Back Moves). No move may
end within engagement range of an enemy (the unit must end unengaged). Strategic reserves arrive
from the mission's `arrive_from_battle_round` (20.03): wholly within `reserves_edge_distance` of a
battlefield edge, not in the enemy deployment zone, more than `reserves_enemy_distance` from every
enemy model.

Fall back (strategy `fall_back`):
- 11e `ordered_retreat_or_desperate_escape`: select a mode; Ordered Retreat only when not
  battle-shocked; Desperate Escape makes a hazard roll per model (06.03: 1-2 fails, 1 mortal wound,
  3 if every model is MONSTER/VEHICLE) and then a battle-shock roll if not already battle-shocked.
- 10e `desperate_escape_tests`: a battle-shocked unit takes a Desperate Escape test for every model
  (D6, 1-2: one model, selected by you, is destroyed).
"""

from __future__ import annotations

from typing import Any

from rules.engine import windows
from rules.engine.battle_shock import battle_shock_roll, fall_back_modes, is_battle_shocked
from rules.engine.casualties import allocate_mortal_wounds, destroy_chosen_models
from rules.engine.citations import cite
from rules.engine.decisions import push_decision
from rules.engine.effects import characteristic
from rules.engine.events import Context
from rules.engine.facts import has_acted, mark_acted, set_flag
from rules.engine.missions import wholly_within_edge_distance, within_enemy_zone
from rules.engine.placement import (
    check_distance,
    check_no_overlap,
    check_on_battlefield,
    closest_enemy_distance,
    engaged_units,
    is_engaged,
    moved,
    place,
    read_positions,
)
from rules.engine.refusals import Refusal
from rules.engine.rolls import roll
from rules.engine.selection import own_unit
from rules.engine.sequencing import continuation
from rules.engine.state import alive_models, on_battlefield


def movement_characteristic(state: dict[str, Any], unit: dict[str, Any]) -> float:
    """The slowest model's M now (effects included): every model moves up to its own M, and the
    straight-line check here uses the least of them."""
    return float(min(characteristic(state, unit["id"], m, "M") for m in alive_models(unit)))


def _select(ctx: Context, action: dict[str, Any], engaged: bool | None) -> dict[str, Any]:
    unit = own_unit(ctx, action, cite(ctx.state, "movement_phase"))
    if not on_battlefield(unit):
        raise Refusal(
            "not_on_battlefield",
            cite(ctx.state, "movement_phase"),
            f"{unit['name']} is not on the battlefield.",
        )
    if has_acted(ctx.state, unit["id"]):
        raise Refusal(
            "already_acted",
            cite(ctx.state, "once_per_phase"),
            f"{unit['name']} has already been selected this phase; a unit acts once per phase.",
        )
    if engaged is not None and is_engaged(ctx.state, unit) != engaged:
        if engaged:
            raise Refusal(
                "not_engaged",
                cite(ctx.state, "fall_back"),
                f"{unit['name']} is not engaged; it cannot fall back.",
            )
        raise Refusal(
            "engaged",
            cite(ctx.state, "normal_move"),
            f"{unit['name']} is engaged: it can only fall back or remain stationary.",
        )
    mark_acted(ctx, unit["id"])
    return unit


def _finish_move(
    ctx: Context, unit: dict[str, Any], positions: Any, maximum: float, rule: str
) -> None:
    read = read_positions(unit, positions, rule)
    check_distance(unit, read, maximum, rule)
    models = moved(unit, read)
    check_on_battlefield(ctx.state, models, rule)
    check_no_overlap(ctx.state, unit, models, rule)
    if engaged_units(ctx.state, unit, models):
        raise Refusal(
            "ends_engaged",
            rule,
            f"{unit['name']} must end its move unengaged (outside engagement range).",
        )
    place(unit, read)
    ctx.emit("unit_moved", unit=unit["id"], positions=read, rule=rule)


def remain_stationary(ctx: Context, action: dict[str, Any]) -> None:
    unit = _select(ctx, action, None)
    set_flag(ctx, unit["id"], "remained_stationary")
    ctx.emit("unit_remained_stationary", unit=unit["id"])


def normal_move(ctx: Context, action: dict[str, Any]) -> None:
    """09.05 Normal move: unengaged, up to M, ending unengaged."""
    unit = _select(ctx, action, False)
    _finish_move(
        ctx,
        unit,
        action.get("positions"),
        movement_characteristic(ctx.state, unit),
        cite(ctx.state, "normal_move"),
    )
    set_flag(ctx, unit["id"], "moved")


def advance(ctx: Context, action: dict[str, Any]) -> None:
    """09.06 Advance: roll one D6 before moving; move up to M + the roll."""
    unit = _select(ctx, action, False)
    record = roll(ctx, 1, "advance", cite(ctx.state, "advance"), unit["player"], unit["id"])
    # Just after the roll: re-rolls (Order the Advance) and its window (Command Re-roll).
    windows.after_roll(ctx, record, {"step": "advance_rolled", "unit": unit["id"]})


@continuation("advance_rolled")
def _advance_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit, record = ctx.state["units"][data["unit"]], data["roll"]
    maximum = movement_characteristic(ctx.state, unit) + record["total"]
    push_decision(
        ctx,
        unit["player"],
        "advance_move",
        {"unit": unit["id"], "max_distance": maximum},
        {"step": "advance_move", "unit": unit["id"], "max_distance": maximum},
        cite(ctx.state, "advance"),
        f'Advance {unit["name"]} up to {maximum:g}".',
    )


@continuation("advance_move")
def _advance_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    _finish_move(ctx, unit, choice, data["max_distance"], cite(ctx.state, "advance"))
    set_flag(ctx, unit["id"], "moved")
    set_flag(ctx, unit["id"], "advanced")


def fall_back(ctx: Context, action: dict[str, Any]) -> None:
    """09.07 / 10e Fall Back: select the mode (when there is a choice), then resolve it."""
    unit = _select(ctx, action, True)
    modes = fall_back_modes(ctx.state, unit["id"])
    if len(modes) == 1:
        _resolve_fall_back_mode(ctx, unit, modes[0])
        return
    push_decision(
        ctx,
        unit["player"],
        "choose_fall_back_mode",
        modes,
        {"step": "fall_back_mode_chosen", "unit": unit["id"]},
        cite(ctx.state, "fall_back"),
        f"Select the fall-back mode of {unit['name']}.",
    )


@continuation("fall_back_mode_chosen")
def _fall_back_mode_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    _resolve_fall_back_mode(ctx, ctx.state["units"][data["unit"]], choice)


def _resolve_fall_back_mode(ctx: Context, unit: dict[str, Any], mode: str) -> None:
    state = ctx.state
    ctx.emit("fall_back_mode_selected", unit=unit["id"], mode=mode)
    then = {
        "step": "fall_back_after_escape",
        "unit": unit["id"],
        "mode": mode,
        "was_battle_shocked": is_battle_shocked(state, unit["id"]),
    }
    fail_max = state["edition"]["desperate_escape_fail_max"]
    if mode == "desperate_escape":
        count = len(alive_models(unit))
        record = roll(
            ctx, count, "hazard", cite(ctx.state, "hazard_roll"), unit["player"], unit["id"]
        )
        failures = sum(
            1 for value in record["values"] if value <= state["edition"]["hazard_fail_max"]
        )
        every_big = "MONSTER" in unit["keywords"] or "VEHICLE" in unit["keywords"]
        per_failure = (
            state["edition"]["hazard_mortal_wounds_monster_vehicle"]
            if every_big
            else state["edition"]["hazard_mortal_wounds"]
        )
        allocate_mortal_wounds(ctx, unit["id"], failures * per_failure, "hazard roll", then)
    elif mode == "desperate_escape_every_model":
        count = len(alive_models(unit))
        record = roll(
            ctx,
            count,
            "desperate_escape",
            cite(ctx.state, "desperate_escape"),
            unit["player"],
            unit["id"],
        )
        failures = sum(1 for value in record["values"] if value <= fail_max)
        destroy_chosen_models(ctx, unit["id"], failures, "desperate escape test", then)
    else:
        _ask_fall_back_move(ctx, unit)


@continuation("fall_back_after_escape")
def _after_escape(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    if data["mode"] == "desperate_escape" and not data["was_battle_shocked"]:
        battle_shock_roll(ctx, unit, "desperate escape (09.07)")
    _ask_fall_back_move(ctx, unit)


def _ask_fall_back_move(ctx: Context, unit: dict[str, Any]) -> None:
    maximum = movement_characteristic(ctx.state, unit)
    push_decision(
        ctx,
        unit["player"],
        "fall_back_move",
        {"unit": unit["id"], "max_distance": maximum},
        {"step": "fall_back_move", "unit": unit["id"], "max_distance": maximum},
        cite(ctx.state, "fall_back"),
        f'Fall back with {unit["name"]} up to {maximum:g}", ending unengaged.',
    )


@continuation("fall_back_move")
def _fall_back_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    _finish_move(ctx, unit, choice, data["max_distance"], cite(ctx.state, "fall_back"))
    set_flag(ctx, unit["id"], "moved")
    set_flag(ctx, unit["id"], "fell_back")


def can_arrive(state: dict[str, Any], unit: dict[str, Any]) -> bool:
    return (
        unit["location"] == "strategic_reserves"
        and state["battle_round"] >= state["mission"]["reserves"]["arrive_from_battle_round"]
        and not has_acted(state, unit["id"])
    )


def arrive(ctx: Context, action: dict[str, Any]) -> None:
    """20.03 Arriving from strategic reserves (Reinforcements step)."""
    state = ctx.state
    unit = own_unit(ctx, action, cite(ctx.state, "arrive_from_reserves"))
    if not can_arrive(state, unit):
        raise Refusal(
            "cannot_arrive",
            cite(ctx.state, "arrive_from_reserves"),
            f"{unit['name']} cannot arrive now: strategic reserves arrive from battle round "
            f"{state['mission']['reserves']['arrive_from_battle_round']}, once.",
        )
    read = read_positions(unit, action.get("positions"), cite(ctx.state, "arrive_from_reserves"))
    models = [{**m, "x": read[m["id"]][0], "y": read[m["id"]][1]} for m in alive_models(unit)]
    edge = state["edition"]["reserves_edge_distance"]
    for model in models:
        if not wholly_within_edge_distance(state["mission"], model, edge):
            raise Refusal(
                "not_near_edge",
                cite(ctx.state, "arrive_from_reserves"),
                f'Set up wholly within {edge:g}" of a battlefield edge.',
            )
        if within_enemy_zone(state["mission"], unit["player"], model):
            raise Refusal(
                "in_enemy_zone",
                cite(ctx.state, "arrive_from_reserves"),
                "Strategic reserves cannot arrive in the enemy deployment zone.",
            )
    keep_away = state["edition"]["reserves_enemy_distance"]
    if closest_enemy_distance(state, unit, models) <= keep_away:
        raise Refusal(
            "too_close_to_enemy",
            cite(ctx.state, "arrive_from_reserves"),
            f'Set up more than {keep_away:g}" from every enemy model.',
        )
    check_on_battlefield(state, models, cite(ctx.state, "arrive_from_reserves"))
    check_no_overlap(state, unit, models, cite(ctx.state, "arrive_from_reserves"))
    mark_acted(ctx, unit["id"])
    place(unit, read)
    unit["location"] = "battlefield"
    set_flag(ctx, unit["id"], "arrived_from_reserves")
    ctx.emit("unit_arrived", unit=unit["id"], positions=read)
