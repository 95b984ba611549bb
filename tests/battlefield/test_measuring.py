"""Measuring, engagement, coherency and objective range (11e §01.04, §03.03, §03.04; 10e)."""

import math

import pytest

from rules.engine.battlefield.board import (
    Base,
    Battlefield,
    BattlefieldError,
    Placement,
    placements_from_units,
)
from rules.engine.battlefield.coherency import in_coherency
from rules.engine.battlefield.measuring import (
    closest_enemy_model,
    engaged_units,
    model_distance,
    unit_distance,
    wholly_within,
    within,
    within_half_range,
    within_objective_range,
)
from tests.battlefield.helpers import ELEVENTH, R32, TENTH, board, line, squad


def test_round_bases_are_measured_exactly_between_their_edges():
    # 11e §01.04: measure to or from the closest part of the model's base.
    a, b = squad("a", 1, [(0, 0)])[0], squad("b", 2, [(3, 4)])[0]
    assert model_distance(a, b) == pytest.approx(5 - 2 * R32, abs=1e-12)
    assert within(a, b, 5 - 2 * R32) and not within(a, b, 5 - 2 * R32 - 0.001)
    assert within_half_range(a, b, 2 * (5 - 2 * R32))


def test_ovals_and_hulls_turn_with_their_facing():
    oval = {"shape": "oval", "length_mm": 60, "width_mm": 35}
    ahead = Placement("o", "o", 1, 0, 0, 0, oval)
    turned = Placement("o", "o", 1, 0, 0, 90, oval)
    target = Placement("t", "t", 2, 3, 0, 0, {"shape": "round", "diameter_mm": 25.4})
    assert model_distance(ahead, target) == pytest.approx(3 - 30 / 25.4 - 0.5, abs=1e-3)
    assert model_distance(turned, target) == pytest.approx(3 - 17.5 / 25.4 - 0.5, abs=1e-3)
    hull = Placement("h", "h", 1, 0, 0, 45, {"shape": "hull", "length_mm": 50.8, "width_mm": 50.8})
    corner = math.sqrt(2)
    assert model_distance(hull, target) == pytest.approx(3 - corner - 0.5, abs=1e-9)


def test_wholly_within_measures_to_the_far_edge():
    a, b = squad("a", 1, [(0, 0)])[0], squad("b", 2, [(5, 0)])[0]
    assert wholly_within(a, b, 5) and not wholly_within(a, b, 4.9)


def test_units_are_as_close_as_their_closest_models_and_closest_enemy():
    a, b = squad("a", 1, line(0, 0, 3)), squad("b", 2, [(10, 3), (20, 3)])
    assert unit_distance(a, b) == pytest.approx(math.hypot(10, 0) - 2 * R32)
    model, distance = closest_enemy_model(a[2], a + b)
    assert model.model_id == "b-0" and distance == pytest.approx(10 - 2 * R32)


@pytest.mark.parametrize(
    ("edition", "gap", "engaged"), [(ELEVENTH, 1.9, True), (TENTH, 1.9, False), (TENTH, 1.0, True)]
)
def test_engagement_range_per_edition(edition, gap, engaged):
    # DIFF-01: 11e 2" horizontally, 10e 1"; both 5" vertically.
    a, b = squad("a", 1, [(0, 0)]), squad("b", 2, [(2 * R32 + gap, 0)])
    assert (("a", "b") in engaged_units(a + b, edition)) is engaged


def test_engagement_range_is_five_inches_vertically():
    a = squad("a", 1, [(0, 0)])
    upstairs = [
        Placement("b-0", "b", 2, 2 * R32 + 0.5, 0, 0, {"shape": "round", "diameter_mm": 32}, z=6)
    ]
    assert engaged_units(a + upstairs, ELEVENTH) == set()


def test_coherency_rules_per_edition():
    # 11e §03.03 (2" and 9" span) and 10e (2", two neighbours at 7+ models).
    long_line = squad("a", 1, line(0, 0, 7, spacing=2 * R32 + 1.9))
    assert not in_coherency(long_line, ELEVENTH)
    assert not in_coherency(long_line, TENTH)
    six = squad("a", 1, line(0, 0, 6, spacing=2 * R32 + 1.9))
    assert in_coherency(six, TENTH) and not in_coherency(six, ELEVENTH)
    assert in_coherency(squad("a", 1, [(0, 0)]), ELEVENTH)


def test_objective_range_is_three_inches_from_the_forty_millimetre_marker():
    bf = board(objectives=[{"id": "centre", "x": 22, "y": 30}])
    marker = 20 / 25.4
    near = squad("a", 1, [(22 + marker + 3 + R32 - 0.01, 30)])
    far = squad("b", 1, [(22 + marker + 3 + R32 + 0.01, 30)])
    assert within_objective_range(near + far, bf, ELEVENTH)[:, 0].tolist() == [True, False]


def test_battlefield_from_plain_data_refuses_what_it_does_not_understand():
    with pytest.raises(BattlefieldError):
        Battlefield.from_dict({"width": 44})
    with pytest.raises(BattlefieldError):
        Base.from_data({"shape": "square", "diameter_mm": 32})
    with pytest.raises(BattlefieldError):
        board([{"kind": "ruins", "polygon": [[0, 0], [1, 1]]}])
    bf = Battlefield.from_dict(
        {
            "width": 44,
            "depth": 60,
            "deployment_zones": [
                {"player": "red", "polygon": [[0, 0], [44, 0], [44, 12], [0, 12]]}
            ],
            "objectives": [[22, 30]],
            "terrain": [
                {
                    "kind": "ruins",
                    "polygon": [[5, 5], [9, 5], [9, 9], [5, 9]],
                    "height": 4,
                    "features": [
                        {"category": "dense", "polygon": [[5, 5], [9, 5], [9, 5.3], [5, 5.3]]}
                    ],
                }
            ],
        }
    )
    assert bf.objectives[0].objective_id == 0 and "red" in bf.deployment_zones
    assert bf.features[0][1].height == 4


def test_mission_records_and_engine_units_are_read_as_they_are_stored():
    # docs/missions.md: size under "battlefield", zones keyed "1"/"2", terrain "footprint".
    mission = {
        "battlefield": {"width": 60, "depth": 44},
        "deployment_zones": {"1": [[0, 0], [60, 0], [60, 12], [0, 12]]},
        "objective_markers": [{"id": "o1", "x": 30, "y": 22}],
        "terrain": [
            {
                "id": "t1",
                "kind": "ruin",
                "footprint": [[4, 14], [12, 14], [12, 20], [4, 20]],
                "height": 6,
            }
        ],
    }
    bf = Battlefield.from_mission(mission)
    assert bf.width == 60 and bf.deployment_zone(1) is not None
    assert bf.terrain[0].name == "t1" and bf.terrain[0].features[0].category == "dense"
    units = {
        "u1": {
            "player": 1,
            "location": "battlefield",
            "keywords": ["INFANTRY"],
            "models": [
                {
                    "id": "m1",
                    "x": 5,
                    "y": 5,
                    "facing": 0,
                    "base": {"shape": "round", "diameter_mm": 32},
                    "wounds_left": 1,
                },
                {
                    "id": "m2",
                    "x": 6,
                    "y": 5,
                    "facing": 0,
                    "base": {"shape": "round", "diameter_mm": 32},
                    "wounds_left": 0,
                },
            ],
        },
        "u2": {"player": 2, "location": "reserves", "models": []},
    }
    placements = placements_from_units(units)
    assert [p.model_id for p in placements] == ["m1"] and "INFANTRY" in placements[0].keywords
