"""Watchers' facts: what happened this phase, turn and battle round, reset at each boundary.

`state["facts"]["phase"]["acted"]` lists the units selected in this phase (a unit acts once per
phase unless a rule says otherwise); `state["facts"]["turn"][flag]` lists the units for which a
per-turn flag holds (remained stationary, advanced, fell back, charged, shot, fought, arrived from
reserves, disembarked); they last "until the end of the turn" and are cleared when it ends.
"""

from __future__ import annotations

from rules.engine.core.citations import cite
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import TURN_FLAGS, State


def reset(state: State, scope: str) -> None:
    state["facts"][scope] = {"acted": []} if scope == "phase" else {}


def has_acted(state: State, unit_id: str) -> bool:
    return unit_id in state["facts"]["phase"]["acted"]


def mark_acted(ctx: Context, unit_id: str) -> None:
    if has_acted(ctx.state, unit_id):
        raise Refusal(
            "already_acted",
            cite(ctx.state, "once_per_phase"),
            "That unit has already been selected this phase; a unit acts once per phase.",
        )
    ctx.state["facts"]["phase"]["acted"].append(unit_id)


def has_flag(state: State, unit_id: str, flag: str) -> bool:
    return unit_id in state["facts"]["turn"].get(flag, [])


def set_flag(ctx: Context, unit_id: str, flag: str) -> None:
    if flag not in TURN_FLAGS:
        raise ValueError(f"unknown turn flag {flag!r}")
    units = ctx.state["facts"]["turn"].setdefault(flag, [])
    if unit_id not in units:
        units.append(unit_id)
        ctx.emit("unit_flag_set", unit=unit_id, flag=flag)


def unit_flags(state: State, unit_id: str) -> set[str]:
    """The per-turn flags that hold for a unit now (e.g. {"advanced", "moved"})."""
    return {flag for flag, units in state["facts"]["turn"].items() if unit_id in units}


# 11e 24.16 [HEAVY]: "No model in that unit has moved more than 3" this turn".
HEAVY_BRACE_DISTANCE = 3.0
MOVE_FLAGS = ("moved", "advanced", "fell_back")


def note_move_length(ctx: Context, unit_id: str, longest: float | None) -> None:
    """Called as a unit makes a move that sets `moved`: `longest` is the farthest any of its
    models went (None when the move is not measured). `moved_within_3` holds while the unit's
    only move this turn went no farther than 3" (rulings R-CB-06); a second move clears it, since
    the rule counts all of a model's moves this turn."""
    first = not any(has_flag(ctx.state, unit_id, flag) for flag in MOVE_FLAGS)
    if first and longest is not None and longest <= HEAVY_BRACE_DISTANCE + 1e-6:
        set_flag(ctx, unit_id, "moved_within_3")
        return
    units = ctx.state["facts"]["turn"].get("moved_within_3", [])
    if unit_id in units:
        units.remove(unit_id)
