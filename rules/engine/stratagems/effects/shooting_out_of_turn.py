"""Stratagems that let a unit shoot outside its own Shooting phase, through the Shooting phase's
own code (`shooting_phase.shoot_out_of_turn`: the same target checks, window and attacks).

- Fire Overwatch (11e 15.08): end of the opponent's Movement phase; one unengaged unit, not
  TITANIC, shoots using snap shooting (15.09): one visible enemy unit within 24" that is an
  eligible target; every attack hits only on an unmodified 6; hit rolls cannot be re-rolled.
- Fire Overwatch (10e): the opponent's Movement or Charge phase, just after an enemy unit is set
  up, starts or ends a Normal, Advance or Fall Back move (`reactions`), or declares a charge; a
  unit within 24" of it, eligible to shoot, not TITANIC, shoots that unit (if visible) as if it
  were its Shooting phase; until the end of the phase its ranged attacks hit only on an
  unmodified 6. Once per turn (the record's `limit`).
- Exact Punishment (an Imperial Agents stratagem, in its faction package) uses the same code.

Snap shooting and the 10e "unmodified 6" are attack-pipeline modifiers on the shooting unit
(`hit/unmodified_only`, `hit/no_reroll`), never a test inside the attack sequence. A unit is
offered only when one of its weapons could shoot the allowed target now (rulings R-OW-05).
"""

from __future__ import annotations

from typing import Any

from rules.engine.attacks.in_game import hazard_after_charge_move
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.citations import cite
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State
from rules.engine.phases import shooting as shooting_phase
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    lacks_keyword,
    own_units,
    unengaged,
)

OVERWATCH_RANGE = 24.0  # 11e 15.09; 10e Fire Overwatch
UNMODIFIED_SIX = {"step": "hit", "kind": "unmodified_only", "value": 6, "condition": {}}
NO_HIT_REROLLS: dict[str, Any] = {
    "step": "hit",
    "kind": "no_reroll",
    "value": None,
    "condition": {},
}


def _snap(ctx: Context, use: Use, *modifiers: dict[str, Any]) -> None:
    """Until the end of the phase, the unit's ranged attacks carry these modifiers."""
    for modifier in modifiers:
        attack = {**modifier, "condition": {"weapon_type": "ranged"}}
        effect = {"attack": attack, "as": "attacker", "against": None}
        add_effect(ctx, use.slug, {"unit": use.target}, effect, "end_of_phase", use.player)


def _may_snap_shoot(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return shooting_phase.can_shoot_out_of_turn(state, unit, None, OVERWATCH_RANGE)


def _fire_overwatch_11e(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    _snap(ctx, use, UNMODIFIED_SIX, NO_HIT_REROLLS)
    shooting_phase.shoot_out_of_turn(
        ctx,
        use.target_unit,
        cite(ctx.state, "snap_shooting"),
        then,
        within=OVERWATCH_RANGE,
        single_target=True,
    )


implements(
    "fire-overwatch-11e",
    targets=own_units(unengaged, lacks_keyword("TITANIC"), _may_snap_shoot),
)(_fire_overwatch_11e)


def _may_shoot_the_trigger_unit(state: State, unit: Unit, window: dict[str, Any]) -> bool:
    enemy = window.get("unit")
    return enemy is not None and shooting_phase.can_shoot_out_of_turn(
        state, unit, [enemy], OVERWATCH_RANGE
    )


def _within_24_of_the_trigger_unit(state: State, unit: Unit, window: dict[str, Any]) -> bool:
    enemy = state["units"].get(window.get("unit", ""))
    return enemy is not None and unit_distance(unit, enemy) <= OVERWATCH_RANGE


def _fire_overwatch_10e(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    _snap(ctx, use, UNMODIFIED_SIX)
    if use.window.get("trigger") == "enemy_charge_declared":
        # 10e Hazardous (seed 004 L145): in the opponent's Charge phase the mortal wounds of the
        # unit's failed Hazardous tests wait until "the charging unit has ended its Charge move".
        hazard_after_charge_move(ctx, use.target_unit, use.window["unit"])
    shooting_phase.shoot_out_of_turn(
        ctx,
        use.target_unit,
        cite(ctx.state, "fire_overwatch"),
        then,
        allowed=[use.window["unit"]],
        single_target=True,
    )


implements(
    "fire-overwatch-10e",
    targets=own_units(
        lacks_keyword("TITANIC"), _within_24_of_the_trigger_unit, _may_shoot_the_trigger_unit
    ),
)(_fire_overwatch_10e)
