"""The ground a moving base sweeps (11e §03.01 Moving a Model in a Straight Line): distances from
segments to bases, overlaps between bases, in numpy where the bases are round."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from rules.engine.battlefield.board import (
    EPSILON,
    ModelSet,
    Placement,
    base_outline,
    pairwise_distances,
)


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

    def rows(self, rows: np.ndarray) -> SweptBases:
        """The swept segments at the given indices."""
        sub = SweptBases.__new__(SweptBases)
        sub.movers = self.movers
        sub.starts, sub.ends = self.starts[rows], self.ends[rows]
        sub.owners, sub.radii, sub.round = self.owners[rows], self.radii[rows], self.round[rows]
        sub._shapes = None if self._shapes is None else self._shapes[rows]
        return sub


def overlaps(a: ModelSet, b: ModelSet) -> np.ndarray:
    """(a x b): do the two bases overlap (touching is allowed)?"""
    distances = pairwise_distances(a, b, within=EPSILON)
    result = distances < -EPSILON
    needs_shapes = ~(a.round[:, None] & b.round[None, :]) & (distances <= EPSILON)
    if needs_shapes.any():
        rows, cols = np.nonzero(needs_shapes)
        shrunk_a = shapely.buffer(a.shapes_at(rows), -EPSILON)
        result[rows, cols] = shapely.intersects(shrunk_a, b.shapes_at(cols))
    return result


def polygon_passage(swept, enemy_set, clearance) -> np.ndarray:
    result = np.zeros_like(clearance, dtype=bool)
    needs = ~(swept.round[:, None] & enemy_set.round[None, :]) & (clearance <= EPSILON)
    if needs.any():
        rows, cols = np.nonzero(needs)
        shapes = swept.shapes[rows]
        round_rows = swept.round[rows]
        shapes = np.where(round_rows, shapely.buffer(shapes, swept.radii[rows] - EPSILON), shapes)
        result[rows, cols] = shapely.intersects(
            shapely.buffer(shapes, -EPSILON), enemy_set.shapes_at(cols)
        )
    return result
