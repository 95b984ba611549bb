"""Writes on games: every change of a game goes through these functions.

Views and consumers parse and authorise, then call a service; services lock the game row so two
requests on one game are applied one after the other, and broadcast only after the commit.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.utils import timezone

from games.models import BattleSize, ChatMessage, Game, new_token
from rules.engine import (
    Refusal,
    acting_player,
    dry_run,
    fight_preview,
    new_seed,
    seed_commitment,
    shooting_preview,
    unavailable_targets,
)
from rules.models import RuleSet


class GameError(Exception):
    """A request the lobby refuses; `code` is stable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def group_name(game_id: int) -> str:
    return f"game.{game_id}"


def broadcast_on_commit(game_id: int, message: dict) -> None:
    """Send to everyone watching the game once the transaction holding the change commits."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(
                group_name(game_id), {"type": "game.broadcast", "message": message}
            )

    transaction.on_commit(send)


# SQLite ignores SELECT ... FOR UPDATE. The embedded deployment is one process, so a process-wide
# lock serialises its writers (SQLite allows one writer at a time anyway); the UPDATE that opens
# every locked transaction also takes the database's write lock at once, so another process would
# wait for it (busy timeout) instead of reading a version that is about to change.
_SQLITE_WRITER = threading.RLock()


@contextmanager
def locked_game(game_id: int) -> Iterator[Game]:
    """The game row, locked until the transaction this opens ends: every write on a game (lobby,
    armies, actions) goes through here, so they are applied one after the other."""
    guard = _SQLITE_WRITER if connection.vendor == "sqlite" else nullcontext()
    with guard, transaction.atomic():
        if not Game.objects.filter(pk=game_id).update(updated=timezone.now()):
            raise GameError("game_unknown", "There is no such game.")
        yield Game.objects.select_for_update().select_related("ruleset").get(pk=game_id)


def create_game(
    creator,
    *,
    ruleset_slug: str | None = None,
    battle_size: str = BattleSize.INCURSION,
    mission: str = "",
    window_time_limit: int | None = None,
) -> Game:
    if ruleset_slug:
        ruleset = RuleSet.objects.filter(slug=ruleset_slug).first()
        if ruleset is None:
            raise GameError("unknown_ruleset", f"There is no rule set {ruleset_slug!r}.")
    else:
        ruleset = RuleSet.objects.filter(is_default=True).first()
        if ruleset is None:
            raise GameError("no_ruleset", "No default rule set: run manage.py load_rules.")
    if battle_size not in BattleSize.values:
        raise GameError("unknown_battle_size", f"There is no battle size {battle_size!r}.")
    if window_time_limit is not None and window_time_limit < 5:
        raise GameError("window_time_limit", "A stratagem window needs at least 5 seconds.")
    seed = new_seed()
    return Game.objects.create(
        creator=creator,
        ruleset=ruleset,
        battle_size=battle_size,
        mission=mission,
        window_time_limit=window_time_limit,
        dice_seed=seed,
        seed_commitment=seed_commitment(seed),
    )


@transaction.atomic
def join_by_invite(invite_token: str, user) -> Game:
    """Seat the first person who opens the invite link as the opponent; the link works once."""
    game = Game.objects.select_for_update().filter(invite_token=invite_token).first()
    if game is None:
        raise GameError("invite_unknown", "This invite link does not exist.")
    if game.creator_id == user.pk:
        raise GameError("invite_own_game", "You created this game: send the link to your opponent.")
    if game.opponent_id is not None:
        if game.opponent_id == user.pk:
            return game
        raise GameError("invite_used", "This invite link has already been used.")
    if game.status != Game.Status.WAITING:
        raise GameError("game_closed", "This game is no longer waiting for an opponent.")
    game.opponent = user
    game.status = Game.Status.MUSTERING
    game.save(update_fields=["opponent", "status", "updated"])
    broadcast_on_commit(
        game.pk, {"type": "lobby", "status": game.status, "opponent": user.get_username()}
    )
    return game


def revoke_spectator_link(game: Game, user) -> Game:
    return _set_spectator_token(game, user, None)


def renew_spectator_link(game: Game, user) -> Game:
    return _set_spectator_token(game, user, new_token())


def _set_spectator_token(game: Game, user, token: str | None) -> Game:
    """Only the creator changes who may watch: a new link, or none (revoked)."""
    with locked_game(game.pk) as game:
        if game.creator_id != user.pk:
            raise GameError("not_creator", "Only the game's creator can change its spectator link.")
        game.spectator_token = token
        game.save(update_fields=["spectator_token", "updated"])
        return game


def cancel_game(game: Game, user) -> Game:
    with locked_game(game.pk) as game:
        return _cancel_game(game, user)


def _cancel_game(game: Game, user) -> Game:
    if game.creator_id != user.pk:
        raise GameError("not_creator", "Only the game's creator can cancel it.")
    if game.status not in {Game.Status.WAITING, Game.Status.MUSTERING, Game.Status.DEPLOYMENT}:
        raise GameError("battle_started", "The battle has started: concede instead of cancelling.")
    game.status = Game.Status.ABANDONED
    game.save(update_fields=["status", "updated"])
    broadcast_on_commit(game.pk, {"type": "lobby", "status": game.status})
    return game


def concede(game: Game, user) -> Game:
    with locked_game(game.pk) as game:
        return _concede(game, user)


def _concede(game: Game, user) -> Game:
    seat = game.seat_of(user)
    if seat is None:
        raise GameError("not_a_player", "Only a player of this game can concede.")
    if game.is_over or game.opponent_id is None:
        raise GameError("not_in_progress", "This game is not in progress.")
    game.status = Game.Status.FINISHED
    game.winner = 2 if seat == 1 else 1
    game.save(update_fields=["status", "winner", "updated"])
    broadcast_result(game)
    return game


def broadcast_result(game: Game) -> None:
    """A finished game's result for the lobby and the table: its status, winner and the revealed
    dice seed (once the transaction commits)."""
    broadcast_on_commit(
        game.pk,
        {
            "type": "lobby",
            "status": game.status,
            "winner": game.winner,
            "dice_seed": game.dice_seed,
        },
    )


def post_chat(game: Game, user, text: str) -> ChatMessage:
    seat = game.seat_of(user)
    if seat is None:
        raise GameError("not_a_player", "Only the players talk at the table; spectators read.")
    text = text.strip()
    if not text:
        raise GameError("empty_message", "Write something first.")
    if len(text) > 500:
        raise GameError("message_too_long", "Chat messages are at most 500 characters.")
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, author=user, seat=seat, text=text)
        broadcast_on_commit(game.pk, {"type": "chat", "message": message.as_message()})
    return message


def revealed_seed(game: Game) -> str | None:
    """The dice seed is published only when the game is over."""
    return game.dice_seed if game.is_over else None


def shot_preview(
    game: Game, seat: int | None, unit_id: str, assignments, kind: str = "shoot"
) -> dict:
    """The damage preview of a shot (or, `kind` "fight", of the melee attacks) by the seat's own
    unit on the battlefield, as the engine would resolve it now, and each enemy unit it cannot
    shoot with the reason; attacks the engine would refuse are answered with that refusal (and
    no distributions)."""
    state = game.state
    if seat not in (1, 2):
        raise GameError("not_a_player", "Only the players preview their shots.")
    unit = (state or {}).get("units", {}).get(unit_id)
    if unit is None or unit["player"] != seat or unit.get("location") != "battlefield":
        raise GameError("not_your_unit", "Preview a unit of yours on the battlefield.")
    answer = {"trials": 0, "targets": {}, "groups": [], "unavailable": {}}
    try:
        if kind == "fight":
            answer.update(fight_preview(state, unit_id, assignments or None))
        else:
            answer["unavailable"] = unavailable_targets(state, unit_id)
            if assignments:
                answer.update(shooting_preview(state, unit_id, assignments))
    except Refusal as refusal:
        answer["refusal"] = refusal.as_dict()
    return answer


def check_action(game: Game, seat: int | None, action: dict) -> dict:
    """The engine's answer to the seat's action now, played on a copy and thrown away."""
    if seat not in (1, 2):
        raise GameError("not_a_player", "Only the players ask the referee.")
    if game.state is None or game.status not in (Game.Status.DEPLOYMENT, Game.Status.BATTLE):
        raise GameError("not_in_progress", "This game is not in progress.")
    if acting_player(game.state) != seat:
        raise GameError("not_your_turn", "Your opponent acts now.")
    return dry_run(game.state, {**action, "player": seat})
