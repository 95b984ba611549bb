"""Legal paths for the self-play agents: a random normal, advance, fall-back, charge, pile-in or
consolidation move for a unit, found by proposing moves and keeping the first that
`movement.validate_move` accepts. Agents pass their own `random.Random`, never the game's dice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import shapely

from rules.engine.battlefield.board import (
    Battlefield,
    ModelSet,
    Placement,
    base_outline,
    pairwise_distances,
)
from rules.engine.battlefield.movement import Move, MoveResult, max_distance, validate_move
from rules.engine.core.editions import Edition
from rules.engine.core.refusals import Refusal

_TOWARD_ENEMY = frozenset({"charge", "pile_in", "consolidate"})


def random_move(
    battlefield: Battlefield,
    edition: Edition,
    placements: Sequence[Placement],
    template: Move,
    rng: random.Random,
    attempts: int = 40,
    toward: tuple[float, float] | None = None,
) -> tuple[Move, MoveResult] | None:
    """A legal move of `template.move_type` for `template.unit_id` (its paths are ignored), or
    None if none was found. `template` carries the movement, bonus, mode and targets. With
    `toward` (a point), normal, advance and scout moves head for it on every other attempt."""
    unit = [p for p in placements if p.unit_id == template.unit_id]
    if not unit:
        return None
    enemies = [p for p in placements if p.player != unit[0].player]
    for attempt in range(attempts):
        # Later attempts propose shorter moves, which are more often legal.
        scale = 1.0 - attempt / attempts
        if template.move_type == "consolidate" and attempt % 2 and battlefield.objectives:
            paths = _toward_objective(battlefield, edition, unit, template, rng, scale)
        elif template.move_type in _TOWARD_ENEMY and attempt % 2 == 0:
            paths = _into_contact(battlefield, edition, unit, enemies, placements, template, rng)
        elif template.move_type in _TOWARD_ENEMY:
            paths = _toward_targets(edition, unit, enemies, template, rng, scale)
        elif template.move_type == "fall_back":
            paths = _away_from_enemies(edition, unit, enemies, template, rng, scale)
        elif toward is not None and attempt % 2 == 0:
            paths = _shift_toward(edition, unit, template, rng, scale, toward)
        else:
            paths = _rigid_shift(edition, unit, template, rng, scale)
        if not paths:
            continue
        # On some attempts models that may stand above ground climb onto the terrain they end
        # over; models up on a floor come down when they leave it (11e §13.06, 10e Ruins).
        heights = _heights(battlefield, edition, unit, paths, climb=rng.random() < 0.4)
        move = replace(template, paths=paths, heights=heights)
        try:
            return move, validate_move(battlefield, edition, placements, move)
        except Refusal:
            continue
    return None


CLIMB_HEIGHT = 3.0


def _heights(battlefield, edition, unit, paths, climb: bool) -> dict[Any, float]:
    """The height each moved model ends at: on a terrain surface under its whole base (the
    highest, up to `CLIMB_HEIGHT`) when climbing and the model may stand above ground; where it
    was if that floor still holds it; otherwise the ground."""
    if not battlefield.features:
        return {}
    may_climb = set(edition.upper_floor_keywords.split())
    heights = {}
    for model in unit:
        if model.model_id not in paths:
            continue
        x, y = paths[model.model_id][-1]
        outline = shapely.Polygon(base_outline(model.base, x, y, model.facing_degrees))
        floors = [
            feature.height
            for index, (_, feature) in enumerate(battlefield.features)
            if shapely.covers(battlefield.feature_polygons[index], outline)
        ]
        if climb and floors and model.keywords & may_climb:
            height = min(max(floors), CLIMB_HEIGHT)
        elif model.z > 0 and any(floor >= model.z for floor in floors):
            height = model.z
        else:
            height = 0.0
        if height != model.z:
            heights[model.model_id] = height
    return heights


def _limit(edition: Edition, unit: Sequence[Placement], template: Move) -> float:
    return min(max_distance(template, p.model_id, edition) for p in unit)


def _rigid_shift(edition, unit, template, rng, scale) -> Mapping[Any, list]:
    """The whole unit moves the same way, which keeps it in coherency."""
    distance = _limit(edition, unit, template) * rng.random() * scale
    angle = rng.uniform(0, 2 * math.pi)
    dx, dy = distance * math.cos(angle), distance * math.sin(angle)
    return {p.model_id: [(p.x + dx, p.y + dy)] for p in unit}


def _shift_toward(edition, unit, template, rng, scale, toward) -> Mapping[Any, list]:
    """The whole unit heads for a point (with a little randomness), stopping short of it."""
    centre = np.mean([(p.x, p.y) for p in unit], axis=0)
    gap = math.hypot(toward[0] - centre[0], toward[1] - centre[1])
    if gap == 0:
        return {}
    heading = math.atan2(toward[1] - centre[1], toward[0] - centre[0]) + rng.uniform(-0.3, 0.3)
    distance = min(_limit(edition, unit, template), gap) * (0.5 + 0.5 * rng.random()) * scale
    dx, dy = distance * math.cos(heading), distance * math.sin(heading)
    return {p.model_id: [(p.x + dx, p.y + dy)] for p in unit}


def _away_from_enemies(edition, unit, enemies, template, rng, scale) -> Mapping[Any, list]:
    if not enemies:
        return _rigid_shift(edition, unit, template, rng, scale)
    centre = np.mean([(p.x, p.y) for p in unit], axis=0)
    enemy_centre = np.mean([(p.x, p.y) for p in enemies], axis=0)
    away = math.atan2(*(centre - enemy_centre)[::-1]) + rng.uniform(-1.0, 1.0)
    distance = _limit(edition, unit, template) * scale
    dx, dy = distance * math.cos(away), distance * math.sin(away)
    return {p.model_id: [(p.x + dx, p.y + dy)] for p in unit}


def _toward_targets(edition, unit, enemies, template, rng, scale) -> Mapping[Any, list]:
    """Each model heads for its closest target model and stops at base contact (or short of it,
    with some randomness), the way a player would charge or pile in."""
    targets = [e for e in enemies if not template.targets or e.unit_id in template.targets]
    if not targets:
        return {}
    gaps = pairwise_distances(ModelSet(unit), ModelSet(targets))
    paths = {}
    for row, model in enumerate(unit):
        column = int(np.argmin(gaps[row]))
        gap = float(gaps[row, column])
        if gap <= 1e-6:
            continue
        limit = max_distance(template, model.model_id, edition)
        travel = min(limit, gap) * (scale if rng.random() < 0.3 else 1.0)
        target = targets[column]
        heading = math.atan2(target.y - model.y, target.x - model.x)
        if travel < gap - 0.5:
            heading += rng.uniform(-0.15, 0.15)
        paths[model.model_id] = [
            (model.x + travel * math.cos(heading), model.y + travel * math.sin(heading))
        ]
    return paths


def _into_contact(
    battlefield, edition, unit, enemies, placements, template, rng
) -> Mapping[Any, list]:
    """Each model, nearest first, takes a free spot in base contact with one of the three target
    models closest to it (trying spots around each), within its maximum distance; a model that
    finds none stops at the last free spot on its way. Bases are treated as circles (their
    bounding radius), so models never end on each other; the battlefield checks the rest."""
    targets = [e for e in enemies if not template.targets or e.unit_id in template.targets]
    if not targets:
        return {}
    unit_ids = {p.model_id for p in unit}
    taken = [(p.x, p.y, p.base.bounding_radius) for p in placements if p.model_id not in unit_ids]
    marker = edition.objective_marker_diameter_mm / 25.4 / 2
    taken += [(o.x, o.y, marker) for o in battlefield.objectives]
    gaps = pairwise_distances(ModelSet(unit), ModelSet(targets))
    order = np.argsort(gaps.min(axis=1))
    ends = {p.model_id: (p.x, p.y) for p in unit}
    offsets = [0.0] + [sign * step * 0.25 for step in range(1, 7) for sign in (1, -1)]
    foes = [(p.x, p.y, p.base.bounding_radius) for p in enemies]
    jitter = rng.uniform(-0.15, 0.15)
    paths = {}
    for row in order:
        model = unit[int(row)]
        radius = model.base.bounding_radius
        limit = max_distance(template, model.model_id, edition)
        others = taken + [
            (x, y, p.base.bounding_radius)
            for p in unit
            if p.model_id != model.model_id
            for x, y in [ends[p.model_id]]
        ]

        def free(x, y, others=others, radius=radius, start=(model.x, model.y)):
            return all(
                math.hypot(x - ox, y - oy) >= radius + r + 0.01 for ox, oy, r in others
            ) and all(_segment_gap(start, (x, y), (ox, oy)) >= radius + r for ox, oy, r in foes)

        spot = None
        for column in np.argsort(gaps[row])[:3]:
            target = targets[int(column)]
            reach = radius + target.base.bounding_radius + 0.02
            facing = math.atan2(model.y - target.y, model.x - target.x) + jitter
            for offset in offsets:
                x = target.x + reach * math.cos(facing + offset)
                y = target.y + reach * math.sin(facing + offset)
                if math.hypot(x - model.x, y - model.y) <= limit and free(x, y):
                    spot = (x, y)
                    break
            if spot:
                break
        if spot is None:
            target = targets[int(np.argmin(gaps[row]))]
            heading = math.atan2(target.y - model.y, target.x - model.x)
            travel = min(limit, float(gaps[row].min()))
            for fraction in (1.0, 0.8, 0.6, 0.4, 0.2):
                x = model.x + travel * fraction * math.cos(heading)
                y = model.y + travel * fraction * math.sin(heading)
                if free(x, y):
                    spot = (x, y)
                    break
        if spot is not None:
            ends[model.model_id] = spot
            paths[model.model_id] = [spot]
    return paths


def _segment_gap(start, end, point) -> float:
    """Distance from `point` to the segment `start`-`end`."""
    (ax, ay), (bx, by), (px, py) = start, end, point
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def _toward_objective(battlefield, edition, unit, template, rng, scale) -> Mapping[Any, list]:
    """Consolidation onto an objective (11e §12.08 objective mode, 10e fallback): the whole unit
    heads for the closest marker (or the template's objective)."""
    objectives = battlefield.objectives
    chosen = next((o for o in objectives if o.objective_id == template.objective_id), None)
    centre = np.mean([(p.x, p.y) for p in unit], axis=0)
    if chosen is None:
        chosen = min(objectives, key=lambda o: math.hypot(o.x - centre[0], o.y - centre[1]))
    gap = math.hypot(chosen.x - centre[0], chosen.y - centre[1])
    if gap == 0:
        return {}
    travel = min(_limit(edition, unit, template), gap) * (0.5 + 0.5 * rng.random()) * scale
    dx, dy = (chosen.x - centre[0]) / gap * travel, (chosen.y - centre[1]) / gap * travel
    return {p.model_id: [(p.x + dx, p.y + dy)] for p in unit}
