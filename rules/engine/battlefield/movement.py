"""Moving units (11e chapter 03 Moving, 09 Movement phase, 21.03, 24.32; 10e Movement Phase).

A move is a path per model: the waypoints its base centre passes through after its current
position, in straight lines; rotation is free (11e §03.01 Rotating a Model) and the model takes its
final facing at the end. `validate_move` checks a whole unit's move against the rules of its move
type and either raises `Refusal` (naming the model, the rule and the numbers) or returns a
`MoveResult` with the new placements and the rolls the engine must make (hazard rolls of a
Desperate Escape in 11e, Desperate Escape tests in 10e). The engine rolls the dice. Where charge,
pile-in and consolidation moves end is checked by `close_combat_moves`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely

from rules.engine.battlefield.board import (
    EPSILON,
    Battlefield,
    ModelSet,
    Placement,
    base_outline,
    pairwise_distances,
)
from rules.engine.battlefield.close_combat_moves import (
    EndOfMove,
    charge_targets_in_range,
    check_charge_end,
    check_close_in_end,
    check_objective_consolidation,
)
from rules.engine.battlefield.coherency import coherency_break
from rules.engine.battlefield.measuring import (
    engagement_matrix,
    objective_distances,
    wholly_within_polygon,
)
from rules.engine.battlefield.moves import (
    FALL_BACK_MODES,
    MOVE_TYPES,
    Move,
    MoveResult,
    inches,
    max_distance,
    refuse,
    unit_namer,
)
from rules.engine.battlefield.sweeping import (
    SweptBases,
    overlaps,
    polygon_passage,
    segment_point_distances,
)
from rules.engine.battlefield.terrain import impassable_features
from rules.engine.core.editions import Edition

__all__ = [
    "Move",
    "MoveResult",
    "charge_targets_in_range",
    "check_heights",
    "max_distance",
    "overlaps",
    "segment_point_distances",
    "validate_move",
]

# Moves that must end unengaged (11e §09.05-09.07, 10e Engagement Range).
_END_UNENGAGED = frozenset({"normal", "advance", "fall_back", "scout"})
# Moves during which 10e forbids coming within engagement range at all (Normal/Advance Moves).
_NEVER_WITHIN = frozenset({"normal", "advance", "scout"})


def validate_move(
    battlefield: Battlefield,
    edition: Edition,
    placements: Sequence[Placement],
    move: Move,
    unit_names: Mapping[Any, str] | None = None,
) -> MoveResult:
    """Check a unit's move and return the placements after it, or raise `Refusal`."""
    if move.move_type not in MOVE_TYPES:
        raise refuse("unknown_move_type", edition, "moving", f"there is no {move.move_type} move")
    name_of = unit_namer(unit_names)
    unit = [p for p in placements if p.unit_id == move.unit_id]
    if not unit:
        raise refuse(
            "unknown_unit", edition, "moving", f"unit {move.unit_id} is not on the battlefield"
        )
    player = unit[0].player
    by_id = {p.model_id: p for p in unit}
    unknown = [model_id for model_id in move.paths if model_id not in by_id]
    if unknown:
        raise refuse(
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
    named = [*move.paths, *(m for m in move.facings if m not in move.paths)]
    named += [m for m in move.heights if m not in named]
    for model_id in named:
        if model_id not in by_id:
            raise refuse("unknown_model", edition, "moving", f"model {model_id} is not in the unit")
        model = by_id[model_id]
        waypoints = np.asarray(move.paths.get(model_id, ()), dtype=float).reshape(-1, 2)
        path = np.vstack([[model.x, model.y], waypoints])
        turned = move.facings.get(model_id, model.facing_degrees) != model.facing_degrees
        climbed = abs(_final_height(move, model) - model.z) > EPSILON
        if len(path) == 1 and (turned or climbed):
            path = np.vstack([path, path])
        if turned or climbed or (len(path) > 1 and np.abs(np.diff(path, axis=0)).sum() > 0):
            paths[model_id] = path
    if move.move_type == "remain_stationary":
        if paths:
            moved_id = next(iter(paths))
            raise refuse(
                "must_remain_stationary",
                edition,
                "remain_stationary",
                f"model {moved_id} cannot move: {name_of(move.unit_id)} remains stationary",
            )
        return MoveResult(list(placements), {})

    engaged_at_start = engagement_matrix(start_set, enemy_set, edition)
    _check_eligibility(move, edition, bool(engaged_at_start.any()), name_of)
    _check_scouts_start(battlefield, edition, move, unit, player, name_of)
    mode = _select_mode(move, edition, unit, enemies, engaged_at_start, battlefield, name_of)
    _check_take_to_the_skies(move, edition, unit, name_of)

    if move.move_type in ("pile_in",) or (
        move.move_type == "consolidate" and mode in ("ongoing", "engaging_10e")
    ):
        in_contact = pairwise_distances(start_set, enemy_set) <= EPSILON
        for index in np.flatnonzero(in_contact.any(axis=1)) if len(enemies) else []:
            if unit[index].model_id in paths:
                raise refuse(
                    "model_in_base_contact",
                    edition,
                    move.move_type,
                    f"model {unit[index].model_id} is in base contact with an enemy model and "
                    "cannot be moved",
                )

    moved: dict[Any, float] = {}
    for model_id, path in paths.items():
        distance = _distance_moved(by_id[model_id], path, move, edition)
        limit = max_distance(move, model_id, edition)
        if distance > limit + EPSILON:
            raise refuse(
                "move_too_far",
                edition,
                move.move_type,
                f'model {model_id} moved {inches(distance)}" of {inches(limit)}"',
                model=model_id,
                distance=round(distance, 3),
                maximum=limit,
            )
        moved[model_id] = distance

    final_unit = [
        by_id[p.model_id].moved_to(
            *_end_point(paths[p.model_id]),
            move.facings.get(p.model_id, p.facing_degrees),
            _final_height(move, p),
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
    _check_terrain(battlefield, edition, move, swept, movers, moved)
    check_heights(
        battlefield,
        edition,
        movers,
        move.as_if_fly,
        lambda mover: _may_fly_over_terrain(mover, move, edition),
    )
    final_set = ModelSet(final_unit)
    _check_end_positions(battlefield, edition, final_set, others_set, movers)
    _check_end_engagement(
        move, edition, mode, unit, final_unit, paths, enemy_set, battlefield, name_of
    )
    broken = coherency_break(final_set, edition)
    if broken is not None:
        raise refuse(
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
        raise refuse(
            "unit_engaged",
            edition,
            move.move_type,
            f"{name_of(move.unit_id)} is engaged and cannot make a {move.move_type} move",
        )
    if move.move_type == "fall_back" and not engaged:
        raise refuse(
            "unit_not_engaged",
            edition,
            "fall_back",
            f"{name_of(move.unit_id)} is not engaged, so it cannot fall back",
        )


def _check_scouts_start(battlefield, edition, move, unit, player, name_of) -> None:
    """11e 24.32: eligible if the unit is wholly within its deployment zone (when the mission
    gives the player one)."""
    if move.move_type != "scout" or not edition.scouts_start_in_deployment_zone:
        return
    zone = battlefield.deployment_zone(player)
    if zone is not None and not wholly_within_polygon(unit, zone).all():
        raise refuse(
            "not_in_deployment_zone",
            edition,
            "scout",
            f"{name_of(move.unit_id)} is not wholly within its deployment zone",
        )


def _select_mode(move, edition, unit, enemies, engaged_at_start, battlefield, name_of):
    """The mode of a fall-back (11e §09.07) or consolidation move (11e §12.08, 10e Consolidate)."""
    if move.move_type == "fall_back":
        if edition.fall_back != "ordered_retreat_or_desperate_escape":
            return None
        mode = move.mode or ("desperate_escape" if move.battle_shocked else "ordered_retreat")
        if mode not in FALL_BACK_MODES:
            raise refuse("unknown_mode", edition, "fall_back", f"there is no {mode} fall-back mode")
        if mode == "ordered_retreat" and move.battle_shocked:
            raise refuse(
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
        raise refuse(
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
                raise refuse(
                    "off_battlefield",
                    edition,
                    "moving",
                    f"model {mover.model_id} would cross the edge of the battlefield at "
                    f"({inches(x)}, {inches(y)})",
                )


def _flying(mover: Placement, move: Move, edition: Edition) -> bool:
    """The model moves as a FLY model in this move: it has FLY (or moves as if it had, ruling
    R-MV-10) and, where the edition asks for a declaration (11e §21.03 Take to the Skies), its
    unit took to the skies."""
    if "FLY" not in mover.keywords and not move.as_if_fly:
        return False
    return move.take_to_the_skies or not edition.fly_declared_before_moving


def _may_fly_over(mover: Placement, move: Move, edition: Edition) -> bool:
    """11e §21.03: FLY models that take to the skies move through models in a normal, advance,
    fall-back or charge move; 10e FLY: over enemy models in a normal, advance or fall-back move
    (rulings R-BF-04, R-MV-11)."""
    return _flying(mover, move, edition) and move.move_type in edition.fly_over_models_moves.split()


def _may_fly_over_terrain(mover: Placement, move: Move, edition: Edition) -> bool:
    """11e §21.03: through all terrain features while taking to the skies; 10e: FLY models move
    over terrain in normal, advance, fall-back and charge moves (ruling R-MV-11)."""
    return (
        _flying(mover, move, edition) and move.move_type in edition.fly_over_terrain_moves.split()
    )


def _final_height(move: Move, model: Placement) -> float:
    return float(move.heights.get(model.model_id, model.z))


def _distance_moved(model: Placement, path: np.ndarray, move: Move, edition: Edition) -> float:
    """Horizontal legs plus the vertical distance between the start and end heights (11e §13.06
    Moving Vertically: up and down are added; 10e: climbing counts). A FLY model flying over
    terrain ignores it (11e §21.03) or measures through the air (10e, ruling R-MV-12)."""
    horizontal = float(np.hypot(*np.diff(path, axis=0).T).sum())
    vertical = abs(_final_height(move, model) - model.z)
    if _may_fly_over_terrain(model, move, edition):
        if edition.fly_vertical_distance == "ignored":
            return horizontal
        return float(np.hypot(horizontal, vertical))
    return horizontal + vertical


def _check_take_to_the_skies(move: Move, edition: Edition, unit, name_of) -> None:
    """11e §21.03: a FLYING unit selected to make a normal, advance, fall-back or charge move may
    take to the skies (10e: FLY needs no declaration, so there is nothing to declare)."""
    if not move.take_to_the_skies:
        return
    allowed = edition.fly_declared_before_moving and move.move_type in (
        edition.fly_over_models_moves.split()
    )
    can_fly = move.as_if_fly or any("FLY" in p.keywords for p in unit)
    if not allowed or not can_fly:
        raise refuse(
            "cannot_take_to_the_skies",
            edition,
            "fly",
            f"{name_of(move.unit_id)} cannot take to the skies in a "
            f"{move.move_type.replace('_', ' ')} move",
        )


BIG_MODELS = frozenset({"MONSTER", "VEHICLE"})


def _big_model_passes(mover: Placement, enemy: Placement, move: Move, edition: Edition) -> bool:
    """11e §17.01: "Each time you make a normal or advance move with a unit, MONSTER/VEHICLE
    models in that unit can be moved through friendly and enemy models (excluding other
    MONSTER/VEHICLE models)" (`monster_vehicle_moves_through_models`; 10e has no such rule)."""
    return (
        edition.monster_vehicle_moves_through_models
        and move.move_type in ("normal", "advance")
        and bool(mover.keywords & BIG_MODELS)
        and not enemy.keywords & BIG_MODELS
    )


def _check_enemy_passage(move, edition, mode, swept, movers, enemy_set, name_of) -> tuple:
    """11e §03.01 a base cannot be moved through enemy models (except a Desperate Escape,
    §09.07); 10e Fall Back: models may move over enemy models, each one that does takes a
    Desperate Escape test (not TITANIC or FLY). 10e Normal/Advance: never within ER."""
    if not len(swept) or not len(enemy_set):
        return ()
    clearance = swept.clearance(enemy_set)
    through = clearance < -EPSILON
    if (~swept.round).any() or (~enemy_set.round).any():
        through |= polygon_passage(swept, enemy_set, clearance)
    desperate: list = []
    for segment, enemy in zip(*np.nonzero(through), strict=True):
        mover = movers[swept.owners[segment]]
        if _may_fly_over(mover, move, edition):
            continue
        if move.move_type == "fall_back" and mode == "desperate_escape":
            continue
        target = enemy_set.placements[enemy]
        if _big_model_passes(mover, target, move, edition):
            continue
        if move.move_type == "fall_back" and edition.fall_back == "desperate_escape_tests":
            if not mover.keywords & {"TITANIC", "FLY"} and mover.model_id not in desperate:
                desperate.append(mover.model_id)
            continue
        raise refuse(
            "through_enemy_model",
            edition,
            "moving",
            # A model id reads as "Unit: Model" to players (army.names.worded): its unit once.
            f"model {mover.model_id} cannot move through enemy model {target.model_id}",
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
        # 10e FLY: models flying over enemy models may be moved within engagement range.
        flying_rows = np.array(
            [_may_fly_over(movers[o], move, edition) for o in swept.owners], dtype=bool
        )
        near &= ~flying_rows[:, None]
        if near.any():
            segment, enemy = (int(v[0]) for v in np.nonzero(near))
            mover, target = movers[swept.owners[segment]], enemy_set.placements[enemy]
            raise refuse(
                "moved_within_engagement_range",
                edition,
                move.move_type,
                f'model {mover.model_id} would pass {inches(max(clearance[segment, enemy], 0))}" '
                f"from {name_of(target.unit_id)}, inside the "
                f'{inches(edition.engagement_range_horizontal)}" engagement range',
            )
    return tuple(desperate)


def _check_terrain(battlefield, edition, move, swept, movers, moved) -> None:
    """11e §13.06 / 10e Ruins: terrain features a model cannot move through horizontally. In 11e
    such a model ascends and descends the sections it crosses instead, the vertical distance
    counted (twice the feature's height), and cannot end its move on or in them (ruling
    R-MV-13); in 10e it cannot cross them."""
    if not len(swept) or not battlefield.features:
        return
    grounded = [m for m in movers if not _may_fly_over_terrain(m, move, edition)]
    for keywords in {mover.keywords for mover in grounded}:
        blocked = impassable_features(battlefield, edition, keywords)
        if not len(blocked):
            continue
        rows = np.array(
            [
                i
                for i, owner in enumerate(swept.owners)
                if movers[owner].keywords == keywords
                and not _may_fly_over_terrain(movers[owner], move, edition)
            ]
        )
        if not len(rows):
            continue
        sub = swept.rows(rows)
        crossing = sub.crosses(battlefield.feature_polygons[blocked])
        if not crossing.any():
            continue
        if not edition.climb_tall_dense_terrain:
            segment, feature = (int(v[0]) for v in np.nonzero(crossing))
            mover = movers[sub.owners[segment]]
            piece = battlefield.terrain[battlefield.feature_piece[blocked[feature]]]
            raise refuse(
                "impassable_terrain",
                edition,
                "terrain_movement",
                f"model {mover.model_id} cannot move through the {piece.kind} "
                f'({inches(battlefield.features[blocked[feature]][1].height)}" high)',
            )
        _climb_over(battlefield, edition, move, sub, crossing, blocked, movers, moved)


def _climb_over(battlefield, edition, move, sub, crossing, blocked, movers, moved) -> None:
    """11e §13.06: the climb over each tall dense feature crossed counts up and down."""
    climbed: dict[Any, set[int]] = {}
    for segment, feature in zip(*np.nonzero(crossing), strict=True):
        climbed.setdefault(movers[sub.owners[segment]].model_id, set()).add(int(blocked[feature]))
    for mover in movers:
        features = climbed.get(mover.model_id)
        if not features:
            continue
        climb = sum(2 * battlefield.features[index][1].height for index in features)
        total = moved[mover.model_id] + climb
        limit = max_distance(move, mover.model_id, edition)
        if total > limit + EPSILON:
            raise refuse(
                "move_too_far",
                edition,
                "terrain_movement",
                f'model {mover.model_id} moved {inches(total)}" of {inches(limit)}" '
                f'(climbing {inches(climb)}" over terrain)',
                model=mover.model_id,
                distance=round(total, 3),
                maximum=limit,
            )
        moved[mover.model_id] = total
        outline = shapely.Polygon(base_outline(mover.base, mover.x, mover.y, mover.facing_degrees))
        for index in features:
            if shapely.intersects(outline, battlefield.feature_polygons[index]):
                raise refuse(
                    "ends_in_terrain",
                    edition,
                    "moving_vertically",
                    f"model {mover.model_id} cannot end its move on or in the "
                    f"{battlefield.terrain[battlefield.feature_piece[index]].kind}",
                )


def check_heights(
    battlefield: Battlefield,
    edition: Edition,
    movers: Sequence[Placement],
    as_if_fly: bool = False,
    flies_over_terrain: Any = lambda _mover: True,
) -> None:
    """Ending a move or being set up above ground level (11e §13.06 Setting Up or Ending a Move;
    10e Ruins): only models with one of the edition's keywords, on a terrain feature at least
    that high whose surface holds the whole base; after a move, a dense feature only for models
    that can move vertically through it or fly over terrain (ruling R-MV-13). Set-ups pass
    `flies_over_terrain` true: the dense-terrain restriction is one of moving."""
    for mover in movers:
        if mover.z < -EPSILON:
            raise refuse(
                "below_ground",
                edition,
                "moving_vertically",
                f"model {mover.model_id} cannot end below ground level",
            )
        if mover.z <= EPSILON:
            continue
        keywords = mover.keywords | ({"FLY"} if as_if_fly else set())
        if not keywords & set(edition.upper_floor_keywords.split()):
            raise refuse(
                "cannot_end_above_ground",
                edition,
                "moving_vertically",
                f"model {mover.model_id} cannot end a move above ground level",
            )
        outline = shapely.Polygon(base_outline(mover.base, mover.x, mover.y, mover.facing_degrees))
        surfaces = [
            feature
            for index, (_, feature) in enumerate(battlefield.features)
            if feature.height + EPSILON >= mover.z
            and shapely.covers(battlefield.feature_polygons[index], outline)
        ]
        if not surfaces:
            raise refuse(
                "no_surface",
                edition,
                "moving_vertically",
                f'model {mover.model_id} would end {inches(mover.z)}" up with no terrain surface '
                "under the whole of its base",
            )
        climbers = set(edition.dense_terrain_climbers.split())
        if all(feature.category == "dense" for feature in surfaces) and not (
            keywords & climbers or flies_over_terrain(mover)
        ):
            raise refuse(
                "cannot_end_above_ground",
                edition,
                "moving_vertically",
                f"model {mover.model_id} cannot end a move on an upper level of dense terrain",
            )


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
        raise refuse(
            "ends_on_model",
            edition,
            "moving",
            f"model {mover_set.ids[row]} would end on model {against.ids[col]}",
        )
    if battlefield.objectives and not edition.may_end_on_objective_marker:
        marker_gap = objective_distances(mover_set, battlefield.objectives, edition)
        if (marker_gap < -EPSILON).any():
            row, col = (int(v[0]) for v in np.nonzero(marker_gap < -EPSILON))
            raise refuse(
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
            raise refuse(
                "ends_engaged",
                edition,
                "engagement",
                f'model {final_unit[row].model_id} ends {inches(max(distances[row, col], 0))}" '
                f'from {name_of(target.unit_id)}, inside the {inches(er)}" engagement range',
            )
        if move.move_type == "scout" and len(enemies):
            limit = edition.scouts_enemy_distance
            if (distances <= limit + EPSILON).any():
                row, col = (int(v[0]) for v in np.nonzero(distances <= limit + EPSILON))
                raise refuse(
                    "too_close_to_enemy",
                    edition,
                    "scout",
                    f'model {final_unit[row].model_id} ends {inches(max(distances[row, col], 0))}" '
                    f"from {name_of(enemies[col].unit_id)}; a scout move must end more than "
                    f'{inches(limit)}" away',
                )
        return
    end = EndOfMove(
        bf, edition, move, mode, list(unit), list(final_unit), paths, enemy_set, engaged, name_of
    )
    if move.move_type == "charge":
        check_charge_end(end)
    elif move.move_type == "pile_in" or (
        move.move_type == "consolidate" and mode not in ("objective", "objective_10e")
    ):
        check_close_in_end(end)
    elif move.move_type == "consolidate":
        check_objective_consolidation(end)


def _end_point(path: Any) -> tuple[float, float]:
    """Where a path ends: its last waypoint (x, y)."""
    x, y = path[-1]
    return x, y
