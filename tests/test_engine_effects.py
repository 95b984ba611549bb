"""Persisting effects (01.02.02): data with a duration, expiring by themselves at boundaries;
characteristics are recomputed from the datasheet value and the active effects."""

from rules.engine.core.effects import add_effect, characteristic
from rules.engine.core.events import Context
from rules.engine.core.state import copy_state
from rules.engine.sequence.game import legal_actions
from tests.engine_world import deployed_game, end_phase, formation, play

SQUAD = "p1-u2"


def with_effect(state, modifier, duration, player=1, unit=SQUAD):
    ctx = Context(copy_state(state))
    add_effect(ctx, "test rule", {"unit": unit}, modifier, duration, player)
    return ctx.state


def oc(state, unit=SQUAD):
    model = state["units"][unit]["models"][0]
    return characteristic(state, unit, model, "OC")


def test_until_the_end_of_the_phase():
    state, _ = deployed_game("11e")
    state = with_effect(state, {"characteristic": "OC", "add": 1}, "end_of_phase")
    assert oc(state) == 3
    state, events = end_phase(state)
    assert oc(state) == 2 and state["effects"] == []
    assert [e["reason"] for e in events if e["type"] == "effect_ended"] == ["end_of_phase"]


def test_until_the_end_of_the_turn_survives_the_phases_of_that_turn():
    state, _ = deployed_game("10e")
    state = with_effect(state, {"characteristic": "OC", "set": 0}, "end_of_turn")
    for _ in range(4):
        state, _ = end_phase(state)
        assert oc(state) == 0
    state, _ = end_phase(state)
    assert oc(state) == 2


def test_until_the_start_of_your_next_command_phase_is_yours_not_your_opponents():
    state, _ = deployed_game("11e")
    state = with_effect(state, {"characteristic": "Ld", "add": -1}, "start_of_next_command_phase")
    model = state["units"][SQUAD]["models"][0]
    for _ in range(5):  # through player 2's Command phase: still there
        state, _ = end_phase(state)
    assert state["active_player"] == 2
    assert characteristic(state, SQUAD, model, "Ld") == 5
    for _ in range(5):
        state, _ = end_phase(state)
    assert state["active_player"] == 1 and state["phase"] == "command"
    assert characteristic(state, SQUAD, model, "Ld") == 6


def test_modifiers_apply_in_the_order_they_were_created():
    state, _ = deployed_game("11e")
    state = with_effect(state, {"characteristic": "OC", "set": 0}, "end_of_turn")
    state = with_effect(state, {"characteristic": "OC", "add": 1}, "end_of_phase")
    assert oc(state) == 1
    state, _ = end_phase(state)
    assert oc(state) == 0


def test_a_persisting_effect_follows_a_unit_into_strategic_reserves():
    """01.02.02: noted when the unit leaves the battlefield; applies for its full duration."""
    state, _ = deployed_game("11e", reserves={1: [SQUAD]})
    assert state["units"][SQUAD]["location"] == "strategic_reserves"
    state = with_effect(state, {"characteristic": "OC", "add": 1}, "end_of_battle_round")
    for _ in range(9):
        state, _ = end_phase(state)
        assert oc(state) == 3
    state, _ = end_phase(state)  # the battle round ends
    assert state["battle_round"] == 2 and oc(state) == 2


def test_a_move_bonus_is_read_through_the_effects():
    """Characteristics are recomputed: M +3" (e.g. the Move! Move! Move! order) lets a 6" unit
    move 9" until the effect ends."""
    state, _ = deployed_game("11e")
    state, _ = end_phase(state)  # Movement phase
    state = with_effect(state, {"characteristic": "M", "add": 3}, "end_of_phase")
    move = next(a for a in legal_actions(state, 1) if a["type"] == "move" and a["unit"] == SQUAD)
    assert move["max_distance"] == 9
    state, _ = play(
        state,
        {
            "type": "move",
            "player": 1,
            "unit": SQUAD,
            "positions": formation(state["units"][SQUAD], 12.0, 10.5),
        },
    )
