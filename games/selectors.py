"""Reads on games: who is connected, what a client needs to catch up."""

from __future__ import annotations

from typing import Any

from games import live_states, messages
from games.models import Game, GameEvent
from rules.engine.game import legal_actions

SPECTATOR = messages.SPECTATOR
# A client further behind than this receives a snapshot instead of every missed event.
SNAPSHOT_AFTER_MISSED_EVENTS = 500


def connection_seat(game_id: int, user, spectator_token: str | None) -> int | None:
    """1 or 2 for a player, SPECTATOR for a valid spectator link, None to refuse the connection."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    seat = game.seat_of(user) if user is not None else None
    if seat is not None:
        return seat
    if spectator_token and game.spectator_token and spectator_token == game.spectator_token:
        return SPECTATOR
    return None


def public_game(game: Game) -> dict:
    return {
        "id": game.pk,
        "status": game.status,
        "edition": game.ruleset.slug,
        "battle_size": game.battle_size,
        "version": game.version,
        "players": {
            "1": game.creator.get_username(),
            "2": game.opponent.get_username() if game.opponent else None,
        },
        "seed_commitment": game.seed_commitment,
        "dice_seed": game.dice_seed if game.is_over else None,
        "winner": game.winner,
        "window_time_limit": game.window_time_limit,
        "mission": game.mission or None,
        "armies_picked": sorted(int(seat) for seat in game.army_snapshots),
    }


def legal_actions_for(state: dict[str, Any] | None, seat: int | None) -> list[dict[str, Any]]:
    """What the player of `seat` may do now (none for spectators or before the game starts)."""
    if state is None or seat not in (1, 2):
        return []
    return legal_actions(state, seat)


def window(game: Game) -> dict[str, Any] | None:
    """The stratagem window whose clock is running: its decision id and deadline."""
    if game.window_deadline is None:
        return None
    return {"decision": game.window_decision, "deadline": game.window_deadline.isoformat()}


def visible_state(game: Game) -> dict[str, Any] | None:
    """The engine state without the dice seed (until the end): never send `game.state` itself."""
    return messages.visible_state(live_states.engine_state(game))


def game_state(game: Game, seat: int | None) -> dict[str, Any]:
    """What a client needs to draw the table: the public state and its own legal actions."""
    state = live_states.engine_state(game)
    return messages.table(
        game.version,
        game.status,
        state,
        window(game),
        legal_actions_for(state, seat) if seat in (1, 2) else None,
    )


def hello(game_id: int, seat: int) -> dict:
    game = (
        Game.objects.select_related("creator", "opponent", "ruleset")
        .defer("state", "setup")
        .get(pk=game_id)
    )
    chat = [message.as_message() for message in game.chat.select_related("author")]
    return messages.hello(seat, public_game(game), chat, game_state(game, seat))


def catch_up(game_id: int, since: int, seat: int | None = None) -> dict:
    """The events a client missed after version `since`, in order, or a snapshot when far behind;
    with the state now and the seat's legal actions either way."""
    game = Game.objects.defer("state", "setup", "army_snapshots").get(pk=game_id)
    if since > game.version:
        return messages.error("version_ahead", "You are ahead of the server.")
    current = game_state(game, seat)
    if game.version - since > SNAPSHOT_AFTER_MISSED_EVENTS and current["state"] is not None:
        return messages.snapshot(current)
    events = GameEvent.objects.filter(game=game, sequence__gt=since).order_by("sequence")
    return messages.caught_up(since, [event.as_message() for event in events], current)
