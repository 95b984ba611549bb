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

from rules.engine.army.attached_units import part_has
from rules.engine.attacks.casualties import (
    allocate_mortal_wounds,
    count_as_destroyed,
    destroy_chosen_models,
    hazard_mortal_wounds,
)
from rules.engine.battlefield.arrival_areas import arrival_areas
from rules.engine.battlefield.placement import (
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
from rules.engine.battlefield.setting_up import (
    check_deep_strike,
    check_reserves_arrival,
    check_set_up_anywhere,
)
from rules.engine.core import reactions, standing_rules, timing
from rules.engine.core.actions import PhaseActions
from rules.engine.core.citations import cite, heading
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import characteristic, granted_keywords
from rules.engine.core.events import Context
from rules.engine.core.facts import (
    has_acted,
    mark_acted,
    note_move_length,
    set_flag,
    unit_flags,
)
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import roll
from rules.engine.core.selection import own_unit
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import (
    ADVANCE_ROLL_REPLACEMENTS,
    ARRIVAL_METHODS,
    ARRIVAL_RESTRICTIONS,
    BEFORE_FALL_BACK,
)
from rules.engine.core.state import (
    State,
    alive_models,
    on_battlefield,
    opponent,
    unit_keywords,
    units_of,
)
from rules.engine.phases.battle_shock import battle_shock_roll, fall_back_modes, is_battle_shocked
from rules.engine.phases.transports import (
    disembark,
    disembark_template,
    embark,
    embark_targets,
    must_move_after_disembark,
    note_move_made,
)


def movement_characteristics(state: State, unit: Unit) -> dict[str, float]:
    """Each model's M now (effects included): every model moves up to its own M (03.01)."""
    return {m["id"]: float(characteristic(state, unit["id"], m, "M")) for m in alive_models(unit)}


def movement_characteristic(state: State, unit: Unit) -> float:
    """The slowest model's M: how far the whole unit can move together."""
    return min(movement_characteristics(state, unit).values())


def _select(ctx: Context, action: dict[str, Any], engaged: bool | None) -> Unit:
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


def takes_to_the_skies(state: State, unit: Unit, action: dict[str, Any]) -> bool:
    """11e §21.03: before moving a FLYING unit in a normal, advance, fall-back or charge move,
    the player may declare that it takes to the skies (`"take_to_the_skies": true` on the
    action). 10e FLY needs no declaration: the flag is refused there."""
    declared = action.get("take_to_the_skies", False)
    rule = cite(state, "fly")
    if not isinstance(declared, bool):
        raise Refusal("invalid_action", rule, "take_to_the_skies is true or false.")
    if not declared:
        return False
    if not state["edition"]["fly_declared_before_moving"]:
        raise Refusal(
            "cannot_take_to_the_skies",
            rule,
            "FLY needs no declaration in this edition: FLY models move over models and terrain.",
        )
    if "FLY" not in unit_keywords(state, unit) | granted_keywords(state, unit):
        raise Refusal(
            "cannot_take_to_the_skies",
            rule,
            f"{unit['name']} cannot FLY, so it cannot take to the skies.",
        )
    return True


def _move(
    ctx: Context,
    unit: Unit,
    positions: Any,
    move_type: str,
    rule: str,
    flags: tuple[str, ...],
    **details: Any,
) -> None:
    """Check the move with the battlefield; then the unit starts it (reactions and windows,
    which may shoot at it: `reactions.announce`), makes it and ends it (again)."""
    read = read_positions(unit, positions, rule)
    movement = movement_characteristics(ctx.state, unit)
    result = check_move(
        ctx.state, unit, read, move_type, movement, granted_keywords(ctx.state, unit), **details
    )
    made = {
        "step": "move_made",
        "unit": unit["id"],
        "positions": final_positions(read),
        "rule": rule,
        "move": move_type,
        "flags": list(flags),
        "longest": max(result.moved.values(), default=0.0),
    }
    reactions.announce(ctx, "move_started", unit["id"], move_type, made)


@continuation("move_made")
def _move_made(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """The surviving models take the positions the checked move gave them (rulings R-OW-02)."""
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    survivors = {m["id"] for m in alive_models(unit)}
    positions = {k: v for k, v in data["positions"].items() if k in survivors}
    place(unit, read_positions(unit, positions, data["rule"]))
    ctx.emit("unit_moved", unit=unit["id"], positions=positions, rule=data["rule"])
    # Saved before the distance was kept: unmeasured (counted as more than 3").
    note_move_length(ctx, unit["id"], data.get("longest"))
    for name in data["flags"]:
        set_flag(ctx, unit["id"], name)
    note_move_made(ctx.state, unit["id"])  # it may embark now (11e 18.02)
    reactions.announce(ctx, "move_ended", unit["id"], data["move"], None)


def unselected_units_remain_stationary(ctx: Context) -> None:
    """The Move Units step ends: every unit of the active player on the battlefield that was not
    selected to move, nor moved or set up otherwise, remained stationary (11e 09.02 "the active
    player must have selected all of their units to make a move ... even if it is to remain
    stationary"; 10e Remain Stationary: units "not selected to move in the Move Units step ...
    are assumed to have Remained Stationary"; rulings R-MV-22)."""
    state = ctx.state
    elsewhere = {"moved", "advanced", "fell_back", "arrived_from_reserves", "disembarked"}
    for unit in units_of(state, state["active_player"]):
        if (
            on_battlefield(unit)
            and alive_models(unit)
            and not has_acted(state, unit["id"])
            and not unit_flags(state, unit["id"]) & elsewhere
        ):
            set_flag(ctx, unit["id"], "remained_stationary")


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
    flying = takes_to_the_skies(ctx.state, unit, action)
    _move(
        ctx,
        unit,
        action.get("positions"),
        "normal",
        cite(ctx.state, "normal_move"),
        ("moved",),
        take_to_the_skies=flying,
    )


def advance(ctx: Context, action: dict[str, Any]) -> None:
    """09.06 Advance: roll one D6 before moving (plus any bonus: An Urgent Duty); move up to M +
    the roll. Teleport Shunt replaces the roll with +6" Move and FLY."""
    unit = _select(ctx, action, False)
    replaced_by = next(
        (rule for replaces in ADVANCE_ROLL_REPLACEMENTS if (rule := replaces(ctx, unit))), None
    )
    # After the replacement: the FLY Teleport Shunt gives counts for taking to the skies in this
    # very move (issue 14 defect 15).
    flying = takes_to_the_skies(ctx.state, unit, action)
    if replaced_by is not None:
        ctx.emit("advance_roll_replaced", unit=unit["id"], rule=replaced_by)
        _ask_advance_move(ctx, unit, 0, flying)
        return
    record = roll(
        ctx,
        1,
        "advance",
        cite(ctx.state, "advance"),
        unit["player"],
        unit["id"],
        modifier=standing_rules.roll_bonus(ctx.state, unit, "advance"),
    )
    # Just after the roll: re-rolls (Order the Advance) and its window (Command Re-roll).
    timing.after_roll(
        ctx,
        record,
        {"step": "advance_rolled", "unit": unit["id"], "take_to_the_skies": flying},
    )


@continuation("advance_rolled")
def _advance_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    _ask_advance_move(ctx, unit, data["roll"]["total"], data.get("take_to_the_skies", False))


def _ask_advance_move(ctx: Context, unit: Unit, bonus: int, flying: bool) -> None:
    maximum = movement_characteristic(ctx.state, unit) + bonus
    if flying:
        maximum = max(0.0, maximum - ctx.state["edition"]["fly_move_penalty"])
    push_decision(
        ctx,
        unit["player"],
        "advance_move",
        {
            "unit": unit["id"],
            "max_distance": maximum,
            "advance_roll": bonus,
            "take_to_the_skies": flying,
        },
        {
            "step": "advance_move",
            "unit": unit["id"],
            "advance_roll": bonus,
            "take_to_the_skies": flying,
        },
        cite(ctx.state, "advance"),
        f'Advance {unit["name"]} up to {maximum:g}".',
    )


@continuation("advance_move")
def _advance_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    bonus = data["advance_roll"]
    _move(
        ctx,
        unit,
        choice,
        "advance",
        cite(ctx.state, "advance"),
        ("moved", "advanced"),
        bonus=bonus,
        take_to_the_skies=data.get("take_to_the_skies", False),
    )


def fall_back(ctx: Context, action: dict[str, Any]) -> None:
    """09.07 / 10e Fall Back: select the mode (when there is a choice), then resolve it."""
    unit = _select(ctx, action, True)
    if not all(rule(ctx, unit) for rule in BEFORE_FALL_BACK):
        return
    if takes_to_the_skies(ctx.state, unit, action):
        ctx.state["facts"]["phase"].setdefault("taking_to_the_skies", []).append(unit["id"])
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


def _resolve_fall_back_mode(ctx: Context, unit: Unit, mode: str) -> None:
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
    # Command Re-roll: "just after you make ... a Hazard roll" (15.02).
    timing.after_roll(ctx, record, {"step": "escape_hazard_rolled", "then": then})


@continuation("escape_hazard_rolled")
def _escape_hazard_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    record, then = data["roll"], data["then"]
    unit = state["units"][then["unit"]]
    failures = sum(1 for value in record["values"] if value <= state["edition"]["hazard_fail_max"])
    wounds = failures * hazard_mortal_wounds(state, unit)
    allocate_mortal_wounds(ctx, unit["id"], wounds, "hazard roll", then)


@continuation("fall_back_after_escape")
def _after_escape(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    if not data["was_battle_shocked"]:
        battle_shock_roll(ctx, unit, "desperate escape (09.07)")
    _ask_fall_back_move(ctx, unit, "desperate_escape")


def _flying_fall_back(state: State, unit: Unit) -> bool:
    return unit["id"] in state["facts"]["phase"].get("taking_to_the_skies", [])


def _ask_fall_back_move(ctx: Context, unit: Unit, mode: str | None) -> None:
    flying = _flying_fall_back(ctx.state, unit)
    maximum = movement_characteristic(ctx.state, unit)
    if flying:
        maximum = max(0.0, maximum - ctx.state["edition"]["fly_move_penalty"])
    push_decision(
        ctx,
        unit["player"],
        "fall_back_move",
        {"unit": unit["id"], "max_distance": maximum, "mode": mode, "take_to_the_skies": flying},
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
        take_to_the_skies=_flying_fall_back(state, unit),
    )
    then = {"step": "fall_back_made", "unit": unit["id"], "positions": final_positions(read)}
    escaping = list(result.desperate_escape_models)
    started = {"step": "fall_back_started", "then": then, "escaping": escaping}
    reactions.announce(ctx, "move_started", unit["id"], "fall_back", started)


@continuation("fall_back_started")
def _fall_back_started(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """10e Desperate Escape tests for the models (still alive) that cross enemy models."""
    state = ctx.state
    then = data["then"]
    unit = state["units"][then["unit"]]
    alive = {m["id"] for m in alive_models(unit)}
    escaping = [m for m in data["escaping"] if m in alive]
    if not alive:
        return
    if not escaping:
        _make_fall_back(ctx, then)
        return
    record = roll(
        ctx,
        len(escaping),
        "desperate_escape",
        cite(state, "desperate_escape"),
        unit["player"],
        unit["id"],
    )
    # Command Re-roll (10e, Boarding Actions): "just after you make ... a Desperate Escape test".
    timing.after_roll(ctx, record, {"step": "desperate_escape_tested", "then": then})


@continuation("desperate_escape_tested")
def _desperate_escape_tested(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    record, then = data["roll"], data["then"]
    failures = sum(
        1 for value in record["values"] if value <= state["edition"]["desperate_escape_fail_max"]
    )
    destroy_chosen_models(ctx, then["unit"], failures, "desperate escape test", then)


def _make_fall_back(ctx: Context, data: dict[str, Any]) -> None:
    """The surviving models take the positions the move gave them."""
    unit = ctx.state["units"][data["unit"]]
    if not alive_models(unit):
        return
    survivors = {m["id"] for m in alive_models(unit)}
    positions = {k: v for k, v in data["positions"].items() if k in survivors}
    place(unit, read_positions(unit, positions, cite(ctx.state, "fall_back")))
    ctx.emit("unit_moved", unit=unit["id"], positions=positions, rule=cite(ctx.state, "fall_back"))
    note_move_length(ctx, unit["id"], None)
    set_flag(ctx, unit["id"], "moved")
    set_flag(ctx, unit["id"], "fell_back")
    note_move_made(ctx.state, unit["id"])
    reactions.announce(ctx, "move_ended", unit["id"], "fall_back", None)


@continuation("fall_back_made")
def _fall_back_made(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _make_fall_back(ctx, data)


# --- reinforcements -----------------------------------------------------------------------

# Set-ups "anywhere on the battlefield that is more than d" horizontally away from all enemy
# models" that are not Deep Strike itself are the rules' own (`ARRIVAL_METHODS`: the distance each
# rule prints, and whether it counts as using the Deep Strike or Teleport Assault abilities).
OFF_BATTLEFIELD = "off_battlefield"


@implements("ability", "deep-strike")
def arrival_methods(state: State, unit: Unit) -> list[str]:
    """How a unit waiting to arrive may be set up: a unit removed by Teleport Assault or Rapid
    Tactical Relocation by that rule; a unit in strategic reserves by an ingress move (11e 20.04;
    10e Strategic Reserves), and by Deep Strike when every part of the unit has the ability."""
    if unit["location"] == OFF_BATTLEFIELD:
        return [unit["awaiting_arrival"]["method"]]
    methods = ["ingress"]
    if all(part_has(state, part, "Deep Strike") for part in unit["parts"]):
        methods.append("deep_strike")
    return methods


def arrival_method_name(state: State, method: str) -> str:
    """A way to arrive by the name a player reads: the heading of its rule (Deep Strike, and
    each rule's own way: Teleport Assault, Prognisticated Arrival, ...); an ingress move as the
    game's rule set calls it (11e 20.04 "ingress move"; 10e sets the unit up from Strategic
    Reserves, its heading)."""
    if method == "ingress" and state["edition"]["rules_citation"] != "headings":
        return "ingress move"
    return heading(method)


def can_arrive(state: State, unit: Unit) -> bool:
    """Strategic reserves from the mission's battle round; a unit removed to be set up again in
    "the Reinforcements step of your next Movement phase" in its player's next Movement phase
    (rulings R-GK-04: it is owed then, `arrivals_owed`)."""
    if has_acted(state, unit["id"]):
        return False
    if unit["location"] == OFF_BATTLEFIELD:
        return "awaiting_arrival" in unit
    return (
        unit["location"] == "strategic_reserves"
        and state["battle_round"] >= state["mission"]["reserves"]["arrive_from_battle_round"]
    )


def arrives_by_deep_strike_or_teleport(state: State, unit: Unit) -> bool:
    """A unit that can arrive now using the Deep Strike or Teleport Assault abilities."""
    abilities = {"deep_strike"} | {
        method for method, (_, kind) in ARRIVAL_METHODS.entries.items() if kind == "ability"
    }
    return can_arrive(state, unit) and bool(abilities & set(arrival_methods(state, unit)))


def arrive(
    ctx: Context,
    action: dict[str, Any],
    then: dict[str, Any] | None = None,
    anywhere_more_than: float | None = None,
) -> None:
    """20.03-20.04 Arriving from strategic reserves (Reinforcements step): an ingress move
    (wholly within 6" of an edge, more than 8"/9" from enemies, not in the opponent's zone
    before battle round 3), or Deep Strike (more than 9"/8" from enemy models); a unit removed
    by Teleport Assault or Rapid Tactical Relocation by that rule. `anywhere_more_than`: a rule
    that lets the unit be set up anywhere more than that many inches from every enemy model
    (Gift of the Prescient; given by that rule's code, never by the action)."""
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
    methods = arrival_methods(state, unit)
    method = action.get("method", methods[0])
    if method not in methods:
        raise Refusal(
            "invalid_arrival",
            rule,
            f"{unit['name']} can arrive by: "
            f"{', '.join(arrival_method_name(state, way) for way in methods)}.",
        )
    set_up_arriving(ctx, unit, action.get("positions"), method, then, anywhere_more_than)


def set_up_arriving(
    ctx: Context,
    unit: Unit,
    positions: Any,
    method: str,
    then: dict[str, Any] | None,
    anywhere_more_than: float | None = None,
) -> None:
    """Set the unit up by `method` (or anywhere more than `anywhere_more_than` from enemy models),
    checked by the battlefield; then the window "when a unit is set up" of the Reinforcements
    step (Haloed in Soulfire) opens for its player, then the reactions and windows of "just
    after an enemy unit is set up" (Fire Overwatch), and `then` resumes."""
    state = ctx.state
    rule = cite(state, method if method in ARRIVAL_METHODS else "arrive_from_reserves")
    read = read_positions(unit, positions, rule)
    arriving, others = unit_placements(state, unit, read), others_on_table(state, unit)
    battlefield, edition = battlefield_of(state), edition_of(state)
    if anywhere_more_than is not None:
        check_set_up_anywhere(battlefield, edition, arriving, others, anywhere_more_than, "ingress")
    elif method == "deep_strike":
        check_deep_strike(battlefield, edition, arriving, others)
    elif method == "ingress":
        check_reserves_arrival(
            battlefield, edition, arriving, others, state["battle_round"], opponent(unit["player"])
        )
    else:
        check_set_up_anywhere(
            battlefield, edition, arriving, others, ARRIVAL_METHODS[method][0], method
        )
    mark_acted(ctx, unit["id"])
    place(unit, read)
    unit["location"] = "battlefield"
    if method in ARRIVAL_RESTRICTIONS:
        # A refusal discards the whole action: placing first only lets the area be measured.
        ARRIVAL_RESTRICTIONS[method](state, unit, rule)
    unit.pop("awaiting_arrival", None)
    set_flag(ctx, unit["id"], "arrived_from_reserves")
    if method == "deep_strike" or (method in ARRIVAL_METHODS and ARRIVAL_METHODS[method][1]):
        set_flag(ctx, unit["id"], "arrived_by_deep_strike_or_teleport_assault")
    state["facts"]["phase"].setdefault("arrival_methods", {})[unit["id"]] = method
    ctx.emit("unit_arrived", unit=unit["id"], positions=final_positions(read), method=method)
    announced = {"step": "arrival_announced", "unit": unit["id"], "method": method, "then": then}
    timing.stratagem_window(
        ctx, "reinforcements_step", {"unit": unit["id"]}, announced, players=[unit["player"]]
    )


@continuation("arrival_announced")
def _arrival_announced(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """Just after it is set up: the reactions and windows, then `then` (Rapid Ingress carries
    on)."""
    reactions.announce(ctx, "set_up", data["unit"], data["method"], data["then"])


def place_into_strategic_reserves(ctx: Context, unit: Unit, source: str) -> None:
    """A rule puts the unit from the battlefield into Strategic Reserves (Scouting Outriders'
    stratagem, Mists of Deimos): it arrives later like any unit in reserves."""
    unit["location"] = "strategic_reserves"
    # 11e 20.02: a repositioned unit, spared by the end of the third battle round (R-MV-06).
    unit["repositioned"] = True
    ctx.emit("unit_placed_into_reserves", unit=unit["id"], source=source)


def remove_to_arrive_later(ctx: Context, unit: Unit, method: str, source: str) -> None:
    """Teleport Assault, Rapid Tactical Relocation: the unit is removed from the battlefield, to
    be set up by `method` in the Reinforcements step of its player's next Movement phase."""
    unit["location"] = OFF_BATTLEFIELD
    unit["awaiting_arrival"] = {"method": method, "source": source}
    ctx.emit("unit_removed_from_battlefield", unit=unit["id"], method=method, source=source)


ARRIVAL_OWED_KIND = "arrival_owed"


def arrivals_owed(state: State) -> list[Unit]:
    """In the active player's Movement phase, their units removed to be set up "in the
    Reinforcements step of your next Movement phase" (Teleport Assault, Rapid Tactical
    Relocation) and not set up yet: this is that phase (they are removed at the end of the
    opponent's turn or Fight phase), and they cannot wait for another (rulings R-GK-04)."""
    if state["phase"] != "movement":
        return []
    return [
        unit
        for unit in state["units"].values()
        if unit["player"] == state["active_player"]
        and unit["location"] == OFF_BATTLEFIELD
        and "awaiting_arrival" in unit
    ]


def ask_about_owed_arrivals(ctx: Context, owed: list[Unit], then: dict[str, Any]) -> None:
    """The player ends the Movement phase with units still owed a set-up: set them up now
    (`"set_up"`: the phase goes on), or say they cannot be set up (`"destroyed"`: they count as
    destroyed, then the phase ends). The engine cannot tell whether a legal place exists, so the
    player says; the unit is never kept back for a later phase (R-GK-04)."""
    names = ", ".join(f"{unit['name']} ({unit['awaiting_arrival']['source']})" for unit in owed)
    push_decision(
        ctx,
        ctx.state["active_player"],
        ARRIVAL_OWED_KIND,
        ["set_up", "destroyed"],
        {"step": "arrival_owed_answered", "units": [unit["id"] for unit in owed], "then": then},
        cite(ctx.state, "arrive_from_reserves"),
        f"{names} must be set up in this Reinforcements step: set up now, or, if it cannot be "
        "set up, it counts as destroyed?",
    )


@continuation("arrival_owed_answered")
def _arrival_owed_answered(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice == "set_up":
        return  # back to the Movement phase: the player sets the units up, then ends it
    for unit_id in data["units"]:
        unit = ctx.state["units"][unit_id]
        if unit["location"] == OFF_BATTLEFIELD:
            count_as_destroyed(
                ctx,
                unit,
                "not set up in the Reinforcements step its rule names",
                rule=unit.get("awaiting_arrival", {}).get("source"),
            )
    carry_on(ctx, data["then"])


def destroy_units_not_returned(ctx: Context) -> None:
    """Teleport Assault: "Any units that are not on the battlefield at the end of the battle
    count as destroyed" (rulings R-GK-04 applies it to Rapid Tactical Relocation too)."""
    for unit in ctx.state["units"].values():
        if unit["location"] != OFF_BATTLEFIELD:
            continue
        count_as_destroyed(ctx, unit, "not on the battlefield at the end of the battle")


# --- the phase's actions (core/actions.py) ------------------------------------------------------


def flight_template(state: State, unit: Unit) -> dict[str, Any]:
    """11e §21.03: a FLYING unit's move templates say it may take to the skies (the action's
    `take_to_the_skies`: true), and the distance that costs."""
    keywords = unit_keywords(state, unit) | granted_keywords(state, unit)
    if not state["edition"]["fly_declared_before_moving"] or "FLY" not in keywords:
        return {}
    return {"can_take_to_the_skies": True, "fly_move_penalty": state["edition"]["fly_move_penalty"]}


def unit_movement_actions(state: State, player: int, unit: Unit) -> list[dict[str, Any]]:
    """A unit's moves this Movement phase, with the maximum distance of each (the slowest
    model's M; an advance adds a D6 rolled when it is selected)."""
    base = {"player": player, "unit": unit["id"]}
    if can_arrive(state, unit):
        methods = arrival_methods(state, unit)
        return [
            {
                "type": "arrive",
                **base,
                "positions": "required",
                "methods": methods,
                # Where it may be set up, drawn before it is dropped (the checks are setting_up's).
                "areas": arrival_areas(state, unit, methods),
            }
        ]
    if unit["location"] == "embarked":
        template = disembark_template(state, unit)
        return [template] if template else []
    embarks = [
        {"type": "embark", **base, "transport": transport}
        for transport in embark_targets(state, unit)
    ]
    if not on_battlefield(unit) or unit["id"] in state["facts"]["phase"]["acted"]:
        return embarks
    maximum = movement_characteristic(state, unit)
    if unit["id"] in must_move_after_disembark(state):
        return [
            {"type": "move", **base, "positions": "required", "max_distance": maximum},
            {"type": "advance", **base, "max_distance": maximum, "bonus": "D6"},
        ]
    found = [{"type": "remain_stationary", **base}]
    flight = flight_template(state, unit)
    if is_engaged(state, unit):
        found.append({"type": "fall_back", **base, "max_distance": maximum, **flight})
    else:
        found.append(
            {"type": "move", **base, "positions": "required", "max_distance": maximum, **flight}
        )
        found.append({"type": "advance", **base, "max_distance": maximum, "bonus": "D6", **flight})
    return found


def legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    """The Movement phase's templates of each of the player's units; after a tactical disembark
    (11e 18.05) only the units that must still move."""
    must_move = must_move_after_disembark(state)
    found: list[dict[str, Any]] = []
    for unit in units_of(state, player):
        if must_move and unit["id"] not in must_move:
            continue
        found.extend(unit_movement_actions(state, player, unit))
    return found


def may_not_end(state: State) -> Refusal | None:
    waiting = must_move_after_disembark(state)
    if not waiting:
        return None
    return Refusal(
        "tactical_disembark_move",
        cite(state, "disembark"),
        f"{state['units'][waiting[0]]['name']} made a tactical disembark: select it for "
        "a normal or advance move first.",
    )


PHASE = PhaseActions(
    "movement",
    {
        "remain_stationary": remain_stationary,
        "move": normal_move,
        "advance": advance,
        "fall_back": fall_back,
        "arrive": arrive,
        "embark": embark,
        "disembark": disembark,
    },
    legal_actions,
    may_not_end=may_not_end,
    offers_end=lambda state: not must_move_after_disembark(state),
)
