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
