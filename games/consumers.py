"""The game's websocket: authenticate, parse messages, call services, relay events."""

from __future__ import annotations

import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import matches, messages, selectors, services
from games.models import Game
from games.protocol import ProtocolError, parse_message

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# Tries at leaving the audience group when a connection ends: a member left behind would be sent
# every later broadcast until the layer's group expiry.
LEAVE_ATTEMPTS = 3

log = logging.getLogger(__name__)

# Applying an action (database, engine, legal actions) runs in the thread pool, not in the one
# thread Channels keeps for the database by default, so one game's action does not queue
# behind every other game's; each game is still serialised by its row lock.
apply_action = database_sync_to_async(matches.apply_action, thread_sensitive=False)


class GameConsumer(AsyncWebsocketConsumer):
    """One connection per browser per game: a player of seat 1 or 2, or a spectator by token."""

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("spectate", [None])[0]
        seat = await database_sync_to_async(selectors.connection_seat)(
            self.game_id, self.scope.get("user"), token
        )
        if seat is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.seat = seat
        self.group = messages.audience_group(self.game_id, messages.audience_of(seat))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        hello = await database_sync_to_async(selectors.hello)(self.game_id, seat)
        await self.send_json(hello)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        for attempt in range(1, LEAVE_ATTEMPTS + 1):
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
                return
            except Exception:  # the layer's own errors (Redis connection, pool) vary by backend
                log.warning(
                    "leaving %s failed (attempt %d of %d)",
                    self.group,
                    attempt,
                    LEAVE_ATTEMPTS,
                    exc_info=True,
                )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = parse_message(text_data)
            # A spectator's action gets the `refused` answer from matches.apply_action.
            if self.seat == selectors.SPECTATOR and message["type"] not in ("sync", "action"):
                raise ProtocolError(
                    "spectators_read_only", "spectators watch; they cannot act or chat"
                )
            handler = getattr(self, f"handle_{message['type']}")
            await handler(message)
        except ProtocolError as error:
            await self.send_json(error.as_message())
        except services.GameError as error:
            await self.send_json(messages.error(error.code, error.message))

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
        await database_sync_to_async(self._post_chat)(message["text"])

    def _post_chat(self, text: str) -> None:
        game = Game.objects.get(pk=self.game_id)
        services.post_chat(game, self.scope["user"], text)

    async def game_broadcast(self, event: dict) -> None:
        # Encoded once for this connection's audience (games.messages).
        await self.send(text_data=event["text"])

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=messages.encode(content))
