"""Stratagems that restrict who may target a unit: Orbital Oversight (Imperial Agents, Veiled
Blade Elimination Force).

An effect `{"ranged_targetable_within": d}` on a unit: it can only be selected as the target of a
ranged attack by a model within d" of it ("if the attacking model is within 18""): the Shooting
phase's Select Targets keeps only the models within `targetable_within(state, target)` of the
target (`shooting_targets.check_target`), and the attacks of a unit that selected its targets
before the effect began are checked again, model by model, when they are resolved
(`shooting._shooting_attacks`; rulings R-ST-21).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.effects import add_effect, effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.state import State, unit_distance
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import has_keywords, own_units, selected_as_target


def targetable_within(state: State, target: dict[str, Any]) -> float | None:
    """The distance within which a model must be to select the unit as the target of a ranged
    attack (the shortest of the effects on it), or None when nothing restricts it."""
    reaches = [
        effect["modifier"]["ranged_targetable_within"]
        for effect in effects_on_unit(state, target["id"])
        if effect["modifier"].get("ranged_targetable_within") is not None
    ]
    return min(reaches, default=None)


def may_be_targeted(state: State, shooter: dict[str, Any], target: dict[str, Any]) -> bool:
    """One or more of the shooting unit's models is within reach of the target unit."""
    reach = targetable_within(state, target)
    return reach is None or unit_distance(shooter, target) <= reach


@implements(
    "orbital-oversight",
    targets=own_units(has_keywords("AGENTS OF THE IMPERIUM", "INFANTRY"), selected_as_target),
)
def _orbital_oversight(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    unit = ctx.state["units"][use.target]
    reach = 6.0 if "Lone Operative" in unit["abilities"] else 18.0
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"ranged_targetable_within": reach},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)
