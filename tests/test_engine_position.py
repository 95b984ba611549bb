"""The position set-up (`rules.engine.sequence.position.new_position`) and the scripted dice of
scenario tests (`tests/scripted_dice.py`): docs/engine.md "Position set-up"."""

from __future__ import annotations

import pytest

from rules.engine.core.facts import unit_flags
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.phases.battle_shock import is_battle_shocked
from rules.engine.sequence.game import legal_actions
from rules.engine.sequence.position import new_position
from tests.engine_world import SEED, play, setup
from tests.position_world import CADIANS, CADIANS_2, LED_SQUAD, SQUAD, position_game
from tests.scripted_dice import DiceScriptError, scripted_dice
from tests.stratagem_world import pass_windows

EVERY_UNIT = {LED_SQUAD: {"at": [6, 6]}, SQUAD: {"at": [40, 6]}}


@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_a_position_sets_round_phase_player_points_units_wounds_and_statuses(edition):
    state = position_game(
        edition,
        {
            LED_SQUAD: {"at": [30, 12]},
            SQUAD: {"at": [40, 20], "flags": ["advanced"], "wounds_left": {"p1-u2-m1": 0}},
            CADIANS: {"at": [30, 30], "statuses": ["battle_shocked"]},
            CADIANS_2: {"location": "strategic_reserves"},
        },
        battle_round=3,
        phase="shooting",
        active_player=1,
        players={"1": {"cp": 4, "vp": 20}, "2": {"cp": 1, "vp": 15}},
    )
    assert (state["stage"], state["battle_round"], state["phase"], state["active_player"]) == (
        "battle",
        3,
        "shooting",
        1,
    )
    assert state["players"]["1"]["cp"] == 4 and state["players"]["2"]["vp"] == 15
    squad = state["units"][SQUAD]
    assert len(alive_models(squad)) == 4 and squad["starting_strength"] == 5
    assert "advanced" in unit_flags(state, SQUAD)
    assert is_battle_shocked(state, CADIANS)
    assert state["units"][CADIANS_2]["location"] == "strategic_reserves"
    assert state["pending"] == []
    # The position is a game like any other: player 1 may shoot with the unit that did not advance.
    shooters = {a["unit"] for a in legal_actions(state, 1) if a["type"] == "shoot"}
    assert LED_SQUAD in shooters


@pytest.mark.parametrize(
    ("units", "position", "reason"),
    [
        ({SQUAD: {"at": [70, 6]}}, {}, "not wholly on the battlefield"),
        ({SQUAD: {"at": [6.5, 6]}}, {}, "stands on model"),
        ({SQUAD: {"at": [40, 6], "wounds_left": {"p1-u2-m1": 3}}}, {}, "W 2"),
        ({SQUAD: {"at": [40, 6], "flags": ["dancing"]}}, {}, "`flags` are among"),
        ({SQUAD: {"at": [40, 6], "statuses": ["asleep"]}}, {}, "`statuses` are among"),
        ({SQUAD: {"location": "embarked", "embarked_in": CADIANS}}, {}, "not a TRANSPORT"),
        ({}, {"phase": "lunch"}, "`phase` is one of"),
        ({}, {"battle_round": 9}, "battle round from 1 to 5"),
        ({}, {"players": {"1": {"cp": -1}}}, "0 or more"),
    ],
)
def test_an_inconsistent_position_is_refused_with_its_reason(units, position, reason):
    with pytest.raises(Refusal) as refused:
        position_game("11e", units, **position)
    assert reason in refused.value.message


def test_every_unit_must_be_placed_somewhere():
    with pytest.raises(Refusal) as refused:
        new_position(setup("11e"), SEED, {"units": EVERY_UNIT})
    assert "missing: Cadian Shock Troops A, Cadian Shock Troops B." in refused.value.message


def test_scripted_dice_are_the_dice_the_engine_rolls():
    """11e 09.06 Advance: the unit moves up to M plus the D6 rolled (scripted: a 5)."""
    state = position_game("11e", phase="movement")
    with scripted_dice(5):
        state, events = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    rolled = next(e for e in events if e["type"] == "dice_rolled")
    assert rolled["values"] == [5]
    state = pass_windows(state)  # no Command Re-roll
    assert state["pending"][-1]["options"]["max_distance"] == 6 + 5


def test_scripted_dice_fail_when_the_scenario_rolls_more_or_fewer_dice():
    state = position_game("11e", phase="movement")
    with pytest.raises(DiceScriptError), scripted_dice():
        play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    with pytest.raises(DiceScriptError), scripted_dice(4, 4):
        play(state, {"type": "advance", "player": 1, "unit": SQUAD})
