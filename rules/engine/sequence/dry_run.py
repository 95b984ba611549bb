"""What the referee would say to an action, without playing it (issue 15: rules made visible
before a refusal). The action goes through `game.apply` on the state as it is: the answer is the
engine's own acceptance or refusal; nothing is stored and no event is kept. For a move of a unit
on the battlefield, each moved model's cost is measured as the move would be (`check_move`: the
path, the climb over terrain, the 11e vertical moves), so the table shows it while dragging."""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.placement import check_move, read_positions
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import State, on_battlefield
from rules.engine.phases.movement import movement_characteristics
from rules.engine.sequence.game import apply

# The move types `check_move` measures, by the action (or decision answer) that makes them.
MOVE_TYPES = {"move": "normal", "advance": "advance", "fall_back": "fall_back"}


def dry_run(state: State, action: dict[str, Any]) -> dict[str, Any]:
    """{"accepted": true} or the refusal ({"accepted": false, code, rule, message, ...}), and
    `costs` ({model: inches}) for a move whose positions the action carries."""
    try:
        apply(state, action)
        answer: dict[str, Any] = {"accepted": True}
    except Refusal as refusal:
        answer = {"accepted": False, **refusal.as_dict()}
    costs = move_costs(state, action)
    if costs:
        answer["costs"] = costs
    return answer


def move_costs(state: State, action: dict[str, Any]) -> dict[str, float]:
    """Each moved model's distance as the move measures it (climbing included); {} when the action
    is no move of a unit on the battlefield or the move cannot be measured."""
    unit_id = action.get("unit")
    unit = state["units"].get(unit_id) if isinstance(unit_id, str) else None
    positions = action.get("positions")
    move_type = MOVE_TYPES.get(str(action.get("type")))
    if action.get("type") == "decide" and isinstance(action.get("choice"), dict):
        top = state["pending"][-1] if state["pending"] else None
        # A decision's options are a dict (a move's: its `unit`) or a list (choices).
        options = top["options"] if top is not None else {}
        moving = options.get("unit") if isinstance(options, dict) else None
        unit = state["units"].get(str(moving or ""))
        positions = action["choice"].get("positions", action["choice"])
        move_type = {"advance_move": "advance", "fall_back_move": "fall_back"}.get(
            str(top["kind"] if top is not None else None), "normal"
        )
    if unit is None or move_type is None or not on_battlefield(unit):
        return {}
    try:
        read = read_positions(unit, positions, "Moving")
        result = check_move(state, unit, read, move_type, movement_characteristics(state, unit))
    except Refusal as refusal:
        model, distance = refusal.details.get("model"), refusal.details.get("distance")
        return {model: float(distance)} if model and distance is not None else {}
    except (TypeError, ValueError, KeyError):
        return {}
    return {model: round(float(d), 2) for model, d in result.moved.items() if d > 0}
