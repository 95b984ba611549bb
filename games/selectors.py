"""Reads on games: who is connected, what a client needs to catch up."""

from __future__ import annotations

from games.models import Game, GameEvent

SPECTATOR = 0
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
    }


def hello(game_id: int, seat: int) -> dict:
    game = Game.objects.select_related("creator", "opponent", "ruleset").get(pk=game_id)
    chat = [message.as_message() for message in game.chat.select_related("author")]
    return {"type": "hello", "seat": seat or None, "game": public_game(game), "chat": chat}


def catch_up(game_id: int, since: int) -> dict:
    """The events a client missed after version `since`, in order, or a snapshot when far behind."""
    game = Game.objects.get(pk=game_id)
    if since > game.version:
        return {"type": "error", "code": "version_ahead", "message": "You are ahead of the server."}
    if game.version - since > SNAPSHOT_AFTER_MISSED_EVENTS and game.state is not None:
        return {"type": "snapshot", "version": game.version, "state": game.state}
    events = GameEvent.objects.filter(game=game, sequence__gt=since).order_by("sequence")
    return {
        "type": "events",
        "since": since,
        "version": game.version,
        "events": [event.as_message() for event in events],
    }
