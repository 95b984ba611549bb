"""The words the table shows beside the state (`tools.display`, sent as `state.display`): each
in the game's rule set's numbers and citations."""

import re

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


def engine_stages() -> set[str]:
    """Every stage the engine's state can be in (each `"stage"` it sets), from its source."""
    import re
    from pathlib import Path

    engine = Path(__file__).resolve().parents[1] / "rules" / "engine"
    said = re.compile(r'(?:\["stage"\] = |"stage": )"([a-z_]+)"')
    return {stage for path in engine.rglob("*.py") for stage in said.findall(path.read_text())}


def test_every_step_before_the_battle_says_what_it_asks():
    """Each stage before the battle (declare reserves, deployment, redeployments, the first turn,
    the Scouts step) has its line: a step added to the engine without one fails here."""
    stages = engine_stages()
    assert {"declare_reserves", "deployment", "scouts", "battle", "ended"} <= stages
    state, _ = deployed_game("11e")
    steps = display(state)["steps"]
    assert stages - {"battle", "ended"} == set(steps)
    for step in steps.values():
        assert step["rule"] and step["text"].endswith("."), step


@pytest.mark.parametrize(
    ("edition", "share", "rule", "points"),
    [("11e", "50%", "20.01", 500), ("10e", "25%", "Strategic Reserves", 250)],
)
def test_declaring_reserves_is_said_with_the_rule_sets_share(edition, share, rule, points):
    """11e 20.01 (half the points limit) and 10e Strategic Reserves (a quarter): the line says
    the game's number of points (rulings R-ENG-07), and how to finish the step."""
    state, _ = deployed_game(edition)
    state["mission"] = {**state["mission"], "battle_size": "incursion"}
    step = display(state)["steps"]["declare_reserves"]
    assert step["rule"] == rule
    assert f"(worth up to {points} points, {share} of the points limit in all)" in step["text"]
    assert 'press "Declare reserves"' in step["text"]


@pytest.mark.parametrize(
    ("edition", "infiltrators", "distance"),
    [("11e", "Infiltrators (24.20)", '8"'), ("10e", "Infiltrators", '9"')],
)
def test_deployment_is_said_with_the_rule_sets_infiltrators_distance(
    edition, infiltrators, distance
):
    state, _ = deployed_game(edition)
    steps = display(state)["steps"]
    deployment = steps["deployment"]
    assert deployment["rule"] == "Deploy Armies"
    assert f"a unit with {infiltrators}: anywhere more than {distance} from" in deployment["text"]
    assert "wholly within their deployment zone" in deployment["text"]
    assert steps["first_turn"]["rule"] == "Determine First Turn"
    assert steps["first_turn"]["with"] == ["choose_first_turn"]
    assert steps["redeployment"]["with"] == ["select_units", "redeploy_unit"]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_every_step_says_what_the_other_player_is_doing_in_the_third_person(edition):
    """The player not asked and the spectators read the step after the name of the player whose
    step it is ("bob is deploying: ..."), in the same rule set's numbers: never "you"."""
    state, _ = deployed_game(edition)
    steps = display(state)["steps"]
    distance = '8"' if edition == "11e" else '9"'
    for stage, step in steps.items():
        others = step["others"]
        assert others.startswith(("is ", "won ")) and others.endswith("."), (stage, others)
        assert not re.search(r"\byou(r)?\b", others, flags=re.IGNORECASE), (stage, others)
    assert steps["deployment"]["others"].startswith("is deploying: ")
    assert "wholly within their deployment zone" in steps["deployment"]["others"]
    assert f"anywhere more than {distance} from" in steps["deployment"]["others"]
    assert steps["scouts"]["others"].startswith("is making Scout moves")
    assert f"ending more than {distance} from every enemy unit" in steps["scouts"]["others"]
    assert steps["declare_reserves"]["others"].startswith("is declaring reserves")
    assert steps["redeployment"]["others"].startswith("is redeploying")
    assert steps["first_turn"]["others"].startswith("won the roll-off")


def test_the_others_line_of_declaring_reserves_has_the_games_points():
    state, _ = deployed_game("11e")
    state["mission"] = {**state["mission"], "battle_size": "incursion"}
    others = display(state)["steps"]["declare_reserves"]["others"]
    assert "(worth up to 500 points, 50% of the points limit in all)" in others


@pytest.mark.parametrize(
    ("edition", "ingress"), [("11e", "ingress move"), ("10e", "Strategic Reserves")]
)
def test_each_way_to_arrive_is_named_as_the_rules_name_it(edition, ingress):
    """The ways a unit arrives by, as the action panel offers them: an ingress move (11e 20.04;
    10e's Strategic Reserves), Deep Strike (24.09), and each rule's own way by its rule's name
    (Teleport Assault, Prognisticated Arrival, Hallowed Beacon, Rapid Tactical Relocation)."""
    from rules.engine.core.standing_rules import ARRIVAL_METHODS

    state, _ = deployed_game(edition)
    names = display(state)["arrival_methods"]
    assert names["ingress"] == ingress
    assert names["deep_strike"] == "Deep Strike"
    assert names["teleport_assault"] == "Teleport Assault"
    assert names["prognisticated_arrival"] == "Prognisticated Arrival"
    assert names["hallowed_beacon"] == "Hallowed Beacon"
    assert names["rapid_tactical_relocation"] == "Rapid Tactical Relocation"
    assert set(ARRIVAL_METHODS.entries) | {"ingress", "deep_strike"} == set(names)
