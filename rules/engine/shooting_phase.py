"""The Shooting phase (11e 10; 10e Shooting phase): selecting units to shoot and their targets.

A unit is eligible to shoot when it is on the battlefield, unengaged, has ranged weapons, has not
fallen back this turn (11e 09.07, 10e Fall Back) and, where `advance_forbids_shooting` (10e), has
not advanced; an effect `{"eligibility": "shoot_after_advance_or_fall_back"}` lifts both. Each
target must be an enemy unit on the battlefield within range of one of its ranged weapons. The
event `unit_selected_to_shoot` is what the attack sequence resolves.
"""

from __future__ import annotations

from typing import Any

from rules.engine import windows
from rules.engine.citations import cite
from rules.engine.effects import effects_on_unit
from rules.engine.events import Context
from rules.engine.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.placement import is_engaged
from rules.engine.refusals import Refusal
from rules.engine.selection import own_unit
from rules.engine.state import State, on_battlefield, unit_distance
from rules.engine.stratagem_effects import targeting_restrictions
from rules.engine.weapons import longest_range, weapons


def _may_shoot_after_moving(state: State, unit_id: str) -> bool:
    return any(
        e["modifier"].get("eligibility") == "shoot_after_advance_or_fall_back"
        for e in effects_on_unit(state, unit_id)
    )


def ineligibility(state: State, unit: dict[str, Any]) -> Refusal | None:
    """Why the unit cannot be selected to shoot now, or None when it can."""
    name = unit["name"]
    if not on_battlefield(unit):
        return Refusal(
            "not_on_battlefield",
            cite(state, "shooting_phase"),
            f"{name} is not on the battlefield.",
        )
    if has_acted(state, unit["id"]):
        return Refusal(
            "already_acted", cite(state, "once_per_phase"), f"{name} has already shot this phase."
        )
    if not weapons(state, unit, "ranged"):
        return Refusal(
            "no_ranged_weapons", cite(state, "shooting_phase"), f"{name} has no ranged weapons."
        )
    if is_engaged(state, unit):
        return Refusal(
            "engaged", cite(state, "shooting_phase"), f"{name} is engaged and cannot shoot."
        )
    freed = _may_shoot_after_moving(state, unit["id"])
    if has_flag(state, unit["id"], "fell_back") and not freed:
        return Refusal(
            "fell_back", cite(state, "fall_back"), f"{name} fell back this turn and cannot shoot."
        )
    if (
        state["edition"]["advance_forbids_shooting"]
        and has_flag(state, unit["id"], "advanced")
        and not freed
    ):
        return Refusal(
            "advanced", cite(state, "advance"), f"{name} advanced this turn and cannot shoot."
        )
    return None


def targets_in_range(state: State, unit: dict[str, Any]) -> list[str]:
    reach = longest_range(state, unit)
    return sorted(
        other["id"]
        for other in state["units"].values()
        if other["player"] != unit["player"]
        and unit_distance(unit, other) <= reach
        and targeting_restrictions.may_be_targeted(state, unit, other)
    )


def shoot(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    unit = own_unit(ctx, action, cite(state, "shooting_phase"))
    refusal = ineligibility(state, unit)
    if refusal is not None:
        raise refusal
    targets = action.get("targets")
    allowed = targets_in_range(state, unit)
    if not isinstance(targets, list) or not targets or any(t not in allowed for t in targets):
        raise Refusal(
            "invalid_target",
            cite(state, "shooting_phase"),
            f"Each target must be an enemy unit within range of {unit['name']}'s ranged weapons.",
            {"allowed": allowed},
        )
    mark_acted(ctx, unit["id"])
    set_flag(ctx, unit["id"], "shot")
    ctx.emit("unit_selected_to_shoot", unit=unit["id"], targets=sorted(set(targets)))
    windows.open_window(
        ctx,
        ["unit_selected_to_shoot", "enemy_unit_selected_targets"],
        {"unit": unit["id"], "targets": sorted(set(targets))},
    )
