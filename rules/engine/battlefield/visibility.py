"""Visibility and the benefit of cover (11e §06.01, §13.07-13.11, 24.24, 24.33; 10e Determining
Visibility, Benefit of Cover, Lone Operative, Stealth).

Line of sight is checked top-down: a sight line runs from a point of the observing model's base
to a point of the observed model's base (11e §06.01: any part to any part). Each base is sampled
at its centre and at the points that matter for a convex base seen from the other model (its two
flanks across the line of sight and its front), so a model peeking past
a corner is found without testing every point (ruling R-BF-08). Sight lines are tested against
all blockers at once through an STRtree.

What blocks: terrain areas that are obscuring (11e §13.10: holding a light or dense feature;
10e: ruins), unless one of the two models is within that area; and the explicit dense features of
obscuring pieces (11e §13.11 Solid), unless one of the two models is within that feature. Blockers
are grown by half a millimetre so that gaps narrower than the 1 mm line (§06.01) close. Models do
not block sight (ruling R-BF-09).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from rules.engine.battlefield.board import (
    EPSILON,
    SIGHT_LINE_WIDTH,
    Battlefield,
    ModelSet,
    Placement,
    pairwise_distances,
)
from rules.engine.battlefield.terrain import AREA_KEYWORDS, areas_containing, is_obscuring
from rules.engine.core.editions import Edition
from rules.engine.core.hooks import implements

# Directions sampled on the observed base, relative to the line from it to the observer:
# front and flanks. The observer is sampled at its centre and flanks.
_TARGET_ANGLES = np.radians([0.0, 90.0, -90.0])
_OBSERVER_ANGLES = np.radians([90.0, -90.0])


@dataclass(frozen=True)
class _SightPolygons:
    """Every terrain outline a sight line can meet, each with what it does to sight."""

    polygons: np.ndarray
    piece: np.ndarray  # terrain piece index
    feature: np.ndarray  # index into battlefield.features, -1 for an area outline
    blocks_as_area: np.ndarray  # an obscuring area: blocks unless a model is within the area
    blocks_as_feature: np.ndarray  # a solid feature: blocks unless a model is within it
    hampers: np.ndarray  # stands in the way of full visibility (has height, or obscures)
    edges: np.ndarray  # (polygons, most edges, 4): x1 y1 x2 y2 of every ring edge, NaN padded
    bounds: np.ndarray  # (polygons, 4): min x, min y, max x, max y
    is_box: np.ndarray  # the polygon is its own bounding box (most terrain footprints)


def _sight_polygons(battlefield: Battlefield, edition: Edition) -> _SightPolygons:
    def build() -> _SightPolygons:
        grow = SIGHT_LINE_WIDTH / 2
        rows: list[tuple] = []
        feature_index = 0
        for terrain in battlefield.terrain:
            obscuring = is_obscuring(terrain, edition)
            explicit = not (
                len(terrain.features) == 1 and terrain.features[0].polygon.equals(terrain.polygon)
            )
            if not explicit:
                hampers = obscuring or terrain.features[0].height > 0
                rows.append(
                    (terrain.polygon, terrain.index, feature_index, obscuring, False, hampers)
                )
                feature_index += 1
                continue
            if obscuring:
                rows.append((terrain.polygon, terrain.index, -1, True, False, True))
            for feature in terrain.features:
                solid = obscuring and feature.category == "dense"
                hampers = solid or feature.height > 0
                rows.append((feature.polygon, terrain.index, feature_index, False, solid, hampers))
                feature_index += 1
        # Mitred growth keeps a rectangle a rectangle, which keeps the crossing tests cheap.
        polygons = np.array(
            [shapely.buffer(row[0], grow, join_style="mitre") for row in rows], dtype=object
        )
        edges = _edge_table(polygons)
        bounds = shapely.bounds(polygons).reshape(len(polygons), 4)
        is_box = np.array(
            [
                polygon.equals(shapely.box(*bound))
                for polygon, bound in zip(polygons, bounds, strict=True)
            ],
            dtype=bool,
        )
        return _SightPolygons(
            polygons,
            np.array([row[1] for row in rows], dtype=int),
            np.array([row[2] for row in rows], dtype=int),
            np.array([row[3] for row in rows], dtype=bool),
            np.array([row[4] for row in rows], dtype=bool),
            np.array([row[5] for row in rows], dtype=bool),
            edges,
            bounds,
            is_box,
        )

    return battlefield.cached(("sight-polygons", edition.slug, edition.obscuring_terrain), build)


def _within_features(models: ModelSet, battlefield: Battlefield) -> np.ndarray:
    matrix = np.zeros((len(models), len(battlefield.features)), dtype=bool)
    if not len(models) or not battlefield.features:
        return matrix
    reach = float(models.radii.max(initial=0))
    rows, cols = battlefield.feature_tree.query(models.cores, predicate="dwithin", distance=reach)
    if len(rows):
        exact = shapely.distance(models.cores[rows], battlefield.feature_polygons[cols])
        inside = (exact < models.radii[rows] - 1e-9) | ((~models.round[rows]) & (exact <= 0))
        matrix[rows[inside], cols[inside]] = True
    return matrix


def _edge_points(placements: list[Placement], unit: np.ndarray) -> np.ndarray:
    """Where a ray from the centre of each (oval or hull) base in each of its directions
    (`unit`: bases x directions x 2, unit vectors) leaves its outline (bases x directions x 2);
    the centre where a ray meets none. One call of each shapely function for every base."""
    centres = np.array([(p.x, p.y) for p in placements], dtype=float).reshape(-1, 1, 2)
    far = np.array([p.base.bounding_radius * 2 + 1 for p in placements], dtype=float)
    starts = np.broadcast_to(centres, unit.shape)
    rays = shapely.linestrings(np.stack([starts, centres + unit * far[:, None, None]], axis=-2))
    outlines = np.array([p.polygon().exterior for p in placements], dtype=object)
    hits = shapely.intersection(rays, outlines[:, None]).reshape(-1)
    points = np.array(starts, dtype=float).reshape(-1, 2)
    coordinates, owner = shapely.get_coordinates(hits, return_index=True)
    if len(owner):
        # The last coordinate of each ray's hit (its coordinates come in order, ray by ray).
        last = np.flatnonzero(np.append(owner[1:] != owner[:-1], True))
        points[owner[last]] = coordinates[last]
    return points.reshape(unit.shape)


@dataclass(frozen=True)
class UnitVisibility:
    """What one unit sees of another. Matrices are (observing models x observed models)."""

    observer_ids: tuple
    target_ids: tuple
    visible: np.ndarray
    fully_visible: np.ndarray
    hampered_by_terrain: np.ndarray

    @property
    def unit_visible(self) -> bool:
        """11e §06.01 Unit Visible: one or more models visible to an observing model."""
        return bool(self.visible.any())

    def unit_fully_visible_to(self, observer_id: Any) -> bool:
        row = self.observer_ids.index(observer_id)
        return bool(self.fully_visible[row].all())

    @property
    def visible_models(self) -> frozenset:
        return frozenset(np.array(self.target_ids, dtype=object)[self.visible.any(axis=0)])

    def model_visible(self, observer_id: Any, target_id: Any) -> bool:
        return bool(
            self.visible[self.observer_ids.index(observer_id), self.target_ids.index(target_id)]
        )

    def model_fully_visible(self, observer_id: Any, target_id: Any) -> bool:
        return bool(
            self.fully_visible[
                self.observer_ids.index(observer_id), self.target_ids.index(target_id)
            ]
        )


# What unit_visibility answered lately: a pure function of the battlefield, the edition, the
# models' placements and the two flags, asked again and again with the same models (the
# stratagem windows of an action, then the legal actions, then the next actions while those
# units stay put). The least recently used answer goes first (an answer for two 20-model units
# is about 2 KB); the lock keeps the server's worker threads apart.
_SEEN: OrderedDict[tuple, tuple[Battlefield, Edition, UnitVisibility]] = OrderedDict()
_SEEN_SIZE = 16384
_SEEN_LOCK = threading.Lock()

# Below that, the answer for each pair of models. What one pair sees depends only on the two
# placements (position, facing, base, keywords), the terrain and the edition, never on the rest
# of either unit: after one unit moves, arrives or loses models, only the pairs with its moved or
# new models are measured again. The two flags only limit sight by range, applied to the answer
# after (each pair remembers whether its observed model is Hidden). The terrain and the edition
# are keyed by value: a game's Battlefield object is built again when its state is read again.
# A placement on a terrain under an edition is known by a token, a number not reused while the
# tables hold it, so a pair's key is one integer: about 120 bytes a pair with its key, 16 MB for
# the 131,072 pairs kept; the 32,768 placements kept are about 28 MB at most (less when the
# states still hold them). The least recently used go first.
_PAIRS: OrderedDict[int, int] = OrderedDict()
_PAIRS_SIZE = 131072
_TOKENS: OrderedDict[Any, int] = OrderedDict()
_TOKENS_SIZE = 32768
_TOKEN_BITS = 32
_last_token = 0
_VISIBLE, _FULLY, _HAMPERED, _HIDDEN = 1, 2, 4, 8


def unit_visibility(
    battlefield: Battlefield,
    edition: Edition,
    observers: Sequence[Placement],
    targets: Sequence[Placement],
    *,
    target_made_ranged_attacks: bool = True,
    lone_operative_range: float | None = None,
) -> UnitVisibility:
    """Which observing models see (fully) which observed models.

    `target_made_ranged_attacks`: whether the observed unit shot this turn or the previous one
    (11e §13.09 Hidden applies only if it did not). `lone_operative_range`: the X of the observed
    unit's Lone Operative X" when it applies (not part of an attached unit): its models are not
    visible to observers farther away (11e 24.24; 10e Lone Operative limits targeting the same).
    """
    key = (
        id(battlefield),
        id(edition),
        tuple(observers),
        tuple(targets),
        target_made_ranged_attacks,
        lone_operative_range,
    )
    with _SEEN_LOCK:
        found = _SEEN.get(key)
        if found is not None:
            _SEEN.move_to_end(key)
            return found[2]
    seen = _pairs_visibility(
        battlefield,
        edition,
        observers,
        targets,
        target_made_ranged_attacks=target_made_ranged_attacks,
        lone_operative_range=lone_operative_range,
    )
    with _SEEN_LOCK:
        # The battlefield and edition kept alive with the answer: their ids stay their own.
        _SEEN[key] = (battlefield, edition, seen)
        while len(_SEEN) > _SEEN_SIZE:
            _SEEN.popitem(last=False)
    return seen


def _token(key: Any) -> int:
    """The number of `key` (a new one if it is not known); called under the lock."""
    global _last_token
    found = _TOKENS.get(key)
    if found is not None:
        _TOKENS.move_to_end(key)
        return found
    _last_token += 1
    _TOKENS[key] = _last_token
    while len(_TOKENS) > _TOKENS_SIZE:
        _TOKENS.popitem(last=False)
    return _last_token


def _start_afresh_if_needed(tokens_wanted: int) -> None:
    """A pair's key packs two tokens: before a question could need a token past their bits,
    every table starts afresh (never in the middle of a question). Called under the lock."""
    global _last_token
    if (_last_token + tokens_wanted) >> _TOKEN_BITS:
        _TOKENS.clear()
        _PAIRS.clear()
        _last_token = 0


def _terrain_key(battlefield: Battlefield) -> tuple:
    """What of the battlefield decides sight lines: every piece and feature, by value."""

    def build() -> tuple:
        return (
            "terrain",
            tuple(
                (
                    piece.index,
                    piece.kind,
                    piece.polygon.wkb,
                    piece.height,
                    piece.obscuring,
                    tuple((f.category, f.polygon.wkb, f.height) for f in piece.features),
                )
                for piece in battlefield.terrain
            ),
        )

    return battlefield.cached(("sight-terrain",), build)


def _pairs_visibility(
    battlefield: Battlefield,
    edition: Edition,
    observers: Sequence[Placement],
    targets: Sequence[Placement],
    *,
    target_made_ranged_attacks: bool,
    lone_operative_range: float | None,
) -> UnitVisibility:
    """`unit_visibility` from the pairs' remembered answers, measuring the pairs not known."""
    observer_set, target_set = ModelSet(observers), ModelSet(targets)
    n_obs, n_tgt = len(observer_set), len(target_set)
    shape = (n_obs, n_tgt)
    if not n_obs or not n_tgt:
        empty = np.zeros(shape, dtype=bool)
        return UnitVisibility(tuple(observer_set.ids), tuple(target_set.ids), empty, empty, empty)
    bits = np.zeros(shape, dtype=np.int8)
    missing: list[tuple[int, int]] = []
    keys: list[int] = []
    terrain = _terrain_key(battlefield)
    with _SEEN_LOCK:
        _start_afresh_if_needed(1 + n_obs + n_tgt)
        scope = _token((terrain, edition))
        mine = [_token((scope, p)) << _TOKEN_BITS for p in observer_set.placements]
        theirs = [_token((scope, p)) for p in target_set.placements]
        pairs = _PAIRS
        for row, a in enumerate(mine):
            for column, b in enumerate(theirs):
                pair = a | b
                answer = pairs.get(pair)
                if answer is None:
                    missing.append((row, column))
                    keys.append(pair)
                else:
                    pairs.move_to_end(pair)
                    bits[row, column] = answer
    if missing:
        index = np.array(missing, dtype=int)
        measured = _measure_pairs(
            battlefield, edition, observer_set, target_set, index[:, 0], index[:, 1]
        )
        bits[index[:, 0], index[:, 1]] = measured
        with _SEEN_LOCK:
            _PAIRS.update(zip(keys, measured.tolist(), strict=True))
            while len(_PAIRS) > _PAIRS_SIZE:
                _PAIRS.popitem(last=False)
    visible, fully = (bits & _VISIBLE) != 0, (bits & _FULLY) != 0
    limit = np.full(shape, np.inf)
    if lone_operative_range is not None:
        limit = np.minimum(limit, lone_operative_range)
    if edition.hidden_detection_range and not target_made_ranged_attacks:
        hidden = (bits & _HIDDEN) != 0
        limit = np.where(hidden, np.minimum(limit, edition.hidden_detection_range), limit)
    rows, columns = np.nonzero(np.isfinite(limit))
    if len(rows):
        # Measured only where a range limits sight: no finite distance is beyond infinity.
        distances = _pair_distances(observer_set, target_set, rows, columns)
        out_of_reach = distances > limit[rows, columns] + EPSILON
        visible[rows[out_of_reach], columns[out_of_reach]] = False
        fully[rows[out_of_reach], columns[out_of_reach]] = False
    return UnitVisibility(
        tuple(observer_set.ids), tuple(target_set.ids), visible, fully, (bits & _HAMPERED) != 0
    )


def _measure_pairs(
    battlefield: Battlefield,
    edition: Edition,
    observer_set: ModelSet,
    target_set: ModelSet,
    obs_index: np.ndarray,
    tgt_index: np.ndarray,
) -> np.ndarray:
    """The sight lines of the given (observer, target) pairs, as bits per pair: visible, fully
    visible and hampered by terrain (before any range limit), and whether the observed model is
    Hidden (11e §13.09, when the edition has that rule)."""
    # Only the models of the pairs asked are looked at (areas, features, Hidden).
    obs_rows, obs_index = np.unique(obs_index, return_inverse=True)
    tgt_rows, tgt_index = np.unique(tgt_index, return_inverse=True)
    observer_set, target_set = observer_set.subset(obs_rows), target_set.subset(tgt_rows)
    count = len(obs_index)
    sight = _sight_polygons(battlefield, edition)

    gaps = target_set.centres[tgt_index] - observer_set.centres[obs_index]
    bearing_to_target = np.arctan2(gaps[:, 1], gaps[:, 0])
    observer_points = _pair_points(observer_set, obs_index, bearing_to_target, _OBSERVER_ANGLES)
    target_points = _pair_points(target_set, tgt_index, bearing_to_target + np.pi, _TARGET_ANGLES)
    n_o, n_t = observer_points.shape[1], target_points.shape[1]
    starts = np.repeat(observer_points, n_t, axis=1).reshape(-1, 2)
    ends = np.tile(target_points, (1, n_o, 1)).reshape(-1, 2)
    pair_of_line = np.repeat(np.arange(count), n_o * n_t)
    line_count = len(starts)

    obs_areas = areas_containing(observer_set, battlefield)
    tgt_areas = areas_containing(target_set, battlefield)
    obs_features = _within_features(observer_set, battlefield)
    tgt_features = _within_features(target_set, battlefield)

    blocked = np.zeros(line_count, dtype=bool)
    hampered = np.zeros(line_count, dtype=bool)
    if len(sight.polygons):
        line_hit, polygon_hit = _crossings(starts, ends, sight)
        pair = pair_of_line[line_hit]
        o, t = obs_index[pair], tgt_index[pair]
        piece = sight.piece[polygon_hit]
        feature = sight.feature[polygon_hit]
        has_feature = feature >= 0
        safe_feature = np.maximum(feature, 0)
        area_excused = obs_areas[o, piece] | tgt_areas[t, piece]
        feature_excused = obs_features[o, safe_feature] | tgt_features[t, safe_feature]
        blocks = (sight.blocks_as_area[polygon_hit] & ~area_excused) | (
            sight.blocks_as_feature[polygon_hit] & ~feature_excused
        )
        blocked[line_hit[blocks]] = True
        either_inside = np.where(
            has_feature,
            obs_features[o, safe_feature] | tgt_features[t, safe_feature],
            area_excused,
        )
        hampers = sight.hampers[polygon_hit] & ~either_inside
        hampered[line_hit[hampers]] = True
    hampered |= blocked

    per_pair_blocked = blocked.reshape(count, n_o, n_t)
    per_pair_hampered = hampered.reshape(count, n_o, n_t)
    visible = (~per_pair_blocked).any(axis=(1, 2))
    # A target point is seen clearly if some observer point reaches it with nothing in between.
    clear_points = np.asarray((~per_pair_hampered).any(axis=1))
    seen_points = np.asarray((~per_pair_blocked).any(axis=1))
    fully_clear = clear_points.all(axis=1)
    fully = seen_points.all(axis=1) & fully_clear
    hidden = np.zeros(count, dtype=bool)
    if edition.hidden_detection_range:
        hidden = _hidden(target_set, battlefield, tgt_areas)[tgt_index]
    bits: np.ndarray = np.where(visible, _VISIBLE, 0) | np.where(fully, _FULLY, 0)
    bits |= np.where(fully_clear, 0, _HAMPERED) | np.where(hidden, _HIDDEN, 0)
    return bits.astype(np.int8)


def _pair_distances(a: ModelSet, b: ModelSet, rows: np.ndarray, columns: np.ndarray):
    """`pairwise_distances(a, b)[rows, columns]`, measuring those pairs only (the same
    arithmetic, so the same numbers)."""
    gaps = a.centres[rows] - b.centres[columns]
    distances = np.hypot(gaps[:, 0], gaps[:, 1])
    needs_shapes = ~(a.round[rows] & b.round[columns])
    if needs_shapes.any():
        which = np.flatnonzero(needs_shapes)
        distances[which] = shapely.distance(a.cores[rows[which]], b.cores[columns[which]])
    return distances - a.radii[rows] - b.radii[columns]


def _edge_table(polygons: np.ndarray) -> np.ndarray:
    rings = []
    for polygon in polygons:
        coordinates = [np.asarray(polygon.exterior.coords)]
        coordinates += [np.asarray(ring.coords) for ring in polygon.interiors]
        rings.append(np.vstack([np.hstack([c[:-1], c[1:]]) for c in coordinates]))
    most = max((len(r) for r in rings), default=0)
    table = np.full((len(rings), most, 4), np.nan)
    for index, ring in enumerate(rings):
        table[index, : len(ring)] = ring
    return table


def _crossings(starts: np.ndarray, ends: np.ndarray, sight: _SightPolygons):
    """(line indices, polygon indices) of every sight line that meets a polygon.

    Boxes first, then an exact test in numpy on the pairs whose boxes meet: the segment crosses
    one of the polygon's edges, or (crossing none) starts inside it. Sight lines are short
    segments against few, simple outlines, so this beats building shapely lines.
    """
    low = np.minimum(starts, ends)
    high = np.maximum(starts, ends)
    box = sight.bounds
    meets = (
        (low[:, None, 0] <= box[None, :, 2])
        & (high[:, None, 0] >= box[None, :, 0])
        & (low[:, None, 1] <= box[None, :, 3])
        & (high[:, None, 1] >= box[None, :, 1])
    )
    # Separating axis: a segment misses a box whose four corners lie on one side of its line.
    corners_x = box[None, :, [0, 2, 2, 0]]
    corners_y = box[None, :, [1, 1, 3, 3]]
    direction = (ends - starts)[:, None, None, :]
    sides = direction[..., 0] * (corners_y - starts[:, None, None, 1]) - direction[..., 1] * (
        corners_x - starts[:, None, None, 0]
    )
    meets &= (sides.min(axis=2) <= 0) & (sides.max(axis=2) >= 0)
    line_hit, polygon_hit = np.nonzero(meets)
    shaped = ~sight.is_box[polygon_hit]
    if not shaped.any():
        return line_hit, polygon_hit
    exact = np.ones(len(line_hit), dtype=bool)
    exact[shaped] = _segments_meet_polygons(
        starts[line_hit[shaped]], ends[line_hit[shaped]], sight.edges[polygon_hit[shaped]]
    )
    return line_hit[exact], polygon_hit[exact]


def _segments_meet_polygons(starts: np.ndarray, ends: np.ndarray, edges: np.ndarray):
    """For each segment and its polygon's edge table: does the segment cross an edge, or
    (crossing none) start inside the polygon?"""
    p, q = starts[:, None, :], ends[:, None, :]
    a, b = edges[..., 0:2], edges[..., 2:4]

    def cross(u, v):
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

    with np.errstate(invalid="ignore", divide="ignore"):
        d1, d2 = cross(b - a, p - a), cross(b - a, q - a)
        d3, d4 = cross(q - p, a - p), cross(q - p, b - p)
        crosses_edge = ((d1 * d2 <= 0) & (d3 * d4 <= 0)).any(axis=1)
        py, px = p[..., 1], p[..., 0]
        straddles = (a[..., 1] > py) != (b[..., 1] > py)
        at_x = (b[..., 0] - a[..., 0]) * (py - a[..., 1]) / (b[..., 1] - a[..., 1]) + a[..., 0]
        inside = ((straddles & (px < at_x)).sum(axis=1) % 2) == 1
    return crosses_edge | inside


def _pair_points(models: ModelSet, index: np.ndarray, bearings: np.ndarray, angles: np.ndarray):
    """Sample points (pairs x (1 + angles) x 2): the centre, then the edge points."""
    points = np.empty((len(index), 1 + len(angles), 2))
    points[:, 0] = models.centres[index]
    round_mask = models.round[index]
    directions = bearings[:, None] + angles[None, :]
    unit = np.stack([np.cos(directions), np.sin(directions)], axis=-1)
    points[:, 1:] = models.centres[index][:, None, :] + unit * models.radii[index][:, None, None]
    shaped = np.flatnonzero(~round_mask)
    if len(shaped):
        placements = [models.placements[i] for i in index[shaped].tolist()]
        points[shaped, 1:] = _edge_points(placements, unit[shaped])
    return points


def _hidden(models: ModelSet, battlefield: Battlefield, areas: np.ndarray) -> np.ndarray:
    """11e §13.09: INFANTRY/BEASTS/SWARM models within a terrain area holding a dense feature."""
    dense_areas = np.array(
        [any(f.category == "dense" for f in piece.features) for piece in battlefield.terrain],
        dtype=bool,
    )
    in_dense = (areas & dense_areas[None, :]).any(axis=1) if len(dense_areas) else areas.any(1)
    keyworded = np.array([bool(p.keywords & AREA_KEYWORDS) for p in models.placements])
    return in_dense & keyworded


def model_visible(
    battlefield: Battlefield, edition: Edition, observer: Placement, target: Placement
) -> bool:
    return unit_visibility(battlefield, edition, [observer], [target]).unit_visible


@dataclass(frozen=True)
class Cover:
    """The benefit of cover of a target against one attacking model, as a fact for attacks.

    `effect` is the edition's `cover` strategy: `worsen_ballistic_skill` (11e §13.08: worsen the
    attack's BS by 1) or `improve_armour_save` (10e: +1 to armour saves, see `save_bonus`).
    `models` are the target models that have cover (11e: all or none).
    """

    effect: str
    models: frozenset
    reason: str

    @property
    def applies(self) -> bool:
        return bool(self.models)

    def save_bonus(self, model_id: Any, save: int, armour_penetration: int) -> int:
        """10e: +1 to the armour save of a model with cover, except models with a Save of 3+ or
        better against AP 0; never cumulative (1 at most)."""
        if self.effect != "improve_armour_save" or model_id not in self.models:
            return 0
        if save <= 3 and armour_penetration == 0:
            return 0
        return 1

    def ballistic_skill_penalty(self) -> int:
        return 1 if self.effect == "worsen_ballistic_skill" and self.applies else 0


@implements("ability", "stealth")
def benefit_of_cover(
    battlefield: Battlefield,
    edition: Edition,
    attacker: Placement,
    target_unit: Sequence[Placement],
    *,
    ignores_cover: bool = False,
    stealth: bool = False,
    cover_granted: bool = False,
    visibility: UnitVisibility | None = None,
    in_area: np.ndarray | None = None,
) -> Cover:
    """Does the target have the benefit of cover against a ranged attack by `attacker`?

    A model qualifies if it is INFANTRY/BEASTS/SWARM within a terrain area, or is not fully
    visible to the attacking model because of intervening terrain (11e §13.08; 10e uses the same
    two conditions per model, ruling R-BF-10). `stealth`: every model of the target unit has
    Stealth (11e 24.33); `cover_granted`: another rule gives cover (10e Go to Ground, Smoke).
    `ignores_cover`: [IGNORES COVER] or a rule such as "scattered" denies it. `in_area`: which
    of `target_unit` are within a terrain area (`areas_containing`), where the caller kept it.
    """
    ids = frozenset(p.model_id for p in target_unit)
    if ignores_cover:
        return Cover(edition.cover, frozenset(), "the attack ignores cover")
    if stealth or cover_granted:
        return Cover(edition.cover, ids, "stealth" if stealth else "granted by a rule")
    sight = visibility or unit_visibility(battlefield, edition, [attacker], target_unit)
    row = sight.observer_ids.index(attacker.model_id)
    if in_area is None:
        in_area = models_in_areas(battlefield, target_unit)
    keyworded = np.array([bool(p.keywords & AREA_KEYWORDS) for p in target_unit], dtype=bool)
    columns = [sight.target_ids.index(p.model_id) for p in target_unit]
    not_fully = ~sight.fully_visible[row, columns] & sight.hampered_by_terrain[row, columns]
    qualifies = (in_area & keyworded) | not_fully
    if edition.cover_scope == "every_model_of_unit":
        if qualifies.all():
            return Cover(edition.cover, ids, "every model is in or behind terrain")
        return Cover(edition.cover, frozenset(), "not every model is in or behind terrain")
    covered = frozenset(p.model_id for p, q in zip(target_unit, qualifies, strict=True) if q)
    return Cover(edition.cover, covered, "models in or behind terrain")


def models_in_areas(battlefield: Battlefield, models: Sequence[Placement]) -> np.ndarray:
    """Which of `models` are within a terrain area (the first condition of cover)."""
    return np.asarray(areas_containing(ModelSet(models), battlefield).any(axis=1))


def lone_operative_targetable(
    attacker: Placement, target_unit: Sequence[Placement], distance: float = 12.0
) -> bool:
    """Lone Operative (11e 24.24, 10e): only an attacker within X" (12" unless stated) of the
    unit can see or target it, unless it is part of an attached unit (the caller knows)."""
    gaps = pairwise_distances(ModelSet([attacker]), ModelSet(target_unit))
    return bool((gaps <= distance + EPSILON).any())
