"""Selecting one of your own units for an action."""

from __future__ import annotations

from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Unit


def own_unit(ctx: Context, action: dict[str, Any], rule: str) -> Unit:
    unit_id = action.get("unit")
    unit = ctx.state["units"].get(unit_id) if isinstance(unit_id, str) else None
    if unit is None:
        raise Refusal("unknown_unit", rule, f"There is no unit {unit_id!r}.")
    if unit["player"] != action["player"]:
        raise Refusal("not_your_unit", rule, f"{unit['name']} is not in your army.")
    return unit
