"""The game state seen by the battlefield modules: the `Edition`, the `Battlefield` of the mission
and the placements of models, for the Shooting and Fight phases.

The edition and the mission are frozen into the state and shared by every version of it
(`state.FROZEN_KEYS`), so the objects built from them are cached by identity: a game builds its
battlefield (and its sight polygons, cached inside it) once.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield import Battlefield, Placement, placements_from_units
from rules.engine.editions import Edition
from rules.engine.state import State

_CACHE_SIZE = 16
_editions: dict[int, tuple[dict[str, Any], Edition]] = {}
_battlefields: dict[int, tuple[dict[str, Any], Battlefield]] = {}


def _cached(cache: dict, data: dict[str, Any], build) -> Any:
    hit = cache.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    if len(cache) >= _CACHE_SIZE:
        cache.pop(next(iter(cache)))
    value = build()
    cache[id(data)] = (data, value)
    return value


def edition_of(state: State) -> Edition:
    data = state["edition"]
    parameters = {key: value for key, value in data.items() if key != "slug"}
    return _cached(_editions, data, lambda: Edition.from_parameters(data["slug"], parameters))


def battlefield_of(state: State) -> Battlefield:
    mission = state["mission"]
    return _cached(_battlefields, mission, lambda: Battlefield.from_mission(mission))


def unit_placements(state: State, unit: dict[str, Any]) -> list[Placement]:
    """The placements of the unit's models on the battlefield (living models only)."""
    return placements_from_units({unit["id"]: unit})


def all_placements(state: State) -> list[Placement]:
    return placements_from_units(state["units"])
