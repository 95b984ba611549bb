"""The battle sequence, phases and pending decisions (11e 07, 07.02; 10e Battle Sequence)."""

import pytest

from rules.engine.core.facts import unit_flags
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import PHASES, state_hash
from rules.engine.sequence.game import apply, legal_actions, new_game
from tests.engine_world import (
    BUNDLE,
    SEED,
    decide,
    deployed_game,
    event_types,
    formation,
    play,
    setup,
)


def end_phase(state):
    return play(state, {"type": "end_phase", "player": state["active_player"]})


def run_to_end(state):
    """Every player ends every phase at once: no unit is owed a fight, so the battle runs out."""
    events = []
    while state["stage"] != "ended":
        state, more = end_phase(state)
        events += more
    return state, events


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_five_battle_rounds_of_two_turns_of_five_phases_in_order(edition):
    """07.02: each turn is the Command, Movement, Shooting, Charge and Fight phases, in order;
    the same player takes the first turn of every battle round."""
    state, events = deployed_game(edition, first=2)
    state, more = run_to_end(state)
    events += more
    turns = [(e["battle_round"], e["player"]) for e in events if e["type"] == "turn_started"]
    assert turns == [(r, p) for r in range(1, 6) for p in (2, 1)]
    phases = [e["phase"] for e in events if e["type"] == "phase_started"]
    assert phases == list(PHASES) * 10
    assert state["stage"] == "ended" and state["battle_round"] == 5
    assert event_types(events)[-1] == "battle_ended"


def test_a_unit_cannot_act_twice_in_a_phase():
    """A unit is selected once per phase: a second move in the same Movement phase is refused."""
    state, _ = deployed_game("11e")
    state, _ = end_phase(state)  # to the Movement phase
    unit = state["units"]["p1-u2"]
    state, _ = play(
        state,
        {"type": "move", "player": 1, "unit": "p1-u2", "positions": formation(unit, 14.0, 5.0)},
    )
    with pytest.raises(Refusal) as refusal:
        play(state, {"type": "remain_stationary", "player": 1, "unit": "p1-u2"})
    assert refusal.value.code == "already_acted"
    actions = legal_actions(state, 1)
    assert not [a for a in actions if a.get("unit") == "p1-u2"]


def test_a_unit_that_advanced_cannot_declare_a_charge_and_flags_clear_at_end_of_turn():
    """09.06: until the end of the turn an advanced unit cannot declare a charge."""
    state, _ = deployed_game("11e")
    state, _ = end_phase(state)
    state, _ = play(state, {"type": "advance", "player": 1, "unit": "p1-u2"})
    assert state["pending"][-1]["kind"] == "advance_move"
    unit = state["units"]["p1-u2"]
    state, _ = decide(state, formation(unit, 14.0, 7.0))
    assert unit_flags(state, "p1-u2") == {"advanced", "moved"}
    state, _ = end_phase(state)  # shooting
    state, _ = end_phase(state)  # charge
    assert not [a for a in legal_actions(state, 1) if a.get("unit") == "p1-u2"]
    state, _ = end_phase(state)  # fight
    state, _ = end_phase(state)  # turn ends
    assert state["active_player"] == 2 and state["facts"]["turn"] == {}


def test_only_the_top_decision_accepts_input_and_a_stale_answer_is_refused():
    state, _ = new_game(setup("11e"), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    while state["stage"] == "deployment":
        player = state["awaiting"]
        unit = next(
            u
            for _, u in sorted(state["units"].items())
            if u["player"] == player and u["location"] == "unplaced"
        )
        y = 2.0 if player == 1 else 36.0
        x = 2.0 + 10 * int(unit["id"][-1])
        state, _ = play(
            state,
            {
                "type": "deploy",
                "player": player,
                "unit": unit["id"],
                "positions": formation(unit, x, y),
            },
        )
    decision = state["pending"][-1]
    assert decision["kind"] == "choose_first_turn"
    with pytest.raises(Refusal) as stale:
        apply(
            state,
            {"type": "decide", "player": decision["player"], "decision": "d999", "choice": "first"},
        )
    assert stale.value.code == "stale_decision"
    with pytest.raises(Refusal) as waiting:
        apply(state, {"type": "end_phase", "player": 1})
    assert waiting.value.code == "decision_pending"


def test_deployment_is_wholly_within_your_deployment_zone():
    """Deploy Armies: every model wholly within its player's deployment zone."""
    state, _ = new_game(setup("10e"), SEED)
    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    player = state["awaiting"]
    unit = next(u for u in state["units"].values() if u["player"] == player)
    before = state_hash(state)
    with pytest.raises(Refusal) as refusal:
        apply(
            state,
            {
                "type": "deploy",
                "player": player,
                "unit": unit["id"],
                "positions": formation(unit, 20.0, 20.0),
            },
        )
    assert refusal.value.code == "outside_deployment_zone"
    assert state_hash(state) == before


def test_strategic_reserves_are_limited_by_points():
    """The limit itself, per edition: tests/test_rules_as_printed.py (rulings R-ENG-07)."""
    state, _ = new_game(
        setup("10e", mission={**BUNDLE["missions"][0], "battle_size": "incursion"}), SEED
    )
    with pytest.raises(Refusal) as refusal:
        apply(state, {"type": "declare_reserves", "player": 1, "units": ["p1-u1", "p1-u2"]})
    assert refusal.value.code == "too_many_reserves"


def test_strategic_reserves_arrive_from_the_second_battle_round_away_from_the_enemy():
    """20.03: from battle round 2, within 6" of an edge, more than 8" (9") from enemy models."""
    state, _ = deployed_game("11e", reserves={1: ["p1-u2"]})
    state, _ = end_phase(state)
    assert not [a for a in legal_actions(state, 1) if a["type"] == "arrive"]
    while not (
        state["battle_round"] == 2 and state["phase"] == "movement" and state["active_player"] == 1
    ):
        state, _ = end_phase(state)
    unit = state["units"]["p1-u2"]
    with pytest.raises(Refusal) as refusal:
        apply(
            state,
            {
                "type": "arrive",
                "player": 1,
                "unit": "p1-u2",
                "positions": formation(unit, 20.0, 20.0),
            },
        )
    assert refusal.value.code == "not_near_edge"
    state, events = play(
        state,
        {"type": "arrive", "player": 1, "unit": "p1-u2", "positions": formation(unit, 40.0, 1.0)},
    )
    assert state["units"]["p1-u2"]["location"] == "battlefield"
    assert "p1-u2" in state["facts"]["turn"]["arrived_from_reserves"]
