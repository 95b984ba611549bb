"""The engine's entry points: `new_game`, `apply(state, action) -> (new_state, events)` and
`legal_actions(state, player)`.

`apply` works on a copy: a refused action raises `Refusal` and the given state is never changed.
Actions are plain dicts `{"type": ..., "player": 1 or 2, ...}` (docs/engine.md lists them).
"""

from __future__ import annotations

import json
from typing import Any

from rules.engine.army.list_checks import points_in_play, reserves_points_limit
from rules.engine.army.muster import muster, price_enhancements
from rules.engine.army.names import name_units, worded
from rules.engine.battlefield.placement import position_settled
from rules.engine.core.actions import ANYTIME, Handler, PhaseActions
from rules.engine.core.citations import cite
from rules.engine.core.decisions import (
    ASSIGNMENT_KINDS,
    DECLINABLE_POSITION_KINDS,
    POSITION_KINDS,
    take_answer,
    top_decision,
)
from rules.engine.core.dice import seed_commitment
from rules.engine.core.editions import Edition
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.saved_games import upgrade
from rules.engine.core.sequencing import resume
from rules.engine.core.shapes import Decision, Event, Unit
from rules.engine.core.standing_rules import DECISION_TEMPLATES, LEGAL_ACTIONS
from rules.engine.core.standing_rules import PHASE_ACTIONS as RULE_ACTIONS
from rules.engine.core.state import PLAYERS, State, copy_state, units_of
from rules.engine.phases import charge, command, fight, movement, shooting, transports
from rules.engine.sequence.battle import (
    declare_reserves,
    deploy,
    end_phase,
    end_scouts,
    scout,
    undeployed,
)
from rules.engine.sequence.pre_battle import scout_candidates, scouts_distance

SETUP_ACTIONS: dict[str, dict[str, Handler]] = {
    "declare_reserves": {"declare_reserves": declare_reserves},
    "deployment": {"deploy": deploy},
    "scouts": {"scout": scout, "end_scouts": end_scouts},
}
# The phases of a turn, in order, each declaring its actions (core/actions.py).
PHASES: dict[str, PhaseActions] = {
    module.PHASE.phase: module.PHASE for module in (command, movement, shooting, charge, fight)
}


def stratagems_for_game(
    records: list[dict[str, Any]], edition: str, mission: dict[str, Any], armies: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The stratagem records a game can ever use, keyed by slug (copied into the state)."""
    detachments = {army.get("detachment") for army in armies.values()} - {None}
    boarding = bool(mission.get("boarding_actions"))
    chosen = {}
    for record in records:
        if record.get("edition") not in (None, edition):
            continue
        scope = record.get("scope")
        if scope == "boarding-actions" and not boarding:
            continue
        if scope == "detachment" and record.get("detachment") not in detachments:
            continue
        chosen[record["slug"]] = record
    return chosen


def new_game(setup: dict[str, Any], seed: str) -> tuple[State, list[Event]]:
    """Start a game from plain rules data: `setup` = {ruleset, mission, datasheets, armies}.

    The data is copied into the state, so later edits of the rules data never change this game.
    """
    ruleset = setup["ruleset"]
    edition = Edition.from_parameters(ruleset["slug"], ruleset["parameters"])
    edition_data = {"slug": edition.slug, **edition.parameters()}
    datasheets = {d["slug"]: d for d in setup["datasheets"]}
    units: dict[str, Unit] = {}
    for player in PLAYERS:
        units.update(muster(player, setup["armies"][str(player)], datasheets, edition_data))
    name_units(units)
    price_enhancements(units, setup.get("enhancements", []))
    used = sorted({part["datasheet"] for unit in units.values() for part in unit["parts"]})
    mission = setup["mission"]
    stratagems = stratagems_for_game(
        setup.get("stratagems", []), edition.slug, mission, setup["armies"]
    )
    state: State = {
        "version": 0,
        "edition": edition_data,
        "mission": mission,
        "datasheets": {slug: datasheets[slug] for slug in used},
        "stratagems": stratagems,
        "stratagems_used": [],
        "window_preferences": {},
        # The online layer's time limit per stratagem window (None: no limit); on timeout it
        # sends `window_timeout`.
        "window_time_limit_seconds": setup.get("window_time_limit_seconds"),
        "players": {
            str(p): {
                "army": setup["armies"][str(p)].get("name", f"Player {p}"),
                "cp": 0,
                "vp": 0,
                "primary_vp": 0,
                "detachment": setup["armies"][str(p)].get("detachment"),
                "faction": setup["armies"][str(p)].get("faction"),
            }
            for p in PLAYERS
        },
        "units": units,
        "objectives": [
            {"id": m["id"], "x": float(m["x"]), "y": float(m["y"]), "controller": None}
            for m in mission["objective_markers"]
        ],
        "effects": [],
        "facts": {"phase": {"acted": []}, "turn": {}, "battle_round": {}},
        "pending": [],
        # Consequences of destroyed models waiting to be resolved (transports.resolve_aftermath).
        "aftermath": [],
        "stage": "declare_reserves",
        "awaiting": 1,
        "battle_round": 0,
        "active_player": 1,
        "first_player": None,
        "phase": None,
        "winner": None,
        "dice": {"seed": seed, "next_index": 0},
        "seed_commitment": seed_commitment(seed),
        "revealed_seed": None,
        "next_decision_id": 1,
        "next_effect_id": 1,
        "next_roll_id": 1,
    }
    # The game owns its data: the setup's records (mission, datasheets, stratagems) and what the
    # muster took from them are copied once here, so a caller that edits this game's state
    # changes neither the setup nor another game started from it. From here on the frozen parts
    # (state.FROZEN_KEYS) are shared only between versions of this one game.
    state = json.loads(json.dumps(state, allow_nan=False))
    event: Event = {
        "type": "game_created",
        "version": 0,
        "edition": edition.slug,
        "mission": mission["slug"],
        "seed_commitment": state["seed_commitment"],
        "units": sorted(units),
    }
    return state, [event]


def apply(state: State, action: dict[str, Any]) -> tuple[State, list[Event]]:
    """Apply one action; returns the new state and its events, or raises `Refusal`."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refusal("invalid_action", "Actions", "An action is an object with a type.")
    if action.get("player") not in PLAYERS:
        raise Refusal("invalid_player", "Actions", "An action names its player, 1 or 2.")
    if state["stage"] == "ended":
        raise Refusal("battle_over", "End of Battle", "The battle has ended.")
    try:
        # The action goes into the log: it must be plain JSON (no NaN, no infinities, no objects).
        json.dumps(action, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise Refusal("invalid_action", "Actions", "An action is plain JSON data.") from error
    state = upgrade(state)
    ctx = Context(copy_state(state))
    ctx.state["version"] += 1
    ctx.emit("action_applied", action=action)
    try:
        _dispatch(ctx, action)
    except Refusal as refusal:
        raise worded(refusal, state) from None
    transports.resolve_aftermath(ctx)
    return ctx.state, ctx.events


def _dispatch(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    kind = action["type"]
    # Actions that are no move in the game: accepted whatever decision is waiting.
    if kind in ANYTIME.meta:
        ANYTIME.meta[kind](ctx, action)
        return
    if state["pending"] or kind == "decide":
        if kind != "decide":
            decision = top_decision(state)
            assert decision is not None  # `pending` is not empty
            raise Refusal(
                "decision_pending",
                decision["rule"],
                f"Waiting for player {decision['player']}: {decision['prompt']}",
                {"decision": decision["id"]},
            )
        answered, choice = take_answer(ctx, action)
        resume(ctx, answered["resume"], choice)
        return
    if state["stage"] in SETUP_ACTIONS:
        handlers = SETUP_ACTIONS[state["stage"]]
        if kind not in handlers:
            raise Refusal(
                "wrong_stage", cite(state, "battle_sequence"), f"Now is the {state['stage']} step."
            )
        if action["player"] != state["awaiting"]:
            raise Refusal(
                "not_your_turn",
                cite(state, "battle_sequence"),
                f"Player {state['awaiting']} acts now.",
            )
        handlers[kind](ctx, action)
        return
    if kind != "embark":
        # 11e §18.02: a unit embarks right after its move, before anything else happens.
        transports.end_move_moment(state)
    phase = PHASES.get(state["phase"] or "")
    if phase is None:
        raise Refusal(
            "wrong_stage", cite(state, "battle_sequence"), f"Now is the {state['stage']} step."
        )
    if kind == "end_phase":
        refusal = phase.may_not_end(state)
        if refusal is not None:
            raise refusal
        end_phase(ctx, action)
        return
    if kind in ANYTIME.any_phase:
        if action["player"] != acting_player(state):
            raise Refusal(
                "not_your_turn",
                cite(state, "command_points"),
                f"Player {acting_player(state)} acts now.",
            )
        ANYTIME.any_phase[kind](ctx, action)
        return
    handlers = {
        **phase.actions,
        **{
            name: handler
            for name, (rule_phase, handler) in RULE_ACTIONS.entries.items()
            if rule_phase == state["phase"]
        },
    }
    if kind not in handlers:
        raise Refusal(
            "wrong_phase",
            cite(state, "once_per_phase"),
            f"{kind.replace('_', ' ')} is not something to do in the {state['phase']} phase.",
        )
    acting = phase.selecting_player(state) if phase.selecting_player else state["active_player"]
    if action["player"] != acting:
        raise Refusal("not_your_turn", cite(state, "battle_sequence"), f"Player {acting} acts now.")
    handlers[kind](ctx, action)


def pending_window(state: State) -> Decision | None:
    """The stratagem window waiting for its player's answer (the top pending decision, with its
    `id` and `player`), or None: what an online layer's clock runs for."""
    decision = top_decision(state)
    if decision is not None and decision["kind"] in ANYTIME.window_kinds:
        return decision
    return None


def acting_player(state: State) -> int | None:
    """The player the game is waiting for, or None when the battle has ended."""
    if state["stage"] == "ended":
        return None
    if state["pending"]:
        return state["pending"][-1]["player"]
    if state["stage"] in SETUP_ACTIONS:
        return state["awaiting"]
    declared = PHASES.get(state["phase"] or "")
    selecting = declared.selecting_player if declared is not None else None
    if selecting is not None:
        return selecting(upgrade(state)) or state["active_player"]
    return state["active_player"]


def _template(decision: Decision) -> dict[str, Any]:
    options = decision["options"]
    assert isinstance(options, dict)  # position and assignment kinds take a template
    return options


def legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    """What `player` may do now. Actions needing positions or targets are templates:
    `positions` is to be filled in, and `targets` lists the allowed targets."""
    state = upgrade(state)
    # The legal actions only read the state; who acts is asked on the same position (the Fight
    # phase's step asks every unit whether it is engaged).
    with position_settled(state):
        if acting_player(state) != player:
            return []
        return _legal_actions(state, player)


def _legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    decision = top_decision(state)
    if decision is not None:
        base = {"type": "decide", "player": player, "decision": decision["id"]}
        if decision["kind"] in POSITION_KINDS:
            # The options of a position decision are a template, not a list; a kind's rule may
            # add what is measured now (`DECISION_TEMPLATES`: the stratagem arrival's areas).
            template = {**base, "choice": "positions", **_template(decision)}
            if decision["kind"] in DECISION_TEMPLATES:
                template.update(DECISION_TEMPLATES[decision["kind"]](state, decision))
            if decision["kind"] in DECLINABLE_POSITION_KINDS:
                return [template, {**base, "choice": None}]
            return [template]
        if decision["kind"] in ASSIGNMENT_KINDS:
            # Shooting out of turn: the assignments, or hold fire (`null`).
            return [
                {**base, "choice": "assignments", **_template(decision)},
                {**base, "choice": None},
            ]
        return [{**base, "choice": option} for option in decision["options"]]
    if state["stage"] == "declare_reserves":
        return [
            {
                "type": "declare_reserves",
                "player": player,
                "units": "subset",
                "candidates": [u["id"] for u in units_of(state, player)],
                "points": {u["id"]: points_in_play(state, u) for u in units_of(state, player)},
                "max_points": reserves_points_limit(state),
                "embark_options": transports.embark_options(state, player),
            }
        ]
    if state["stage"] == "deployment":
        return [
            {"type": "deploy", "player": player, "unit": u, "positions": "required"}
            for u in undeployed(state, player)
        ]
    if state["stage"] == "scouts":
        return [
            {
                "type": "scout",
                "player": player,
                "unit": u,
                "positions": "required",
                "max_distance": scouts_distance(state, state["units"][u]),
            }
            for u in scout_candidates(state, player)
        ] + [{"type": "end_scouts", "player": player}]
    return _phase_actions(state, player)


def _phase_actions(state: State, player: int) -> list[dict[str, Any]]:
    """The phase's own templates, then the rules' (`LEGAL_ACTIONS`), then the stratagems'
    (`use_stratagem`), then `end_phase` for the active player when the phase offers it."""
    phase = PHASES.get(state["phase"] or "")
    found = phase.legal_actions(state, player) if phase is not None else []
    for rule in LEGAL_ACTIONS:
        found.extend(rule(state, player))
    for anytime in ANYTIME.legal:
        found.extend(anytime(state, player))
    if player == state["active_player"] and (phase is None or phase.offers_end(state)):
        found.append({"type": "end_phase", "player": player})
    return found
