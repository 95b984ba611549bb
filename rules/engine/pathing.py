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

from rules.engine.battlefield import Battlefield, ModelSet, Placement, pairwise_distances
from rules.engine.editions import Edition
from rules.engine.movement import Move, MoveResult, max_distance, validate_move
from rules.engine.refusals import Refusal

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
        move = replace(template, paths=paths)
        try:
            return move, validate_move(battlefield, edition, placements, move)
        except Refusal:
            continue
    return None


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
