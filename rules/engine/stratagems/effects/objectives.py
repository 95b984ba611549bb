"""Stratagems that keep objective markers: Ritual of Warding (Imperial Agents, Ordo Malleus).

"That objective marker is said to be Warded and remains under your control, even if you have no
models within range of it, until your opponent controls it at the start or end of any turn" —
the objectives module's holding effect (`hold_objective`, released as Sanctifying Ritual is). The
DAEMON set-up clause binds set-up rules; no DAEMON datasheet is in the rules data yet (R-ST-15).
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.objective_range import units_within_range
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.state import State
from rules.engine.sequence.objectives import RITUAL, hold_objective
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import has_any_keyword, own_units

WARDENS = has_any_keyword("INQUISITOR", "INQUISITORIAL AGENTS", "ORDO MALLEUS")


def _markers(state: State, player: int, unit_id: str) -> list[dict[str, Any]]:
    return [
        m
        for m in state["objectives"]
        if m["controller"] == player and unit_id in units_within_range(state, m, player)
    ]


def _warden_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return [u for u in own_units(WARDENS)(state, player, window) if _markers(state, player, u)]


def _marker_choices(state: State, player: int, _window: dict, target: str) -> list[dict]:
    return [{"objective": m["id"]} for m in _markers(state, player, target)]


@implements("ritual-of-warding", targets=_warden_targets, choices=_marker_choices)
def _ward(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    hold_objective(ctx, use.player, use.extra["objective"], use.slug, RITUAL)
    carry_on(ctx, then)
