"""Redeploying units after both armies have deployed: Grand Strategist (Armoured Infantry
enhancement, seed 003 L729-731; CATALOGUE E-GRAND-STRATEGIST-AI; rulings R-AM-13).

"After both players have deployed their armies, if the bearer's unit (or any TRANSPORT it is
embarked within) is on the battlefield, select up to two units with the REGIMENT or SQUADRON
keywords from your army and redeploy them. When doing so, you can set those units up in Strategic
Reserves, regardless of how many units are already in Strategic Reserves."

When the last unit is deployed, each player with a bearer on the battlefield (the player who
deployed first, first) selects up to two units, each `{"unit", "to"}` with `to` either
`battlefield` (the unit is picked up and deployed again with `deploy` actions, every set-up rule
applying) or `strategic_reserves`, or `done`. Then the first turn is determined.
"""

from __future__ import annotations

from typing import Any

from rules.engine.citations import cite
from rules.engine.decisions import push_decision
from rules.engine.events import Context
from rules.engine.rule_registry import implements
from rules.engine.sequencing import continuation, resume
from rules.engine.state import State, on_battlefield, opponent, player_key, units_of

GRAND_STRATEGIST = "grand-strategist-armoured-infantry"
MAXIMUM_UNITS = 2
RECIPIENTS = ("REGIMENT", "SQUADRON")


def _bearer_on_battlefield(state: State, player: int) -> bool:
    return any(
        on_battlefield(unit)
        and any(GRAND_STRATEGIST in p.get("enhancements", []) for p in unit["parts"])
        for unit in units_of(state, player)
    )


def _candidates(state: State, player: int, chosen: list[str]) -> list[dict[str, str]]:
    options = []
    for unit in units_of(state, player):
        if unit["id"] in chosen or not on_battlefield(unit):
            continue
        keywords = {k.upper() for k in unit["keywords"]}
        if keywords & set(RECIPIENTS):
            options += [
                {"unit": unit["id"], "to": "battlefield"},
                {"unit": unit["id"], "to": "strategic_reserves"},
            ]
    return options


def _used(state: State) -> list[int]:
    return state["facts"]["battle_round"].setdefault("grand_strategist_used", [])


@implements("enhancement", GRAND_STRATEGIST)
def after_deployment(ctx: Context, then: dict[str, Any]) -> None:
    """Both armies are deployed: ask the next player with a Grand Strategist on the battlefield
    who has not redeployed yet; when none is left, resume `then` (the first-turn roll-off)."""
    state = ctx.state
    first = state["mission"]["first_to_deploy"]
    for player in (first, opponent(first)):
        if player in _used(state) or not _bearer_on_battlefield(state, player):
            continue
        if state["players"][player_key(player)].get("detachment") != "armoured-infantry":
            continue
        _used(state).append(player)
        _ask(ctx, player, [], then)
        return
    resume(ctx, then)


def _ask(ctx: Context, player: int, chosen: list[str], then: dict[str, Any]) -> None:
    state = ctx.state
    options = _candidates(state, player, chosen)
    if not options or len(chosen) >= MAXIMUM_UNITS:
        _finish(ctx, player, then)
        return
    push_decision(
        ctx,
        player,
        "grand_strategist_redeploy",
        [*options, "done"],
        {"step": "grand_strategist_chosen", "player": player, "chosen": chosen, "then": then},
        cite(state, "deploy"),
        f"Grand Strategist: redeploy a REGIMENT or SQUADRON unit ({len(chosen)} of "
        f"{MAXIMUM_UNITS}), or done.",
    )


@continuation("grand_strategist_chosen")
def _chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    player = data["player"]
    if choice == "done":
        _finish(ctx, player, data["then"])
        return
    unit = ctx.state["units"][choice["unit"]]
    unit["location"] = "unplaced" if choice["to"] == "battlefield" else "strategic_reserves"
    for model in unit["models"]:
        model["x"], model["y"] = None, None
    ctx.emit("unit_redeployed", unit=unit["id"], player=player, to=choice["to"])
    _ask(ctx, player, [*data["chosen"], unit["id"]], data["then"])


def _finish(ctx: Context, player: int, then: dict[str, Any]) -> None:
    """Units picked up are deployed again by `player` (deploy actions); the last `deploy` asks
    `after_deployment` again. Otherwise go on at once."""
    state = ctx.state
    if any(u["location"] == "unplaced" for u in units_of(state, player)):
        state["stage"] = "deployment"
        state["awaiting"] = player
        return
    after_deployment(ctx, then)
