"""Command Re-roll (11e 15.02; 10e Command Re-roll; Boarding Actions Command Re-roll), and
re-rolls granted for a phase (effects `free_reroll` that Order the Advance, an Astra Militarum
stratagem in its faction package, gives).

A rule that makes one of the listed rolls calls `windows.after_roll(ctx, record, then)` with the
recorded roll (rolls.py) instead of carrying on: the `after_roll` window opens (the roll's owner
is offered Command Re-roll on the unit it was made for), and `then` resumes with `"roll"`: the
roll as it stands afterwards. The re-roll itself is the engine's re-roll offer
(`rolls.offer_reroll`): one die of the roll, or the whole roll for charge rolls (11e 15.02:
"excluding charge rolls, which you must re-roll in full"; 10e re-rolls "that roll").

Roll purposes (the `purpose` of the record) per edition, as the stratagems list them.
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.effects import effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.rolls import offer_reroll
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.state import State
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    is_trigger_unit,
    own_units,
)

PURPOSES = {
    "command-re-roll-11e": frozenset(
        {"advance", "charge", "damage", "hazard", "hit", "save", "wound", "attacks"}
    ),
    "command-re-roll-10e": frozenset(
        {
            "advance",
            "charge",
            "desperate_escape",
            "hazard",
            "hit",
            "wound",
            "damage",
            "save",
            "attacks",
        }
    ),
    "command-re-roll-boarding-actions": frozenset(
        {
            "hit",
            "wound",
            "damage",
            "save",
            "advance",
            "charge",
            "desperate_escape",
            "hazard",
            "attacks",
        }
    ),
}
WHOLE_ROLL_PURPOSES = frozenset({"charge"})


# Rolls with no pass or fail of their own: a die is "failed" (worth asking about, R-ST-32) when it
# shows the lower half of its faces (1-3 on a D6).
AMOUNT_PURPOSES = frozenset({"advance", "attacks", "damage"})
# The edition parameter whose value or less fails the roll.
FAIL_MAX = {"hazard": "hazard_fail_max", "desperate_escape": "desperate_escape_fail_max"}


def failed_dice(state: State, record: dict[str, Any]) -> list[bool] | None:
    """Which dice of the roll failed (rulings R-ST-32): as the rule that made it recorded
    (`failed`: hit, wound and save rolls), by the edition's fail value (hazard rolls, Desperate
    Escape tests) or the lower half of the die (Advance, attacks, damage rolls); None when the
    engine cannot tell before the player acts on the roll (charge rolls)."""
    if "failed" in record:
        return list(record["failed"])
    purpose = record.get("purpose")
    if purpose in FAIL_MAX:
        fail_max = state["edition"][FAIL_MAX[purpose]]
        return [value <= fail_max for value in record["values"]]
    if purpose in AMOUNT_PURPOSES:
        return [value <= record["sides"] // 2 for value in record["values"]]
    return None


def worth_asking(state: State, record: dict[str, Any]) -> bool:
    """Is a re-roll window worth opening for this roll by default: a die not yet re-rolled
    failed, or the engine cannot tell (R-ST-32)? The standing choice `reroll_every_roll`
    asks after every roll instead."""
    failed = failed_dice(state, record)
    if failed is None:
        return True
    return any(f and not done for f, done in zip(failed, record["rerolled"], strict=True))


def _targets_for(slug: str):
    unit_targets = own_units(is_trigger_unit, on_table=False)

    def targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
        roll = window.get("roll") or {}
        if roll.get("purpose") not in PURPOSES[slug] or roll.get("player") != player:
            return []
        if all(roll["rerolled"]):
            return []  # every die has been re-rolled already (01.05)
        return unit_targets(state, player, window)

    return targets


def _command_reroll(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    record = use.window["roll"]
    offer_reroll(
        ctx,
        use.player,
        record,
        ctx.state["stratagems"][use.slug].get("section") or "Command Re-roll",
        {"step": "command_reroll_made", "next": then},
        whole_roll=whole_roll(ctx.state, record),
    )


def whole_roll(state: State, record: dict[str, Any]) -> bool:
    """Is the roll re-rolled in full: a charge roll (11e 15.02), or in 10e any roll made by
    adding several dice together, such as a 2D6 damage roll (10e Re-rolls)?"""
    if record["purpose"] in WHOLE_ROLL_PURPOSES:
        return True
    return bool(record.get("summed")) and bool(state["edition"].get("reroll_summed_dice_in_full"))


for _slug in PURPOSES:
    implements(_slug, targets=_targets_for(_slug))(_command_reroll)


@continuation("command_reroll_made")
def _command_reroll_made(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    """The window carries on with the roll as it now stands (and so does the rule after it)."""
    following = data["next"]
    if following is not None:
        following = _with_roll(following, data["roll"])
    carry_on(ctx, following)


def _with_roll(data: dict[str, Any], roll: dict[str, Any]) -> dict[str, Any]:
    updated = dict(data)
    if "about" in updated and "roll" in updated["about"]:
        updated["about"] = {**updated["about"], "roll": roll}
    if isinstance(updated.get("then"), dict) and updated["then"].get("step") == "after_roll_closed":
        updated["then"] = {**updated["then"], "roll": roll}
    return updated


# --- re-rolls granted by an effect: Order the Advance ------------------------------------------


def free_reroll_source(state: State, record: dict[str, Any]) -> str | None:
    """The effect that lets the roll's player re-roll it (`{"reroll": purpose}` on the unit)."""
    if record.get("unit") is None or all(record["rerolled"]):
        return None
    for effect in effects_on_unit(state, record["unit"]):
        if effect["modifier"].get("reroll") == record["purpose"]:
            return effect["source"]
    return None


def offer_free_reroll(
    ctx: Context, record: dict[str, Any], source: str, then: dict[str, Any]
) -> None:
    offer_reroll(
        ctx,
        record["player"],
        record,
        source,
        then,
        whole_roll=whole_roll(ctx.state, record),
    )
