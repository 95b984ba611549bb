"""The referee asked before the action is sent (issue 15): `dry_run` answers as `apply` would,
keeps nothing, and measures each moved model's cost the way the move is measured."""

from __future__ import annotations

import copy

from rules.engine.core.state import alive_models, canonical_json
from rules.engine.sequence.dry_run import dry_run
from tests.engine_world import deployed_game, end_phase, place_unit

SQUAD = "p1-u2"  # a Strike Squad of 5, M 6"


def movement_phase():
    state, _ = deployed_game("11e")
    place_unit(state, SQUAD, 36.0, 19.0)  # open ground
    while state["phase"] != "movement":
        state, _ = end_phase(state)
    return state


def shifted(state, dy):
    return {
        m["id"]: [m["x"], m["y"] + dy, m["facing"]] for m in alive_models(state["units"][SQUAD])
    }


def test_a_legal_move_is_accepted_with_each_models_cost_and_nothing_changes():
    state = movement_phase()
    before = canonical_json(copy.deepcopy(state))
    answer = dry_run(
        state, {"type": "move", "player": 1, "unit": SQUAD, "positions": shifted(state, 4.0)}
    )
    assert answer["accepted"] is True
    assert set(answer["costs"].values()) == {4.0}
    assert canonical_json(state) == before


def test_a_move_too_far_comes_back_as_the_engines_refusal_with_its_cost():
    state = movement_phase()
    answer = dry_run(
        state, {"type": "move", "player": 1, "unit": SQUAD, "positions": shifted(state, 6.5)}
    )
    assert answer["accepted"] is False
    assert (answer["code"], answer["rule"]) == ("move_too_far", "09.05")
    assert answer["message"].startswith("Strike Squad B: ")
    assert max(answer["costs"].values()) == 6.5


def test_an_action_that_is_no_move_has_no_costs():
    state = movement_phase()
    answer = dry_run(state, {"type": "remain_stationary", "player": 1, "unit": SQUAD})
    assert answer == {"accepted": True}
