"""The Charge phase (11e 11; 10e Charge phase).

A unit is eligible to declare a charge when it is on the battlefield, unengaged, within
`charge_range` (12") of one or more enemy units and did not advance or fall back this turn
(11.02, 09.06, 09.07). The charge roll is 2D6 (recorded); it is the maximum distance of the
charge move. The charge targets:
- 10e (`charge_targets_after_roll` false): declared with the charge, enemy units within 12".
- 11e (true, 11.04 Before Moving): selected after the roll among the enemy units within 12" and
  within the roll. Targets named in the declaration are the default selection; the charge move
  can name others (`{"targets": [...], "positions": {...}}`).
If no move can reach (10e: engagement range of every declared target; 11e: no enemy unit within
the roll), the charge fails and nothing moves. Otherwise its owner makes the charge move (a
pending decision), checked by the battlefield (`validate_move`, `close_combat_moves`): each model
up to the roll and closer to a target, within 1" / base contact where it can, ending engaged with
every target and with no other enemy unit, in coherency; or declines (`null`).
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.placement import (
    check_move,
    enemy_gaps,
    final_positions,
    is_engaged,
    place,
    read_positions,
)
from rules.engine.core import standing_rules, timing
from rules.engine.core.actions import PhaseActions
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import CANNOT_CHARGE, effects_on_unit, has_status
from rules.engine.core.events import Context
from rules.engine.core.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import roll
from rules.engine.core.selection import own_unit
from rules.engine.core.sequencing import continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import in_army_area
from rules.engine.core.state import State, alive_models, on_battlefield, units_of
from rules.engine.phases.movement import flight_template, takes_to_the_skies

EPSILON = 1e-6


def ineligibility(state: State, unit: Unit) -> Refusal | None:
    name = unit["name"]
    if not on_battlefield(unit):
        return Refusal(
            "not_on_battlefield",
            cite(state, "declare_charge"),
            f"{name} is not on the battlefield.",
        )
    if has_acted(state, unit["id"]):
        return Refusal(
            "already_acted",
            cite(state, "once_per_phase"),
            f"{name} has already been selected this phase.",
        )
    if is_engaged(state, unit):
        return Refusal(
            "engaged",
            cite(state, "declare_charge"),
            f"{name} is engaged and cannot declare a charge.",
        )
    if has_flag(state, unit["id"], "advanced") and not standing_rules.waives(
        state, unit, "charge_after_advance"
    ):
        return Refusal(
            "advanced",
            cite(state, "advance"),
            f"{name} advanced this turn and cannot declare a charge.",
        )
    if has_status(state, unit["id"], CANNOT_CHARGE):
        return Refusal(
            "not_eligible_to_charge",
            cite(state, "declare_charge"),
            f"{name} is not eligible to declare a charge this turn "
            f"({', '.join(_charge_bans(state, unit['id']))}).",
        )
    if has_flag(state, unit["id"], "fell_back"):
        return Refusal(
            "fell_back",
            cite(state, "fall_back"),
            f"{name} fell back this turn and cannot declare a charge.",
        )
    return None


def _charge_bans(state: State, unit_id: str) -> list[str]:
    return [
        e["source"]
        for e in effects_on_unit(state, unit_id)
        if e["modifier"].get("status") == CANNOT_CHARGE
    ]


def charge_targets(state: State, unit: Unit, within: float | None = None) -> list[str]:
    """Enemy units within `charge_range` of the unit (and within `within`, e.g. the roll)."""
    reach = state["edition"]["charge_range"]
    if within is not None:
        reach = min(reach, within)
    return sorted(t for t, gap in enemy_gaps(state, unit).items() if gap <= reach + EPSILON)


def charge_roll_modifier(state: State, unit_id: str, targets: list[str]) -> int:
    """The sum of the `charge_roll` effects on the charging unit, and of the
    `charge_roll_when_targeted` effects on its targets; with `in_area` ({area: value}), the
    value instead while that target is wholly within that area of its army
    (`standing_rules.in_army_area`; Repelling Sphere: -2 in its Hallowed Ground)."""
    total = sum(e["modifier"].get("charge_roll", 0) for e in effects_on_unit(state, unit_id))
    for target in targets:
        for effect in effects_on_unit(state, target):
            modifier = effect["modifier"]
            if "charge_roll_when_targeted" not in modifier:
                continue
            unit = state["units"][target]
            value = modifier["charge_roll_when_targeted"]
            for area, instead in modifier.get("in_area", {}).items():
                if in_army_area(state, area, unit):
                    value = instead
                    break
            total += value
    return total


def charge_in_progress(state: State) -> bool:
    return any(d["kind"] == "charge_move" for d in state["pending"])


def declare_charge(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    rule = cite(state, "declare_charge")
    unit = own_unit(ctx, action, rule)
    refusal = ineligibility(state, unit)
    if refusal is not None:
        raise refusal
    allowed = charge_targets(state, unit)
    after_roll = state["edition"]["charge_targets_after_roll"]
    if not allowed:
        raise Refusal(
            "no_charge_target",
            rule,
            f'{unit["name"]} is not within {state["edition"]["charge_range"]:g}" of an enemy unit.',
        )
    targets = action.get("targets", [] if after_roll else None)
    if (
        not isinstance(targets, list)
        or (not targets and not after_roll)
        or any(t not in allowed for t in targets)
    ):
        raise Refusal(
            "invalid_charge_target",
            rule,
            f'Charge targets must be enemy units within {state["edition"]["charge_range"]:g}".',
            {"allowed": allowed},
        )
    targets = sorted(set(targets))
    if takes_to_the_skies(state, unit, action):
        state["facts"]["phase"].setdefault("taking_to_the_skies", []).append(unit["id"])
    mark_acted(ctx, unit["id"])
    ctx.emit("charge_declared", unit=unit["id"], targets=targets)
    # The units the charge is against, for the rules that react to it (Blind Grenades, Repelling
    # Sphere): the declared targets, or in 11e, where targets come after the roll, every unit it
    # may still charge, so that declaring none dodges nothing (issue 14 defect 19).
    against = targets or sorted(allowed)
    # Stratagem windows just after the declaration (Blind Grenades), then the roll.
    timing.stratagem_window(
        ctx,
        ["charge_declared", "enemy_charge_declared"],
        {"unit": unit["id"], "targets": against},
        {"step": "charge_roll", "unit": unit["id"], "targets": targets, "against": against},
    )


@continuation("charge_roll")
def _charge_roll(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    unit, targets = state["units"][data["unit"]], data["targets"]
    if not alive_models(unit):
        # Destroyed in the window after the declaration (10e Fire Overwatch): no charge roll.
        ctx.emit("charge_ended", unit=unit["id"], reason="destroyed")
        timing.reach(ctx, timing.CHARGE_ENDED, {"unit": unit["id"], "moved": False}, None)
        return
    record = roll(
        ctx,
        2,
        "charge",
        cite(state, "charge_phase"),
        unit["player"],
        unit["id"],
        modifier=charge_roll_modifier(state, unit["id"], data.get("against", targets))
        + standing_rules.roll_bonus(state, unit, "charge"),
    )
    # Just after the roll: its window (Command Re-roll), then the charge goes on with the roll.
    timing.after_roll(
        ctx, record, {"step": "charge_rolled", "unit": unit["id"], "targets": targets}
    )


@continuation("charge_rolled")
def _charge_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    rule = cite(state, "charge_phase")
    unit, targets = state["units"][data["unit"]], data["targets"]
    charge_roll = data["roll"]["total"]
    after_roll = state["edition"]["charge_targets_after_roll"]
    allowed = charge_targets(state, unit)
    reach = state["edition"]["engagement_range_horizontal"]
    gaps = enemy_gaps(state, unit)
    # A target may have been destroyed in the window after the declaration.
    targets = [t for t in targets if t in gaps]
    if after_roll:
        selectable = charge_targets(state, unit, within=charge_roll)
        needed = min((gaps[t] for t in allowed), default=float("inf"))
        possible = bool(selectable)
    else:
        selectable = targets
        needed = max((gaps[t] - reach for t in targets), default=float("inf"))
        possible = bool(targets) and charge_roll + EPSILON >= needed
    if not possible:
        ctx.emit("charge_failed", unit=unit["id"], roll=charge_roll, needed=round(needed, 3))
        timing.reach(ctx, timing.CHARGE_ENDED, {"unit": unit["id"], "moved": False}, None)
        return
    push_decision(
        ctx,
        unit["player"],
        "charge_move",
        {
            "unit": unit["id"],
            "max_distance": charge_roll,
            "targets": selectable,
            "declared": targets,
            "select_targets": after_roll,
        },
        {
            "step": "charge_move",
            "unit": unit["id"],
            "max_distance": charge_roll,
            "targets": selectable,
            "declared": targets,
        },
        rule,
        f'Charge move {unit["name"]} up to {charge_roll}" (or decline with null).',
    )


def _chosen_targets(state: State, data: dict[str, Any], choice: dict[str, Any]) -> list[str]:
    rule = cite(state, "charge_phase")
    declared = data.get("declared", data["targets"])  # Heroic Intervention names its targets
    if "targets" not in choice:
        if declared:
            return declared
        raise Refusal("charge_targets_required", rule, "Select the charge targets.")
    targets = choice["targets"]
    after_roll = state["edition"]["charge_targets_after_roll"]
    if (
        not isinstance(targets, list)
        or not targets
        or any(t not in data["targets"] for t in targets)
        or (not after_roll and sorted(set(targets)) != declared)
    ):
        raise Refusal(
            "invalid_charge_target",
            rule,
            'Charge targets are enemy units within 12" and within the charge roll'
            if after_roll
            else "The charge targets are the units declared.",
            {"allowed": data["targets"]},
        )
    return sorted(set(targets))


@continuation("charge_move")
def _charge_move(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    if choice is None:
        ctx.emit("charge_move_declined", unit=unit["id"])
        carry_on_after_charge(ctx, data)
        return
    if isinstance(choice, dict) and set(choice) <= {"targets", "positions"} and choice:
        positions = choice.get("positions")
        targets = _chosen_targets(state, data, choice)
    else:
        positions, targets = choice, _chosen_targets(state, data, {})
    read = read_positions(unit, positions, cite(state, "charge_phase"))
    check_move(
        state,
        unit,
        read,
        "charge",
        0.0,
        bonus=data["max_distance"],
        targets=frozenset(targets),
        take_to_the_skies=unit["id"] in state["facts"]["phase"].get("taking_to_the_skies", []),
    )
    place(unit, read)
    set_flag(ctx, unit["id"], "charged")
    ctx.emit("unit_charged", unit=unit["id"], positions=final_positions(read), targets=targets)
    # What waits for the end of this charge move (10e Hazardous after Fire Overwatch) comes
    # before the window just after it (rulings R-ENG-17).
    timing.reach(
        ctx,
        timing.CHARGE_ENDED,
        {"unit": unit["id"], "moved": True},
        {"step": "charge_move_window", "unit": unit["id"], "then": data.get("then")},
    )


@continuation("charge_move_window")
def _charge_move_window(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    timing.stratagem_window(ctx, "charge_move_ended", {"unit": data["unit"]}, data.get("then"))


def carry_on_after_charge(ctx: Context, data: dict[str, Any]) -> None:
    """A charge move declined: what waits for the end of the unit's charge, then the `then` of a
    charge resolved for another rule (Heroic Intervention)."""
    unit = data["unit"]
    timing.reach(ctx, timing.CHARGE_ENDED, {"unit": unit, "moved": False}, data.get("then"))


# --- the phase's actions (core/actions.py) ------------------------------------------------------


def legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    """A `declare_charge` template for each of the player's units eligible to charge with enemy
    units within charge range."""
    found = []
    for unit in units_of(state, player):
        if ineligibility(state, unit) is None:
            targets = charge_targets(state, unit)
            if targets:
                found.append(
                    {
                        "type": "declare_charge",
                        "player": player,
                        "unit": unit["id"],
                        "targets": targets,
                        "max_distance": "2D6",
                        "targets_after_roll": state["edition"]["charge_targets_after_roll"],
                        **flight_template(state, unit),
                    }
                )
    return found


PHASE = PhaseActions("charge", {"declare_charge": declare_charge}, legal_actions)
