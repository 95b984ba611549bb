"""Websocket URL routes of every app."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from games.routing import websocket_urlpatterns as game_routes
from tabletop.health import ChannelLayerEchoConsumer


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any other websocket path (a malformed game id included): accepted and closed with 4404,
    instead of an unrouted connection failing inside the server."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=4404, reason="not_found")


websocket_urlpatterns = [
    path("ws/echo/", ChannelLayerEchoConsumer.as_asgi()),
    *game_routes,
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
