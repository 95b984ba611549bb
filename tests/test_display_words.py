"""The words the table shows beside the state (`tools.display`, sent as `state.display`): each
in the game's rule set's numbers and citations."""

import pytest

from rules.engine.tools.display import display
from tests.engine_world import deployed_game


@pytest.mark.parametrize(
    ("edition", "rule", "distance"), [("11e", "24.32", '8"'), ("10e", "Scouts", '9"')]
)
def test_the_scouts_step_is_said_with_the_rule_sets_distance_and_citation(
    edition, rule, distance
):
    state, _ = deployed_game(edition)
    step = display(state)["steps"]["scouts"]
    assert step["rule"] == rule
    assert f"more than {distance} from every enemy unit" in step["text"]
    assert '"End Scout moves"' in step["text"]
