"""Missions as data (docs/missions.md): battlefield, deployment zones, objective markers, terrain,
reserves limits and primary scoring. The engine is given the mission record when a game starts.

The zone and edge checks here are the simple ones the battle sequence needs (model centre and base
radius against a polygon); terrain, paths and visibility live in the geometry modules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import shapely

from rules.engine.state import base_radius_inches

MISSIONS_FILE = Path(__file__).resolve().parent.parent / "data" / "missions.json"


def load_missions(path: Path = MISSIONS_FILE) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["missions"]


def default_mission() -> dict[str, Any]:
    return load_missions()[0]


def _polygon(points: list[list[float]]) -> shapely.Polygon:
    return shapely.Polygon(points)


def wholly_within(points: list[list[float]], model: dict[str, Any]) -> bool:
    """The model's base is wholly inside the polygon: centre inside, edge at least a radius away."""
    polygon = _polygon(points)
    centre = shapely.Point(model["x"], model["y"])
    radius = base_radius_inches(model["base"])
    return bool(polygon.covers(centre) and polygon.exterior.distance(centre) >= radius - 1e-9)


def wholly_within_zone(mission: dict[str, Any], player: int, model: dict[str, Any]) -> bool:
    return wholly_within(mission["deployment_zones"][str(player)], model)


def on_battlefield_area(mission: dict[str, Any], model: dict[str, Any]) -> bool:
    width, depth = mission["battlefield"]["width"], mission["battlefield"]["depth"]
    radius = base_radius_inches(model["base"])
    return radius <= model["x"] <= width - radius and radius <= model["y"] <= depth - radius


def wholly_within_edge_distance(
    mission: dict[str, Any], model: dict[str, Any], distance: float
) -> bool:
    """The base is wholly within `distance` of some battlefield edge."""
    width, depth = mission["battlefield"]["width"], mission["battlefield"]["depth"]
    radius = base_radius_inches(model["base"])
    nearest = min(model["x"], model["y"], width - model["x"], depth - model["y"])
    return nearest + radius <= distance + 1e-9


def within_enemy_zone(mission: dict[str, Any], player: int, model: dict[str, Any]) -> bool:
    enemy = "2" if player == 1 else "1"
    polygon = _polygon(mission["deployment_zones"][enemy])
    return bool(
        polygon.distance(shapely.Point(model["x"], model["y"])) < base_radius_inches(model["base"])
    )
