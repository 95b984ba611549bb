"""The battle sequence (11e 07; 10e Battle Sequence / Mission sequence).

Set-up: declare reserves (each player, player 1 first), deploy armies (alternating one unit at a
time, starting with the mission's `first_to_deploy`; a player with nothing left to deploy passes;
each set-up checked by the battlefield, Infiltrators included), roll off for the first turn (the
winner chooses to go first or second), then scout moves (the first player first; ruling R-MV-04).
Then battle rounds (`battle_rounds` of the edition), each of two turns; each turn is the Command,
Movement, Shooting, Charge and Fight phases in order (07.02). At the end of each turn units out of
coherency lose models (03.03); at the end of the third battle round units still in strategic
reserves are destroyed (20.04). Objective control is determined at the end of each phase and turn
(14.02); effects and watchers' facts end at their boundaries. After the last round the battle
ends, the winner is named and the dice seed is revealed.
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import every_part_has
from rules.engine.army.list_checks import points_in_play, reserves_points_limit
from rules.engine.army.unit_strength import record_starting_strengths
from rules.engine.attacks.casualties import count_as_destroyed
from rules.engine.battlefield.placement import (
    battlefield_of,
    edition_of,
    final_positions,
    others_on_table,
    place,
    read_positions,
    unit_placements,
)
from rules.engine.battlefield.setting_up import check_deployment, check_infiltrators
from rules.engine.core.ability_choices import ask_choices, select_units
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import expire
from rules.engine.core.events import Context
from rules.engine.core.facts import reset
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import roll
from rules.engine.core.selection import own_unit
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import FORMATION_GRANTS, FORMATION_SELECTIONS, REDEPLOYMENTS
from rules.engine.core.state import PHASES, PLAYERS, State, opponent, units_of
from rules.engine.core.timing import (
    BATTLE_ROUND_STARTED,
    PHASE_ENDING,
    PHASE_START_ABILITIES_RESOLVED,
    PHASE_STARTED,
    TURN_ENDING,
    reach,
    stratagem_window,
)
from rules.engine.phases import charge as charge_phase
from rules.engine.phases import fight as fight_phase
from rules.engine.phases.command import battle_shock_step, start_command_phase
from rules.engine.phases.movement import (
    arrivals_owed,
    ask_about_owed_arrivals,
    destroy_units_not_returned,
    unselected_units_remain_stationary,
)
from rules.engine.phases.transports import declare_embarked, passengers_lost_with
from rules.engine.sequence.objectives import (
    hold_objectives_at_end_of_command_phase,
    update_control,
)
from rules.engine.sequence.pre_battle import scout_candidates, scout_move
from rules.engine.sequence.scoring import score_primary, winner
from rules.engine.sequence.unit_coherency import regain_coherency


def end_command_phase(ctx: Context) -> None:
    """08.05: rules other than mission rules first (Sanctifying Ritual, Shock Troops: their
    timing points), then the mission's: objectives held, primary scoring."""
    hold_objectives_at_end_of_command_phase(ctx)
    score_primary(ctx, "end_of_command_phase")


PHASE_START = {"command": start_command_phase}
# Rules of a phase that come after its start-of-phase stratagem window.
AFTER_START_WINDOW = {"command": battle_shock_step, "fight": fight_phase.fight_step_at_phase_start}
# Rules of a phase that come when it ends (before "at the end of the phase" effects expire).
PHASE_END = {"command": end_command_phase, "movement": unselected_units_remain_stationary}


# --- set-up -------------------------------------------------------------------------------


def declare_reserves(ctx: Context, action: dict[str, Any]) -> None:
    """Declare Reserves: units worth up to the edition's share of the points limit may start in
    strategic reserves, those embarked in a TRANSPORT there included (11e 20.01; 10e Strategic
    Reserves; rulings R-ENG-07)."""
    state = ctx.state
    player = action["player"]
    chosen = action.get("units", [])
    if not isinstance(chosen, list) or len(set(chosen)) != len(chosen):
        raise Refusal("invalid_reserves", cite(state, "reserves"), "List each unit once.")
    for unit_id in chosen:
        own_unit(ctx, {"unit": unit_id, "player": player}, cite(state, "reserves"))
    limit = reserves_points_limit(state)
    embarked = action.get("embarked")
    passengers = [
        unit_id
        for unit_id, transport in (embarked.items() if isinstance(embarked, dict) else [])
        if transport in chosen and unit_id in state["units"] and unit_id not in chosen
    ]
    worth = sum(points_in_play(state, state["units"][u]) for u in [*chosen, *passengers])
    if limit is not None and worth > limit:
        raise Refusal(
            "too_many_reserves",
            cite(state, "reserves"),
            f"Units worth at most {limit} points can start in strategic reserves; these are "
            f"worth {worth}.",
        )
    for unit_id in chosen:
        state["units"][unit_id]["location"] = "strategic_reserves"
    ctx.emit("reserves_declared", player=player, units=sorted(chosen))
    declare_embarked(ctx, player, action.get("embarked"), chosen)
    if player == 1:
        state["awaiting"] = 2
    else:
        state["stage"] = "deployment"
        state["awaiting"] = state["mission"]["first_to_deploy"]
        ctx.emit("stage_started", stage="deployment")
    # Rules of the Declare Battle Formations step that select units (Clandestine Operation).
    resume(ctx, {"step": "formation_selections", "player": player, "index": 0})


@continuation("formation_selections")
def _formation_selections(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    providers = FORMATION_SELECTIONS[data["index"] :]
    for offset, provider in enumerate(providers):
        found = provider(ctx.state, data["player"])
        if found:
            rule, limit, candidates = found
            then = {**data, "step": "formation_selected", "rule": rule}
            then["index"] = data["index"] + offset + 1
            select_units(ctx, data["player"], rule, candidates, limit, then)
            return
    if ctx.state["stage"] == "deployment":  # the step is over: the first to deploy, if able
        awaiting = ctx.state["awaiting"]
        assert awaiting is not None, "deployment always awaits a player"
        _deploy_next(ctx, awaiting)


@continuation("formation_selected")
def _formation_selected(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    ability = FORMATION_GRANTS[data["rule"]]
    for unit_id in data["chosen"]:
        unit = ctx.state["units"][unit_id]
        unit["granted_abilities"] = sorted({*unit.get("granted_abilities", []), ability})
    ctx.emit("abilities_granted", units=data["chosen"], ability=ability, rule=data["rule"])
    resume(ctx, {"step": "formation_selections", "player": data["player"], "index": data["index"]})


def undeployed(state: State, player: int) -> list[str]:
    return [u["id"] for u in units_of(state, player) if u["location"] == "unplaced"]


def deploy(ctx: Context, action: dict[str, Any]) -> None:
    """Deploy Armies (11e 03.02 Set Up; 10e Deploy Armies): one unit, every model wholly within
    your deployment zone, or, for Infiltrators (24.20), anywhere more than 8"/9" from the
    opponent's deployment zone and every enemy unit. Checked by `setting_up`."""
    state = ctx.state
    rule = cite(state, "deploy")
    unit = own_unit(ctx, action, rule)
    if unit["location"] != "unplaced":
        raise Refusal("already_deployed", rule, f"{unit['name']} is not waiting to deploy.")
    positions = _set_up_in_deployment(ctx, unit, action.get("positions"), rule)
    ctx.emit("unit_deployed", unit=unit["id"], player=unit["player"], positions=positions)
    _deploy_next(ctx, opponent(unit["player"]))


def _deploy_next(ctx: Context, player: int) -> None:
    """`player` deploys next; a player with nothing left to deploy (every unit in strategic
    reserves, or all deployed) passes; when neither has a unit left, the redeployments follow."""
    state = ctx.state
    if undeployed(state, player):
        state["awaiting"] = player
    elif undeployed(state, opponent(player)):
        state["awaiting"] = opponent(player)
    else:
        state["stage"] = "redeployment"
        state["awaiting"] = None
        resume(ctx, {"step": "redeployments", "asked": []})


def _set_up_in_deployment(ctx: Context, unit: Unit, positions: Any, rule: str) -> dict:
    """Set the unit up wholly within its deployment zone (or as Infiltrators); returns the final
    positions. Refused (nothing changes) when the set-up is not legal."""
    state = ctx.state
    read = read_positions(unit, positions, rule)
    battlefield, edition = battlefield_of(state), edition_of(state)
    models, others = unit_placements(state, unit, read), others_on_table(state, unit)
    try:
        check_deployment(battlefield, edition, models, others, unit["player"])
    except Refusal as refusal:
        if refusal.code != "outside_deployment_zone" or not every_part_has(
            state, unit, "Infiltrators"
        ):
            raise
        check_infiltrators(battlefield, edition, models, others, opponent(unit["player"]))
    place(unit, read)
    unit["location"] = "battlefield"
    return final_positions(read)


@continuation("redeployments")
def _redeployments(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """After both players have deployed: rules that redeploy units (Liber Heresius), the player
    who deployed first first, each rule once; then the roll-off for the first turn."""
    state = ctx.state
    first = state["mission"]["first_to_deploy"]
    for player in (first, opponent(first)):
        for provider in REDEPLOYMENTS:
            found = provider(state, player)
            if not found or f"{player}:{found[0]}" in data["asked"]:
                continue
            rule, limit, candidates = found
            asked = [*data["asked"], f"{player}:{rule}"]
            then = {"step": "redeploy_next", "player": player, "rule": rule, "asked": asked}
            select_units(ctx, player, rule, candidates, limit, then)
            return
    first_turn_roll_off(ctx)


@continuation("redeploy_next")
def _redeploy_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    if not data["chosen"]:
        resume(ctx, {"step": "redeployments", "asked": data["asked"]})
        return
    unit = ctx.state["units"][data["chosen"][0]]
    push_decision(
        ctx,
        data["player"],
        "redeploy_unit",
        {"unit": unit["id"], "positions": "required", "or": "strategic_reserves"},
        {**data, "step": "redeployed"},
        data["rule"],
        f"{data['rule']}: set {unit['name']} up again in your deployment zone, or in "
        'Strategic Reserves ("strategic_reserves").',
    )


@continuation("redeployed")
def _redeployed(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["chosen"][0]]
    if choice == "strategic_reserves":
        for model in unit["models"]:
            model["x"] = model["y"] = None
        unit["location"] = "strategic_reserves"
        positions = None
    else:
        unit["location"] = "unplaced"
        positions = _set_up_in_deployment(ctx, unit, choice, data["rule"])
    ctx.emit(
        "unit_redeployed",
        unit=unit["id"],
        player=unit["player"],
        location=unit["location"],
        positions=positions,
        rule=data["rule"],
    )
    resume(ctx, {**data, "step": "redeploy_next", "chosen": data["chosen"][1:]})


def first_turn_roll_off(ctx: Context) -> None:
    """Determine First Turn: roll off, re-roll ties; the winner picks who goes first."""
    state = ctx.state
    state["stage"] = "first_turn"
    state["awaiting"] = None
    while True:
        first = roll(ctx, 1, "first_turn_roll_off", "Determine First Turn", 1)
        second = roll(ctx, 1, "first_turn_roll_off", "Determine First Turn", 2)
        if first["total"] != second["total"]:
            break
    won = 1 if first["total"] > second["total"] else 2
    ctx.emit("roll_off_won", player=won, purpose="first_turn")
    push_decision(
        ctx,
        won,
        "choose_first_turn",
        ["first", "second"],
        {"step": "first_turn_chosen", "player": won},
        "Determine First Turn",
        "You won the roll-off: take the first turn or the second?",
    )


@continuation("first_turn_chosen")
def _first_turn_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    first = data["player"] if choice == "first" else opponent(data["player"])
    ctx.state["first_player"] = first
    ctx.emit("first_turn_decided", player=first)
    _next_scouting_player(ctx, [first, opponent(first)])


def _next_scouting_player(ctx: Context, players: list[int]) -> None:
    """Resolve pre-battle abilities: scout moves, the player taking the first turn first
    (11e 24.32; 10e Scouts); then the first battle round starts."""
    state = ctx.state
    for player in players:
        if scout_candidates(state, player):
            if state["stage"] != "scouts":
                state["stage"] = "scouts"
                ctx.emit("stage_started", stage="scouts")
            state["awaiting"] = player
            return
    state["stage"] = "battle"
    state["awaiting"] = None
    start_battle_round(ctx, 1)


def scout(ctx: Context, action: dict[str, Any]) -> None:
    scout_move(ctx, action)
    _after_scouting(ctx, action["player"], done=False)


def end_scouts(ctx: Context, action: dict[str, Any]) -> None:
    """The awaiting player makes no more scout moves."""
    _after_scouting(ctx, action["player"], done=True)


def _after_scouting(ctx: Context, player: int, done: bool) -> None:
    state = ctx.state
    if not done and scout_candidates(state, player):
        return
    later = [] if player != state["first_player"] else [opponent(player)]
    _next_scouting_player(ctx, later)


# --- rounds, turns and phases -------------------------------------------------------------


def start_battle_round(ctx: Context, number: int) -> None:
    """07.01 Start of battle round; starting strength is taken in round 1 (01.02.01)."""
    state = ctx.state
    state["battle_round"] = number
    reset(state, "battle_round")
    if number == 1:
        record_starting_strengths(state)
        ctx.emit(
            "starting_strengths_recorded",
            units={u["id"]: u["starting_strength"] for u in state["units"].values()},
        )
    ctx.emit("battle_round_started", battle_round=number)
    reach(ctx, BATTLE_ROUND_STARTED, {}, {"step": "battle_round_rules_resolved"})


@continuation("battle_round_rules_resolved")
def _battle_round_rules_resolved(ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    """Rules "at the start of the battle round" resolved: the first turn."""
    first = ctx.state["first_player"]
    assert first is not None, "the first turn is decided before the first battle round"
    start_turn(ctx, first)


def start_turn(ctx: Context, player: int) -> None:
    state = ctx.state
    state["active_player"] = player
    reset(state, "turn")
    ctx.emit("turn_started", battle_round=state["battle_round"], player=player)
    update_control(ctx, "turn_start")
    start_phase(ctx, PHASES[0])


def start_phase(ctx: Context, phase: str) -> None:
    state = ctx.state
    state["phase"] = phase
    reset(state, "phase")
    ctx.emit("phase_started", phase=phase, player=state["active_player"])
    reach(ctx, PHASE_STARTED, {"phase": phase}, None)
    if phase == "movement":
        expire(ctx, "start_of_next_movement_phase", state["active_player"])
    if phase in PHASE_START:
        PHASE_START[phase](ctx)
    # Abilities used "at the start of the phase" (At all Costs, Tome-skull, ...) are chosen
    # before the start-of-phase stratagem window (rulings R-IA-05); the rules of the timing point
    # `phase_start_abilities_resolved` (Summary Execution) after them.
    ask_choices(ctx, {"kind": "phase_start"}, {"step": "phase_start_abilities", "phase": phase})


@continuation("phase_start_abilities")
def _phase_start_abilities(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    step = {"step": "phase_start_rules_resolved", "phase": data["phase"]}
    reach(ctx, PHASE_START_ABILITIES_RESOLVED, {"phase": data["phase"]}, step)


@continuation("phase_start_rules_resolved")
def _phase_start_rules_resolved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """Rules "at the start of any phase" resolved: the stratagem window."""
    phase = data["phase"]
    stratagem_window(ctx, "phase_start", {}, {"step": "phase_start_window_closed", "phase": phase})


@continuation("phase_start_window_closed")
def _phase_start_window_closed(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    if data["phase"] in AFTER_START_WINDOW:
        AFTER_START_WINDOW[data["phase"]](ctx)


def end_phase(ctx: Context, action: dict[str, Any]) -> None:
    """The active player ends the phase; refused while fights are owed (all eligible fight)."""
    state = ctx.state
    if action["player"] != state["active_player"]:
        raise Refusal(
            "not_your_turn",
            cite(state, "battle_sequence"),
            "Only the active player ends the phase.",
        )
    if state["phase"] == "fight" and fight_phase.eligible_fighters(state):
        raise Refusal(
            "fights_remaining",
            cite(state, "fight_step"),
            "Every eligible unit must be selected to fight before the Fight phase ends.",
        )
    if state["phase"] == "charge" and charge_phase.charge_in_progress(state):
        raise Refusal(
            "charge_in_progress", cite(state, "declare_charge"), "Finish the charge first."
        )
    owed = arrivals_owed(state)
    if owed:  # units owed a set-up in this Reinforcements step (rulings R-GK-04)
        ask_about_owed_arrivals(ctx, owed, {"step": "phase_end_window"})
        return
    stratagem_window(ctx, "phase_end", {}, {"step": "finish_phase"})


@continuation("phase_end_window")
def _phase_end_window(ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    stratagem_window(ctx, "phase_end", {}, {"step": "finish_phase"})


@continuation("finish_phase")
def _finish_phase(ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    """After the end-of-phase window: the rules "at the end of the phase", then it ends."""
    reach(ctx, PHASE_ENDING, {}, {"step": "phase_orders_issued"})


@continuation("phase_orders_issued")
def _phase_orders_issued(ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    finish_phase(ctx)


def finish_phase(ctx: Context) -> None:
    state = ctx.state
    phase = state["phase"]
    update_control(ctx, "phase_end")
    if phase in PHASE_END:
        PHASE_END[phase](ctx)
    expire(ctx, "end_of_phase")
    ctx.emit("phase_ended", phase=phase, player=state["active_player"])
    following = PHASES.index(phase) + 1
    if following < len(PHASES):
        start_phase(ctx, PHASES[following])
    else:
        end_turn(ctx)


def end_turn(ctx: Context) -> None:
    """End of turn: coherency (03.03), objective control (14.02), then the rules "at the end of
    the turn" (the timing point `TURN_ENDING`: Teleport Assault, rulings R-GK-03), then the
    end-of-turn effects expire."""
    state = ctx.state
    regain_coherency(ctx)
    update_control(ctx, "turn_end")
    reach(
        ctx,
        TURN_ENDING,
        {"player": opponent(state["active_player"])},
        # a name stored in saved games and carried by decision events: kept, though it resumes
        # after every rule of TURN_ENDING, not only Teleport Assault's
        {"step": "turn_end_after_teleport_assault"},
    )


@continuation("turn_end_after_teleport_assault")
def _turn_ending_rules_resolved(ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    player = state["active_player"]
    expire(ctx, "end_of_turn")
    ctx.emit("turn_ended", battle_round=state["battle_round"], player=player)
    state["phase"] = None
    if player == state["first_player"]:
        start_turn(ctx, opponent(player))
    else:
        end_battle_round(ctx)


def end_battle_round(ctx: Context) -> None:
    state = ctx.state
    if state["battle_round"] == state["edition"]["reserves_destroyed_after_round"]:
        destroy_reserves_not_arrived(ctx)
    expire(ctx, "end_of_battle_round")
    ctx.emit("battle_round_ended", battle_round=state["battle_round"])
    if state["battle_round"] >= state["edition"]["battle_rounds"]:
        end_battle(ctx)
    else:
        start_battle_round(ctx, state["battle_round"] + 1)


def destroy_reserves_not_arrived(ctx: Context) -> None:
    """11e 20.04 / 10e Strategic Reserves: at the end of the third battle round, strategic
    reserves units that have not arrived are destroyed, except repositioned units (placed there
    during the battle: 11e 20.02-20.04; rulings R-MV-06)."""
    in_reserves = {
        u["id"]
        for u in ctx.state["units"].values()
        if u["location"] == "strategic_reserves" and not u.get("repositioned")
    }
    lost = {u["id"] for u in passengers_lost_with(ctx.state, in_reserves)}
    for unit in ctx.state["units"].values():
        if unit["id"] not in in_reserves | lost:
            continue
        count_as_destroyed(ctx, unit, "strategic reserves not arrived")


def end_battle(ctx: Context) -> None:
    """The battle ends: the winner is the player with more VP; the dice seed is revealed."""
    state = ctx.state
    destroy_units_not_returned(ctx)
    expire(ctx, "end_of_battle")
    state["stage"] = "ended"
    assert state["first_player"] is not None, "the battle ends after its battle rounds"
    state["active_player"] = state["first_player"]
    state["winner"] = winner(state)
    state["revealed_seed"] = state["dice"]["seed"]
    ctx.emit(
        "battle_ended",
        winner=state["winner"],
        victory_points={str(p): state["players"][str(p)]["vp"] for p in PLAYERS},
        seed=state["dice"]["seed"],
        seed_commitment=state["seed_commitment"],
    )
