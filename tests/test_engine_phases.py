"""Shooting, Charge and Fight phases: who may be selected, and in which order
(11e 10, 11, 12; 10e Shooting, Charge and Fight phases)."""

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.phases.fight import current_step, selecting_player
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import (
    decide,
    deployed_game,
    end_phase,
    formation,
    kill,
    place_unit,
    play,
    script_dice,
)

SQUAD = "p1-u2"


def to_phase(state, phase):
    while state["phase"] != phase:
        state, _ = end_phase(state)
    return state


@pytest.mark.parametrize(("edition", "may_shoot"), [("11e", False), ("10e", False)])
def test_a_unit_that_advanced_without_assault_weapons_may_not_shoot(edition, may_shoot):
    """11e 10.04-10.05: after an advance only assault shooting, with [ASSAULT] weapons; 10e
    Assault. The Strike Squad's storm bolters have no [ASSAULT] (rulings R-CB-03)."""
    state, _ = deployed_game(edition)
    place_unit(state, "p2-u1", 12.0, 24.0)  # within 24" of the Strike Squad
    state, _ = end_phase(state)
    state, _ = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    state, _ = decide(state, formation(state["units"][SQUAD], 12.0, 4.0))
    state = to_phase(state, "shooting")
    shooters = {a["unit"] for a in legal_actions(state, 1) if a["type"] == "shoot"}
    assert (SQUAD in shooters) is may_shoot


def test_a_unit_cannot_shoot_at_a_target_out_of_range():
    state, _ = deployed_game("11e")
    state = to_phase(state, "shooting")
    action = {
        "type": "shoot",
        "player": 1,
        "unit": SQUAD,
        "assignments": [{"weapon": "Storm bolter", "target": "p2-u1"}],
    }
    with pytest.raises(Refusal) as refusal:
        apply(state, action)
    assert refusal.value.code == "out_of_range"


def settle(state):
    """Decline 10e consolidation decisions and pass 11e pile-in/consolidation steps."""
    while True:
        if state["pending"] and state["pending"][-1]["kind"] == "consolidate_move":
            state, _ = decide(state, None)
            continue
        step, player = current_step(state)
        if step not in ("pile_in", "consolidate"):
            return state
        state, _ = play(state, {"type": "end_step", "player": player})


def charged(edition):
    """The Strike Squad charges the Cadians 5" away with a charge roll of 12, ending in base
    contact (32 mm and 25 mm bases), as 10e requires where possible."""
    state, _ = deployed_game(edition)
    place_unit(state, SQUAD, 20.0, 10.0)
    place_unit(state, "p2-u1", 20.0, 16.0)
    state = to_phase(state, "charge")
    script_dice(state, [6, 6])
    state, events = play(
        state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": ["p2-u1"]}
    )
    assert state["pending"][-1]["kind"] == "charge_move"
    contact = 16.0 - (32 + 25) / 2 / 25.4
    state, _ = decide(state, formation(state["units"][SQUAD], 20.0, contact))
    assert SQUAD in state["facts"]["turn"]["charged"]
    return state


def test_a_failed_charge_roll_moves_nothing():
    """11: if the roll cannot bring the unit within engagement range of its targets, it fails."""
    state, _ = deployed_game("10e")
    place_unit(state, SQUAD, 20.0, 10.0)
    place_unit(state, "p2-u1", 20.0, 20.0)
    state = to_phase(state, "charge")
    script_dice(state, [1, 2])
    state, events = play(
        state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": ["p2-u1"]}
    )
    assert [e["type"] for e in events][-1] == "charge_failed"
    assert state["pending"] == []


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_chargers_fight_first_then_the_other_player_and_no_unit_fights_twice(edition):
    state = to_phase(charged(edition), "fight")
    kill(state, SQUAD, 4)  # one Grey Knight left: the Cadians survive its attacks
    if edition == "11e":  # 12.02: the Pile In step comes first, the active player first
        assert current_step(state) == ("pile_in", 1)
    state = settle(state)
    assert selecting_player(state) == 1
    with pytest.raises(Refusal) as refusal:
        apply(state, {"type": "end_phase", "player": 1})
    # 11e 12.04 Fight: every eligible unit is selected to fight (10e cites its heading).
    assert (refusal.value.code, refusal.value.rule) == (
        "fights_remaining",
        "12.04" if edition == "11e" else "Fight Phase",
    )
    state, _ = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    state = settle(state)
    assert selecting_player(state) == 2
    with pytest.raises(Refusal):
        apply(state, {"type": "fight", "player": 1, "unit": SQUAD})
    state, _ = play(state, {"type": "fight", "player": 2, "unit": "p2-u1"})
    state = settle(state)
    assert selecting_player(state) is None
    state, _ = end_phase(state)
    assert state["active_player"] == 2 and state["phase"] == "command"


def test_a_unit_that_charged_is_engaged_and_can_only_fall_back_next_turn():
    state = to_phase(charged("11e"), "fight")
    kill(state, SQUAD, 4)
    state = settle(state)
    state, _ = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    state = settle(state)
    state, _ = play(state, {"type": "fight", "player": 2, "unit": "p2-u1"})
    state = settle(state)
    state, _ = end_phase(state)
    state = to_phase(state, "movement")
    kinds = {a["type"] for a in legal_actions(state, 2) if a.get("unit") == "p2-u1"}
    assert kinds == {"fall_back", "remain_stationary"}
