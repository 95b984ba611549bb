"""Laws of the engine, checked over many self-played games of both editions:
the log replays to the same state hash; a refused action changes nothing; legal actions are
accepted; the version grows by one per action; the dice can be verified from the revealed seed."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import canonical_json
from rules.engine.sequence.game import acting_player, apply, legal_actions, new_game
from rules.engine.sequence.replay import ReplayMismatch, check_replay
from rules.engine.tools.selfplay import choose_action, dice_seed, selfplay, selfplay_setup
from tests.engine_world import BUNDLE

VERIFIER = Path(__file__).resolve().parent.parent / "docs" / "verify_dice.py"
GAMES = range(1, 9)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_every_self_played_game_replays_to_the_same_state_hash(edition):
    for number in GAMES:
        result, log = selfplay(BUNDLE, number, edition)
        assert result["battle_rounds"] == 5
        assert result["winner"] in (1, 2, None)
        _, digest = check_replay(json.loads(json.dumps(log)))
        assert digest == result["state_hash"], f"game {number}"
        assert result["events"] == len(log["events"])


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    first, _ = selfplay(BUNDLE, 42, "11e")
    again, _ = selfplay(BUNDLE, 42, "11e")
    other, _ = selfplay(BUNDLE, 43, "11e")
    assert first == again
    assert first["state_hash"] != other["state_hash"]
    assert set(first) == {
        "seed",
        "edition",
        "events",
        "battle_rounds",
        "victory_points",
        "winner",
        "state_hash",
    }


def test_a_tampered_log_does_not_replay():
    _, log = selfplay(BUNDLE, 5, "10e")
    log["actions"] = log["actions"][:-1]
    with pytest.raises(ReplayMismatch):
        check_replay(log)


def mutations(rng, action, state):
    """Actions that must be refused: wrong player, unknown unit, stale decision, unknown type,
    another player's unit."""
    other = 2 if action.get("player") == 1 else 1
    yield (
        {**action, "player": other}
        if action["type"] != "declare_reserves"
        else {"type": "deploy", "player": other, "unit": "p9-u9", "positions": {}}
    )
    yield {**action, "unit": "p9-u9"} if "unit" in action else {**action, "type": "fly"}
    yield {"type": "decide", "player": action["player"], "decision": "d0", "choice": None}
    # Another player's unit: with real charges, a random own unit may well be free to fight.
    theirs = sorted(u for u, unit in state["units"].items() if unit["player"] != action["player"])
    yield {
        "type": rng.choice(["shoot", "fight", "arrive", "move"]),
        "player": action["player"],
        "unit": rng.choice(theirs),
        "positions": {},
        "targets": ["p1-u1"],
    }


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_no_refused_action_changes_the_state_and_legal_actions_are_accepted(edition):
    setup = selfplay_setup(BUNDLE, edition)
    for number in (3, 4):
        rng = random.Random(number)
        state, _ = new_game(setup, dice_seed(number))
        while state["stage"] != "ended":
            player = acting_player(state)
            frozen = canonical_json(state)
            for option in legal_actions(state, player):
                if all(v not in ("positions", "required", "subset") for v in option.values()):
                    # An "optional" field of a template (the 10e pile-in) is left out.
                    concrete = {k: v for k, v in option.items() if v != "optional"}
                    if isinstance(option.get("targets"), list):
                        concrete["targets"] = option["targets"][:1]
                    apply(state, concrete)  # a legal action is accepted
            candidates = choose_action(rng, state, player)
            for bad in mutations(rng, candidates[0], state):
                with pytest.raises(Refusal) as refusal:
                    apply(state, bad)
                assert refusal.value.code and refusal.value.rule and refusal.value.message
            for candidate in candidates:
                try:
                    new_state, _ = apply(state, candidate)
                except Refusal:
                    assert canonical_json(state) == frozen
                    continue
                assert new_state["version"] == state["version"] + 1
                assert all(new_state["players"][p]["cp"] >= 0 for p in ("1", "2"))
                state = new_state
                break
            assert canonical_json(state) != frozen


def test_the_dice_verifier_accepts_an_honest_log_and_rejects_a_changed_die(tmp_path):
    _, log = selfplay(BUNDLE, 11, "11e")
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(log))
    result = subprocess.run(
        [sys.executable, str(VERIFIER), str(honest)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok:")
    rolled = next(e for e in log["events"] if e["type"] == "dice_rolled")
    rolled["values"][0] = rolled["values"][0] % 6 + 1
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(log))
    result = subprocess.run(
        [sys.executable, str(VERIFIER), str(changed)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1 and "the seed gives" in result.stdout
    result = subprocess.run(
        [sys.executable, str(VERIFIER), str(honest), "--seed", "ab" * 32],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and "commitment" in result.stdout


def test_the_same_game_in_other_processes_has_the_same_hash():
    """Nothing depends on Python's per-process hash seed (set iteration order and the like)."""
    program = (
        "import json, sys\n"
        "from rules.engine.tools.selfplay import selfplay\n"
        "from tests.engine_world import BUNDLE\n"
        "print(selfplay(BUNDLE, 9, '11e')[0]['state_hash'])\n"
    )
    root = Path(__file__).resolve().parent.parent
    hashes = {
        subprocess.run(
            [sys.executable, "-c", program],
            cwd=root,
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            timeout=60,
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert hashes == {selfplay(BUNDLE, 9, "11e")[0]["state_hash"]}
