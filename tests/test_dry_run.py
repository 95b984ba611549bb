"""The referee asked before the action is sent (issue 15): `dry_run` answers as `apply` would,
keeps nothing, and measures each moved model's cost the way the move is measured."""

from __future__ import annotations

import copy

from rules.engine.core.state import alive_models, canonical_json
from rules.engine.sequence.dry_run import dry_run
from rules.engine.sequence.game import new_game
from tests.engine_world import SEED, deployed_game, end_phase, formation, place_unit, play, setup

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


def test_positions_sent_to_a_decision_whose_options_are_a_list_get_the_engines_refusal():
    """A decision's options may be a list (Determine First Turn: `first`, `second`): the referee
    answers a dict choice to it with the engine's refusal (it once failed reading a `unit` from the
    list, found by the typed state)."""
    state, _ = new_game(setup("11e"), SEED)
    state, _ = play(
        state, *({"type": "declare_reserves", "player": p, "units": []} for p in (1, 2))
    )
    next_x = {1: 2.0, 2: 2.0}
    while state["stage"] == "deployment":
        player = state["awaiting"]
        unit = next(
            u
            for _, u in sorted(state["units"].items())
            if u["player"] == player and u["location"] == "unplaced"
        )
        x, next_x[player] = next_x[player], next_x[player] + 10
        state, _ = play(
            state,
            {
                "type": "deploy",
                "player": player,
                "unit": unit["id"],
                "positions": formation(unit, x, {1: 2.0, 2: 36.0}[player]),
            },
        )
    decision = state["pending"][-1]
    assert decision["kind"] == "choose_first_turn" and isinstance(decision["options"], list)
    answer = dry_run(
        state,
        {
            "type": "decide",
            "player": decision["player"],
            "decision": decision["id"],
            "choice": {"positions": {}},
        },
    )
    assert answer["accepted"] is False
    assert "costs" not in answer
