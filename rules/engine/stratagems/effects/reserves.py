"""Stratagems that move units between the battlefield and strategic reserves.

- Rapid Ingress (11e 15.07: "Your unit makes an ingress move (20.04)"; 10e: "arrive as if it
  were the Reinforcements step of your Movement phase"): at the end of the opponent's Movement
  phase the unit's owner sets it up, checked by the Movement phase's own arrival rule
  (`movement_phase.arrive`: from the battle round reserves may arrive, wholly within the
  reserves edge distance, not in the enemy zone, more than the reserves distance from enemies).
  The owner answers a `stratagem_arrival` decision with positions, or `null` to stay in reserve
  (rulings R-ST-14). 10e's optional Deep Strike set-up waits for the Deep Strike rules.
Faction stratagems that use these primitives are in `factions/<faction>/stratagems.py`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.arrival_areas import arrival_areas
from rules.engine.core.decisions import push_decision
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Decision, Unit
from rules.engine.core.standing_rules import DECISION_TEMPLATES, INGRESS_CHOICES
from rules.engine.core.state import State
from rules.engine.phases import movement as movement_phase
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    lacks_keyword,
    own_units,
)

ARRIVAL_KIND = "stratagem_arrival"


def _in_reserves_may_arrive(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return unit["location"] == "strategic_reserves" and movement_phase.can_arrive(state, unit)


def _ingress_choices(state: State, player: int, window: dict[str, Any], target: str) -> list:
    """The plain use, and other ways rules offer (`standing_rules.INGRESS_CHOICES`)."""
    return [{}] + [
        extra for rule in INGRESS_CHOICES for extra in rule(state, player, window, target)
    ]


def _ask_arrival(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    unit = ctx.state["units"][use.target_unit]
    anywhere = use.extra.get("set_up_more_than_from_enemies")
    # 11e 15.07 "makes an ingress move (20.04)", with which a Deep Strike unit may use its
    # Deep Strike set-up (24.09); 10e Rapid Ingress prints the Deep Strike option.
    options = {
        "unit": unit["id"],
        "stratagem": use.slug,
        "methods": movement_phase.arrival_methods(ctx.state, unit),
    }
    if anywhere is not None:
        options["set_up_more_than_from_enemies"] = anywhere
    push_decision(
        ctx,
        use.player,
        ARRIVAL_KIND,
        options,
        {
            "step": "stratagem_arrival",
            "unit": unit["id"],
            "player": use.player,
            "then": then,
            "anywhere": anywhere,
        },
        ctx.state["stratagems"][use.slug].get("section") or "Rapid Ingress",
        f"Set up {unit['name']} arriving from strategic reserves (or null to stay): positions "
        'for an ingress move, or {"positions", "method"} to set it up by Deep Strike.',
    )


implements(
    "rapid-ingress-11e",
    targets=own_units(_in_reserves_may_arrive, lacks_keyword("AIRCRAFT"), on_table=False),
    choices=_ingress_choices,
)(_ask_arrival)
implements(
    "rapid-ingress-10e",
    targets=own_units(_in_reserves_may_arrive, on_table=False),
    choices=_ingress_choices,
)(_ask_arrival)


@continuation("stratagem_arrival")
def _arrival_positions(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice is None:
        ctx.emit("arrival_declined", unit=data["unit"])
        carry_on(ctx, data["then"])
        return
    method = data.get("method")
    if method is None:
        # Positions (an ingress move), or {"positions", "method"} with one of the `methods`.
        action = {"type": "arrive", "player": data["player"], "unit": data["unit"]}
        if isinstance(choice, dict) and "positions" in choice and "method" in choice:
            action.update(positions=choice["positions"], method=choice["method"])
        else:
            action["positions"] = choice
        movement_phase.arrive(ctx, action, data["then"], anywhere_more_than=data.get("anywhere"))
        return
    unit = ctx.state["units"][data["unit"]]
    movement_phase.set_up_arriving(ctx, unit, choice, method, data["then"])


def _arrival_template(state: State, decision: Decision) -> dict[str, Any]:
    """Where the unit may be set up, drawn while the player places it: the areas of the
    decision's `methods` (or its one `method`), anywhere more than `set_up_more_than_from_enemies`
    when a rule allows that (the same shape as the `arrive` template's). Measured when offered,
    not kept in the decision: its options stay as small as they were."""
    options = decision["options"]
    assert isinstance(options, dict)  # a position decision's template
    unit = state["units"][options["unit"]]
    methods = options.get("methods") or [options["method"]]
    anywhere = options.get("set_up_more_than_from_enemies")
    return {"areas": arrival_areas(state, unit, methods, anywhere)}


DECISION_TEMPLATES.add(ARRIVAL_KIND, _arrival_template)
