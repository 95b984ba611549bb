"""Objective markers: level of control, contested markers, held markers
(11e 14.02, 14.03; 10e Objective Markers; Sanctifying Ritual, seed 004 L24)."""

from rules.engine.core.events import Context
from rules.engine.core.state import copy_state
from rules.engine.sequence.objectives import levels_of_control, secure_objective, update_control
from tests.engine_world import deployed_game, end_phase, kill, place_unit

CENTRE = "o1"  # (30, 22)


def marker(state, marker_id=CENTRE):
    return next(m for m in state["objectives"] if m["id"] == marker_id)


def test_level_of_control_is_the_sum_of_oc_within_range():
    """14.02: add together the OC of the player's models within range of the objective."""
    state, _ = deployed_game("11e")
    place_unit(state, "p1-u2", 27.0, 21.0)  # five Grey Knights, OC 2 each
    place_unit(state, "p2-u1", 27.0, 24.0)  # ten Cadians, OC 2 each, in two rows
    levels = levels_of_control(state, marker(state))
    assert levels[1] == 10
    # the first row and three models of the second are within 3" (plus the marker's radius)
    assert levels[2] == 16


def test_the_higher_level_controls_and_a_tie_is_contested():
    """14.02: highest level controls; equal levels: controlled by neither player."""
    state, _ = deployed_game("11e")
    kill(state, "p2-u1", 5)
    place_unit(state, "p1-u2", 27.0, 21.0)
    place_unit(state, "p2-u1", 27.0, 24.0)
    state, _ = end_phase(state)
    assert marker(state)["controller"] is None
    kill(state, "p2-u1", 1)
    state, events = end_phase(state)
    assert marker(state)["controller"] == 1
    change = next(e for e in events if e["type"] == "objective_control_changed")
    assert change["boundary"] == "phase_end" and change["levels"] == {"1": 10, "2": 8}


def test_control_is_determined_at_the_end_of_a_phase_not_during_it():
    state, _ = deployed_game("10e")
    state, _ = end_phase(state)
    place_unit(state, "p1-u2", 27.0, 21.0)
    assert marker(state)["controller"] is None
    state, _ = end_phase(state)
    assert marker(state)["controller"] == 1


def test_sanctifying_ritual_holds_the_marker_until_the_opponent_controls_it_at_a_turn_boundary():
    """Seed 004: at the end of your Command phase, a marker you control that this unit is within
    range of stays yours, with no models near it, until your opponent controls it at the start or
    end of a turn."""
    state, _ = deployed_game("10e")
    place_unit(state, "p1-u2", 27.0, 21.0)
    state, events = end_phase(state)  # end of player 1's Command phase
    assert marker(state)["controller"] == 1
    assert any(
        e["type"] == "effect_started" and e["effect"]["source"] == "Sanctifying Ritual"
        for e in events
    )
    place_unit(state, "p1-u2", 27.0, 10.0)  # the Strike Squad walks away
    state, _ = end_phase(state)
    assert marker(state)["controller"] == 1
    place_unit(state, "p2-u2", 27.0, 21.0)  # the Cadians move onto it
    state, _ = end_phase(state)  # end of a phase: still held
    assert marker(state)["controller"] == 1
    while state["phase"] is not None and state["active_player"] == 1:
        state, _ = end_phase(state)
    # the turn ended with player 2 in control: released
    assert marker(state)["controller"] == 2


def test_11e_a_secured_objective_stays_yours_until_the_opponent_has_more_at_a_phase_end():
    """14.03: secured: controlled even with no units near it, until the opponent's level of
    control is greater than yours at the end of a phase (a tie keeps it yours)."""
    state, _ = deployed_game("11e")
    state, _ = end_phase(state)  # to the Movement phase
    ctx = Context(copy_state(state))
    secure_objective(ctx, 1, CENTRE, "Get da Good Bitz")
    state = ctx.state
    kill(state, "p2-u1", 5)
    place_unit(state, "p2-u1", 27.0, 24.0)
    place_unit(state, "p1-u2", 27.0, 21.0)
    state, _ = end_phase(state)  # 10 against 10: still player 1's
    assert marker(state)["controller"] == 1
    kill(state, "p1-u2", 5)
    ctx = Context(copy_state(state))
    update_control(ctx, "turn_start")  # not a phase end: still held
    assert marker(ctx.state)["controller"] == 1
    state, _ = end_phase(state)
    assert marker(state)["controller"] == 2


def test_shock_troops_hold_a_marker_like_sanctifying_ritual():
    """Cadian Shock Troops, Shock Troops: the same words as Sanctifying Ritual."""
    state, _ = deployed_game("11e", first=2)
    kill(state, "p2-u1", 5)
    place_unit(state, "p2-u1", 27.0, 21.0)
    state, events = end_phase(state)  # end of player 2's Command phase
    assert marker(state)["controller"] == 2
    started = [e["effect"] for e in events if e["type"] == "effect_started"]
    assert [(e["source"], e["modifier"]["held_by"]) for e in started] == [("Shock Troops", 2)]
