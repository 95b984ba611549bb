"""The self-play agents move with the battlefield's path generator: their games contain real
moves and charges, and every charge ends engaged with its targets (11e 11.04; 10e Charge Move)."""

import pytest

from rules.engine.battlefield.placement import engaged_units
from rules.engine.sequence.game import apply, new_game
from rules.engine.tools.selfplay import selfplay
from tests.engine_world import BUNDLE


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_self_played_games_move_and_charge_and_charges_end_engaged(edition):
    moved = charged = 0
    # Twelve games: units shot to pieces on the way in charge less often than they used to.
    for number in range(12):
        _, log = selfplay(BUNDLE, number, edition)
        state, _ = new_game(log["setup"], log["seed"])
        for action in log["actions"]:
            state, events = apply(state, action)
            for event in events:
                moved += event["type"] == "unit_moved"
                if event["type"] == "unit_charged":
                    charged += 1
                    unit = state["units"][event["unit"]]
                    assert set(event["targets"]) <= set(engaged_units(state, unit))
    assert moved >= 20
    assert charged >= 1


def test_self_played_games_make_normal_moves_out_of_sequence_and_climb_onto_ruins():
    """The agents use Burst of Speed's Normal move (a `normal_move` decision) and end moves on
    upper floors of the mission's ruins (positions with a height), and the games replay."""
    import json

    from rules.engine.sequence.replay import check_replay
    from rules.engine.tools.selfplay import selfplay
    from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE

    out_of_sequence = climbed = 0
    for edition in ("11e", "10e"):
        for number in range(1, 5):
            result, log = selfplay(STRATAGEM_BUNDLE, number, edition)
            _, digest = check_replay(json.loads(json.dumps(log)))
            assert digest == result["state_hash"]
            for event in log["events"]:
                if event["type"] != "unit_moved":
                    continue
                out_of_sequence += event.get("source") == "burst-of-speed"
                climbed += any(
                    isinstance(p, list) and len(p) == 4 and p[3] > 0
                    for p in event["positions"].values()
                )
    assert out_of_sequence and climbed
