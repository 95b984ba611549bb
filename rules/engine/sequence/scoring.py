"""Victory points: the mission's primary scoring (docs/missions.md) and the winner.

Each entry of `mission["primary"]["scoring"]` says when it scores (`end_of_command_phase`), from
which battle round, how many VP per controlled objective marker and the most per turn; the
mission's `max_vp` caps a player's primary total. At the end of the battle the player with more VP
wins; equal VP is a draw.
"""

from __future__ import annotations

from rules.engine.core.events import Context
from rules.engine.core.state import State, player_key
from rules.engine.sequence.objectives import controlled_by


def score_primary(ctx: Context, when: str) -> None:
    state = ctx.state
    player = state["active_player"]
    primary = state["mission"]["primary"]
    record = state["players"][player_key(player)]
    for rule in primary["scoring"]:
        if rule["when"] != when or state["battle_round"] < rule["from_battle_round"]:
            continue
        held = controlled_by(state, player)
        earned = min(len(held) * rule["vp_per_objective"], rule["max_vp_per_turn"])
        earned = max(0, min(earned, primary["max_vp"] - record["primary_vp"]))
        record["primary_vp"] += earned
        record["vp"] += earned
        ctx.emit(
            "victory_points_scored",
            player=player,
            amount=earned,
            objectives=held,
            source=primary["name"],
        )


def winner(state: State) -> int | None:
    first, second = state["players"]["1"]["vp"], state["players"]["2"]["vp"]
    if first == second:
        return None
    return 1 if first > second else 2
