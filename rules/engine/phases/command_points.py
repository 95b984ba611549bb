"""Command points (11e 08.02, 15; 10e Command phase step 1 and Command Points).

Both players gain the edition's Core CP at the start of every Command phase. Any other gain is
kept whole in 11e, which prints no limit (08.02; rulings R-CP-01); in 10e it counts against
`max_extra_command_points_per_round` per battle round and the rest is lost (the rule set's
`extra_command_points` strategy). Spending is
refused when the player has too few; CP never goes below zero. The stratagem code calls
`spend_command_points` and `gain_command_points`.
"""

from __future__ import annotations

from rules.engine.core.citations import cite
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.standing_rules import AFTER_CP_GAIN
from rules.engine.core.state import PLAYERS, State, player_key


def command_points(state: State, player: int) -> int:
    return state["players"][player_key(player)]["cp"]


def gain_core_command_points(ctx: Context) -> None:
    """08.02 Gain Core CP / 10e Command step: both players gain the edition's Core CP."""
    amount = ctx.state["edition"]["command_points_per_command_phase"]
    for player in PLAYERS:
        ctx.state["players"][player_key(player)]["cp"] += amount
        ctx.emit("command_points_gained", player=player, amount=amount, source="core", rule="08.02")


def gain_command_points(ctx: Context, player: int, amount: int, source: str) -> int:
    """A gain from a rule other than the Command phase, capped per battle round where the edition
    caps it; returns the CP gained."""
    edition = ctx.state["edition"]
    extra = ctx.state["facts"]["battle_round"].setdefault("extra_cp", {"1": 0, "2": 0})
    if edition["extra_command_points"] == "uncapped":
        allowed = amount
    else:
        cap = edition["max_extra_command_points_per_round"]
        allowed = max(0, min(amount, cap - extra[player_key(player)]))
    extra[player_key(player)] += allowed
    ctx.state["players"][player_key(player)]["cp"] += allowed
    ctx.emit(
        "command_points_gained",
        player=player,
        amount=allowed,
        requested=amount,
        source=source,
        rule="Command Points",
    )
    if allowed:
        for rule in AFTER_CP_GAIN:
            rule(ctx, player, allowed, source)
    return allowed


def spend_command_points(ctx: Context, player: int, amount: int, source: str) -> None:
    """Spend CP on a stratagem; refused (and nothing changes) when the player has too few."""
    have = command_points(ctx.state, player)
    if amount < 0:
        raise ValueError("a cost cannot be negative")
    if amount > have:
        raise Refusal(
            "not_enough_command_points",
            cite(ctx.state, "command_points"),
            f"{source} costs {amount}CP and you have {have}CP.",
            {"cost": amount, "available": have},
        )
    ctx.state["players"][player_key(player)]["cp"] = have - amount
    ctx.emit(
        "command_points_spent",
        player=player,
        amount=amount,
        source=source,
        rule=cite(ctx.state, "command_points"),
    )
