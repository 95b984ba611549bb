"""Pending decisions: choices the rules give a player in the middle of a sequence.

The state keeps a stack (`state["pending"]`); only the top decision accepts input. Each decision
has an `id` (an answer naming another id is stale and refused), the `player` who decides, its
`kind`, the `options` (a list of JSON values; the answer must be one of them, or, for kinds that
take positions, match the `options` template) and `resume`: the data the rule that opened it needs
to carry on. Answers are actions `{"type": "decide", "player": p, "decision": id, "choice": ...}`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Decision
from rules.engine.core.state import State


def push_decision(
    ctx: Context,
    player: int,
    kind: str,
    options: list[Any] | dict[str, Any],
    resume: dict[str, Any],
    rule: str,
    prompt: str,
) -> Decision:
    state = ctx.state
    decision: Decision = {
        "id": f"d{state['next_decision_id']}",
        "player": player,
        "kind": kind,
        "options": options,
        "resume": resume,
        "rule": rule,
        "prompt": prompt,
    }
    state["next_decision_id"] += 1
    state["pending"].append(decision)
    ctx.emit("decision_pending", decision=decision)
    return decision


def top_decision(state: State) -> Decision | None:
    return state["pending"][-1] if state["pending"] else None


def take_answer(ctx: Context, action: dict[str, Any]) -> tuple[Decision, Any]:
    """Check an answer against the top decision and pop it; returns (decision, choice)."""
    decision = top_decision(ctx.state)
    if decision is None:
        raise Refusal("no_pending_decision", "Sequencing", "No decision is waiting for an answer.")
    if action.get("decision") != decision["id"]:
        raise Refusal(
            "stale_decision",
            "Sequencing",
            "That answer is for a decision that is no longer waiting; the current one is "
            f"{decision['id']} ({decision['prompt']}).",
            {"current": decision["id"]},
        )
    if action.get("player") != decision["player"]:
        raise Refusal(
            "not_your_decision",
            decision["rule"],
            f"Player {decision['player']} makes this decision.",
        )
    choice = action.get("choice")
    if decision["kind"] not in TEMPLATE_KINDS and choice not in decision["options"]:
        raise Refusal(
            "invalid_choice",
            decision["rule"],
            f"Choose one of: {', '.join(str(o) for o in decision['options'])}.",
        )
    ctx.state["pending"].pop()
    ctx.emit("decision_made", decision=decision["id"], player=decision["player"], choice=choice)
    return decision, choice


# Decisions answered with model positions rather than one of a list of options.
POSITION_KINDS = frozenset(
    {
        "advance_move",
        "fall_back_move",
        "charge_move",
        "consolidate_move",
        "stratagem_arrival",
        "redeploy_unit",
        "return_destroyed_model",
        "normal_move",
        "emergency_disembark",
    }
)
# Position decisions that `null` answers too: the player makes no move or set-up (a charge move
# not made, a unit that stays, a consolidation declined, a unit kept off the battlefield).
DECLINABLE_POSITION_KINDS = frozenset(
    {
        "fall_back_move",
        "charge_move",
        "consolidate_move",
        "stratagem_arrival",
        "return_destroyed_model",
        "normal_move",
    }
)
# Decisions answered with weapon -> target assignments (as the `shoot` action), or null:
# shooting out of turn (Fire Overwatch, Exact Punishment).
ASSIGNMENT_KINDS = frozenset({"shoot_out_of_turn"})
# Decisions whose options are a template to fill in, not a list to pick from.
TEMPLATE_KINDS = POSITION_KINDS | ASSIGNMENT_KINDS
