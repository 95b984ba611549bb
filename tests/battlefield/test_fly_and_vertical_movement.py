"""FLY as the rules make it (11e §21.03 Take to the Skies, a declaration; 10e FLY, always) and
vertical movement (11e §13.06 Moving Vertically, Setting Up or Ending a Move; 10e Ruins and
moving over terrain): climbing counts, upper floors only for some models and only where a surface
holds the whole base."""

import math

import pytest

from rules.engine.battlefield.movement import Move, validate_move
from rules.engine.core.refusals import Refusal
from tests.battlefield.helpers import ELEVENTH, R32, TENTH, board, squad

RUIN = {"kind": "ruins", "polygon": [[20, 10], [30, 10], [30, 20], [20, 20]], "height": 6}
STATUE = {"kind": "statuary", "polygon": [[20, 10], [30, 10], [30, 20], [20, 20]], "height": 3}
MONSTER_BASE = {"shape": "round", "diameter_mm": 60}


def refused(edition, placements, move, bf):
    with pytest.raises(Refusal) as error:
        validate_move(bf, edition, placements, move)
    return error.value


def onto(x, y, z, move_type="normal", **extra):
    return Move(move_type, "a", {"a-0": [(x, y)]}, heights={"a-0": z}, **extra)


# --- climbing and upper floors ----------------------------------------------------------------


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_climbing_onto_an_upper_floor_counts_the_vertical_distance(edition):
    # 11e §13.06 Moving Vertically: add the distance moved up and down; 10e Ruins: INFANTRY may
    # end on upper floors, climbing counts. 2" across and 3" up is 5".
    infantry = squad("a", 1, [(20, 15)])
    result = validate_move(board([RUIN]), edition, infantry, onto(22, 15, 3.0, movement=6))
    assert result.moved["a-0"] == pytest.approx(5.0)
    assert result.placements[0].z == 3.0
    too_far = refused(edition, infantry, onto(22, 15, 4.5, movement=6), board([RUIN]))
    assert too_far.code == "move_too_far" and '6.5" of 6"' in too_far.message
    # Coming down counts too (up and down are both added).
    up = result.placements
    down = Move("normal", "a", {"a-0": [(20, 15)]}, heights={"a-0": 0.0}, movement=6)
    assert validate_move(board([RUIN]), edition, up, down).moved["a-0"] == pytest.approx(5.0)


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_no_model_ends_in_the_air_or_overhanging_a_floor(edition):
    # 11e §13.06: no part of its base overhangs the outer edge of that surface; and a surface
    # must be there, at least as high as the model.
    infantry = squad("a", 1, [(20, 15)])
    overhang = refused(edition, infantry, onto(20.2, 15, 1.0, movement=6), board([RUIN]))
    assert overhang.code == "no_surface"
    assert refused(edition, infantry, onto(16, 15, 1.0, movement=6), board([RUIN])).code == (
        "no_surface"
    )
    too_high = refused(edition, infantry, onto(22, 15, 7.0, movement=12), board([RUIN]))
    assert too_high.code == "no_surface"
    below = refused(edition, infantry, onto(22, 15, -1.0, movement=6), board([RUIN]))
    assert below.code == "below_ground"


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_vehicles_never_end_above_ground_level(edition):
    # 11e §13.06 (INFANTRY/BEASTS/SWARM/FLY/MONSTER only); 10e Ruins (INFANTRY, BEASTS, FLY).
    tank = squad("a", 1, [(18, 15)], keywords=("VEHICLE",))
    refusal = refused(edition, tank, onto(25, 15, 3.0, movement=12), board([STATUE]))
    assert refusal.code == "cannot_end_above_ground"


def test_monsters_end_on_upper_levels_in_11th_edition_but_not_of_dense_terrain_nor_in_10th():
    # 11e §13.06: MONSTER is in the list, but other models cannot end a move on a dense feature's
    # upper surface; 10e Ruins: only INFANTRY, BEASTS and FLY (ruling R-MV-13).
    monster = squad("a", 1, [(17, 15)], base=MONSTER_BASE, keywords=("MONSTER",))
    validate_move(board([STATUE]), ELEVENTH, monster, onto(25, 15, 3.0, movement=12))
    assert (
        refused(TENTH, monster, onto(25, 15, 3.0, movement=12), board([STATUE])).code
        == "cannot_end_above_ground"
    )
    on_ruin = refused(ELEVENTH, monster, onto(25, 15, 3.0, movement=30), board([RUIN]))
    assert on_ruin.code == "ends_in_terrain" and on_ruin.rule == "13.06"


def test_eleventh_edition_vehicles_climb_over_tall_dense_terrain_counting_up_and_down():
    # 11e §13.06: other models must move vertically to ascend and descend dense sections over
    # 2" high (6" up, 6" down here) and cannot end on them; 10e Ruins: they cannot cross.
    wall = {"kind": "ruins", "polygon": [[20, 0], [21, 0], [21, 30], [20, 30]], "height": 6}
    tank = squad("a", 1, [(16, 15)], keywords=("VEHICLE",))
    drive = Move("normal", "a", {"a-0": [(25, 15)]}, movement=21)
    assert validate_move(board([wall]), ELEVENTH, tank, drive).moved["a-0"] == pytest.approx(21)
    short = Move("normal", "a", {"a-0": [(25, 15)]}, movement=20)
    assert refused(ELEVENTH, tank, short, board([wall])).code == "move_too_far"
    onto_wall = Move("normal", "a", {"a-0": [(20.5, 15)]}, movement=20)
    assert refused(ELEVENTH, tank, onto_wall, board([wall])).code == "ends_in_terrain"
    assert refused(TENTH, tank, drive, board([wall])).code == "impassable_terrain"


# --- FLY ------------------------------------------------------------------------------------


def test_taking_to_the_skies_ignores_vertical_distance_and_10th_edition_flies_diagonally():
    # 11e §21.03: ignore all vertical distance, 2" off the maximum; 10e: FLY models measure
    # through the air (ruling R-MV-12): 4" across and 3" up is 5".
    flyer = squad("a", 1, [(18, 15)], keywords=("INFANTRY", "FLY"))
    up = onto(22, 15, 3.0, movement=6, take_to_the_skies=True)
    assert validate_move(board([RUIN]), ELEVENTH, flyer, up).moved["a-0"] == pytest.approx(4.0)
    walking = onto(22, 15, 3.0, movement=6)
    assert refused(ELEVENTH, flyer, walking, board([RUIN])).code == "move_too_far"
    result = validate_move(board([RUIN]), TENTH, flyer, walking)
    assert result.moved["a-0"] == pytest.approx(math.hypot(4, 3))


def test_take_to_the_skies_is_a_declaration_only_fly_units_make_in_11th_edition():
    # 11e §21.03: "the active player can declare that it will take to the skies" (FLYING units,
    # normal, advance, fall-back or charge moves); 10e FLY has no declaration.
    walker = squad("a", 1, [(10, 10)])
    move = Move("normal", "a", {"a-0": [(12, 10)]}, movement=6, take_to_the_skies=True)
    assert refused(ELEVENTH, walker, move, board()).code == "cannot_take_to_the_skies"
    flyer = squad("a", 1, [(10, 10)], keywords=("INFANTRY", "FLY"))
    assert refused(TENTH, flyer, move, board()).code == "cannot_take_to_the_skies"
    enemy = squad("e", 2, [(30, 30)])
    pile_in = Move("pile_in", "a", {"a-0": [(11, 10)]}, take_to_the_skies=True)
    assert refused(ELEVENTH, flyer + enemy, pile_in, board()).code == "cannot_take_to_the_skies"
    as_if = Move(
        "normal", "a", {"a-0": [(12, 10)]}, movement=6, take_to_the_skies=True, as_if_fly=True
    )
    validate_move(board(), ELEVENTH, walker, as_if)


def test_fly_models_over_enemy_models_need_the_declaration_in_11th_edition_but_not_in_10th():
    # 11e §03.01 / §21.03; 10e FLY: Normal, Advance and Fall Back moves over enemy models as if
    # they were not there, even through engagement range (not ending in it).
    flyer = squad("a", 1, [(10, 10)], keywords=("INFANTRY", "FLY"))
    wall = squad("e", 2, [(14, 10)])
    over = Move("normal", "a", {"a-0": [(18, 10)]}, movement=10)
    assert refused(ELEVENTH, flyer + wall, over, board()).code == "through_enemy_model"
    validate_move(board(), TENTH, flyer + wall, over)
    walker = squad("a", 1, [(10, 10)])
    assert refused(TENTH, walker + wall, over, board()).code in (
        "through_enemy_model",
        "moved_within_engagement_range",
    )


def test_tenth_edition_fly_does_not_pass_over_enemy_models_in_a_charge():
    # 10e FLY (Movement phase) names Normal, Advance and Fall Back moves; 11e takes to the skies
    # in charges too (§21.03).
    flyer = squad("a", 1, [(10, 10)], keywords=("INFANTRY", "FLY"))
    wall = squad("e", 2, [(13.5, 10)])
    target = squad("t", 2, [(18.5, 10)])
    end = 18.5 - 2 * R32 - 0.02
    charge = Move("charge", "a", {"a-0": [(end, 10)]}, bonus=10, targets=frozenset({"t"}))
    assert refused(TENTH, flyer + wall + target, charge, board()).code in (
        "through_enemy_model",
        "moved_within_engagement_range",
    )
    flying = Move(
        "charge",
        "a",
        {"a-0": [(end, 10)]},
        bonus=10,
        targets=frozenset({"t"}),
        take_to_the_skies=True,
    )
    validate_move(board(), ELEVENTH, flyer + wall + target, flying)


def test_tenth_edition_desperate_escape_spares_fly_models_unless_battle_shocked():
    # 10e Desperate Escape Tests: a test for each model that will move over enemy models,
    # except TITANIC or FLY models; every model when the unit is battle-shocked.
    unit = squad("a", 1, [(10, 10)], keywords=("INFANTRY", "FLY"))
    enemy = squad("e", 2, [(10 + 2 * R32 + 0.5, 10)])
    paths = {"a-0": [(16, 10)]}
    result = validate_move(board(), TENTH, unit + enemy, Move("fall_back", "a", paths, movement=6))
    assert result.desperate_escape_models == ()
    shocked = Move("fall_back", "a", paths, movement=6, battle_shocked=True)
    assert validate_move(board(), TENTH, unit + enemy, shocked).desperate_escape_models == ("a-0",)
