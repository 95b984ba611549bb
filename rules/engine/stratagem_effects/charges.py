"""Stratagems that change charge rolls: Tanglefoot Grenades (Astra Militarum, Recon Element).

An effect `{"charge_roll": n}` on an enemy unit adds n to its charge rolls while it lasts;
`charge_roll_modifier(state, unit_id)` is what the Charge phase adds to the roll (one call where
it rolls).
"""

from __future__ import annotations

from typing import Any

from rules.engine.effects import add_effect, effects_on_unit
from rules.engine.events import Context
from rules.engine.state import State, on_battlefield, unit_distance
from rules.engine.stratagem_effects.base import Use, carry_on, implements
from rules.engine.stratagem_effects.sight import visible
from rules.engine.stratagem_effects.targeting import has_keywords, own_units

TANGLEFOOT_RANGE = 12.0


def charge_roll_modifier(state: State, unit_id: str) -> int:
    """The sum of the `charge_roll` effects on the charging unit."""
    return sum(e["modifier"].get("charge_roll", 0) for e in effects_on_unit(state, unit_id))


def _enemies_in_sight(state: State, player: int, _window: dict, target: str) -> list[dict]:
    unit = state["units"][target]
    return [
        {"enemy": enemy["id"]}
        for _, enemy in sorted(state["units"].items())
        if enemy["player"] != player
        and on_battlefield(enemy)
        and unit_distance(unit, enemy) <= TANGLEFOOT_RANGE
        and visible(state, unit, enemy)
    ]


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
