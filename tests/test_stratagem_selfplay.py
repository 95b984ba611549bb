"""Self-play with every stratagem of the rules data: the agents answer stratagem windows and use
stratagems (random choices among the offered options, pass included), and the games still replay
to the same state hash."""

import json

import pytest

from rules.engine.replay import check_replay
from rules.engine.selfplay import selfplay
from tests.engine_world import BUNDLE
from tests.stratagem_world import RULES_FILES, STRATAGEMS


def detachments():
    found = []
    for path in RULES_FILES:
        found.extend(json.loads(path.read_text("utf-8")).get("detachments", []))
    return found


STRATAGEM_BUNDLE = {**BUNDLE, "stratagems": STRATAGEMS, "detachments": detachments()}


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_self_play_uses_stratagems_and_replays_exactly(edition):
    used = set()
    for number in range(1, 5):
        result, log = selfplay(STRATAGEM_BUNDLE, number, edition)
        _, digest = check_replay(json.loads(json.dumps(log)))
        assert digest == result["state_hash"], f"game {number}"
        used |= {e["stratagem"] for e in log["events"] if e["type"] == "stratagem_used"}
        for event in log["events"]:
            if event["type"] == "command_points_spent":
                assert event["amount"] >= 0
        assert all(e["player"] in (1, 2) for e in log["events"] if e["type"] == "stratagem_used")
    assert used, "the agents used no stratagem in four games"


def test_command_points_never_go_below_zero_in_self_play():
    from rules.engine.replay import replay

    _, log = selfplay(STRATAGEM_BUNDLE, 3, "11e")
    state, _ = replay(log)
    assert all(state["players"][p]["cp"] >= 0 for p in ("1", "2"))
