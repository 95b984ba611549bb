"""Whether a model's base lies wholly within an area of the battlefield: a deployment zone, a
band along the edges, or any polygon a rule names (Hallowed Ground, Scouting Outriders).

"Wholly within" means every part of the base (01.06 Measuring Distances); bases are measured as
the battlefield module draws them, so ovals and hulls count with their facing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import shapely

from rules.engine.battlefield.board import Base, base_polygon
from rules.engine.core.shapes import Model

# Shapely's coverage test is exact; a hair of tolerance keeps a base drawn on the line inside.
TOLERANCE = 1e-6


def base_of(model: Model) -> shapely.Polygon:
    if TYPE_CHECKING:  # a model measured is on the battlefield (`x`, `y` set)
        assert model["x"] is not None and model["y"] is not None
    return base_polygon(
        Base.from_data(model["base"]), model["x"], model["y"], model.get("facing", 0.0)
    )


def wholly_within(area: shapely.Geometry | list[list[float]], model: Model) -> bool:
    polygon = area if isinstance(area, shapely.Geometry) else shapely.Polygon(area)
    return polygon.buffer(TOLERANCE).covers(base_of(model))


def wholly_within_zone(mission: dict[str, Any], player: int, model: Model) -> bool:
    return wholly_within(mission["deployment_zones"][str(player)], model)


def wholly_within_edge_distance(mission: dict[str, Any], model: Model, distance: float) -> bool:
    """Every part of the base within `distance` of one battlefield edge or another."""
    width, depth = mission["battlefield"]["width"], mission["battlefield"]["depth"]
    board = shapely.box(0, 0, width, depth)
    centre = shapely.box(distance, distance, width - distance, depth - distance)
    return wholly_within(board.difference(centre), model)
