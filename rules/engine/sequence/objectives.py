"""Objective markers and their control (11e 14.02, 14.03; 10e Objective Markers).

At the end of each phase and of each turn, each player's level of control over a marker is the sum
of the OC of their models within range of it (`objective_range_horizontal` of the marker, measured
edge to edge, plus the marker's own radius). The higher level controls it; a tie leaves it
uncontrolled. A battle-shocked model's OC is '-' (11e) or 0 (10e): either way it adds nothing.

Rules that keep a marker controlled are effects on the marker (`{"objective": id}` selector,
`{"held_by": player, "released_when": ...}` modifier) with two release conditions:

- `opponent_greater_at_phase_end`: 11e 14.03 secured objectives: held until the opponent's level
  of control is greater at the end of a phase;
- `opponent_controls_at_turn_boundary`: Sanctifying Ritual (seed 004 L24) and Shock Troops: held
  until the opponent controls it at the start or end of any turn;
- `opponent_controls_at_phase_boundary`: No Retreat! (seed 003 L568-576): held until the opponent
  controls it at the start or end of a phase (control is determined at the end of each phase and
  at the start of each turn, which is the start of its first phase; rulings R-AM-08).
"""

from __future__ import annotations

from rules.engine.battlefield.objective_range import units_within_range, within_range
from rules.engine.core.effects import add_effect, characteristic, remove_effect
from rules.engine.core.events import Context
from rules.engine.core.shapes import Effect, Model, Objective, Unit
from rules.engine.core.standing_rules import BATTLE_SHOCKED_OC, HOLDING_ABILITIES
from rules.engine.core.state import (
    PLAYERS,
    State,
    alive_models,
    on_battlefield,
    opponent,
)
from rules.engine.phases.battle_shock import is_battle_shocked

SECURED = "opponent_greater_at_phase_end"
RITUAL = "opponent_controls_at_turn_boundary"
PHASE_HOLD = "opponent_controls_at_phase_boundary"


def model_oc(state: State, unit: Unit, model: Model) -> int:
    """OC now; 0 for a battle-shocked model (11e '-' counts as nothing too), unless a rule says
    otherwise (`BATTLE_SHOCKED_OC`: the Death Mask of Ollanius)."""
    oc = characteristic(state, unit["id"], model, "OC")
    if is_battle_shocked(state, unit["id"]):
        return next((v for rule in BATTLE_SHOCKED_OC if (v := rule(unit, oc)) is not None), 0)
    return max(0, oc)


def levels_of_control(state: State, marker: Objective) -> dict[int, int]:
    levels = {player: 0 for player in PLAYERS}
    for unit in state["units"].values():
        if not on_battlefield(unit):
            continue
        for model in alive_models(unit):
            if within_range(state, model, marker):
                levels[unit["player"]] += model_oc(state, unit, model)
    return levels


def _hold(state: State, marker_id: str) -> Effect | None:
    for effect in state["effects"]:
        if effect["selector"].get("objective") == marker_id and "held_by" in effect["modifier"]:
            return effect
    return None


def update_control(ctx: Context, boundary: str) -> None:
    """Determine control of every marker at a boundary: `phase_end`, `turn_start` or `turn_end`."""
    state = ctx.state
    for marker in state["objectives"]:
        levels = levels_of_control(state, marker)
        if levels[1] > levels[2]:
            controller = 1
        elif levels[2] > levels[1]:
            controller = 2
        else:
            controller = None
        hold = _hold(state, marker["id"])
        if hold is not None:
            holder = hold["modifier"]["held_by"]
            rival = opponent(holder)
            released = (
                (
                    hold["modifier"]["released_when"] == SECURED
                    and boundary == "phase_end"
                    and levels[rival] > levels[holder]
                )
                or (
                    hold["modifier"]["released_when"] == RITUAL
                    and boundary in ("turn_start", "turn_end")
                    and controller == rival
                )
                or (hold["modifier"]["released_when"] == PHASE_HOLD and controller == rival)
            )
            if released:
                remove_effect(ctx, hold["id"], f"{hold['source']} lost")
            else:
                controller = holder
        if controller != marker["controller"]:
            ctx.emit(
                "objective_control_changed",
                objective=marker["id"],
                controller=controller,
                levels={str(p): v for p, v in levels.items()},
                boundary=boundary,
            )
            marker["controller"] = controller


def hold_objective(
    ctx: Context, player: int, marker_id: str, source: str, released_when: str
) -> None:
    """Keep a marker under `player`'s control until the release condition (see module doc)."""
    existing = _hold(ctx.state, marker_id)
    if existing is not None:
        remove_effect(ctx, existing["id"], f"replaced by {source}")
    add_effect(
        ctx,
        source,
        {"objective": marker_id},
        {"held_by": player, "released_when": released_when},
        "until_removed",
        player,
    )
    for marker in ctx.state["objectives"]:
        if marker["id"] == marker_id and marker["controller"] != player:
            marker["controller"] = player
            ctx.emit(
                "objective_control_changed", objective=marker_id, controller=player, boundary=source
            )


def secure_objective(ctx: Context, player: int, marker_id: str, source: str) -> None:
    """11e 14.03: a rule secures a marker for `player`'s army."""
    hold_objective(ctx, player, marker_id, source, SECURED)


def hold_objectives_at_end_of_command_phase(ctx: Context) -> None:
    """End of your Command phase: each marker you control stays yours while released_when allows,
    if a unit of yours with a holding ability is within range of it."""
    state = ctx.state
    player = state["active_player"]
    for marker in state["objectives"]:
        if marker["controller"] != player:
            continue
        for unit_id in units_within_range(state, marker, player):
            held = sorted(
                set(state["units"][unit_id]["abilities"]) & set(HOLDING_ABILITIES.entries)
            )
            if held:
                hold_objective(ctx, player, marker["id"], held[0], HOLDING_ABILITIES[held[0]])
                break


def controlled_by(state: State, player: int) -> list[str]:
    return [m["id"] for m in state["objectives"] if m["controller"] == player]
