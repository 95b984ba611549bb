"""The game's websocket: authenticate, parse messages, call services, relay events.

Nothing a client sends closes its socket: bad input is answered with `error` and a code, and an
unexpected exception is logged (game, seat, message type) and answered with `server_error`. Only a
refused connection, or a spectator link revoked or renewed, is closed (4403, docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games import fanout, matches, messages, practice, selectors, services, window_clock
from games.models import Game
from games.protocol import ProtocolError, parse_message
from tabletop import metrics

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# Chat one connection may send: at most this many messages in any CHAT_PERIOD seconds (the
# player's budget across all their connections is services.CHAT_BURST).
CONNECTION_CHAT_BURST = 5
# Tries at leaving the game's group when the process's last connection to the game ends (a
# process left behind is sent the game's broadcasts and tries again when one comes).
LEAVE_ATTEMPTS = 3

# Applying an action (database, engine, legal actions) runs in a pool of its own, not in the one
# thread Channels keeps for the database by default, so one game's action does not queue
# behind every other game's; each game is still serialised by its row lock. Its size is
# settings.ACTION_THREADS: more threads overlap the database and Redis waits, fewer leave the GIL
# to the event loop that delivers every message (docs/performance.md, "Threads against the event
# loop").
ACTIONS = ThreadPoolExecutor(max_workers=settings.ACTION_THREADS, thread_name_prefix="actions")
apply_action = database_sync_to_async(
    matches.apply_action, thread_sensitive=False, executor=ACTIONS
)
# This process's stratagem-window timers (games/window_clock.py): every connection arms the timer
# of its game's window; the check under the game's lock makes duplicates harmless.
CLOCK = window_clock.ProcessClock(matches.expire_window)


class GameConsumer(AsyncWebsocketConsumer):
    """One connection per browser per game: a player of seat 1 or 2, or a spectator by token.

    Broadcasts reach it through its process's registry (games/fanout.py), not through a channel
    of its own: the alias names no channel layer, so Channels gives it none (no channel, no
    receive waiting on the layer, no dispatch per broadcast)."""

    channel_layer_alias = "none: broadcasts come through games.fanout"
    seat: int | None = None
    role = "refused"
    game_id: int | None = None
    # Broadcasts that came before `hello` went out wait here, so the client reads `hello` first.
    held: list[str] | None = None

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the connection ended (a handler raised, the task was cancelled), nothing is
            # handed to it any more, and the process leaves the game's group if it was the last.
            if self._forget():
                await self._leave_group(self.fanout, self.game_id)

    async def dispatch(self, message: dict) -> None:
        # Channels closes stale database connections before every message, a hop to its database
        # thread per frame; every database call here goes through database_sync_to_async, which
        # does that in the thread that uses the connection.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.token = query.get("spectate", [None])[0]
        seat = await database_sync_to_async(selectors.connection_seat)(
            self.game_id, self.scope.get("user"), self.token
        )
        # Accept, say why, then close with 4403: a refused handshake would reach the browser as
        # a bare 1006 it cannot tell from a dropped network, and it would reconnect forever.
        await self.accept()
        if seat is None:
            await self.refuse(
                "forbidden", "You may not watch or play this game (or the link was revoked)."
            )
            return
        self.seat = seat
        self.role = "spectator" if seat == selectors.SPECTATOR else "player"
        metrics.OPEN_SOCKETS.labels(role=self.role).inc()
        self.chat_times: list[float] = []
        self.held = []
        self.fanout = fanout.here(CLOCK)
        await self.fanout.join(self.game_id, self, messages.audience_of(seat))
        try:
            hello = await database_sync_to_async(selectors.hello)(self.game_id, seat)
        except Exception:
            self.held = None
            self._log_unexpected("hello")
            await self.send_json(_server_error())
            return
        await self.send_json(hello)
        # In order: what arrives while these go out joins the end of the queue.
        while self.held:
            await self._send_text(self.held.pop(0))
        self.held = None
        CLOCK.arm(self.game_id, hello.get("window"), hello.get("version"))
        if self.role == "player":
            # A practice game whose computer is to act (after a restart) resumes.
            await database_sync_to_async(practice.wake_if_to_move)(self.game_id)

    async def refuse(self, code: str, message: str) -> None:
        await self.send_json(messages.error(code, message))
        await self.close(code=CLOSE_FORBIDDEN, reason=code)

    async def disconnect(self, code: int) -> None:
        if self.seat is not None:
            metrics.OPEN_SOCKETS.labels(role=self.role).dec()
        await self._leave()

    def _forget(self) -> bool:
        """Out of the process's registry; True when it was the process's last connection to the
        game, and so the process should leave the game's group."""
        if not hasattr(self, "fanout"):
            return False
        return self.fanout.forget(self.game_id, self)

    async def _leave(self) -> None:
        if self._forget():
            await self._leave_group(self.fanout, self.game_id)

    @staticmethod
    async def _leave_group(registry: fanout.Fanout, game_id: int) -> None:
        for attempt in range(1, LEAVE_ATTEMPTS + 1):
            try:
                await registry.leave(game_id)
                return
            except Exception:  # the layer's own errors (Redis connection, pool) vary by backend
                log.warning(
                    "leaving %s failed (attempt %d of %d)",
                    fanout.game_group(game_id),
                    attempt,
                    LEAVE_ATTEMPTS,
                    exc_info=True,
                )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.seat is None:
            return  # refused, closing
        kind = None
        try:
            message = parse_message(text_data)
            kind = message["type"]
            # A spectator's action gets the `refused` answer from matches.apply_action.
            if self.seat == selectors.SPECTATOR and kind not in ("sync", "action"):
                raise ProtocolError(
                    "spectators_read_only", "spectators watch; they cannot act or chat"
                )
            handler = getattr(self, f"handle_{kind}")
            await handler(message)
        except ProtocolError as error:
            metrics.FRAMES_REFUSED.labels(code=error.code).inc()
            await self.send_json(error.as_message())
        except services.GameError as error:
            metrics.FRAMES_REFUSED.labels(code=error.code).inc()
            await self.send_json(messages.error(error.code, error.message))
        except Exception:
            self._log_unexpected(kind)
            await self.send_json(_server_error())

    def _log_unexpected(self, kind: str | None) -> None:
        metrics.SERVER_ERRORS.labels(where="websocket").inc()
        log.exception(
            "websocket message failed",
            extra={"game_id": self.game_id, "seat": self.seat, "message_type": kind},
        )

    async def handle_sync(self, message: dict) -> None:
        reply = await database_sync_to_async(selectors.catch_up)(
            self.game_id, message["since"], self.seat
        )
        await self.send_json(reply)

    async def handle_action(self, message: dict) -> None:
        # The seat comes from the connection, never from the message (matches.apply_action).
        reply = await apply_action(
            self.game_id, self.seat, message["version"], message["client_id"], message["action"]
        )
        await self.send_json(reply)

    async def handle_chat(self, message: dict) -> None:
        now = time.monotonic()
        self.chat_times = [t for t in self.chat_times if now - t < services.CHAT_PERIOD]
        if len(self.chat_times) >= CONNECTION_CHAT_BURST:
            raise services.GameError(
                "chat_rate_limited",
                f"At most {CONNECTION_CHAT_BURST} chat messages every "
                f"{services.CHAT_PERIOD} seconds: wait a moment.",
            )
        self.chat_times.append(now)
        await database_sync_to_async(self._post_chat)(message["text"])

    def _post_chat(self, text: str) -> None:
        game = Game.objects.get(pk=self.game_id)
        services.post_chat(game, self.scope["user"], text)

    async def deliver(self, text: str) -> None:
        """A broadcast's text for this connection's audience, encoded once for all of them
        (games.messages), handed over by the process's registry (games/fanout.py)."""
        if self.held is not None:
            self.held.append(text)
        else:
            await self._send_text(text)

    async def _send_text(self, text: str) -> None:
        if len(text) > selectors.MAX_OUTGOING_BYTES:
            # Rare, and it reads the database: in a task of its own, not in the registry's.
            asyncio.get_running_loop().create_task(self._send_within_bound(text))
        else:
            await self.send(text_data=text)

    async def _send_within_bound(self, text: str) -> None:
        try:
            await self.send(text_data=await database_sync_to_async(self._within_bound)(text))
        except Exception:
            self._log_unexpected("events")

    async def spectator_link_changed(self) -> None:
        """The creator revoked or renewed the spectator link: a spectator of the old link goes."""
        if self.seat != selectors.SPECTATOR:
            return
        try:
            seat = await database_sync_to_async(selectors.connection_seat)(
                self.game_id, None, self.token
            )
            if seat is None:
                # Nothing more reaches it from now; it is told before the process leaves the
                # game's group, which waits on the channel layer.
                last = self._forget()
                await self.refuse(
                    "spectator_link_revoked", "The spectator link was revoked or renewed."
                )
                if last:
                    await self._leave_group(self.fanout, self.game_id)
        except Exception:
            self._log_unexpected("spectator_link_changed")

    async def send_json(self, content: dict) -> None:
        text = messages.encode(content)
        if len(text) > selectors.MAX_OUTGOING_BYTES:
            text = await database_sync_to_async(self._within_bound)(text)
        await self.send(text_data=text)

    def _within_bound(self, text: str) -> str:
        """A message over the bound: `events` becomes a snapshot (the client loses the
        animation, not the state); anything else is logged and answered with an error."""
        kind = messages.kind_of(text)
        log.warning(
            "outgoing message over the bound",
            extra={
                "game_id": self.game_id,
                "seat": self.seat,
                "message_type": kind,
                "bytes": len(text),
            },
        )
        if kind == "events":
            snapshot = selectors.snapshot(Game.objects.get(pk=self.game_id), self.seat)
            text = messages.encode(snapshot)
            if len(text) <= selectors.MAX_OUTGOING_BYTES:
                return text
        metrics.SERVER_ERRORS.labels(where="too_large").inc()
        return messages.encode(messages.error("too_large_to_send", "The answer is too large."))


def _server_error() -> dict:
    return {
        "type": "error",
        "code": "server_error",
        "message": "The server failed to answer that message; it has been logged.",
    }
