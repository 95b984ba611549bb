"""The board as it was: the engine state after any point of a game's log, for the replay viewer.

The engine replays deterministically (rules/engine/replay.py): the setup, the seed and the
actions give the same states bit for bit. To reach version N without replaying a long game from
its start, the replay starts from the newest `GameSnapshot` at or before N (the state is stored
every few events, always after a whole action) and applies the actions logged after it.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, GameEvent, GameSnapshot
from games.services import GameError
from rules.engine.game import apply, new_game
from rules.engine.state import public_state


def state_after(game: Game, version: int) -> dict[str, Any]:
    """The public engine state once every action begun at or before event `version` is applied
    (the game's first events, up to its first action, are the set-up's)."""
    if not game.setup:
        raise GameError("no_replay", "This game has no recorded set-up to replay.")
    if not 0 <= version <= game.version:
        raise GameError("version_out_of_range", f"The log runs from 0 to {game.version}.")
    snapshot = (
        GameSnapshot.objects.filter(game=game, version__lte=version).order_by("-version").first()
    )
    if snapshot is not None:
        state, start = snapshot.state, snapshot.version
    else:
        state, _ = new_game(game.setup, game.dice_seed)
        start = 0
    actions = GameEvent.objects.filter(
        game=game, kind="action_applied", sequence__gt=start, sequence__lte=version
    ).order_by("sequence")
    for payload in actions.values_list("payload", flat=True):
        state, _ = apply(state, payload["action"])
    return public_state(state)
