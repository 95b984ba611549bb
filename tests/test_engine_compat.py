"""Behaviour kept: self-played games recorded with an earlier engine (`tests/compat_games.py`)
replay to the same events and the same final state hash, and states saved part-way through a game
by that engine load and play on to the recorded end."""

import json

import pytest

from rules.engine.core.state import state_hash
from rules.engine.sequence.game import apply, new_game
from tests.compat_games import events_digest, load, replay_game

RECORDED = load()


@pytest.mark.parametrize(
    "record", RECORDED["games"], ids=lambda r: f"{r['setup']}/game-{r['number']}"
)
def test_a_recorded_self_played_game_replays_to_the_same_events_and_state_hash(record):
    state, events = replay_game(record, RECORDED["setups"][record["setup"]])
    assert len(events) == record["events"]
    assert events_digest(events) == record["events_digest"]
    assert state_hash(state) == record["state_hash"]


@pytest.mark.parametrize(
    "saved", RECORDED["saved"]["states"], ids=lambda s: str(s["after_actions"])
)
def test_a_state_saved_by_the_earlier_engine_loads_and_plays_on_to_the_recorded_end(saved):
    record = RECORDED["games"][RECORDED["saved"]["game"]]
    state = json.loads(json.dumps(saved["state"]))
    assert state["pending"], "the saved state has a decision pending"
    for action in record["actions"][saved["after_actions"] :]:
        state, _ = apply(state, action)
    assert state["stage"] == "ended"
    assert state_hash(state) == record["state_hash"]


def _not_plain_json(value, path="") -> list[str]:
    """Where `value` holds something other than JSON's own types (a tuple, a number type of
    numpy, a key that is not a string)."""
    if value.__class__ is dict:
        return [
            found
            for key, member in value.items()
            for found in ([f"{path}: key {key!r}"] if key.__class__ is not str else [])
            + _not_plain_json(member, f"{path}/{key}")
        ]
    if value.__class__ is list:
        return [
            found for i, item in enumerate(value) for found in _not_plain_json(item, f"{path}/{i}")
        ]
    if value.__class__ not in (str, int, float, bool, type(None)):
        return [f"{path}: {value.__class__.__name__}"]
    return []


@pytest.mark.parametrize("number", [0, 9], ids=lambda n: f"game-{n}")
def test_apply_leaves_the_state_it_is_given_as_it_was_and_returns_plain_json(number):
    """Versions of a game's state share what no rule changes (`state.copy_state`): an action must
    change none of it in place, and the units it returns are plain JSON, as a copy through JSON
    used to make them at the next action."""
    record = RECORDED["games"][number]
    state, _ = new_game(RECORDED["setups"][record["setup"]], record["seed"])
    for action in record["actions"]:
        before = json.dumps(state, sort_keys=True)
        after, _ = apply(state, action)
        assert json.dumps(state, sort_keys=True) == before, action
        assert _not_plain_json(after["units"]) == [], action
        state = after
    assert state_hash(state) == record["state_hash"]
