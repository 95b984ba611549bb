"""The Fight phase (11e 12; 10e Fight phase): the order in which units are selected to fight.

Eligible: units on the battlefield that are engaged or charged this turn and have not fought this
phase. Fights First (12.04 / 10e Fights First step): the active player's units that charged this
turn are selected first. Then the remaining combats alternate, starting with the player whose turn
it is not; a player with no eligible unit passes. Every eligible unit must fight before the phase
ends. The event `unit_selected_to_fight` is what the attack sequence resolves.
"""

from __future__ import annotations

from typing import Any

from rules.engine import windows
from rules.engine.citations import cite
from rules.engine.events import Context
from rules.engine.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.placement import engaged_units, is_engaged
from rules.engine.refusals import Refusal
from rules.engine.selection import own_unit
from rules.engine.state import State, on_battlefield, opponent
from rules.engine.stratagem_effects import fight_order


def eligible_fighters(state: State) -> list[str]:
    return sorted(
        unit["id"]
        for unit in state["units"].values()
        if on_battlefield(unit)
        and not has_acted(state, unit["id"])
        and (is_engaged(state, unit) or has_flag(state, unit["id"], "charged"))
    )


def fights_first(state: State) -> list[str]:
    return [
        u
        for u in eligible_fighters(state)
        if has_flag(state, u, "charged") and fight_order.has_charge_bonus(state, u)
    ]


def selecting_player(state: State) -> int | None:
    """Who selects the next unit to fight, or None when no unit is left to fight."""
    forced = fight_order.fights_next(state)
    if forced is not None:
        return state["units"][forced]["player"]
    first = fights_first(state)
    if first:
        return state["units"][first[0]]["player"]
    eligible = eligible_fighters(state)
    if not eligible:
        return None
    turn = state["facts"]["phase"].get("next_to_fight", opponent(state["active_player"]))
    players = {state["units"][u]["player"] for u in eligible}
    return turn if turn in players else opponent(turn)


def selectable(state: State, player: int) -> list[str]:
    if selecting_player(state) != player:
        return []
    forced = fight_order.fights_next(state)
    if forced is not None:
        return [forced]
    first = fights_first(state)
    pool = first if first else eligible_fighters(state)
    return [u for u in pool if state["units"][u]["player"] == player]


def fight(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    unit = own_unit(ctx, action, cite(state, "fight_phase"))
    if has_acted(state, unit["id"]):
        raise Refusal(
            "already_acted",
            cite(state, "once_per_phase"),
            f"{unit['name']} has already fought this phase.",
        )
    if unit["id"] not in selectable(state, action["player"]):
        raise Refusal(
            "not_eligible_to_fight",
            cite(state, "fight_phase"),
            f"{unit['name']} cannot be selected to fight now: it must be engaged or have charged, "
            "units that charged fight first, then players alternate.",
        )
    was_fights_first = bool(fights_first(state))
    mark_acted(ctx, unit["id"])
    set_flag(ctx, unit["id"], "fought")
    if not was_fights_first:
        state["facts"]["phase"]["next_to_fight"] = opponent(action["player"])
    ctx.emit("unit_selected_to_fight", unit=unit["id"], engaged=is_engaged(state, unit))
    windows.open_window(
        ctx,
        ["unit_selected_to_fight", "enemy_unit_selected_targets"],
        {"unit": unit["id"], "targets": sorted(engaged_units(state, unit))},
        then={"step": "unit_fought", "unit": unit["id"]},
    )
