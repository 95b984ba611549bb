"""Stratagems that change who fights next: Counteroffensive (11e 15.12), Counter-Offensive (10e;
Boarding Actions).

The window opens just after an enemy unit has fought (10e, Boarding Actions: `enemy_unit_fought`)
/ has resolved its attacks (11e: `enemy_unit_resolved_attacks`, the opponent's Fight phase). The
unit becomes `facts.phase.fights_next`: the next unit selected to fight, by its player, whatever
the alternation (10e "Your unit fights next"; 11e "has the Fights First ability and it must be
the next unit you select to fight", rulings R-ST-19). `fight_phase` reads `fights_next(state)`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.placement import is_engaged
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State
from rules.engine.phases.fight import eligible_fighters
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import not_selected_this_phase, own_units


def _engaged(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return is_engaged(state, unit)


def _make_next(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    ctx.state["facts"]["phase"]["fights_next"] = use.target
    ctx.emit("unit_fights_next", unit=use.target, stratagem=use.slug)
    carry_on(ctx, then)


# 10e / Boarding Actions: "within Engagement Range of one or more enemy units and that has not
# already been selected to fight this phase"; 11e: "eligible to fight" (engaged, or charged this
# turn, and not yet fought).
implements(
    "counter-offensive-10e",
    "counter-offensive-boarding-actions",
    targets=own_units(_engaged, not_selected_this_phase),
)(_make_next)


def _eligible_to_fight(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return unit["id"] in eligible_fighters(state)


implements("counteroffensive-11e", targets=own_units(_eligible_to_fight))(_make_next)
