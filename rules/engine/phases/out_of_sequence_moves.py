"""Normal moves outside the Movement phase's own sequence (CATALOGUE CORE-MOVE-EXTRA, AMB-27).

Stratagems and abilities say "your unit can make a Normal move of up to X"" (Burst of Speed,
Displacer Field, Personal Teleporters; Mists of Deimos and On My Signal later). Such a move is a
Normal move (11e 09.05; 10e Normal Moves) whose maximum distance is X instead of M: every other
check of a Normal move applies (the battlefield's `movement.validate_move` through
`placement.check_move`: unengaged before, enemy models, terrain and heights, engagement range,
coherency). `offer_normal_move` stops the engine and asks the unit's owner for the move with a
`normal_move` decision; the player answers with positions, with
`{"positions": ..., "take_to_the_skies": true}` (11e §21.03, for a unit that can FLY or moves as
if it could), or `null` to make no move. Then `then` resumes.

`after_attacks_resolved` is the timing point "after the attacking unit has resolved its
attacks": it offers the moves waiting for that unit (Displacer Field's effect) and those a
standing rule offers it (`MOVES_AFTER_ATTACKS`: Personal Teleporters), the active player's
first (ruling R-MV-14).
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.placement import (
    check_move,
    final_positions,
    is_engaged,
    place,
    read_positions,
)
from rules.engine.core import reactions
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect, granted_keywords, remove_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import note_move_length, set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import MOVES_AFTER_ATTACKS
from rules.engine.core.state import State, alive_models, on_battlefield, unit_keywords

DECISION_KIND = "normal_move"
# The effect modifier that holds a move until an enemy unit's attacks are resolved.
MOVE_AFTER_ATTACKS = "normal_move_after_attacks"
# Turn flag: the unit is not eligible to declare a charge this turn (Personal Teleporters).


def can_fly(state: State, unit: Unit, as_if_fly: bool) -> bool:
    """A unit that can FLY (21.03: FLY models, and units they are part of), or moves as if."""
    return as_if_fly or "FLY" in unit_keywords(state, unit) | granted_keywords(state, unit)


def offer_normal_move(
    ctx: Context,
    unit_id: str,
    max_distance: float,
    *,
    source: str,
    rule: str,
    as_if_fly: bool = False,
    statuses_if_moved: tuple[str, ...] = (),
    flags_if_moved: tuple[str, ...] = (),
    then: dict[str, Any] | None = None,
) -> None:
    """Ask the unit's owner for a Normal move of up to `max_distance` (or none), then resume
    `then`. `source` names the rule granting it (a stratagem or ability slug) for the events;
    `statuses_if_moved` are statuses the unit has until the end of the turn when it does move
    (Personal Teleporters: `cannot_charge`), persisting effects that expire by themselves;
    `flags_if_moved` are turn flags set when it does (Screening Line: once per turn). The move
    ends like any Normal move: the reactions to it (`reactions.announce`), then `then`. A
    unit that is no longer on the battlefield, or is engaged (a Normal move
    needs an unengaged unit, 09.05), makes no move."""
    state = ctx.state
    unit = state["units"].get(unit_id)
    if unit is None or not on_battlefield(unit) or not alive_models(unit):
        carry_on(ctx, then)
        return
    if is_engaged(state, unit):
        ctx.emit("normal_move_unavailable", unit=unit_id, source=source, reason="engaged")
        carry_on(ctx, then)
        return
    fly_choice = can_fly(state, unit, as_if_fly) and state["edition"]["fly_declared_before_moving"]
    push_decision(
        ctx,
        unit["player"],
        DECISION_KIND,
        {
            "unit": unit_id,
            "max_distance": max_distance,
            "source": source,
            "as_if_fly": as_if_fly,
            "take_to_the_skies": fly_choice,
        },
        {
            "step": "out_of_sequence_normal_move",
            "unit": unit_id,
            "max_distance": max_distance,
            "source": source,
            "as_if_fly": as_if_fly,
            "statuses": list(statuses_if_moved),
            "flags": list(flags_if_moved),
            "then": then,
        },
        rule,
        f'{unit["name"]} can make a Normal move of up to {max_distance:g}" ({source}); '
        "null: no move.",
    )


def _read_choice(choice: Any, rule: str) -> tuple[Any, bool]:
    if isinstance(choice, dict) and "positions" in choice:
        take = choice.get("take_to_the_skies", False)
        if not isinstance(take, bool) or set(choice) - {"positions", "take_to_the_skies"}:
            raise Refusal(
                "invalid_choice",
                rule,
                'Answer with positions, or {"positions": ..., "take_to_the_skies": true|false}.',
            )
        return choice["positions"], take
    return choice, False


@continuation("out_of_sequence_normal_move")
def _normal_move_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    rule = cite(state, "normal_move")
    if choice is None:
        ctx.emit("normal_move_declined", unit=unit["id"], source=data["source"])
        carry_on(ctx, data["then"])
        return
    positions, take_to_the_skies = _read_choice(choice, rule)
    read = read_positions(unit, positions, rule)
    maximum = float(data["max_distance"])
    check_move(
        state,
        unit,
        read,
        "normal",
        {m["id"]: maximum for m in alive_models(unit)},
        take_to_the_skies=take_to_the_skies,
        as_if_fly=data["as_if_fly"],
    )
    place(unit, read)
    ctx.emit(
        "unit_moved",
        unit=unit["id"],
        move="normal",
        source=data["source"],
        take_to_the_skies=take_to_the_skies,
        positions=final_positions(read),
        rule=rule,
    )
    note_move_length(ctx, unit["id"], None)
    set_flag(ctx, unit["id"], "moved")
    for status in data["statuses"]:
        add_effect(
            ctx,
            data["source"],
            {"unit": unit["id"]},
            {"status": status},
            "end_of_turn",
            unit["player"],
        )
    for flag in data.get("flags", []):
        set_flag(ctx, unit["id"], flag)
    reactions.announce(ctx, "move_ended", unit["id"], "normal", data["then"])


# --- after the attacking unit has resolved its attacks ----------------------------------------


def after_attacks_resolved(ctx: Context, attacker_id: str, then: dict[str, Any] | None) -> None:
    """The timing point just after `attacker_id` resolved its attacks: offer every Normal move
    waiting for it, the active player's units first, then resume `then`."""
    state = ctx.state
    offers: list[dict[str, Any]] = []
    for effect in list(state["effects"]):
        held = effect["modifier"].get(MOVE_AFTER_ATTACKS)
        if held is None or held["attacker"] != attacker_id:
            continue
        remove_effect(ctx, effect["id"], "move offered")
        offers.append(
            {
                "unit": effect["selector"]["unit"],
                "max_distance": held["max_distance"],
                "as_if_fly": held.get("as_if_fly", False),
                "source": effect["source"],
                "statuses": [],
            }
        )
    for rule in MOVES_AFTER_ATTACKS:
        offers.extend(rule(state, attacker_id))
    active = state["active_player"]
    offers.sort(key=lambda o: state["units"][o["unit"]]["player"] != active)
    _next_offer(ctx, {"offers": offers, "then": then}, None)


@continuation("next_move_offer")
def _next_offer(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    offers = data["offers"]
    if not offers:
        carry_on(ctx, data["then"])
        return
    offer, rest = offers[0], offers[1:]
    offer_normal_move(
        ctx,
        offer["unit"],
        offer["max_distance"],
        source=offer["source"],
        rule=cite(ctx.state, "normal_move"),
        as_if_fly=offer["as_if_fly"],
        statuses_if_moved=tuple(offer["statuses"]),
        then={"step": "next_move_offer", "offers": rest, "then": data["then"]},
    )
