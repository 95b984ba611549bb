"""The game's websocket: authenticate, parse messages, call services, relay events."""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.serializers.json import DjangoJSONEncoder

from games import matches, selectors, services, window_clock
from games.models import Game
from games.protocol import ProtocolError, parse_message

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# This process's stratagem-window timers (games/window_clock.py): every connection arms the timer
# of its game's window; the check under the game's lock makes duplicates harmless.
CLOCK = window_clock.ProcessClock(matches.expire_window)


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
        self.group = services.group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        hello = await database_sync_to_async(selectors.hello)(self.game_id, seat)
        await self.send_json(hello)
        CLOCK.arm(self.game_id, hello.get("window"))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

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
            await self.send_json({"type": "error", "code": error.code, "message": error.message})

    async def handle_sync(self, message: dict) -> None:
        reply = await database_sync_to_async(selectors.catch_up)(
            self.game_id, message["since"], self.seat
        )
        await self.send_json(reply)

    async def handle_action(self, message: dict) -> None:
        # The seat comes from the connection, never from the message (matches.apply_action).
        reply = await database_sync_to_async(matches.apply_action)(
            self.game_id, self.seat, message["version"], message["client_id"], message["action"]
        )
        await self.send_json(reply)

    async def handle_chat(self, message: dict) -> None:
        await database_sync_to_async(self._post_chat)(message["text"])

    def _post_chat(self, text: str) -> None:
        game = Game.objects.get(pk=self.game_id)
        services.post_chat(game, self.scope["user"], text)

    async def game_broadcast(self, event: dict) -> None:
        message = event["message"]
        await self.send_json(selectors.for_seat(message, self.seat))
        if "window" in message:
            CLOCK.arm(self.game_id, message["window"])

    async def send_json(self, content: dict) -> None:
        await self.send(text_data=json.dumps(content, cls=DjangoJSONEncoder))
