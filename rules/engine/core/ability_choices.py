"""Choices that abilities give a player at a timing point ("at the start of your Command phase
you can select...", "once per battle, when this unit is selected to shoot..."): each one is an
`ability_choice` decision whose options are the rule's choices plus `"pass"`.

The rules offering them register in `standing_rules` (`PHASE_START_CHOICES`, `SHOOT_CHOICES`)
as `(rule key, options)` providers; the key's part before ":" names the resolver in
`RESOLVE_CHOICE`. Choices are recomputed after each answer (one choice may change another's
options: a unit rallied by a Tome-skull is no longer Formidable Resolve's to rally) and each
(player, key) is asked once per timing point; the active player is asked first (11e 15; 10e
Sequencing).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.decisions import push_decision
from rules.engine.core.events import Context
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.standing_rules import (
    PHASE_START_CHOICES,
    RESOLVE_CHOICE,
    SELECTED_TO_FIGHT,
    SHOOT_CHOICES,
)
from rules.engine.core.state import PLAYERS, State


def _pending(state: State, point: dict[str, Any], asked: list[str]) -> tuple[int, str, list] | None:
    active = state["active_player"]
    for player in [active] + [p for p in PLAYERS if p != active]:
        if point["kind"] == "phase_start":
            offers = [o for provider in PHASE_START_CHOICES for o in provider(state, player)]
        else:
            unit = state["units"][point["unit"]]
            if unit["player"] != player:
                continue
            offers = [o for provider in SHOOT_CHOICES for o in provider(state, unit, point)]
        for key, options in offers:
            if f"{player}:{key}" not in asked and options:
                return player, key, options
    return None


def ask_choices(ctx: Context, point: dict[str, Any], then: dict[str, Any]) -> None:
    """Ask every ability choice open at `point` (`{"kind": "phase_start"}` or
    `{"kind": "selected_to_shoot", "unit": id, "weapons": [...]}`), then resume `then`."""
    resume(ctx, {"step": "ability_choice_next", "point": point, "asked": [], "then": then})


@continuation("ability_choice_next")
def _next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    found = _pending(ctx.state, data["point"], data["asked"])
    if found is None:
        resume(ctx, data["then"])
        return
    player, key, options = found
    name = key.split(":")[0].replace("-", " ").title()
    push_decision(
        ctx,
        player,
        "ability_choice",
        ["pass", *options],
        {**data, "step": "ability_choice_made", "player": player, "key": key},
        name,
        f"{name}: choose, or pass.",
    )


@continuation("ability_choice_made")
def _made(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    key, player = data["key"], data["player"]
    if choice != "pass":
        ctx.emit("ability_used", player=player, ability=key, choice=choice)
        RESOLVE_CHOICE[key.split(":")[0]](ctx, player, key, choice)
    asked = [*data["asked"], f"{player}:{key}"]
    resume(
        ctx,
        {
            "step": "ability_choice_next",
            "point": data["point"],
            "asked": asked,
            "then": data["then"],
        },
    )


def selected_to_fight(ctx: Context, unit_id: str, then: dict[str, Any]) -> None:
    """Resolve the rules triggered when a unit is selected to fight (`SELECTED_TO_FIGHT`, in
    order, each resuming the next), then resume `then`."""
    resume(ctx, {"step": "selected_to_fight_next", "index": 0, "unit": unit_id, "then": then})


@continuation("selected_to_fight_next")
def _selected_to_fight_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    index = data["index"]
    if index >= len(SELECTED_TO_FIGHT):
        resume(ctx, data["then"])
        return
    SELECTED_TO_FIGHT[index](ctx, data["unit"], {**data, "index": index + 1})


def select_units(
    ctx: Context,
    player: int,
    rule: str,
    candidates: list[str],
    limit: int,
    then: dict[str, Any],
) -> None:
    """ "Select up to `limit` units": one `select_units` decision per unit (the candidates not yet
    chosen, or `"done"`), then resume `then` with `"chosen"`: the units in the order chosen."""
    resume(
        ctx,
        {
            "step": "select_units_next",
            "player": player,
            "rule": rule,
            "candidates": candidates,
            "limit": limit,
            "chosen": [],
            "then": then,
        },
    )


@continuation("select_units_next")
def _select_units_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    left = [unit for unit in data["candidates"] if unit not in data["chosen"]]
    if len(data["chosen"]) >= data["limit"] or not left:
        resume(ctx, {**data["then"], "chosen": data["chosen"]})
        return
    push_decision(
        ctx,
        data["player"],
        "select_units",
        ["done", *left],
        {**data, "step": "select_units_chosen"},
        data["rule"],
        f"{data['rule']}: select a unit ({len(data['chosen'])} of up to {data['limit']}), or done.",
    )


@continuation("select_units_chosen")
def _select_units_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice == "done":
        resume(ctx, {**data["then"], "chosen": data["chosen"]})
        return
    resume(ctx, {**data, "step": "select_units_next", "chosen": [*data["chosen"], choice]})
