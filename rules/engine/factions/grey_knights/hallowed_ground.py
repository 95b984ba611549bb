"""Hallowed Ground (Grey Knights, Warpbane Task Force; seed 004 L496-502).

Areas within a player's Hallowed Ground: their deployment zone, always; the area within 6" of
their PURIFIER SQUAD units; No Man's Land for a phase when, at its start, they control at least
half of the objective markers in No Man's Land; the opponent's deployment zone for a phase when,
at its start, they control at least half of the markers in it. The start-of-phase facts are
recorded in `facts.phase.hallowed_ground` (`record_at_phase_start`, called by the battle sequence).

A model is wholly within Hallowed Ground when its base is wholly within one of those areas
(rulings R-ST-20); a unit when every one of its models is.
"""

from __future__ import annotations

from typing import Any

import shapely

from rules.engine.battlefield.areas import base_of, wholly_within, wholly_within_zone
from rules.engine.battlefield.state_distances import wholly_within_of
from rules.engine.core import standing_rules
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.shapes import Model, Objective, Unit
from rules.engine.core.state import (
    PLAYERS,
    State,
    alive_models,
    detachment,
    on_battlefield,
    opponent,
    player_key,
    unit_keywords,
    units_of,
)
from rules.engine.core.timing import PHASE_STARTED, at

DETACHMENT = "warpbane-task-force"
PURIFIER_AURA = 6.0


def _zone(state: State, player: int) -> shapely.Polygon:
    return shapely.Polygon(state["mission"]["deployment_zones"][str(player)])


def _markers_in_no_mans_land(state: State) -> list[Objective]:
    zones = [_zone(state, p) for p in PLAYERS]
    return [
        m
        for m in state["objectives"]
        if not any(z.covers(shapely.Point(m["x"], m["y"])) for z in zones)
    ]


def _markers_in_zone(state: State, player: int) -> list[Objective]:
    zone = _zone(state, player)
    return [m for m in state["objectives"] if zone.covers(shapely.Point(m["x"], m["y"]))]


def _at_least_half(markers: list[Objective], player: int) -> bool:
    held = sum(1 for m in markers if m["controller"] == player)
    return bool(markers) and 2 * held >= len(markers)


@implements("detachment-rule", "warpbane-task-force")
@at(PHASE_STARTED, 20)
def record_at_phase_start(ctx: Context, _data: dict[str, Any]) -> None:
    """At the start of any phase: which conditional areas are Hallowed Ground this phase."""
    state = ctx.state
    for player in PLAYERS:
        if detachment(state, player) != DETACHMENT:
            continue
        areas = []
        if _at_least_half(_markers_in_no_mans_land(state), player):
            areas.append("no_mans_land")
        if _at_least_half(_markers_in_zone(state, opponent(player)), player):
            areas.append("enemy_deployment_zone")
        state["facts"]["phase"].setdefault("hallowed_ground", {})[player_key(player)] = areas


def _wholly_in_no_mans_land(state: State, model: Model) -> bool:
    return wholly_within(_no_mans_land(state), model)


def _no_mans_land(state: State) -> shapely.Geometry:
    width = state["mission"]["battlefield"]["width"]
    depth = state["mission"]["battlefield"]["depth"]
    board = shapely.box(0, 0, width, depth)
    for player in PLAYERS:
        board = board.difference(_zone(state, player))
    return board


def _purifier_models(state: State, player: int) -> list[Model]:
    return [
        model
        for unit in units_of(state, player)
        if "PURIFIER SQUAD" in unit_keywords(state, unit) and on_battlefield(unit)
        for model in alive_models(unit)
    ]


def _near_purifiers(state: State, player: int, model: Model) -> bool:
    return any(
        wholly_within_of(model, other, PURIFIER_AURA) for other in _purifier_models(state, player)
    )


def area(state: State, player: int) -> shapely.Geometry:
    """The player's Hallowed Ground this phase as one area, for the table to draw (Hallowed
    Beacon's set-up): the union of its areas. A model must be wholly within one of them
    (`model_wholly_within`), which the check, not the drawing, decides."""
    areas = state["facts"]["phase"].get("hallowed_ground", {}).get(player_key(player), [])
    parts = [_zone(state, player)]
    parts += [base_of(m).buffer(PURIFIER_AURA, 8) for m in _purifier_models(state, player)]
    if "enemy_deployment_zone" in areas:
        parts.append(_zone(state, opponent(player)))
    if "no_mans_land" in areas:
        parts.append(_no_mans_land(state))
    return shapely.union_all(parts)


def model_wholly_within(state: State, player: int, model: Model) -> bool:
    if wholly_within_zone(state["mission"], player, model) or _near_purifiers(state, player, model):
        return True
    areas = state["facts"]["phase"].get("hallowed_ground", {}).get(player_key(player), [])
    if "enemy_deployment_zone" in areas and wholly_within_zone(
        state["mission"], opponent(player), model
    ):
        return True
    return "no_mans_land" in areas and _wholly_in_no_mans_land(state, model)


def unit_wholly_within(state: State, player: int, unit: Unit) -> bool:
    models = alive_models(unit)
    return (
        bool(models)
        and on_battlefield(unit)
        and all(model_wholly_within(state, player, m) for m in models)
    )


def _hallowed_beacon_arrival(state: State, unit: Unit, rule: str) -> None:
    """Hallowed Beacon: a unit set up this way must be wholly within its army's Hallowed Ground."""
    if not unit_wholly_within(state, unit["player"], unit):
        raise Refusal(
            "not_in_hallowed_ground",
            rule,
            f"{unit['name']} must be set up wholly within your army's Hallowed Ground.",
        )


def _saved_in_hallowed_ground(modifier: dict[str, Any]) -> dict[str, Any]:
    """Repelling Sphere saved before the effect vocabulary named areas as data:
    `{"charge_roll_when_targeted": -1, "in_hallowed_ground": -2}`."""
    renamed = {k: v for k, v in modifier.items() if k != "in_hallowed_ground"}
    return {**renamed, "in_area": {"hallowed_ground": modifier["in_hallowed_ground"]}}


def _saved_target_in_hallowed_ground(modifier: dict[str, Any]) -> dict[str, Any]:
    """Aegis Eternal saved by the engine of rulings R-ST-20's first version: an attack modifier
    `only_if: {"target_in_hallowed_ground": true}`."""
    only_if = {k: v for k, v in modifier["only_if"].items() if k != "target_in_hallowed_ground"}
    if modifier["only_if"]["target_in_hallowed_ground"]:
        only_if["target_in_area"] = "hallowed_ground"
    return {**modifier, "only_if": only_if}


standing_rules.SAVED_MODIFIER_WORDS.add("in_hallowed_ground", _saved_in_hallowed_ground)
standing_rules.SAVED_MODIFIER_WORDS.add(
    "only_if.target_in_hallowed_ground", _saved_target_in_hallowed_ground
)
standing_rules.ARRIVAL_RESTRICTIONS.add("hallowed_beacon", _hallowed_beacon_arrival)
standing_rules.ARRIVAL_ALLOWED_AREAS.add("hallowed_beacon", area)
standing_rules.ARMY_AREAS.add(
    "hallowed_ground", lambda state, unit: unit_wholly_within(state, unit["player"], unit)
)
