"""Scenario tests for moves (11e chapters 03, 09, 11, 12, 21, 24.32; 10e Movement/Charge/Fight)."""

import pytest

from rules.engine.battlefield.movement import Move, charge_targets_in_range, validate_move
from rules.engine.core.refusals import Refusal
from tests.battlefield.helpers import ELEVENTH, R32, TENTH, board, line, squad


def shift(unit, dx, dy=0.0):
    return {p.model_id: [(p.x + dx, p.y + dy)] for p in unit}


def refused(edition, placements, move, bf=None):
    with pytest.raises(Refusal) as error:
        validate_move(bf or board(), edition, placements, move)
    return error.value


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_normal_move_up_to_m_is_accepted_and_further_is_refused(edition):
    # 11e §03.01 / §09.05: the distance moved cannot be greater than the maximum distance.
    unit = squad("a", 1, line(10, 10, 5))
    result = validate_move(board(), edition, unit, Move("normal", "a", shift(unit, 6), movement=6))
    assert result.moved["a-0"] == pytest.approx(6)
    assert result.placements[0].x == pytest.approx(16)
    refusal = refused(edition, unit, Move("normal", "a", shift(unit, 7.4), movement=6))
    assert refusal.code == "move_too_far"
    assert 'model a-0 moved 7.4" of 6"' in refusal.message


def test_paths_add_up_their_straight_lines_and_bonuses_raise_the_maximum():
    # 11e §03.01: distances of successive straight lines add up; an order's +3" is a bonus.
    unit = squad("a", 1, line(10, 10, 1))
    zigzag = {"a-0": [(13, 10), (13, 13)]}
    validate_move(board(), ELEVENTH, unit, Move("normal", "a", zigzag, movement=6))
    assert refused(ELEVENTH, unit, Move("normal", "a", zigzag, movement=5)).code == "move_too_far"
    far = {"a-0": [(19, 10)]}
    validate_move(board(), ELEVENTH, unit, Move("normal", "a", far, movement=6, bonus=3))


def test_advance_adds_the_advance_roll():
    # 11e §09.06: maximum distance is the advance roll plus M.
    unit = squad("a", 1, line(10, 10, 1))
    validate_move(
        board(), ELEVENTH, unit, Move("advance", "a", shift(unit, 10), movement=6, bonus=4)
    )
    refusal = refused(ELEVENTH, unit, Move("advance", "a", shift(unit, 10.5), movement=6, bonus=4))
    assert refusal.rule == "09.06"


def test_remain_stationary_moves_nothing():
    # 11e §09.04: no models are moved.
    unit = squad("a", 1, line(10, 10, 2))
    assert validate_move(board(), ELEVENTH, unit, Move("remain_stationary", "a")).moved == {}
    refusal = refused(ELEVENTH, unit, Move("remain_stationary", "a", shift(unit, 1)))
    assert refusal.code == "must_remain_stationary"


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_a_base_cannot_move_through_enemy_models(edition):
    # 11e §03.01: its base cannot be moved through enemy models.
    unit = squad("a", 1, [(10, 10)])
    wall = squad("e", 2, [(14, 10)])
    refusal = refused(edition, unit + wall, Move("normal", "a", {"a-0": [(18, 10)]}, movement=8))
    assert refusal.code in ("through_enemy_model", "moved_within_engagement_range")


def test_flying_models_that_take_to_the_skies_pass_over_enemies_for_two_inches():
    # 11e §21.03: subtract 2" from the maximum distance; move through all models.
    unit = squad("a", 1, [(10, 10)], keywords=("INFANTRY", "FLY"))
    wall = squad("e", 2, [(14, 10)])
    move = Move("normal", "a", {"a-0": [(18, 10)]}, movement=10, take_to_the_skies=True)
    validate_move(board(), ELEVENTH, unit + wall, move)
    too_far = Move("normal", "a", {"a-0": [(19, 10)]}, movement=10, take_to_the_skies=True)
    assert refused(ELEVENTH, unit + wall, too_far).code == "move_too_far"


def test_friendly_models_can_be_moved_through():
    # 11e §03.01: it can be moved through friendly models.
    unit = squad("a", 1, [(10, 10)])
    friends = squad("f", 1, [(14, 10)])
    validate_move(
        board(), ELEVENTH, unit + friends, Move("normal", "a", {"a-0": [(18, 10)]}, movement=8)
    )


def test_ending_within_engagement_range_is_refused_with_the_distance():
    # 11e §09.05 after moving the unit must be unengaged; §03.04 engagement range is 2".
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(20, 10)])
    ends_at = 20 - 2 * R32 - 1.6
    refusal = refused(
        ELEVENTH, unit + enemy, Move("normal", "a", {"a-0": [(ends_at, 10)]}, movement=8)
    )
    assert refusal.code == "ends_engaged"
    assert 'ends 1.6" from unit e, inside the 2" engagement range' in refusal.message


def test_tenth_edition_engagement_range_is_one_inch():
    # 10e Engagement Range: 1"; ending 1.6" away is legal there.
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(20, 10)])
    ends_at = 20 - 2 * R32 - 1.6
    validate_move(
        board(), TENTH, unit + enemy, Move("normal", "a", {"a-0": [(ends_at, 10)]}, movement=8)
    )


def test_passing_through_engagement_range_differs_between_editions():
    # AMB-11 / DIFF-03: 11e only checks the end of a normal move; 10e forbids moving within ER.
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(14, 11.9)])
    move = Move("normal", "a", {"a-0": [(18, 10)]}, movement=8)
    validate_move(
        board(), ELEVENTH, unit + enemy, Move("normal", "a", {"a-0": [(22, 10)]}, movement=12)
    )
    refusal = refused(TENTH, unit + enemy, move)
    assert refusal.code == "moved_within_engagement_range"
    assert refusal.rule == "Normal Moves"


def test_models_cannot_leave_the_battlefield():
    # 11e §03.01: its base cannot cross the edge of the battlefield.
    unit = squad("a", 1, [(2, 10)])
    refusal = refused(ELEVENTH, unit, Move("normal", "a", {"a-0": [(0.2, 10)]}, movement=6))
    assert refusal.code == "off_battlefield"


def test_models_cannot_end_on_another_model_or_an_objective_marker():
    # 11e §03.01 Ending a Move; 10e Objective Markers: models cannot end a move on a marker.
    unit = squad("a", 1, [(10, 10)])
    friend = squad("f", 1, [(14, 10)])
    on_friend = Move("normal", "a", {"a-0": [(14.5, 10)]}, movement=6)
    assert refused(ELEVENTH, unit + friend, on_friend).code == "ends_on_model"
    bf = board(objectives=[{"id": "home", "x": 10, "y": 14}])
    on_marker = Move("normal", "a", {"a-0": [(10, 13.5)]}, movement=6)
    assert refused(TENTH, unit, on_marker, bf).code == "ends_on_objective_marker"


def test_coherency_at_the_end_of_a_move_eleventh_edition_span():
    # 11e §03.03: within 2" of one other model and within 9" of every other model.
    unit = squad("a", 1, line(10, 10, 8, spacing=1.5))
    stretched = {p.model_id: [(p.x, 10 + i * 2.0)] for i, p in enumerate(unit)}
    refusal = refused(ELEVENTH, unit, Move("normal", "a", stretched, movement=6))
    assert refusal.code == "not_in_coherency" and '9"' in refusal.message
    validate_move(board(), TENTH, unit, Move("normal", "a", {}, movement=6))


def test_coherency_tenth_edition_large_units_need_two_neighbours():
    # 10e Unit Coherency: units of 7+ models need two other models within 2".
    unit = squad("a", 1, line(10, 10, 7, spacing=1.5))
    validate_move(board(), TENTH, unit, Move("normal", "a", {}, movement=6))
    with_a_tail = {"a-0": [(10, 10 - 1.0)]}
    refusal = refused(TENTH, unit, Move("normal", "a", with_a_tail, movement=6))
    assert "2 other models" in refusal.message
    validate_move(board(), ELEVENTH, unit, Move("normal", "a", with_a_tail, movement=6))


def test_fall_back_eleventh_edition_modes():
    # 11e §09.07: ordered retreat cannot pass enemies; desperate escape can, one hazard roll per
    # model; a battle-shocked unit must use desperate escape.
    unit = squad("a", 1, [(10, 10), (10, 11.5)])
    enemy = squad("e", 2, [(10 + 2 * R32 + 0.5, 10), (10 + 2 * R32 + 0.5, 11.5)])
    through = {p.model_id: [(p.x + 6, p.y)] for p in unit}
    assert refused(ELEVENTH, unit + enemy, Move("fall_back", "a", through, movement=6)).code == (
        "through_enemy_model"
    )
    result = validate_move(
        board(),
        ELEVENTH,
        unit + enemy,
        Move("fall_back", "a", through, movement=6, mode="desperate_escape"),
    )
    assert result.hazard_rolls == 2 and result.mode == "desperate_escape"
    assert result.battle_shock_roll
    shocked = Move(
        "fall_back", "a", through, movement=6, mode="ordered_retreat", battle_shocked=True
    )
    assert refused(ELEVENTH, unit + enemy, shocked).code == "battle_shocked"
    away = {p.model_id: [(p.x - 5, p.y)] for p in unit}
    assert (
        validate_move(
            board(), ELEVENTH, unit + enemy, Move("fall_back", "a", away, movement=6)
        ).hazard_rolls
        == 0
    )


def test_fall_back_tenth_edition_desperate_escape_tests():
    # 10e Desperate Escape Tests: one per model moving over enemy models (not FLY/TITANIC), or
    # every model if the unit is battle-shocked.
    unit = squad("a", 1, [(10, 10), (10, 11.5)])
    enemy = squad("e", 2, [(10 + 2 * R32 + 0.5, 10)])
    paths = {"a-0": [(16, 10)], "a-1": [(16, 11.5)]}
    result = validate_move(board(), TENTH, unit + enemy, Move("fall_back", "a", paths, movement=6))
    assert result.desperate_escape_models == ("a-0",)
    shocked = Move("fall_back", "a", paths, movement=6, battle_shocked=True)
    assert validate_move(board(), TENTH, unit + enemy, shocked).desperate_escape_models == (
        "a-0",
        "a-1",
    )


def test_fall_back_needs_an_engaged_unit_and_normal_moves_an_unengaged_one():
    # 11e §09.05 eligible if unengaged; §09.07 eligible if engaged.
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(12, 10)])
    assert (
        refused(ELEVENTH, unit + enemy, Move("normal", "a", shift(unit, -3), movement=6)).code
        == "unit_engaged"
    )
    assert (
        refused(ELEVENTH, unit, Move("fall_back", "a", shift(unit, -3), movement=6)).code
        == "unit_not_engaged"
    )


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_charge_must_end_engaged_with_every_target_and_no_other_unit(edition):
    # 11e §11.04 / 10e Charge Move.
    unit = squad("a", 1, [(10, 10)])
    target = squad("t", 2, [(16, 10)])
    bystander = squad("b", 2, [(16, 10 + 2 * R32 + 0.2)])
    contact = 16 - 2 * R32
    short = Move("charge", "a", {"a-0": [(12, 10)]}, bonus=7, targets=frozenset({"t"}))
    assert refused(edition, unit + target, short).code in (
        "charge_target_not_engaged",
        "must_close_in",
    )
    good = Move("charge", "a", {"a-0": [(contact, 10)]}, bonus=7, targets=frozenset({"t"}))
    validate_move(board(), edition, unit + target, good)
    assert refused(edition, unit + target + bystander, good).code in (
        "charge_engages_non_target",
        "moved_within_engagement_range",
    )


def test_charge_models_must_close_in_when_they_can():
    # 10e: base contact if possible; 11e §11.04: within 1" of a target if possible.
    unit = squad("a", 1, [(10, 10)])
    target = squad("t", 2, [(16, 10)])
    contact = 16 - 2 * R32
    near = Move("charge", "a", {"a-0": [(contact - 0.9, 10)]}, bonus=7, targets=frozenset({"t"}))
    assert refused(TENTH, unit + target, near).code == "must_close_in"
    validate_move(board(), ELEVENTH, unit + target, near)
    far = Move("charge", "a", {"a-0": [(contact - 1.5, 10)]}, bonus=7, targets=frozenset({"t"}))
    assert refused(ELEVENTH, unit + target, far).code == "must_close_in"


def test_charge_targets_must_be_within_twelve_inches():
    # 10e Declare Charge; 11e §11.04 also within the charge roll.
    unit = squad("a", 1, [(10, 10)])
    targets = {"near": squad("near", 2, [(20, 10)]), "far": squad("far", 2, [(30, 10)])}
    assert charge_targets_in_range(unit, targets, TENTH) == {"near": True, "far": False}
    assert charge_targets_in_range(unit, targets, ELEVENTH, charge_roll=5)["near"] is False


def test_pile_in_models_in_base_contact_cannot_move_and_others_must_close_in():
    # 11e §12.03 / 10e Pile In.
    unit = squad("a", 1, [(10, 10), (10, 11.5)])
    enemy = squad("e", 2, [(10 + 2 * R32, 10)])
    locked = Move("pile_in", "a", {"a-0": [(10, 9)]}, targets=frozenset({"e"}))
    assert refused(ELEVENTH, unit + enemy, locked).code == "model_in_base_contact"
    away = Move("pile_in", "a", {"a-1": [(9.5, 11.5)]}, targets=frozenset({"e"}))
    assert refused(ELEVENTH, unit + enemy, away).code == "not_closer"
    closer = Move("pile_in", "a", {"a-1": [(10 + 2 * R32, 10 + 2 * R32)]}, targets=frozenset({"e"}))
    validate_move(board(), TENTH, unit + enemy, closer)


def test_tenth_edition_pile_in_must_end_within_engagement_range():
    # 10e Pile In: the unit must end within Engagement Range of an enemy unit.
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(15, 10)])
    move = Move("pile_in", "a", {"a-0": [(11.5, 10)]})
    assert refused(TENTH, unit + enemy, move).code == "ends_unengaged"


def test_consolidation_mode_is_chosen_by_the_position():
    # 11e §12.08: ongoing if engaged, engaging if within 3" of an enemy, else objective.
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(20, 10)])
    bf = board(objectives=[{"id": 1, "x": 10, "y": 14}])
    wrong = Move("consolidate", "a", {"a-0": [(10, 12)]}, mode="engaging", targets=frozenset({"e"}))
    assert refused(ELEVENTH, unit + enemy, wrong, bf).code == "wrong_consolidation_mode"
    onto = Move("consolidate", "a", {"a-0": [(10, 12)]}, mode="objective", objective_id=1)
    assert validate_move(bf, ELEVENTH, unit + enemy, onto).mode == "objective"
    away = Move("consolidate", "a", {"a-0": [(10, 9)]}, objective_id=1)
    assert refused(ELEVENTH, unit + enemy, away, bf).code == "not_in_objective_range"


def test_tenth_edition_consolidation_falls_back_to_the_objective():
    # 10e Consolidate: with no enemy in reach, toward the closest objective marker.
    unit = squad("a", 1, [(10, 10)])
    bf = board(objectives=[{"id": 1, "x": 10, "y": 15}])
    assert (
        validate_move(bf, TENTH, unit, Move("consolidate", "a", {"a-0": [(10, 12)]})).mode
        == "objective_10e"
    )


def test_scout_moves_end_more_than_eight_or_nine_inches_from_enemies():
    # 11e 24.32: more than 8" from all enemy units; 10e Scouts: 9".
    unit = squad("a", 1, [(10, 10)])
    enemy = squad("e", 2, [(10, 25.5)])
    ends = 25.5 - 2 * R32 - 8.5
    move = Move("scout", "a", {"a-0": [(10, ends)]}, bonus=6)
    validate_move(board(), ELEVENTH, unit + enemy, move)
    assert refused(TENTH, unit + enemy, move).code == "too_close_to_enemy"


RUIN = {"kind": "ruins", "polygon": [[14, 0], [15, 0], [15, 30], [14, 30]], "height": 4}
LOW_WALL = {"kind": "ruins", "polygon": [[14, 0], [15, 0], [15, 30], [14, 30]], "height": 1.5}
HULL = {"shape": "hull", "length_mm": 120, "width_mm": 70}


def test_terrain_movement_by_keyword_and_height():
    # 11e §13.06: INFANTRY cross dense features; other models only those up to 2" high, and
    # ascend and descend taller sections, the vertical distance counted (4" up, 4" down).
    # 10e Ruins: vehicles never move through ruins.
    infantry = squad("a", 1, [(10, 10)])
    across = {"a-0": [(19, 10)]}
    validate_move(board([RUIN]), ELEVENTH, infantry, Move("normal", "a", across, movement=10))
    tank = squad("v", 1, [(8, 10)], base=HULL, keywords=("VEHICLE",))
    drive = {"v-0": [(20, 10)]}
    refusal = refused(ELEVENTH, tank, Move("normal", "v", drive, movement=12), board([RUIN]))
    assert refusal.code == "move_too_far" and refusal.rule == "13.06"
    assert 'moved 20" of 12" (climbing 8" over terrain)' in refusal.message
    climbed = validate_move(board([RUIN]), ELEVENTH, tank, Move("normal", "v", drive, movement=20))
    assert climbed.moved["v-0"] == pytest.approx(20)
    assert refused(TENTH, tank, Move("normal", "v", drive, movement=20), board([RUIN])).code == (
        "impassable_terrain"
    )
    validate_move(board([LOW_WALL]), ELEVENTH, tank, Move("normal", "v", drive, movement=12))
    assert refused(
        TENTH, tank, Move("normal", "v", drive, movement=12), board([LOW_WALL])
    ).code == ("impassable_terrain")


def test_rotating_in_place_is_free_and_changes_the_facing():
    # 11e §03.01 Rotating a Model: rotation does not count towards the distance moved.
    tank = squad("v", 1, [(10, 10)], base={"shape": "hull", "length_mm": 120, "width_mm": 70})
    result = validate_move(
        board(), ELEVENTH, tank, Move("normal", "v", facings={"v-0": 90}, movement=6)
    )
    assert result.placements[0].facing_degrees == 90 and result.moved["v-0"] == 0


def test_eleventh_edition_pile_in_targets():
    # 11e §12.03: engaged units select every unit they are engaged with; others units within 5".
    unit = squad("a", 1, [(10, 10)])
    near, far = squad("n", 2, [(10, 16)]), squad("f", 2, [(18, 10)])
    toward_far = Move("pile_in", "a", {"a-0": [(12, 10)]}, targets=frozenset({"f"}))
    assert refused(ELEVENTH, unit + near + far, toward_far).code == "target_out_of_range"
    toward_near = Move("pile_in", "a", {"a-0": [(10, 13)]}, targets=frozenset({"n"}))
    validate_move(board(), ELEVENTH, unit + near + far, toward_near)
    engaged = squad("e", 2, [(10 + 2 * R32 + 1, 10)])
    other = Move("pile_in", "a", {"a-0": [(10, 12)]}, targets=frozenset({"n"}))
    assert refused(ELEVENTH, unit + near + engaged, other).code == "wrong_targets"


def test_tenth_edition_charges_cannot_pass_near_other_units():
    # 10e Charge Move: without moving within Engagement Range of units that are not targets.
    unit = squad("a", 1, [(10, 10)])
    target = squad("t", 2, [(18, 10)])
    bystander = squad("b", 2, [(14, 10 + 2 * R32 + 0.9)])
    contact = 18 - 2 * R32
    charge = Move("charge", "a", {"a-0": [(contact, 10)]}, bonus=9, targets=frozenset({"t"}))
    assert refused(TENTH, unit + target + bystander, charge).code == "moved_within_engagement_range"
    validate_move(board(), ELEVENTH, unit + target + bystander, charge)


def test_eleventh_edition_scouts_start_wholly_within_their_deployment_zone():
    # 11e 24.32: eligible if wholly within its deployment zone; 10e Scouts: no such rule.
    zones = {1: [[0, 0], [44, 0], [44, 12], [0, 12]]}
    unit = squad("a", 1, [(10, 14)])
    move = Move("scout", "a", {"a-0": [(10, 18)]}, bonus=6)
    assert refused(ELEVENTH, unit, move, board(zones=zones)).code == "not_in_deployment_zone"
    validate_move(board(zones=zones), TENTH, unit, move)
