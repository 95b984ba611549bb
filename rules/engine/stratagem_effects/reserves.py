"""Stratagems that move units between the battlefield and strategic reserves.

- Rapid Ingress (11e 15.07: "Your unit makes an ingress move (20.04)"; 10e: "arrive as if it
  were the Reinforcements step of your Movement phase"): at the end of the opponent's Movement
  phase the unit's owner sets it up, checked by the Movement phase's own arrival rule
  (`movement_phase.arrive`: from the battle round reserves may arrive, wholly within the
  reserves edge distance, not in the enemy zone, more than the reserves distance from enemies).
  The owner answers a `stratagem_arrival` decision with positions, or `null` to stay in reserve
  (rulings R-ST-14). 10e's optional Deep Strike set-up waits for the Deep Strike rules.
- Scouting Outriders (Astra Militarum, Recon Element): the unit is placed into strategic reserves.
"""

from __future__ import annotations

from typing import Any

from rules.engine import movement_phase
from rules.engine.areas import wholly_within_edge_distance
from rules.engine.decisions import push_decision
from rules.engine.events import Context
from rules.engine.sequencing import continuation
from rules.engine.state import State, alive_models
from rules.engine.stratagem_effects.base import Use, carry_on, implements
from rules.engine.stratagem_effects.targeting import (
    has_any_keyword,
    lacks_keyword,
    own_units,
    unengaged,
)

ARRIVAL_KIND = "stratagem_arrival"


def _in_reserves_may_arrive(state: State, unit: dict[str, Any], _window: dict[str, Any]) -> bool:
    return unit["location"] == "strategic_reserves" and movement_phase.can_arrive(state, unit)


def _ask_arrival(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    unit = ctx.state["units"][use.target]
    push_decision(
        ctx,
        use.player,
        ARRIVAL_KIND,
        {"unit": unit["id"], "stratagem": use.slug},
        {"step": "stratagem_arrival", "unit": unit["id"], "player": use.player, "then": then},
        ctx.state["stratagems"][use.slug].get("section") or "Rapid Ingress",
        f"Set up {unit['name']} arriving from strategic reserves (or null to stay).",
    )


implements(
    "rapid-ingress-11e",
    targets=own_units(_in_reserves_may_arrive, lacks_keyword("AIRCRAFT"), on_table=False),
)(_ask_arrival)
implements("rapid-ingress-10e", targets=own_units(_in_reserves_may_arrive, on_table=False))(
    _ask_arrival
)


@continuation("stratagem_arrival")
def _arrival_positions(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice is None:
        ctx.emit("arrival_declined", unit=data["unit"])
        carry_on(ctx, data["then"])
        return
    movement_phase.arrive(
        ctx,
        {"type": "arrive", "player": data["player"], "unit": data["unit"], "positions": choice},
        data["then"],
    )


OUTRIDER_EDGE = 10.0


def _near_edges(state: State, unit: dict[str, Any], _window: dict[str, Any]) -> bool:
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
    unit = ctx.state["units"][use.target]
    unit["location"] = "strategic_reserves"
    ctx.emit("unit_placed_into_reserves", unit=unit["id"], source=use.slug)
    carry_on(ctx, then)
