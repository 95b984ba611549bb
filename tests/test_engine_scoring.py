"""Primary victory points of the default mission (docs/missions.md) and the winner."""

from rules.engine.core.events import Context
from rules.engine.core.state import copy_state
from rules.engine.sequence.objectives import secure_objective
from tests.engine_world import deployed_game, end_phase, place_unit


def vp(state, player):
    return state["players"][str(player)]["vp"]


def test_primary_vp_are_scored_at_the_end_of_your_command_phase_from_the_second_round():
    """5VP per controlled marker at the end of your Command phase, from battle round 2."""
    state, _ = deployed_game("11e")
    place_unit(state, "p1-u2", 27.0, 21.0)  # the centre marker
    state, _ = end_phase(state)  # round 1: control, but no scoring yet
    assert state["objectives"][0]["controller"] == 1 and vp(state, 1) == 0
    while not (
        state["battle_round"] == 2 and state["phase"] == "command" and state["active_player"] == 1
    ):
        state, _ = end_phase(state)
    state, events = end_phase(state)
    scored = [e for e in events if e["type"] == "victory_points_scored"]
    assert [(e["player"], e["amount"]) for e in scored] == [(1, 5)]
    assert vp(state, 1) == 5


def test_at_most_15vp_a_turn_50_in_all_and_the_player_with_more_vp_wins():
    state, _ = deployed_game("11e")
    ctx = Context(copy_state(state))
    for marker in state["objectives"]:
        secure_objective(ctx, 1, marker["id"], "test")  # all five markers
    state = ctx.state
    amounts = []
    while state["stage"] != "ended":
        state, events = end_phase(state)
        amounts += [
            e["amount"] for e in events if e["type"] == "victory_points_scored" and e["player"] == 1
        ]
    assert amounts == [15, 15, 15, 5]
    assert (vp(state, 1), vp(state, 2)) == (50, 0)
    assert state["winner"] == 1
    assert state["revealed_seed"] == state["dice"]["seed"]
