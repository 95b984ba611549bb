"""Distances are measured to the closest point of each model's real base (11e 01.04, 10e "Measuring
Distances": from the closest part of each base): an oval base is an ellipse and a hull its
rectangle, as turned on the table, never a circle of its largest dimension. The state's measure
(`battlefield.state_distances`: auras, ranges, "within X"" of a unit, objective range) is the
battlefield's (`board.pairwise_distances`: engagement range, coherency, moves)."""

from __future__ import annotations

import math
import random

import pytest

from rules.engine.battlefield.board import ModelSet, Placement
from rules.engine.battlefield.measuring import engagement_matrix, farthest_distance
from rules.engine.battlefield.measuring import model_distance as battlefield_distance
from rules.engine.battlefield.state_distances import (
    model_distance,
    wholly_within_of,
    within_of_point,
)
from tests.battlefield.helpers import ROUND_32, TENTH

OVAL_90_52 = {"shape": "oval", "length_mm": 90, "width_mm": 52}  # e.g. a bike's base
HULL = {"shape": "hull", "length_mm": 120, "width_mm": 60}
HALF_LENGTH, HALF_WIDTH = 45 / 25.4, 26 / 25.4
R32 = 16 / 25.4


def model(x: float, y: float, base: dict, facing: float = 0.0) -> dict:
    return {"id": "m", "x": x, "y": y, "facing": facing, "base": base, "wounds_left": 1}


def placement(m: dict, player: int) -> Placement:
    return Placement(f"{player}", f"u{player}", player, m["x"], m["y"], m["facing"], m["base"])


def engaged_10e(a: dict, b: dict) -> bool:
    """10e Engagement Range (1" horizontally), as the battlefield judges it."""
    pair = ModelSet([placement(a, 1)]), ModelSet([placement(b, 2)])
    return bool(engagement_matrix(*pair, TENTH)[0, 0])


# The same centre-to-centre distance: 0.9" edge to edge along the oval's long axis, 1.65" along
# its short one.
CENTRES = HALF_LENGTH + R32 + 0.9


@pytest.mark.parametrize("facing", [0.0, 90.0])
def test_an_oval_base_is_within_engagement_range_by_its_long_axis_not_by_its_short_one(facing):
    bike = model(20.0, 20.0, OVAL_90_52, facing)
    along_length = (CENTRES, 0.0) if facing == 0.0 else (0.0, CENTRES)
    along_width = (0.0, CENTRES) if facing == 0.0 else (CENTRES, 0.0)
    near = model(20.0 + along_length[0], 20.0 + along_length[1], ROUND_32)
    far = model(20.0 + along_width[0], 20.0 + along_width[1], ROUND_32)
    assert model_distance(bike, near) == pytest.approx(0.9, abs=0.01)
    assert model_distance(bike, far) == pytest.approx(CENTRES - HALF_WIDTH - R32, abs=0.01)
    assert model_distance(bike, near) <= 1.0 < model_distance(bike, far)
    assert engaged_10e(bike, near) and not engaged_10e(bike, far)


def test_a_hull_is_measured_to_its_corner_not_to_a_circle_around_it():
    tank = model(20.0, 20.0, HULL)
    corner = (60 / 25.4, 30 / 25.4)
    diagonal = 1 / math.sqrt(2)
    out_there = model(20.0 + corner[0] + diagonal, 20.0 + corner[1] + diagonal, ROUND_32)
    assert model_distance(tank, out_there) == pytest.approx(1.0 - R32, abs=0.01)


def test_the_states_measure_is_the_battlefields_for_every_shape_and_facing():
    rng = random.Random(7)
    bases = [ROUND_32, OVAL_90_52, HULL, {"shape": "round", "diameter_mm": 60}]
    for _ in range(200):
        a = model(rng.uniform(0, 40), rng.uniform(0, 40), rng.choice(bases), rng.uniform(0, 360))
        b = model(rng.uniform(0, 40), rng.uniform(0, 40), rng.choice(bases), rng.uniform(0, 360))
        expected = battlefield_distance(placement(a, 1), placement(b, 2))
        assert model_distance(a, b) == pytest.approx(expected, abs=1e-9)


def test_an_objective_marker_is_in_range_of_an_oval_by_its_long_axis_only():
    """11e 14.02 / 10e: within 3" horizontally of the marker (its 40 mm included)."""
    marker_radius = 20 / 25.4
    bike = model(20.0, 20.0, OVAL_90_52)
    gap = HALF_LENGTH + marker_radius + 2.9  # 2.9" by the long axis, 3.65" by the short one
    assert within_of_point(bike, 20.0 + gap, 20.0, 3.0, marker_radius)
    assert not within_of_point(bike, 20.0, 20.0 + gap, 3.0, marker_radius)


def test_wholly_within_is_the_battlefields_farthest_distance_for_every_shape_and_facing():
    """ "Wholly within" (an aura: Purifier Squad's): every part of the base within the distance."""
    rng = random.Random(11)
    bases = [ROUND_32, OVAL_90_52, HULL]
    for _ in range(100):
        a = model(rng.uniform(0, 20), rng.uniform(0, 20), rng.choice(bases), rng.uniform(0, 360))
        b = model(rng.uniform(0, 20), rng.uniform(0, 20), rng.choice(bases), rng.uniform(0, 360))
        reach = farthest_distance(placement(a, 1), placement(b, 2))
        assert wholly_within_of(a, b, reach + 0.01)
        assert not wholly_within_of(a, b, reach - 0.01)


def test_an_oval_is_wholly_within_an_aura_lengthwise_only_when_its_far_end_is():
    bike = model(20.0, 20.0, OVAL_90_52)
    purifier = model(20.0, 20.0 + HALF_WIDTH + R32 + 3.9, ROUND_32)  # 3.9" from its side
    assert wholly_within_of(bike, purifier, 6.0)  # its far side: 3.9" + 2 x 1.02"
    side_on = model(20.0 + HALF_LENGTH + R32 + 3.9, 20.0, ROUND_32)  # 3.9" from its front
    assert not wholly_within_of(bike, side_on, 6.0)  # its far end: 3.9" + 2 x 1.77"
