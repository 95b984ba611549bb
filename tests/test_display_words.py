"""The words the table shows beside the state (`tools.display`, sent as `state.display`): each
in the game's rule set's numbers and citations."""

import pytest

from rules.engine.tools.display import display
from tests.engine_world import deployed_game


@pytest.mark.parametrize(
    ("edition", "rule", "distance"), [("11e", "24.32", '8"'), ("10e", "Scouts", '9"')]
)
def test_the_scouts_step_is_said_with_the_rule_sets_distance_and_citation(edition, rule, distance):
    state, _ = deployed_game(edition)
    step = display(state)["steps"]["scouts"]
    assert step["rule"] == rule
    assert f"more than {distance} from every enemy unit" in step["text"]
    assert '"End Scout moves"' in step["text"]


@pytest.mark.parametrize("battle_size", ["incursion", "strike-force", "onslaught"])
def test_teleport_assault_says_why_it_is_asked_in_the_games_numbers(battle_size):
    """Teleport Assault (seed 004 L135-139): the decision's reason names the rule and what a
    unit removed comes to, with the battle size's number of units (rulings R-GK-01) and the
    distance the arrival is checked against."""
    from rules.engine.factions.grey_knights import teleport_assault

    state, _ = deployed_game("11e")
    state["mission"] = {**state["mission"], "battle_size": battle_size}
    reason = display(state)["decisions"]["teleport_assault"]
    assert reason["rule"] == "Teleport Assault"
    units = teleport_assault.UNITS_PER_BATTLE_SIZE[battle_size]
    assert f"each unit removed now ({units} at most)" in reason["text"]
    assert "Reinforcements step of your next Movement phase" in reason["text"]
    assert 'more than 9" horizontally from all enemy models' in reason["text"]
