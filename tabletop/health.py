"""Liveness checks: is the database answering, does the channel layer carry a message?"""

import asyncio
import logging
import re
import uuid
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse

from games.protocol import ProtocolError, parse_frame

log = logging.getLogger(__name__)


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure means "not working"
        return {"ok": False, "vendor": connection.vendor, "error": str(error)}
    return {"ok": True, "vendor": connection.vendor}


async def _channel_layer_round_trip() -> dict:
    layer = get_channel_layer()
    if layer is None:
        return {"ok": False, "backend": None, "error": "no channel layer configured"}
    backend = type(layer).__name__
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    try:
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    except Exception as error:  # noqa: BLE001
        return {"ok": False, "backend": backend, "error": str(error)}
    return {"ok": message.get("token") == token, "backend": backend}


def check_channel_layer() -> dict:
    return async_to_sync(_channel_layer_round_trip)()


def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    channel_layer = check_channel_layer()
    ok = database["ok"] and channel_layer["ok"]
    return JsonResponse(
        {"ok": ok, "database": database, "channel_layer": channel_layer},
        status=200 if ok else 503,
    )


ECHO_GROUP_NAME = re.compile(r"[a-z0-9]{1,40}")


class ChannelLayerEchoConsumer(AsyncJsonWebsocketConsumer):
    """Echoes each message back after a trip through a channel-layer group.

    A client (or a monitor) can check that websockets and the channel layer work end to end, the
    same path game events take to reach every browser watching a game. Sockets opened with the
    same `?group=<name>` share one group, so a message reaches all of them: the bare fan-out
    bench/fanout.py compares the game's broadcasts with. Echo groups are named apart from the
    games' groups, so no game can be heard here.
    """

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        name = query.get("group", [""])[0]
        if not ECHO_GROUP_NAME.fullmatch(name):
            name = uuid.uuid4().hex
        self.group = f"echo.{name}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        # The same checks as the game's socket: bad input is answered, never crashes the socket.
        try:
            content = parse_frame(text_data)
            await self.channel_layer.group_send(
                self.group, {"type": "echo.message", "body": content}
            )
        except ProtocolError as error:
            await self.send_json(error.as_message())
        except Exception:
            log.exception("echo failed")
            await self.send_json(
                {"type": "error", "code": "server_error", "message": "The echo failed."}
            )

    async def echo_message(self, event: dict) -> None:
        await self.send_json({"type": "echo", "body": event["body"], "via": "channel_layer"})
