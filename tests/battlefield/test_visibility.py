"""Scenario tests for visibility and cover (11e §06.01, §13.07-13.10, 24.24, 24.33; 10e)."""

import pytest

from rules.engine.battlefield.visibility import (
    benefit_of_cover,
    lone_operative_targetable,
    model_visible,
    unit_visibility,
)
from tests.battlefield.helpers import ELEVENTH, TENTH, board, line, squad

WALL = {"kind": "ruins", "polygon": [[20, 0], [24, 0], [24, 60], [20, 60]], "height": 5}
BLOCK = {"kind": "ruins", "polygon": [[20, 8], [24, 8], [24, 12], [20, 12]], "height": 5}
WOODS = {"kind": "woods", "polygon": [[20, 0], [24, 0], [24, 60], [20, 60]], "height": 5}
CRATER = {"kind": "crater", "polygon": [[28, 8], [34, 8], [34, 22], [28, 22]], "height": 0}


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_open_ground_everything_is_fully_visible(edition):
    # 11e §06.01 Model Fully Visible / Unit Fully Visible.
    shooters, targets = squad("a", 1, line(10, 10, 3)), squad("e", 2, line(30, 10, 3))
    sight = unit_visibility(board(), edition, shooters, targets)
    assert sight.unit_visible and sight.fully_visible.all()
    assert not benefit_of_cover(board(), edition, shooters[0], targets).applies


@pytest.mark.parametrize("edition", [ELEVENTH, TENTH])
def test_ruins_between_two_units_block_sight(edition):
    # 11e §13.10 obscuring terrain areas; 10e Ruins: no seeing through.
    shooters, targets = squad("a", 1, line(10, 10, 3)), squad("e", 2, line(30, 10, 3))
    assert not unit_visibility(board([WALL]), edition, shooters, targets).unit_visible


def test_a_model_within_the_obscuring_area_sees_and_is_seen():
    # 11e §13.10: excluding obscuring terrain areas that one or both models are within.
    inside = squad("a", 1, [(22, 10)])
    target = squad("e", 2, [(30, 10)])
    assert model_visible(board([WALL]), ELEVENTH, inside[0], target[0])


def test_partly_hidden_unit_is_visible_but_not_fully_and_gets_cover_per_edition():
    # 11e §13.08: every model must qualify; 10e: each model that qualifies has cover.
    shooter = squad("a", 1, [(10, 10)])
    targets = squad("e", 2, [(30, 10), (30, 16)])
    sight = unit_visibility(board([BLOCK]), ELEVENTH, shooter, targets)
    assert sight.unit_visible and not sight.unit_fully_visible_to("a-0")
    assert not sight.model_visible("a-0", "e-0")
    assert sight.model_fully_visible("a-0", "e-1")
    assert not benefit_of_cover(board([BLOCK]), ELEVENTH, shooter[0], targets).applies
    tenth = benefit_of_cover(board([BLOCK]), TENTH, shooter[0], targets)
    assert tenth.models == frozenset({"e-0"})


def test_tenth_edition_woods_do_not_block_but_give_cover():
    # 10e Woods: not a sight blocker; models seen through them are not fully visible.
    shooter, targets = squad("a", 1, [(10, 10)]), squad("e", 2, line(30, 10, 2))
    assert unit_visibility(board([WOODS]), TENTH, shooter, targets).unit_visible
    cover = benefit_of_cover(board([WOODS]), TENTH, shooter[0], targets)
    assert cover.models == {"e-0", "e-1"}
    assert cover.save_bonus("e-0", save=4, armour_penetration=0) == 1
    # Models with a Save of 3+ or better get no cover against AP 0.
    assert cover.save_bonus("e-0", save=3, armour_penetration=0) == 0
    assert cover.save_bonus("e-0", save=3, armour_penetration=-1) == 1


def test_eleventh_edition_woods_are_obscuring():
    # 11e §13.10: areas with a dense feature (woods, 13.05) are obscuring.
    shooter, targets = squad("a", 1, [(10, 10)]), squad("e", 2, line(30, 10, 2))
    assert not unit_visibility(board([WOODS]), ELEVENTH, shooter, targets).unit_visible


def test_infantry_within_a_terrain_area_have_cover_and_others_do_not():
    # 11e §13.08: INFANTRY/BEASTS/SWARM within a terrain area; the effect worsens BS by 1.
    shooter = squad("a", 1, [(10, 15)])
    infantry = squad("e", 2, line(31, 10, 3))
    cover = benefit_of_cover(board([CRATER]), ELEVENTH, shooter[0], infantry)
    assert cover.applies and cover.ballistic_skill_penalty() == 1
    vehicles = squad("v", 2, line(31, 10, 3), keywords=("VEHICLE",))
    assert not benefit_of_cover(board([CRATER]), ELEVENTH, shooter[0], vehicles).applies


def test_stealth_and_ignores_cover():
    # 11e 24.33 Stealth gives cover; [IGNORES COVER] takes it away.
    shooter, targets = squad("a", 1, [(10, 10)]), squad("e", 2, [(30, 10)])
    assert benefit_of_cover(board(), ELEVENTH, shooter[0], targets, stealth=True).applies
    crater = board([CRATER])
    assert not benefit_of_cover(crater, ELEVENTH, shooter[0], targets, ignores_cover=True).applies


def test_lone_operative_is_only_seen_within_twelve_inches():
    # 11e 24.24 / 10e Lone Operative.
    near, far = squad("a", 1, [(10, 10)]), squad("b", 1, [(10, 40)])
    operative = squad("o", 2, [(20, 10)])
    assert lone_operative_targetable(near[0], operative)
    assert not lone_operative_targetable(far[0], operative)
    sight = unit_visibility(board(), ELEVENTH, near + far, operative, lone_operative_range=12)
    assert sight.model_visible("a-0", "o-0") and not sight.model_visible("b-0", "o-0")


def test_hidden_models_in_dense_terrain_are_seen_only_within_fifteen_inches():
    # 11e §13.09 Hidden: detection range 15"; 10e has no such rule.
    ruin = {"kind": "ruins", "polygon": [[28, 8], [34, 8], [34, 12], [28, 12]], "height": 4}
    far, near = squad("a", 1, [(6, 10)]), squad("b", 1, [(20, 10)])
    hiding = squad("h", 2, [(30, 10)])
    sight = unit_visibility(
        board([ruin]), ELEVENTH, far + near, hiding, target_made_ranged_attacks=False
    )
    assert not sight.model_visible("a-0", "h-0") and sight.model_visible("b-0", "h-0")
    shot = unit_visibility(
        board([ruin]), ELEVENTH, far + near, hiding, target_made_ranged_attacks=True
    )
    assert shot.model_visible("a-0", "h-0")
    tenth = unit_visibility(
        board([ruin]), TENTH, far + near, hiding, target_made_ranged_attacks=False
    )
    assert tenth.model_visible("a-0", "h-0")


def test_gaps_narrower_than_the_one_millimetre_line_block_sight():
    # 11e §06.01: the line of sight is 1 mm wide.
    gap = 0.5 / 25.4
    upper = {
        "kind": "ruins",
        "polygon": [[20, 10 + gap / 2], [24, 10 + gap / 2], [24, 40], [20, 40]],
        "height": 5,
    }
    lower = {
        "kind": "ruins",
        "polygon": [[20, 0], [24, 0], [24, 10 - gap / 2], [20, 10 - gap / 2]],
        "height": 5,
    }
    shooter, target = squad("a", 1, [(10, 10)]), squad("e", 2, [(30, 10)])
    assert not model_visible(board([upper, lower]), ELEVENTH, shooter[0], target[0])


def test_a_hull_peeking_past_a_corner_is_visible_but_not_fully():
    # 11e §06.01: any part of the observed model; Model Fully Visible needs every facing part.
    hull = {"shape": "hull", "length_mm": 150, "width_mm": 90}
    shooter = squad("a", 1, [(10, 10)])
    tank = squad("v", 2, [(30, 12.5)], base=hull, keywords=("VEHICLE",))
    corner = {"kind": "ruins", "polygon": [[20, 11], [24, 11], [24, 30], [20, 30]], "height": 5}
    sight = unit_visibility(board([corner]), ELEVENTH, shooter, tank)
    assert sight.model_visible("a-0", "v-0") and not sight.model_fully_visible("a-0", "v-0")
    cover = benefit_of_cover(board([corner]), ELEVENTH, shooter[0], tank)
    assert cover.applies


def test_an_answer_is_remembered_for_the_same_models_and_asked_again_when_one_moves():
    # Visibility is a function of the placements: the same question is answered from memory
    # (the engine asks it in each stratagem window and again for the legal actions); a model
    # moved behind the wall makes a new question with its own answer.
    field = board([WALL])
    shooters, targets = squad("a", 1, line(10, 10, 3)), squad("e", 2, line(18, 10, 3))
    first = unit_visibility(field, ELEVENTH, shooters, targets)
    assert unit_visibility(field, ELEVENTH, list(shooters), list(targets)) is first
    assert first.unit_visible
    hidden = [target.moved_to(30, target.y) for target in targets]
    behind = unit_visibility(field, ELEVENTH, shooters, hidden)
    assert behind is not first and not behind.unit_visible
    assert unit_visibility(field, TENTH, shooters, targets) is not first


def test_after_one_model_moves_only_its_pairs_are_measured_again(monkeypatch):
    # Sight is remembered per pair of models: a unit that moves one model (or loses one) has
    # its other models' pairs answered from memory, so only the moved model's are measured.
    import numpy as np

    from rules.engine.battlefield import visibility

    field = board([BLOCK])
    shooters, targets = squad("p", 1, line(10, 40, 3)), squad("q", 2, line(30, 40, 4))
    first = unit_visibility(field, ELEVENTH, shooters, targets)
    measured: list[int] = []
    measure = visibility._measure_pairs

    def counted(*args, **kwargs):
        measured.append(len(args[4]))
        return measure(*args, **kwargs)

    monkeypatch.setattr(visibility, "_measure_pairs", counted)
    moved = [targets[0].moved_to(30, 10), *targets[1:]]
    again = unit_visibility(field, ELEVENTH, shooters, moved)
    assert measured == [3]  # the moved model against each of the three shooters
    assert again.model_visible("p-0", "q-1")
    assert np.array_equal(again.visible[:, 1:], first.visible[:, 1:])
    unit_visibility(field, ELEVENTH, shooters, moved[1:])
    assert measured == [3]  # a model removed: every pair left is known
