"""Leadership and battle-shock (11e 01.06, 01.07, 08.03; 10e Command phase 2. Battle-shock).

- Which units test in the Command phase is the edition strategy `battle_shock_tests`:
  `half_strength_or_shocked_anywhere` (11e 08.03, 01.02.04: battle-shocked or at/below
  half-strength, also units not on the battlefield) or `below_half_strength_on_battlefield` (10e).
- The roll (11e battle-shock roll = leadership roll; 10e Battle-shock test): 2D6, passed when the
  total is at least the best (lowest) Ld in the unit (DIFF-10).
- A failure makes the unit, and each of its models, battle-shocked: a persisting effect whose end
  is the strategy `battle_shock_ends` (11e: a later roll succeeds, 08.03; 10e: the start of your
  next Command phase).
- While battle-shocked: OC is '-' (11e) or 0 (10e) (objectives.py reads `battle_shocked_oc`); its
  controller cannot target it with stratagems (11e 01.07) / use stratagems to affect it (10e);
  it cannot start an action, nor complete one (11e 01.07, `battle_shock_forbids_actions`); it must
  fall back by Desperate Escape (11e 09.07) / take a Desperate Escape test for every model (10e).
"""

from __future__ import annotations

from typing import Any, TypedDict

from rules.engine.army.unit_strength import at_or_below_half_strength, below_half_strength
from rules.engine.core.citations import cite
from rules.engine.core.effects import (
    add_effect,
    characteristic,
    effects_on_unit,
    end_effects_lost_on_battle_shock,
    has_status,
    remove_effect,
)
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import automatic_success, reroll, roll
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import BATTLE_SHOCK_REROLLS
from rules.engine.core.state import (
    State,
    alive_models,
    is_destroyed,
    on_battlefield,
    units_of,
)

BATTLE_SHOCKED = "battle_shocked"


AUTOMATIC_PASS = {"battle_shock": "automatic_pass"}  # Insane Bravery, before the roll


class _Automatic(TypedDict, total=False):
    """`battle_shock_rolled` says `automatic` only when no dice were rolled."""

    automatic: bool


def passes_automatically(state: State, unit_id: str) -> bool:
    return any(e["modifier"] == AUTOMATIC_PASS for e in effects_on_unit(state, unit_id))


def consume_automatic_pass(ctx: Context, unit_id: str) -> None:
    for effect in effects_on_unit(ctx.state, unit_id):
        if effect["modifier"] == AUTOMATIC_PASS:
            remove_effect(ctx, effect["id"], "used for that battle-shock roll")


def _failed_test_reroll(state: State, unit: Unit) -> str | None:
    """The rule that re-rolls the unit's failed battle-shock test (`BATTLE_SHOCK_REROLLS`), if
    any: the first that answers."""
    return next((rule for f in BATTLE_SHOCK_REROLLS if (rule := f(state, unit))), None)


def is_battle_shocked(state: State, unit_id: str) -> bool:
    return has_status(state, unit_id, BATTLE_SHOCKED)


def best_leadership(state: State, unit: Unit) -> int:
    """The best Ld in the unit: Ld is a target number (6 means 6+), so the lowest is best."""
    return min(characteristic(state, unit["id"], m, "Ld") for m in alive_models(unit))


def must_test_in_command_phase(state: State, unit: Unit) -> bool:
    if is_destroyed(unit):
        return False
    if state["edition"]["battle_shock_tests"] == "half_strength_or_shocked_anywhere":
        return is_battle_shocked(state, unit["id"]) or at_or_below_half_strength(state, unit)
    return on_battlefield(unit) and below_half_strength(state, unit)


def make_battle_shocked(ctx: Context, unit: Unit, source: str) -> None:
    """The unit becomes battle-shocked (a failed roll, or a rule that makes it so without one:
    11e combat and emergency disembarks); what ends then ends (an Order, Voice of Command)."""
    ends = ctx.state["edition"]["battle_shock_ends"]
    duration = (
        "start_of_next_command_phase" if ends == "start_of_next_command_phase" else "until_removed"
    )
    add_effect(
        ctx, source, {"unit": unit["id"]}, {"status": BATTLE_SHOCKED}, duration, unit["player"]
    )
    end_effects_lost_on_battle_shock(ctx, unit["id"])


def battle_shock_roll(ctx: Context, unit: Unit, reason: str, automatic: bool = False) -> bool:
    """Make one battle-shock roll/test for the unit; returns True when it is passed.

    `automatic`: the roll succeeds without dice (Insane Bravery; 01.05.01)."""
    state = ctx.state
    needed = best_leadership(state, unit)
    if automatic:
        automatic_success(
            ctx, "battle_shock", cite(state, "battle_shock"), unit["player"], unit["id"]
        )
        record: dict[str, Any] = {"roll": None, "total": None}
        passed = True
    else:
        record = roll(
            ctx, 2, "battle_shock", cite(state, "battle_shock"), unit["player"], unit["id"]
        )
        passed = record["total"] >= needed
        rerolled_by = None if passed else _failed_test_reroll(state, unit)
        if rerolled_by is not None:
            record = reroll(ctx, record, [0, 1], rerolled_by)
            passed = record["total"] >= needed
    extra: _Automatic = {"automatic": True} if automatic else {}
    ctx.emit(
        "battle_shock_rolled",
        unit=unit["id"],
        roll=record["roll"],
        total=record["total"],
        leadership=needed,
        passed=passed,
        reason=reason,
        **extra,
    )
    shocked = is_battle_shocked(state, unit["id"])
    if not passed and not shocked:
        make_battle_shocked(ctx, unit, "battle-shock")
    if passed and shocked and state["edition"]["battle_shock_ends"] == "passed_battle_shock_roll":
        for effect in effects_on_unit(state, unit["id"]):
            if effect["modifier"].get("status") == BATTLE_SHOCKED:
                remove_effect(ctx, effect["id"], "passed battle-shock roll (08.03)")
    return passed


def units_to_test(state: State) -> list[str]:
    """11e 08.03 / 10e step 2: the active player's units that must make a battle-shock roll."""
    return [
        unit["id"]
        for unit in units_of(state, state["active_player"])
        if must_test_in_command_phase(state, unit)
    ]


def refuse_own_stratagem_target(state: State, player: int, unit_id: str) -> None:
    """11e 01.07: no stratagem of its controller targets it; 10e: none of theirs affects it."""
    unit = state["units"][unit_id]
    if unit["player"] == player and is_battle_shocked(state, unit_id):
        raise Refusal(
            "battle_shocked_stratagem_target",
            cite(state, "battle_shock"),
            f"{unit['name']} is battle-shocked: its controller cannot use stratagems on it.",
        )


def refuse_start_action(state: State, unit_id: str) -> None:
    """11e 01.07: a battle-shocked unit is not eligible to start an action."""
    if state["edition"]["battle_shock_forbids_actions"] and is_battle_shocked(state, unit_id):
        raise Refusal(
            "battle_shocked_action",
            cite(state, "battle_shock"),
            "A battle-shocked unit is not eligible to start an action.",
        )


def action_can_complete(state: State, unit_id: str) -> bool:
    """11e 01.07: an action a battle-shocked unit started cannot be completed."""
    return not (
        state["edition"]["battle_shock_forbids_actions"] and is_battle_shocked(state, unit_id)
    )


def fall_back_modes(state: State, unit_id: str) -> list[str]:
    """The fall-back modes open to the unit (11e 09.07; 10e Fall Back Moves)."""
    shocked = is_battle_shocked(state, unit_id)
    if state["edition"]["fall_back"] == "ordered_retreat_or_desperate_escape":
        return ["desperate_escape"] if shocked else ["ordered_retreat", "desperate_escape"]
    return ["desperate_escape_every_model"] if shocked else ["fall_back"]
