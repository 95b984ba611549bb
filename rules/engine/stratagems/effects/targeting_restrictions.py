"""Stratagems that restrict who may target a unit: Orbital Oversight (Imperial Agents, Veiled
Blade Elimination Force).

An effect `{"ranged_targetable_within": d}` on a unit: it can only be selected as the target of a
ranged attack by a unit within d" of it. `may_be_targeted(state, shooter, target)` is what the
Shooting phase asks when it lists a unit's targets (one call). The seed says "if the attacking
model is within 18"": the engine selects targets per unit, so a unit with a model within the
distance may select it (rulings R-ST-21).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.effects import add_effect, effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.state import State, unit_distance
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import has_keywords, own_units, selected_as_target


def may_be_targeted(state: State, shooter: dict[str, Any], target: dict[str, Any]) -> bool:
    for effect in effects_on_unit(state, target["id"]):
        reach = effect["modifier"].get("ranged_targetable_within")
        if reach is not None and unit_distance(shooter, target) > reach:
            return False
    return True


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
