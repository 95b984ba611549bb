"""The Command phase (11e 08; 10e Command phase).

Start (08.01): effects lasting "until the start of your next Command phase" end (10e battle-shock
included). 1. Both players gain Core CP (08.02). 2. Battle-shock (08.03). Then the active player
uses command abilities and ends the phase (08.04). End (08.05): rules other than mission rules
first (Sanctifying Ritual, Shock Troops), then the mission (primary scoring).
"""

from __future__ import annotations

from rules.engine.battle_shock import battle_shock_step
from rules.engine.command_points import gain_core_command_points
from rules.engine.effects import expire
from rules.engine.events import Context
from rules.engine.objectives import hold_objectives_at_end_of_command_phase
from rules.engine.scoring import score_primary


def start_command_phase(ctx: Context) -> None:
    expire(ctx, "start_of_next_command_phase", ctx.state["active_player"])
    gain_core_command_points(ctx)
    battle_shock_step(ctx)


def end_command_phase(ctx: Context) -> None:
    hold_objectives_at_end_of_command_phase(ctx)
    score_primary(ctx, "end_of_command_phase")
