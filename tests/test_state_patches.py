"""The `events` broadcast carries RFC 6902 patches of the public state instead of the state:
applied in order to the first state a client was given, the patches of a whole self-played game
give exactly the state of the end (as the server would send it whole), step by step, for a
spectator and for each seat (each sees its own private choices only)."""

import json

import jsonpatch
import pytest

from games import messages, selectors
from games.state_patches import diff
from rules.engine.core.state import FROZEN_KEYS, canonical_json, public_state
from rules.engine.sequence.game import apply
from rules.engine.sequence.replay import replay
from rules.engine.tools.selfplay import selfplay
from tests.engine_world import BUNDLE


@pytest.mark.parametrize(("edition", "number"), [("11e", 3), ("10e", 5)])
def test_the_patches_of_a_whole_self_played_game_rebuild_its_final_public_state(edition, number):
    _, log = selfplay(BUNDLE, number, edition)
    log = json.loads(json.dumps(log))
    actions = log["actions"]
    # The states after 0, 1, 2 ... actions of the same log.
    states = [replay({**log, "actions": []})[0]]
    for action in actions:
        states.append(apply(states[-1], action)[0])
    # What a spectator and each seat were sent first, then patched as the broadcasts say.
    clients = {seat: _sent(selectors.state_for(states[0], seat)) for seat in (None, 1, 2)}
    for step, (before, after) in enumerate(zip(states, states[1:], strict=False), start=1):
        for seat, client in clients.items():
            patch = _sent(selectors.patch_for(before, after, seat))
            assert not any(op["path"].split("/")[1] in FROZEN_KEYS for op in patch), step
            clients[seat] = client = jsonpatch.apply_patch(client, patch)
            expected = selectors.state_for(after, seat)
            assert canonical_json(client) == canonical_json(expected), f"action {step}, {seat}"
    assert states[-1]["stage"] == "ended"
    # The seed is revealed at the end: the last patches carry it.
    assert clients[None]["dice"]["seed"] == log["seed"]


def _sent(value):
    """A value as a client reads it from the message's text."""
    return json.loads(messages.encode({"value": value}))["value"]


def test_a_patch_before_the_game_starts_replaces_the_whole_state():
    state, _ = replay({**_short_log(), "actions": []})
    patch = selectors.patch_for(None, state, 1)
    whole = jsonpatch.apply_patch(None, patch)
    # With the names and texts the table shows (`display`, sent with the whole state only).
    assert whole.pop("display")["orders"]
    assert whole == public_state(state)


def test_diff_writes_add_remove_and_replace_with_escaped_pointers():
    assert diff(1, True) == [{"op": "replace", "path": "", "value": True}]
    assert diff({"a/b": [1, 2, 3]}, {"a/b": [1, 2]}) == [{"op": "remove", "path": "/a~1b/2"}]
    assert diff({"a": [1]}, {"a": [1, 2]}) == [{"op": "add", "path": "/a/-", "value": 2}]
    assert diff({"a": {"b": 1}}, {"a": {}}) == [{"op": "remove", "path": "/a/b"}]


def _short_log() -> dict:
    _, log = selfplay(BUNDLE, 1, "11e")
    return log
