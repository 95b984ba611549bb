"""Where an arriving unit may be set up, as areas the table draws before the player drops it
(issue 15): for an ingress move the band within the edge distance of a battlefield edge (less
the opponent's deployment zone before the battle round the edition allows it), for Deep Strike
the whole battlefield; and, for both, the area within the edition's enemy distance of each enemy
model, where no part of a base may be. The checks themselves stay in `setting_up`; these are the
same figures drawn."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import shapely

from rules.engine.battlefield.board import Base, base_polygon
from rules.engine.battlefield.placement import battlefield_of, edition_of, measured_here
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.state import State, alive_models, on_battlefield


def _rings(geometry: shapely.Geometry) -> list[list[list[list[float]]]]:
    """Each polygon of a (multi)polygon as its rings (the outline, then its holes) of [x, y],
    rounded for the page."""
    polygons = getattr(geometry, "geoms", [geometry])

    def ring(coords) -> list[list[float]]:
        return [[round(x, 2), round(y, 2)] for x, y in coords]

    return [
        [ring(polygon.exterior.coords), *(ring(hole.coords) for hole in polygon.interiors)]
        for polygon in polygons
        if not polygon.is_empty and polygon.geom_type == "Polygon"
    ]


def arrival_areas(state: State, unit: Unit, methods: list[str]) -> dict[str, Any]:
    """{method: {"allowed": [polygon, ...], "keep_out": [polygon, ...], "enemy_distance": inches}}
    for the ingress move and Deep Strike among `methods`; a polygon is its rings (outline and
    holes)."""
    # The areas depend only on where the enemy models stand, the player and the battle round;
    # the Movement phase's legal actions ask them of every unit in reserves, and the union of
    # buffered bases is the costly part. Kept with the position (the page only reads them).
    measured = measured_here(state)
    key = ("arrival_areas", unit["player"], state["battle_round"], tuple(methods))
    found = measured.get(key)
    if found is None:
        found = measured[key] = _drawn_for(state, unit["player"], tuple(methods))
    return dict(found)


# The areas last drawn in each game for a player, round and methods (by the identity of the game's
# frozen datasheets, which the entry keeps alive), with where the enemy models stood. A player's
# own moves, set-ups and arrivals change the position but not the enemy models, so the Movement
# phase's legal actions after each of them find the areas already drawn. One immutable entry is
# swapped in whole, so engine calls from several threads never mix two answers.
_last_drawn: dict[tuple, tuple[Any, ...]] = {}
_DRAWN_KEPT = 512
_drawn_lock = threading.Lock()


def _enemies_at(state: State, player: int) -> list[tuple[Any, ...]]:
    """What the areas read of the enemy units: where each one is, and where its models stand
    and how many wounds they have left. Their bases are never changed (state.SHARED_MODEL_MEMBERS)
    and the battlefield, edition and round are compared apart."""
    return [
        (
            unit_id,
            location,
            [(m["x"], m["y"], m.get("facing", 0.0), m["wounds_left"]) for m in other["models"]]
            if location == "battlefield"
            else None,
        )
        for unit_id, other in state["units"].items()
        if other["player"] != player
        for location in (other["location"],)
    ]


def _drawn_for(state: State, player: int, methods: tuple[str, ...]) -> dict[str, Any]:
    datasheets = state["datasheets"]
    battlefield, edition = battlefield_of(state), edition_of(state)
    enemies_at = _enemies_at(state, player)
    slot = (id(datasheets), player, state["battle_round"], methods)
    kept = _last_drawn.get(slot)
    if (
        kept is not None
        and kept[0] is datasheets
        and kept[1] is battlefield
        and kept[2] is edition
        and kept[3] == enemies_at
    ):
        return kept[4]
    found = _arrival_areas(state, player, list(methods))
    with _drawn_lock:
        _last_drawn.pop(slot, None)
        _last_drawn[slot] = (datasheets, battlefield, edition, enemies_at, found)
        while len(_last_drawn) > _DRAWN_KEPT:
            _last_drawn.pop(next(iter(_last_drawn)))
    return found


def _arrival_areas(state: State, player: int, methods: list[str]) -> dict[str, Any]:
    battlefield = battlefield_of(state)
    edition = edition_of(state)
    enemies = [
        model
        for other in state["units"].values()
        if other["player"] != player and on_battlefield(other)
        for model in alive_models(other)
    ]
    found: dict[str, Any] = {}
    keep_outs: dict[float, Any] = {}  # the methods' enemy distances are often the same
    for method in methods:
        if method == "ingress":
            distance = edition.reserves_enemy_distance
            allowed = battlefield.area.difference(
                battlefield.area.buffer(-edition.reserves_edge_distance, join_style="mitre")
            )
            zone = battlefield.deployment_zone(3 - player)
            if (
                zone is not None
                and state["battle_round"] < edition.reserves_opponent_zone_from_round
            ):
                allowed = allowed.difference(zone)
        elif method == "deep_strike":
            distance = edition.deep_strike_enemy_distance
            allowed = battlefield.area
        else:
            continue
        if distance not in keep_outs:
            keep_out = shapely.union_all([_kept_out(m, distance) for m in enemies])
            keep_outs[distance] = _rings(keep_out.intersection(battlefield.area)) if enemies else []
        found[method] = {
            "allowed": _rings(allowed),
            "keep_out": keep_outs[distance],
            "enemy_distance": distance,
        }
    return found


def _kept_out(model: Model, distance: float) -> shapely.Geometry:
    """The area within `distance` of the model's base (its base buffered)."""
    if TYPE_CHECKING:  # an enemy model on the battlefield (`x`, `y` set)
        assert model["x"] is not None and model["y"] is not None
    return _buffered_base(
        Base.from_data(model["base"]), model["x"], model["y"], model.get("facing", 0.0), distance
    )


@lru_cache(maxsize=4096)
def _buffered_base(
    base: Base, x: float, y: float, facing: float, distance: float
) -> shapely.Geometry:
    # Geometries are immutable: a model that stays put is buffered once, not at every position
    # (the enemy models that did not move since the last one are most of them).
    return base_polygon(base, x, y, facing).buffer(distance, 8)
