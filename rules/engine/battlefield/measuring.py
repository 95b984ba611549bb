"""Measuring distances (11e §01.04; 10e Measuring Distances).

Distances are in inches, measured horizontally between the closest points of two bases
(§01.04: "measure to or from the closest part of that model's base"); vertical distance is
counted only where a rule gives a vertical limit (engagement range, coherency, objective range).
Round bases are compared exactly (centre distance minus both radii); ovals and hulls through
their polygons. "Within X" means a distance of X or less; "more than X" means greater than X.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from rules.engine.battlefield.board import (
    EPSILON,
    MM_PER_INCH,
    Battlefield,
    ModelSet,
    Objective,
    Placement,
    base_outline,
    pairwise_distances,
    vertical_distances,
)
from rules.engine.core.editions import Edition


def model_distance(a: Placement, b: Placement) -> float:
    """Horizontal distance between two models' bases (0 when touching or overlapping)."""
    return max(0.0, float(pairwise_distances(ModelSet([a]), ModelSet([b]))[0, 0]))


def unit_distance(a: Sequence[Placement], b: Sequence[Placement]) -> float:
    """Distance between two units: between their closest models."""
    distances = pairwise_distances(ModelSet(a), ModelSet(b))
    return max(0.0, float(distances.min())) if distances.size else float("inf")


def within(a: Placement, b: Placement, distance: float) -> bool:
    return model_distance(a, b) <= distance + EPSILON


def within_half_range(a: Placement, b: Placement, weapon_range: float) -> bool:
    """Within half a weapon's range ([RAPID FIRE], [MELTA])."""
    return within(a, b, weapon_range / 2)


def farthest_distance(a: Placement, b: Placement) -> float:
    """Distance from the farthest part of `a`'s base to the closest part of `b`'s base, the
    measure of "wholly within" (every part of `a` within the distance of `b`)."""
    if a.base.is_round and b.base.is_round:
        centre = float(np.hypot(a.x - b.x, a.y - b.y))
        return max(0.0, centre + a.base.radius - b.base.radius)
    outline = base_outline(a.base, a.x, a.y, a.facing_degrees)
    return float(shapely.distance(shapely.points(outline), b.polygon()).max())


def wholly_within(a: Placement, b: Placement, distance: float) -> bool:
    return farthest_distance(a, b) <= distance + EPSILON


def unit_wholly_within(models: Sequence[Placement], other: Placement, distance: float) -> bool:
    return all(wholly_within(model, other, distance) for model in models)


def wholly_within_polygon(models: Sequence[Placement], polygon: shapely.Polygon) -> np.ndarray:
    """For each model: is its whole base inside the polygon (a deployment zone, the table)?"""
    group = ModelSet(models)
    if not len(group):
        return np.zeros(0, dtype=bool)
    inside = shapely.contains_xy(polygon, group.centres[:, 0], group.centres[:, 1])
    edge_distance = shapely.distance(polygon.boundary, shapely.points(group.centres))
    result = inside & (edge_distance >= group.radii - EPSILON)
    for index in np.flatnonzero(~group.round):
        result[index] = bool(shapely.covers(_grown(polygon), group.cores[index]))
    return result


@lru_cache(maxsize=64)
def _grown(polygon: shapely.Polygon) -> shapely.Polygon:
    # The table and the deployment zones, grown by the tolerance: built once, not for each hull
    # and oval of every set-up (geometries are immutable, and equal only when identical).
    return polygon.buffer(EPSILON)


def within_polygon(models: Sequence[Placement], polygon: shapely.Polygon) -> np.ndarray:
    """For each model: is any part of its base over the polygon?"""
    group = ModelSet(models)
    if not len(group):
        return np.zeros(0, dtype=bool)
    return shapely.distance(group.cores, polygon) < group.radii + EPSILON * (~group.round)


def closest_model(model: Placement, others: Sequence[Placement]) -> tuple[Placement, float]:
    """The closest of `others` to `model` and its distance (11e: Closest Model)."""
    distances = pairwise_distances(ModelSet([model]), ModelSet(others))[0]
    index = int(np.argmin(distances))
    return others[index], max(0.0, float(distances[index]))


def closest_enemy_model(
    model: Placement, placements: Sequence[Placement]
) -> tuple[Placement, float] | None:
    enemies = [p for p in placements if p.player != model.player]
    return closest_model(model, enemies) if enemies else None


def engagement_matrix(a: ModelSet, b: ModelSet, edition: Edition) -> np.ndarray:
    """For each pair: is the model of `a` within engagement range of the model of `b`?
    (11e §03.04: 2" horizontally and 5" vertically; 10e Engagement Range: 1" and 5")."""
    reach = edition.engagement_range_horizontal + EPSILON
    horizontal = pairwise_distances(a, b, within=reach) <= reach
    return horizontal & (vertical_distances(a, b) <= edition.engagement_range_vertical + EPSILON)


def engaged_units(placements: Sequence[Placement], edition: Edition) -> set[tuple[Any, Any]]:
    """Every pair `(unit, enemy unit)` engaged with each other (both orders are listed)."""
    models = ModelSet(placements)
    if len(models) < 2:
        return set()
    players = list(dict.fromkeys(models.players.tolist()))
    if len(players) == 2:
        # Only the models of one side against the other's: the distance is symmetric.
        first = models.players == players[0]
        mine, theirs = models.subset(first), models.subset(~first)
        rows, cols = np.nonzero(engagement_matrix(mine, theirs, edition))
        pairs = {(mine.unit_ids[r], theirs.unit_ids[c]) for r, c in zip(rows, cols, strict=True)}
        return pairs | {(b, a) for a, b in pairs}
    engaged = engagement_matrix(models, models, edition)
    engaged &= models.players[:, None] != models.players[None, :]
    rows, cols = np.nonzero(engaged)
    return {(models.unit_ids[r], models.unit_ids[c]) for r, c in zip(rows, cols, strict=True)}


def engaged_models(
    unit: Sequence[Placement], enemies: Sequence[Placement], edition: Edition
) -> np.ndarray:
    """For each model of `unit`: is it within engagement range of any of `enemies`?"""
    if not enemies:
        return np.zeros(len(unit), dtype=bool)
    return np.asarray(engagement_matrix(ModelSet(unit), ModelSet(enemies), edition).any(axis=1))


def is_engaged(
    unit: Sequence[Placement], placements: Sequence[Placement], edition: Edition
) -> bool:
    players = {model.player for model in unit}
    enemies = [p for p in placements if p.player not in players]
    return bool(engaged_models(unit, enemies, edition).any())


def objective_marker_radius(edition: Edition) -> float:
    return edition.objective_marker_diameter_mm / MM_PER_INCH / 2


def objective_distances(models: ModelSet, objectives: Sequence[Objective], edition: Edition):
    """Horizontal distance (models x objectives) from each base to each 40 mm marker."""
    if not len(models) or not objectives:
        return np.zeros((len(models), len(objectives)))
    centres = np.array([(o.x, o.y) for o in objectives])
    gaps = models.centres[:, None, :] - centres[None, :, :]
    distances = np.hypot(gaps[..., 0], gaps[..., 1]) - models.radii[:, None]
    if (~models.round).any():
        rows = np.flatnonzero(~models.round)
        distances[rows] = shapely.distance(
            models.cores[rows][:, None], shapely.points(centres)[None, :]
        )
    return distances - objective_marker_radius(edition)


def within_objective_range(
    models: Sequence[Placement], battlefield: Battlefield, edition: Edition
) -> np.ndarray:
    """Boolean matrix (models x objectives): within objective range (3" horizontally and 5"
    vertically of the marker in both editions; markers stand at ground level)."""
    group = ModelSet(models)
    horizontal = objective_distances(group, battlefield.objectives, edition)
    in_range = horizontal <= edition.objective_range_horizontal + EPSILON
    return in_range & (group.z[:, None] <= edition.objective_range_vertical + EPSILON)
