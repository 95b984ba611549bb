"""Every move the engine accepts goes through the battlefield: scenario tests through `apply`
(11e 03, 09, 11, 20, 24; 10e Movement, Charge phase, Strategic Reserves, Deep Strike, Scouts).

Default positions (tests/engine_world.py): player 1's units stand in rows of five from (2, 2)
and (12, 2), player 2's Cadians from (2, 36) and (12, 36). Strike Squad models have 32 mm bases
(radius 0.63") and M 6"; Cadians 25 mm (radius 0.49") and M 6".
"""

import pytest

from rules.engine.army.names import model_label
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import (
    decide,
    deployed_game,
    end_phase,
    place_unit,
    play,
    script_dice,
)

SQUAD = "p1-u2"  # a Strike Squad of 5
CADIANS = "p2-u1"
OTHER_CADIANS = "p2-u2"
CONTACT = (32 + 25) / 2 / 25.4  # centre distance of a Strike Squad and a Cadian in base contact


def to_phase(state, phase, player=1):
    while not (state["phase"] == phase and state["active_player"] == player):
        state, _ = end_phase(state)
    return state


def movement_phase(edition, **places):
    state, _ = deployed_game(edition)
    for unit_id, (x, y) in places.items():
        place_unit(state, unit_id, x, y)
    return to_phase(state, "movement")


def shifted(state, unit_id, dx, dy):
    return {
        m["id"]: [m["x"] + dx, m["y"] + dy, m["facing"]]
        for m in alive_models(state["units"][unit_id])
    }


def refused(state, action):
    with pytest.raises(Refusal) as refusal:
        apply(state, action)
    return refusal.value


def move(unit, positions):
    return {"type": "move", "player": 1, "unit": unit, "positions": positions}


# --- normal moves (11e 09.05; 10e Normal Moves) -------------------------------------------

START = (36.0, 19.0)  # open ground: no terrain within 6" ahead


@pytest.mark.parametrize(("edition", "rule"), [("11e", "09.05"), ("10e", "Normal Moves")])
def test_a_normal_move_is_measured_per_model_and_names_the_model_and_numbers(edition, rule):
    state = movement_phase(edition, **{SQUAD: START})
    refusal = refused(state, move(SQUAD, shifted(state, SQUAD, 0.0, 6.5)))
    assert (refusal.code, refusal.rule) == ("move_too_far", rule)
    assert refusal.message == f'{model_label(state, "p1-u2-m1")} moved 6.5" of 6"'
    assert refusal.message.startswith(f"{state['units']['p1-u2']['name']}: ")
    state, events = play(state, move(SQUAD, shifted(state, SQUAD, 0.0, 6.0)))
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert moved["positions"]["p1-u2-m1"][:2] == [36.0, 25.0]
    assert SQUAD in state["facts"]["turn"]["moved"]


def test_a_move_can_follow_a_path_of_straight_lines():
    """03.01: a model moves in straight lines; the distance is the length of its path."""
    state = movement_phase("11e", **{SQUAD: START})
    around = {
        m["id"]: {"path": [[m["x"] + 3.0, m["y"]], [m["x"] + 3.0, m["y"] + 3.5]], "facing": 90.0}
        for m in alive_models(state["units"][SQUAD])
    }
    assert refused(state, move(SQUAD, around)).code == "move_too_far"  # 3" + 3.5" of 6"
    for value in around.values():
        value["path"][1][1] -= 0.5
    state, _ = play(state, move(SQUAD, around))
    assert {(m["y"], m["facing"]) for m in alive_models(state["units"][SQUAD])} == {(22.0, 90.0)}


def test_a_move_cannot_end_out_of_coherency():
    """03.03: every model within 2" of another model of its unit."""
    state = movement_phase("11e", **{SQUAD: START})
    positions = shifted(state, SQUAD, 0.0, 2.0)
    positions["p1-u2-m5"][1] += 3.0
    refusal = refused(state, move(SQUAD, positions))
    assert (refusal.code, refusal.rule) == ("not_in_coherency", "03.03")


def test_a_move_cannot_go_through_an_enemy_model():
    """03.01: a base cannot be moved through enemy models."""
    state = movement_phase("11e", **{SQUAD: START, CADIANS: (36.0, 23.5)})
    refusal = refused(state, move(SQUAD, shifted(state, SQUAD, 0.0, 6.0)))
    assert (refusal.code, refusal.rule) == ("through_enemy_model", "03.01")


def test_a_move_cannot_leave_the_battlefield():
    state = movement_phase("11e", **{SQUAD: (30.0, 3.0)})
    refusal = refused(state, move(SQUAD, shifted(state, SQUAD, 0.0, -2.8)))
    assert (refusal.code, refusal.rule) == ("off_battlefield", "03.01")


@pytest.mark.parametrize(("edition", "accepted"), [("11e", True), ("10e", False)])
def test_10e_normal_moves_never_come_within_engagement_range_11e_may_pass_by(edition, accepted):
    """DIFF-03 / AMB-11: 10e Normal Moves: models cannot be moved within Engagement Range of enemy
    models; 11e 09.05 only needs the unit to end unengaged."""
    state = movement_phase(edition, **{SQUAD: START, CADIANS: (44.0, 23.0)})
    # The squad passes 0.13" (edge to edge) from the Cadian sergeant's base and moves on.
    path = {
        m["id"]: {"path": [[m["x"] + 1.0, m["y"] + 2.9], [m["x"] - 1.5, m["y"] + 3.2]], "facing": 0}
        for m in alive_models(state["units"][SQUAD])
    }
    if accepted:
        state, _ = play(state, move(SQUAD, path))
    else:
        refusal = refused(state, move(SQUAD, path))
        assert (refusal.code, refusal.rule) == ("moved_within_engagement_range", "Normal Moves")


def test_a_move_cannot_end_engaged():
    """09.05: the unit must end its move unengaged."""
    state = movement_phase("11e", **{SQUAD: START, CADIANS: (36.0, 27.0)})
    refusal = refused(state, move(SQUAD, shifted(state, SQUAD, 0.0, 5.5)))
    assert (refusal.code, refusal.rule) == ("ends_engaged", "03.04")


def test_an_engaged_unit_cannot_make_a_normal_move():
    state = movement_phase("11e", **{SQUAD: START, CADIANS: (36.0, 19.0 + CONTACT + 0.5)})
    refusal = refused(state, move(SQUAD, shifted(state, SQUAD, 0.0, -3.0)))
    assert (refusal.code, refusal.rule) == ("engaged", "09.05")


# --- advance (09.06; 10e Advance Moves) -------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_an_advance_adds_the_recorded_advance_roll_to_the_maximum_distance(edition):
    state = movement_phase(edition, **{SQUAD: (36.0, 19.0)})
    script_dice(state, [3])
    state, events = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert (rolled["purpose"], rolled["values"]) == ("advance", [3])
    assert state["pending"][-1]["options"]["max_distance"] == 9
    top = state["pending"][-1]
    with pytest.raises(Refusal) as refusal:
        decide(state, shifted(state, SQUAD, 0.0, 9.2))
    assert refusal.value.message == f'{model_label(state, "p1-u2-m1")} moved 9.2" of 9"'
    assert state["pending"][-1] == top
    state, _ = decide(state, shifted(state, SQUAD, 0.0, 9.0))
    assert SQUAD in state["facts"]["turn"]["advanced"]


# --- falling back (09.07; 10e Fall Back Moves, Desperate Escape) -------------------------


def engaged(edition):
    """The squad in a row from (36, 20); the Cadians 0.5" in front of its left-hand model only
    (their columns run from x 29.6 to 36)."""
    return movement_phase(edition, **{SQUAD: (36.0, 20.0), CADIANS: (29.6, 20.0 + CONTACT + 0.5)})


def fall_back(state):
    return play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})


def sidestep(state):
    """Everyone 4.5" to the right; the first model brushes through the Cadian in front of it."""
    positions = shifted(state, SQUAD, 4.5, 0.0)
    positions["p1-u2-m1"] = {"path": [[36.0, 20.6], [40.5, 20.0]], "facing": 0.0}
    return positions


def test_11e_an_ordered_retreat_cannot_pass_through_enemy_models():
    state = engaged("11e")
    state, _ = fall_back(state)
    state, _ = decide(state, "ordered_retreat")
    with pytest.raises(Refusal) as refusal:
        decide(state, sidestep(state))
    assert (refusal.value.code, refusal.value.rule) == ("through_enemy_model", "03.01")
    state, _ = decide(state, shifted(state, SQUAD, 4.5, 0.0))
    assert SQUAD in state["facts"]["turn"]["fell_back"]


def test_11e_a_desperate_escape_may_pass_through_enemy_models():
    """09.07 Desperate Escape: a hazard roll per model, a battle-shock roll, then the unit may
    move through enemy models."""
    state = engaged("11e")
    state, _ = fall_back(state)
    script_dice(state, [6, 6, 6, 6, 6])
    state, _ = decide(state, "desperate_escape")
    assert state["pending"][-1]["kind"] == "fall_back_move"
    state, _ = decide(state, sidestep(state))
    assert SQUAD in state["facts"]["turn"]["fell_back"]
    assert alive_models(state["units"][SQUAD])[0]["x"] == 40.5


def test_10e_only_models_moving_over_enemy_models_take_desperate_escape_tests():
    """10e Desperate Escape Tests: one test per model that will move over enemy models (the unit
    is not battle-shocked); each 1-2 destroys one model of your choice; the survivors move."""
    state = engaged("10e")
    state, _ = fall_back(state)
    assert state["pending"][-1]["kind"] == "fall_back_move"
    script_dice(state, [1])
    state, events = decide(state, sidestep(state))
    tests = [e for e in events if e["type"] == "dice_rolled"]
    assert [(e["purpose"], e["values"]) for e in tests] == [("desperate_escape", [1])]
    assert state["pending"][-1]["kind"] == "choose_model_destroyed"
    state, events = decide(state, "p1-u2-m5")
    assert [e["model"] for e in events if e["type"] == "model_destroyed"] == ["p1-u2-m5"]
    assert [m["x"] for m in alive_models(state["units"][SQUAD])] == [40.5, 42.1, 43.7, 45.3]
    assert SQUAD in state["facts"]["turn"]["fell_back"]


def test_10e_a_fall_back_that_goes_around_the_enemy_takes_no_test():
    state = engaged("10e")
    state, _ = fall_back(state)
    state, events = decide(state, shifted(state, SQUAD, 4.5, 0.0))
    assert not [e for e in events if e["type"] == "dice_rolled"]
    assert len(alive_models(state["units"][SQUAD])) == 5


def test_a_fall_back_that_cannot_be_made_leaves_the_unit_where_it_is():
    """Ruling R-MV-03: `null` answers the fall-back move; the unit stays and has fallen back."""
    state = engaged("10e")
    state, _ = fall_back(state)
    state, events = decide(state, None)
    assert "fall_back_move_abandoned" in [e["type"] for e in events]
    assert SQUAD in state["facts"]["turn"]["fell_back"]
    assert alive_models(state["units"][SQUAD])[0]["x"] == 36.0


# --- what the browser is offered -----------------------------------------------------------


def test_legal_actions_give_each_unit_its_move_types_and_maximum_distances():
    state = movement_phase("11e", **{SQUAD: START, CADIANS: (36.0, 19.0 + CONTACT + 0.5)})
    offered = {(a["type"], a.get("unit")): a for a in legal_actions(state, 1)}
    assert offered[("fall_back", SQUAD)]["max_distance"] == 6
    assert ("move", SQUAD) not in offered and ("advance", SQUAD) not in offered
    free = "p1-u1"
    assert offered[("move", free)]["max_distance"] == 6
    assert offered[("move", free)]["positions"] == "required"
    assert (offered[("advance", free)]["max_distance"], offered[("advance", free)]["bonus"]) == (
        6,
        "D6",
    )
    assert ("remain_stationary", free) in offered
