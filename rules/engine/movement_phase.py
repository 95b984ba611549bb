"""The Movement phase (11e 09; 10e Movement phase): move units, then reinforcements.

Each of the active player's units on the battlefield is selected once: it remains stationary
(09.04), makes a normal move (unengaged; up to M; 09.05), an advance move (unengaged; advance
roll D6, up to M + roll; 09.06) or a fall-back move (engaged; up to M; 09.07 / 10e Fall Back
Moves). Every move is checked by the battlefield (`movement.validate_move` through
`placement.check_move`): distance per model, the battlefield edge, enemy models, terrain,
engagement range, ending on models or markers, coherency. Then strategic reserves arrive from the
mission's `arrive_from_battle_round` (11e 20.03-20.04 ingress move; 10e Strategic Reserves), or by
Deep Strike (`setting_up.check_reserves_arrival` / `check_deep_strike`).

Fall back (strategy `fall_back`):
- 11e `ordered_retreat_or_desperate_escape`: select a mode; Ordered Retreat only when not
  battle-shocked; Desperate Escape makes a hazard roll per model (06.03: 1-2 fails, 1 mortal wound,
  3 if every model is MONSTER/VEHICLE), then a battle-shock roll if not already battle-shocked,
  then the move, which may pass through enemy models.
- 10e `desperate_escape_tests`: the player gives the move first; the battlefield reports the
  models that would move over enemy models (every model when the unit is battle-shocked); each
  takes a Desperate Escape test (D6, 1-2: one model, selected by its owner, is destroyed) before
  the survivors are moved (10e Desperate Escape Tests).
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
from rules.engine.placement import (
    battlefield_of,
    check_move,
    edition_of,
    final_positions,
    is_engaged,
    others_on_table,
    place,
    read_positions,
    unit_placements,
)
from rules.engine.refusals import Refusal
from rules.engine.rolls import roll
from rules.engine.rule_registry import implements
from rules.engine.selection import own_unit
from rules.engine.sequencing import continuation
from rules.engine.setting_up import check_deep_strike, check_reserves_arrival
from rules.engine.state import alive_models, on_battlefield, opponent
from rules.engine.transports import must_move_after_disembark, note_move_made


def movement_characteristics(state: dict[str, Any], unit: dict[str, Any]) -> dict[str, float]:
    """Each model's M now (effects included): every model moves up to its own M (03.01)."""
    return {m["id"]: float(characteristic(state, unit["id"], m, "M")) for m in alive_models(unit)}


def movement_characteristic(state: dict[str, Any], unit: dict[str, Any]) -> float:
    """The slowest model's M: how far the whole unit can move together."""
    return min(movement_characteristics(state, unit).values())


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


def _move(
    ctx: Context, unit: dict[str, Any], positions: Any, move_type: str, rule: str, **details: Any
) -> None:
    """Check the move with the battlefield, then make it."""
    read = read_positions(unit, positions, rule)
    movement = movement_characteristics(ctx.state, unit)
    check_move(ctx.state, unit, read, move_type, movement, **details)
    place(unit, read)
    ctx.emit("unit_moved", unit=unit["id"], positions=final_positions(read), rule=rule)


def remain_stationary(ctx: Context, action: dict[str, Any]) -> None:
    """09.04 Remain stationary: no model moves (engaged units may too)."""
    if isinstance(action.get("unit"), str) and action["unit"] in must_move_after_disembark(
        ctx.state
    ):
        raise Refusal(
            "tactical_disembark_move",
            cite(ctx.state, "disembark"),
            "After a tactical disembark the unit makes a normal or advance move.",
        )
    unit = _select(ctx, action, None)
    set_flag(ctx, unit["id"], "remained_stationary")
    ctx.emit("unit_remained_stationary", unit=unit["id"])


def normal_move(ctx: Context, action: dict[str, Any]) -> None:
    """09.05 Normal move: unengaged, up to M, ending unengaged."""
    unit = _select(ctx, action, False)
    _move(ctx, unit, action.get("positions"), "normal", cite(ctx.state, "normal_move"))
    set_flag(ctx, unit["id"], "moved")
    note_move_made(ctx.state, unit["id"])


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
        {"unit": unit["id"], "max_distance": maximum, "advance_roll": record["total"]},
        {"step": "advance_move", "unit": unit["id"], "advance_roll": record["total"]},
        cite(ctx.state, "advance"),
        f'Advance {unit["name"]} up to {maximum:g}".',
    )


@continuation("advance_move")
def _advance_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    bonus = data["advance_roll"]
    _move(ctx, unit, choice, "advance", cite(ctx.state, "advance"), bonus=bonus)
    set_flag(ctx, unit["id"], "moved")
    set_flag(ctx, unit["id"], "advanced")
    note_move_made(ctx.state, unit["id"])


def fall_back(ctx: Context, action: dict[str, Any]) -> None:
    """09.07 / 10e Fall Back: select the mode (when there is a choice), then resolve it."""
    unit = _select(ctx, action, True)
    if ctx.state["edition"]["fall_back"] == "desperate_escape_tests":
        _ask_fall_back_move(ctx, unit, None)
        return
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
    """11e 09.07: Ordered Retreat moves at once; Desperate Escape first makes a hazard roll per
    model and then, if the unit was not battle-shocked, a battle-shock roll."""
    state = ctx.state
    ctx.emit("fall_back_mode_selected", unit=unit["id"], mode=mode)
    if mode != "desperate_escape":
        _ask_fall_back_move(ctx, unit, mode)
        return
    then = {
        "step": "fall_back_after_escape",
        "unit": unit["id"],
        "was_battle_shocked": is_battle_shocked(state, unit["id"]),
    }
    record = roll(
        ctx,
        len(alive_models(unit)),
        "hazard",
        cite(ctx.state, "hazard_roll"),
        unit["player"],
        unit["id"],
    )
    failures = sum(1 for value in record["values"] if value <= state["edition"]["hazard_fail_max"])
    every_big = "MONSTER" in unit["keywords"] or "VEHICLE" in unit["keywords"]
    per_failure = (
        state["edition"]["hazard_mortal_wounds_monster_vehicle"]
        if every_big
        else state["edition"]["hazard_mortal_wounds"]
    )
    allocate_mortal_wounds(ctx, unit["id"], failures * per_failure, "hazard roll", then)


@continuation("fall_back_after_escape")
def _after_escape(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    if not data["was_battle_shocked"]:
        battle_shock_roll(ctx, unit, "desperate escape (09.07)")
    _ask_fall_back_move(ctx, unit, "desperate_escape")


def _ask_fall_back_move(ctx: Context, unit: dict[str, Any], mode: str | None) -> None:
    maximum = movement_characteristic(ctx.state, unit)
    push_decision(
        ctx,
        unit["player"],
        "fall_back_move",
        {"unit": unit["id"], "max_distance": maximum, "mode": mode},
        {"step": "fall_back_move", "unit": unit["id"], "mode": mode},
        cite(ctx.state, "fall_back"),
        f'Fall back with {unit["name"]} up to {maximum:g}", ending unengaged (null: it stays).',
    )


@continuation("fall_back_move")
def _fall_back_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    rule = cite(state, "fall_back")
    if choice is None:
        # Ruling R-MV-03: a unit that cannot (or will not) complete its fall-back move stays
        # where it is; it was still selected to fall back.
        ctx.emit("fall_back_move_abandoned", unit=unit["id"])
        set_flag(ctx, unit["id"], "fell_back")
        return
    read = read_positions(unit, choice, rule)
    result = check_move(
        state,
        unit,
        read,
        "fall_back",
        movement_characteristics(state, unit),
        mode=data["mode"],
        battle_shocked=is_battle_shocked(state, unit["id"]),
    )
    then = {"step": "fall_back_made", "unit": unit["id"], "positions": final_positions(read)}
    if not result.desperate_escape_models:
        _make_fall_back(ctx, then)
        return
    record = roll(
        ctx,
        len(result.desperate_escape_models),
        "desperate_escape",
        cite(state, "desperate_escape"),
        unit["player"],
        unit["id"],
    )
    failures = sum(
        1 for value in record["values"] if value <= state["edition"]["desperate_escape_fail_max"]
    )
    destroy_chosen_models(ctx, unit["id"], failures, "desperate escape test", then)


def _make_fall_back(ctx: Context, data: dict[str, Any]) -> None:
    """The surviving models take the positions the move gave them."""
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    survivors = {m["id"] for m in alive_models(unit)}
    positions = {k: v for k, v in data["positions"].items() if k in survivors}
    place(unit, read_positions(unit, positions, cite(ctx.state, "fall_back")))
    ctx.emit("unit_moved", unit=unit["id"], positions=positions, rule=cite(ctx.state, "fall_back"))
    set_flag(ctx, unit["id"], "moved")
    set_flag(ctx, unit["id"], "fell_back")
    note_move_made(ctx.state, unit["id"])


@continuation("fall_back_made")
def _fall_back_made(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _make_fall_back(ctx, data)


# --- reinforcements -----------------------------------------------------------------------


@implements("ability", "deep-strike")
def arrival_methods(state: dict[str, Any], unit: dict[str, Any]) -> list[str]:
    """How a unit in reserves may arrive: an ingress move (11e 20.04; 10e Strategic Reserves),
    and Deep Strike when every part of the unit has the ability."""
    methods = ["ingress"]
    if all("Deep Strike" in _part_abilities(state, part) for part in unit["parts"]):
        methods.append("deep_strike")
    return methods


def _part_abilities(state: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    sheet = state["datasheets"].get(part["datasheet"], {})
    return {a["name"]: a.get("parameter") for a in sheet.get("abilities", [])}


def can_arrive(state: dict[str, Any], unit: dict[str, Any]) -> bool:
    return (
        unit["location"] == "strategic_reserves"
        and state["battle_round"] >= state["mission"]["reserves"]["arrive_from_battle_round"]
        and not has_acted(state, unit["id"])
    )


def arrive(ctx: Context, action: dict[str, Any]) -> None:
    """20.03-20.04 Arriving from strategic reserves (Reinforcements step): an ingress move
    (wholly within 6" of an edge, more than 8"/9" from enemies, not in the opponent's zone
    before battle round 3), or Deep Strike (more than 9"/8" from enemy models)."""
    state = ctx.state
    rule = cite(state, "arrive_from_reserves")
    unit = own_unit(ctx, action, rule)
    if not can_arrive(state, unit):
        raise Refusal(
            "cannot_arrive",
            rule,
            f"{unit['name']} cannot arrive now: strategic reserves arrive from battle round "
            f"{state['mission']['reserves']['arrive_from_battle_round']}, once.",
        )
    method = action.get("method", "ingress")
    if method not in arrival_methods(state, unit):
        raise Refusal(
            "invalid_arrival",
            rule,
            f"{unit['name']} can arrive by: {', '.join(arrival_methods(state, unit))}.",
        )
    read = read_positions(unit, action.get("positions"), rule)
    arriving, others = unit_placements(state, unit, read), others_on_table(state, unit)
    battlefield, edition = battlefield_of(state), edition_of(state)
    if method == "deep_strike":
        check_deep_strike(battlefield, edition, arriving, others)
    else:
        check_reserves_arrival(
            battlefield, edition, arriving, others, state["battle_round"], opponent(unit["player"])
        )
    mark_acted(ctx, unit["id"])
    place(unit, read)
    unit["location"] = "battlefield"
    set_flag(ctx, unit["id"], "arrived_from_reserves")
    state["facts"]["phase"].setdefault("arrival_methods", {})[unit["id"]] = method
    ctx.emit("unit_arrived", unit=unit["id"], positions=final_positions(read), method=method)
