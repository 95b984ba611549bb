"""The board as it was: the engine state after any point of a game's log, for the replay viewer.

The engine replays deterministically (rules/engine/replay.py): the setup, the seed and the
actions give the same states bit for bit. To reach version N without replaying a long game from
its start, the replay starts from the newest state known at or before N (a `GameSnapshot`, stored
every few events after a whole action, or a state this process replayed lately: a viewer stepping
forward asks for one action more each time) and applies the actions logged after it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from games.models import Game, GameEvent, GameSnapshot
from games.services import GameError
from rules.engine import apply, new_game

# (the game's seed commitment, version) -> the whole engine state once the actions begun by that
# version are applied. A log only grows, so a state once replayed stays true; the commitment
# names one game for good (an id may be used again after a game is deleted).
_RECENT: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
RECENT_STATES = 32


def _remember(game: Game, version: int, state: dict[str, Any]) -> None:
    key = (game.seed_commitment, version)
    _RECENT[key] = state
    _RECENT.move_to_end(key)
    while len(_RECENT) > RECENT_STATES:
        _RECENT.popitem(last=False)


def _start(game: Game, version: int) -> tuple[dict[str, Any], int]:
    """The newest known state at or before `version`, and the version it stands at."""
    snapshot = (
        GameSnapshot.objects.filter(game=game, version__lte=version).order_by("-version").first()
    )
    start, state = (snapshot.version, snapshot.state) if snapshot else (0, None)
    key = game.seed_commitment
    recent = [v for (commitment, v) in _RECENT if commitment == key and start < v <= version]
    if recent:
        start = max(recent)
        state = _RECENT[(key, start)]
    if state is None:
        state, _ = new_game(game.setup, game.dice_seed)
    return state, start


def state_after(game: Game, version: int) -> dict[str, Any]:
    """The whole engine state once every action begun at or before event `version` is applied
    (the game's first events, up to its first action, are the set-up's). Never send it as it is:
    `selectors.state_for` gives what a seat may see."""
    if not game.setup:
        raise GameError("no_replay", "This game has no recorded set-up to replay.")
    if not 0 <= version <= game.version:
        raise GameError("version_out_of_range", f"The log runs from 0 to {game.version}.")
    state, start = _start(game, version)
    actions = GameEvent.objects.filter(
        game=game, kind="action_applied", sequence__gt=start, sequence__lte=version
    ).order_by("sequence")
    for payload in actions.values_list("payload", flat=True):
        state, _ = apply(state, payload["action"])
    _remember(game, version, state)
    return state
