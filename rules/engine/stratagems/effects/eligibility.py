"""Stratagems that change what a unit is eligible to do."""

from __future__ import annotations

from typing import Any

from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import has_keywords, own_units


@implements("emperors-will", targets=own_units(has_keywords("AGENTS OF THE IMPERIUM")))
def shoot_after_advancing(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Imperialis Fleet: eligible to shoot in a turn it Advanced or Fell Back. The seed's "until
    the end of the phase" (a Movement phase stratagem) is read as the end of the turn (rulings
    R-ST-04), the shooting phase's eligibility effect (shooting_phase.py)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"eligibility": "shoot_after_advance_or_fall_back"},
        "end_of_turn",
        use.player,
    )
    carry_on(ctx, then)
