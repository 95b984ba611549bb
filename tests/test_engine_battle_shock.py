"""Starting strength, half-strength and battle-shock, per edition.

11e: 01.02.01, 01.07, 08.03, 09.07 (seeds 000, 003). 10e: Command phase 2. Battle-shock,
Attached Units (seed 004). CATALOGUE DIFF-09..13.
"""

import pytest

from rules.engine.army.unit_strength import (
    AT_HALF,
    BELOW_HALF,
    BELOW_STARTING,
    FULL,
    starting_strength,
    strength,
)
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, copy_state, opponent
from rules.engine.phases.battle_shock import (
    fall_back_modes,
    is_battle_shocked,
    refuse_own_stratagem_target,
    refuse_start_action,
)
from rules.engine.sequence.objectives import levels_of_control
from tests.engine_world import (
    army,
    deployed_game,
    entry,
    kill,
    place_unit,
    play,
    script_dice,
)

LED_SQUAD = "p1-u1"  # an Inquisitor (1 model) leading a Strike Squad (5 models)
SQUAD = "p1-u2"  # a Strike Squad of 5


def next_command_phase(state, player, dice=None):
    """End phases until `player`'s next Command phase starts; `dice` are its battle-shock dice."""
    while not (state["phase"] == "fight" and state["active_player"] == opponent(player)):
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
    if dice:
        script_dice(state, dice)
    return play(state, {"type": "end_phase", "player": state["active_player"]})


def shock_rolls(events):
    return {e["unit"]: e["passed"] for e in events if e["type"] == "battle_shock_rolled"}


# --- 01.02.01 Starting strength and half-strength: the seed's example -----------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_an_attached_unit_starts_with_the_models_of_both_parts(edition):
    """A Captain (1) attached to five Intercessors: starting strength 6 (here an Inquisitor)."""
    state, _ = deployed_game(edition)
    assert starting_strength(state, state["units"][LED_SQUAD]) == 6


@pytest.mark.parametrize(
    ("destroyed", "expected"),
    [(0, FULL), (1, BELOW_STARTING), (2, BELOW_STARTING), (3, AT_HALF), (4, BELOW_HALF)],
)
@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_three_of_six_is_half_strength_and_two_of_six_below(edition, destroyed, expected):
    """01.02.01 example: three Intercessors destroyed: at half-strength; four: below."""
    state, _ = deployed_game(edition)
    kill(state, LED_SQUAD, destroyed, part=0)
    assert strength(state, state["units"][LED_SQUAD]) == expected


def test_11e_a_lone_surviving_leader_is_below_half_strength_despite_full_wounds():
    """01.02.01: all Intercessors destroyed, the Captain is below half-strength (11e)."""
    state, _ = deployed_game("11e")
    kill(state, LED_SQUAD, 5, part=0)
    unit = state["units"][LED_SQUAD]
    assert starting_strength(state, unit) == 6
    assert strength(state, unit) == BELOW_HALF


def test_10e_a_surviving_part_reverts_to_its_own_starting_strength():
    """10e Attached Units: if the Bodyguard is destroyed, the Leader's starting strength is 1."""
    state, _ = deployed_game("10e")
    kill(state, LED_SQUAD, 5, part=0)
    unit = state["units"][LED_SQUAD]
    assert starting_strength(state, unit) == 1
    assert strength(state, unit) == FULL


def test_a_unit_of_odd_starting_strength_is_never_at_half_strength():
    """01.02.01: a starting strength that cannot be halved evenly is never "at" half-strength."""
    state, _ = deployed_game("11e")
    seen = set()
    for _ in range(5):
        seen.add(strength(state, state["units"][SQUAD]))
        kill(state, SQUAD, 1)
    assert AT_HALF not in seen and BELOW_HALF in seen


def test_a_single_model_unit_is_measured_by_its_wounds():
    """A one-model unit: half its W left is half-strength; less is below half-strength."""
    armies = {
        "1": army(entry("inq", "inquisitor", 1, warlord=True)),
        "2": army(entry("dr", "death-rider-commissar", 1, warlord=True)),
    }
    state, _ = deployed_game("11e", armies)
    inquisitor = state["units"]["p1-u1"]
    inquisitor["models"][0]["wounds_left"] = 2
    assert strength(state, inquisitor) == AT_HALF
    inquisitor["models"][0]["wounds_left"] = 1
    assert strength(state, inquisitor) == BELOW_HALF


# --- when battle-shock rolls are made -----------------------------------------------------


def test_11e_units_at_half_strength_roll_in_their_controllers_command_phase():
    """08.03: the active player rolls for each unit that is battle-shocked or at/below half."""
    state, _ = deployed_game("11e")
    kill(state, LED_SQUAD, 3, part=0)  # at half-strength
    kill(state, "p2-u1", 5)  # the opponent's unit rolls only in its own Command phase
    state, events = next_command_phase(state, 1, dice=[1, 2])
    assert shock_rolls(events) == {LED_SQUAD: False}
    assert is_battle_shocked(state, LED_SQUAD)


def test_10e_only_units_below_half_strength_take_battle_shock_tests():
    """10e step 2: a unit at exactly half-strength does not test; one below half does."""
    state, _ = deployed_game("10e")
    kill(state, LED_SQUAD, 3, part=0)  # 3 of 6: at half, not below
    kill(state, SQUAD, 3)  # 2 of 5: below half
    # The survivors close ranks, so that no model is removed for coherency (03.03) at turn end.
    for unit_id in (LED_SQUAD, SQUAD):
        first = alive_models(state["units"][unit_id])[0]
        place_unit(state, unit_id, first["x"], first["y"])
    state, events = next_command_phase(state, 1, dice=[6, 6])
    assert shock_rolls(events) == {SQUAD: True}


def test_11e_units_off_the_battlefield_still_roll():
    """01.02.04: units in strategic reserves roll if battle-shocked or at/below half-strength."""
    state, _ = deployed_game("11e", reserves={1: [SQUAD]})
    kill(state, SQUAD, 3)
    state, events = next_command_phase(state, 1, dice=[6, 6])
    assert shock_rolls(events) == {SQUAD: True}


def test_10e_units_off_the_battlefield_do_not_test():
    """10e step 2: tests are taken for units on the battlefield only."""
    state, _ = deployed_game("10e", reserves={1: [SQUAD]})
    kill(state, SQUAD, 3)
    state, events = next_command_phase(state, 1, dice=[1, 1])
    assert shock_rolls(events) == {}


def test_the_roll_is_2d6_against_the_best_leadership_in_the_unit():
    """01.07 / 10e: passed when 2D6 is at least the best (lowest) Ld of the unit (6+ here)."""
    state, _ = deployed_game("10e")
    kill(state, SQUAD, 3)
    _, failed = next_command_phase(state, 1, dice=[2, 3])
    _, passed = next_command_phase(state, 1, dice=[3, 3])
    assert shock_rolls(failed) == {SQUAD: False} and shock_rolls(passed) == {SQUAD: True}
    roll = next(e for e in passed if e["type"] == "battle_shock_rolled")
    assert (roll["total"], roll["leadership"]) == (6, 6)


# --- how long it lasts --------------------------------------------------------------------


def test_11e_battle_shock_lasts_until_a_later_roll_succeeds():
    """08.03: a battle-shocked unit rolls again in each Command phase; success ends it."""
    state, _ = deployed_game("11e")
    kill(state, SQUAD, 3)
    state, _ = next_command_phase(state, 1, dice=[1, 1])
    assert is_battle_shocked(state, SQUAD)
    state, _ = next_command_phase(state, 1, dice=[1, 2])
    assert is_battle_shocked(state, SQUAD)
    state, events = next_command_phase(state, 1, dice=[4, 4])
    assert not is_battle_shocked(state, SQUAD)
    assert "effect_ended" in [e["type"] for e in events]


def test_10e_battle_shock_lasts_until_the_start_of_your_next_command_phase():
    """10e: battle-shocked until the start of your next Command phase, then test again if due."""
    state, _ = deployed_game("10e")
    kill(state, SQUAD, 3)
    state, _ = next_command_phase(state, 1, dice=[1, 1])
    assert is_battle_shocked(state, SQUAD)
    for _ in range(5):  # the opponent's turn: still battle-shocked
        state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
    assert state["active_player"] == 2 and is_battle_shocked(state, SQUAD)
    state, events = next_command_phase(state, 1, dice=[5, 5])
    types = [e["type"] for e in events]
    assert types.index("effect_ended") < types.index("battle_shock_rolled")
    assert not is_battle_shocked(state, SQUAD)


# --- what it does ------------------------------------------------------------------------


def shocked(edition, unit_id=SQUAD):
    state, _ = deployed_game(edition)
    ctx = Context(copy_state(state))
    add_effect(
        ctx, "battle-shock", {"unit": unit_id}, {"status": "battle_shocked"}, "until_removed", 1
    )
    return ctx.state


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_battle_shocked_units_models_add_nothing_to_objective_control(edition):
    """11e 01.07: OC '-'; 10e: OC 0."""
    state, _ = deployed_game(edition)
    marker = {"id": "x", "x": 14.0, "y": 3.0}
    assert levels_of_control(state, marker)[1] > 0
    assert levels_of_control(shocked(edition), marker)[1] == 0


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_its_controller_cannot_use_stratagems_on_a_battle_shocked_unit(edition):
    state = shocked(edition)
    with pytest.raises(Refusal) as refusal:
        refuse_own_stratagem_target(state, 1, SQUAD)
    assert refusal.value.code == "battle_shocked_stratagem_target"
    refuse_own_stratagem_target(state, 2, SQUAD)  # the opponent's stratagems still can


def test_11e_a_battle_shocked_unit_cannot_start_an_action():
    with pytest.raises(Refusal):
        refuse_start_action(shocked("11e"), SQUAD)
    refuse_start_action(shocked("10e"), SQUAD)


def test_fall_back_modes_of_a_battle_shocked_unit():
    """11e 09.07: Ordered Retreat only when not battle-shocked; 10e: a Desperate Escape test for
    every model of a battle-shocked unit."""
    state, _ = deployed_game("11e")
    assert fall_back_modes(state, SQUAD) == ["ordered_retreat", "desperate_escape"]
    assert fall_back_modes(shocked("11e"), SQUAD) == ["desperate_escape"]
    assert fall_back_modes(shocked("10e"), SQUAD) == ["desperate_escape_every_model"]
