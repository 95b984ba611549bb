"""Stratagems that change charge rolls: Tanglefoot Grenades (Astra Militarum, Recon Element),
Repelling Sphere (Grey Knights, Warpbane Task Force), Blind Grenades (Imperial Agents, Veiled
Blade Elimination Force).

An effect `{"charge_roll": n}` on an enemy unit adds n to its charge rolls while it lasts;
`phases.charge.charge_roll_modifier(state, unit_id, targets)` is what the Charge phase adds to
the roll (one call where it rolls).
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.sight import enemies_in_sight
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.state import State, unit_keywords
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    has_any_keyword,
    has_keywords,
    own_units,
    selected_as_target,
    unengaged,
)

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


@implements("repelling-sphere", targets=own_units(has_keywords("INFANTRY")))
def _repelling_sphere(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Until the end of the phase: -1 to the charge roll of each enemy unit that declares a charge
    targeting your unit, -2 if your unit is wholly within your Hallowed Ground (then)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"charge_roll_when_targeted": -1, "in_hallowed_ground": -2},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


@implements(
    "blind-grenades",
    targets=own_units(
        has_any_keyword(("AGENTS OF THE IMPERIUM", "GRENADES"), "VINDICARE ASSASSIN"),
        selected_as_target,
        unengaged,
    ),
)
def _blind_grenades(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Just after an enemy unit declared a charge: -1 to its charge rolls this phase (-2 if your
    unit is a VINDICARE ASSASSIN); its roll follows the window."""
    vindicare = "VINDICARE ASSASSIN" in unit_keywords(ctx.state, ctx.state["units"][use.target])
    add_effect(
        ctx,
        use.slug,
        {"unit": use.window["unit"]},
        {"charge_roll": -2 if vindicare else -1},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)
