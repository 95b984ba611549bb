"""Stratagems that move units outside the Movement phase's own sequence.

- Burst of Speed (Astra Militarum, Armoured Infantry): end of your Movement phase, an ASTRA
  MILITARUM unit that did not Remain Stationary or arrive from Reserves this phase makes a Normal
  move of up to D6" (the D6 is rolled when the stratagem resolves).
- Displacer Field (Imperial Agents, Imperialis Fleet): just after an enemy unit selected its
  targets, an AGENTS OF THE IMPERIUM CHARACTER unit (not OFFICIO ASSASSINORUM) it targeted has a
  4+ invulnerable save until the end of the phase and, after the attacking unit has resolved its
  attacks, unless it is engaged, a Normal move of up to 6" as if it had FLY.
- Breach-Shock (Grey Knights, Void Purge Force): Fight phase, a unit not yet selected to fight
  this phase piles in and consolidates up to 6" instead of 3" until the end of the phase.
- Mists of Deimos (Grey Knights, Teleport Strike Force): just after an enemy unit ends a Normal,
  Advance or Fall Back move in your opponent's Movement phase, an unengaged PSYKER unit within
  9" of it makes a Normal move of up to 6" or, with Deep Strike, goes into Strategic Reserves
  (the window of the `reactions` hook, `enemy_move_started_or_ended`).

The moves are `out_of_sequence_moves.offer_normal_move` (a Normal move with maximum X, rulings
R-MV-10, AMB-27); Breach-Shock's distance is read by the Fight phase
(`fight_phase.close_combat_distance`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import every_part_has
from rules.engine.battlefield.board import EPSILON
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.state import State, unit_distance
from rules.engine.phases import movement as movement_phase
from rules.engine.phases.out_of_sequence_moves import MOVE_AFTER_ATTACKS, offer_normal_move
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    has_keywords,
    lacks_keyword,
    not_selected_this_phase,
    own_units,
    selected_as_target,
    unengaged,
)

BURST_OF_SPEED_RULE = "Burst of Speed"


def _moved_this_phase(state: State, unit: dict[str, Any], _window: dict[str, Any]) -> bool:
    """Did not Remain Stationary or arrive from Reserves this phase (the flags are the turn's;
    in the Movement phase that is this phase)."""
    return not (
        has_flag(state, unit["id"], "remained_stationary")
        or has_flag(state, unit["id"], "arrived_from_reserves")
    )


@implements(
    "burst-of-speed",
    targets=own_units(has_keywords("ASTRA MILITARUM"), _moved_this_phase, unengaged),
)
def _burst_of_speed(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    record = roll(ctx, 1, "burst_of_speed", BURST_OF_SPEED_RULE, use.player, use.target)
    offer_normal_move(
        ctx,
        use.target_unit,
        float(record["total"]),
        source=use.slug,
        rule=BURST_OF_SPEED_RULE,
        then=then,
    )


DISPLACER_INVULNERABLE = 4
DISPLACER_DISTANCE = 6.0


@implements(
    "displacer-field",
    targets=own_units(
        has_keywords("AGENTS OF THE IMPERIUM", "CHARACTER"),
        lacks_keyword("OFFICIO ASSASSINORUM"),
        selected_as_target,
    ),
)
def _displacer_field(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """The save at once; the move waits for the attacking unit's attacks (its effect is read by
    `out_of_sequence_moves.after_attacks_resolved`; ruling R-MV-15)."""
    invulnerable = {
        "step": "invulnerable",
        "kind": "set",
        "value": DISPLACER_INVULNERABLE,
        "condition": {},
    }
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"attack": invulnerable, "as": "defender", "against": None},
        "end_of_phase",
        use.player,
    )
    held = {
        "attacker": use.window.get("unit"),
        "max_distance": DISPLACER_DISTANCE,
        "as_if_fly": True,
    }
    add_effect(
        ctx, use.slug, {"unit": use.target}, {MOVE_AFTER_ATTACKS: held}, "end_of_phase", use.player
    )
    carry_on(ctx, then)


BREACH_SHOCK_DISTANCE = 6.0


@implements("breach-shock", targets=own_units(not_selected_this_phase))
def _breach_shock(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"close_combat_move_distance": BREACH_SHOCK_DISTANCE},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


# --- Mists of Deimos (Grey Knights, Teleport Strike Force) -------------------------------------

MISTS_OF_DEIMOS_RULE = "Mists of Deimos"
MISTS_RANGE = 9.0
MISTS_DISTANCE = 6.0
MISTS_KIND = "mists_of_deimos"


def _near_the_unit_that_ended_a_move(
    state: State, unit: dict[str, Any], window: dict[str, Any]
) -> bool:
    """'Just after an enemy unit ends a Normal, Advance or Fall Back move': within 9" of it."""
    if window.get("moment") != "move_ended" or window.get("move") not in ENEMY_MOVES:
        return False
    enemy = state["units"].get(window.get("unit", ""))
    return enemy is not None and unit_distance(unit, enemy) <= MISTS_RANGE + EPSILON


ENEMY_MOVES = ("normal", "advance", "fall_back")


@implements(
    "mists-of-deimos",
    targets=own_units(has_keywords("PSYKER"), unengaged, _near_the_unit_that_ended_a_move),
)
def _mists_of_deimos(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 004 L426-436: a Normal move of up to 6" as if it were your Movement phase or, for a
    unit with Deep Strike, into Strategic Reserves (its controller chooses; rulings R-MV-18)."""
    state = ctx.state
    unit = state["units"][use.target]
    if not every_part_has(state, unit, "Deep Strike"):
        _mists_move(ctx, use.target_unit, use.slug, then)
        return
    push_decision(
        ctx,
        use.player,
        MISTS_KIND,
        ["normal_move", "strategic_reserves"],
        {"step": "mists_of_deimos_chosen", "unit": use.target, "source": use.slug, "then": then},
        MISTS_OF_DEIMOS_RULE,
        f'{unit["name"]}: a Normal move of up to 6" ("normal_move"), or into Strategic Reserves '
        '("strategic_reserves")?',
    )


def _mists_move(ctx: Context, unit_id: str, source: str, then: dict[str, Any] | None) -> None:
    offer_normal_move(
        ctx, unit_id, MISTS_DISTANCE, source=source, rule=MISTS_OF_DEIMOS_RULE, then=then
    )


@continuation("mists_of_deimos_chosen")
def _mists_of_deimos_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice == "normal_move":
        _mists_move(ctx, data["unit"], data["source"], data["then"])
        return
    movement_phase.place_into_strategic_reserves(
        ctx, ctx.state["units"][data["unit"]], data["source"]
    )
    carry_on(ctx, data["then"])
