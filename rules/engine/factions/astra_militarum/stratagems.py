"""The Astra Militarum detachments' stratagems (Orders stratagems are in `order_stratagems.py`):
attack-modifier effects (Veteran Sharpshooters, Accuracy Under Pressure, Opening Salvo,
Additional Armour, Flare Burst, Courageous Diversion), Tanglefoot Grenades (a charge-roll effect),
Burst of Speed (a Normal move of D6"), Order the Advance (free re-rolls for the phase) and
Scouting Outriders (into strategic reserves). Each uses the generic primitives of
`stratagems/effects/`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.areas import wholly_within_edge_distance
from rules.engine.battlefield.sight import enemies_in_sight
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import has_acted, has_flag
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import carry_on
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, alive_models, on_battlefield, unit_keywords, units_of
from rules.engine.phases import movement as movement_phase
from rules.engine.phases.battle_shock import is_battle_shocked
from rules.engine.phases.out_of_sequence_moves import offer_normal_move
from rules.engine.stratagems.effects.attacks import (
    RANGED,
    against_the_attacker,
    attack_modifier,
    on_attacker,
    register_attack_effects,
)
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    flag,
    has_any_keyword,
    has_keywords,
    not_selected_this_phase,
    own_units,
    selected_as_target,
    unengaged,
)

AM = "ASTRA MILITARUM"


register_attack_effects(
    "veteran-sharpshooters",
    own_units(has_keywords(AM), not_selected_this_phase),
    on_attacker(attack_modifier("ability", "grant", "ignores cover", **RANGED)),
)


register_attack_effects(
    "accuracy-under-pressure",
    own_units(has_keywords(AM), not_selected_this_phase),
    on_attacker(attack_modifier("hit", "reroll", "any")),
)


register_attack_effects(
    "opening-salvo",
    own_units(has_keywords(AM), flag("disembarked"), not_selected_this_phase),
    on_attacker(attack_modifier("wound", "add", 1)),
)


register_attack_effects(
    "additional-armour",
    own_units(has_keywords(AM), selected_as_target),
    against_the_attacker(attack_modifier("ap", "worsen", 1)),
)


register_attack_effects(
    "flare-burst",
    own_units(has_keywords(AM, "CHARACTER"), not_selected_this_phase),
    on_attacker(attack_modifier("hit", "reroll", "any")),
    only_if={"target_within": 12.0, "target_visible": True},
)


@implements(
    "courageous-diversion",
    targets=own_units(has_any_keyword((AM, "INFANTRY"), (AM, "MOUNTED"))),
)
def _courageous_diversion(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Until the end of the phase: Feel No Pain 6+; -1 to the hit roll of attacks against the unit
    while it is the attacker's closest eligible target (R-ST-22)."""
    for modifier, only_if in (
        (attack_modifier("feel_no_pain", "set", 6), None),
        (attack_modifier("hit", "add", -1), {"target_is_closest_visible": True}),
    ):
        effect = {"attack": modifier, "as": "defender", "against": None}
        if only_if:
            effect["only_if"] = only_if
        add_effect(ctx, use.slug, {"unit": use.target}, effect, "end_of_phase", use.player)
    carry_on(ctx, then)


TANGLEFOOT_RANGE = 12.0


def _enemies_in_sight(state: State, player: int, _window: dict, target: str) -> list[dict]:
    unit = state["units"][target]
    return [{"enemy": enemy["id"]} for enemy in enemies_in_sight(state, unit, TANGLEFOOT_RANGE)]


@implements(
    "tanglefoot-grenades",
    targets=own_units(has_keywords("ASTRA MILITARUM", "GRENADES")),
    choices=_enemies_in_sight,
)
def _tanglefoot(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """ "When that enemy unit declares a charge, that enemy unit has -1 to charge rolls": for this
    Charge phase, the one it is used at the start of (rulings R-ST-17)."""
    add_effect(
        ctx, use.slug, {"unit": use.extra["enemy"]}, {"charge_roll": -1}, "end_of_phase", use.player
    )
    carry_on(ctx, then)


BURST_OF_SPEED_RULE = "Burst of Speed"


def _moved_this_phase(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    """Did not Remain Stationary or arrive from Reserves this phase (the flags are the turn's;
    in the Movement phase that is this phase). A unit never selected to move did not move: in
    10e it Remained Stationary, and 11e 09.02 has every unit selected (rulings R-MV-10)."""
    return has_acted(state, unit["id"]) and not (
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


ORDER_RANGE = 6.0


def _officers(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return own_units(has_keywords("ASTRA MILITARUM", "OFFICER"))(state, player, window)


@implements("order-the-advance", targets=_officers)
def _order_the_advance(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Every friendly ASTRA MILITARUM unit within 6" of the OFFICER's unit (its own included) may
    re-roll its Advance rolls until the end of the phase (rulings R-ST-26); a battle-shocked unit
    is not affected (CATALOGUE AMB-47)."""
    officer = ctx.state["units"][use.target_unit]
    for unit in units_of(ctx.state, use.player):
        if not on_battlefield(unit) or "ASTRA MILITARUM" not in unit_keywords(ctx.state, unit):
            continue
        if is_battle_shocked(ctx.state, unit["id"]):
            continue
        if unit["id"] == officer["id"] or unit_distance(unit, officer) <= ORDER_RANGE:
            add_effect(
                ctx,
                use.slug,
                {"unit": unit["id"]},
                {"reroll": "advance"},
                "end_of_phase",
                use.player,
            )
    carry_on(ctx, then)


OUTRIDER_EDGE = 10.0


def _near_edges(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    """Wholly within 10" of one or more battlefield edges: every model within 10" of an edge."""
    return all(
        wholly_within_edge_distance(state["mission"], m, OUTRIDER_EDGE) for m in alive_models(unit)
    )


@implements(
    "scouting-outriders",
    targets=own_units(
        has_any_keyword(("ASTRA MILITARUM", "MOUNTED"), ("ASTRA MILITARUM", "WALKER")),
        _near_edges,
        unengaged,
    ),
)
def _into_reserves(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    movement_phase.place_into_strategic_reserves(ctx, ctx.state["units"][use.target_unit], use.slug)
    carry_on(ctx, then)
