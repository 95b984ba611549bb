"""Moves into close combat: charge moves (11e §11.04; 10e Charge Move), pile-in moves (11e
§12.03; 10e Pile In) and consolidation moves (11e §12.08; 10e Consolidate). `movement.validate_move`
has already checked everything every move shares; these check where the models end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from rules.engine.battlefield.board import (
    EPSILON,
    Battlefield,
    ModelSet,
    Placement,
    base_outline,
    pairwise_distances,
)
from rules.engine.battlefield.coherency import coherency_break
from rules.engine.battlefield.measuring import engagement_matrix, objective_distances
from rules.engine.battlefield.moves import Move, inches, max_distance, refuse
from rules.engine.battlefield.sweeping import SweptBases, overlaps
from rules.engine.battlefield.terrain import impassable_features
from rules.engine.core.editions import Edition


@dataclass(frozen=True)
class EndOfMove:
    """A unit's move as `validate_move` has read it: the unit before and after, the paths, the
    enemy models, and whether each model of the unit ends engaged with each enemy model."""

    battlefield: Battlefield
    edition: Edition
    move: Move
    mode: str | None
    unit: list[Placement]
    final_unit: list[Placement]
    paths: Mapping[Any, np.ndarray]
    enemy_set: ModelSet
    engaged: np.ndarray
    name_of: Callable[[Any], str]

    @property
    def enemies(self) -> list[Placement]:
        return self.enemy_set.placements

    @cached_property
    def enemy_units(self) -> np.ndarray:
        return np.array([e.unit_id for e in self.enemies], dtype=object)

    def targets_mask(self, targets) -> np.ndarray:
        return np.array([u in targets for u in self.enemy_units], dtype=bool)

    def refuse(self, code: str, message: str, rule: str | None = None):
        return refuse(code, self.edition, rule or self.move.move_type, message)


def check_charge_end(end: EndOfMove) -> None:
    """11e §11.04 / 10e Charge Move: end engaged with every target and with no other enemy
    unit; each moved model ends closer to a target and, if it can, within the closing distance
    (11e 1", 10e base contact)."""
    move, name_of, engaged = end.move, end.name_of, end.engaged
    if not move.targets:
        raise end.refuse("no_charge_targets", "a charge needs one or more targets")
    is_target = end.targets_mask(move.targets)
    for target in move.targets:
        columns = end.enemy_units == target
        if not columns.any() or not engaged[:, columns].any():
            raise end.refuse(
                "charge_target_not_engaged",
                f"{name_of(move.unit_id)} would not end engaged with {name_of(target)}",
            )
    if (engaged & ~is_target[None, :]).any():
        row, col = (int(v[0]) for v in np.nonzero(engaged & ~is_target[None, :]))
        raise end.refuse(
            "charge_engages_non_target",
            f"model {end.final_unit[row].model_id} would end engaged with "
            f"{name_of(end.enemies[col].unit_id)}, which is not a charge target",
        )
    _check_closer_and_closing(end, is_target, end.edition.charge_closing_distance)


def check_close_in_end(end: EndOfMove) -> None:
    """Pile in (11e §12.03, 10e Pile In) and consolidation toward the enemy (11e §12.08 ongoing
    and engaging modes, 10e Consolidate)."""
    move, edition, name_of, engaged = end.move, end.edition, end.name_of, end.engaged
    if edition.pile_in_must_end_engaged:
        targets_mask = np.ones(len(end.enemies), dtype=bool)
        if not engaged.any():
            raise end.refuse(
                "ends_unengaged",
                f"{name_of(move.unit_id)} must end within engagement range of an enemy unit",
            )
    else:
        engaged_with = _engaged_units_at_start(end)
        targets = set(move.targets) or engaged_with
        _check_selected_targets(end, engaged_with, targets)
        targets_mask = end.targets_mask(targets)
        if not targets_mask.any():
            raise end.refuse(
                "no_targets", f"{name_of(move.unit_id)} has no enemy unit to move toward"
            )
    if move.move_type == "consolidate" and end.mode == "engaging":
        for target in set(end.enemy_units[targets_mask]):
            if not engaged[:, end.enemy_units == target].any():
                raise end.refuse(
                    "consolidation_target_not_engaged",
                    f"{name_of(move.unit_id)} must end engaged with {name_of(target)}",
                )
    # 11e §12.03 and §12.08 (ongoing consolidation) After Moving: "Each model that started this
    # move engaged with an enemy unit must still be engaged with that enemy unit" (R-MV-20). A
    # 10e pile-in (`pile_in_must_end_engaged`) prints no such condition.
    still_engaged = (move.move_type == "pile_in" and not edition.pile_in_must_end_engaged) or (
        move.move_type == "consolidate" and end.mode == "ongoing"
    )
    if still_engaged:
        before = engagement_matrix(ModelSet(end.unit), end.enemy_set, edition)
        for row, model in enumerate(end.unit):
            for target in set(end.enemy_units[before[row]]):
                if not engaged[row, end.enemy_units == target].any():
                    raise end.refuse(
                        "left_engagement",
                        f"model {model.model_id} started engaged with {name_of(target)} "
                        "and must still be engaged with it",
                    )
    _check_closer_and_closing(end, targets_mask, edition.pile_in_closing_distance)


def _check_selected_targets(end: EndOfMove, engaged_with: set, targets: set) -> None:
    """11e §12.03 / §12.08: an engaged unit selects every enemy unit it is engaged with; an
    unengaged one selects units within 5" (pile in) or 3" (engaging consolidation)."""
    move, edition, name_of = end.move, end.edition, end.name_of
    if engaged_with:
        if targets != engaged_with:
            raise end.refuse(
                "wrong_targets",
                f"{name_of(move.unit_id)} must select every enemy unit it is engaged with",
            )
        return
    reach = (
        edition.pile_in_target_range
        if move.move_type == "pile_in"
        else edition.consolidate_distance
    )
    gaps = pairwise_distances(ModelSet(end.unit), end.enemy_set)
    for target in targets:
        columns = end.enemy_units == target
        if not columns.any() or gaps[:, columns].min() > reach + EPSILON:
            raise end.refuse(
                "target_out_of_range",
                f'{name_of(target)} is not within {inches(reach)}" of {name_of(move.unit_id)}',
            )


def _engaged_units_at_start(end: EndOfMove) -> set:
    engaged = engagement_matrix(ModelSet(end.unit), end.enemy_set, end.edition)
    return set(end.enemy_units[engaged.any(axis=0)])


def _check_closer_and_closing(end: EndOfMove, targets_mask: np.ndarray, closing: float) -> None:
    """Each moved model ends closer to its closest target (pile in and consolidation, R-BF-13)
    or, charging, to one or more of its charge targets (11e §11.04 "Each model must end its move
    closer to one or more charge targets", R-MV-19); a model that could have ended within
    `closing` of a target with a straight move that breaks no other restriction must do so
    (11e §01.04.03 As Close As Possible; ruling R-BF-07)."""
    if not end.paths:
        return
    charge = end.move.move_type == "charge"
    target_models = [e for e, keep in zip(end.enemies, targets_mask, strict=True) if keep]
    target_set = ModelSet(target_models)
    start = pairwise_distances(ModelSet(end.unit), target_set)
    after = pairwise_distances(ModelSet(end.final_unit), target_set)
    for row, model in enumerate(end.unit):
        if model.model_id not in end.paths:
            continue
        closest = int(np.argmin(start[row]))
        nearer = after[row] < start[row] - EPSILON
        if not (nearer.any() if charge else nearer[closest]):
            raise end.refuse(
                "not_closer",
                f"model {model.model_id} must end closer to "
                f"{'a charge target' if charge else 'its closest target'} "
                f'({inches(max(start[row, closest], 0))}" before, '
                f'{inches(max(after[row, closest], 0))}" after)',
            )
        if after[row].min() <= closing + EPSILON:
            continue
        needed = start[row, closest] - closing
        if needed > max_distance(end.move, model.model_id, end.edition) + EPSILON:
            continue
        alternative = _straight_toward(model, target_models[closest], needed)
        trial_unit = [alternative if p.model_id == model.model_id else p for p in end.final_unit]
        if _legal_spot(end, alternative, trial_unit, model):
            raise end.refuse(
                "must_close_in",
                f'model {model.model_id} could end within {inches(closing)}" of '
                f"{'a charge target' if charge else 'the enemy'} and must do so "
                f'(it ends {inches(after[row].min())}" away)',
            )


def _straight_toward(model: Placement, target: Placement, distance: float) -> Placement:
    direction = np.array([target.x - model.x, target.y - model.y])
    length = float(np.hypot(*direction))
    if length == 0:
        return model
    x, y = np.array([model.x, model.y]) + direction / length * max(0.0, distance)
    return model.moved_to(float(x), float(y))


def _legal_spot(end: EndOfMove, candidate: Placement, trial_unit: list, start: Placement) -> bool:
    """Would this straight move end legally (on the table, on no model, not through an enemy,
    coherent)? Used only to decide whether a closer position was possible."""
    bf, edition = end.battlefield, end.edition
    outline = base_outline(candidate.base, candidate.x, candidate.y, candidate.facing_degrees)
    if outline.min() < 0 or outline[:, 0].max() > bf.width or outline[:, 1].max() > bf.depth:
        return False
    others = ModelSet([p for p in trial_unit if p.model_id != candidate.model_id] + end.enemies)
    if overlaps(ModelSet([candidate]), others).any():
        return False
    swept = SweptBases([candidate], [np.array([[start.x, start.y], [candidate.x, candidate.y]])])
    if (swept.clearance(end.enemy_set) < -EPSILON).any():
        return False
    blocked = impassable_features(bf, edition, candidate.keywords)
    if len(blocked) and swept.crosses(bf.feature_polygons[blocked]).any():
        return False
    return coherency_break(trial_unit, edition) is None


def check_objective_consolidation(end: EndOfMove) -> None:
    """11e §12.08 Objective Consolidation / 10e Consolidate toward the closest objective marker:
    the unit ends within range of the objective; each moved model ends within range or closer."""
    move, edition, bf = end.move, end.edition, end.battlefield
    if not bf.objectives:
        raise end.refuse("no_objective", "there is no objective to consolidate onto")
    start = objective_distances(ModelSet(end.unit), bf.objectives, edition)
    ids = [o.objective_id for o in bf.objectives]
    if move.objective_id is not None:
        if move.objective_id not in ids:
            raise end.refuse("unknown_objective", f"there is no objective {move.objective_id}")
        column = ids.index(move.objective_id)
    else:
        column = int(np.argmin(start.min(axis=0)))
    marker = ids[column]
    if end.mode == "objective" and start[:, column].min() > edition.consolidate_distance + EPSILON:
        raise end.refuse(
            "objective_too_far",
            f"{end.name_of(move.unit_id)} is not within "
            f'{inches(edition.consolidate_distance)}" of objective {marker}',
        )
    in_range = edition.objective_range_horizontal + EPSILON
    after = objective_distances(ModelSet(end.final_unit), bf.objectives, edition)
    if after[:, column].min() > in_range:
        raise end.refuse(
            "not_in_objective_range",
            f"{end.name_of(move.unit_id)} must end within range of objective {marker}",
        )
    for row, model in enumerate(end.unit):
        if (
            model.model_id in end.paths
            and after[row, column] > in_range
            and after[row, column] >= start[row, column] - EPSILON
        ):
            raise end.refuse(
                "not_closer", f"model {model.model_id} must end closer to objective {marker}"
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
