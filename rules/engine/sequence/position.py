"""A game set up at a given position: the battle round, phase, active player, CP and VP, where
each unit stands with the wounds its models have left, its statuses, and the effects in play.

Scenario tests start here instead of playing a game up to the point they check, and an organiser
can set up a disputed position to adjudicate it. The armies are mustered exactly as `new_game`
musters them (the same set-up record); the position then says where everything is. Anything
inconsistent is refused with a reason naming the unit or model (`Refusal`, code `invalid_position`
and the like): a model off the battlefield or on another model, more wounds left than its W, a
unit embarked within something that is not a TRANSPORT with room for it, a flag or status the
engine does not know, a phase that does not exist.

The game's dice are the seed's, as in every game (docs/engine.md "Position set-up").
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from rules.engine.army.unit_strength import record_starting_strengths
from rules.engine.battlefield.board import ModelSet, Placement
from rules.engine.battlefield.measuring import wholly_within_polygon
from rules.engine.battlefield.placement import battlefield_of
from rules.engine.battlefield.sweeping import overlaps
from rules.engine.core.effects import DURATIONS, add_effect
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Event, Unit
from rules.engine.core.state import PHASES, PLAYERS, TURN_FLAGS, State, alive_models
from rules.engine.core.timing import PHASE_STARTED, reach
from rules.engine.phases.battle_shock import BATTLE_SHOCKED
from rules.engine.phases.transports import embark_refusal
from rules.engine.sequence.game import new_game

RULE = "Position set-up"
POSITION_KEYS = frozenset(
    {"battle_round", "phase", "active_player", "first_player", "players", "units", "effects"}
)
UNIT_KEYS = frozenset(
    {"location", "at", "positions", "wounds_left", "embarked_in", "flags", "statuses", "acted"}
)
LOCATIONS = ("battlefield", "strategic_reserves", "embarked", "destroyed")
STATUSES = (BATTLE_SHOCKED,)
FORMATION_GAP = 0.3  # inches between bases when a unit is given by `at`


def _refuse(message: str, code: str = "invalid_position") -> Refusal:
    return Refusal(code, RULE, message)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any, low: int, high: int | None = None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= low
        and (high is None or value <= high)
    )


def new_position(
    setup: dict[str, Any], seed: str, position: dict[str, Any]
) -> tuple[State, list[Event]]:
    """A game at `position` (docs/engine.md "Position set-up"); raises `Refusal` when the
    position is inconsistent. The state is in the `battle` stage with nothing pending: the phase
    has started (its start-of-phase rules and window are behind it)."""
    state, events = new_game(setup, seed)
    if not isinstance(position, dict):
        raise _refuse("A position is an object.")
    unknown = set(position) - POSITION_KEYS
    if unknown:
        raise _refuse(f"Unknown position keys: {', '.join(sorted(unknown))}.")
    ctx = Context(state)
    _set_turn(state, position)
    _set_players(state, position.get("players", {}))
    record_starting_strengths(state)
    specs = position.get("units")
    if not isinstance(specs, dict):
        raise _refuse("Give `units`: where each unit of both armies is.")
    names = {unit_id: unit["name"] for unit_id, unit in state["units"].items()}
    missing = sorted(set(state["units"]) - set(specs))
    if missing:
        listed = ", ".join(names[u] for u in missing)
        raise _refuse(f"Say where every unit is; missing: {listed}.")
    strangers = sorted(set(specs) - set(state["units"]))
    if strangers:
        raise _refuse(f"No such units in the armies: {', '.join(strangers)}.")
    for unit_id in sorted(specs):
        _set_unit(state, state["units"][unit_id], specs[unit_id])
    for unit_id in sorted(specs):
        _embark(state, state["units"][unit_id], specs[unit_id])
    _check_table(state)
    for unit_id in sorted(specs):
        _set_facts(ctx, state["units"][unit_id], specs[unit_id])
    for effect in position.get("effects", []):
        _add_effect(ctx, effect)
    # What "the start of the phase" records (the phase's Hallowed Ground, who had arrived
    # before it): the timing point's subscribers, which record and ask nothing.
    reach(ctx, PHASE_STARTED, {"phase": state["phase"]}, None)
    ctx.emit("position_set_up", position=position)
    return state, events + ctx.events


def _set_turn(state: State, position: dict[str, Any]) -> None:
    rounds = state["edition"]["battle_rounds"]
    battle_round = position.get("battle_round", 1)
    if not _whole(battle_round, 1, rounds):
        raise _refuse(f"`battle_round` is a battle round from 1 to {rounds}.")
    phase = position.get("phase", "command")
    if phase not in PHASES:
        raise _refuse(f"`phase` is one of {', '.join(PHASES)}.")
    active = position.get("active_player", 1)
    first = position.get("first_player", 1)
    if active not in PLAYERS or first not in PLAYERS:
        raise _refuse("`active_player` and `first_player` are 1 or 2.")
    state.update(
        {
            "stage": "battle",
            "awaiting": None,
            "battle_round": battle_round,
            "first_player": first,
            "active_player": active,
            "phase": phase,
        }
    )


def _set_players(state: State, players: Any) -> None:
    if not isinstance(players, dict) or not set(players) <= {"1", "2"}:
        raise _refuse('`players` maps "1" and "2" to their `cp` and `vp`.')
    for key, values in players.items():
        if not isinstance(values, dict) or not set(values) <= {"cp", "vp"}:
            raise _refuse(f"Player {key}: give `cp` and `vp` only.")
        for name, value in values.items():
            if not _whole(value, 0):
                raise _refuse(f"Player {key}: {name.upper()} is a whole number, 0 or more.")
        record = state["players"][key]
        record["cp"] = values.get("cp", record["cp"])
        if "vp" in values:
            record["vp"] = record["primary_vp"] = values["vp"]


def _set_unit(state: State, unit: Unit, spec: Any) -> None:
    label = f"{unit['name']} ({unit['id']})"
    if not isinstance(spec, dict):
        raise _refuse(f"{label}: give an object (`at` or `positions`, or a `location`).")
    unknown = set(spec) - UNIT_KEYS
    if unknown:
        raise _refuse(f"{label}: unknown keys {', '.join(sorted(unknown))}.")
    placed = "at" in spec or "positions" in spec
    location = spec.get("location", "battlefield" if placed else None)
    if location not in LOCATIONS:
        raise _refuse(f"{label}: `location` is one of {', '.join(LOCATIONS)}.")
    if placed != (location == "battlefield"):
        raise _refuse(f"{label}: a unit on the battlefield, and only such a unit, has positions.")
    if (location == "embarked") != ("embarked_in" in spec):
        raise _refuse(f"{label}: an embarked unit, and only such a unit, names `embarked_in`.")
    _set_wounds(unit, spec.get("wounds_left", {}), label)
    if location == "destroyed" or not alive_models(unit):
        for model in unit["models"]:
            model["wounds_left"] = 0
        unit["location"] = "destroyed"
        return
    unit["location"] = location
    if location != "battlefield":
        for model in unit["models"]:
            model["x"] = model["y"] = None
        return
    positions = spec.get("positions") or _formation(unit, spec["at"], label)
    _place(unit, positions, label)


def _set_wounds(unit: Unit, wounds: Any, label: str) -> None:
    if not isinstance(wounds, dict):
        raise _refuse(f"{label}: `wounds_left` maps model ids to wounds left.")
    models = {m["id"]: m for m in unit["models"]}
    for model_id, left in wounds.items():
        if model_id not in models:
            raise _refuse(f"{label} has no model {model_id}.")
        if not _whole(left, 0, models[model_id]["W"]):
            raise _refuse(
                f"{label}: model {model_id} has W {models[model_id]['W']}; wounds left are "
                f"0 (destroyed) to {models[model_id]['W']}."
            )
        models[model_id]["wounds_left"] = left


def _formation(unit: Unit, at: Any, label: str) -> dict[str, list[float]]:
    """Rows of five from `at` (the first model's centre), bases side by side."""
    if not (isinstance(at, list | tuple) and len(at) == 2 and all(map(_number, at))):
        raise _refuse(f"{label}: `at` is [x, y], where its first model stands.")
    models = alive_models(unit)
    step = max(_base_size(m["base"]) for m in models) + FORMATION_GAP
    return {
        m["id"]: [at[0] + (i % 5) * step, at[1] + (i // 5) * step, 0.0]
        for i, m in enumerate(models)
    }


def _base_size(base: dict[str, Any]) -> float:
    """The largest dimension of a base, in inches (bundle format: millimetres)."""
    sizes: list[float] = []
    for key in ("diameter_mm", "length_mm", "width_mm"):
        value = base.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            sizes.append(float(value))
    return max(sizes, default=32.0) / 25.4


def _place(unit: Unit, positions: Any, label: str) -> None:
    alive = {m["id"]: m for m in alive_models(unit)}
    if not isinstance(positions, dict) or set(positions) != set(alive):
        raise _refuse(f"{label}: give a position for each of its {len(alive)} models left.")
    for model_id, value in positions.items():
        if not (
            isinstance(value, list | tuple) and len(value) in (2, 3, 4) and all(map(_number, value))
        ):
            raise _refuse(f"{label}: model {model_id}'s position is [x, y], [x, y, facing] or z.")
        model = alive[model_id]
        model["x"], model["y"] = float(value[0]), float(value[1])
        model["facing"] = float(value[2]) % 360.0 if len(value) > 2 else 0.0
        if len(value) == 4:
            model["z"] = float(value[3])
    first = next(iter(alive.values()))
    for model in unit["models"]:
        if model["id"] not in alive:  # destroyed earlier: where the unit is (never on the table)
            model["x"], model["y"], model["facing"] = first["x"], first["y"], 0.0


def _embark(state: State, unit: Unit, spec: dict[str, Any]) -> None:
    if unit["location"] != "embarked":
        return
    transport = state["units"].get(spec["embarked_in"])
    label = f"{unit['name']} ({unit['id']})"
    if transport is None or transport["location"] != "battlefield":
        raise _refuse(f"{label}: `embarked_in` names a TRANSPORT on the battlefield.")
    refusal = embark_refusal(state, unit, transport, RULE)
    if refusal is not None:
        raise _refuse(f"{label}: {refusal.message}", refusal.code)
    unit["embarked_in"] = transport["id"]


def _check_table(state: State) -> None:
    """Every model on the battlefield is wholly on it and on no other model."""
    placements = [
        Placement(
            m["id"],
            u["id"],
            u["player"],
            m["x"],  # type: ignore[arg-type]  # alive models on the battlefield are placed
            m["y"],  # type: ignore[arg-type]
            m.get("facing", 0.0),
            m["base"],  # type: ignore[arg-type]  # Placement reads a bundle-format base
            frozenset(u.get("keywords", ())),
            m.get("z", 0.0),
        )
        for u in state["units"].values()
        if u["location"] == "battlefield"
        for m in alive_models(u)
    ]
    if not placements:
        return
    on_table = wholly_within_polygon(placements, battlefield_of(state).area)
    if not on_table.all():
        model = placements[int(np.flatnonzero(~on_table)[0])]
        raise _refuse(f"Model {model.model_id} is not wholly on the battlefield.")
    group = ModelSet(placements)
    clash = overlaps(group, group) & ~np.eye(len(placements), dtype=bool)
    if clash.any():
        first, second = (int(i) for i in np.argwhere(clash)[0])
        raise _refuse(
            f"Model {placements[first].model_id} stands on model {placements[second].model_id}."
        )


def _set_facts(ctx: Context, unit: Unit, spec: dict[str, Any]) -> None:
    state = ctx.state
    label = f"{unit['name']} ({unit['id']})"
    flags = spec.get("flags", [])
    statuses = spec.get("statuses", [])
    if not isinstance(flags, list) or not set(flags) <= set(TURN_FLAGS):
        raise _refuse(f"{label}: `flags` are among {', '.join(TURN_FLAGS)}.")
    if not isinstance(statuses, list) or not set(statuses) <= set(STATUSES):
        raise _refuse(f"{label}: `statuses` are among {', '.join(STATUSES)}.")
    if (flags or statuses or spec.get("acted")) and unit["location"] == "destroyed":
        raise _refuse(f"{label} is destroyed: it has no flags, statuses or actions.")
    for flag in flags:
        state["facts"]["turn"].setdefault(flag, []).append(unit["id"])
    if spec.get("acted"):
        state["facts"]["phase"]["acted"].append(unit["id"])
    for status in statuses:
        duration = DURATIONS_BY_END[state["edition"]["battle_shock_ends"]]
        add_effect(
            ctx, "battle-shock", {"unit": unit["id"]}, {"status": status}, duration, unit["player"]
        )


# How long a battle-shock lasts in each edition (`Edition.battle_shock_ends`).
DURATIONS_BY_END = {
    "start_of_next_command_phase": "start_of_next_command_phase",
    "passed_battle_shock_roll": "until_removed",
}


def _add_effect(ctx: Context, effect: Any) -> None:
    keys = {"source", "selector", "modifier", "duration", "player"}
    if not isinstance(effect, dict) or set(effect) != keys:
        raise _refuse(f"An effect gives exactly {', '.join(sorted(keys))}.")
    if effect["duration"] not in DURATIONS:
        raise _refuse(f"An effect's duration is one of {', '.join(sorted(DURATIONS))}.")
    if effect["player"] not in PLAYERS:
        raise _refuse("An effect's `player` (who started it) is 1 or 2.")
    selector = effect["selector"]
    if not isinstance(selector, dict) or len(selector) != 1:
        raise _refuse("An effect's selector is {unit: id}, {player: n} or {objective: id}.")
    if "unit" in selector and selector["unit"] not in ctx.state["units"]:
        raise _refuse(f"No unit {selector['unit']} for the effect of {effect['source']}.")
    add_effect(
        ctx,
        effect["source"],
        selector,
        effect["modifier"],
        effect["duration"],
        effect["player"],
    )
