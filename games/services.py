"""Writes on games: every change of a game goes through these functions.

Views and consumers parse and authorise, then call a service; services lock the game row so two
requests on one game are applied one after the other, and broadcast only after the commit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, FilteredRelation, Q

from games import fanout, messages, missions, results, selectors
from games.compiled import CompiledQuery
from games.models import BattleSize, ChatMessage, ClientAction, Game, GameEvent, new_token
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
from tabletop import metrics

log = logging.getLogger(__name__)
# The longest stratagem-window clock a game may have (the lobby form's maximum too).
MAX_WINDOW_TIME_LIMIT = 600
# Chat a player may send: at most CHAT_BURST messages in any CHAT_PERIOD seconds (a sliding
# window, `chat_allowed`; CHAT_PERIOD is whole seconds).
CHAT_BURST = 8
CHAT_PERIOD = 10


class GameError(Exception):
    """A request the lobby refuses; `code` is stable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def broadcast_on_commit(game_id: int, message: dict) -> None:
    """Send to everyone watching the game once the transaction holding the change commits (the
    message built by games.messages, encoded once)."""
    clock = (
        {"window": message["window"], "version": message.get("version")}
        if "window" in message
        else {}
    )
    broadcast_texts_on_commit(
        game_id, lambda: messages.same_for_everyone(message), message.get("type", "?"), **clock
    )


def broadcast_texts_on_commit(
    game_id: int, build_texts: Callable[[], dict[int, str]], kind: str = "events", **clock
) -> None:
    """After the commit, build each audience's text (games.messages.AUDIENCES) and send them, in
    one channel-layer message to the game's group (games/fanout.py): what is built after the
    commit (legal actions, encoding) does not hold the game's lock. `window` (the stratagem
    window's clock, when the message carries it) and the `version` that announced it travel
    beside the texts, for each process's timer (games/window_clock.py).

    The change is committed whatever happens to the broadcast: a failure (the channel layer
    down, a value it cannot encode) is logged and counted, never raised, so the request that made
    the change still gets its answer. Clients catch up by version (docs/protocol.md)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            message = fanout.broadcast_message(game_id, build_texts(), **clock)
            async_to_sync(fanout.publish)(game_id, message)
        except Exception:
            metrics.BROADCAST_FAILURES.labels(type=kind).inc()
            log.exception(
                "broadcast failed after commit",
                extra={"game_id": game_id, "message_type": kind},
            )

    transaction.on_commit(send)


def notify_on_commit(game_id: int, kind: str) -> None:
    """A control message to the game's sockets (not relayed to clients), after the commit."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            message = fanout.notice_message(game_id, kind)
            async_to_sync(fanout.publish)(game_id, message)
        except Exception:
            metrics.BROADCAST_FAILURES.labels(type=kind).inc()
            log.exception("notice failed after commit", extra={"game_id": game_id})

    transaction.on_commit(send)


# SQLite ignores SELECT ... FOR UPDATE. The embedded deployment is one process, so a process-wide
# lock serialises its writers (SQLite allows one writer at a time anyway); its transactions begin
# IMMEDIATE (tabletop/settings.py), which takes the database's write lock at once, so another
# process waits for it (busy timeout) instead of reading a version that is about to change.
_SQLITE_WRITER = threading.RLock()


@contextmanager
def _game_transaction(game_id: int) -> Iterator[None]:
    """The transaction of a write on a game; the caller's read takes PostgreSQL's row lock."""
    sqlite = connection.vendor == "sqlite"
    with _SQLITE_WRITER if sqlite else nullcontext(), transaction.atomic():
        if sqlite and connection.transaction_mode != "IMMEDIATE":
            # Begun DEFERRED (other settings than ours): a write that changes nothing takes the
            # write lock, and leaves `updated` alone, which games.live_states compares.
            Game.objects.filter(pk=game_id).update(version=F("version"))
        yield


@contextmanager
def locked_game(game_id: int) -> Iterator[Game]:
    """The game row, locked until the transaction this opens ends: every write on a game (lobby,
    armies, actions) goes through here, so they are applied one after the other; an action reads
    through `locked_game_for_action`, without the big JSON columns."""
    with _game_transaction(game_id):
        # `of`: the game's row only. FOR UPDATE alone also locks the rows select_related joins,
        # and every game of a rule set shares its row: each action (engine included) waited for
        # every other game's, on every worker (docs/performance.md, "Fourth pass").
        rows = Game.objects.select_for_update(of=("self",)).select_related("ruleset")
        try:
            game = rows.get(pk=game_id)
        except Game.DoesNotExist:
            raise GameError("game_unknown", "There is no such game.") from None
        yield game


# An action's read (games.matches.apply_action): the game row locked, without the big JSON
# columns an action does not need (the state comes from games.live_states), and the answer
# already given to the client's action id, if any, in one statement compiled once
# (docs/performance.md, "Seventh pass").
_ACTION_READ = CompiledQuery(
    lambda game_id, seat, client_id: (
        Game.objects.select_for_update(of=("self",))
        .defer("stored_state", "setup", "army_snapshots")
        .annotate(
            answered=FilteredRelation(
                "client_actions",
                condition=Q(client_actions__seat=seat, client_actions__client_id=client_id),
            ),
            answer=F("answered__response"),
        )
        .filter(pk=game_id)
        .order_by()
    ),
    game_id=2_000_000_017,
    seat=32_017,
    client_id="client-id-marker",
)
_ANSWER = ClientAction._meta.get_field("response")


@contextmanager
def locked_game_for_action(
    game_id: int, seat: int, client_id: str
) -> Iterator[tuple[Game, dict[str, Any] | None]]:
    """`locked_game` for an action: the game row (its state, setup and army lists deferred) and
    the answer stored under (game, seat, client_id), None if this action id is new."""
    with _game_transaction(game_id):
        rows = list(_ACTION_READ.raw(game_id=game_id, seat=seat, client_id=client_id))
        if not rows:
            raise GameError("game_unknown", "There is no such game.")
        game = rows[0]
        answer = game.__dict__.pop("answer")
        yield game, _ANSWER.from_db_value(answer, None, connection)


def create_game(
    creator,
    *,
    ruleset_slug: str | None = None,
    battle_size: str = BattleSize.INCURSION,
    mission: str = "",
    window_time_limit: int | None = None,
    listed: bool = False,
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
    if window_time_limit is not None and window_time_limit > MAX_WINDOW_TIME_LIMIT:
        raise GameError(
            "window_time_limit",
            f"A stratagem window lasts at most {MAX_WINDOW_TIME_LIMIT} seconds.",
        )
    if mission:
        problem = missions.fits(mission, battle_size, ruleset.slug)
        if problem:
            raise GameError("mission_unfit", problem)
    seed = new_seed()
    return Game.objects.create(
        creator=creator,
        ruleset=ruleset,
        battle_size=battle_size,
        mission=mission,
        window_time_limit=window_time_limit,
        listed=listed,
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
    broadcast_lobby(game, opponent=user.get_username())
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
        # Spectators watching through the old link are cut off at once (docs/protocol.md).
        notify_on_commit(game.pk, "spectator_link_changed")
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
    game.window_decision = game.window_deadline = None
    game.save(update_fields=["status", "window_decision", "window_deadline", "updated"])
    broadcast_lobby(game, window=None)
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
    game.window_decision = game.window_deadline = None
    fields = ["status", "winner", "window_decision", "window_deadline", "updated"]
    if game.state is not None:
        # The concession is the last entry of the log, so a replay and a reloaded log end with it.
        game.version += 1
        conceded = GameEvent.objects.create(
            game=game,
            sequence=game.version,
            kind=results.CONCEDED,
            payload={"player": seat, "winner": game.winner},
        )
        fields.append("version")
        # The state does not change: an empty patch moves every client to the new version.
        logged = [conceded.as_message()]
        since, version = game.version - 1, game.version
        broadcast_texts_on_commit(
            game.pk,
            lambda: messages.events_texts(
                since=since,
                version=version,
                events_by_audience=dict.fromkeys(messages.AUDIENCES, logged),
                patch_by_audience=dict.fromkeys(messages.AUDIENCES, []),
                status=game.status,
                window=None,
                legal_actions_by_seat={},
            ),
            window=None,
            version=version,
        )
    game.save(update_fields=fields)
    broadcast_result(game)
    return game


def broadcast_lobby(game: Game, **extra) -> None:
    """A change of the game's status, players or armies, for every page of the game: the status
    and the whole public game (docs/protocol.md, `lobby`), once the transaction commits."""
    broadcast_on_commit(
        game.pk, messages.lobby(game.status, game=selectors.public_game(game), **extra)
    )


def broadcast_result(game: Game) -> None:
    """A finished game's result for the lobby and the table: its status, winner and the revealed
    dice seed, and nothing more to do for anyone (once the transaction commits): each seat is
    told it has no legal action left."""
    message = messages.lobby(
        game.status,
        game=selectors.public_game(game),
        winner=game.winner,
        dice_seed=game.dice_seed,
        version=game.version,
        window=None,
    )
    broadcast_texts_on_commit(
        game.pk,
        lambda: messages.with_legal_actions(message, {1: [], 2: []}),
        "lobby",
        window=None,
        version=game.version,
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
    if not chat_allowed(game.pk, user.pk):
        raise GameError(
            "chat_rate_limited",
            f"At most {CHAT_BURST} chat messages every {CHAT_PERIOD} seconds: wait a moment.",
        )
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, author=user, seat=seat, text=text)
        broadcast_on_commit(game.pk, messages.chat(message.as_message()))
    return message


def chat_allowed(game_id: int, user_id: int) -> bool:
    """A player's chat budget in this game, on the shared cache (all workers count together): at
    most CHAT_BURST messages in any CHAT_PERIOD seconds, a sliding window.

    A message counts in the bucket of its whole second (`add` then `incr`: atomic on Redis and in
    the in-memory cache) and goes if the buckets of that second and the CHAT_PERIOD seconds before
    it hold at most CHAT_BURST; otherwise it takes its count back and is refused. Those buckets
    cover every message of the CHAT_PERIOD seconds before this one, whichever second it falls in,
    so no boundary lets a second burst through (a fixed window did); the price is a message
    refused up to a second longer than it had to be. A message reads the counts after adding its
    own, so of two counted at once on two workers the later reader sees both: at worst both are
    refused, never both let through past the limit."""
    second = int(time.time())
    key = f"chat:{game_id}:{user_id}:{second}"
    window = [f"chat:{game_id}:{user_id}:{second - back}" for back in range(CHAT_PERIOD + 1)]
    try:
        # A bucket outlives the window that can read it.
        cache.add(key, 0, timeout=CHAT_PERIOD + 2)
        cache.incr(key)
        if sum(cache.get_many(window).values()) <= CHAT_BURST:
            return True
        # A bucket expired meanwhile has nothing left to take back.
        with suppress(ValueError):
            cache.decr(key)
        return False
    except ValueError:  # the bucket expired between add and incr
        return True
    except Exception:
        # The cache (Redis) is down: chat goes on unlimited rather than not at all.
        log.warning("chat rate limit unavailable", exc_info=True, extra={"game_id": game_id})
        return True


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
    """The engine's answer to the seat's action now, played on a copy and thrown away. A refused
    draft is an answer (`accepted: false`), as is one checked when the seat cannot act now (the
    turn passed or the game ended while the table was dragging a unit); only asking as no player
    is an error."""
    if seat not in (1, 2):
        raise GameError("not_a_player", "Only the players ask the referee.")
    if game.state is None or game.status not in (Game.Status.DEPLOYMENT, Game.Status.BATTLE):
        return _not_accepted("not_in_progress", "This game is not in progress.")
    if acting_player(game.state) != seat:
        return _not_accepted("not_your_turn", "Your opponent acts now.")
    return dry_run(game.state, {**action, "player": seat})


def _not_accepted(code: str, message: str) -> dict:
    return {"accepted": False, "code": code, "message": message}
