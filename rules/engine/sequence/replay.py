"""Replaying a game from its log: the same setup, seed and actions give the same state, bit for bit.

A log (written by `game_log`) is `{"format", "setup", "seed", "seed_commitment", "actions",
"events"}`. `replay` re-applies every action to a fresh game and returns the final state and every
event; `check_replay` also compares the events and the state hash with the recorded ones.
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.dice import seed_commitment
from rules.engine.core.shapes import Event
from rules.engine.core.state import State, state_hash
from rules.engine.sequence.game import apply, new_game

LOG_FORMAT = "strategium-game-log/1"


class ReplayMismatch(ValueError):
    """The log does not reproduce itself: a different seed, event or state."""


def game_log(
    setup: dict[str, Any], seed: str, actions: list[dict[str, Any]], events: list[Event]
) -> dict[str, Any]:
    return {
        "format": LOG_FORMAT,
        "setup": setup,
        "seed": seed,
        "seed_commitment": seed_commitment(seed),
        "actions": actions,
        "events": events,
    }


def replay(log: dict[str, Any]) -> tuple[State, list[Event]]:
    if log.get("format") != LOG_FORMAT:
        raise ReplayMismatch(f"not a {LOG_FORMAT} log")
    if seed_commitment(log["seed"]) != log["seed_commitment"]:
        raise ReplayMismatch("the seed does not match the published commitment")
    state, events = new_game(log["setup"], log["seed"])
    for action in log["actions"]:
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def check_replay(log: dict[str, Any], expected_hash: str | None = None) -> tuple[State, str]:
    state, events = replay(log)
    if log.get("events") and events != log["events"]:
        raise ReplayMismatch("replayed events differ from the logged events")
    digest = state_hash(state)
    if expected_hash is not None and digest != expected_hash:
        raise ReplayMismatch(f"state hash {digest} differs from {expected_hash}")
    return state, digest
