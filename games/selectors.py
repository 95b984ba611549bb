"""Reads on games: who is connected, what a client needs to catch up."""

from __future__ import annotations

from typing import Any

from games.models import Game, GameEvent
from rules.engine import display, legal_actions, public_state
from rules.models import Enhancement

SPECTATOR = 0
# The key of the internal broadcast that carries each seat's legal actions; every connection
# replaces it with `legal_actions` for its own seat (spectators get none).
LEGAL_ACTIONS_BY_SEAT = "legal_actions_by_seat"
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


def table_state(state: dict[str, Any]) -> dict[str, Any]:
    """The engine state as sent to every watcher: without the dice seed (until the end), with the
    names and texts the table shows (`rules.engine.display`, and the enhancements the models
    bear, from the rules data). Never send the stored state."""
    visible = public_state(state)
    visible["display"] = display(state)
    borne = sorted(
        {
            slug
            for unit in state.get("units", {}).values()
            for model in unit.get("models", [])
            for slug in model.get("enhancements", [])
        }
    )
    visible["display"]["enhancements"] = _enhancements(tuple(borne))
    return visible


def _enhancements(slugs: tuple[str, ...]) -> dict[str, dict[str, str]]:
    if not slugs:
        return {}
    found = Enhancement.objects.filter(slug__in=slugs).values("slug", "name", "effect_text")
    return {e["slug"]: {"name": e["name"], "text": e["effect_text"]} for e in found}


def visible_state(game: Game) -> dict[str, Any] | None:
    return table_state(game.state) if game.state is not None else None


def game_state(game: Game, seat: int | None) -> dict[str, Any]:
    """What a client needs to draw the table: the public state and its own legal actions."""
    reply = {
        "version": game.version,
        "status": game.status,
        "state": visible_state(game),
        "window": window(game),
    }
    if seat in (1, 2):
        reply["legal_actions"] = legal_actions_for(game.state, seat)
    return reply


def hello(game_id: int, seat: int) -> dict:
    game = Game.objects.select_related("creator", "opponent", "ruleset").get(pk=game_id)
    chat = [message.as_message() for message in game.chat.select_related("author")]
    return {
        "type": "hello",
        "seat": seat or None,
        "game": public_game(game),
        "chat": chat,
        **game_state(game, seat),
    }


def catch_up(game_id: int, since: int, seat: int | None = None) -> dict:
    """The events a client missed after version `since`, in order, or a snapshot when far behind;
    with the state now and the seat's legal actions either way."""
    game = Game.objects.get(pk=game_id)
    if since > game.version:
        return {"type": "error", "code": "version_ahead", "message": "You are ahead of the server."}
    current = game_state(game, seat)
    if game.version - since > SNAPSHOT_AFTER_MISSED_EVENTS and game.state is not None:
        return {"type": "snapshot", **current}
    events = GameEvent.objects.filter(game=game, sequence__gt=since).order_by("sequence")
    return {
        "type": "events",
        "since": since,
        "events": [event.as_message() for event in events],
        **current,
    }


def for_seat(message: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A broadcast as one connection sends it: its own seat's legal actions, nobody else's."""
    if LEGAL_ACTIONS_BY_SEAT not in message:
        return message
    personal = {key: value for key, value in message.items() if key != LEGAL_ACTIONS_BY_SEAT}
    if seat in (1, 2):
        personal["legal_actions"] = message[LEGAL_ACTIONS_BY_SEAT][str(seat)]
    return personal
