"""The engine's entry points: `new_game`, `apply(state, action) -> (new_state, events)` and
`legal_actions(state, player)`.

`apply` works on a copy: a refused action raises `Refusal` and the given state is never changed.
Actions are plain dicts `{"type": ..., "player": 1 or 2, ...}` (docs/engine.md lists them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rules.engine.army.muster import muster
from rules.engine.army.names import name_units, worded
from rules.engine.battlefield.arrival_areas import arrival_areas
from rules.engine.battlefield.placement import is_engaged
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
from rules.engine.core.effects import granted_keywords
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.saved_games import upgrade
from rules.engine.core.sequencing import resume
from rules.engine.core.shapes import Decision
from rules.engine.core.standing_rules import LEGAL_ACTIONS
from rules.engine.core.standing_rules import PHASE_ACTIONS as RULE_ACTIONS
from rules.engine.core.state import PLAYERS, State, copy_state, on_battlefield, units_of
from rules.engine.phases import charge as charge_phase
from rules.engine.phases import fight as fight_phase
from rules.engine.phases import movement as movement_phase
from rules.engine.phases import shooting as shooting_phase
from rules.engine.phases import transports
from rules.engine.sequence.battle import (
    declare_reserves,
    deploy,
    end_phase,
    end_scouts,
    scout,
    undeployed,
)
from rules.engine.sequence.pre_battle import scout_candidates, scouts_distance
from rules.engine.stratagems import windows
from rules.engine.stratagems.use import stratagems_for_game

Handler = Callable[[Context, dict[str, Any]], None]

SETUP_ACTIONS: dict[str, dict[str, Handler]] = {
    "declare_reserves": {"declare_reserves": declare_reserves},
    "deployment": {"deploy": deploy},
    "scouts": {"scout": scout, "end_scouts": end_scouts},
}
PHASE_ACTIONS: dict[str, dict[str, Handler]] = {
    "command": {},
    "movement": {
        "remain_stationary": movement_phase.remain_stationary,
        "move": movement_phase.normal_move,
        "advance": movement_phase.advance,
        "fall_back": movement_phase.fall_back,
        "arrive": movement_phase.arrive,
        "embark": transports.embark,
        "disembark": transports.disembark,
    },
    "shooting": {"shoot": shooting_phase.shoot},
    "charge": {"declare_charge": charge_phase.declare_charge},
    "fight": {
        "fight": fight_phase.fight,
        "pile_in": fight_phase.pile_in,
        "consolidate": fight_phase.consolidate,
        "end_step": fight_phase.end_step,
    },
}


def new_game(setup: dict[str, Any], seed: str) -> tuple[State, list[dict[str, Any]]]:
    """Start a game from plain rules data: `setup` = {ruleset, mission, datasheets, armies}.

    The data is copied into the state, so later edits of the rules data never change this game.
    """
    ruleset = setup["ruleset"]
    edition = Edition.from_parameters(ruleset["slug"], ruleset["parameters"])
    edition_data = {"slug": edition.slug, **edition.parameters()}
    datasheets = {d["slug"]: d for d in setup["datasheets"]}
    units: dict[str, Any] = {}
    for player in PLAYERS:
        units.update(muster(player, setup["armies"][str(player)], datasheets, edition_data))
    name_units(units)
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
    event = {
        "type": "game_created",
        "version": 0,
        "edition": edition.slug,
        "mission": mission["slug"],
        "seed_commitment": state["seed_commitment"],
        "units": sorted(units),
    }
    return state, [event]


def apply(state: State, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
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


# Actions that are no move in the game: accepted whatever decision is waiting.
META_ACTIONS: dict[str, Handler] = {
    "set_window_preferences": windows.set_window_preferences,
    "window_timeout": windows.window_timeout,
}


def _dispatch(ctx: Context, action: dict[str, Any]) -> None:
    state = ctx.state
    kind = action["type"]
    if kind in META_ACTIONS:
        META_ACTIONS[kind](ctx, action)
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
    if kind == "end_phase":
        waiting = transports.must_move_after_disembark(state)
        if waiting:
            raise Refusal(
                "tactical_disembark_move",
                cite(state, "disembark"),
                f"{state['units'][waiting[0]]['name']} made a tactical disembark: select it for "
                "a normal or advance move first.",
            )
        if state["phase"] == "fight" and fight_phase.current_step(state)[0] in (
            "pile_in",
            "consolidate",
        ):
            raise Refusal(
                "fight_steps_remaining",
                cite(state, "fight_phase"),
                "Both players make (or pass) their pile-in and consolidation moves first.",
            )
        end_phase(ctx, action)
        return
    if kind == "use_stratagem":
        if action["player"] != acting_player(state):
            raise Refusal(
                "not_your_turn",
                cite(state, "command_points"),
                f"Player {acting_player(state)} acts now.",
            )
        windows.use_stratagem_action(ctx, action)
        return
    handlers = {
        **PHASE_ACTIONS[state["phase"]],
        **{
            name: handler
            for name, (phase, handler) in RULE_ACTIONS.entries.items()
            if phase == state["phase"]
        },
    }
    if kind not in handlers:
        raise Refusal(
            "wrong_phase",
            cite(state, "once_per_phase"),
            f"{kind.replace('_', ' ')} is not something to do in the {state['phase']} phase.",
        )
    acting = (
        fight_phase.selecting_player(state) if state["phase"] == "fight" else state["active_player"]
    )
    if action["player"] != acting:
        raise Refusal("not_your_turn", cite(state, "battle_sequence"), f"Player {acting} acts now.")
    handlers[kind](ctx, action)


def pending_window(state: State) -> Decision | None:
    """The stratagem window waiting for its player's answer (the top pending decision, with its
    `id` and `player`), or None: what an online layer's clock runs for."""
    decision = top_decision(state)
    return decision if decision is not None and decision["kind"] == windows.WINDOW_KIND else None


def acting_player(state: State) -> int | None:
    """The player the game is waiting for, or None when the battle has ended."""
    if state["stage"] == "ended":
        return None
    if state["pending"]:
        return state["pending"][-1]["player"]
    if state["stage"] in SETUP_ACTIONS:
        return state["awaiting"]
    if state["phase"] == "fight":
        return fight_phase.selecting_player(upgrade(state)) or state["active_player"]
    return state["active_player"]


def _template(decision: Decision) -> dict[str, Any]:
    options = decision["options"]
    assert isinstance(options, dict)  # position and assignment kinds take a template
    return options


def legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    """What `player` may do now. Actions needing positions or targets are templates:
    `positions` is to be filled in, and `targets` lists the allowed targets."""
    state = upgrade(state)
    if acting_player(state) != player:
        return []
    decision = top_decision(state)
    if decision is not None:
        base = {"type": "decide", "player": player, "decision": decision["id"]}
        if decision["kind"] in POSITION_KINDS:
            # The options of a position decision are a template, not a list.
            template = {**base, "choice": "positions", **_template(decision)}
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
                "max_units": int(
                    len(units_of(state, player))
                    * state["mission"]["reserves"]["max_fraction_of_units"]
                ),
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
    phase = state["phase"]
    found: list[dict[str, Any]] = []
    mine = units_of(state, player)
    must_move = transports.must_move_after_disembark(state) if phase == "movement" else []
    if phase == "movement":
        for unit in mine:
            if must_move and unit["id"] not in must_move:
                continue
            found.extend(_movement_actions(state, player, unit))
    elif phase == "shooting":
        for unit in mine:
            if shooting_phase.ineligibility(state, unit) is None:
                template = shooting_phase.shoot_template(state, unit)
                if template is not None:
                    found.append(template)
    elif phase == "charge":
        for unit in mine:
            if charge_phase.ineligibility(state, unit) is None:
                targets = charge_phase.charge_targets(state, unit)
                if targets:
                    found.append(
                        {
                            "type": "declare_charge",
                            "player": player,
                            "unit": unit["id"],
                            "targets": targets,
                            "max_distance": "2D6",
                            "targets_after_roll": state["edition"]["charge_targets_after_roll"],
                            **_flight(state, unit),
                        }
                    )
    elif phase == "fight":
        found.extend(fight_phase.step_templates(state, player))
    for rule in LEGAL_ACTIONS:
        found.extend(rule(state, player))
    found.extend(windows.use_stratagem_actions(state, player))
    if (
        player == state["active_player"]
        and not must_move
        and not (phase == "fight" and fight_phase.current_step(state)[0] != "done")
    ):
        found.append({"type": "end_phase", "player": player})
    return found


def _movement_actions(state: State, player: int, unit: dict[str, Any]) -> list[dict[str, Any]]:
    """A unit's moves this Movement phase, with the maximum distance of each (the slowest
    model's M; an advance adds a D6 rolled when it is selected)."""
    base = {"player": player, "unit": unit["id"]}
    if movement_phase.can_arrive(state, unit):
        methods = movement_phase.arrival_methods(state, unit)
        return [
            {
                "type": "arrive",
                **base,
                "positions": "required",
                "methods": methods,
                # Where it may be set up, drawn before it is dropped (the checks are setting_up's).
                "areas": arrival_areas(state, unit, methods),
            }
        ]
    if unit["location"] == "embarked":
        template = transports.disembark_template(state, unit)
        return [template] if template else []
    embarks = [
        {"type": "embark", **base, "transport": transport}
        for transport in transports.embark_targets(state, unit)
    ]
    if not on_battlefield(unit) or unit["id"] in state["facts"]["phase"]["acted"]:
        return embarks
    maximum = movement_phase.movement_characteristic(state, unit)
    if unit["id"] in transports.must_move_after_disembark(state):
        return [
            {"type": "move", **base, "positions": "required", "max_distance": maximum},
            {"type": "advance", **base, "max_distance": maximum, "bonus": "D6"},
        ]
    found = [{"type": "remain_stationary", **base}]
    flight = _flight(state, unit)
    if is_engaged(state, unit):
        found.append({"type": "fall_back", **base, "max_distance": maximum, **flight})
    else:
        found.append(
            {"type": "move", **base, "positions": "required", "max_distance": maximum, **flight}
        )
        found.append({"type": "advance", **base, "max_distance": maximum, "bonus": "D6", **flight})
    return found


def _flight(state: State, unit: dict[str, Any]) -> dict[str, Any]:
    """11e §21.03: a FLYING unit's move templates say it may take to the skies (the action's
    `take_to_the_skies`: true), and the distance that costs."""
    keywords = {*unit.get("keywords", ()), *granted_keywords(state, unit)}
    if not state["edition"]["fly_declared_before_moving"] or "FLY" not in keywords:
        return {}
    return {"can_take_to_the_skies": True, "fly_move_penalty": state["edition"]["fly_move_penalty"]}
