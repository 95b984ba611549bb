"""Moving units (11e chapter 03 Moving, 09 Movement phase, 11.04, 12.03, 12.08, 21.03, 24.32;
10e Movement Phase, Charge Phase, Fight Phase).

A move is a path per model: the waypoints its base centre passes through after its current
position, in straight lines; rotation is free (11e §03.01 Rotating a Model) and the model takes its
final facing at the end. `validate_move` checks a whole unit's move against the rules of its move
type and either raises `Refusal` (naming the model, the rule and the numbers) or returns a
`MoveResult` with the new placements and the rolls the engine must make (hazard rolls of a
Desperate Escape in 11e, Desperate Escape tests in 10e). The engine rolls the dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from rules.engine.battlefield import (
    EPSILON,
    Battlefield,
    ModelSet,
    Placement,
    base_outline,
    pairwise_distances,
)
from rules.engine.battlefield_sections import section
from rules.engine.coherency import coherency_break
from rules.engine.editions import Edition
from rules.engine.measuring import engagement_matrix, objective_distances
from rules.engine.refusals import Refusal
from rules.engine.terrain import impassable_features

MOVE_TYPES = frozenset(
    {
        "remain_stationary",
        "normal",
        "advance",
        "fall_back",
        "charge",
        "pile_in",
        "consolidate",
        "scout",
    }
)
# Moves that must end unengaged (11e §09.05-09.07, 10e Engagement Range).
_END_UNENGAGED = frozenset({"normal", "advance", "fall_back", "scout"})
# Moves during which 10e forbids coming within engagement range at all (Normal/Advance Moves).
_NEVER_WITHIN = frozenset({"normal", "advance", "scout"})
FALL_BACK_MODES = frozenset({"ordered_retreat", "desperate_escape"})
CONSOLIDATION_MODES = frozenset({"ongoing", "engaging", "objective"})


@dataclass(frozen=True)
class Move:
    """What the player asks for.

    `movement` is each model's M characteristic (one number for the whole unit, or per model id);
    `bonus` is added to the maximum distance: an advance roll, a charge roll, an order's +3", an
    extra pile-in distance. For a charge the maximum is the charge roll alone (give it as
    `bonus`), for pile-in and consolidation the edition's 3" plus `bonus`, for a scout move
    `bonus` is the X of Scouts X".
    """

    move_type: str
    unit_id: Any
    paths: Mapping[Any, Sequence[Sequence[float]]] = field(default_factory=dict)
    facings: Mapping[Any, float] = field(default_factory=dict)
    movement: float | Mapping[Any, float] = 0.0
    bonus: float = 0.0
    mode: str | None = None
    targets: frozenset = frozenset()
    objective_id: Any = None
    take_to_the_skies: bool = False
    battle_shocked: bool = False


@dataclass(frozen=True)
class MoveResult:
    placements: list[Placement]
    moved: dict[Any, float]
    desperate_escape_models: tuple = ()
    hazard_rolls: int = 0
    mode: str | None = None
    # 11e §09.07 Desperate Escape: a unit that is not battle-shocked makes a battle-shock roll.
    battle_shock_roll: bool = False


def max_distance(move: Move, model_id: Any, edition: Edition) -> float:
    """The maximum distance of this move type for one model (11e §03.01, each move type)."""
    movement = move.movement
    characteristic = float(movement.get(model_id, 0) if isinstance(movement, Mapping) else movement)
    base = {
        "normal": characteristic,
        "advance": characteristic,
        "fall_back": characteristic,
        "charge": 0.0,
        "pile_in": edition.pile_in_distance,
        "consolidate": edition.consolidate_distance,
        "scout": 0.0,
        "remain_stationary": 0.0,
    }[move.move_type]
    total = base + move.bonus
    if move.take_to_the_skies:
        total -= edition.fly_move_penalty
    return max(0.0, total)


def _refuse(code: str, edition: Edition, rule: str, message: str, **details: Any) -> Refusal:
    return Refusal(code, section(edition, rule), message, details)


def segment_point_distances(starts: np.ndarray, ends: np.ndarray, points: np.ndarray):
    """Distance from every segment (S) to every point (P), as an (S, P) matrix."""
    direction = ends - starts
    length_sq = np.einsum("ij,ij->i", direction, direction)
    rel = points[None, :, :] - starts[:, None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.einsum("spk,sk->sp", rel, direction) / length_sq[:, None]
    t = np.where(length_sq[:, None] > 0, np.clip(t, 0.0, 1.0), 0.0)
    closest = starts[:, None, :] + t[..., None] * direction[:, None, :]
    gap = points[None, :, :] - closest
    return np.hypot(gap[..., 0], gap[..., 1])


class SweptBases:
    """The area each moved model's base sweeps along its path, one segment at a time."""

    def __init__(self, movers: Sequence[Placement], paths: Sequence[np.ndarray]) -> None:
        starts, ends, owners = [], [], []
        for owner, path in enumerate(paths):
            if len(path) > 1:
                starts.append(path[:-1])
                ends.append(path[1:])
                owners.extend([owner] * (len(path) - 1))
        self.movers = list(movers)
        self.starts = np.vstack(starts) if starts else np.zeros((0, 2))
        self.ends = np.vstack(ends) if ends else np.zeros((0, 2))
        self.owners = np.array(owners, dtype=int)
        self.radii = np.array([movers[o].base.radius for o in self.owners])
        self.round = np.array([movers[o].base.is_round for o in self.owners], dtype=bool)
        self._shapes: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.owners)

    @property
    def shapes(self) -> np.ndarray:
        """Round bases: the centre's segment (measure minus the radius); others: the hull of the
        base at both ends of the segment, at the model's final facing (ruling R-BF-02)."""
        if self._shapes is None:
            shapes = shapely.linestrings(np.stack([self.starts, self.ends], axis=1))
            for index in np.flatnonzero(~self.round):
                mover = self.movers[self.owners[index]]
                rings = [
                    base_outline(mover.base, x, y, mover.facing_degrees)
                    for x, y in (self.starts[index], self.ends[index])
                ]
                shapes[index] = shapely.MultiPoint(np.vstack(rings)).convex_hull
            self._shapes = shapes
        return self._shapes

    def clearance(self, others: ModelSet) -> np.ndarray:
        """Gap (segments x models) between the swept base and each base; negative = overlap for
        round pairs, 0 for touching or overlapping where a polygon is involved."""
        if not len(self) or not len(others):
            return np.full((len(self), len(others)), np.inf)
        gaps = segment_point_distances(self.starts, self.ends, others.centres)
        needs_shapes = ~(self.round[:, None] & others.round[None, :])
        if needs_shapes.any():
            rows, cols = np.nonzero(needs_shapes)
            gaps[rows, cols] = shapely.distance(self.shapes[rows], others.cores[cols])
        return gaps - self.radii[:, None] - others.radii[None, :]

    def crosses(self, polygons: np.ndarray) -> np.ndarray:
        """(segments x polygons): does the swept base overlap the polygon's inside?"""
        overlap = np.zeros((len(self), len(polygons)), dtype=bool)
        if not len(self) or not len(polygons):
            return overlap
        reach = float(self.radii.max(initial=0))
        rows, cols = shapely.STRtree(polygons).query(
            self.shapes, predicate="dwithin", distance=reach
        )
        if not len(rows):
            return overlap
        hit = shapely.distance(self.shapes[rows], polygons[cols]) < self.radii[rows] - EPSILON
        shaped = ~self.round[rows]
        if shaped.any():
            shrunk = shapely.buffer(self.shapes[rows[shaped]], -EPSILON)
            hit[shaped] = shapely.intersects(shrunk, polygons[cols[shaped]])
        overlap[rows[hit], cols[hit]] = True
        return overlap


def overlaps(a: ModelSet, b: ModelSet) -> np.ndarray:
    """(a x b): do the two bases overlap (touching is allowed)?"""
    distances = pairwise_distances(a, b)
    result = distances < -EPSILON
    needs_shapes = ~(a.round[:, None] & b.round[None, :]) & (distances <= EPSILON)
    if needs_shapes.any():
        rows, cols = np.nonzero(needs_shapes)
        shrunk_a = shapely.buffer(a.shapes[rows], -EPSILON)
        result[rows, cols] = shapely.intersects(shrunk_a, b.shapes[cols])
    return result


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def _unit_names(unit_names: Mapping[Any, str] | None):
    return lambda unit_id: (unit_names or {}).get(unit_id, f"unit {unit_id}")


def validate_move(
    battlefield: Battlefield,
    edition: Edition,
    placements: Sequence[Placement],
    move: Move,
    unit_names: Mapping[Any, str] | None = None,
) -> MoveResult:
    """Check a unit's move and return the placements after it, or raise `Refusal`."""
    if move.move_type not in MOVE_TYPES:
        raise _refuse("unknown_move_type", edition, "moving", f"there is no {move.move_type} move")
    name_of = _unit_names(unit_names)
    unit = [p for p in placements if p.unit_id == move.unit_id]
    if not unit:
        raise _refuse(
            "unknown_unit", edition, "moving", f"unit {move.unit_id} is not on the battlefield"
        )
    player = unit[0].player
    by_id = {p.model_id: p for p in unit}
    unknown = [model_id for model_id in move.paths if model_id not in by_id]
    if unknown:
        raise _refuse(
            "unknown_model",
            edition,
            "moving",
            f"model {unknown[0]} is not in {name_of(move.unit_id)}",
        )
    everyone = ModelSet(placements)
    in_unit = everyone.unit_ids == move.unit_id
    others_set = everyone.subset(~in_unit)
    enemy_set = others_set.subset(others_set.players != player)
    enemies = enemy_set.placements
    start_set = everyone.subset(in_unit)

    paths: dict[Any, np.ndarray] = {}
    # Ordered (paths first, then rotations) so that refusals are deterministic.
    for model_id in [*move.paths, *(m for m in move.facings if m not in move.paths)]:
        if model_id not in by_id:
            raise _refuse(
                "unknown_model", edition, "moving", f"model {model_id} is not in the unit"
            )
        model = by_id[model_id]
        waypoints = np.asarray(move.paths.get(model_id, ()), dtype=float).reshape(-1, 2)
        path = np.vstack([[model.x, model.y], waypoints])
        turned = move.facings.get(model_id, model.facing_degrees) != model.facing_degrees
        if len(path) == 1 and turned:
            path = np.vstack([path, path])
        if turned or (len(path) > 1 and np.abs(np.diff(path, axis=0)).sum() > 0):
            paths[model_id] = path
    if move.move_type == "remain_stationary":
        if paths:
            moved_id = next(iter(paths))
            raise _refuse(
                "must_remain_stationary",
                edition,
                "remain_stationary",
                f"model {moved_id} cannot move: {name_of(move.unit_id)} remains stationary",
            )
        return MoveResult(list(placements), {})

    engaged_at_start = engagement_matrix(start_set, enemy_set, edition)
    _check_eligibility(move, edition, engaged_at_start.any(), name_of)
    mode = _select_mode(move, edition, unit, enemies, engaged_at_start, battlefield, name_of)

    if move.move_type in ("pile_in",) or (
        move.move_type == "consolidate" and mode in ("ongoing", "engaging_10e")
    ):
        in_contact = pairwise_distances(start_set, enemy_set) <= EPSILON
        for index in np.flatnonzero(in_contact.any(axis=1)) if len(enemies) else []:
            if unit[index].model_id in paths:
                raise _refuse(
                    "model_in_base_contact",
                    edition,
                    move.move_type,
                    f"model {unit[index].model_id} is in base contact with an enemy model and "
                    "cannot be moved",
                )

    moved: dict[Any, float] = {}
    for model_id, path in paths.items():
        distance = float(np.hypot(*np.diff(path, axis=0).T).sum())
        limit = max_distance(move, model_id, edition)
        if distance > limit + EPSILON:
            raise _refuse(
                "move_too_far",
                edition,
                move.move_type,
                f'model {model_id} moved {_fmt(distance)}" of {_fmt(limit)}"',
                model=model_id,
                distance=round(distance, 3),
                maximum=limit,
            )
        moved[model_id] = distance

    final_unit = [
        by_id[p.model_id].moved_to(
            *paths[p.model_id][-1], move.facings.get(p.model_id, p.facing_degrees)
        )
        if p.model_id in paths
        else p
        for p in unit
    ]
    movers = [final for final in final_unit if final.model_id in paths]
    swept = SweptBases(movers, [paths[m.model_id] for m in movers])
    _check_inside_battlefield(battlefield, edition, movers, paths)
    nearby = _near_paths(enemy_set, swept, edition)
    desperate = _check_enemy_passage(move, edition, mode, swept, movers, nearby, name_of)
    _check_terrain(battlefield, edition, move, swept, movers)
    final_set = ModelSet(final_unit)
    _check_end_positions(battlefield, edition, final_set, others_set, movers)
    _check_end_engagement(
        move, edition, mode, unit, final_unit, paths, enemy_set, battlefield, name_of
    )
    broken = coherency_break(final_set, edition)
    if broken is not None:
        raise _refuse(
            "not_in_coherency",
            edition,
            "coherency",
            f"{name_of(move.unit_id)} would end out of coherency: {broken.reason}",
            model=broken.model_id,
        )
    hazard_rolls = 0
    if move.move_type == "fall_back" and mode == "desperate_escape":
        hazard_rolls = len(unit)
    if (
        move.move_type == "fall_back"
        and edition.fall_back == "desperate_escape_tests"
        and move.battle_shocked
    ):
        desperate = tuple(p.model_id for p in unit)
    final_by_id = {p.model_id: p for p in final_unit}
    new_placements = [
        final_by_id.get(p.model_id, p) if p.unit_id == move.unit_id else p for p in placements
    ]
    battle_shock_roll = mode == "desperate_escape" and not move.battle_shocked
    return MoveResult(new_placements, moved, desperate, hazard_rolls, mode, battle_shock_roll)


def _near_paths(enemies: ModelSet, swept: SweptBases, edition: Edition) -> ModelSet:
    """The enemy models close enough to the paths' bounding box to matter for passage."""
    if not len(swept) or not len(enemies):
        return enemies
    reach = (
        float(enemies.bounding_radii.max())
        + max(m.base.bounding_radius for m in swept.movers)
        + edition.engagement_range_horizontal
        + 1.0
    )
    low = np.minimum(swept.starts.min(axis=0), swept.ends.min(axis=0)) - reach
    high = np.maximum(swept.starts.max(axis=0), swept.ends.max(axis=0)) + reach
    inside = ((enemies.centres >= low) & (enemies.centres <= high)).all(axis=1)
    return enemies.subset(inside)


def _check_eligibility(move: Move, edition: Edition, engaged: bool, name_of) -> None:
    """11e §09.05/09.06 normal and advance moves need an unengaged unit, §09.07 fall back an
    engaged one (10e: units within Engagement Range can only Fall Back or Remain Stationary)."""
    if move.move_type in ("normal", "advance", "scout") and engaged:
        raise _refuse(
            "unit_engaged",
            edition,
            move.move_type,
            f"{name_of(move.unit_id)} is engaged and cannot make a {move.move_type} move",
        )
    if move.move_type == "fall_back" and not engaged:
        raise _refuse(
            "unit_not_engaged",
            edition,
            "fall_back",
            f"{name_of(move.unit_id)} is not engaged, so it cannot fall back",
        )


def _select_mode(move, edition, unit, enemies, engaged_at_start, battlefield, name_of):
    """The mode of a fall-back (11e §09.07) or consolidation move (11e §12.08, 10e Consolidate)."""
    if move.move_type == "fall_back":
        if edition.fall_back != "ordered_retreat_or_desperate_escape":
            return None
        mode = move.mode or ("desperate_escape" if move.battle_shocked else "ordered_retreat")
        if mode not in FALL_BACK_MODES:
            raise _refuse(
                "unknown_mode", edition, "fall_back", f"there is no {mode} fall-back mode"
            )
        if mode == "ordered_retreat" and move.battle_shocked:
            raise _refuse(
                "battle_shocked",
                edition,
                "fall_back",
                f"{name_of(move.unit_id)} is battle-shocked and must make a desperate escape",
            )
        return mode
    if move.move_type != "consolidate":
        return None
    unit_set, enemy_set = ModelSet(unit), ModelSet(enemies)
    nearest_enemy = pairwise_distances(unit_set, enemy_set).min() if enemies else np.inf
    if edition.pile_in_must_end_engaged:
        # 10e: toward the enemy if the unit can end within engagement range of one, otherwise
        # toward the closest objective marker (ruling R-BF-06 decides "can").
        reach = edition.consolidate_distance + move.bonus + edition.engagement_range_horizontal
        return "engaging_10e" if nearest_enemy <= reach + EPSILON else "objective_10e"
    if engaged_at_start.any():
        expected = "ongoing"
    elif nearest_enemy <= edition.consolidate_distance + EPSILON:
        expected = "engaging"
    else:
        expected = "objective"
    if move.mode is not None and move.mode != expected:
        raise _refuse(
            "wrong_consolidation_mode",
            edition,
            "consolidate",
            f"{name_of(move.unit_id)} must use {expected} consolidation, not {move.mode}",
        )
    return expected


def _check_inside_battlefield(battlefield, edition, movers, paths) -> None:
    """11e §03.01: a base cannot cross the edge of the battlefield. The table is convex, so a
    path stays on it while every waypoint does."""
    for mover in movers:
        path = paths[mover.model_id]
        if mover.base.is_round:
            radius = mover.base.radius
            low, high = path.min(axis=0) - radius, path.max(axis=0) + radius
            if (
                low.min() >= -EPSILON
                and high[0] <= battlefield.width + EPSILON
                and high[1] <= battlefield.depth + EPSILON
            ):
                continue
        for x, y in path:
            outline = base_outline(mover.base, x, y, mover.facing_degrees)
            low, high = outline.min(axis=0), outline.max(axis=0)
            if (
                low[0] < -EPSILON
                or low[1] < -EPSILON
                or high[0] > battlefield.width + EPSILON
                or high[1] > battlefield.depth + EPSILON
            ):
                raise _refuse(
                    "off_battlefield",
                    edition,
                    "moving",
                    f"model {mover.model_id} would cross the edge of the battlefield at "
                    f"({_fmt(x)}, {_fmt(y)})",
                )


def _may_fly_over(mover: Placement, move: Move, edition: Edition) -> bool:
    """11e §21.03: FLY models that take to the skies move through models and terrain; 10e FLY
    models move over them (ruling R-BF-04)."""
    if "FLY" not in mover.keywords:
        return False
    return move.take_to_the_skies or edition.fly_move_penalty == 0


def _check_enemy_passage(move, edition, mode, swept, movers, enemy_set, name_of) -> tuple:
    """11e §03.01 a base cannot be moved through enemy models (except a Desperate Escape,
    §09.07); 10e Fall Back: models may move over enemy models, each one that does takes a
    Desperate Escape test (not TITANIC or FLY). 10e Normal/Advance: never within ER."""
    if not len(swept) or not len(enemy_set):
        return ()
    clearance = swept.clearance(enemy_set)
    through = clearance < -EPSILON
    if (~swept.round).any() or (~enemy_set.round).any():
        through |= _polygon_passage(swept, enemy_set, clearance)
    desperate: list = []
    for segment, enemy in zip(*np.nonzero(through), strict=True):
        mover = movers[swept.owners[segment]]
        if _may_fly_over(mover, move, edition):
            continue
        if move.move_type == "fall_back" and mode == "desperate_escape":
            continue
        if move.move_type == "fall_back" and edition.fall_back == "desperate_escape_tests":
            if not mover.keywords & {"TITANIC", "FLY"} and mover.model_id not in desperate:
                desperate.append(mover.model_id)
            continue
        target = enemy_set.placements[enemy]
        raise _refuse(
            "through_enemy_model",
            edition,
            "moving",
            f"model {mover.model_id} cannot move through enemy model {target.model_id} "
            f"of {name_of(target.unit_id)}",
        )
    never_within = not edition.normal_move_may_cross_engagement_range and (
        move.move_type in _NEVER_WITHIN or move.move_type == "charge"
    )
    if never_within:
        near = clearance <= edition.engagement_range_horizontal + EPSILON
        if move.move_type == "charge":
            # 10e Charge Move: never within engagement range of a unit that is not a target.
            targets = np.array([p.unit_id in move.targets for p in enemy_set.placements])
            near &= ~targets[None, :] if len(targets) else near
        near &= (
            np.abs(np.array([movers[o].z for o in swept.owners])[:, None] - enemy_set.z[None, :])
            <= edition.engagement_range_vertical + EPSILON
        )
        if near.any():
            segment, enemy = (int(v[0]) for v in np.nonzero(near))
            mover, target = movers[swept.owners[segment]], enemy_set.placements[enemy]
            raise _refuse(
                "moved_within_engagement_range",
                edition,
                move.move_type,
                f'model {mover.model_id} would pass {_fmt(max(clearance[segment, enemy], 0))}" '
                f"from {name_of(target.unit_id)}, inside the "
                f'{_fmt(edition.engagement_range_horizontal)}" engagement range',
            )
    return tuple(desperate)


def _polygon_passage(swept, enemy_set, clearance) -> np.ndarray:
    result = np.zeros_like(clearance, dtype=bool)
    needs = ~(swept.round[:, None] & enemy_set.round[None, :]) & (clearance <= EPSILON)
    if needs.any():
        rows, cols = np.nonzero(needs)
        shapes = swept.shapes[rows]
        round_rows = swept.round[rows]
        shapes = np.where(round_rows, shapely.buffer(shapes, swept.radii[rows] - EPSILON), shapes)
        result[rows, cols] = shapely.intersects(
            shapely.buffer(shapes, -EPSILON), enemy_set.shapes[cols]
        )
    return result


def _check_terrain(battlefield, edition, move, swept, movers) -> None:
    """11e §13.06 / 10e Ruins: terrain features a model cannot move through."""
    if not len(swept) or not battlefield.features:
        return
    keyword_sets = {mover.keywords for mover in movers if not _may_fly_over(mover, move, edition)}
    for keywords in keyword_sets:
        blocked = impassable_features(battlefield, edition, keywords)
        if not len(blocked):
            continue
        rows = np.array(
            [i for i, owner in enumerate(swept.owners) if movers[owner].keywords == keywords]
        )
        if not len(rows):
            continue
        sub = _subset_swept(swept, rows)
        crossing = sub.crosses(battlefield.feature_polygons[blocked])
        if crossing.any():
            segment, feature = (int(v[0]) for v in np.nonzero(crossing))
            mover = movers[sub.owners[segment]]
            piece = battlefield.terrain[battlefield.feature_piece[blocked[feature]]]
            raise _refuse(
                "impassable_terrain",
                edition,
                "terrain_movement",
                f"model {mover.model_id} cannot move through the {piece.kind} "
                f'({_fmt(battlefield.features[blocked[feature]][1].height)}" high)',
            )


def _subset_swept(swept: SweptBases, rows: np.ndarray) -> SweptBases:
    sub = SweptBases.__new__(SweptBases)
    sub.movers = swept.movers
    sub.starts, sub.ends = swept.starts[rows], swept.ends[rows]
    sub.owners, sub.radii, sub.round = swept.owners[rows], swept.radii[rows], swept.round[rows]
    sub._shapes = None if swept._shapes is None else swept._shapes[rows]
    return sub


def _check_end_positions(battlefield, edition, final_set, others_set, movers) -> None:
    """11e §03.01 Ending a Move: no model on another model; 10e: not on an objective marker
    (applied in both editions, ruling R-BF-05)."""
    moved_ids = {m.model_id for m in movers}
    mover_mask = np.array([pid in moved_ids for pid in final_set.ids], dtype=bool)
    if not mover_mask.any():
        return
    mover_set = final_set.subset(mover_mask)
    against = ModelSet.concat(others_set, final_set)
    clash = overlaps(mover_set, against)
    for row, model in enumerate(mover_set.placements):
        clash[row, len(others_set) + final_set.ids.index(model.model_id)] = False
    if clash.any():
        row, col = (int(v[0]) for v in np.nonzero(clash))
        raise _refuse(
            "ends_on_model",
            edition,
            "moving",
            f"model {mover_set.ids[row]} would end on model {against.ids[col]}",
        )
    if battlefield.objectives:
        marker_gap = objective_distances(mover_set, battlefield.objectives, edition)
        if (marker_gap < -EPSILON).any():
            row, col = (int(v[0]) for v in np.nonzero(marker_gap < -EPSILON))
            raise _refuse(
                "ends_on_objective_marker",
                edition,
                "objective",
                f"model {mover_set.ids[row]} would end on objective marker "
                f"{battlefield.objectives[col].objective_id}",
            )


def _check_end_engagement(move, edition, mode, unit, final_unit, paths, enemy_set, bf, name_of):
    enemies = enemy_set.placements
    final_set = ModelSet(final_unit)
    engaged = engagement_matrix(final_set, enemy_set, edition)
    distances = pairwise_distances(final_set, enemy_set)
    er = edition.engagement_range_horizontal
    if move.move_type in _END_UNENGAGED:
        if engaged.any():
            row, col = (int(v[0]) for v in np.nonzero(engaged))
            target = enemies[col]
            raise _refuse(
                "ends_engaged",
                edition,
                "engagement",
                f'model {final_unit[row].model_id} ends {_fmt(max(distances[row, col], 0))}" '
                f'from {name_of(target.unit_id)}, inside the {_fmt(er)}" engagement range',
            )
        if move.move_type == "scout" and len(enemies):
            limit = edition.scouts_enemy_distance
            if (distances <= limit + EPSILON).any():
                row, col = (int(v[0]) for v in np.nonzero(distances <= limit + EPSILON))
                raise _refuse(
                    "too_close_to_enemy",
                    edition,
                    "scout",
                    f'model {final_unit[row].model_id} ends {_fmt(max(distances[row, col], 0))}" '
                    f"from {name_of(enemies[col].unit_id)}; a scout move must end more than "
                    f'{_fmt(limit)}" away',
                )
        return
    enemy_units = np.array([e.unit_id for e in enemies], dtype=object)
    if move.move_type == "charge":
        _check_charge(
            move, edition, unit, final_unit, paths, enemies, enemy_units, engaged, bf, name_of
        )
    elif move.move_type == "pile_in" or (
        move.move_type == "consolidate" and mode != "objective" and mode != "objective_10e"
    ):
        _check_close_in(
            move, edition, mode, unit, final_unit, paths, enemies, enemy_units, engaged, bf, name_of
        )
    elif move.move_type == "consolidate":
        _check_objective_consolidation(move, edition, mode, unit, final_unit, paths, bf, name_of)


def _targets_mask(enemy_units: np.ndarray, targets) -> np.ndarray:
    return np.array([u in targets for u in enemy_units], dtype=bool)


def _check_charge(
    move, edition, unit, final_unit, paths, enemies, enemy_units, engaged, bf, name_of
):
    """11e §11.04 / 10e Charge Move: end engaged with every target and with no other enemy
    unit; each moved model ends closer to a target and, if it can, within the closing distance
    (11e 1", 10e base contact)."""
    if not move.targets:
        raise _refuse("no_charge_targets", edition, "charge", "a charge needs one or more targets")
    is_target = _targets_mask(enemy_units, move.targets)
    for target in move.targets:
        columns = enemy_units == target
        if not columns.any() or not engaged[:, columns].any():
            raise _refuse(
                "charge_target_not_engaged",
                edition,
                "charge",
                f"{name_of(move.unit_id)} would not end engaged with {name_of(target)}",
            )
    if (engaged & ~is_target[None, :]).any():
        row, col = (int(v[0]) for v in np.nonzero(engaged & ~is_target[None, :]))
        raise _refuse(
            "charge_engages_non_target",
            edition,
            "charge",
            f"model {final_unit[row].model_id} would end engaged with "
            f"{name_of(enemies[col].unit_id)}, which is not a charge target",
        )
    _check_closer_and_closing(
        move,
        edition,
        unit,
        final_unit,
        paths,
        enemies,
        is_target,
        edition.charge_closing_distance,
        "charge",
        bf,
    )


def _check_close_in(
    move, edition, mode, unit, final_unit, paths, enemies, enemy_units, engaged, bf, name_of
):
    """Pile in (11e §12.03, 10e Pile In) and consolidation toward the enemy (11e §12.08 ongoing
    and engaging modes, 10e Consolidate)."""
    if edition.pile_in_must_end_engaged:
        targets_mask = np.ones(len(enemies), dtype=bool)
    else:
        engaged_with = _engaged_units_at_start(unit, enemies, edition)
        targets = set(move.targets) or engaged_with
        _check_selected_targets(move, edition, unit, enemies, engaged_with, targets, name_of)
        targets_mask = _targets_mask(enemy_units, targets)
        if not targets_mask.any():
            raise _refuse(
                "no_targets",
                edition,
                move.move_type,
                f"{name_of(move.unit_id)} has no enemy unit to move toward",
            )
    if edition.pile_in_must_end_engaged and not engaged.any():
        raise _refuse(
            "ends_unengaged",
            edition,
            move.move_type,
            f"{name_of(move.unit_id)} must end within engagement range of an enemy unit",
        )
    if move.move_type == "consolidate" and mode == "engaging":
        for target in set(enemy_units[targets_mask]):
            if not engaged[:, enemy_units == target].any():
                raise _refuse(
                    "consolidation_target_not_engaged",
                    edition,
                    "consolidate",
                    f"{name_of(move.unit_id)} must end engaged with {name_of(target)}",
                )
    if move.move_type == "consolidate" and mode == "ongoing":
        before = engagement_matrix(ModelSet(unit), ModelSet(enemies), edition)
        for row in range(len(unit)):
            for target in set(enemy_units[before[row]]):
                if not engaged[row, enemy_units == target].any():
                    raise _refuse(
                        "left_engagement",
                        edition,
                        "consolidate",
                        f"model {unit[row].model_id} started engaged with {name_of(target)} "
                        "and must still be engaged with it",
                    )
    _check_closer_and_closing(
        move,
        edition,
        unit,
        final_unit,
        paths,
        enemies,
        targets_mask,
        edition.pile_in_closing_distance,
        move.move_type,
        bf,
    )


def _check_selected_targets(move, edition, unit, enemies, engaged_with, targets, name_of):
    """11e §12.03 / §12.08: an engaged unit selects every enemy unit it is engaged with; an
    unengaged one selects units within 5" (pile in) or 3" (engaging consolidation)."""
    if engaged_with:
        if targets != engaged_with:
            raise _refuse(
                "wrong_targets",
                edition,
                move.move_type,
                f"{name_of(move.unit_id)} must select every enemy unit it is engaged with",
            )
        return
    reach = (
        edition.pile_in_target_range
        if move.move_type == "pile_in"
        else edition.consolidate_distance
    )
    gaps = pairwise_distances(ModelSet(unit), ModelSet(enemies))
    for target in targets:
        columns = np.array([e.unit_id == target for e in enemies], dtype=bool)
        if not columns.any() or gaps[:, columns].min() > reach + EPSILON:
            raise _refuse(
                "target_out_of_range",
                edition,
                move.move_type,
                f'{name_of(target)} is not within {_fmt(reach)}" of {name_of(move.unit_id)}',
            )


def _engaged_units_at_start(unit, enemies, edition) -> set:
    engaged = engagement_matrix(ModelSet(unit), ModelSet(enemies), edition)
    return {enemies[c].unit_id for c in np.flatnonzero(engaged.any(axis=0))}


def _check_closer_and_closing(
    move, edition, unit, final_unit, paths, enemies, targets_mask, closing, rule, bf
):
    """Each moved model ends closer to its closest target; a model that could have ended within
    `closing` of a target with a straight move that breaks no other restriction must do so
    (11e §01.04.03 As Close As Possible; ruling R-BF-07)."""
    if not paths:
        return
    target_models = [e for e, keep in zip(enemies, targets_mask, strict=True) if keep]
    target_set = ModelSet(target_models)
    start = pairwise_distances(ModelSet(unit), target_set)
    end = pairwise_distances(ModelSet(final_unit), target_set)
    for row, model in enumerate(unit):
        if model.model_id not in paths:
            continue
        closest = int(np.argmin(start[row]))
        if end[row, closest] >= start[row, closest] - EPSILON:
            raise _refuse(
                "not_closer",
                edition,
                rule,
                f"model {model.model_id} must end closer to "
                f"{'its closest target' if rule != 'charge' else 'a charge target'} "
                f'({_fmt(max(start[row, closest], 0))}" before, '
                f'{_fmt(max(end[row, closest], 0))}" after)',
            )
        if end[row].min() <= closing + EPSILON:
            continue
        limit = max_distance(move, model.model_id, edition)
        needed = start[row, closest] - closing
        if needed > limit + EPSILON:
            continue
        alternative = _straight_toward(model, target_models[closest], needed)
        trial_unit = [alternative if p.model_id == model.model_id else p for p in final_unit]
        if _legal_spot(
            alternative, trial_unit, enemies, bf, edition, model, target_models[closest]
        ):
            raise _refuse(
                "must_close_in",
                edition,
                rule,
                f'model {model.model_id} could end within {_fmt(closing)}" of '
                f"{'a charge target' if rule == 'charge' else 'the enemy'} and must do so "
                f'(it ends {_fmt(end[row].min())}" away)',
            )


def _straight_toward(model: Placement, target: Placement, distance: float) -> Placement:
    direction = np.array([target.x - model.x, target.y - model.y])
    length = float(np.hypot(*direction))
    if length == 0:
        return model
    x, y = np.array([model.x, model.y]) + direction / length * max(0.0, distance)
    return model.moved_to(float(x), float(y))


def _legal_spot(candidate, trial_unit, enemies, bf, edition, start, target) -> bool:
    """Would this straight move end legally (on the table, on no model, not through an enemy,
    coherent)? Used only to decide whether a closer position was possible."""
    outline = base_outline(candidate.base, candidate.x, candidate.y, candidate.facing_degrees)
    if outline.min() < 0 or outline[:, 0].max() > bf.width or outline[:, 1].max() > bf.depth:
        return False
    others = ModelSet([p for p in trial_unit if p.model_id != candidate.model_id] + list(enemies))
    if overlaps(ModelSet([candidate]), others).any():
        return False
    swept = SweptBases([candidate], [np.array([[start.x, start.y], [candidate.x, candidate.y]])])
    if (swept.clearance(ModelSet(enemies)) < -EPSILON).any():
        return False
    blocked = impassable_features(bf, edition, candidate.keywords)
    if len(blocked) and swept.crosses(bf.feature_polygons[blocked]).any():
        return False
    return coherency_break(trial_unit, edition) is None


def _check_objective_consolidation(move, edition, mode, unit, final_unit, paths, bf, name_of):
    """11e §12.08 Objective Consolidation / 10e Consolidate toward the closest objective marker:
    the unit ends within range of the objective; each moved model ends within range or closer."""
    if not bf.objectives:
        raise _refuse(
            "no_objective", edition, "consolidate", "there is no objective to consolidate onto"
        )
    start = objective_distances(ModelSet(unit), bf.objectives, edition)
    if move.objective_id is not None:
        ids = [o.objective_id for o in bf.objectives]
        if move.objective_id not in ids:
            raise _refuse(
                "unknown_objective",
                edition,
                "consolidate",
                f"there is no objective {move.objective_id}",
            )
        column = ids.index(move.objective_id)
    else:
        column = int(np.argmin(start.min(axis=0)))
    limit_range = edition.objective_range_horizontal
    if mode == "objective" and start[:, column].min() > edition.consolidate_distance + EPSILON:
        raise _refuse(
            "objective_too_far",
            edition,
            "consolidate",
            f"{name_of(move.unit_id)} is not within "
            f'{_fmt(edition.consolidate_distance)}" of objective '
            f"{bf.objectives[column].objective_id}",
        )
    end = objective_distances(ModelSet(final_unit), bf.objectives, edition)
    if end[:, column].min() > limit_range + EPSILON:
        raise _refuse(
            "not_in_objective_range",
            edition,
            "consolidate",
            f"{name_of(move.unit_id)} must end within range of objective "
            f"{bf.objectives[column].objective_id}",
        )
    for row, model in enumerate(unit):
        if (
            model.model_id in paths
            and end[row, column] > limit_range + EPSILON
            and end[row, column] >= start[row, column] - EPSILON
        ):
            raise _refuse(
                "not_closer",
                edition,
                "consolidate",
                f"model {model.model_id} must end closer to objective "
                f"{bf.objectives[column].objective_id}",
            )


def charge_targets_in_range(
    charging_unit: Sequence[Placement],
    target_units: Mapping[Any, Sequence[Placement]],
    edition: Edition,
    charge_roll: float | None = None,
) -> dict[Any, bool]:
    """For each declared target: is it within 12" of the charging unit (both editions), and
    within the maximum distance of the charge roll when one is given (11e §11.04 selects the
    targets after the roll; 10e declares them before it, so the engine passes no roll)."""
    result = {}
    for unit_id, models in target_units.items():
        distance = float(pairwise_distances(ModelSet(charging_unit), ModelSet(models)).min())
        ok = distance <= edition.charge_range + EPSILON
        if charge_roll is not None:
            ok = ok and distance <= charge_roll + EPSILON
        result[unit_id] = ok
    return result
