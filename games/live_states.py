"""The engine state of the games this worker serves, kept in memory between actions.

The database stays the truth: an entry is used only when the game row just locked has the same
version and `updated` time as when the entry was stored (`row_key`): every save of the row sets
`updated`, so a game changed by another worker, an admin or a test is read again. Decoding a
Strike Force state from the row costs more than the engine's whole action; this keeps that cost
to the first action a worker serves on a game. Engine states are never
mutated (the engine returns a new state), so sharing them is safe.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

import jsonpatch

from games.models import Game, GameEvent
from rules.engine import FROZEN_KEYS

# Enough for every active game a worker serves (a Strike Force state is ~0.3 MB in memory).
CAPACITY = 256

_lock = threading.Lock()
_states: OrderedDict[int, tuple[tuple, dict[str, Any]]] = OrderedDict()


def row_key(game: Game) -> tuple:
    """What tells whether the row changed since a state was remembered."""
    return (game.version, game.updated)


def remember(game_id: int, key: tuple, state: dict[str, Any] | None) -> None:
    with _lock:
        if state is None:
            _states.pop(game_id, None)
            return
        _states[game_id] = (key, state)
        _states.move_to_end(game_id)
        while len(_states) > CAPACITY:
            _states.popitem(last=False)


def clear() -> None:
    """Forget every game (what a restart does)."""
    with _lock:
        _states.clear()


def engine_state(game: Game) -> dict[str, Any] | None:
    """The state of `game` as its row holds it: from memory when this worker stored or read that
    row, else from the row (then remembered). `game` may have been read with its `state`
    deferred; it is then read only on a miss."""
    key = row_key(game)
    with _lock:
        cached = _states.get(game.pk)
    if cached is not None and cached[0] == key:
        return cached[1]
    state = caught_up(game, *cached) if cached is not None else None
    if state is None:
        state = from_rows(game)
        if state is not None and cached is not None:
            state = with_frozen_data_of(cached[1], state)
    remember(game.pk, key, state)
    return state


def caught_up(game: Game, key: tuple, known: dict[str, Any]) -> dict[str, Any] | None:
    """The state of `game` from `known`, the state this worker held at an older version, with
    the patches logged since applied (to a copy: states are shared), or None when the log cannot
    bring it there: the state was stored whole after that version (no patch on that action's
    rows), or the row changed without a new version (an edit: read it whole). With two workers
    every action the other one applied used to make this one decode the state stored whole and
    up to 50 patches (the 40-game bench: 2 workers served fewer actions than 1)."""
    version = key[0] if key else None
    if not isinstance(version, int) or not game.state_version <= version < game.version:
        return None
    patches = (
        GameEvent.objects.filter(
            game_id=game.pk,
            sequence__gt=version,
            sequence__lte=game.version,
            state_patch__isnull=False,
        )
        .order_by("sequence")
        .values_list("state_patch", flat=True)
    )
    changing = {name: value for name, value in known.items() if name not in FROZEN_KEYS}
    state = json.loads(json.dumps(changing))
    state.update({name: known[name] for name in FROZEN_KEYS if name in known})
    for patch in patches:
        state = jsonpatch.apply_patch(state, patch, in_place=True)
    return state


def with_frozen_data_of(known: dict[str, Any] | None, state: dict[str, Any]) -> dict[str, Any]:
    """`state` holding the very objects of the rules data frozen in `known` (an older state of the
    same game) where they are equal, as the engine's own states share them: the geometry and
    edition the engine builds from them, and what it measured with those, are kept by identity
    (rules.engine.battlefield), so a game another worker moved on is not measured anew."""
    for name in FROZEN_KEYS:
        if known and name in known and name in state and known[name] == state[name]:
            state[name] = known[name]
    return state


def from_rows(game: Game) -> dict[str, Any] | None:
    """The state at the game's version as the database holds it: the state stored whole at
    `state_version`, with the patches logged after it applied in order (RFC 6902, applied in
    place on the freshly decoded state by the `jsonpatch` package)."""
    state = game.stored_state
    if state is None or game.state_version >= game.version:
        return state
    patches = (
        GameEvent.objects.filter(
            game_id=game.pk,
            sequence__gt=game.state_version,
            sequence__lte=game.version,
            state_patch__isnull=False,
        )
        .order_by("sequence")
        .values_list("state_patch", flat=True)
    )
    for patch in patches:
        state = jsonpatch.apply_patch(state, patch, in_place=True)
    return state
