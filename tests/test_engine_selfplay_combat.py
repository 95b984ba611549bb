"""Self-played games shoot and fight: casualties, battle-shock and objectives change hands, and
every attack die in the log verifies against the revealed seed (docs/verify_dice.py)."""

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from rules.engine.tools.selfplay import selfplay
from tests.engine_world import BUNDLE

VERIFIER = Path(__file__).resolve().parent.parent / "docs" / "verify_dice.py"
GAMES = range(1, 13)  # random agents rarely charge: enough games to see fights in both editions


def verifier():
    spec = importlib.util.spec_from_file_location("verify_dice", VERIFIER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.verify


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_self_played_games_have_casualties_and_their_attack_dice_verify(edition):
    verify = verifier()
    seen = Counter()
    for number in GAMES:
        _, log = selfplay(BUNDLE, number, edition)
        assert verify(log) == []
        types = Counter(e["type"] for e in log["events"])
        seen.update(types)
        purposes = {e["purpose"] for e in log["events"] if e["type"] == "dice_rolled"}
        if types["unit_selected_to_shoot"]:
            assert {"hit_roll", "wound_roll"} & purposes
    assert seen["attack_step"] and seen["model_destroyed"] and seen["wounds_lost"]
    assert seen["unit_selected_to_shoot"] and seen["unit_selected_to_fight"]
    assert seen["battle_shock_rolled"] and seen["objective_control_changed"]
