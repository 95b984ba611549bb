"""Command points (11e 08.02, 15; 10e Command phase step 1, Command Points)."""

import pytest

from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import copy_state, state_hash
from rules.engine.phases.command_points import (
    command_points,
    gain_command_points,
    spend_command_points,
)
from rules.engine.sequence.game import apply
from tests.engine_world import deployed_game, play


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_both_players_gain_one_cp_at_the_start_of_every_command_phase(edition):
    """08.02 Gain Core CP: both players gain 1CP in each Command phase, whoever's turn it is."""
    state, events = deployed_game(edition)
    gains = [e for e in events if e["type"] == "command_points_gained"]
    assert [(g["player"], g["amount"]) for g in gains] == [(1, 1), (2, 1)]
    assert command_points(state, 1) == command_points(state, 2) == 1
    for _ in range(5):  # to player 2's Command phase
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
    assert state["phase"] == "command" and state["active_player"] == 2
    assert command_points(state, 1) == command_points(state, 2) == 2


def test_spending_more_cp_than_you_have_is_refused_and_cp_never_go_below_zero():
    state, _ = deployed_game("11e")
    ctx = Context(copy_state(state))
    spend_command_points(ctx, 1, 1, "Insane Bravery")
    assert command_points(ctx.state, 1) == 0
    with pytest.raises(Refusal) as refusal:
        spend_command_points(ctx, 1, 1, "Insane Bravery")
    assert refusal.value.code == "not_enough_command_points"
    assert command_points(ctx.state, 1) == 0


def test_11e_keeps_every_cp_gained_through_rules():
    """11e 08.02 prints the Core CP and no limit on other gains (rulings R-CP-01)."""
    state, _ = deployed_game("11e")
    ctx = Context(copy_state(state))
    assert gain_command_points(ctx, 1, 1, "Power of the Rosette") == 1
    assert gain_command_points(ctx, 1, 1, "Power of the Rosette") == 1
    assert gain_command_points(ctx, 2, 2, "Vox-caster") == 2
    assert command_points(ctx.state, 1) == 3 and command_points(ctx.state, 2) == 3


def test_10e_caps_extra_cp_at_one_per_battle_round():
    """10e Command Points: outside the Command phase a player gains at most 1CP per battle
    round."""
    state, _ = deployed_game("10e")
    ctx = Context(copy_state(state))
    assert gain_command_points(ctx, 1, 1, "Power of the Rosette") == 1
    assert gain_command_points(ctx, 1, 1, "Power of the Rosette") == 0
    assert gain_command_points(ctx, 2, 2, "Vox-caster") == 1
    assert command_points(ctx.state, 1) == 2 and command_points(ctx.state, 2) == 2
    ctx.state["facts"]["battle_round"] = {}  # a new battle round starts
    assert gain_command_points(ctx, 1, 1, "Power of the Rosette") == 1


def test_the_cap_resets_when_a_new_battle_round_starts():
    state, _ = deployed_game("10e")
    ctx = Context(copy_state(state))
    gain_command_points(ctx, 1, 1, "Power of the Rosette")
    state = ctx.state
    while state["battle_round"] == 1:
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
    assert state["facts"]["battle_round"] == {}
    before = state_hash(state)
    with pytest.raises(Refusal):
        apply(state, {"type": "end_phase", "player": 2})
    assert state_hash(state) == before
