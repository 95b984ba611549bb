"""Laws of accepted moves: a move the battlefield accepts never leaves a model overlapping
another, off the table, or its unit out of coherency (11e §03.01 Ending a Move, §03.03)."""

import math

import numpy as np
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.engine.battlefield import visibility
from rules.engine.battlefield.board import ModelSet, Placement, pairwise_distances
from rules.engine.battlefield.coherency import in_coherency
from rules.engine.battlefield.movement import Move, validate_move
from rules.engine.battlefield.state_distances import (
    closest_distance,
    closest_distances,
    model_distance,
    within_of_point,
)
from rules.engine.core.refusals import Refusal
from tests.battlefield.helpers import ELEVENTH, TENTH, board, squad

BF = board([{"kind": "ruins", "polygon": [[18, 18], [22, 18], [22, 22], [18, 22]], "height": 4}])
coordinate = st.floats(min_value=-4, max_value=4, allow_nan=False)
step = st.tuples(coordinate, coordinate)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(st.lists(step, min_size=1, max_size=2), min_size=4, max_size=4),
    enemy_at=st.tuples(st.floats(8, 36), st.floats(8, 36)),
    eleventh=st.booleans(),
    move_type=st.sampled_from(["normal", "advance"]),
)
def test_accepted_moves_keep_models_apart_on_the_table_and_coherent(
    steps, enemy_at, eleventh, move_type
):
    edition = ELEVENTH if eleventh else TENTH
    unit = squad("a", 1, [(10, 10), (11.5, 10), (10, 11.5), (11.5, 11.5)])
    enemy = squad("e", 2, [enemy_at, (enemy_at[0] + 1.5, enemy_at[1])])
    friends = squad("f", 1, [(14, 10)])
    paths = {}
    for model, moves in zip(unit, steps, strict=True):
        x, y, path = model.x, model.y, []
        for dx, dy in moves:
            x, y = x + dx, y + dy
            path.append((x, y))
        paths[model.model_id] = path
    move = Move(move_type, "a", paths, movement=6, bonus=2)
    placements = unit + enemy + friends
    before = ModelSet(placements)
    start_gaps = pairwise_distances(before, before)
    np.fill_diagonal(start_gaps, np.inf)
    assume((start_gaps > 0).all())  # the law is about moves, from a table where no bases overlap
    try:
        result = validate_move(BF, edition, placements, move)
    except Refusal:
        return
    after = ModelSet(result.placements)
    gaps = pairwise_distances(after, after)
    np.fill_diagonal(gaps, np.inf)
    assert (gaps > -1e-6).all()
    assert ((after.centres - after.radii[:, None]) >= -1e-6).all()
    assert (after.centres[:, 0] + after.radii <= BF.width + 1e-6).all()
    assert (after.centres[:, 1] + after.radii <= BF.depth + 1e-6).all()
    moved_unit = [p for p in result.placements if p.unit_id == "a"]
    assert in_coherency(moved_unit, edition)


@settings(max_examples=60, deadline=None)
@given(
    segments=st.lists(
        st.tuples(st.floats(0, 20), st.floats(0, 20), st.floats(0, 20), st.floats(0, 20)),
        min_size=1,
        max_size=30,
    ),
    angle=st.floats(0, 90),
)
def test_sight_line_crossings_agree_with_shapely(segments, angle):
    # The numpy crossing test behind visibility must find exactly what shapely finds.
    import shapely
    from shapely import affinity

    from rules.engine.battlefield.visibility import _crossings, _sight_polygons

    pieces = [
        {"kind": "ruins", "polygon": [[5, 5], [9, 5], [9, 8], [5, 8]], "height": 3},
        {
            "kind": "ruins",
            "polygon": list(affinity.rotate(shapely.box(11, 11, 15, 13), angle).exterior.coords)[
                :-1
            ],
            "height": 3,
        },
    ]
    bf = board(pieces)
    sight = _sight_polygons(bf, ELEVENTH)
    data = np.array(segments, dtype=float)
    starts, ends = data[:, :2], data[:, 2:]
    lines, polygons = _crossings(starts, ends, sight)
    found = set(zip(lines.tolist(), polygons.tolist(), strict=True))
    segments_geometry = shapely.linestrings(np.stack([starts, ends], axis=1))
    expected = {
        (i, j)
        for i in range(len(data))
        for j in range(len(sight.polygons))
        if shapely.intersects(segments_geometry[i], sight.polygons[j])
        and shapely.length(segments_geometry[i]) > 0
    }
    nondegenerate = {(i, j) for i, j in found if shapely.length(segments_geometry[i]) > 0}
    assert nondegenerate == expected


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    gap=st.floats(0.5, 9),
    eleventh=st.booleans(),
)
def test_accepted_charges_end_engaged_with_the_target_without_overlaps(seed, gap, eleventh):
    # 11e §11.04 / 10e Charge Move: an accepted charge ends engaged with its target, coherent,
    # on no other model.
    import random

    from rules.engine.battlefield.measuring import engaged_units
    from rules.engine.tools.pathing import random_move
    from tests.battlefield.helpers import R32, line

    edition = ELEVENTH if eleventh else TENTH
    unit = squad("a", 1, line(10, 10, 5))
    target = squad("t", 2, line(10 + 2 * R32 + gap, 10, 5))
    template = Move("charge", "a", bonus=10, targets=frozenset({"t"}))
    found = random_move(BF, edition, unit + target, template, random.Random(seed))
    if found is None:
        return
    after = ModelSet(found[1].placements)
    gaps = pairwise_distances(after, after)
    np.fill_diagonal(gaps, np.inf)
    assert (gaps > -1e-6).all()
    assert ("a", "t") in engaged_units(found[1].placements, edition)
    assert in_coherency([p for p in found[1].placements if p.unit_id == "a"], edition)


FLOORS = board(
    [
        {"kind": "ruins", "polygon": [[12, 8], [18, 8], [18, 14], [12, 14]], "height": 6},
        {"kind": "statuary", "polygon": [[6, 12], [9, 12], [9, 16], [6, 16]], "height": 2},
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ends=st.lists(
        st.tuples(st.floats(5, 20), st.floats(5, 18), st.sampled_from([0.0, 0.0, 1.0, 2.0, 4.0])),
        min_size=2,
        max_size=2,
    ),
    eleventh=st.booleans(),
    keywords=st.sampled_from([("INFANTRY",), ("VEHICLE",), ("MONSTER",), ("INFANTRY", "FLY")]),
    take_to_the_skies=st.booleans(),
)
def test_accepted_moves_never_leave_a_model_in_the_air_and_count_the_climb(
    ends, eleventh, keywords, take_to_the_skies
):
    """11e §13.06 / 10e Ruins: a model above ground level stands on a terrain surface at least
    that high under its whole base, is of a kind that may, and its move counted the climb."""
    edition = ELEVENTH if eleventh else TENTH
    unit = squad("a", 1, [(10, 10), (11.5, 10)], keywords=keywords)
    paths = {p.model_id: [(x, y)] for p, (x, y, _) in zip(unit, ends, strict=True)}
    heights = {p.model_id: z for p, (_, _, z) in zip(unit, ends, strict=True)}
    move = Move("normal", "a", paths, movement=8, heights=heights)
    if take_to_the_skies:
        move = Move("normal", "a", paths, movement=8, heights=heights, take_to_the_skies=True)
    try:
        result = validate_move(FLOORS, edition, unit, move)
    except Refusal:
        return
    flying = "FLY" in keywords and (take_to_the_skies or not eleventh)
    for before, after in zip(unit, result.placements, strict=True):
        horizontal = float(np.hypot(after.x - before.x, after.y - before.y))
        if not flying:
            assert result.moved.get(before.model_id, 0.0) >= horizontal + after.z - 1e-6
        if after.z <= 0:
            continue
        assert set(keywords) & set(edition.upper_floor_keywords.split())
        outline = after.polygon()
        assert any(
            feature.height >= after.z - 1e-6 and feature.polygon.covers(outline)
            for _, feature in FLOORS.features
        )


BASES = [
    {"shape": "round", "diameter_mm": 32},
    {"shape": "round", "diameter_mm": 60},
    {"shape": "oval", "length_mm": 75, "width_mm": 42},
    {"shape": "hull", "length_mm": 180, "width_mm": 110},
]
model_at = st.tuples(
    st.floats(0, 30), st.floats(0, 30), st.floats(0, 360), st.sampled_from(range(len(BASES)))
)


@settings(max_examples=150, deadline=None)
@given(
    first=st.lists(model_at, min_size=1, max_size=6),
    second=st.lists(model_at, min_size=1, max_size=6),
    within=st.floats(0, 6),
)
def test_distances_bounded_by_a_range_answer_within_it_as_the_exact_ones_do(first, second, within):
    """`pairwise_distances(within=r)` skips the polygons of pairs certainly farther than r: the
    question "within r?" (01.04) gets the same answer as from the exact distances."""

    def models(rows, player):
        return ModelSet(
            [
                Placement(f"{player}{n}", f"u{player}", player, x, y, facing, BASES[base])
                for n, (x, y, facing, base) in enumerate(rows)
            ]
        )

    a, b = models(first, 1), models(second, 2)
    exact = pairwise_distances(a, b)
    bounded = pairwise_distances(a, b, within=within)
    assert ((bounded <= within) == (exact <= within)).all()
    close = exact <= within
    assert (bounded[close] == exact[close]).all()


@settings(max_examples=300, deadline=None)
@given(
    model=model_at,
    offset=st.tuples(st.floats(-10, 10), st.floats(-10, 10)),
    reach=st.floats(0, 6),
)
def test_a_base_within_reach_of_a_marker_is_found_as_by_its_polygon(model, offset, reach):
    """`within_of_point` (objective range, 11e 14.02) answers for an oval or a hull as the
    distance from its turned polygon does, the bounding-circle shortcut included."""
    x, y, facing, base = model
    marker = (x + offset[0], y + offset[1])
    data = {"x": x, "y": y, "facing": facing, "base": BASES[base]}
    radius = 40 / 25.4 / 2
    placed = Placement("m", "u", 1, x, y, facing, BASES[base])
    if placed.base.is_round:
        gap = math.hypot(x - marker[0], y - marker[1]) - placed.base.radius
    else:
        gap = float(shapely.distance(placed.polygon(), shapely.Point(*marker)))
    assert within_of_point(data, *marker, reach, radius) == (gap - radius <= reach + 1e-9)


@settings(max_examples=200, deadline=None)
@given(
    first=st.lists(model_at, min_size=1, max_size=8),
    second=st.lists(model_at, min_size=1, max_size=8),
    touching=st.booleans(),
)
def test_the_closest_distance_of_two_groups_is_the_least_of_their_model_distances(
    first, second, touching
):
    """`closest_distance` measures only the pairs a bounding circle cannot rule out, and
    `closest_distances` does so per model: the very numbers of the least `model_distance`."""

    def models(rows):
        return [
            {"x": x, "y": y, "facing": facing, "base": dict(BASES[base])}
            for x, y, facing, base in rows
        ]

    ours, theirs = models(first), models(second)
    if touching:
        theirs[0] = dict(ours[0])
    exact = [[model_distance(a, b) for b in theirs] for a in ours]
    assert closest_distance(ours, theirs) == min(min(row) for row in exact)
    assert closest_distances(ours, theirs) == [min(row) for row in exact]


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(model_at, min_size=1, max_size=6),
    bearings=st.lists(
        st.one_of(st.sampled_from([0.0, math.pi / 2, math.pi, -math.pi / 2]), st.floats(-4, 4)),
        min_size=1,
        max_size=12,
    ),
)
def test_sight_points_of_ovals_and_hulls_are_where_a_ray_leaves_each_outline(rows, bearings):
    """The sample points of sight lines on an oval or a hull base (all rays in one shapely call)
    are those of each ray on its own: the last point where it meets the base's outline."""
    placements = [
        Placement(f"m{n}", "u", 1, x, y, facing, BASES[base])
        for n, (x, y, facing, base) in enumerate(rows)
    ]
    models = ModelSet(placements)
    index = np.arange(len(bearings)) % len(placements)
    angles = visibility._TARGET_ANGLES
    points = visibility._pair_points(models, index, np.array(bearings), angles)
    for row, (model, bearing) in enumerate(zip(index, bearings, strict=True)):
        placed = placements[model]
        if placed.base.is_round:
            continue
        # One ray at a time, as the sight lines sampled a base before they were batched.
        directions = np.array([bearing])[:, None] + angles[None, :]
        unit = np.stack([np.cos(directions), np.sin(directions)], axis=-1)[0]
        centre = np.array([placed.x, placed.y])
        ends = centre + unit * (placed.base.bounding_radius * 2 + 1)
        for column, end in enumerate(ends):
            hit = shapely.intersection(shapely.LineString([centre, end]), placed.polygon().exterior)
            want = shapely.get_coordinates(hit)[-1] if not hit.is_empty else centre
            assert (points[row, column + 1] == want).all()
