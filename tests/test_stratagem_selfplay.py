"""Self-play with every stratagem of the rules data: the agents answer stratagem windows and use
stratagems (random choices among the offered options, pass included), and the games still replay
to the same state hash."""

import json

import pytest

from rules.engine.sequence.replay import check_replay
from rules.engine.tools.selfplay import selfplay
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
    from rules.engine.sequence.replay import replay

    _, log = selfplay(STRATAGEM_BUNDLE, 3, "11e")
    state, _ = replay(log)
    assert all(state["players"][p]["cp"] >= 0 for p in ("1", "2"))


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_with_stratagems_every_offered_option_is_accepted_and_refusals_change_nothing(edition):
    """Laws: every legal action and window option is accepted; a refused action leaves the state
    byte-identical; CP never go below zero."""
    import random

    from rules.engine.core.refusals import Refusal
    from rules.engine.core.state import canonical_json
    from rules.engine.sequence.game import acting_player, apply, legal_actions, new_game
    from rules.engine.tools.selfplay import choose_action, dice_seed, selfplay_setup

    setup = selfplay_setup(STRATAGEM_BUNDLE, edition)
    rng = random.Random(5)
    state, _ = new_game(setup, dice_seed(5))
    while state["stage"] != "ended":
        player = acting_player(state)
        frozen = canonical_json(state)
        for option in legal_actions(state, player):
            if option["type"] in ("use_stratagem", "decide") and option.get("choice") not in (
                "positions",
                "assignments",
            ):
                apply(state, option)
        assert canonical_json(state) == frozen  # reading and trying never writes
        for candidate in choose_action(rng, state, player):
            try:
                new_state, _ = apply(state, candidate)
            except Refusal:
                assert canonical_json(state) == frozen
                continue
            assert all(new_state["players"][p]["cp"] >= 0 for p in ("1", "2"))
            state = new_state
            break
