"""Charges out of the own Charge phase: Heroic Intervention (11e 15.11; 10e Heroic
Intervention), and the primitives faction stratagems that charge use (`declare_and_roll_charge`,
`enemy_units_of`: Ensnaring Trap, an Imperial Agents stratagem in its faction package).

11e Heroic Intervention, at the end of the opponent's Charge phase:
"Resolve a charge with your unit (11.02). While doing so, before making the charge roll, you must
select one of the following modes": the mode is the option's `mode` (`leap_to_defend`, or
`into_the_fray` for +1CP). Then, as 11.02: the charge roll (2D6, with its after-roll window:
Command Re-roll), capped at 6 for Into the Fray; the charge targets are chosen among the enemy
units within 12" and within the maximum distance (Leap to Defend: only units that made a charge
move this phase; Into the Fray: units within 6" of your unit) — a `choose_charge_targets`
decision —, then the Charge phase's own charge move decision (`charge_move`), which carries on
with the window afterwards. The charge move gives Fights First until the end of the turn (11.04).

10e Heroic Intervention, just after an enemy unit ends a Charge move: a unit within 6" of it that
could declare a charge against it declares a charge against only that unit (target first, then
the roll, as in the 10e Charge phase); it receives no Charge bonus (no Fights First).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.engine.battlefield.placement import is_engaged
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core import standing_rules
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, on_battlefield, unit_keywords
from rules.engine.phases.charge import charge_roll_modifier, ineligibility
from rules.engine.phases.fight import NO_CHARGE_BONUS
from rules.engine.stratagems import windows
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    own_units,
    unengaged,
)

REACH = 12.0
INTO_THE_FRAY_REACH = 6.0
INTO_THE_FRAY_CAP = 6
MODES = ("leap_to_defend", "into_the_fray")


def enemy_units_of(state: State, unit: Unit) -> list[Unit]:
    return [
        enemy
        for _, enemy in sorted(state["units"].items())
        if enemy["player"] != unit["player"] and on_battlefield(enemy)
    ]


def _may_intervene(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    """Within 12" of one or more enemy units; a VEHICLE only if it is a CHARACTER or WALKER."""
    words = unit_keywords(state, unit)
    if "VEHICLE" in words and not words & {"CHARACTER", "WALKER"}:
        return False
    return any(unit_distance(unit, enemy) <= REACH for enemy in enemy_units_of(state, unit))


def _modes(_state: State, _player: int, _window: dict[str, Any], _target: str) -> list[dict]:
    return [{"mode": mode} for mode in MODES]


def _mode_cost(extra: dict[str, Any]) -> int:
    return 1 if extra.get("mode") == "into_the_fray" else 0


@implements(
    "heroic-intervention-11e",
    targets=own_units(unengaged, _may_intervene),
    choices=_modes,
    extra_cost=_mode_cost,
)
def _heroic_intervention(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    declare_and_roll_charge(ctx, use, use.extra["mode"], [], then)


def declare_and_roll_charge(
    ctx: Context, use: Use, mode: str, targets: list[str], then: dict[str, Any] | None
) -> None:
    """Declare the charge (10e: with its targets), make the charge roll, open its after-roll
    window (Command Re-roll), then carry on in `heroic_charge_rolled`."""
    unit = ctx.state["units"][use.target_unit]
    ctx.emit("charge_declared", unit=unit["id"], targets=targets, stratagem=use.slug)
    record = roll(
        ctx,
        2,
        "charge",
        cite(ctx.state, "charge_phase"),
        use.player,
        unit["id"],
        # A charge roll like any other: the standing rules' bonus too (An Urgent Duty).
        modifier=charge_roll_modifier(ctx.state, unit["id"], targets)
        + standing_rules.roll_bonus(ctx.state, unit, "charge"),
    )
    windows.after_roll(
        ctx,
        record,
        {
            "step": "heroic_charge_rolled",
            "unit": unit["id"],
            "mode": mode,
            "declared": targets,
            "then": then,
        },
    )


def charge_targets(
    state: State, unit: Unit, mode: str, distance: int, declared: list[str]
) -> list[str]:
    """The enemy units the charge may target after a roll of `distance` (11.04, and the mode;
    `declared`: targets declared before the roll, 10e)."""
    reach = state["edition"]["engagement_range_horizontal"]
    found = []
    for enemy in enemy_units_of(state, unit):
        gap = unit_distance(unit, enemy)
        if declared:
            if enemy["id"] in declared and gap - reach <= distance:
                found.append(enemy["id"])
            continue
        # 11e 11.04: "within the maximum distance"; 10e (Ensnaring Trap): as a 10e charge, the
        # unit must be able to end within Engagement Range, so the roll covers the gap less it.
        needed = gap if state["edition"]["charge_targets_after_roll"] else gap - reach
        if gap > REACH or needed > distance:
            continue
        if mode == "leap_to_defend" and not has_flag(state, enemy["id"], "charged"):
            continue
        if mode in ("into_the_fray", "ensnaring_trap") and gap > INTO_THE_FRAY_REACH:
            continue
        found.append(enemy["id"])
    return found


@continuation("heroic_charge_rolled")
def _charge_rolled(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    distance = data["roll"]["total"]
    if data["mode"] == "into_the_fray":
        distance = min(distance, INTO_THE_FRAY_CAP)
    allowed = (
        charge_targets(state, unit, data["mode"], distance, data["declared"])
        if not is_engaged(state, unit)
        else []
    )
    if not allowed:
        ctx.emit("charge_failed", unit=unit["id"], roll=distance, needed=None)
        carry_on(ctx, data["then"])
        return
    if data["declared"]:
        options: list[Any] = [allowed] if allowed == sorted(data["declared"]) else []
        if not options:
            ctx.emit("charge_failed", unit=unit["id"], roll=distance, needed=None)
            carry_on(ctx, data["then"])
            return
    else:
        # Any non-empty subset of the units the charge may target (11.04: "Select one or more
        # enemy units"; issue 14 defect 20), smallest first.
        options = [
            list(chosen)
            for size in range(1, len(allowed) + 1)
            for chosen in combinations(allowed, size)
        ]
    push_decision(
        ctx,
        unit["player"],
        "choose_charge_targets",
        options,
        {
            "step": "heroic_charge_targets",
            "unit": unit["id"],
            "distance": distance,
            "then": data["then"],
        },
        cite(state, "charge_phase"),
        f'Select the charge targets of {unit["name"]} (maximum distance {distance}").',
    )


@continuation("heroic_charge_targets")
def _targets_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    push_decision(
        ctx,
        unit["player"],
        "charge_move",
        {"unit": unit["id"], "max_distance": data["distance"], "targets": choice},
        {
            "step": "charge_move",
            "unit": unit["id"],
            "max_distance": data["distance"],
            "targets": choice,
            "then": data["then"],
        },
        cite(ctx.state, "charge_phase"),
        f'Charge move {unit["name"]} up to {data["distance"]}" (or decline with null).',
    )


# --- 10e Heroic Intervention --------------------------------------------------------------------


def _may_intervene_10e(state: State, unit: Unit, window: dict[str, Any]) -> bool:
    """Within 6" of that enemy unit and eligible to declare a charge against it as if it were your
    Charge phase; a VEHICLE only if it is a WALKER."""
    words = unit_keywords(state, unit)
    if "VEHICLE" in words and "WALKER" not in words:
        return False
    enemy = state["units"][window["unit"]]
    return unit_distance(unit, enemy) <= INTO_THE_FRAY_REACH and ineligibility(state, unit) is None


@implements("heroic-intervention-10e", targets=own_units(_may_intervene_10e))
def _heroic_intervention_10e(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    add_effect(ctx, use.slug, {"unit": use.target}, NO_CHARGE_BONUS, "end_of_turn", use.player)
    declare_and_roll_charge(ctx, use, "declared", [use.window["unit"]], then)


# --- Ensnaring Trap ------------------------------------------------------------------------------
