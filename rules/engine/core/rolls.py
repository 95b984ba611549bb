"""Dice rolls as the rules make them, each recorded as an event (01.05, 01.05.01, 01.06).

A roll draws from the game's `DiceStream`, records the die indices and values, the rule it is
for, the modifiers applied (capped where a cap applies) and the result. A die is re-rolled at most
once. An automatically successful roll draws nothing and records that no dice were rolled, so
rules that trigger on a dice result do not trigger (01.05.01).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.sequencing import continuation, resume


def roll(
    ctx: Context,
    count: int,
    purpose: str,
    rule: str,
    player: int,
    unit: str | None = None,
    sides: int = 6,
    modifier: int = 0,
    modifier_cap: int | None = None,
) -> dict[str, Any]:
    """Roll `count` dice for `purpose`; returns the recorded roll (also emitted as an event)."""
    first_index = ctx.dice.next_index
    values = ctx.dice.roll(count, sides)
    ctx.sync_dice()
    applied = modifier if modifier_cap is None else max(-modifier_cap, min(modifier_cap, modifier))
    roll_id = f"r{ctx.state['next_roll_id']}"
    ctx.state["next_roll_id"] += 1
    record: dict[str, Any] = {
        "roll": roll_id,
        "purpose": purpose,
        "rule": rule,
        "player": player,
        "unit": unit,
        "sides": sides,
        "indices": list(range(first_index, first_index + count)),
        "values": values,
        "rerolled": [False] * count,
        "modifier": modifier,
        "modifier_applied": applied,
        "total": sum(values) + applied,
    }
    ctx.emit("dice_rolled", **record)
    return record


def reroll(ctx: Context, record: dict[str, Any], positions: list[int], rule: str) -> dict[str, Any]:
    """Re-roll the chosen dice of a recorded roll; a die already re-rolled is refused (01.05)."""
    if not positions:
        raise Refusal("nothing_to_reroll", rule, "Choose at least one die to re-roll.")
    for position in positions:
        if not 0 <= position < len(record["values"]):
            raise Refusal("no_such_die", rule, f"That roll has no die number {position + 1}.")
        if record["rerolled"][position]:
            raise Refusal(
                "die_already_rerolled",
                cite(ctx.state, "dice"),
                "A die can never be re-rolled more than once.",
            )
    updated = {**record, "values": list(record["values"]), "rerolled": list(record["rerolled"])}
    updated["indices"] = list(record["indices"])
    for position in sorted(set(positions)):
        index = ctx.dice.next_index
        (value,) = ctx.dice.roll(1, record["sides"])
        updated["values"][position] = value
        updated["indices"][position] = index
        updated["rerolled"][position] = True
    ctx.sync_dice()
    updated["total"] = sum(updated["values"]) + updated["modifier_applied"]
    ctx.emit("dice_rerolled", **updated, positions=sorted(set(positions)), reroll_rule=rule)
    return updated


def automatic_success(ctx: Context, purpose: str, rule: str, player: int, unit: str | None) -> None:
    """Record a roll that was not made because it succeeds automatically (01.05.01)."""
    ctx.emit("roll_automatic", purpose=purpose, rule=rule, player=player, unit=unit)


def offer_reroll(
    ctx: Context,
    player: int,
    record: dict[str, Any],
    rule: str,
    then: dict[str, Any],
    whole_roll: bool = False,
) -> None:
    """Ask `player` which die of a roll to re-roll (or to pass), then resume `then` with the roll.

    `whole_roll` offers only re-rolling every die (e.g. charge rolls under Command Re-roll, 15.02);
    otherwise one die not yet re-rolled. The continuation receives `then` plus `"roll"`: the roll
    as it stands after the choice.
    """
    fresh = [i for i, done in enumerate(record["rerolled"]) if not done]
    if whole_roll:
        options: list[Any] = ["pass", "all"] if len(fresh) == len(record["values"]) else ["pass"]
    else:
        options = ["pass", *[[i] for i in fresh]]
    push_decision(
        ctx,
        player,
        "choose_dice_to_reroll",
        options,
        {"step": "reroll_chosen", "roll": record, "rule": rule, "then": then},
        rule,
        f"Re-roll the {record['purpose'].replace('_', ' ')} roll {record['values']}?",
    )


@continuation("reroll_chosen")
def _reroll_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    record = data["roll"]
    if choice == "all":
        record = reroll(ctx, record, list(range(len(record["values"]))), data["rule"])
    elif choice != "pass":
        record = reroll(ctx, record, choice, data["rule"])
    resume(ctx, {**data["then"], "roll": record})
