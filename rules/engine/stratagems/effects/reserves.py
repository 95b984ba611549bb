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

from rules.engine.battlefield.areas import wholly_within_edge_distance
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect, forbid_charge_this_turn
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.standing_rules import INGRESS_CHOICES
from rules.engine.core.state import State, alive_models
from rules.engine.phases import movement as movement_phase
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    has_any_keyword,
    has_keywords,
    lacks_keyword,
    own_units,
    unengaged,
)

ARRIVAL_KIND = "stratagem_arrival"


def _in_reserves_may_arrive(state: State, unit: dict[str, Any], _window: dict[str, Any]) -> bool:
    return unit["location"] == "strategic_reserves" and movement_phase.can_arrive(state, unit)


def _ingress_choices(state: State, player: int, window: dict[str, Any], target: str) -> list:
    """The plain use, and other ways rules offer (`standing_rules.INGRESS_CHOICES`)."""
    return [{}] + [
        extra for rule in INGRESS_CHOICES for extra in rule(state, player, window, target)
    ]


def _ask_arrival(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    unit = ctx.state["units"][use.target]
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


# --- Grey Knights: arriving by Deep Strike or Teleport Assault ------------------------------


def _arriving_by_deep_strike_or_teleport(
    state: State, unit: dict[str, Any], _window: dict[str, Any]
) -> bool:
    return movement_phase.arrives_by_deep_strike_or_teleport(state, unit)


def _ask_set_up_by(method: str, prompt: str):
    """The unit is set up at once by the stratagem's own rule (`method`); `null` keeps it waiting
    (rulings R-GK-02)."""

    def resolve(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
        unit = ctx.state["units"][use.target]
        push_decision(
            ctx,
            use.player,
            ARRIVAL_KIND,
            {"unit": unit["id"], "stratagem": use.slug, "method": method},
            {
                "step": "stratagem_arrival",
                "unit": unit["id"],
                "player": use.player,
                "method": method,
                "then": then,
            },
            cite(ctx.state, method),
            f"Set up {unit['name']} {prompt} (or null to stay off the battlefield).",
        )

    return resolve


_prognisticated = _ask_set_up_by(
    "prognisticated_arrival", 'anywhere more than 6" horizontally away from all enemy models'
)


@implements(
    "prognisticated-arrival",
    targets=own_units(has_keywords("PSYKER"), _arriving_by_deep_strike_or_teleport, on_table=False),
)
def _prognisticated_arrival(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 004 L415-425: set up more than 6" away; not eligible to declare a charge this turn."""
    forbid_charge_this_turn(ctx, use.target_unit, use.slug, use.player)
    _prognisticated(ctx, use, then)


implements(
    "hallowed-beacon",
    targets=own_units(
        has_keywords("INFANTRY"),
        lacks_keyword("TERMINATOR"),
        _arriving_by_deep_strike_or_teleport,
        on_table=False,
    ),
)(
    _ask_set_up_by(
        "hallowed_beacon",
        "wholly within your army's Hallowed Ground and more than 6\" away from all enemy units",
    )
)


def _arrived_this_phase(state: State, unit: dict[str, Any], _window: dict[str, Any]) -> bool:
    """Arrived using the Deep Strike or Teleport Assault abilities in this Movement phase (the
    flag is the turn's; only the own Movement phase opens this stratagem)."""
    return has_flag(state, unit["id"], "arrived_by_deep_strike_or_teleport_assault")


@implements("haloed-in-soulfire", targets=own_units(has_keywords("PSYKER"), _arrived_this_phase))
def _haloed_in_soulfire(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 004 L394-402: until the start of your next Movement phase, the unit can only be
    selected as the target of a ranged attack if the attacking model is within 18" (the
    targeting restriction of `targeting_restrictions.may_be_targeted`; rulings R-ST-21)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"ranged_targetable_within": 18.0},
        "start_of_next_movement_phase",
        use.player,
    )
    carry_on(ctx, then)


# --- Imperial Agents: Rapid Tactical Relocation ---------------------------------------------


@implements(
    "rapid-tactical-relocation",
    targets=own_units(
        has_any_keyword(("INQUISITOR",), ("DEATHWATCH", "INFANTRY")),
        unengaged,
    ),
)
def _rapid_tactical_relocation(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 000 L460-470: remove the unit; in the Reinforcements step of your next Movement phase
    set it up anywhere more than 8" horizontally away from all enemy models."""
    unit = ctx.state["units"][use.target]
    movement_phase.remove_to_arrive_later(
        ctx, unit, "rapid_tactical_relocation", "Rapid Tactical Relocation"
    )
    carry_on(ctx, then)


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
    movement_phase.place_into_strategic_reserves(ctx, ctx.state["units"][use.target], use.slug)
    carry_on(ctx, then)
