"""Self-play with TRANSPORTs (11e §18; 10e Transports): the agents start units embarked, embark
after a move and disembark, and every game still replays to the same state, bit for bit."""

from collections import Counter

import pytest

from rules.engine.sequence.replay import check_replay
from rules.engine.tools.selfplay import play, selfplay_setup, summary
from tests.engine_world import BUNDLE
from tests.test_engine_transports import datasheets

TRANSPORT_BUNDLE = {**BUNDLE, "datasheets": datasheets()}


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_self_played_games_embark_and_disembark_and_replay_exactly(edition):
    seen: Counter = Counter()
    for number in range(4):
        state, events, log = play(selfplay_setup(TRANSPORT_BUNDLE, edition), number)
        seen.update(e["type"] for e in events)
        seen.update(f"mode:{e['mode']}" for e in events if e["type"] == "unit_disembarked")
        _, replayed_hash = check_replay(log, summary(number, state, events)["state_hash"])
        assert replayed_hash == summary(number, state, events)["state_hash"]
        for unit in state["units"].values():
            if unit["location"] == "embarked":
                assert state["units"][unit["embarked_in"]]["location"] != "destroyed"
    assert seen["unit_embarked"] >= 2
    assert seen["unit_disembarked"] >= 2
