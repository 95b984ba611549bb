"""Astra Militarum stratagems about Orders (seed 003): Flexible Command and Inspired Command
(Combined Arms), Snap To It, No Retreat! and Purging Fire (Grizzled Company).

Orders are issued by `rules.engine.orders`; a stratagem that lets an Officer "issue one Order as if
it were your Command phase" offers each {officer, order, unit} it may issue as the stratagem's
choices, and that Order counts against the Officer's Orders of the battle round (rulings
R-AM-03).
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.objective_range import units_within_range
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.shapes import Objective
from rules.engine.core.state import State
from rules.engine.factions.astra_militarum import orders
from rules.engine.sequence.objectives import PHASE_HOLD, hold_objective
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    has_keywords,
    not_selected_this_phase,
    own_units,
)

AM = "ASTRA MILITARUM"
am_officer_units = own_units(has_keywords(AM, "OFFICER"))


@implements("flexible-command", targets=am_officer_units)
def _flexible_command(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Until the end of the phase your Officers may issue Orders to REGIMENT and SQUADRON units.
    "Any number of OFFICER units": all of them, which is never worse (rulings R-AM-07)."""
    add_effect(
        ctx,
        use.slug,
        {"player": use.player},
        {"order_recipients": ["REGIMENT", "SQUADRON"]},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


def _officer_units_with_orders(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return [
        unit_id
        for unit_id in am_officer_units(state, player, window)
        if orders.order_options(state, player, counted=True, unit_id=unit_id)
    ]


def _order_choices(state: State, player: int, _window: dict, target: str) -> list[dict]:
    return orders.order_options(state, player, counted=True, unit_id=target)


def _issue_one_order(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """The Officer issues the chosen Order as if it were your Command phase: one of the Orders
    its datasheet allows it in the battle round (Voice of Command), unlike Reactive Command's,
    which "is not counted towards the number of Orders the bearer can issue in a battle round"."""
    officer = orders.officer_of_model(ctx.state, use.extra["officer"])
    assert officer is not None  # the choice was offered for an Officer
    orders.issue(ctx, officer, use.extra["order"], use.extra["unit"], counted=True)
    carry_on(ctx, then)


implements("inspired-command", targets=_officer_units_with_orders, choices=_order_choices)(
    _issue_one_order
)
implements("snap-to-it", targets=_officer_units_with_orders, choices=_order_choices)(
    _issue_one_order
)


def _held_markers(state: State, player: int, unit_id: str) -> list[Objective]:
    return [
        marker
        for marker in state["objectives"]
        if marker["controller"] == player and unit_id in units_within_range(state, marker, player)
    ]


def _no_retreat_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return [
        unit_id
        for unit_id in own_units(has_keywords(AM))(state, player, window)
        if "duty-and-honour" in orders.current_orders(state, unit_id)
        and _held_markers(state, player, unit_id)
    ]


def _no_retreat_markers(state: State, player: int, _window: dict, target: str) -> list[dict]:
    return [{"objective": marker["id"]} for marker in _held_markers(state, player, target)]


@implements("no-retreat", targets=_no_retreat_targets, choices=_no_retreat_markers)
def _no_retreat(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """The marker stays yours with no models in range until your opponent controls it at the
    start or end of a phase (objectives.PHASE_HOLD)."""
    hold_objective(ctx, use.player, use.extra["objective"], use.slug, PHASE_HOLD)
    carry_on(ctx, then)


def _purging_fire_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return [
        unit_id
        for unit_id in own_units(has_keywords(AM), not_selected_this_phase)(state, player, window)
        if orders.current_orders(state, unit_id)
        and any(unit_id in units_within_range(state, m, player) for m in state["objectives"])
    ]


@implements("purging-fire", targets=_purging_fire_targets)
def _purging_fire(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """A unit affected by an Order, within range of an objective marker: until the end of the
    phase its ranged weapons have [LETHAL HITS] (the range is checked when it is used)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {
            "attack": {
                "step": "ability",
                "kind": "grant",
                "value": "lethal hits",
                "condition": {"weapon_type": "ranged"},
            },
            "as": "attacker",
            "against": None,
        },
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)
