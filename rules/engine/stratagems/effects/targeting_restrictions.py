"""Stratagems that restrict who may target a unit: Orbital Oversight (Imperial Agents, Veiled
Blade Elimination Force).

An effect `{"ranged_targetable_within": d}` on a unit: it can only be selected as the target of a
ranged attack by a model within d" of it ("if the attacking model is within 18""): the Shooting
phase's Select Targets keeps only the models within
`shooting_targets.targetable_within(state, target)` of the target
(`shooting_targets.check_target`), and the attacks of a unit that selected its targets before the
effect began are checked again, model by model, when they are resolved
(`shooting._shooting_attacks`; rulings R-ST-21).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import has_keywords, own_units, selected_as_target


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
