"""Distances between the models of the game state, to the closest point of each base (01.04:
"measure from the closest part of each model's base"): the one measure of auras, ranges, "within
X"" of a unit and objective range, the same as the battlefield's (`board.pairwise_distances`).

A round base is its centre and radius, measured exactly; an oval base is the ellipse and a hull
its rectangle, turned to the model's `facing`, as the battlefield draws them
(`board.base_polygon`), so an oval is nearer along its long axis than along its short one.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from rules.engine.battlefield.board import BOUND_MARGIN, Base, base_outline, base_polygon
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.state import alive_models, on_battlefield

# Every model measured here is on the battlefield (`x`, `y` set, not None): the `type: ignore`s
# below tell mypy so without a check at run time, in the engine's most called functions.


@lru_cache(maxsize=512)
def _base(key: tuple[tuple[str, Any], ...]) -> Base:
    return Base.from_data(dict(key))


@lru_cache(maxsize=8192)
def _footprint(base: Base, x: float, y: float, facing: float) -> shapely.Polygon:
    polygon = base_polygon(base, x, y, facing)
    shapely.prepare(polygon)
    return polygon


def _core(model: Model) -> tuple[Base, Any]:
    """The model's base and what is measured to: its centre (round) or its footprint."""
    base = _base(tuple(sorted(model["base"].items())))
    if base.is_round:
        return base, None
    return base, _footprint(base, model["x"], model["y"], model.get("facing") or 0.0)


def model_distance(a: Model, b: Model) -> float:
    """Horizontal distance between two models' bases (edge to edge, 0 when touching), in
    inches."""
    if a["base"].get("shape") == "round" and b["base"].get("shape") == "round":
        # Round bases: centre to centre less both radii (exact; the arithmetic of every
        # recorded game).
        centre = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5  # type: ignore[operator]
        radius_a = a["base"]["diameter_mm"] / 2 / 25.4
        return max(0.0, centre - radius_a - b["base"]["diameter_mm"] / 2 / 25.4)
    base_a, shape_a = _core(a)
    base_b, shape_b = _core(b)
    if shape_a is None and shape_b is None:
        centre = math.hypot(a["x"] - b["x"], a["y"] - b["y"])  # type: ignore[operator]
        return max(0.0, centre - base_a.radius - base_b.radius)
    first = shape_a if shape_a is not None else shapely.Point(a["x"], a["y"])
    second = shape_b if shape_b is not None else shapely.Point(b["x"], b["y"])
    return max(0.0, float(shapely.distance(first, second)) - base_a.radius - base_b.radius)


def within_of_point(model: Model, x: float, y: float, reach: float, radius: float = 0.0) -> bool:
    """Is the model's base within `reach` inches of a circle of `radius` around (x, y)? (An
    objective marker.)"""
    if model["base"].get("shape") == "round":
        centre = ((model["x"] - x) ** 2 + (model["y"] - y) ** 2) ** 0.5  # type: ignore[operator]
        return centre - model["base"]["diameter_mm"] / 2 / 25.4 - radius <= reach + 1e-9
    bound = _base(tuple(sorted(model["base"].items()))).bounding_radius
    gap = math.hypot(model["x"] - x, model["y"] - y) - bound - radius  # type: ignore[operator]
    if gap > reach + BOUND_MARGIN:
        # Farther than the reach even from the circle around the whole base: no polygon needed
        # (objective control asks this of every model for every marker at each phase's end).
        return False
    base, shape = _core(model)
    if shape is None:
        return math.hypot(model["x"] - x, model["y"] - y) - base.radius - radius <= reach + 1e-9  # type: ignore[operator]
    return float(shapely.distance(shape, shapely.Point(x, y))) - radius <= reach + 1e-9


def wholly_within_of(a: Model, b: Model, reach: float) -> bool:
    """Is every part of model `a`'s base within `reach` inches of model `b`'s base ("wholly
    within")?"""
    if a["base"].get("shape") == "round" and b["base"].get("shape") == "round":
        centre = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5  # type: ignore[operator]
        radius_a = a["base"]["diameter_mm"] / 2 / 25.4
        return centre + radius_a <= reach + b["base"]["diameter_mm"] / 2 / 25.4 + 1e-9
    base_a, _ = _core(a)
    base_b, shape_b = _core(b)
    rim = shapely.points(base_outline(base_a, a["x"], a["y"], a.get("facing") or 0.0))  # type: ignore[arg-type]
    target = shape_b if shape_b is not None else shapely.Point(b["x"], b["y"])
    farthest = float(shapely.distance(rim, target).max()) - base_b.radius
    return farthest <= reach + 1e-9


def _bounding_radius(model: Model) -> float:
    base = model["base"]
    if base.get("shape") == "round":
        return base["diameter_mm"] / 2 / 25.4
    return _base(tuple(sorted(base.items()))).bounding_radius


def closest_distance(ours: list[Model], theirs: list[Model]) -> float:
    """The least `model_distance` between a model of `ours` and one of `theirs` (models on the
    battlefield; infinite when either list is empty), the very same number: the pairs are
    measured exactly in order of a lower bound from their bounding circles (computed for all
    pairs at once), until no bound left is below the closest found. Units of 10 or 20 models
    ask hundreds of pairs, and all but a few are farther than the closest one."""
    if len(ours) * len(theirs) <= 4:
        return min((model_distance(a, b) for a in ours for b in theirs), default=math.inf)
    return _closest_in_order(ours, theirs, _lower_bounds(ours, theirs).ravel())


def closest_distances(
    ours: list[Model], theirs: list[Model], within: float | None = None
) -> list[float]:
    """For each model of `ours`, `closest_distance([model], theirs)`, with the bounds of all
    pairs computed at once. With `within`, a model whose every bound is beyond `within` is
    certainly farther, and given as infinite without an exact measure (a caller comparing the
    distances with `within` gets the same answers)."""
    if not theirs:
        return [math.inf] * len(ours)
    bounds = _lower_bounds(ours, theirs)
    return [
        math.inf
        if within is not None and float(row.min()) > within
        else _closest_in_order([a], theirs, row)
        for a, row in zip(ours, bounds, strict=True)
    ]


def _lower_bounds(ours: list[Model], theirs: list[Model]) -> np.ndarray:
    """(ours x theirs) figures no greater than each pair's `model_distance`: the distance of
    their centres less both bounding radii, less a margin for rounding."""
    centres_a = np.array([(m["x"], m["y"]) for m in ours], dtype=float).reshape(-1, 2)
    centres_b = np.array([(m["x"], m["y"]) for m in theirs], dtype=float).reshape(-1, 2)
    reach_a = np.array([_bounding_radius(m) for m in ours], dtype=float)
    reach_b = np.array([_bounding_radius(m) for m in theirs], dtype=float)
    gaps = centres_a[:, None, :] - centres_b[None, :, :]
    return np.hypot(gaps[..., 0], gaps[..., 1]) - reach_a[:, None] - reach_b[None, :] - BOUND_MARGIN


def _closest_in_order(ours: list[Model], theirs: list[Model], bounds: np.ndarray) -> float:
    # `bounds`: of every pair, row by row (ours x theirs, flattened).
    best, lower = math.inf, bounds.tolist()
    for pair in np.argsort(bounds, kind="stable").tolist():
        if lower[pair] > best or best == 0.0:  # no distance is below 0 (touching bases)
            break
        distance = model_distance(ours[pair // len(theirs)], theirs[pair % len(theirs)])
        if distance < best:
            best = distance
    return best


def unit_distance(a: Unit, b: Unit) -> float:
    """Closest distance between two units on the battlefield (infinite if either is not on it)."""
    if not (on_battlefield(a) and on_battlefield(b)):
        return float("inf")
    return closest_distance(alive_models(a), alive_models(b))
