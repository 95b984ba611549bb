"""The Command phase (11e 08; 10e Command phase).

Start (08.01): effects lasting "until the start of your next Command phase" end (10e battle-shock
included). 1. Both players gain Core CP (08.02). 2. Battle-shock (08.03): for each unit that must
test, a stratagem window just before its roll (Insane Bravery) and, if it fails, just after. Then
the active player uses command abilities and ends the phase (08.04). End (08.05): rules other
than mission rules first (Sanctifying Ritual, Shock Troops), then the mission (primary scoring:
`sequence.battle.end_command_phase`, the mission being the battle sequence's).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.actions import PhaseActions
from rules.engine.core.effects import expire
from rules.engine.core.events import Context
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.state import is_destroyed
from rules.engine.core.timing import BATTLE_SHOCK_STEP_ENDED, reach, stratagem_window
from rules.engine.phases.battle_shock import (
    battle_shock_roll,
    consume_automatic_pass,
    passes_automatically,
    units_to_test,
)
from rules.engine.phases.command_points import gain_core_command_points


def start_command_phase(ctx: Context) -> None:
    expire(ctx, "start_of_next_command_phase", ctx.state["active_player"])
    gain_core_command_points(ctx)


def battle_shock_step(ctx: Context) -> None:
    """08.03 / 10e step 2, after the start-of-phase window."""
    resume(ctx, {"step": "battle_shock_next", "queue": units_to_test(ctx.state)})


@continuation("battle_shock_next")
def _battle_shock_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    queue = data["queue"]
    if not queue:
        # In your Command phase, after the Battle-shock step (Apothecary's Narthecium).
        reach(ctx, BATTLE_SHOCK_STEP_ENDED, {}, None)
        return
    unit_id, rest = queue[0], queue[1:]
    stratagem_window(
        ctx,
        "battle_shock_before_roll",
        {"unit": unit_id},
        {"step": "battle_shock_roll", "unit": unit_id, "queue": rest},
    )


@continuation("battle_shock_roll")
def _battle_shock_roll(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    following = {"step": "battle_shock_next", "queue": data["queue"]}
    if is_destroyed(unit):
        resume(ctx, following)
        return
    automatic = passes_automatically(ctx.state, unit["id"])
    if automatic:
        consume_automatic_pass(ctx, unit["id"])
    if battle_shock_roll(ctx, unit, "command phase", automatic=automatic):
        resume(ctx, following)
    else:
        stratagem_window(ctx, "battle_shock_after_fail", {"unit": unit["id"]}, following)


# The Command phase has no action of its own: the active player uses stratagems and ends it.
PHASE = PhaseActions("command", {}, lambda _state, _player: [])
