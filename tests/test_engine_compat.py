"""Behaviour kept: self-played games recorded with an earlier engine (`tests/compat_games.py`)
replay to the same events and the same final state hash, and states saved part-way through a game
by that engine load and play on to the recorded end."""

import json

import pytest

from rules.engine.core.state import state_hash
from rules.engine.sequence.game import apply
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
